"""An operator may upgrade from any past release: a database of every past schema version, full
of content, migrates to the very database today's bot would have written, on both stores.

How: :mod:`tests.helpers.upgrade_content` declares the content once, as rows of today's schema.
For each past version *v* a database is built with migrations 1..v only, and given the rows of
that content as a bot of version *v* stored them: the tables and columns that existed then (read
from the database at *v*), and Plackett-Luce ratings before migration 9. Opening it with today's
store migrates it. The expectation is a fresh database of today's schema given the same columns
(what later migrations add takes the default they give old rows), plus what later migrations
derive from the old rows: today's ratings (migration 9's replay), the seasons of the rated games
(migration 13's backfill). The two must report the same schema, the same rows, and answer the
store's reads alike.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.storage import LATEST_VERSION, Store, is_postgres_url, make_store
from bot.storage.base import ALL_VARIANTS, GLOBAL_SCOPE, LEADERBOARD_SORTS
from bot.storage.migrations import apply_migrations
from bot.storage.migrations.postgres import apply_pg_migrations
from bot.storage.rows import open_rows
from tests.helpers.database_state import state_of
from tests.helpers.upgrade_content import GUILDS, USERS, Content, Rows, content

#: Migration 9 replaced every rating by the Bradley-Terry-Full replay; the databases before it
#: hold Plackett-Luce's (``Content.before_replay``).
REPLAYED_AT = 9
#: Tables a later migration fills from older rows, and the table they are derived from: seasons
#: (migration 13's backfill) from the rated games, which exist from migration 4 on.
DERIVED_FROM = {"seasons": "games"}
FAMILIES = ("basic", "r51", "r71", ALL_VARIANTS)


@pytest.fixture
async def expected_url(
    store_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str | Path]:
    """A second empty database on the same store as ``store_url``, for the expectation."""
    if store_kind == "sqlite":
        yield tmp_path / "expected.db"
        return
    dsn: str = request.getfixturevalue("postgres_dsn")
    schema = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield f"{dsn}{'&' if '?' in dsn else '?'}search_path={schema}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


async def build_at(target: str | Path, version: int) -> None:
    """A database of schema *version*: migrations 1..version and nothing later."""
    if isinstance(target, str) and is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            assert await apply_pg_migrations(conn, target=version) == (0, version)
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(target, isolation_level=None) as conn:
        assert await apply_migrations(conn, target=version) == (0, version)


async def columns_of(target: str | Path) -> dict[str, list[str]]:
    """Every data table of the database and its columns, as the database reports them."""
    async with open_rows(target) as db:
        return {table: await db.columns(table) for table in await db.tables()}


async def write(target: str | Path, rows: Rows) -> None:
    """Plain INSERTs of *rows* (each row's own columns), parents first; then sequences follow
    the ids, as they would after the bot inserted them."""
    async with open_rows(target) as db:
        for table in await db.tables():
            if rows.get(table):
                columns = list(rows[table][0])
                await db.insert(table, columns, [tuple(r[c] for c in columns) for r in rows[table]])
        await db.finish()


def projected(rows: Rows, columns: Mapping[str, Sequence[str]]) -> Rows:
    """*rows* cut to the tables and columns in *columns*."""
    return {
        table: [{c: row[c] for c in kept} for row in rows[table]]
        for table, kept in columns.items()
        if table in rows
    }


def as_stored_at(declared: Content, version: int, columns: Mapping[str, Sequence[str]]) -> Rows:
    """What a bot of schema *version* held: its columns, and its rating rule's numbers."""
    rows = dict(declared.rows)
    if version < REPLAYED_AT:
        rows.update(declared.before_replay)
    return projected(rows, columns)


def expected_after(declared: Content, columns: Mapping[str, Sequence[str]]) -> Rows:
    """What migrating that database must give: the same columns (later ones take their
    defaults), today's ratings, and the tables later migrations derive from the old rows."""
    rows = projected(declared.rows, columns)
    for table, source in DERIVED_FROM.items():
        if table not in columns and source in columns:
            rows[table] = declared.rows[table]
    return rows


async def reads(store: Store, table_ids: Sequence[int]) -> dict[str, Any]:
    """What the bot reads of statistics, ratings, seasons, games and open tables."""
    found: dict[str, Any] = {}
    for scope in (*GUILDS, GLOBAL_SCOPE):
        for user in USERS:
            found[f"stats {scope} {user}"] = await store.get_player_stats(scope, user)
            for family in FAMILIES:
                history = await store.rating_history(scope, family, user, 100)
                found[f"history {scope} {family} {user}"] = history
        for family in FAMILIES:
            for sort in LEADERBOARD_SORTS:
                page = await store.leaderboard_page(scope, family, sort, 0, 10)
                found[f"board {scope} {family} {sort}"] = page
    for guild in GUILDS:
        found[f"seasons {guild}"] = await store.season_rows(guild)
    found["pending season ends"] = await store.pending_season_ends()
    found["open tables"] = open_tables = await store.list_active_tables()
    for table in open_tables:
        found[f"table {table.id}"] = await store.load_table(table.id)
        found[f"moves {table.id}"] = await store.list_moves(table.id)
        found[f"deadlines {table.id}"] = await store.get_deadlines(table.id)
        found[f"messages {table.id}"] = await store.get_message_refs(table.id)
    for table_id in table_ids:
        found[f"game {table_id}"] = await store.get_game_record(table_id)
    found["prefs"] = await store.get_players_prefs(USERS)
    return found


@pytest.mark.parametrize("version", range(1, LATEST_VERSION), ids=lambda v: f"v{v}")
async def test_a_database_of_every_past_version_upgrades_to_todays(
    store_url: str | Path, expected_url: str | Path, version: int, tmp_path: Path
) -> None:
    declared = await content(tmp_path)
    table_ids = [row["id"] for row in declared.rows["tables"]]

    await build_at(store_url, version)
    columns = await columns_of(store_url)
    await write(store_url, as_stored_at(declared, version, columns))
    async with make_store(store_url) as migrated:  # opening runs migrations version+1..latest
        assert await migrated.schema_version() == LATEST_VERSION
        migrated_reads = await reads(migrated, table_ids)

    async with make_store(expected_url):
        pass
    await write(expected_url, expected_after(declared, columns))
    async with make_store(expected_url) as expected:
        expected_reads = await reads(expected, table_ids)

    found, wanted = await state_of(store_url), await state_of(expected_url)
    for facts in wanted.schema:
        assert found.schema[facts] == wanted.schema[facts], f"schema: {facts}"
    assert sorted(found.rows) == sorted(wanted.rows)
    for table in wanted.rows:
        assert found.rows[table] == wanted.rows[table], f"rows of {table}"
    for key, value in expected_reads.items():
        assert migrated_reads[key] == value, key
