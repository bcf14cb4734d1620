"""Schema migration 9 on both stores: every stored rating rebuilt from the stored games with
Bradley-Terry-Full.

Why a Python step inside a schema migration: ratings are the rated games folded, in order,
through openskill, which no SQL can express; when the rule changed (Plackett-Luce to
Bradley-Terry-Full, so that a shared place never ranks anyone above a player who beat them) the
stored numbers could only be corrected by replaying the games.

Why everything is copied here, frozen: this step runs on a database at schema 8, before any
later migration, and it must do exactly what it did when it was released. So it reads only the
columns schema 8 has (by name, here), and rates with the rule as it stood then, written out: the
keys a game rates (its server and the global scope, its variant and ``all``, each person who is
not a computer), the sides ranked by place, openskill's Bradley-Terry-Full with the parameters
openskill 6.2 defaults to, and the display ``1000 + 40 × (mu − 3·sigma)``. It imports nothing of
the bot: today's column lists, records and rating rule (``bot.storage.queries``,
``bot.storage.base``, ``bot.features.stats.ratings``) may change without changing history. On the day
it was written the live recorder applied the same rule, so a replayed database holds what
recording its games then gave (``tests/storage/test_rating_migration.py``).

Only ratings change: ``mu``, ``sigma``, ``rating`` and ``rated_games`` of ``player_stats`` and
the whole ``rating_history``. Counters (games, wins, streaks…) do not depend on the rule.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
from openskill.models import BradleyTerryFull

from bot.storage.migrations.base import numbered

#: The rule of schema 9 (openskill 6.2's defaults, written out so a new default changes nothing).
MODEL = BradleyTerryFull(
    mu=25.0,
    sigma=25.0 / 3.0,
    beta=25.0 / 6.0,
    kappa=0.0001,
    tau=25.0 / 300.0,
    margin=0.0,
    limit_sigma=False,
    balance=False,
)
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0
#: ``player_stats.scope`` of the global rows and ``family`` of the rows of every variant.
GLOBAL_SCOPE = 0
ALL_VARIANTS = "all"

#: ``WHERE rated`` reads an INTEGER 0/1 in SQLite and a BOOLEAN in PostgreSQL alike.
GAMES_SQL = "SELECT id, guild_id, variant FROM games WHERE rated ORDER BY id"
PLAYERS_SQL = (
    "SELECT p.game_id, p.user_id, p.is_computer, p.side, p.place FROM game_players AS p "
    "JOIN games AS g ON g.id = p.game_id WHERE g.rated ORDER BY p.game_id, p.seat"
)
#: Forget every rating (rows keep their counters; never-rated rows stay as they were).
RESET_SQL = (
    "UPDATE player_stats SET mu = NULL, sigma = NULL, rating = NULL, rated_games = 0",
    "DELETE FROM rating_history",
)
SET_RATING_SQL = (
    "UPDATE player_stats SET mu = ?, sigma = ?, rating = ?, rated_games = ? "
    "WHERE scope = ? AND family = ? AND user_id = ?"
)
ADD_HISTORY_SQL = (
    "INSERT INTO rating_history (scope, family, user_id, game_id, before, after) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)

#: (scope, family, user id)
Key = tuple[int, str, int]


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating as schema 9 stores it: the model's numbers and the display sorted on."""

    mu: float
    sigma: float
    display: float


@dataclass(frozen=True, slots=True)
class Seat:
    """What the rule reads of a seat of a recorded game."""

    user_id: int | None
    is_computer: bool
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class Game:
    """What the rule reads of a rated game: where it counts, and its seats in seat order."""

    id: int
    guild_id: int
    variant: str
    seats: tuple[Seat, ...]


def rated_games(
    game_rows: Sequence[Sequence[Any]], player_rows: Sequence[Sequence[Any]]
) -> list[Game]:
    """The games of ``GAMES_SQL`` with their seats of ``PLAYERS_SQL`` (flags are 0/1 in SQLite,
    booleans in PostgreSQL)."""
    seats: dict[int, list[Seat]] = defaultdict(list)
    for game_id, user_id, is_computer, side, place in player_rows:
        seats[int(game_id)].append(Seat(user_id, bool(is_computer), side, place))
    return [
        Game(int(game_id), guild_id, variant, tuple(seats[int(game_id)]))
        for game_id, guild_id, variant in game_rows
    ]


