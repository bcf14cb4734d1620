"""Replays: a finished round (or a whole game) rebuilt from the stored move log, as moments.

Why from the log and not from snapshots: the log is what the bot stores durably for every move
(a snapshot holds only the present), and the engine replays genesis + actions exactly, so a
round finished before a restart, or years ago, is rebuilt the same way, and the same log always
gives the same frames (and the same GIF bytes).

Privacy, by construction: a frame of a running moment is drawn from the spectator's view (the
presenter's table scene, no hand) with the scores the round started with (the round's ending
turn changes the scores by what the hands held); only the round's end frame shows hands, which
are public once the round is over. A player's own hand is added by the step-through only for
that player (:func:`step_text`, in words), never to a picture anyone receives.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import render
from bot.features.play import presenter, scenes
from bot.features.play.tables import Table
from bot.render.scene import ReplayFrame, ReplayScene
from bot.services.refusal import Refusal
from bot.storage import MoveRecord
from bot.text import t
from bot.text.safe import cut
from rummy_engine import (
    Event,
    Game,
    Phase,
    RoundResult,
    action_from_json,
    format_cards,
    sort_key,
)
from rummy_engine.replay import replay

#: How long each kind of frame stays up, in milliseconds.
DURATIONS = {"deal": 1800, "turn": 1100, "end": 4500}
#: At most this many frames in one round's replay, and in a whole game's (issue 39: a round's
#: GIF within 1 MiB and 1 s of CPU, a game's within 8 MiB, at 10 to 20 KiB a frame). A longer
#: round (a Basic round of 6 whose stock is turned over again and again lasts 200 turns and
#: more) shows several quiet turns in one frame.
ROUND_FRAMES = 48
GAME_FRAMES = 400
#: The fewest frames a finished round can be shown in: its deal, its turns but the last in one
#: frame, the last turn (its player going out, or the stock running out) and its end.
FEWEST_FRAMES = 4
#: The events of a stock made again from the discard pile (Basic turns it over, Atlas shuffles).
RESTOCKED = frozenset({"discard_turned_over", "stock_reshuffled"})
#: What a quiet turn does: draw (or take, or put back, the discard) and discard, the stock
#: turned over or shuffled on the way. A turn with any other event (a lay-down, a lay-off, a
#: joker swap, a resignation, a timeout) is never grouped while the cap allows.
QUIET = frozenset(
    {
        "turn_started",
        "drew_stock",
        "discard_taken",
        "take_undone",
        "discarded",
        "discard_turned_over",
        "stock_reshuffled",
    }
)
#: Discord's limit on an attachment's description (alt text).
ALT_LIMIT = 1024


@dataclass(frozen=True)
class Moment:
    """One frame's worth of game: the deal of a round, a completed turn (with its events and
    its number in the round, from 1), or the round's end. A frame standing for several turns
    (see :func:`frames`) is its last turn's moment with the turns it ``covers``, in order."""

    kind: str
    round_no: int
    game: Game
    turn: int = 0
    events: tuple[Event, ...] = ()
    covers: tuple[Moment, ...] = ()

    @property
    def quiet(self) -> bool:
        """A turn that laid nothing and changed no meld (its picture moves only the piles)."""
        return self.kind == "turn" and all(e.kind in QUIET for e in self.events)


@dataclass(frozen=True)
class Log:
    """A stored game: how it began, then each action with the events it produced then."""

    genesis: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    events: tuple[tuple[Event, ...], ...]

    @classmethod
    def of(cls, moves: Sequence[MoveRecord]) -> Log:
        if not moves:  # a started table always has its start_game move
            raise ValueError("a replay needs the game's first move")
        genesis = json.loads(moves[0].action_json)["genesis"]
        actions = tuple(json.loads(m.action_json) for m in moves[1:])
        events = tuple(tuple(Event(**e) for e in json.loads(m.events_json)) for m in moves[1:])
        return cls(genesis, actions, events)


def moments(log: Log, wanted: frozenset[int] | None = None) -> list[Moment]:
    """Every moment of the rounds in ``wanted`` (all rounds when None), in order: each round's
    deal, one moment per completed turn, and the round's end; a round still running gives its
    deal and turns so far, no end."""
    game = replay(log.genesis, ())
    last = None if wanted is None else max(wanted)
    found: list[Moment] = []
    keep = wanted is None or game.round_no in wanted
    if keep:
        found.append(Moment("deal", game.round_no, game.copy()))
    turn: list[Event] = []
    number = 0  # the turn's number within its round
    for action, stored in zip(log.actions, log.events, strict=True):
        before = (game.round_no, game.turn)
        game.apply(action_from_json(action))
        if action["type"] == "start_round":
            if last is not None and game.round_no > last:
                break
            keep = wanted is None or game.round_no in wanted
            if keep:
                found.append(Moment("deal", game.round_no, game.copy()))
            turn, number = [], 0
            continue
        turn += stored
        ended = (game.round_no, game.turn) != before or game.phase not in (Phase.DRAW, Phase.PLAY)
        if ended:
            number += 1
        if ended and keep:
            found.append(Moment("turn", before[0], game.copy(), number, tuple(turn)))
            if any(r.round_no == before[0] for r in game.results):
                found.append(Moment("end", before[0], game.copy()))
        if ended:
            turn = []
    return found


