"""Schema migration 9 on both stores: every stored rating rebuilt from the stored games.

Why a Python step inside a schema migration: ratings are the rated games folded, in order,
through openskill (:func:`bot.storage.ratings.rate_game`), which no SQL can express; when that
rule changed (Plackett-Luce to Bradley-Terry-Full, so that a shared place never ranks anyone
above a player who beat them) the stored numbers could only be corrected by replaying the games.
The replay itself is :func:`bot.storage.ratings.replay_ratings`, the same rule the live recorder
uses, so a migrated database holds exactly what recording its games today would give. This
module holds what both stores share: the reads, the rewrite and the records in between; each
store's migration list runs them on its own connection inside the migration's transaction.

Only ratings change: ``mu``, ``sigma``, ``rating`` and ``rated_games`` of ``player_stats`` and
the whole ``rating_history``. Counters (games, wins, streaks…) do not depend on the rule.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bot.storage.base import GamePlayerRecord, GameRecord
from bot.storage.queries import (
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    game_from_row,
    player_from_row,
    qualified,
)
from bot.storage.ratings import replay_ratings

#: ``WHERE rated`` reads an INTEGER 0/1 in SQLite and a BOOLEAN in PostgreSQL alike.
RATED_GAMES_SQL = f"SELECT id, {GAME_COLUMNS} FROM games WHERE rated ORDER BY id"
RATED_PLAYERS_SQL = (
    f"SELECT p.game_id, {qualified(PLAYER_COLUMNS, 'p')} FROM game_players AS p "
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


def rated_games(
    game_rows: Sequence[Sequence[Any]],
    player_rows: Sequence[Sequence[Any]],
    moment: Callable[[Any], datetime],
) -> list[GameRecord]:
    """The rated games of ``RATED_GAMES_SQL`` with their players of ``RATED_PLAYERS_SQL``;
    *moment* reads the store's time column. Rounds are left out: no rating depends on them."""
    players: dict[int, list[GamePlayerRecord]] = defaultdict(list)
    for row in player_rows:
        players[int(row[0])].append(player_from_row(row[1:]))
    return [game_from_row(row, moment, tuple(players[int(row[0])])) for row in game_rows]


def replayed_rows(
    games: Sequence[GameRecord],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Parameters of ``SET_RATING_SQL`` and ``ADD_HISTORY_SQL`` that rebuild every rating."""
    replay = replay_ratings(games)
    ratings = [
        (new.mu, new.sigma, new.rating, count, *key) for key, (new, count) in replay.ratings.items()
    ]
    history = [(*key, game_id, before, after) for key, game_id, before, after in replay.history]
    return ratings, history