def _keys(game: Game) -> list[Key]:
    """Every (scope, family, user) a game rates: server and global, variant and all."""
    scopes = dict.fromkeys((game.guild_id, GLOBAL_SCOPE))
    families = dict.fromkeys((game.variant, ALL_VARIANTS))
    return [
        (scope, family, seat.user_id)
        for seat in game.seats
        if seat.user_id is not None and not seat.is_computer
        for scope in scopes
        for family in families
    ]


def _rate(game: Game, current: dict[Key, Rating | None]) -> dict[Key, Rating]:
    """New ratings of every key in *current*: one update of :data:`MODEL` per (scope, family),
    the sides ranked by place, both partners of a side updated from its result."""
    place_of_side = {seat.side: seat.place for seat in game.seats}
    users_by_side: dict[int, list[int]] = defaultdict(list)
    for seat in game.seats:
        if seat.user_id is not None:
            users_by_side[seat.side].append(seat.user_id)
    updated: dict[Key, Rating] = {}
    for scope, family in dict.fromkeys((key[0], key[1]) for key in current):
        sides = sorted(users_by_side)
        teams = [
            [_model_rating(current.get((scope, family, user))) for user in users_by_side[side]]
            for side in sides
        ]
        new_teams = MODEL.rate(teams, ranks=[float(place_of_side[side]) for side in sides])
        for side, new_team in zip(sides, new_teams, strict=True):
            for user, new in zip(users_by_side[side], new_team, strict=True):
                display = DISPLAY_BASE + DISPLAY_SCALE * (new.mu - 3.0 * new.sigma)
                updated[(scope, family, user)] = Rating(new.mu, new.sigma, display)
    return updated


def _model_rating(stored: Rating | None) -> Any:
    """openskill's rating object for a stored rating (the model's default for newcomers)."""
    if stored is None:
        return MODEL.rating()
    return MODEL.rating(mu=stored.mu, sigma=stored.sigma)


def replayed_rows(games: Sequence[Game]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Parameters of ``SET_RATING_SQL`` and ``ADD_HISTORY_SQL`` that rebuild every rating: the
    rated games (oldest first) rated from scratch, game after game, as the recorder did."""
    ratings: dict[Key, tuple[Rating, int]] = {}
    history: list[tuple[Any, ...]] = []
    for game in games:
        current = {key: ratings[key][0] if key in ratings else None for key in _keys(game)}
        for key, new in _rate(game, current).items():
            before = current[key]
            ratings[key] = (new, (ratings[key][1] if key in ratings else 0) + 1)
            history.append(
                (*key, game.id, None if before is None else before.display, new.display)
            )
    return [
        (new.mu, new.sigma, new.display, count, *key) for key, (new, count) in ratings.items()
    ], history


async def sqlite_step(conn: aiosqlite.Connection) -> None:
    """Migration 9 on SQLite, inside the migration's transaction."""
    games = rated_games(
        list(await conn.execute_fetchall(GAMES_SQL)), list(await conn.execute_fetchall(PLAYERS_SQL))
    )
    ratings, history = replayed_rows(games)
    for statement in RESET_SQL:
        await conn.execute(statement)
    await conn.executemany(SET_RATING_SQL, ratings)
    await conn.executemany(ADD_HISTORY_SQL, history)


async def postgres_step(conn: Any) -> None:
    """Migration 9 on PostgreSQL (an asyncpg connection), inside the migration's transaction."""
    games = rated_games(await conn.fetch(GAMES_SQL), await conn.fetch(PLAYERS_SQL))
    ratings, history = replayed_rows(games)
    for statement in RESET_SQL:
        await conn.execute(statement)
    await conn.executemany(numbered(SET_RATING_SQL), ratings)
    await conn.executemany(numbered(ADD_HISTORY_SQL), history)
