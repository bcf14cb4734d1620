"""What the statistics feature stores: recorded games, the counters and ratings of
``player_stats``, the rating history; what the statistics service is typed with.

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.storage.base import (
    GameRecord,
    LeaderboardSort,
    MoveLog,
    PlayerStats,
    Rater,
    RatingChange,
)


class StatsStore(MoveLog, Protocol):
    """Recording a finished game (from its move log) and the leaderboard and player answers."""

    async def record_game(self, game: GameRecord, rater: Rater | None = None) -> int | None:
        """Store a finished game, its players and rounds, and update ``player_stats``.

        Idempotent per ``game.table_id``: a second call for the same table writes nothing
        and returns ``None``; otherwise returns the new game id. Counters are updated for
        every human player under the game's guild and under :data:`GLOBAL_SCOPE`, for the
        game's variant and for :data:`ALL_VARIANTS`. *rater* (``None`` = unrated game) is
        called inside the same write transaction with the current ratings of every
        affected key, so no concurrent game can overwrite a rating update.
        """
        ...

    async def get_game_record(self, table_id: int) -> GameRecord | None:
        """The recorded game of a table, with players and rounds, or ``None``."""
        ...

    async def leaderboard_page(
        self, scope: int, family: str, sort: LeaderboardSort, offset: int, limit: int
    ) -> list[PlayerStats]:
        """Rows of one leaderboard in display order (sort key, then ``user_id``)."""
        ...

    async def leaderboard_size(self, scope: int, family: str) -> int:
        """How many players one leaderboard has."""
        ...

    async def leaderboard_position(
        self, scope: int, family: str, sort: LeaderboardSort, user_id: int
    ) -> tuple[int, PlayerStats] | None:
        """The 1-based rank of *user_id* in that order with their row, or ``None``."""
        ...

    async def get_player_stats(self, scope: int, user_id: int) -> list[PlayerStats]:
        """All of a player's rows in one scope (one per family), ordered by family."""
        ...

    async def rating_history(
        self, scope: int, family: str, user_id: int, limit: int
    ) -> list[RatingChange]:
        """The player's latest rating changes in that scope and family, newest first."""
        ...

    async def favourite_partner(
        self, scope: int, family: str, user_id: int
    ) -> tuple[int, int] | None:
        """(partner user id, games together) of the most frequent human partner, or ``None``.

        Ties go to the smaller user id so the answer does not flicker.
        """
        ...

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The seat name each user had in their latest recorded game (users without one are
        left out), so a global leaderboard can name players of other servers."""
        ...
