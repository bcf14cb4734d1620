"""What the lessons store: each player's place in the course; what the lesson service is
typed with.

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from typing import Protocol

from bot.storage.base import LessonProgress


class LessonStore(Protocol):
    """A player's place in the course (migration 14)."""

    async def get_lesson_progress(self, user_id: int) -> LessonProgress | None:
        """Where the player is in the course; None if they never opened it."""
        ...

    async def save_lesson_progress(self, progress: LessonProgress, seen_step: int) -> bool:
        """Store ``progress`` if the stored row is still at ``seen_step`` (or, for 0, absent);
        False when it moved on meanwhile (nothing is written)."""
        ...
