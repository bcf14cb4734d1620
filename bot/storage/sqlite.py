"""SQLite implementation of :class:`bot.storage.base.Store` on aiosqlite.

Why these choices:

* WAL + ``synchronous=FULL``: a commit returns only after the WAL is fsynced, so
  a move whose reply was sent survives a SIGKILL *and* a power cut. WAL keeps
  this cheap (one sequential fsync per commit; see
  ``benchmarks/bench_store_commit.py``).
* One connection in autocommit mode. aiosqlite runs statements on one worker
  thread in order, so a call that is one hop to that thread (a read, or a whole
  transaction run there, see ``_transaction``) cannot interleave with another:
  those run side by side, queued on the thread. Only a transaction spread over
  several hops (``_write``) must run alone, or another coroutine's statements
  would land inside it; :class:`~bot.storage.access.Access` lets it wait for the others and hold
  off new ones. A lock around every call instead made each read wait for every
  call queued before it, one event-loop round trip each: 300 ms per read with
  100 busy tables, while the database thread was idle 70 % of the time.
  Writes use ``BEGIN IMMEDIATE`` so the write lock is taken before the version is
  read, which makes the optimistic version check race-free even across
  processes.
* Beside it, a read-only connection on the event loop's own thread, for the
  table load each move starts with (``load_table``): in WAL mode it never waits
  for the writer, and the hop to the database thread cost more than the read.
* Times come from an injected clock and are stored as ISO-8601 UTC text, which
  sorts correctly and is readable in the ``sqlite3`` shell.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import aiosqlite

from bot.storage.access import Access
from bot.storage.base import (
    ALL_VARIANTS,
    CLOSED_STATUSES,
    GLOBAL_SCOPE,
    OPEN_STATUSES,
    SHARD_SHIFT,
    Clock,
    Deadline,
    DeadlineGone,
    GamePlayerRecord,
    GameRecord,
    GameRoundRecord,
    LeaderboardSort,
    LoadedTable,
    MessageRef,
    MoveRecord,
    NewTable,
    NotADatabase,
    PlayerPrefs,
    PlayerStats,
    Rater,
    RatingChange,
    RatingKey,
    SchemaTooNew,
    SeatRecord,
    Shards,
    SkillRating,
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
from bot.storage.queries import (
    LAST_HUMAN_MOVE_SQL,
    LOAD_TABLE_SQL,
    PLAYER_COLUMNS,
    PREFS_COLUMNS,
    SEAT_COLUMNS,
    STATS_COLUMNS,
    TABLE_COLUMNS,
    TABLE_WIDTH,
    ahead_conditions,
    check_status,
    display,
    loaded_table,
    prefs_from_row,
    sort_spec,
    stats_keys,
    stats_rows,
)

Synchronous = Literal["FULL", "NORMAL", "EXTRA"]
Row = tuple[Any, ...]
T = TypeVar("T")


#: The first bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def unless_busy(attempt: Callable[[], T]) -> tuple[bool, T | None]:
    """``(True, attempt())``, or ``(False, None)`` when the database was busy (a rare moment
    for a WAL reader: another connection recovering the log): the caller then reads through
    the database thread, which waits its turn."""
    try:
        return True, attempt()
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise
        return False, None


def check_database_file(path: Path) -> None:
    """Refuse an existing file that is not a SQLite database (an empty one included).

    SQLite would silently treat such a file as a new, empty database, and every game and rating
    the operator expected would be gone without a word. Only a missing file is created.
    """
    if not path.exists():
        return
    if path.is_dir():
        raise NotADatabase(path, "it is a folder")
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if not header:
        raise NotADatabase(path, "the file is empty (0 bytes)")
    if header != SQLITE_HEADER:
        raise NotADatabase(path, "the file does not start like a SQLite database")


def _to_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the clock must return timezone-aware datetimes")
    return moment.astimezone(UTC).isoformat()


def _from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _deadline_from_row(row: Row) -> Deadline:
    return Deadline(
        table_id=row[0],
        kind=row[1],
        due_at=_from_text(row[2]),
        generation=row[3],
        seat=row[4],
        fired=bool(row[5]),
    )


def _shard_filter(column: str, shards: Shards | None) -> tuple[str, list[int]]:
    """`` AND <column's shard> IN (...)`` for the servers on ``shards``; nothing for all."""
    if shards is None or shards.everything:
        return "", []
    marks = ", ".join("?" for _ in shards.ids)
    return (
        f" AND (({column} >> {SHARD_SHIFT}) % ?) IN ({marks})",
        [shards.count, *shards.ids],
    )


