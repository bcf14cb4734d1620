"""Copy a whole database into another, empty one (SQLite to PostgreSQL and back), then prove it.

Why the proof: a move to another database is done once, by hand, usually right before the
bot restarts on it. So the copy is checked twice before anyone switches: the row count of every
table on both sides, and every open game replayed through the rules engine on the copy, from
its first move, to exactly its stored position. The target must be empty: copying into a
database that already holds games would mix two histories.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import describe_target, is_postgres_url, make_store
from bot.storage.rows import open_rows
from rummy_engine import Game, RuleViolation, replay


class CopyRefused(Exception):
    """Nothing was copied; ``key`` and ``params`` are the sentence saying why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class TableCount:
    """Rows of one table in the source and in the copy."""

    table: str
    source: int
    target: int


@dataclass
class CopyResult:
    """What the checks found; ``ok`` only if every count and every replay agrees."""

    counts: list[TableCount] = field(default_factory=list)
    replayed: int = 0
    #: (table id, the error) of open games whose replay on the copy fails, or (table id, None)
    #: when it ends on another position than their snapshot.
    bad_replays: list[tuple[int, str | None]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.bad_replays and all(c.source == c.target for c in self.counts)


def _exists(target: str | Path) -> bool:
    return (isinstance(target, str) and is_postgres_url(target)) or Path(target).exists()


async def copy_database(source: str | Path, target: str | Path) -> CopyResult:
    """Copy every row of *source* into the empty *target*, then count and replay."""
    if str(source) == str(target):
        raise CopyRefused("cli.copy.same")
    if not _exists(source):
        raise CopyRefused("cli.copy.source_missing", path=describe_target(source))
    # Opening a store brings it to the newest schema, so both sides have the same tables.
    for database in (source, target):
        async with make_store(database):
            pass
    await copy_rows(source, target)
    result = CopyResult()
    async with open_rows(source) as src, open_rows(target) as dst:
        for table in await dst.tables():
            result.counts.append(TableCount(table, await src.count(table), await dst.count(table)))
    await _replay_open_games(target, result)
    return result


async def copy_rows(source: str | Path, target: str | Path) -> None:
    """Copy every row of *source* into *target*, two databases of the same schema version
    (whichever it is: nothing here opens a store, so nothing migrates), *target* empty.

    Apart from :func:`copy_database` so that a database kept from a past release
    (``tests/storage/releases``) reaches PostgreSQL at its own schema, to be upgraded there by
    PostgreSQL's own migrations.
    """
    async with open_rows(source) as src, open_rows(target) as dst:
        tables = await dst.tables()
        if sorted(tables) != sorted(await src.tables()):
            raise CopyRefused("cli.copy.schema_differs")
        for table in tables:
            found = await dst.count(table)
            if found:
                raise CopyRefused(
                    "cli.copy.not_empty", target=describe_target(target), table=table, count=found
                )
        for table in tables:
            columns = await dst.columns(table)
            async for batch in src.read(table, columns):
                await dst.insert(table, columns, batch)
        await dst.finish()


async def _replay_open_games(target: str | Path, result: CopyResult) -> None:
    """Rebuild every open game of the copy from its move log and compare with its snapshot."""
    async with make_store(target) as store:
        for table in await store.list_active_tables():
            if table.snapshot_json is None:
                continue  # a lobby: no game yet
            moves = await store.list_moves(table.id)
            try:
                genesis = json.loads(moves[0].action_json)["genesis"]
                game = replay(genesis, [json.loads(m.action_json) for m in moves[1:]])
            except (IndexError, KeyError, ValueError, RuleViolation) as error:
                result.bad_replays.append((table.id, repr(error)))
                continue
            stored = Game.from_json(json.loads(table.snapshot_json))
            if game.to_json() != stored.to_json():
                result.bad_replays.append((table.id, None))
                continue
            result.replayed += 1