# -- the frames drawn: a bound on long rounds and games ------------------------------------------


def frames(found: Sequence[Moment]) -> list[Moment]:
    """The frames a replay draws of ``found`` (moments of one round or more, in order): every
    moment while a round fits in :data:`ROUND_FRAMES` and the game in :data:`GAME_FRAMES`;
    beyond, runs of quiet turns shown a few to a frame (see :func:`fitted`). A game's rounds
    share one cap, the largest whose frames fit the game's, so short rounds stay whole; a round
    keeps the frames that show each of its lays alone while the game can afford them all."""
    rounds = _by_round(found)
    floors = [min(len(_stretches(r, loud_alone=True)), ROUND_FRAMES) for r in rounds]
    chosen = _shared(rounds, floors) or _shared(rounds, [0] * len(rounds))
    if chosen is None:  # more rounds than the game's frames allow even at their fewest
        chosen = [fitted(r, FEWEST_FRAMES) for r in rounds]
    return [m for r in chosen for m in r]


def _shared(rounds: Sequence[list[Moment]], floors: Sequence[int]) -> list[list[Moment]] | None:
    """The rounds under the largest common cap (never below a round's floor) whose frames fit
    the game's; None when even the smallest does not."""
    for cap in range(ROUND_FRAMES, FEWEST_FRAMES - 1, -1):
        chosen = [fitted(r, max(cap, floor)) for r, floor in zip(rounds, floors, strict=True)]
        if sum(map(len, chosen)) <= GAME_FRAMES:
            return chosen
    return None


def _by_round(found: Sequence[Moment]) -> list[list[Moment]]:
    rounds: list[list[Moment]] = []
    for moment in found:
        if not rounds or rounds[-1][0].round_no != moment.round_no:
            rounds.append([])
        rounds[-1].append(moment)
    return rounds


#: A round cut into stretches: a moment shown alone, or a run of turns that may share frames.
Stretch = tuple[bool, tuple[Moment, ...]]


def fitted(found: Sequence[Moment], cap: int) -> list[Moment]:
    """One round's moments in at most ``cap`` frames (:data:`FEWEST_FRAMES` at least): the
    deal, the end and the last turn always alone; every turn that changed the melds alone
    too, and the runs of quiet turns between them cut in groups of the fewest turns that fit. Only a
    round with more such turns than frames groups them with their neighbours as well."""
    stretches = _stretches(found, loud_alone=True)
    if len(stretches) > cap:
        stretches = _stretches(found, loud_alone=False)
    size = _group_size(stretches, cap)
    return [m for alone, run in stretches for m in (run if alone else _grouped(run, size))]


def _stretches(found: Sequence[Moment], *, loud_alone: bool) -> list[Stretch]:
    turns = [i for i, m in enumerate(found) if m.kind == "turn"]
    last = turns[-1] if turns and found[-1].kind == "end" else None
    groupable_turns = set(turns) - {last}
    stretches: list[Stretch] = []
    for i, moment in enumerate(found):
        groupable = i in groupable_turns and (moment.quiet or not loud_alone)
        if groupable and stretches and not stretches[-1][0]:
            stretches[-1] = (False, (*stretches[-1][1], moment))
        else:
            stretches.append((not groupable, (moment,)))
    return stretches


