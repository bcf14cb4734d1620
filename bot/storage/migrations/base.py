"""What one schema migration is, on either store, and the placeholder spelling a Python step
needs on PostgreSQL.

Why here and not borrowed from the store (``bot.storage.statements.dollar_params`` does the
same): every module of this package is history and imports nothing of the bot outside it, so
nothing a migration leans on can change under it when the store changes
(``tests/storage/test_migrations_are_history.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step. ``version`` is the schema version after it is applied.

    ``step`` is for what SQL cannot do (rebuilding ratings through openskill): it runs after the
    statements on the same connection, inside the step's transaction, so it commits with them
    or not at all.
    """

    version: int
    description: str
    statements: tuple[str, ...]
    step: Callable[[Any], Awaitable[None]] | None = None


def numbered(sql: str) -> str:
    """A statement written with ``?`` placeholders, as PostgreSQL's ``$1, $2…``."""
    pieces = sql.split("?")
    return "".join(f"{p}${i}" for i, p in enumerate(pieces[:-1], start=1)) + pieces[-1]
