"""A database as the bot left it before migration 9: games rated by Plackett-Luce, schema 8.

The old rule is written out here (sides ranked by place through openskill's Plackett-Luce, as
``rate_game`` did), not borrowed from the code under test, so the seeding means the same on the
old code and the new.
Migration 9 adds no schema, only the replay, so a database stepped back to version 8 after
recording, with the schema of the later migrations undone, is a version-8 database: opening it
runs migration 9 (and the later ones) as an upgrade would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from openskill.models import PlackettLuce

from bot.features.stats.service import display_rating
from bot.storage import SqliteStore, Store
from bot.storage.base import GameRecord, RatingKey, SkillRating

BEFORE_REPLAY = 8
#: Undoes the schema of every migration after 9 (newest first), the same on both stores.
UNDO_AFTER_REPLAY = (
    "DROP TABLE seasons",
    "DROP INDEX games_guild_ended",
    "ALTER TABLE tables DROP COLUMN thread_id",
    "DROP TABLE table_defaults",
    "ALTER TABLE player_prefs DROP COLUMN dm_channel_id",
)


OLD_MODEL = PlackettLuce()


def old_rule(
    game: GameRecord, current: Mapping[RatingKey, SkillRating | None]
) -> dict[RatingKey, SkillRating]:
    """What the bot stored before migration 9: one Plackett-Luce update per (scope, family)."""
    users: dict[int, list[int]] = defaultdict(list)
    places = {}
    for player in game.players:
        if player.user_id is not None:
            users[player.side].append(player.user_id)
            places[player.side] = float(player.place)
    sides = sorted(users)
    updated = {}
    for scope, family in dict.fromkeys(key[:2] for key in current):
        teams = []
        for side in sides:
            olds = [current.get((scope, family, user)) for user in users[side]]
            teams.append([OLD_MODEL.rating(*((o.mu, o.sigma) if o else ())) for o in olds])
        rated = OLD_MODEL.rate(teams, ranks=[places[side] for side in sides])
        for side, team in zip(sides, rated, strict=True):
            for user, new in zip(users[side], team, strict=True):
                updated[(scope, family, user)] = SkillRating(
                    new.mu, new.sigma, display_rating(new.mu, new.sigma)
                )
    return updated


async def record_with_old_rule(store: Store, games: Iterable[GameRecord]) -> None:
    for game in games:

        def rater(
            current: Mapping[RatingKey, SkillRating | None], game: GameRecord = game
        ) -> dict[RatingKey, SkillRating]:
            return old_rule(game, current)

        await store.record_game(game, rater if game.rated else None)


async def step_back_before_replay(store: Store) -> None:
    """Mark the (open) store's database as schema 8, so its next opening runs migration 9."""
    async with store._write() as conn:  # type: ignore[attr-defined]
        for statement in UNDO_AFTER_REPLAY:
            await conn.execute(statement)
        if isinstance(store, SqliteStore):
            await conn.execute(f"PRAGMA user_version = {BEFORE_REPLAY}")
        else:
            await conn.execute("UPDATE schema_version SET version = $1", BEFORE_REPLAY)
