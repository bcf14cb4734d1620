"""A database that goes away while tables play, on real filesystems and real servers.

SQLite: the disk fills (ENOSPC on an ext4 image) and the filesystem is remounted read-only by
the kernel after an error, then repaired and mounted again. PostgreSQL: the server restarts,
the bot's connections are cut, and a fresh server on a copy of the data takes over. Each time
a write is refused with :class:`DatabaseUnavailable` and stores nothing, reads that can still
be served go on, the store serves again by itself once the database is back, and the log says
it once per episode.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.storage import SqliteStore, Store
from bot.storage.outage import DatabaseUnavailable, Outage
from bot.storage.postgres import PostgresStore
from tests.helpers import postgres
from tests.helpers.disk import LoopDisk, loop_disk
from tests.storage.test_storage import new_table, ticking_clock

OUTAGE_LOG = "bot.storage.outage"


async def _move(store: Store, table_id: int, version: int) -> int:
    return await store.commit_move(table_id, version, 31, '{"a": 1}', "[]", f'{{"v": {version}}}')


async def _refused(store: Store, table_id: int, version: int, outage: Outage) -> None:
    """A move is refused for ``outage`` and stores nothing."""
    with pytest.raises(DatabaseUnavailable) as refused:
        await _move(store, table_id, version)
    assert refused.value.outage is outage
    assert not refused.value.maybe_done


def _episodes(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == OUTAGE_LOG]


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[LoopDisk]:
    with loop_disk(tmp_path) as made:
        yield made


@pytest.fixture
async def on_disk(disk: LoopDisk) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(disk.mount / "rummy.sqlite3", clock=ticking_clock()) as opened:
        yield opened


async def test_a_full_disk_refuses_moves_and_they_go_on_once_space_is_freed(
    disk: LoopDisk, on_disk: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, OUTAGE_LOG)
    table = await on_disk.create_table(new_table())
    version = await _move(on_disk, table.id, table.version)
    disk.fill()
    # Several moves: a page may still fit, the next ones not; every refusal stores nothing.
    refused = 0
    for _ in range(40):
        try:
            version = await _move(on_disk, table.id, version)
        except DatabaseUnavailable as error:
            assert error.outage is Outage.DISK_FULL
            refused += 1
    assert refused >= 30
    stored = await on_disk.get_table(table.id)  # reads go on
    assert stored is not None and stored.version == version
    assert len(await on_disk.list_moves(table.id)) == version
    disk.free()
    assert await _move(on_disk, table.id, version) == version + 1
    episodes = _episodes(caplog)
    assert len(episodes) == 2, episodes
    assert "disk is full" in episodes[0]
    assert "back after" in episodes[1] and f"{refused} call(s)" in episodes[1]


async def test_a_filesystem_remounted_read_only_refuses_moves_until_it_is_mounted_again(
    disk: LoopDisk, on_disk: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, OUTAGE_LOG)
    table = await on_disk.create_table(new_table())
    version = await _move(on_disk, table.id, table.version)
    version = await _move(on_disk, table.id, version)
    disk.break_()
    for _ in range(3):
        await _refused(on_disk, table.id, version, Outage.READ_ONLY)
    stored = await on_disk.get_table(table.id)  # what the move starts with is still read
    assert stored is not None and stored.version == version
    disk.repair()
    # The store opens its file again by itself: every committed move is there.
    assert await _move(on_disk, table.id, version) == version + 1
    assert [m.seq for m in await on_disk.list_moves(table.id)] == [1, 2, 3]
    episodes = _episodes(caplog)
    assert len(episodes) == 2, episodes
    assert "read-only" in episodes[0] and "3 call(s)" in episodes[1]


# -- PostgreSQL: a server of the test's own, to restart, cut and replace ---------------------


@pytest.fixture
async def on_server(own_postgres: postgres.Server) -> AsyncIterator[PostgresStore]:
    async with PostgresStore(own_postgres.tcp_dsn, clock=ticking_clock()) as opened:
        yield opened


async def _in_thread(action: object) -> None:
    await asyncio.get_running_loop().run_in_executor(None, action)  # type: ignore[arg-type]


async def test_a_postgres_server_down_refuses_moves_and_its_restart_is_noticed(
    own_postgres: postgres.Server, on_server: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, OUTAGE_LOG)
    table = await on_server.create_table(new_table())
    version = await _move(on_server, table.id, table.version)
    await _in_thread(own_postgres.halt)
    for _ in range(3):
        await _refused(on_server, table.id, version, Outage.UNREACHABLE)
    with pytest.raises(DatabaseUnavailable):
        await on_server.get_table(table.id)
    await _in_thread(own_postgres.resume)
    assert await _move(on_server, table.id, version) == version + 1
    episodes = _episodes(caplog)
    assert len(episodes) == 2, episodes
    assert "cannot be reached" in episodes[0] and "4 call(s)" in episodes[1]


async def test_connections_cut_by_the_server_cost_no_move(
    own_postgres: postgres.Server, on_server: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, OUTAGE_LOG)
    table = await on_server.create_table(new_table())
    version = await _move(on_server, table.id, table.version)
    admin = await asyncpg.connect(own_postgres.dsn)
    try:
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    assert cut >= 1
    await asyncio.sleep(0.2)  # the server's goodbye reaches the pool's connections
    assert await _move(on_server, table.id, version) == version + 1
    assert _episodes(caplog) == []


async def test_a_failover_to_a_fresh_server_with_the_same_data_is_followed(
    own_postgres: postgres.Server, on_server: PostgresStore
) -> None:
    table = await on_server.create_table(new_table())
    version = await _move(on_server, table.id, table.version)
    await _in_thread(own_postgres.fail_over)
    for _ in range(5):  # the first call after the switch may meet a connection of the old one
        try:
            version = await _move(on_server, table.id, version)
            break
        except DatabaseUnavailable as error:
            assert error.outage is Outage.UNREACHABLE and not error.maybe_done
    assert version == 2
    assert [m.seq for m in await on_server.list_moves(table.id)] == [1, 2]
