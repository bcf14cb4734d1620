"""The SQLite store's access rule: one-hop calls run side by side; a multi-hop transaction runs
alone, after the calls already inside, and before the calls that arrived while it waited.

Why it matters: a lock around every call made each read wait one event-loop round trip for
every call queued before it (300 ms per read with 100 busy tables); a multi-hop transaction
that let another call in would have that call's statements run inside it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import NewTable, PlayerPrefs
from bot.storage.access import Access
from bot.storage.sqlite import SqliteStore


async def test_one_hop_calls_do_not_wait_for_each_other() -> None:
    access = Access()
    inside = asyncio.Event()

    async def hold() -> None:
        async with access.shared():
            inside.set()
            await asyncio.sleep(0.05)

    holder = asyncio.create_task(hold())
    await inside.wait()
    async with asyncio.timeout(0.02):  # far less than the holder's 50 ms
        async with access.shared():
            assert access.running == 2
    await holder


async def test_a_multi_hop_transaction_runs_alone() -> None:
    access = Access()
    order: list[str] = []
    first_inside = asyncio.Event()

    async def shared(name: str, hold: float = 0.0) -> None:
        async with access.shared():
            order.append(f"{name} in")
            first_inside.set()
            await asyncio.sleep(hold)
            order.append(f"{name} out")

    async def alone() -> None:
        async with access.alone():
            order.append("alone in")
            assert access.running == 0
            await asyncio.sleep(0.02)
            order.append("alone out")

    early = asyncio.create_task(shared("early", hold=0.02))
    await first_inside.wait()
    writer = asyncio.create_task(alone())
    await asyncio.sleep(0)  # the writer now holds the gate and waits for "early"
    late = asyncio.create_task(shared("late"))
    await asyncio.gather(early, writer, late)
    assert order == ["early in", "early out", "alone in", "alone out", "late in", "late out"]


async def test_concurrent_reads_and_writes_of_the_real_store_all_land(tmp_path: Path) -> None:
    """Reads, one-hop writes and multi-hop writes issued at once: every write is stored and
    every read sees a consistent row."""
    store = SqliteStore(tmp_path / "rummy.db")
    await store.open()
    try:
        users = range(1, 41)

        async def toggle(user: int) -> None:
            await store.set_player_prefs(PlayerPrefs(user, four_colour=user % 2 == 0))
            assert (await store.get_player_prefs(user)).four_colour == (user % 2 == 0)

        async def open_table(channel: int) -> int:
            record = await store.create_table(NewTable(1, channel, 7, "r51", "1v1"))
            return record.id

        results = await asyncio.gather(
            *(toggle(u) for u in users), *(open_table(100 + c) for c in range(10))
        )
        ids = [r for r in results if isinstance(r, int)]
        assert len(set(ids)) == 10
        prefs = await store.get_players_prefs(list(users))
        assert all(prefs[u].four_colour == (u % 2 == 0) for u in users)
        assert len(await store.list_active_tables(1)) == 10
    finally:
        await store.close()
