"""What the seasons feature stores: each server's seasons, and the rated games a season board
is computed from; what the season service is typed with.

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.storage.base import GameRecord, SeasonRecord, Shards


class SeasonsStore(Protocol):
    """Seasons, the rated games they hold, and the players' names their boards show."""

    async def season_rows(self, guild_id: int) -> list[SeasonRecord]:
        """Every stored season of a server, oldest first."""
        ...

    async def add_season(self, season: SeasonRecord) -> None:
        """Store a season a rated game was played in; if it is stored already, only its
        ``channel_id`` changes (the channel of its latest rated game), never its dates."""
        ...

    async def set_season_schedule(
        self, guild_id: int, starts_at: datetime, ends_at: datetime, length: str
    ) -> None:
        """Change a stored season's end and the length of the seasons after it (an admin's
        choice); whether its end was announced is kept."""
        ...

    async def rated_games_between(
        self, guild_id: int, start: datetime, end: datetime
    ) -> list[GameRecord]:
        """The server's rated games that ended in ``[start, end)``, with their players (no
        rounds), in the order they were recorded: what a season board is rated from."""
        ...

    async def pending_season_ends(
        self, limit: int = 16, shards: Shards | None = None
    ) -> list[SeasonRecord]:
        """Seasons whose end is not yet announced (of servers on ``shards``), nearest end
        first."""
        ...

    async def claim_season_end(self, guild_id: int, starts_at: datetime) -> bool:
        """Mark a season's end announced; False if it already was (or there is no such
        season): the one who gets True posts the final standings."""
        ...

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The seat name each user had in their latest recorded game (users without one are
        left out), so a global leaderboard can name players of other servers."""
        ...