_DEADLINES_SQL = (
    "SELECT table_id, kind, due_at, generation, seat, fired FROM deadlines "
    "WHERE table_id = ? ORDER BY kind"
)
_UPSERT_REFS_SQL = """
    INSERT INTO message_refs (table_id, kind, channel_id, message_id, stamp, revision)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (table_id, kind)
    DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id,
                  stamp = excluded.stamp, revision = excluded.revision
"""


def _ref_rows(refs: Sequence[MessageRef]) -> list[Row]:
    return [(r.table_id, r.kind, r.channel_id, r.message_id, r.stamp, r.revision) for r in refs]


def _claim(raw: sqlite3.Connection, deadline: Deadline) -> None:
    """Inside a write: mark ``deadline`` fired, or raise DeadlineGone (rolls back)."""
    row = raw.execute(
        "UPDATE deadlines SET fired = 1 "
        "WHERE table_id = ? AND kind = ? AND generation = ? AND fired = 0 RETURNING kind",
        (deadline.table_id, deadline.kind, deadline.generation),
    ).fetchone()
    if row is None:
        raise DeadlineGone(deadline.table_id, deadline.kind, deadline.generation)


def _seat_from_row(r: Row) -> SeatRecord:
    return SeatRecord(
        seat=r[0],
        user_id=r[1],
        is_computer=bool(r[2]),
        team=r[3],
        name=r[4],
        strength=r[5],
        timeouts=r[6],
    )


