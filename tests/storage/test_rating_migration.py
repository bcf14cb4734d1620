"""Migration 9 on both stores (a real SQLite file, a real PostgreSQL database): the ratings
stored under Plackett-Luce are rebuilt from the stored games, and equal what recording the
same games today gives."""

from __future__ import annotations

from pathlib import Path

from bot.features.stats.service import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    FinishedGame,
    StatsService,
    build_record,
)
from bot.storage import Store, make_store
from bot.storage.base import PlayerStats, RatingChange
from rummy_engine import Variant
from tests.helpers.old_ratings import record_with_old_rule
from tests.helpers.rerun import rerun_migration
from tests.services.test_stats import GUILD_A, GUILD_B, finished

USERS = (1, 2, 3, 4, 5)


def history_games() -> list[FinishedGame]:
    """A small history: shared places in Basic, a 1v1, a 2v2, a computer game, two servers."""
    games = [
        # Four newcomers finish 1, 1, 3, 4: the game of the issue.
        finished([1, 2, 3, 4], variant=Variant.BASIC, winners=(0, 1), scores=[50, 50, 20, 10]),
        finished([3, 1], winners=(0,)),
        finished([1, 2, 3, 4], winners=(1,), scores=[300, 120]),
        finished([2, None]),
        finished(
            [2, 3, 5], variant=Variant.BASIC, winners=(0,), scores=[40, 10, 10], guild_id=GUILD_B
        ),
        finished([5, 1, 3, 4], variant=Variant.BASIC, winners=(0,), scores=[60, 30, 30, 0]),
    ]
    return games


Snapshot = dict[tuple[int, int], tuple[list[PlayerStats], dict[str, list[RatingChange]]]]


async def snapshot(store: Store) -> Snapshot:
    """Every statistics row and rating change of every user, in both scopes."""
    found: Snapshot = {}
    for scope in (GUILD_A, GUILD_B, GLOBAL_SCOPE):
        for user in USERS:
            rows = await store.get_player_stats(scope, user)
            history = {
                row.family: await store.rating_history(scope, row.family, user, 100) for row in rows
            }
            found[(scope, user)] = (rows, history)
    return found


async def after_game(store: Store, scope: int, family: str, user: int, game_id: int) -> float:
    changes = await store.rating_history(scope, family, user, 100)
    return next(change.after for change in changes if change.game_id == game_id)


async def test_migration_9_rebuilds_the_ratings_from_the_stored_games(
    store_url: str | Path, tmp_path: Path
) -> None:
    games = history_games()
    async with make_store(store_url) as old:
        await record_with_old_rule(old, [build_record(game) for game in games])
        seeded = await snapshot(old)
    await rerun_migration(store_url, 9)

    async with make_store(store_url) as migrated:
        replayed = await snapshot(migrated)
        first = await migrated.get_game_record(games[0].table_id)
        assert first is not None and first.id is not None
        for scope in (GUILD_A, GLOBAL_SCOPE):
            for family in ("basic", ALL_VARIANTS):
                ann, ben, cleo, dan = [
                    await after_game(migrated, scope, family, user, first.id)
                    for user in (1, 2, 3, 4)
                ]
                assert ann == ben > cleo > dan, (scope, family, ann, ben, cleo, dan)

    async with make_store(tmp_path / "today.db") as today:
        for game in games:  # the same games, recorded by the live path
            await StatsService(today).record(game)
        expected = await snapshot(today)

    assert replayed == expected
    # Only ratings changed: every counter is as it was.
    for key, (rows, _) in replayed.items():
        before = seeded[key][0]
        assert [(r.family, r.games, r.wins, r.rated_games, r.streak) for r in rows] == [
            (r.family, r.games, r.wins, r.rated_games, r.streak) for r in before
        ]
