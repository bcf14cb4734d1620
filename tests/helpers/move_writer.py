"""Commit moves in a loop through the real store and acknowledge each one on stdout.

Used by ``tests/storage/test_durability.py``: the test kills this process with SIGKILL at a
random moment and then checks that every move acknowledged here is in the
database. A line ``<seq>`` is printed (and flushed) only after ``commit_move``
returned, which is exactly when the bot would send its reply to a player.

Run: ``python -m tests.helpers.move_writer DB_PATH_OR_URL [--max-moves N]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.storage import NewTable, is_postgres_url, make_store

TABLE_GUILD = 1
TABLE_CHANNEL = 2
TABLE_HOST = 3


def action_for(seq: int) -> str:
    """The action JSON of move *seq*; the test recomputes it to check contents."""
    return json.dumps({"type": "draw", "n": seq}, sort_keys=True)


def events_for(seq: int) -> str:
    """The events JSON of move *seq*."""
    return json.dumps([{"event": "drew", "seq": seq}], sort_keys=True)


def snapshot_for(seq: int) -> str:
    """The snapshot JSON after move *seq*; padded so each commit writes a few pages."""
    return json.dumps({"seq": seq, "padding": "x" * 3000}, sort_keys=True)


def database_target(value: str) -> str | Path:
    """A ``postgresql://`` URL as it is, anything else as a file path."""
    return value if is_postgres_url(value) else Path(value)


async def write_moves(target: str | Path, max_moves: int | None) -> None:
    async with make_store(target) as store:
        tables = await store.list_active_tables()
        if tables:
            table = tables[0]
        else:
            table = await store.create_table(
                NewTable(
                    guild_id=TABLE_GUILD,
                    channel_id=TABLE_CHANNEL,
                    host_id=TABLE_HOST,
                    variant="durability",
                    mode="solo",
                    status="active",
                )
            )
        version = table.version
        written = 0
        while max_moves is None or written < max_moves:
            seq = version + 1
            version = await store.commit_move(
                table.id,
                version,
                actor_id=TABLE_HOST,
                action_json=action_for(seq),
                events_json=events_for(seq),
                snapshot_json=snapshot_for(seq),
            )
            print(version, flush=True)
            written += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database", type=database_target)
    parser.add_argument("--max-moves", type=int, default=None)
    args = parser.parse_args()
    asyncio.run(write_moves(args.database, args.max_moves))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
