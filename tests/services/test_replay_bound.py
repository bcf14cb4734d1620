"""Replays of long rounds and games stay within their bound (issue 39) and watchable.

A Basic round of 6 whose stock is turned over lasts far more turns than a replay has frames:
the frames drawn (the ones the bot's GIF and step-through use, from the stored moves) are at
most :data:`~bot.features.replays.replay.ROUND_FRAMES`, every turn that changed the melds keeps
its own frame, runs of quiet turns share frames whose caption names the turns and players, and
a shared frame is the picture of its last turn (a running moment, so it shows no hand). The
frame selection's invariants are also checked on made-up rounds with hypothesis.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.features.play.tables import Table
from bot.features.replays import replay as replays
from bot.render import Renderer
from bot.storage import MoveRecord, SeatRecord, TableRecord
from rummy_engine import Event, Game, Options, Phase, Rules, Variant, action_to_json
from rummy_engine.strategy import choose_action

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
SUITS = "♠♥♦♣"
WHEN = datetime(2026, 12, 2, tzinfo=UTC)


def basic_game(seed: int, rounds: int) -> tuple[list[MoveRecord], Game]:
    """A Basic rummy game of 6 computers from ``seed`` (the stock turned over whenever it
    runs out, the default), as the moves the store keeps."""
    game = Game.new(Rules(Variant.BASIC, 6, Options(basic_rounds=rounds)), seed)
    rng = random.Random(seed)
    moves = [MoveRecord(7, 1, 10, json.dumps({"genesis": game.genesis()}), "[]", WHEN)]
    while game.phase is not Phase.GAME_OVER:
        action = choose_action(game, rng)
        events = [e.to_json() for e in game.apply(action)]
        moves.append(
            MoveRecord(
                7, len(moves) + 1, 10, json.dumps(action_to_json(action)), json.dumps(events), WHEN
            )
        )
    return moves, game


def table_of(game: Game) -> Table:
    record = TableRecord(
        7, 1, 2, 10, "finished", "basic", "basic", "{}", 1,
        json.dumps(game.to_json()), 1, WHEN, WHEN, WHEN,
    )  # fmt: skip
    return Table(record, tuple(SeatRecord(s, 10 + s, name=NAMES[s]) for s in range(6)), game)


def turns_of(moves: Sequence[MoveRecord], round_no: int) -> list[replays.Moment]:
    log = replays.Log.of(moves)
    return [m for m in replays.moments(log, frozenset({round_no})) if m.kind == "turn"]


@pytest.fixture(scope="module")
def long_round() -> tuple[list[MoveRecord], Game, int]:
    """The first seed's game with a round of twice the frames a round may have, its stock
    turned over on the way."""
    for seed in range(1, 60):
        moves, game = basic_game(seed, rounds=3)
        for round_no in range(1, game.round_no + 1):
            turns = turns_of(moves, round_no)
            restocked = any(e.kind == "discard_turned_over" for m in turns for e in m.events)
            if len(turns) > 2 * replays.ROUND_FRAMES and restocked:
                return moves, game, round_no
    pytest.fail("no long Basic round among the seeds")


def test_a_long_round_is_drawn_in_at_most_48_frames_every_lay_shown(
    long_round: tuple[list[MoveRecord], Game, int],
) -> None:
    moves, game, round_no = long_round
    table = table_of(game)
    turns = turns_of(moves, round_no)
    found = replays.round_moments(table, moves, round_no)
    assert len(found) <= replays.ROUND_FRAMES < len(turns)
    assert found[0].kind == "deal" and found[-1].kind == "end"
    assert found[-2].turn == turns[-1].turn and not found[-2].covers, "going out is shown alone"
    shown = [m.turn for m in found if m.kind == "turn" and not m.covers]
    assert all(t.turn in shown for t in turns if not t.quiet), "a lay is grouped away"
    covered = [c.turn for m in found for c in (m.covers or ((m,) if m.kind == "turn" else ()))]
    assert covered == [t.turn for t in turns], "every turn in one frame, in order"
    gif = Renderer().render(replays.replay_scene(table, found, "en"))
    with Image.open(io.BytesIO(gif)) as image:
        assert image.n_frames == len(found)


def test_grouped_captions_name_the_turns_and_players_and_no_card(
    long_round: tuple[list[MoveRecord], Game, int],
) -> None:
    moves, game, round_no = long_round
    table = table_of(game)
    grouped = [m for m in replays.round_moments(table, moves, round_no) if m.covers]
    assert grouped, "a long round groups quiet turns"
    restocked = False
    for frame in grouped:
        first, last = frame.covers[0].turn, frame.covers[-1].turn
        assert frame.game is frame.covers[-1].game, "the picture is the last turn's"
        english = replays.caption(table, frame, "en")
        french = replays.caption(table, frame, "fr")
        assert english.startswith(f"Turns {first}–{last} · ")
        assert french.startswith(f"Tours {first} à {last} · ")
        seats = {next(e.seat for e in c.events if e.seat is not None) for c in frame.covers}
        for seat in seats:
            assert NAMES[seat] in english and NAMES[seat] in french
        assert not any(s in english + french for s in SUITS), "a quiet frame names no card"
        if any(e.kind == "discard_turned_over" for c in frame.covers for e in c.events):
            restocked = True
            assert "became the new stock" in english
            assert "nouvelle pioche" in french
    assert restocked, "the long round's stock was turned over within a group"


def test_a_long_game_is_drawn_in_at_most_400_frames() -> None:
    moves, game = basic_game(seed=2, rounds=24)
    table = table_of(game)
    rounds = range(1, game.round_no + 1)
    alone = sum(len(replays.round_moments(table, moves, r)) for r in rounds)
    assert alone > replays.GAME_FRAMES, "its rounds each within the cap are too many frames"
    found = replays.round_moments(table, moves, None)
    assert len(found) <= replays.GAME_FRAMES
    for round_no in rounds:
        mine = [m.kind for m in found if m.round_no == round_no]
        assert len(mine) <= replays.ROUND_FRAMES
        assert mine[0] == "deal" and mine[-1] == "end"


# -- the frame selection's invariants, on made-up rounds -----------------------------------------

GAME = Game.new(Rules(Variant.R51, 2), 1)


def made_round(round_no: int, loud: Sequence[bool], ended: bool) -> list[replays.Moment]:
    """A round of turns, each laying something (``loud``) or only drawing and discarding."""
    out = [replays.Moment("deal", round_no, GAME)]
    for number, lays in enumerate(loud, start=1):
        kinds = ("drew_stock", "laid", "discarded") if lays else ("drew_stock", "discarded")
        events = tuple(Event(kind, seat=number % 2) for kind in kinds)
        out.append(replays.Moment("turn", round_no, GAME, number, events))
    if ended:
        out.append(replays.Moment("end", round_no, GAME))
    return out


#: A turn lays something about one time in four.
turn_st = st.integers(0, 3).map(lambda n: n == 0)
rounds_st = st.lists(
    st.tuples(st.lists(turn_st, max_size=300), st.booleans()), min_size=1, max_size=30
)


def alone_frames(found: Sequence[replays.Moment]) -> int:
    """The frames a round needs to show each lay alone: its deal and end, its lays, its last
    turn, one frame for each run of quiet turns between."""
    turns = [m for m in found if m.kind == "turn"]
    frames, quiet_before = 2 + min(len(turns), 1), False
    for turn in turns[:-1]:
        frames += 0 if (turn.quiet and quiet_before) else 1
        quiet_before = turn.quiet
    return frames


def unfolded(found: Sequence[replays.Moment]) -> list[replays.Moment]:
    return [c for m in found for c in (m.covers or (m,))]


@settings(max_examples=150, deadline=None)
@given(rounds=rounds_st)
def test_every_moment_is_in_exactly_one_frame_in_order_within_the_caps(
    rounds: list[tuple[list[bool], bool]],
) -> None:
    every = [
        m
        for number, (loud, ended) in enumerate(rounds, start=1)
        for m in made_round(number, loud, ended or number < len(rounds))
    ]
    found = replays.frames(every)
    assert unfolded(found) == every
    assert len(found) <= replays.GAME_FRAMES
    for number in range(1, len(rounds) + 1):
        mine = [m for m in found if m.round_no == number]
        assert len(mine) <= replays.ROUND_FRAMES
        assert not mine[0].covers and not mine[-1].covers, "the deal and the end alone"
    needed = sum(
        min(alone_frames(made_round(1, loud, True)), replays.ROUND_FRAMES) for loud, _ in rounds
    )
    if needed <= replays.GAME_FRAMES:
        assert all(c.quiet for m in found for c in m.covers), "a lay shares a frame"
    sizes = [len(made_round(1, loud, True)) for loud, _ in rounds]
    if max(sizes) <= replays.ROUND_FRAMES and len(every) <= replays.GAME_FRAMES:
        assert found == every, "rounds and a game within the caps are shown whole"


@settings(max_examples=150, deadline=None)
@given(
    length=st.integers(0, 400),
    lays=st.lists(st.integers(0, 399), max_size=20, unique=True),
)
def test_a_round_of_few_lays_shows_each_alone(length: int, lays: list[int]) -> None:
    """20 lays or fewer: with the deal, the end, the last turn and a quiet run around each
    lay, 44 stretches at most, which fit 48 frames without grouping a lay."""
    turns = [i in lays for i in range(length)]
    found = replays.frames(made_round(1, turns, ended=True))
    assert len(found) <= replays.ROUND_FRAMES
    for frame in found:
        assert all(c.quiet for c in frame.covers), "a lay shares a frame"
    if length:
        assert not found[-2].covers, "the last turn is alone"


def test_a_round_of_many_lays_keeps_them_alone_beside_long_quiet_rounds() -> None:
    """Rounds of quiet turns only shrink the game's common cap below what a round of many lays
    needs: that round still keeps each lay alone, the quiet rounds pay for it."""
    lays = ([True] + [False] * 5) * 20
    every = made_round(1, lays, ended=True)
    for number in range(2, 12):
        every += made_round(number, [False] * 200, ended=True)
    needed = alone_frames(made_round(1, lays, True))
    assert needed <= replays.ROUND_FRAMES and len(every) > replays.GAME_FRAMES
    found = replays.frames(every)
    assert len(found) <= replays.GAME_FRAMES
    assert all(c.quiet for m in found for c in m.covers), "a lay shares a frame"
    assert sum(m.round_no == 1 for m in found) == needed
