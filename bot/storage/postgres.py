"""The PostgreSQL driver of :class:`~bot.storage.store.SqlStore`, on asyncpg.

Why these choices:

* The same guarantees as the SQLite store: every write is committed (with PostgreSQL's
  default ``synchronous_commit = on``: flushed to the WAL on disk) before the method returns;
  the optimistic version check reads the table row ``FOR UPDATE`` so two processes writing the
  same table queue on that row and the second sees the first's version.
* A pool of connections instead of one: several bot processes (shards) and several tables of
  one process write at once; PostgreSQL's row locks keep them apart.
* Deadline claims are ``UPDATE … WHERE fired = FALSE RETURNING``: under READ COMMITTED a
  second process claiming the same row waits for the first and then finds it fired, so a
  deadline's work happens once across every process.
* Round trips, not SQL, are most of a call's cost. A transaction's independent statements go
  as one (data-modifying ``WITH`` clauses, :func:`joined`); writes whose steps need no shared
  transaction run without BEGIN/COMMIT (a statement is its own transaction); writes that need
  not wait for the disk go through a second pool whose sessions say
  ``synchronous_commit = off`` (the analogue of SQLite's ``synchronous=NORMAL`` for them).
* The schema mirrors the SQLite one number for number (:mod:`bot.storage.migrations.postgres`);
  Discord ids are BIGINT, flags BOOLEAN, times TIMESTAMPTZ.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, cast

import asyncpg

from bot.storage.base import Clock, SchemaTooNew, StorageError, masked_url, utc_now
from bot.storage.migrations.postgres import (
    PG_LATEST_VERSION,
    apply_pg_migrations,
    get_schema_version,
)
from bot.storage.outage import DatabaseUnavailable, Outage
from bot.storage.statements import Row, Step, Stmt, T, Tx, dollar_params
from bot.storage.store import SqlStore

#: How long a new connection may take before the server counts as unreachable.
CONNECT_TIMEOUT_SECONDS = 10.0


def joined(batch: tuple[Stmt, ...]) -> Stmt:
    """Independent statements as one: all but the last become ``WITH`` clauses (PostgreSQL
    runs each exactly once, on the statement's snapshot), whose rows nobody reads."""
    if len(batch) == 1:
        return batch[0]
    return Stmt(_joined_sql(tuple(s.sql for s in batch)), tuple(p for s in batch for p in s.params))


@lru_cache(maxsize=256)
def _joined_sql(sqls: tuple[str, ...]) -> str:
    """The joined text of a batch, built once per shape (a move's batch is built every move)."""
    *first, last = sqls
    clauses = ", ".join(f"_s{i} AS ({sql})" for i, sql in enumerate(first))
    return f"WITH {clauses} {last}"


async def _execute(conn: Any, step: Step) -> list[Row]:
    stmt = joined(step) if isinstance(step, tuple) else step
    if stmt.many is not None:
        await conn.executemany(dollar_params(stmt.sql), stmt.many)
        return []
    return [tuple(r) for r in await conn.fetch(dollar_params(stmt.sql), *stmt.params)]


async def _drive(conn: Any, tx: Tx[T]) -> T:
    """Send every statement *tx* yields, one round trip each, handing it the rows."""
    try:
        step = next(tx)
        while True:
            step = tx.send(await _execute(conn, step))
    except StopIteration as done:
        return cast(T, done.value)


async def _in_transaction(conn: Any, tx: Tx[T]) -> T:
    """*tx* in one transaction. A connection lost before COMMIT was sent stored nothing (the
    server rolls an open transaction back); lost after, the change may have been stored, which
    the caller must not deny (:attr:`DatabaseUnavailable.maybe_done`)."""
    transaction = conn.transaction()
    await transaction.start()
    try:
        result = await _drive(conn, tx)
    except BaseException:
        with contextlib.suppress(*_LOST):
            await transaction.rollback()
        raise
    try:
        await transaction.commit()
    except _LOST as error:
        outage = postgres_outage(error) or Outage.UNREACHABLE
        raise DatabaseUnavailable(outage, maybe_done=True) from error
    return result


#: What asyncpg raises when the connection goes away under a call.
_LOST = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError)


