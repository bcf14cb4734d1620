"""What a database reports about itself: its schema and every row, on either store.

Why from the database's own catalogue rather than from the migration lists: a migrated database
and a fresh one must be the same database, and only what each database reports (SQLite's
``sqlite_master`` and pragmas, PostgreSQL's ``information_schema`` and ``pg_catalog``) shows a
column type, a default, an index or a sequence as it really is. Rows are read with every column
in the ORDER BY, so two databases holding the same rows compare equal whatever their insertion
order.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import is_postgres_url

Facts = dict[str, list[tuple[Any, ...]]]


@dataclass(frozen=True)
class DatabaseState:
    """``schema``: named lists of catalogue facts; ``rows``: every table's rows (bookkeeping
    tables included: the schema version, SQLite's AUTOINCREMENT counters)."""

    schema: Facts
    rows: Facts


def _ordered(table: str, width: int) -> str:
    return f'SELECT * FROM "{table}" ORDER BY {", ".join(str(n) for n in range(1, width + 1))}'


def _sqlite_state(path: Path) -> DatabaseState:
    conn = sqlite3.connect(path)
    try:
        objects = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
        tables = [name for kind, name, _, _ in objects if kind == "table"]
        indexes = [name for kind, name, _, _ in objects if kind == "index"]
        schema: Facts = {
            "objects": objects,
            "columns": [
                (table, *row)
                for table in tables
                for row in conn.execute(f'PRAGMA table_xinfo("{table}")')
            ],
            "indexes": sorted(
                (table, *row[1:])
                for table in tables
                for row in conn.execute(f'PRAGMA index_list("{table}")')
            ),
            "index columns": [
                (index, *row)
                for index in indexes
                for row in conn.execute(f'PRAGMA index_xinfo("{index}")')
            ],
            "foreign keys": [
                (table, *row)
                for table in tables
                for row in conn.execute(f'PRAGMA foreign_key_list("{table}")')
            ],
            "version": conn.execute("PRAGMA user_version").fetchall(),
        }
        rows: Facts = {}
        for table in tables:
            width = len(conn.execute(f'PRAGMA table_info("{table}")').fetchall())
            rows[table] = conn.execute(_ordered(table, width)).fetchall()
        return DatabaseState(schema, rows)
    finally:
        conn.close()


#: Catalogue queries of the URL's schema (``current_schema()``: each test has its own).
_PG_SCHEMA = {
    "columns": (
        "SELECT table_name, ordinal_position, column_name, data_type, udt_name, is_nullable, "
        "column_default, is_identity, identity_generation FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ),
    "indexes": (
        "SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '') "
        "FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname"
    ),
    "constraints": (
        "SELECT c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid) "
        "FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid "
        "WHERE c.relnamespace = current_schema()::regnamespace ORDER BY c.relname, k.conname"
    ),
    "sequences": (
        "SELECT sequencename, data_type, start_value, increment_by, last_value FROM pg_sequences "
        "WHERE schemaname = current_schema() ORDER BY sequencename"
    ),
}


async def _postgres_state(url: str) -> DatabaseState:
    conn = await asyncpg.connect(url)
    try:
        schema: Facts = {
            name: [tuple(row) for row in await conn.fetch(sql)] for name, sql in _PG_SCHEMA.items()
        }
        tables = [
            row[0]
            for row in await conn.fetch(
                "SELECT relname FROM pg_class WHERE relkind = 'r' "
                "AND relnamespace = current_schema()::regnamespace ORDER BY relname"
            )
        ]
        rows: Facts = {}
        for table in tables:
            width = await conn.fetchval(
                "SELECT count(*) FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = $1",
                table,
            )
            rows[table] = [tuple(row) for row in await conn.fetch(_ordered(table, width))]
        return DatabaseState(schema, rows)
    finally:
        await conn.close()


async def state_of(target: str | Path) -> DatabaseState:
    """The schema and rows of a SQLite file or of a PostgreSQL URL's schema."""
    if isinstance(target, str) and is_postgres_url(target):
        return await _postgres_state(target)
    return _sqlite_state(Path(target))
