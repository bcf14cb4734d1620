"""A hand DM is not drafted again when what it is made of has not changed (``hand_inputs``):
that shortcut is only right if equal inputs always make an equal draft, checked here on real
games played by the computer strategy, for every seat and several readers."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.play.presenter import names_for, table_text
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


async def test_a_freed_partner_is_told_their_first_lay_down_needs_no_minimum(
    tmp_path: Path,
) -> None:
    """Rummy 51 2v2: once a player's partner has opened, the panel no longer asks them for the
    opening's points (RULES.md: the 2v2 partner effect), while the other side still sees its bar."""
    async with make_store(tmp_path / "freed.db") as store:
        tables = TableService(store, seed_source=lambda: 3)
        table = await tables.open_table(GUILD, CHANNEL, HOST, Variant.R51, "2v2")
        for guest, team in ((GUEST, 1), (12, 0), (13, 1)):
            await tables.join(table.id, guest, team=team)
        await tables.start(table.id, HOST)
        table = await tables.load(table.id)
    game, rng = table.require_game(), random.Random(3)
    while not any(game.opened) and game.phase is not Phase.ROUND_OVER:
        game.apply(choose_action(game, rng))
    assert any(game.opened), "someone opens in this deal"
    opener = game.opened.index(True)
    partner = game.rules.partner_of(opener)
    assert partner is not None
    shown = replace(table, game=game)
    reader = (PlayerPrefs(HOST), "en")
    game.current = partner  # what the partner's panel says on their turn
    game.phase = Phase.PLAY
    text = hand_draft(shown, partner, *reader, turn=True).content
    assert "Your partner has opened: your first lay-down needs no minimum." in text, text
    assert "Your opening needs" not in text
    opponent = (opener + 1) % 4
    game.current = opponent
    text = hand_draft(shown, opponent, *reader, turn=True).content
    assert "Your opening needs" in text, text


async def test_the_bar_line_goes_once_one_of_the_barred_side_has_opened(tmp_path: Path) -> None:
    """RULES.md §6.2: the first opening sets a bar for the other side; once one of them opens,
    their partner is freed, so the table no longer tells that side it must reach the bar."""
    async with make_store(tmp_path / "bar.db") as store:
        tables = TableService(store, seed_source=lambda: 3)
        table = await tables.open_table(GUILD, CHANNEL, HOST, Variant.R51, "2v2")
        for guest, team in ((GUEST, 1), (12, 0), (13, 1)):
            await tables.join(table.id, guest, team=team)
        await tables.start(table.id, HOST)
        table = await tables.load(table.id)
    names = names_for(table)
    for seed in range(40):
        game, rng = table.require_game().copy(), random.Random(seed)
        while game.phase in (Phase.DRAW, Phase.PLAY):
            game.apply(choose_action(game, rng))
            if game.bar is None or game.phase not in (Phase.DRAW, Phase.PLAY):
                continue
            barred = [s for s in range(4) if game.rules.side_of(s) != game.bar_side]
            opened = [game.opened[s] for s in barred]
            text = table_text(replace(table, game=game), names, "en")
            has_line = "+1 bar:" in text
            assert has_line == (not any(opened)), (opened, text)
            if any(opened) and not all(opened):
                return  # seen: one of them opened, the other freed, and no bar line
    raise AssertionError("no deal of 40 had one of the barred side open before the other")