def _table_from_row(row: Row) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=check_status(row[4]),
        variant=row[5],
        mode=row[6],
        options_json=row[7],
        seed=row[8],
        snapshot_json=row[9],
        version=row[10],
        created_at=_from_text(row[11]),
        updated_at=_from_text(row[12]),
        finished_at=None if row[13] is None else _from_text(row[13]),
        revision=row[14],
        published=row[15],
        locale=row[16],
        closed_reason=row[17],
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
        #: A second connection, read on the event loop's own thread (see :meth:`load_table`).
        self._loop_conn: sqlite3.Connection | None = None
        self._access = Access()

    # --- lifecycle -------------------------------------------------------------

    async def open(self) -> None:
        if self._conn is not None:
            return
        if not self.path.parent.is_dir():
            # Checked up front: a failed aiosqlite.connect leaves its worker thread racing the
            # event loop's shutdown, which prints a traceback after our friendly message.
            raise StorageError(f"the folder {self.path.parent} does not exist")
        check_database_file(self.path)
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
        self._loop_conn = self._open_loop_connection()

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

    def _open_loop_connection(self) -> sqlite3.Connection:
        """The event loop's connection only reads, and never waits for a lock (it would stop
        the loop: a busy read goes through the database thread instead). Writes stay on the
        database thread: tried here too, they made each connection's page cache stale at
        every write of the other, and the moves cost more, not less."""
        here = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        here.execute("PRAGMA busy_timeout = 0")
        here.execute("PRAGMA query_only = ON")
        return here

    def _here(self) -> sqlite3.Connection:
        here = self._loop_conn
        assert here is not None, "opened with the store"
        return here

    async def close(self) -> None:
        async with self._access.alone():
            conn, self._conn = self._conn, None
            here, self._loop_conn = self._loop_conn, None
            if here is not None:
                here.close()
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
        """The connection for reads (autocommit), beside other reads and one-hop writes."""
        async with self._access.shared():
            yield self._connection()

    @asynccontextmanager
    async def _write(self, *, durable: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed on success, rolled back on any error.

        ``durable=False`` commits without waiting for the fsync (``synchronous=NORMAL`` for this
        transaction only): it survives the process being killed, not a power cut, and the next
        durable commit syncs it too. Only for writes that are a cache of what Discord shows.
        """
        async with self._access.alone():
            conn = self._connection()
            relaxed = not durable and self._synchronous == "FULL"
            if relaxed:
                await conn.execute("PRAGMA synchronous = NORMAL")
            try:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    await conn.execute("COMMIT")
                except BaseException:
                    await rollback_quietly(conn)
                    raise
            finally:
                if relaxed:
                    await conn.execute(f"PRAGMA synchronous = {self._synchronous}")

    async def _transaction(
        self, body: Callable[[sqlite3.Connection], T], *, durable: bool = True
    ) -> T:
        """Like :meth:`_write`, but the whole transaction runs in one hop to the database thread.

        Why: every ``await conn.execute`` is a round trip between the event loop and aiosqlite's
        thread (a queue, a wake-up, a self-pipe write back), and a move's writes took about 20 of
        them. ``body`` gets the plain ``sqlite3`` connection, inside ``BEGIN IMMEDIATE``, and
        must not await. It uses aiosqlite's ``_execute`` (queue a function on its thread), the
        one way to run several statements per hop (``tests/test_storage.py`` covers each write).
        """
        relaxed = not durable and self._synchronous == "FULL"
        synchronous = self._synchronous

        def run(raw: sqlite3.Connection) -> T:
            if relaxed:
                raw.execute("PRAGMA synchronous = NORMAL")
            try:
                raw.execute("BEGIN IMMEDIATE")
                try:
                    result = body(raw)
                    raw.execute("COMMIT")
                except BaseException:
                    if raw.in_transaction:
                        raw.execute("ROLLBACK")
                    raise
            finally:
                if relaxed:
                    raw.execute(f"PRAGMA synchronous = {synchronous}")
            return result

        async with self._access.shared():
            conn = self._connection()
            return cast(T, await conn._execute(lambda: run(conn._conn)))

    async def _fetchone(
        self, conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
    ) -> Row | None:
        rows = await self._fetchall(conn, sql, params)
        return rows[0] if rows else None

    async def _fetchall(
        self, conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
    ) -> list[Row]:
        # One hop to the database thread (execute + fetch + close), instead of three: every
        # hop costs about 0.1 ms, which is most of a move's commit time.
        return [cast(Row, row) for row in await conn.execute_fetchall(sql, tuple(params))]

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
        status = check_status(new.status)
        now = self._now()
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                f"""
                INSERT INTO tables (guild_id, channel_id, host_id, status, variant, mode,
                                    options, seed, snapshot, version, created_at, updated_at,
                                    revision, locale)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, 1, ?)
                RETURNING {TABLE_COLUMNS}
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
                    new.locale,
                ),
            )
        assert row is not None  # RETURNING always yields the inserted row
        return _table_from_row(row)

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self._read() as conn:
            row = await self._fetchone(
                conn, f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            )
        return None if row is None else _table_from_row(row)

    async def list_active_tables(
        self, guild_id: int | None = None, shards: Shards | None = None
    ) -> list[TableRecord]:
        placeholders = ", ".join("?" for _ in OPEN_STATUSES)
        sql = f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN ({placeholders})"
        params: list[Any] = list(OPEN_STATUSES)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        shard_sql, shard_params = _shard_filter("guild_id", shards)
        sql += shard_sql + " ORDER BY id"
        params += shard_params
        async with self._read() as conn:
            rows = await self._fetchall(conn, sql, params)
        return [_table_from_row(row) for row in rows]

    async def update_table_status(
        self,
        table_id: int,
        status: TableStatus,
        *,
        reason: str | None = None,
        claim: Deadline | None = None,
    ) -> TableRecord:
        status = check_status(status)
        now = self._now()
        finished = now if status in CLOSED_STATUSES else None

        def body(raw: sqlite3.Connection) -> Row:
            if claim is not None:
                _claim(raw, claim)
            row: Row | None = raw.execute(
                f"""
                UPDATE tables SET status = ?, updated_at = ?, revision = revision + 1,
                                  finished_at = COALESCE(finished_at, ?),
                                  closed_reason = COALESCE(?, closed_reason)
                WHERE id = ?
                RETURNING {TABLE_COLUMNS}
                """,
                (status, now, finished, reason, table_id),
            ).fetchone()
            if row is None:
                raise TableNotFound(table_id)
            return row

        return _table_from_row(await self._transaction(body))

    async def update_table_options(self, table_id: int, options_json: str) -> TableRecord:
        return await self._set_table_column(table_id, "options", options_json)

    async def set_table_locale(self, table_id: int, locale: str | None) -> TableRecord:
        return await self._set_table_column(table_id, "locale", locale)

    async def _set_table_column(
        self, table_id: int, column: Literal["options", "locale"], value: str | None
    ) -> TableRecord:
        """Change one lobby setting of a table (a new revision, so Discord shows it)."""
        async with self._write() as conn:
            row = await self._fetchone(
                conn,
                f"""
                UPDATE tables SET {column} = ?, updated_at = ?, revision = revision + 1
                WHERE id = ?
                RETURNING {TABLE_COLUMNS}
                """,
                (value, self._now(), table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
        return _table_from_row(row)

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        async with self._write() as conn:
            bumped = await self._fetchone(
                conn,
                "UPDATE tables SET revision = revision + 1 WHERE id = ? RETURNING id",
                (table_id,),
            )
            if bumped is None:
                raise TableNotFound(table_id)
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, is_computer, team, name, strength, "
                "timeouts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        table_id,
                        s.seat,
                        s.user_id,
                        int(s.is_computer),
                        s.team,
                        s.name,
                        s.strength,
                        s.timeouts,
                    )
                    for s in seats
                ],
            )

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        async with self._read() as conn:
            return await self._seats(conn, table_id)

    async def load_table(self, table_id: int) -> LoadedTable | None:
        # Each move starts with this read: one indexed statement, on the event loop's own
        # connection, which in WAL mode never waits for the writer and sees every commit that
        # returned. A hop to the database thread (a queue, two thread switches, the
        # interpreter lock handed back and forth) cost more than the read itself.
        async with self._read() as conn:
            done, rows = unless_busy(
                lambda: self._here().execute(LOAD_TABLE_SQL, (table_id,)).fetchall()
            )
            if not done:
                rows = await self._fetchall(conn, LOAD_TABLE_SQL, (table_id,))
        if not rows:
            return None
        return loaded_table(_table_from_row(rows[0][:TABLE_WIDTH]), rows, _seat_from_row)

    async def _seats(self, conn: aiosqlite.Connection, table_id: int) -> list[SeatRecord]:
        rows = await self._fetchall(
            conn,
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat_from_row(r) for r in rows]

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
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
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
                claim,
                timeouts,
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
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
    ) -> int:
        new_status = None if status is None else check_status(status)
        now = self._now()

        def body(raw: sqlite3.Connection) -> int:
            row = raw.execute(
                "SELECT version, status FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise TableNotFound(table_id)
            current, current_status = int(row[0]), str(row[1])
            if current_status in CLOSED_STATUSES:
                raise TableClosed(table_id, current_status)
            if current != expected_version:
                raise StaleVersion(table_id, expected_version, current)
            if claim is not None:
                _claim(raw, claim)
            if timeouts is not None:
                raw.execute(
                    "UPDATE seats SET timeouts = ? WHERE table_id = ? AND seat = ?",
                    (timeouts[1], table_id, timeouts[0]),
                )
            new_version = current + 1
            raw.execute(
                "INSERT INTO moves (table_id, seq, actor_id, action, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, new_version, actor_id, action_json, events_json, now),
            )
            finished = now if new_status in CLOSED_STATUSES else None
            raw.execute(
                """
                UPDATE tables
                SET snapshot = ?, version = ?, updated_at = ?, revision = revision + 1,
                    status = COALESCE(?, status),
                    finished_at = COALESCE(finished_at, ?)
                WHERE id = ? AND version = ?
                """,
                (snapshot_json, new_version, now, new_status, finished, table_id, current),
            )
            return new_version

        return await self._transaction(body)

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

    async def last_human_move_at(self, table_id: int) -> datetime | None:
        async with self._read() as conn:
            row = await self._fetchone(conn, LAST_HUMAN_MOVE_SQL, (table_id,))
        return None if row is None else _from_text(row[0])

    # --- deadlines ------------------------------------------------------------------

    async def arm_deadlines(self, table_id: int, wanted: Sequence[Deadline]) -> list[Deadline]:
        # Without waiting for the fsync: a kill never loses it, the next move's commit syncs it,
        # and a power cut before that only makes the start-up arm the table's deadlines again.
        kinds = [d.kind for d in wanted]
        placeholders = ", ".join("?" for _ in kinds) or "''"
        rows = [(table_id, d.kind, _to_text(d.due_at), d.generation, d.seat) for d in wanted]

        def body(raw: sqlite3.Connection) -> list[Deadline]:
            raw.execute(
                f"DELETE FROM deadlines WHERE table_id = ? AND kind NOT IN ({placeholders})",
                (table_id, *kinds),
            )
            raw.executemany(
                """
                INSERT INTO deadlines (table_id, kind, due_at, generation, seat, fired)
                VALUES (?, ?, ?, ?, ?, 0)
                ON CONFLICT (table_id, kind) DO UPDATE
                SET due_at = excluded.due_at, generation = excluded.generation,
                    seat = excluded.seat, fired = 0
                WHERE excluded.generation != '' AND generation != excluded.generation
                """,
                rows,
            )
            return [_deadline_from_row(r) for r in raw.execute(_DEADLINES_SQL, (table_id,))]

        return await self._transaction(body, durable=False)

    async def get_deadlines(self, table_id: int) -> list[Deadline]:
        async with self._read() as conn:
            return await self._deadlines(conn, table_id)

    async def _deadlines(self, conn: aiosqlite.Connection, table_id: int) -> list[Deadline]:
        rows = await self._fetchall(conn, _DEADLINES_SQL, (table_id,))
        return [_deadline_from_row(r) for r in rows]

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        placeholders = ", ".join("?" for _ in OPEN_STATUSES)
        shard_sql, shard_params = _shard_filter("t.guild_id", shards)
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT d.table_id, d.kind, d.due_at, d.generation, d.seat, d.fired "
                "FROM deadlines d JOIN tables t ON t.id = d.table_id "
                f"WHERE d.fired = 0 AND t.status IN ({placeholders}){shard_sql} "
                "ORDER BY d.due_at, d.table_id, d.kind LIMIT ?",
                (*OPEN_STATUSES, *shard_params, int(limit)),
            )
        return [_deadline_from_row(r) for r in rows]

    async def claim_deadline(self, deadline: Deadline) -> bool:
        try:
            await self._transaction(lambda raw: _claim(raw, deadline))
        except DeadlineGone:
            return False
        return True

    # --- messages ----------------------------------------------------------------

    async def set_message_ref(self, ref: MessageRef) -> None:
        async with self._write() as conn:
            await self._upsert_refs(conn, [ref])

    @staticmethod
    async def _upsert_refs(conn: aiosqlite.Connection, refs: Sequence[MessageRef]) -> None:
        await conn.executemany(_UPSERT_REFS_SQL, _ref_rows(refs))

    async def get_message_refs(self, table_id: int) -> list[MessageRef]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT table_id, kind, channel_id, message_id, stamp, revision "
                "FROM message_refs WHERE table_id = ? ORDER BY kind",
                (table_id,),
            )
        return [MessageRef(*r) for r in rows]

    async def mark_published(
        self, table_id: int, revision: int, refs: Sequence[MessageRef] = ()
    ) -> None:
        rows = _ref_rows(refs)

        def body(raw: sqlite3.Connection) -> None:
            raw.executemany(_UPSERT_REFS_SQL, rows)
            raw.execute(
                "UPDATE tables SET published = MAX(published, ?) WHERE id = ?",
                (revision, table_id),
            )

        await self._transaction(body, durable=False)

    async def list_unpublished_tables(self, shards: Shards | None = None) -> list[TableRecord]:
        shard_sql, shard_params = _shard_filter("guild_id", shards)
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT {TABLE_COLUMNS} FROM tables "
                f"WHERE published < revision{shard_sql} ORDER BY id",
                shard_params,
            )
        return [_table_from_row(row) for row in rows]

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
        return (await self.get_players_prefs([user_id]))[user_id]

    async def get_players_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        wanted = list(dict.fromkeys(user_ids))
        marks = ", ".join("?" for _ in wanted)
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT user_id, {PREFS_COLUMNS} FROM player_prefs WHERE user_id IN ({marks})",
                wanted,
            )
        found = {r[0]: r[1:] for r in rows}
        return {u: prefs_from_row(u, found.get(u)) for u in wanted}

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

    # --- recorded games, ratings and the leaderboard -----------------------------------------

    async def record_game(self, game: GameRecord, rater: Rater | None = None) -> int | None:
        async with self._write() as conn:
            game_id = await self._insert_game(conn, game)
            if game_id is None:
                return None  # already recorded: a retried callback must not count twice
            await self._insert_players_and_rounds(conn, game_id, game)
            keys = stats_keys(game)
            await conn.executemany(_STATS_UPSERT, stats_rows(game, keys))
            if rater is not None and keys:
                current = await self._current_ratings(conn, [key for key, _ in keys])
                await self._store_ratings(conn, game_id, current, rater(current))
            return game_id

    async def _insert_game(self, conn: aiosqlite.Connection, game: GameRecord) -> int | None:
        row = await self._fetchone(
            conn,
            """
            INSERT INTO games (table_id, guild_id, channel_id, variant, mode, options, players,
                               winner_sides, scores, rated, started_at, ended_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (table_id) DO NOTHING
            RETURNING id
            """,
            (
                game.table_id,
                game.guild_id,
                game.channel_id,
                game.variant,
                game.mode,
                game.options_json,
                len(game.players),
                game.winner_sides_json,
                game.scores_json,
                int(game.rated),
                _to_text(game.started_at),
                _to_text(game.ended_at),
            ),
        )
        return None if row is None else int(row[0])

    async def _insert_players_and_rounds(
        self, conn: aiosqlite.Connection, game_id: int, game: GameRecord
    ) -> None:
        await conn.executemany(
            f"INSERT INTO game_players (game_id, {PLAYER_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    p.seat,
                    p.user_id,
                    int(p.is_computer),
                    p.name,
                    p.side,
                    p.partner_id,
                    p.place,
                    int(p.won),
                    int(p.forfeited),
                    p.score,
                    p.rounds,
                    p.rounds_won,
                    p.penalty_total,
                    p.rami_sec,
                    p.best_opening,
                )
                for p in game.players
            ],
        )
        await conn.executemany(
            "INSERT INTO game_rounds (game_id, round_no, winner, outcome, penalties, points, "
            "totals) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    r.round_no,
                    r.winner,
                    r.outcome,
                    r.penalties_json,
                    r.points_json,
                    r.totals_json,
                )
                for r in game.rounds
            ],
        )

    async def _current_ratings(
        self, conn: aiosqlite.Connection, keys: Sequence[RatingKey]
    ) -> dict[RatingKey, SkillRating | None]:
        current: dict[RatingKey, SkillRating | None] = {}
        for key in keys:
            row = await self._fetchone(
                conn,
                "SELECT mu, sigma, rating FROM player_stats "
                "WHERE scope = ? AND family = ? AND user_id = ?",
                key,
            )
            has_rating = row is not None and row[0] is not None
            current[key] = SkillRating(row[0], row[1], row[2]) if row and has_rating else None
        return current

    async def _store_ratings(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        current: dict[RatingKey, SkillRating | None],
        updated: Mapping[RatingKey, SkillRating],
    ) -> None:
        unknown = set(updated) - set(current)
        if unknown:
            raise StorageError(f"the rater returned keys that were not asked for: {unknown}")
        await conn.executemany(
            "UPDATE player_stats SET mu = ?, sigma = ?, rating = ?, rated_games = rated_games + 1 "
            "WHERE scope = ? AND family = ? AND user_id = ?",
            [(new.mu, new.sigma, new.rating, *key) for key, new in updated.items()],
        )
        await conn.executemany(
            "INSERT INTO rating_history (scope, family, user_id, game_id, before, after) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(*key, game_id, display(current[key]), new.rating) for key, new in updated.items()],
        )

    async def get_game_record(self, table_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = await self._fetchone(
                conn,
                "SELECT id, table_id, guild_id, channel_id, variant, mode, options, winner_sides, "
                "scores, rated, started_at, ended_at FROM games WHERE table_id = ?",
                (table_id,),
            )
            if row is None:
                return None
            players = await self._fetchall(
                conn,
                f"SELECT {PLAYER_COLUMNS} FROM game_players WHERE game_id = ? ORDER BY seat",
                (row[0],),
            )
            rounds = await self._fetchall(
                conn,
                "SELECT round_no, winner, outcome, penalties, points, totals FROM game_rounds "
                "WHERE game_id = ? ORDER BY round_no",
                (row[0],),
            )
        return GameRecord(
            id=row[0],
            table_id=row[1],
            guild_id=row[2],
            channel_id=row[3],
            variant=row[4],
            mode=row[5],
            options_json=row[6],
            winner_sides_json=row[7],
            scores_json=row[8],
            rated=bool(row[9]),
            started_at=_from_text(row[10]),
            ended_at=_from_text(row[11]),
            players=tuple(_player_from_row(p) for p in players),
            rounds=tuple(GameRoundRecord(*r) for r in rounds),
        )

    async def leaderboard_page(
        self, scope: int, family: str, sort: LeaderboardSort, offset: int, limit: int
    ) -> list[PlayerStats]:
        spec = sort_spec(sort)
        order = ", ".join(f"{column} {direction}" for column, direction in spec)
        outer_order = ", ".join(f"s.{column} {direction}" for column, direction in spec)
        columns = ", ".join(f"s.{name.strip()}" for name in STATS_COLUMNS.split(","))
        # Deferred join: the OFFSET walk reads only the sort's covering index; whole rows are
        # fetched by primary key for the page's users alone (a deep page would otherwise look
        # up every skipped row). CROSS JOIN keeps SQLite from driving the join the other way.
        sql = f"""
            WITH page (user_id) AS (
                SELECT user_id FROM player_stats WHERE scope = ? AND family = ?
                ORDER BY {order}, user_id LIMIT ? OFFSET ?
            )
            SELECT {columns} FROM page CROSS JOIN player_stats AS s
                ON s.scope = ? AND s.family = ? AND s.user_id = page.user_id
            ORDER BY {outer_order}, s.user_id
        """
        params = (scope, family, max(0, limit), max(0, offset), scope, family)
        async with self._read() as conn:
            rows = await self._fetchall(conn, sql, params)
        return [PlayerStats(*r) for r in rows]

    async def leaderboard_size(self, scope: int, family: str) -> int:
        async with self._read() as conn:
            row = await self._fetchone(
                conn,
                "SELECT COUNT(*) FROM player_stats WHERE scope = ? AND family = ?",
                (scope, family),
            )
        return 0 if row is None else int(row[0])

    async def leaderboard_position(
        self, scope: int, family: str, sort: LeaderboardSort, user_id: int
    ) -> tuple[int, PlayerStats] | None:
        async with self._read() as conn:
            row = await self._fetchone(
                conn,
                f"SELECT {STATS_COLUMNS} FROM player_stats "
                "WHERE scope = ? AND family = ? AND user_id = ?",
                (scope, family, user_id),
            )
            if row is None:
                return None
            stats = PlayerStats(*row)
            ahead = 0
            for condition, params in ahead_conditions(sort, stats):
                counted = await self._fetchone(
                    conn,
                    "SELECT COUNT(*) FROM player_stats WHERE scope = ? AND family = ? "
                    f"AND {condition}",
                    (scope, family, *params),
                )
                ahead += 0 if counted is None else int(counted[0])
        return ahead + 1, stats

    async def get_player_stats(self, scope: int, user_id: int) -> list[PlayerStats]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT {STATS_COLUMNS} FROM player_stats WHERE scope = ? AND user_id = ? "
                "ORDER BY family",
                (scope, user_id),
            )
        return [PlayerStats(*r) for r in rows]

    async def rating_history(
        self, scope: int, family: str, user_id: int, limit: int
    ) -> list[RatingChange]:
        async with self._read() as conn:
            rows = await self._fetchall(
                conn,
                "SELECT game_id, before, after FROM rating_history "
                "WHERE scope = ? AND family = ? AND user_id = ? ORDER BY game_id DESC LIMIT ?",
                (scope, family, user_id, max(0, limit)),
            )
        return [RatingChange(game_id=r[0], before=r[1], after=r[2]) for r in rows]

    async def favourite_partner(
        self, scope: int, family: str, user_id: int
    ) -> tuple[int, int] | None:
        sql = (
            "SELECT gp.partner_id, COUNT(*) AS together FROM game_players AS gp "
            "JOIN games AS g ON g.id = gp.game_id "
            "WHERE gp.user_id = ? AND gp.partner_id IS NOT NULL"
        )
        params: list[Any] = [user_id]
        if scope != GLOBAL_SCOPE:
            sql += " AND g.guild_id = ?"
            params.append(scope)
        if family != ALL_VARIANTS:
            sql += " AND g.variant = ?"
            params.append(family)
        sql += " GROUP BY gp.partner_id ORDER BY together DESC, gp.partner_id LIMIT 1"
        async with self._read() as conn:
            row = await self._fetchone(conn, sql, params)
        return None if row is None else (int(row[0]), int(row[1]))

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        names: dict[int, str] = {}
        async with self._read() as conn:
            for user_id in dict.fromkeys(user_ids):
                row = await self._fetchone(
                    conn,
                    "SELECT name FROM game_players WHERE user_id = ? AND name IS NOT NULL "
                    "ORDER BY game_id DESC LIMIT 1",
                    (user_id,),
                )
                if row is not None:
                    names[user_id] = str(row[0])
        return names


