"""A hand DM is not drafted again when what it is made of has not changed (``hand_inputs``):
that shortcut is only right if equal inputs always make an equal draft, checked here on real
games played by the computer strategy, for every seat and several readers."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.play.tables import Table, TableService
from bot.features.play.ui.messages import hand_draft, hand_inputs
from bot.storage import PlayerPrefs, make_store
from rummy_engine import Phase, Variant
from rummy_engine.strategy import choose_action

GUILD, CHANNEL, HOST, GUEST = 1, 2, 10, 11
READERS = (
    (PlayerPrefs(HOST), "en"),
    (PlayerPrefs(HOST, four_colour=True), "en"),
    (PlayerPrefs(HOST, hand_sort="melds"), "fr"),
)


async def started_table(tmp_path: Path, seed: int) -> Table:
    async with make_store(tmp_path / f"h{seed}.db") as store:
        tables = TableService(store, seed_source=lambda: seed)
        table = await tables.open_table(GUILD, CHANNEL, HOST, Variant.R51, "1v1")
        await tables.join(table.id, GUEST)
        await tables.start(table.id, HOST)
        return await tables.load(table.id)


def stamps_by_inputs(table: Table, moves: int, rng: random.Random) -> dict[object, set[str]]:
    """Every (inputs -> stamps) seen while the game is played ``moves`` moves on."""
    game = table.require_game()
    seen: dict[object, set[str]] = {}
    for _ in range(moves):
        if game.phase not in (Phase.DRAW, Phase.PLAY):
            break
        shown = replace(table, game=game)
        for seat in range(len(game.hands)):
            for prefs, locale in READERS:
                draft = hand_draft(shown, seat, prefs, locale, turn=False)
                key = hand_inputs(shown, seat, prefs, locale)
                seen.setdefault(key, set()).add(draft.stamp)
        game = game.copy()
        game.apply(choose_action(game, rng))
    return seen


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000))
async def test_equal_inputs_make_an_equal_hand_draft(tmp_path: Path, seed: int) -> None:
    table = await started_table(tmp_path, seed)
    seen = stamps_by_inputs(table, 40, random.Random(seed))
    assert all(len(stamps) == 1 for stamps in seen.values()), seen
    # and the inputs do tell hands apart: a draw or discard changes a hand's inputs
    assert len(seen) > 2 * len(READERS) * 2


async def test_a_reader_preference_changes_the_inputs(tmp_path: Path) -> None:
    table = await started_table(tmp_path, 3)
    plain = hand_inputs(table, 0, PlayerPrefs(HOST), "en")
    assert hand_inputs(table, 0, PlayerPrefs(HOST, four_colour=True), "en") != plain
    assert hand_inputs(table, 0, PlayerPrefs(HOST, hand_sort="melds"), "en") != plain
    assert hand_inputs(table, 0, PlayerPrefs(HOST), "fr") != plain
