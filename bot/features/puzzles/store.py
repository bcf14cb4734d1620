"""What the puzzle of the day stores: each server's puzzles and its players' answers; the
server's puzzle channel and hour are server settings (``GuildSettingsStore``).

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from typing import Protocol

from bot.storage.base import (
    GuildSettingsStore,
    MoveLog,
    PuzzleAnswer,
    PuzzleRecord,
    PuzzleSchedule,
    SeatRecord,
    Shards,
    TableRecord,
)


class PuzzlesStore(GuildSettingsStore, MoveLog, Protocol):
    async def puzzle_guilds(self, shards: Shards | None = None) -> list[PuzzleSchedule]:
        """Every server with a puzzle channel (on ``shards``)."""
        ...

    async def add_puzzle(self, puzzle: PuzzleRecord) -> bool:
        """Store a day's puzzle; False if the server has one for that day already (it is
        made once, whoever tries first)."""
        ...

    async def set_puzzle_message(self, guild_id: int, day: str, channel_id: int, message_id: int) -> None:
        ...

    async def get_puzzle(self, guild_id: int, day: str) -> PuzzleRecord | None:
        ...

    async def puzzle_days(self, guild_id: int, limit: int) -> list[tuple[str, str, str]]:
        """The server's latest puzzles as (day, kind, position key), newest first: what the
        schedule, the repeats and the streaks read (never the stored positions)."""
        ...

    async def add_puzzle_answer(self, answer: PuzzleAnswer) -> bool:
        """Store a player's answer; False if they had answered that day's puzzle already."""
        ...

    async def puzzle_answers(self, guild_id: int, day: str) -> tuple[int, int]:
        """(solved, answered) for a server's puzzle of a day."""
        ...

    async def player_puzzle_days(self, guild_id: int, user_id: int, limit: int) -> list[tuple[str, bool]]:
        """A player's latest answered days in a server, newest first, with whether solved."""
        ...

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        ...

    async def finished_tables(self, guild_id: int, limit: int) -> list[TableRecord]:
        """The server's latest finished tables, newest first (puzzles come from their games)."""
        ...
