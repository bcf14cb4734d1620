"""The SQLite driver of :class:`~bot.storage.store.SqlStore`, on aiosqlite.

Why these choices:

* WAL + ``synchronous=FULL``: a commit returns only after the WAL is fsynced, so a move whose
  reply was sent survives a SIGKILL *and* a power cut. WAL keeps this cheap (one sequential
  fsync per commit; see ``benchmarks/bench_store_commit.py``).
* One connection in autocommit mode, and every call one hop to aiosqlite's worker thread: a
  whole transaction (the generator of statements the store yields, see :meth:`_run`) runs
  there at once. Every ``await conn.execute`` is a round trip between the event loop and that
  thread (a queue, a wake-up, a self-pipe write back), and a move's writes took about 20 of
  them. aiosqlite runs calls in order, so one-hop calls cannot interleave and need no lock
  among themselves; only a transaction spread over several hops (:meth:`_write`, for tools and
  tests) must run alone (:class:`~bot.storage.access.Access`). A lock around every call made
  each read wait for every call queued before it: 300 ms per read with 100 busy tables.
  Writes use ``BEGIN IMMEDIATE`` so the write lock is taken before the version is read, which
  makes the optimistic version check race-free even across processes.
* Beside it, a read-only connection on the event loop's own thread, for the table load each
  move starts with (:meth:`_load`): in WAL mode it never waits for the writer, and the hop to
  the database thread cost more than the read.
* Times come from an injected clock and are stored as ISO-8601 UTC text, which sorts
  correctly and is readable in the ``sqlite3`` shell.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

import aiosqlite

from bot.storage.access import Access
from bot.storage.base import Clock, NotADatabase, SchemaTooNew, StorageError, utc_now
from bot.storage.migrations import LATEST_VERSION, apply_migrations, get_user_version
from bot.storage.outage import DatabaseUnavailable, Outage
from bot.storage.statements import Row, Step, Stmt, T, Tx, one
from bot.storage.store import SqlStore

Synchronous = Literal["FULL", "NORMAL", "EXTRA"]

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


def sqlite_outage(error: sqlite3.Error) -> Outage | None:
    """The outage an SQLite error stands for (its primary result code), or None for a bug."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else _OUTAGES.get(code & 0xFF)


_OUTAGES = {
    sqlite3.SQLITE_FULL: Outage.DISK_FULL,
    sqlite3.SQLITE_IOERR: Outage.READ_ONLY,
    sqlite3.SQLITE_READONLY: Outage.READ_ONLY,
    sqlite3.SQLITE_CANTOPEN: Outage.READ_ONLY,
    sqlite3.SQLITE_BUSY: Outage.BUSY,
}


def _execute(raw: sqlite3.Connection, step: Step) -> list[Row]:
    rows: list[Row] = []
    for stmt in step if isinstance(step, tuple) else (step,):
        if stmt.many is not None:
            raw.executemany(stmt.sql, stmt.many)
            rows = []
        else:
            rows = raw.execute(stmt.sql, stmt.params).fetchall()
    return rows


def _drive(raw: sqlite3.Connection, tx: Tx[T]) -> T:
    """Run every statement *tx* yields, handing each its rows."""
    try:
        step = next(tx)
        while True:
            step = tx.send(_execute(raw, step))
    except StopIteration as done:
        return cast(T, done.value)