# Every DO UPDATE expression reads the row as it was before this game (SQLite semantics), so
# ``streak + 1`` below is the streak including this game when it was a win.
_STATS_UPSERT = """
INSERT INTO player_stats (scope, family, user_id, games, wins, win_rate, rounds, rounds_won,
                          penalty_total, rami_sec, best_opening, streak, best_streak)
VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (scope, family, user_id) DO UPDATE SET
    games = games + 1,
    wins = wins + excluded.wins,
    win_rate = CAST(wins + excluded.wins AS REAL) / (games + 1),
    rounds = rounds + excluded.rounds,
    rounds_won = rounds_won + excluded.rounds_won,
    penalty_total = penalty_total + excluded.penalty_total,
    rami_sec = rami_sec + excluded.rami_sec,
    best_opening = MAX(best_opening, excluded.best_opening),
    streak = CASE WHEN excluded.wins = 1 THEN streak + 1 ELSE 0 END,
    best_streak = MAX(best_streak, CASE WHEN excluded.wins = 1 THEN streak + 1 ELSE 0 END)
"""


def _player_from_row(row: Row) -> GamePlayerRecord:
    return GamePlayerRecord(
        seat=row[0],
        user_id=row[1],
        is_computer=bool(row[2]),
        name=row[3],
        side=row[4],
        partner_id=row[5],
        place=row[6],
        won=bool(row[7]),
        forfeited=bool(row[8]),
        score=row[9],
        rounds=row[10],
        rounds_won=row[11],
        penalty_total=row[12],
        rami_sec=row[13],
        best_opening=row[14],
    )
