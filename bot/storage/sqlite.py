"""SQLite implementation of :class:`bot.storage.base.Store` on aiosqlite.

Why these choices:

* WAL + ``synchronous=FULL``: a commit returns only after the WAL is fsynced, so
  a move whose reply was sent survives a SIGKILL *and* a power cut. WAL keeps
  this cheap (one sequential fsync per commit; see
  ``benchmarks/bench_store_commit.py``).
* One connection in autocommit mode, with an :class:`asyncio.Lock` around every
  statement group: aiosqlite runs statements on one worker thread, and without
  the lock two coroutines could interleave inside each other's transaction.
  Writes use ``BEGIN IMMEDIATE`` so the write lock is taken before the version is
  read, which makes the optimistic version check race-free even across
  processes.
* Times come from an injected clock and are stored as ISO-8601 UTC text, which
  sorts correctly and is readable in the ``sqlite3`` shell.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

import aiosqlite

from bot.storage.base import (
    CLOSED_STATUSES,
    OPEN_STATUSES,
    TABLE_STATUSES,
    Clock,
    GameResult,
    MessageRef,
    MoveRecord,
    NewTable,
    PlayerPrefs,
    SchemaTooNew,
    SeatRecord,
    StaleVersion,
    StorageError,
    TableClosed,
    TableNotFound,
    TableRecord,
    TableStatus,
    utc_now,
)
from bot.storage.migrations import (
    LATEST_VERSION,
    apply_migrations,
    get_user_version,
    rollback_quietly,
)

Synchronous = Literal["FULL", "NORMAL", "EXTRA"]
Row = tuple[Any, ...]

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, variant, mode, options, seed, snapshot, "
    "version, created_at, updated_at, finished_at"
)


def _to_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the clock must return timezone-aware datetimes")
    return moment.astimezone(UTC).isoformat()


def _from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _check_status(status: str) -> TableStatus:
    for known in TABLE_STATUSES:
        if status == known:
            return known
    raise ValueError(f"unknown table status {status!r}; expected one of {TABLE_STATUSES}")


def _table_from_row(row: Row) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=_check_status(row[4]),
        variant=row[5],
        mode=row[6],
        options_json=row[7],
        seed=row[8],
        snapshot_json=row[9],
        version=row[10],
        created_at=_from_text(row[11]),
        updated_at=_from_text(row[12]),
        finished_at=None if row[13] is None else _from_text(row[13]),
    )


class SqliteStore:
    """A :class:`~bot.storage.base.Store` backed by one SQLite file.

    Use ``async with SqliteStore(path) as store:`` or call :meth:`open` and
    :meth:`close`. Opening applies pending migrations.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Clock = utc_now,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 5000,
    ) -> None:
        self.path = Path(path)
        self._clock = clock
        self._synchronous = synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # --- lifecycle -------------------------------------------------------------

    async def open(self) -> None:
        if self._conn is not None:
            return
        conn = await aiosqlite.connect(str(self.path), isolation_level=None)
        try:
            await self._configure(conn)
            found = await get_user_version(conn)
            if found > LATEST_VERSION:
                raise SchemaTooNew(found, LATEST_VERSION)
            await apply_migrations(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def _configure(self, conn: aiosqlite.Connection) -> None:
        # busy_timeout first, so switching to WAL waits for another process too.
        await conn.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            raise StorageError(
                f"could not switch {self.path} to WAL journal mode (got {row and row[0]!r}); "
                "is it on a network file system?"
            )
        await conn.execute(f"PRAGMA synchronous = {self._synchronous}")
        await conn.execute("PRAGMA foreign_keys = ON")

    async def close(self) -> None:
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def is_open(self) -> bool:
        """Whether :meth:`open` succeeded and :meth:`close` was not called yet."""
        return self._conn is not None

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError("the store is not open")
        return self._conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the connection for reads (autocommit, no transaction)."""
        async with self._lock:
            yield self._connection()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed on success, rolled back on any error."""
        async with self._lock:
            conn = self._connection()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                await rollback_quietly(conn)
                raise

    async def _fetchone(
        self, conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
    ) -> Row | None:
        async with conn.execute(sql, tuple(params)) as cursor:
            return cast("Row | None", await cursor.fetchone())

    async def _fetchall(
        self, conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
    ) -> list[Row]:
        async with conn.execute(sql, tuple(params)) as cursor:
            return [cast(Row, row) for row in await cursor.fetchall()]

    def _now(self) -> str:
        return _to_text(self._clock())

    async def schema_version(self) -> int:
        async with self._read() as conn:
            return await get_user_version(conn)

    async def pragma(self, name: str) -> str:
        """Read a connection PRAGMA (for tests and ``doctor``); *name* is a bare word."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._read() as conn:
            row = await self._fetchone(conn, f"PRAGMA {name}")
        return "" if row is None else str(row[0])

    # --- tables ----------------------------------------------------------------

    async def create_table(self, new: NewTable) -> TableRecord:
        status = _check_status(new.status)
        now = self._now()
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                f"""
                INSERT INTO tables (guild_id, channel_id, host_id, status, variant, mode,
                                    options, seed, snapshot, version, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?)
                RETURNING {_TABLE_COLUMNS}
                """,
                (
                    new.guild_id,
                    new.channel_id,
                    new.host_id,
                    status,
                    new.variant,
                    new.mode,
                    new.options_json,
                    new.seed,
                    now,
                    now,
                ),
            )
        assert row is not None  # RETURNING always yields the inserted row
        return _table_from_row(row)

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self._read() as conn:
            row = await self._fetchone(
                conn, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            )
        return None if row is None else _table_from_row(row)

    async def list_active_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        placeholders = ", ".join("?" for _ in OPEN_STATUSES)
        sql = f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ({placeholders})"
        params: list[Any] = list(OPEN_STATUSES)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY id"
        async with self._read() as conn:
            rows = await self._fetchall(conn, sql, params)
        return [_table_from_row(row) for row in rows]

    async def update_table_status(self, table_id: int, status: TableStatus) -> TableRecord:
        status = _check_status(status)
        now = self._now()
        finished = now if status in CLOSED_STATUSES else None
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                f"""
                UPDATE tables SET status = ?, updated_at = ?,
                                  finished_at = COALESCE(finished_at, ?)
                WHERE id = ?
                RETURNING {_TABLE_COLUMNS}
                """,
                (status, now, finished, table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
        return _table_from_row(row)

    async def update_table_options(self, table_id: int, options_json: str) -> TableRecord:
        now = self._now()
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                f"""
                UPDATE tables SET options = ?, updated_at = ? WHERE id = ?
                RETURNING {_TABLE_COLUMNS}
                """,
                (options_json, now, table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
        return _table_from_row(row)

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        async with self._write() as conn:
            if await self._fetchone(conn, "SELECT 1 FROM tables WHERE id = ?", (table_id,)) is None:
                raise TableNotFound(table_id)
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, is_computer, team, name) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, int(s.is_computer), s.team, s.name) for s in seats],
            )

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT seat, user_id, is_computer, team, name FROM seats WHERE table_id = ? "
                "ORDER BY seat",
                (table_id,),
            )
        return [
            SeatRecord(seat=r[0], user_id=r[1], is_computer=bool(r[2]), team=r[3], name=r[4])
            for r in rows
        ]

    # --- moves -----------------------------------------------------------------

    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        actor_id: int | None,
        action_json: str,
        events_json: str,
        snapshot_json: str,
        *,
        status: TableStatus | None = None,
    ) -> int:
        # Shielded: once a move starts writing it runs to COMMIT or ROLLBACK even if
        # the caller is cancelled, so "cancelled" never hides "committed".
        return await asyncio.shield(
            self._commit_move(
                table_id,
                expected_version,
                actor_id,
                action_json,
                events_json,
                snapshot_json,
                status,
            )
        )

    async def _commit_move(
        self,
        table_id: int,
        expected_version: int,
        actor_id: int | None,
        action_json: str,
        events_json: str,
        snapshot_json: str,
        status: TableStatus | None,
    ) -> int:
        new_status = None if status is None else _check_status(status)
        now = self._now()
        async with self._write() as conn:
            row = await self._fetchone(
                conn, "SELECT version, status FROM tables WHERE id = ?", (table_id,)
            )
            if row is None:
                raise TableNotFound(table_id)
            current, current_status = int(row[0]), str(row[1])
            if current_status in CLOSED_STATUSES:
                raise TableClosed(table_id, current_status)
            if current != expected_version:
                raise StaleVersion(table_id, expected_version, current)
            new_version = current + 1
            await conn.execute(
                "INSERT INTO moves (table_id, seq, actor_id, action, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, new_version, actor_id, action_json, events_json, now),
            )
            finished = now if new_status in CLOSED_STATUSES else None
            await conn.execute(
                """
                UPDATE tables
                SET snapshot = ?, version = ?, updated_at = ?,
                    status = COALESCE(?, status),
                    finished_at = COALESCE(finished_at, ?)
                WHERE id = ? AND version = ?
                """,
                (snapshot_json, new_version, now, new_status, finished, table_id, current),
            )
        return new_version

    async def list_moves(self, table_id: int, after_seq: int = 0) -> list[MoveRecord]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT table_id, seq, actor_id, action, events, created_at FROM moves "
                "WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after_seq),
            )
        return [
            MoveRecord(
                table_id=r[0],
                seq=r[1],
                actor_id=r[2],
                action_json=r[3],
                events_json=r[4],
                created_at=_from_text(r[5]),
            )
            for r in rows
        ]

    # --- messages ----------------------------------------------------------------

    async def set_message_ref(self, ref: MessageRef) -> None:
        async with self._write() as conn:
            await conn.execute(
                """
                INSERT INTO message_refs (table_id, kind, channel_id, message_id)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (table_id, kind)
                DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id
                """,
                (ref.table_id, ref.kind, ref.channel_id, ref.message_id),
            )

    async def get_message_refs(self, table_id: int) -> list[MessageRef]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT table_id, kind, channel_id, message_id FROM message_refs "
                "WHERE table_id = ? ORDER BY kind",
                (table_id,),
            )
        return [
            MessageRef(table_id=r[0], kind=r[1], channel_id=r[2], message_id=r[3]) for r in rows
        ]

    async def delete_message_ref(self, table_id: int, kind: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "DELETE FROM message_refs WHERE table_id = ? AND kind = ?", (table_id, kind)
            )

    # --- settings and preferences --------------------------------------------------

    async def get_guild_setting(self, guild_id: int, key: str) -> str | None:
        async with self._read() as conn:
            row = await self._fetchone(
                conn,
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                (guild_id, key),
            )
        return None if row is None else str(row[0])

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        async with self._write() as conn:
            if value is None:
                await conn.execute(
                    "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
                )
            else:
                await conn.execute(
                    "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                    (guild_id, key, value),
                )

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        async with self._read() as conn:
            row = await self._fetchone(
                conn,
                "SELECT dm_closed, four_colour, hand_sort, locale FROM player_prefs "
                "WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return PlayerPrefs(user_id=user_id)
        return PlayerPrefs(
            user_id=user_id,
            dm_closed=bool(row[0]),
            four_colour=bool(row[1]),
            hand_sort=row[2],
            locale=row[3],
        )

    async def set_player_prefs(self, prefs: PlayerPrefs) -> None:
        async with self._write() as conn:
            await conn.execute(
                """
                INSERT INTO player_prefs (user_id, dm_closed, four_colour, hand_sort, locale)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET
                    dm_closed = excluded.dm_closed, four_colour = excluded.four_colour,
                    hand_sort = excluded.hand_sort, locale = excluded.locale
                """,
                (
                    prefs.user_id,
                    int(prefs.dm_closed),
                    int(prefs.four_colour),
                    prefs.hand_sort,
                    prefs.locale,
                ),
            )

    # --- statistics ----------------------------------------------------------------

    async def record_game_result(self, result: GameResult) -> int:
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                """
                INSERT INTO game_results (table_id, guild_id, variant, mode, seats,
                                          winner_side, scores, started_at, ended_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                (
                    result.table_id,
                    result.guild_id,
                    result.variant,
                    result.mode,
                    result.seats_json,
                    result.winner_side,
                    result.scores_json,
                    _to_text(result.started_at),
                    _to_text(result.ended_at),
                ),
            )
        assert row is not None
        return int(row[0])

    async def list_game_results(self, guild_id: int, limit: int = 100) -> list[GameResult]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                """
                SELECT id, table_id, guild_id, variant, mode, seats, winner_side, scores,
                       started_at, ended_at
                FROM game_results WHERE guild_id = ?
                ORDER BY ended_at DESC, id DESC LIMIT ?
                """,
                (guild_id, limit),
            )
        return [
            GameResult(
                id=r[0],
                table_id=r[1],
                guild_id=r[2],
                variant=r[3],
                mode=r[4],
                seats_json=r[5],
                winner_side=r[6],
                scores_json=r[7],
                started_at=_from_text(r[8]),
                ended_at=_from_text(r[9]),
            )
            for r in rows
        ]

    # --- meta --------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._read() as conn:
            row = await self._fetchone(conn, "SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
