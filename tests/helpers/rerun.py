"""Run one past migration again on a database whose effects of it a test undid.

Why: a test of migration *n* seeds a database with today's code, undoes what *n* did and runs
*n* again. Marking the database as schema *n − 1* and reopening it would run every later
migration again too, so each test had to undo every later migration by hand (and grew with each
new one). This runs migrations up to *n* only, then marks the database at the newest version:
what the later migrations did was never undone.
"""

from __future__ import annotations

from pathlib import Path

import aiosqlite

from bot.storage import is_postgres_url
from bot.storage.migrations import LATEST_VERSION, apply_migrations
from bot.storage.migrations.postgres import PG_LATEST_VERSION, apply_pg_migrations


async def rerun_migration(target: str | Path, version: int) -> None:
    """Mark the (closed) database at ``version - 1``, apply migration ``version``, and mark it
    at the newest version again."""
    if isinstance(target, str) and is_postgres_url(target):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            await conn.execute("UPDATE schema_version SET version = $1", version - 1)
            await apply_pg_migrations(conn, target=version)
            await conn.execute("UPDATE schema_version SET version = $1", PG_LATEST_VERSION)
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(str(target), isolation_level=None) as lite:
        await lite.execute(f"PRAGMA user_version = {int(version) - 1}")
        await apply_migrations(lite, target=version)
        await lite.execute(f"PRAGMA user_version = {int(LATEST_VERSION)}")