def _group_size(stretches: Sequence[Stretch], cap: int) -> int:
    """The fewest turns to a frame that keep the stretches within ``cap`` frames (one frame
    per run when nothing fewer fits)."""
    longest = max((len(run) for alone, run in stretches if not alone), default=1)
    for size in range(1, longest):
        count = sum(1 if alone else -(-len(run) // size) for alone, run in stretches)
        if count <= cap:
            return size
    return longest


def _grouped(run: Sequence[Moment], size: int) -> list[Moment]:
    """``run`` in frames of ``size`` turns (the last may hold fewer): each its last turn's
    picture, covering its turns."""
    out = []
    for start in range(0, len(run), size):
        group = tuple(run[start : start + size])
        out.append(group[0] if len(group) == 1 else replace(group[-1], covers=group))
    return out


def finished_rounds(game: Game) -> tuple[int, ...]:
    """The rounds of ``game`` that are over (each has its result)."""
    return tuple(r.round_no for r in game.results)


def chosen_round(table: Table, asked: int | None) -> int:
    """The round a replay shows: the one asked for if it is over, else the last one over."""
    game = table.game
    if game is None:
        raise Refusal("replay.no_game", table=table.id)
    done = finished_rounds(game)
    if asked is None:
        if not done:
            raise Refusal("replay.none_finished", table=table.id)
        return done[-1]
    if asked in done:
        return asked
    if asked == game.round_no and game.phase in (Phase.DRAW, Phase.PLAY):
        raise Refusal("replay.not_finished", table=table.id, round=asked)
    if not done:
        raise Refusal("replay.none_finished", table=table.id)
    raise Refusal("replay.no_round", table=table.id, round=asked, last=done[-1])


def chosen_game(table: Table) -> None:
    """A whole game's replay is drawn once the game is over (its last round too)."""
    game = table.game
    if game is None or not game.results:
        raise Refusal("replay.none_finished", table=table.id)
    if game.phase is not Phase.GAME_OVER:
        raise Refusal("replay.not_finished", table=table.id, round=game.round_no)


# -- what each frame shows -----------------------------------------------------------------------


def _at(table: Table, moment: Moment) -> Table:
    """The table as it was at ``moment`` (its seats and record as stored now)."""
    return replace(table, game=moment.game)


def _result(moment: Moment) -> RoundResult:
    return next(r for r in moment.game.results if r.round_no == moment.round_no)


def caption(table: Table, moment: Moment, locale: str) -> str:
    """What the frame's caption says: the deal and who plays first, the turn retold as the
    table told it (never a card from a hand), or how the round ended."""
    names = presenter.names_for(table)
    game = moment.game
    if moment.kind == "deal":
        return t("replay.deal", locale, round=moment.round_no, player=names.name(game.current))
    if moment.kind == "end":
        result = _result(moment)
        winner = None if result.winner is None else names.name(result.winner)
        return scenes.round_headline(result, winner, locale)
    if moment.covers:
        return _covered(moment.covers, names, locale)
    told = presenter.describe(moment.events, names, locale)
    player = names.name(moment.events[0].seat or 0) if moment.events else "?"
    return t(
        "replay.turn",
        locale,
        turn=moment.turn,
        move=told or t("replay.played", locale, player=player),
    )


def _player(turn: Moment) -> int:
    """Whose turn it was: the seat of its first event that has one (a stock turned over has
    none; the next player's turn_started comes last)."""
    return next((e.seat for e in turn.events if e.seat is not None), 0)


def _covered(turns: Sequence[Moment], names: presenter.Names, locale: str) -> str:
    """A frame of several turns: their numbers and players, and what changed the table (or
    that nothing did); the discards between are not retold, the piles show the last."""
    players = ", ".join(dict.fromkeys(names.name(_player(m)) for m in turns))
    first, last = turns[0].turn, turns[-1].turn
    loud = [m for m in turns if not m.quiet]
    if loud:
        told = " ".join(presenter.describe(m.events, names, locale) for m in loud)
        said = t("replay.turns", locale, first=first, last=last, players=players, move=told)
    else:
        said = t("replay.turns.quiet", locale, first=first, last=last, players=players)
    if any(e.kind in RESTOCKED for m in turns for e in m.events):
        said += " " + t("replay.turned_over", locale)
    return said


def frame_scene(
    table: Table, moment: Moment, locale: str, scores: tuple[int, ...]
) -> render.TableScene | render.RoundEndScene:
    """A moment's picture: the spectator's table with the round's starting ``scores``, or the
    round's end (every hand, public then)."""
    at = _at(table, moment)
    names = presenter.names_for(table)
    if moment.kind == "end":
        return presenter.round_end_scene(at, _result(moment), names, locale)
    scene = presenter.table_scene(at, names, locale)
    sides = tuple(replace(side, score=scores[i]) for i, side in enumerate(scene.sides))
    return replace(scene, sides=sides)


def replay_scene(table: Table, found: Sequence[Moment], locale: str) -> ReplayScene:
    """The GIF's frames, every running one from the spectator's view."""
    frames = []
    scores: tuple[int, ...] = ()
    for moment in found:
        if moment.kind == "deal":
            scores = tuple(moment.game.scores)
        frames.append(
            ReplayFrame(
                caption(table, moment, locale),
                frame_scene(table, moment, locale, scores),
                DURATIONS[moment.kind],
            )
        )
    return ReplayScene(tuple(frames))


def round_moments(table: Table, moves: Sequence[MoveRecord], round_no: int | None) -> list[Moment]:
    """The frames of one finished round (``round_no``), or of the whole game (None): what the
    GIF draws and the step-through steps through."""
    log = Log.of(moves)
    return frames(moments(log, None if round_no is None else frozenset({round_no})))


# -- the step-through -------------------------------------------------------------------------


def scores_at(found: Sequence[Moment], index: int) -> tuple[int, ...]:
    """The scores the round of frame ``index`` started with."""
    deal = next(m for m in reversed(found[: index + 1]) if m.kind == "deal")
    return tuple(deal.game.scores)


def step_scene(table: Table, found: Sequence[Moment], index: int, locale: str) -> ReplayScene:
    """One frame of the step-through, as a still (the same picture the GIF shows there)."""
    moment = found[index]
    frame = ReplayFrame(
        caption(table, moment, locale),
        frame_scene(table, moment, locale, scores_at(found, index)),
        DURATIONS[moment.kind],
    )
    return ReplayScene((frame,), still=True)


def seat_of_viewer(table: Table, user_id: int) -> int | None:
    """The viewer's seat if they played this game (a non-player sees the spectator view)."""
    return table.seat_of(user_id)


def step_text(
    table: Table, found: Sequence[Moment], index: int, viewer_seat: int | None, locale: str
) -> str:
    """The step-through's message: where we are, the caption, and, for a player of the game
    only, their own hand at that moment."""
    moment = found[index]
    lines = [
        t(
            "replay.step",
            locale,
            title=presenter.variant_title(table, locale),
            round=moment.round_no,
            frame=index + 1,
            count=len(found),
        ),
        caption(table, moment, locale),
    ]
    if viewer_seat is None:
        lines.append(t("replay.step.spectator", locale))
    elif moment.kind != "end":
        hand = sorted(moment.game.hands[viewer_seat], key=sort_key)
        lines.append(t("replay.step.hand", locale, cards=format_cards(hand) or "—"))
    return "\n".join(lines)


# -- alt text --------------------------------------------------------------------------------


def alt_text(table: Table, found: Sequence[Moment], locale: str, *, whole: bool) -> str:
    """The GIF's description: what it shows (variant, table, round, frames) and how it ends
    (the last frame's melds and scores), never a card the frames do not show."""
    title = presenter.variant_title(table, locale)
    last = found[-1]
    if whole:
        rounds = len({m.round_no for m in found})
        head = t("replay.alt.game", locale, title=title, rounds=rounds, count=len(found))
    else:
        head = t("replay.alt.round", locale, title=title, round=last.round_no, count=len(found))
    parts = [head, _melds_line(table, found, locale)]
    if last.kind == "end":
        parts.append(_end_line(table, last, locale))
    return cut(" ".join(p for p in parts if p), ALT_LIMIT)


def _melds_line(table: Table, found: Sequence[Moment], locale: str) -> str:
    """The melds on the table in the last table frame, numbered, with who laid them."""
    shown = next((m for m in reversed(found) if m.kind != "end"), None)
    if shown is None:
        return ""
    names = presenter.names_for(table)
    melds = [
        f"{i + 1}. {format_cards(tm.meld.cards)} ({names.name(tm.owner)})"
        for i, tm in enumerate(shown.game.table)
    ]
    if not melds:
        return t("replay.alt.no_melds", locale)
    return t("replay.alt.melds", locale, melds="; ".join(melds))


def _end_line(table: Table, last: Moment, locale: str) -> str:
    """How the last round ended and the totals after it (the end frame shows both)."""
    names = presenter.names_for(table)
    result = _result(last)
    winner = None if result.winner is None else names.name(result.winner)
    at = _at(table, last)
    totals = ", ".join(
        f"{presenter.side_name(at, names, s, locale)} {score}"
        for s, score in enumerate(result.totals)
    )
    return t(
        "replay.alt.end",
        locale,
        headline=scenes.round_headline(result, winner, locale),
        totals=totals,
    )


def step_alt(table: Table, found: Sequence[Moment], index: int, locale: str) -> str:
    """A step's description: which frame of which round, its caption (public), its melds."""
    moment = found[index]
    head = t(
        "replay.alt.step",
        locale,
        title=presenter.variant_title(table, locale),
        round=moment.round_no,
        frame=index + 1,
        count=len(found),
        caption=caption(table, moment, locale),
    )
    if moment.kind == "end":  # the round's end shows the hands and totals, not the melds
        parts = [head, _hands_line(table, moment, locale), _end_line(table, moment, locale)]
    else:
        parts = [head, _melds_line(table, found[: index + 1], locale)]
    return cut(" ".join(p for p in parts if p), ALT_LIMIT)


def _hands_line(table: Table, moment: Moment, locale: str) -> str:
    """Every hand left at the round's end, as its picture shows them."""
    names = presenter.names_for(table)
    hands = [
        f"{names.name(seat)}: {format_cards(hand) if hand else t('round.no_cards', locale)}"
        for seat, hand in enumerate(_result(moment).hands)
    ]
    return t("replay.alt.hands", locale, hands="; ".join(hands))
