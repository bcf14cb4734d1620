"""Whole-table row access for copying a database between stores (``rummy-bot copy-db``).

Why not the store's methods (:class:`~bot.storage.store.SqlStore`): those serve the bot (one table, one
player) and have no "every row of every table" read, which only a copy needs. Both sides are
read from the schema itself (tables in creation order, so a parent comes before the rows that
reference it; columns by name), so a new migration needs nothing here. Values are converted
at insertion to the target's types: SQLite keeps flags as 0/1 and times as ISO-8601 text,
PostgreSQL as BOOLEAN and TIMESTAMPTZ.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.storage.base import is_postgres_url

if TYPE_CHECKING:
    import asyncpg

Row = tuple[Any, ...]
#: Rows moved per round trip.
BATCH = 500
#: Bookkeeping tables that are not copied (each store keeps its own schema version).
SKIPPED = frozenset({"schema_version", "sqlite_sequence"})



class TableRows(Protocol):
    """Every row of every table of one database, inside one transaction."""

    async def tables(self) -> list[str]:
        """Data tables, parents before children."""
        ...

    async def columns(self, table: str) -> list[str]:
        ...

    async def count(self, table: str) -> int:
        ...

    def read(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        """The rows in batches, in primary-key order."""
        ...

    async def insert(self, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
        ...

    async def finish(self) -> None:
        """After inserting rows with explicit ids: make new ids continue after them."""
        ...


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value


class SqliteRows:
    """Row access to a SQLite file (a blocking connection: copy-db is a one-off command)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def tables(self) -> list[str]:
        rows = self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
        ).fetchall()
        return [name for (name,) in rows if name not in SKIPPED]

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in self._conn.execute(f'PRAGMA table_info("{table}")')]

    async def count(self, table: str) -> int:
        return int(self._conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])

    async def read(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = self._conn.execute(f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY 1')
        while batch := cursor.fetchmany(BATCH):
            yield [tuple(row) for row in batch]

    async def insert(self, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
        marks = ", ".join("?" for _ in columns)
        self._conn.executemany(
            f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})',
            [tuple(_sqlite_value(v) for v in row) for row in rows],
        )

    async def finish(self) -> None:
        """AUTOINCREMENT already remembers the largest id inserted."""


class PostgresRows:
    """Row access to a PostgreSQL database (the schema of the URL's ``search_path``)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self._types: dict[tuple[str, str], str] = {}

    async def tables(self) -> list[str]:
        rows = await self._conn.fetch(
            "SELECT relname FROM pg_class WHERE relkind = 'r' "
            "AND relnamespace = current_schema()::regnamespace ORDER BY oid"
        )
        return [r[0] for r in rows if r[0] not in SKIPPED]

    async def columns(self, table: str) -> list[str]:
        rows = await self._conn.fetch(
            "SELECT column_name, udt_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        self._types.update({(table, r[0]): r[1] for r in rows})
        return [r[0] for r in rows]

    async def count(self, table: str) -> int:
        return int(await self._conn.fetchval(f'SELECT COUNT(*) FROM "{table}"'))

    async def read(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = self._conn.cursor(f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY 1')
        batch: list[Row] = []
        async for record in cursor:
            batch.append(tuple(record))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    def _convert(self, table: str, column: str, value: Any) -> Any:
        kind = self._types.get((table, column))
        if value is None:
            return None
        if kind == "bool":
            return bool(value)
        if kind == "timestamptz" and isinstance(value, str):
            return datetime.fromisoformat(value)
        return value

    async def insert(self, table: str, columns: Sequence[str], rows: Sequence[Row]) -> None:
        if (table, columns[0]) not in self._types:
            await self.columns(table)
        await self._conn.copy_records_to_table(
            table,
            columns=list(columns),
            records=[
                tuple(self._convert(table, c, v) for c, v in zip(columns, row, strict=True))
                for row in rows
            ],
            schema_name=await self._conn.fetchval("SELECT current_schema()"),
        )

    async def finish(self) -> None:
        identities = await self._conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )
        for table, column in identities:
            await self._conn.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'), max_id) "
                f'FROM (SELECT MAX({column}) AS max_id FROM "{table}") AS m '
                "WHERE max_id IS NOT NULL"
            )


@asynccontextmanager
async def open_rows(target: str | Path) -> AsyncIterator[TableRows]:
    """Row access to *target* in one transaction, committed when the block ends normally."""
    if isinstance(target, str) and is_postgres_url(target):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            async with conn.transaction():
                yield PostgresRows(conn)
        finally:
            await conn.close()
        return
    lite = sqlite3.connect(target, isolation_level=None)
    try:
        lite.execute("PRAGMA foreign_keys = ON")
        lite.execute("BEGIN IMMEDIATE")
        try:
            yield SqliteRows(lite)
        except BaseException:
            lite.execute("ROLLBACK")
            raise
        lite.execute("COMMIT")
    finally:
        lite.close()