def postgres_outage(error: BaseException) -> Outage | None:
    """The outage an error from asyncpg or the network stands for, or None for a bug.

    The server shutting down or starting, a connection refused, reset or lost, a failover's
    standby that is still read-only, or a full disk; a statement's own error (a bad query, a
    cancelled one) is a bug and stays one."""
    if isinstance(error, asyncpg.InterfaceError):
        lost = "closed" in str(error) or "connection" in str(error).lower()
        return Outage.UNREACHABLE if lost else None
    if isinstance(error, asyncpg.DiskFullError):
        return Outage.DISK_FULL
    if isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        return Outage.READ_ONLY
    return Outage.UNREACHABLE if isinstance(error, _UNREACHABLE) else None


_UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.InsufficientResourcesError,
)


async def _keep_session(conn: Any) -> None:
    """Return a connection to the pool as it is, without asyncpg's default ``RESET ALL`` round
    trip after every call: the store changes no session state (the migration lock is released
    explicitly)."""
    del conn


class PostgresStore(SqlStore):
    """The store (:class:`~bot.storage.store.SqlStore`) on a PostgreSQL database (``postgresql://`` URL).

    Several processes may use one database at once. Opening applies pending migrations.
    """

    GREATEST = "GREATEST"
    FOR_UPDATE = " FOR UPDATE"
    NULLS_LAST = " NULLS LAST"
    FALSE = "FALSE"
    TRUE = "TRUE"

    def __init__(
        self,
        url: str,
        *,
        clock: Clock = utc_now,
        min_connections: int = 0,
        max_connections: int = 10,
    ) -> None:
        super().__init__(clock)
        self.url = url
        # No floor by default: a pool with one restores it in the background while the server
        # is away, logging a traceback every second; connections are made on demand instead.
        self._min = min_connections
        self._max = max_connections
        self._pool: Any = None
        #: Sessions with ``synchronous_commit = off``, for ``durable=False`` writes.
        self._relaxed: Any = None

    def __repr__(self) -> str:
        return f"PostgresStore({masked_url(self.url)!r})"

    # --- lifecycle -------------------------------------------------------------------------

    async def _create_pool(self, minimum: int, **settings: str) -> Any:
        try:
            return await asyncpg.create_pool(
                self.url,
                min_size=minimum,
                max_size=self._max,
                command_timeout=60,
                # A server that does not answer (a partition, a failover in progress) is an
                # outage after 10 s, not a player's reply left "thinking" for a minute.
                timeout=CONNECT_TIMEOUT_SECONDS,
                reset=_keep_session,
                server_settings=settings or None,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(
                f"cannot connect to PostgreSQL at {masked_url(self.url)}: {error}"
            ) from error

    async def open(self) -> None:
        if self._pool is not None:
            return
        pool = await self._create_pool(self._min)
        try:
            async with pool.acquire() as conn:
                found = await get_schema_version(conn)
                if found > PG_LATEST_VERSION:
                    raise SchemaTooNew(found, PG_LATEST_VERSION)
                await apply_pg_migrations(conn)
            # No idle connection until the first relaxed write asks for one.
            self._relaxed = await self._create_pool(0, synchronous_commit="off")
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        pools, self._pool, self._relaxed = (self._pool, self._relaxed), None, None
        for pool in pools:
            if pool is not None:
                await pool.close()

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    def _connection_pool(self, durable: bool = True) -> Any:
        if self._pool is None:
            raise StorageError("the store is not open")
        return self._pool if durable else self._relaxed

    # --- the driver --------------------------------------------------------------------------

    def _time(self, moment: datetime) -> datetime:
        if moment.tzinfo is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return moment.astimezone(UTC)

    def _moment(self, value: Any) -> datetime:
        return cast(datetime, value)

    async def _transact(self, tx: Tx[T], *, write: bool, durable: bool, isolated: bool) -> T:
        try:
            async with self._connection_pool(durable).acquire() as conn:
                if write and isolated:
                    return await _in_transaction(conn, tx)
                return await _drive(conn, tx)
        except DatabaseUnavailable:
            raise
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            outage = postgres_outage(error)
            if outage is None:
                raise
            # A statement of its own is its own commit: lost on its way, it may have counted.
            lost = isinstance(error, asyncpg.ConnectionDoesNotExistError)
            raise DatabaseUnavailable(outage, maybe_done=write and not isolated and lost) from error

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[Any]:
        """A connection outside any transaction (for tools and tests)."""
        async with self._connection_pool().acquire() as conn:
            yield conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Any]:
        """One transaction on a connection of its own (for tools and tests)."""
        async with self._connection_pool().acquire() as conn, conn.transaction():
            yield conn

    async def schema_version(self) -> int:
        async with self._autocommit() as conn:
            return await get_schema_version(conn)
