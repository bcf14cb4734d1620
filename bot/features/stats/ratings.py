"""The rating rule: how a recorded game changes its players' ratings.

It is the statistics feature's, beside its service, and the season boards use it too: the live
recorder (:class:`bot.features.stats.service.StatsService`, inside the store's write
transaction) and the season boards (:mod:`bot.features.seasons.service`, which replay a range of
games) need the very same rule.
Schema migration 9 replayed the stored games with this rule as it stood then, from its own
frozen copy (:mod:`bot.storage.migrations.m09_ratings`): a change here changes new games only.
Why Bradley-Terry-Full and this display: the docstring of :mod:`bot.features.stats.service`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import BradleyTerryFull

from bot.storage.base import GameRecord, RatingKey, SkillRating
from bot.storage.queries import stats_keys

RATING_BASE = 1000.0
RATING_SCALE = 40.0


class RatingModel(Protocol):
    """What :func:`rate_game` needs of an openskill model (any of ``openskill.models.MODELS``)."""

    mu: float
    sigma: float

    def rating(self, mu: float | None = None, sigma: float | None = None) -> Any: ...

    def rate(self, teams: Any, ranks: list[float] | None = None) -> Any: ...


#: The rating rule (see the module docstring): the live recorder and the season boards use it.
RATING_MODEL: RatingModel = BradleyTerryFull()
#: What a newcomer's rating displays as (1000): the "before" of a first rated game.
NEWCOMER_RATING = RATING_BASE + RATING_SCALE * (RATING_MODEL.mu - 3.0 * RATING_MODEL.sigma)


def display_rating(mu: float, sigma: float) -> float:
    """The number players see and the leaderboard sorts on (see the module docstring)."""
    return RATING_BASE + RATING_SCALE * (mu - 3.0 * sigma)


def rate_game(
    record: GameRecord,
    current: Mapping[RatingKey, SkillRating | None],
    model: RatingModel = RATING_MODEL,
) -> dict[RatingKey, SkillRating]:
    """New ratings of every key in *current*: one update of *model* per (scope, family).

    Teams are the sides of the game (2v2: seats 0+2 against 1+3), ranked by ``place``; both
    partners of a team are updated from the team's result. *model* is a parameter only so the
    benchmark and the tests can compare openskill's models through this very function.
    """
    place_of_side = {p.side: p.place for p in record.players}
    users_by_side: dict[int, list[int]] = defaultdict(list)
    for player in record.players:
        if player.user_id is not None:
            users_by_side[player.side].append(player.user_id)
    updated: dict[RatingKey, SkillRating] = {}
    for scope, family in dict.fromkeys((key[0], key[1]) for key in current):
        sides = sorted(users_by_side)
        teams = [
            [
                _model_rating(model, current.get((scope, family, user)))
                for user in users_by_side[side]
            ]
            for side in sides
        ]
        ranks = [float(place_of_side[side]) for side in sides]
        new_teams = model.rate(teams, ranks=ranks)
        for side, new_team in zip(sides, new_teams, strict=True):
            for user, new in zip(users_by_side[side], new_team, strict=True):
                updated[(scope, family, user)] = SkillRating(
                    new.mu, new.sigma, display_rating(new.mu, new.sigma)
                )
    return updated


def _model_rating(model: RatingModel, stored: SkillRating | None) -> Any:
    """openskill's rating object for a stored rating (the model's default for newcomers)."""
    if stored is None:
        return model.rating()
    return model.rating(mu=stored.mu, sigma=stored.sigma)


@dataclass(frozen=True)
class RatingReplay:
    """Every rating rebuilt from the rated games: what ``player_stats`` and ``rating_history``
    must hold. ``ratings`` maps each key to its last rating and its number of rated games;
    ``history`` is one ``(key, game id, display before or None, display after)`` per update."""

    ratings: dict[RatingKey, tuple[SkillRating, int]]
    history: list[tuple[RatingKey, int, float | None, float]]


def replay_ratings(games: Iterable[GameRecord]) -> RatingReplay:
    """Rate *games* (rated ones, with their ``id``, oldest first) from scratch through
    :func:`rate_game`, exactly as the recorder did game after game.

    Why a replay: a rating is the whole history folded through the rule, so when the rule
    changes the stored numbers can only be corrected by folding the stored games again.
    """
    ratings: dict[RatingKey, tuple[SkillRating, int]] = {}
    history: list[tuple[RatingKey, int, float | None, float]] = []
    for game in games:
        if game.id is None:
            raise ValueError(f"game of table {game.table_id} has no id to replay under")
        keys = [key for key, _ in stats_keys(game)]
        current = {key: ratings[key][0] if key in ratings else None for key in keys}
        for key, new in rate_game(game, current).items():
            before = current[key]
            ratings[key] = (new, (ratings[key][1] if key in ratings else 0) + 1)
            history.append((key, game.id, None if before is None else before.rating, new.rating))
    return RatingReplay(ratings, history)
