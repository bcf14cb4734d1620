"""The table service keeps each table's last game parsed: a load must still be the stored game,
the caller's own copy, and follow a change made by another process."""

from __future__ import annotations

import json
from pathlib import Path

from bot.features.play.tables import TableService
from bot.storage import make_store
from rummy_engine import Action, Discard, Game, Variant

GUILD, CHANNEL, HOST, GUEST = 1, 2, 10, 11


async def started(tables: TableService) -> int:
    table = await tables.open_table(GUILD, CHANNEL, HOST, Variant.R51, "1v1")
    await tables.join(table.id, GUEST)
    await tables.start(table.id, HOST)
    return table.id


def discard_first(game: Game, seat: int) -> Action:
    """The dealer of Rummy 51 starts by discarding (fifteen cards, no draw)."""
    return Discard(seat, game.hands[seat][0].face)


def stored_game(snapshot: str | None) -> dict[str, object]:
    assert snapshot
    return Game.from_json(json.loads(snapshot)).to_json()


async def test_each_load_is_an_own_copy_of_the_stored_game(tmp_path: Path) -> None:
    async with make_store(tmp_path / "t.db") as store:
        tables = TableService(store, seed_source=lambda: 5)
        tid = await started(tables)
        first, second = await tables.load(tid), await tables.load(tid)
        game = first.require_game()
        assert game is not second.require_game()
        game.apply(discard_first(game, game.current))  # applied to one load, not committed
        again = await tables.load(tid)
        assert again.require_game().to_json() == second.require_game().to_json()
        assert again.require_game().to_json() == stored_game(again.record.snapshot_json)
        assert again.require_game().to_json() != game.to_json()


async def test_a_load_follows_a_move_committed_by_another_process(tmp_path: Path) -> None:
    async with make_store(tmp_path / "t.db") as store, make_store(tmp_path / "t.db") as other:
        here, there = TableService(store, seed_source=lambda: 5), TableService(other)
        tid = await started(here)
        before = (await here.load(tid)).require_game()
        current = before.current
        mover = HOST if (await here.load(tid)).seat_of(HOST) == current else GUEST
        played = await there.act(tid, mover, discard_first)
        after = await here.load(tid)
        assert after.record.version == played.table.record.version
        assert after.require_game().to_json() == played.table.require_game().to_json()
        assert after.require_game().to_json() != before.to_json()
