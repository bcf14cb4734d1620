"""Replays from the move log: a running moment shows no hidden card, the same log gives the
same bytes, and the GIF's frame differencing loses no pixel.

The privacy check draws twin rounds: the same seed, the same actions, but one card of a hand
that the player keeps to the round's end traded with a stock card nobody draws. Every frame but
the last (the round's end, where hands are public) must be the same picture, byte for byte.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.features.play.tables import Table
from bot.features.replays import replay as replays
from bot.render import Renderer
from bot.render.replay import padded
from bot.services.refusal import Refusal
from bot.storage import SeatRecord, TableRecord
from rummy_engine import (
    Deal,
    Game,
    Phase,
    Rules,
    Variant,
    action_from_json,
    action_to_json,
    hand_penalty,
)
from rummy_engine.strategy import choose_action

NAMES = ("alice", "bob")


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    made = Renderer()
    made.palette()
    return made


def first_round(seed: int) -> tuple[Deal, list[dict[str, Any]]]:
    """Round 1 of a Rummy 51 game computers play from ``seed``: its deal and its actions."""
    game = Game.new(Rules(Variant.R51, 2), seed, dealer=0)
    deal = Deal(tuple(tuple(h) for h in game.hands), tuple(game.stock), tuple(game.discard))
    rng, actions = random.Random(seed), []
    while game.phase in (Phase.DRAW, Phase.PLAY):
        action = choose_action(game, rng)
        actions.append(action_to_json(action))
        game.apply(action)
    return deal, actions


def played(
    deal: Deal, actions: list[dict[str, Any]], seed: int = 1
) -> tuple[replays.Log, Game]:
    """The stored log of ``deal`` and ``actions`` (events as the engine gives them); ``seed``
    deals the rounds after the first."""
    game = Game.new(Rules(Variant.R51, 2), seed, dealer=0, deal=deal)
    genesis = game.genesis()
    events = []
    for action in actions:
        events.append(tuple(game.apply(action_from_json(action))))
    return replays.Log(genesis, tuple(actions), tuple(events)), game


def table_of(game: Game) -> Table:
    now = datetime(2026, 12, 2, tzinfo=UTC)
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=10,
        status="active",
        variant="r51",
        mode="1v1",
        options_json="{}",
        seed=1,
        snapshot_json=json.dumps(game.to_json()),
        version=1,
        created_at=now,
        updated_at=now,
        finished_at=None,
    )
    seats = tuple(SeatRecord(s, 10 + s, name=NAMES[s]) for s in range(2))
    return Table(record, seats, game)


def twin(deal: Deal, actions: list[dict[str, Any]], final: Game) -> Deal:
    """``deal`` with a card the loser keeps from the deal to the end traded with a stock card
    nobody draws (neither face is named by any action)."""
    named = json.dumps(actions)
    loser = next(s for s, hand in enumerate(final.results[0].hands) if hand)
    kept = next(
        c
        for c in deal.hands[loser]
        if c in final.results[0].hands[loser] and f'"{c.face.text}"' not in named
    )
    unseen = next(
        c
        for c in deal.stock[:8]
        if c in final.stock
        and f'"{c.face.text}"' not in named
        and hand_penalty([c], True, final.rules) != hand_penalty([kept], True, final.rules)
    )
    hands = [list(h) for h in deal.hands]
    hands[loser][hands[loser].index(kept)] = unseen
    stock = list(deal.stock)
    stock[stock.index(unseen)] = kept
    return Deal(tuple(tuple(h) for h in hands), tuple(stock), deal.discard)


def frames_of(gif: bytes) -> list[bytes]:
    with Image.open(io.BytesIO(gif)) as image:
        found = []
        for index in range(image.n_frames):
            image.seek(index)
            found.append(image.convert("RGB").tobytes())
        return found


def gif_for(log: replays.Log, game: Game, renderer: Renderer, locale: str = "en") -> bytes:
    table = table_of(game)
    scene = replays.replay_scene(table, replays.moments(log, frozenset({1})), locale)
    return renderer.render(scene)


def test_frames_before_the_end_are_the_same_whatever_the_hidden_cards(renderer: Renderer) -> None:
    deal, actions = first_round(seed=15)
    log, game = played(deal, actions)
    other_log, other_game = played(twin(deal, actions, game), actions)
    assert game.results[0].hands != other_game.results[0].hands, "the twins differ"
    assert game.scores != other_game.scores, "and so do the scores the round's end gives"
    assert game.hands != other_game.hands or game.stock != other_game.stock

    first = frames_of(gif_for(log, game, renderer))
    second = frames_of(gif_for(other_log, other_game, renderer))
    assert len(first) == len(second) >= 4
    assert first[:-1] == second[:-1], "a running frame shows a hidden card"
    assert first[-1] != second[-1], "the round's end shows the hands (this test can fail)"


def test_the_same_log_gives_the_same_bytes_and_every_frame_whole(renderer: Renderer) -> None:
    deal, actions = first_round(seed=5)
    log, game = played(deal, actions)
    gif = gif_for(log, game, renderer, "fr")
    assert gif == gif_for(log, game, Renderer(), "fr"), "same log, same bytes"
    table = table_of(game)
    found = replays.moments(log, frozenset({1}))
    assert [m.kind for m in found][:1] == ["deal"] and [m.kind for m in found][-1] == "end"
    assert sum(m.kind == "turn" for m in found) == len(found) - 2
    # what the GIF decodes to is every composed frame, though each is stored as a delta
    scene = replays.replay_scene(table, found, "fr")
    palette = renderer.palette()
    assert palette is not None
    whole = padded(renderer._frames(scene), palette)
    with Image.open(io.BytesIO(gif)) as image:
        assert image.n_frames == len(found)
        for index, expected in enumerate(whole):
            image.seek(index)
            shown = image.convert("RGB")
            assert ImageChops.difference(shown, expected.convert("RGB")).getbbox() is None


def test_a_running_round_is_refused_and_a_finished_one_chosen(renderer: Renderer) -> None:
    deal, actions = first_round(seed=11)
    _, game = played(deal, actions[:6])
    running = table_of(game)
    with pytest.raises(Refusal) as refused:
        replays.chosen_round(running, 1)
    assert refused.value.code == "replay.not_finished"
    with pytest.raises(Refusal) as none:
        replays.chosen_round(running, None)
    assert none.value.code == "replay.none_finished"
    _, over = played(deal, actions)
    assert replays.chosen_round(replace(running, game=over), None) == 1
