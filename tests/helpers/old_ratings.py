"""A database as the bot left it before migration 9: games rated by Plackett-Luce, schema 8.

The old rule is written out here (sides ranked by place through openskill's Plackett-Luce, as
``rate_game`` did), not borrowed from the code under test, so the seeding means the same on the
old code and the new.
Migration 9 adds no schema, only the replay, so running it again on such a database
(:func:`tests.helpers.rerun.rerun_migration`) replays the ratings as an upgrade would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from openskill.models import PlackettLuce

from bot.features.stats.service import display_rating
from bot.storage import Store
from bot.storage.base import GameRecord, RatingKey, SkillRating

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