class SqliteStore(SqlStore):
    """The store (:class:`~bot.storage.store.SqlStore`) backed by one SQLite file.

    Use ``async with SqliteStore(path) as store:`` or call :meth:`open` and :meth:`close`.
    Opening applies pending migrations.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Clock = utc_now,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 5000,
    ) -> None:
        super().__init__(clock)
        self.path = Path(path)
        self._synchronous = synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._conn: aiosqlite.Connection | None = None
        #: A second connection, read on the event loop's own thread (see :meth:`_load`).
        self._loop_conn: sqlite3.Connection | None = None
        self._access = Access()
        #: Whether the file could not be written: the connections are opened again (_reopen).
        self._stale = False

    # --- lifecycle -------------------------------------------------------------------------

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

    async def close(self) -> None:
        async with self._access.alone():
            await self._close_connections()
            self._stale = False

    async def _close_connections(self) -> None:
        conn, self._conn = self._conn, None
        here, self._loop_conn = self._loop_conn, None
        with contextlib.suppress(sqlite3.Error):
            if here is not None:
                here.close()
            if conn is not None:
                await conn.close()

    @property
    def is_open(self) -> bool:
        """Whether :meth:`open` succeeded and :meth:`close` was not called yet."""
        return self._conn is not None or self._stale

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            if self._stale:  # between a failed reopening and the next
                raise DatabaseUnavailable(Outage.READ_ONLY)
            raise StorageError("the store is not open")
        return self._conn

    # --- the driver --------------------------------------------------------------------------

    def _time(self, moment: datetime) -> str:
        if moment.tzinfo is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return moment.astimezone(UTC).isoformat()

    def _moment(self, value: Any) -> datetime:
        return datetime.fromisoformat(value)

    async def _transact(self, tx: Tx[T], *, write: bool, durable: bool, isolated: bool) -> T:
        # One hop: the whole transaction runs on the database thread, inside BEGIN IMMEDIATE
        # for a write (so ``isolated`` costs nothing here). ``durable=False`` commits without
        # the fsync (``synchronous=NORMAL`` for this transaction only): it survives the process
        # being killed, not a power cut, and the next durable commit syncs it too.
        del isolated
        relaxed = write and not durable and self._synchronous == "FULL"
        restore = f"PRAGMA synchronous = {self._synchronous}"

        def run(raw: sqlite3.Connection) -> T:
            if not write:
                return _drive(raw, tx)
            if relaxed:
                raw.execute("PRAGMA synchronous = NORMAL")
            try:
                raw.execute("BEGIN IMMEDIATE")
                try:
                    result = _drive(raw, tx)
                    raw.execute("COMMIT")
                except BaseException:
                    if raw.in_transaction:
                        raw.execute("ROLLBACK")
                    raise
            finally:
                if relaxed:
                    raw.execute(restore)
            return result

        if self._stale and (write or self._conn is None):
            await self._reopen()
        try:
            async with self._access.shared():
                conn = self._connection()
                # aiosqlite's ``_execute`` queues a function on its thread: the one way to run
                # several statements per hop (see the aiosqlite pin in pyproject.toml).
                result = cast(T, await conn._execute(lambda: run(conn._conn)))  # type: ignore[no-untyped-call]
        except sqlite3.Error as error:
            unavailable = self._unavailable(error)
            if unavailable is None:
                raise
            raise unavailable from error
        if write:
            self._stale = False
        return result

    def _unavailable(self, error: sqlite3.Error) -> DatabaseUnavailable | None:
        """The outage ``error`` stands for, if any; a file that can no longer be written also
        marks the connections stale, to be opened again (see :meth:`_reopen`)."""
        outage = sqlite_outage(error)
        if outage is None:
            return None
        if outage is Outage.READ_ONLY:
            self._stale = True
        return DatabaseUnavailable(outage)

    async def _reopen(self) -> None:
        """Open the connections again before each write while the file could not be written.

        Why: a filesystem the kernel remounted read-only after an error stays so for the files
        already open; the operator brings the file back by mounting the repaired filesystem
        again at the same place, which only a new connection sees. A write that then succeeds
        ends it (reads still work on the old file meanwhile, and need no reopening)."""
        async with self._access.alone():
            await self._close_connections()
            try:
                conn = await aiosqlite.connect(str(self.path), isolation_level=None)
            except sqlite3.Error as error:
                raise DatabaseUnavailable(Outage.READ_ONLY) from error
            try:
                await self._configure(conn)
                self._loop_conn = self._open_loop_connection()
            except BaseException as error:
                await conn.close()
                if isinstance(error, sqlite3.Error | StorageError):
                    raise DatabaseUnavailable(Outage.READ_ONLY) from error
                raise
            self._conn = conn

    async def _load(self, stmt: Stmt) -> list[Row]:
        # On the event loop's own connection, which in WAL mode never waits for the writer and
        # sees every commit that returned; a busy moment goes through the database thread.
        self._connection()
        here = self._loop_conn
        if here is None:
            return await self._run(one(stmt))
        try:
            done, rows = unless_busy(lambda: here.execute(stmt.sql, stmt.params).fetchall())
        except sqlite3.Error as error:
            if sqlite_outage(error) is None:
                raise
            done, rows = False, None  # the database thread's path reports it, or reopens
        return rows if done and rows is not None else await self._run(one(stmt))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A transaction spread over several hops, run alone (for tools and tests)."""
        async with self._access.alone():
            conn = self._connection()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._access.shared():
            return await get_user_version(self._connection())

    async def pragma(self, name: str) -> str:
        """Read a connection PRAGMA (for tests and ``doctor``); *name* is a bare word."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        rows = await self._rows(f"PRAGMA {name}")
        return str(rows[0][0]) if rows else ""
