"""The per-table turn timer: its choices and where a table keeps it.

Why not an engine option: the time a player may think is the table's housekeeping, not a rule
of the game, so the engine never sees it. It is a table setting
(:mod:`bot.features.play.settings`), stored in the table's options under ``turn_timer`` (whole
minutes, 0 = off) beside the engine's options but never handed to the engine.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

#: What the host can choose: off, or minutes.
TIMER_CHOICES: tuple[str, ...] = ("off", "1", "2", "5", "10", "30")
#: Share of the turn after which the player is reminded privately.
REMIND_AT = 0.75
#: Timed-out turns in a row after which the host decides what happens to the seat.
ABSENT_AFTER = 3


def parse_timer(value: Any) -> int:
    """Minutes from a choice (``off`` = 0; ValueError for any other value)."""
    text = str(value).strip().lower()
    if text in ("off", "0", "none"):
        return 0
    if text in TIMER_CHOICES:
        return int(text)
    raise ValueError(f"not a turn timer choice: {value!r}")


def shown_timer(minutes: int) -> str:
    """A timer as its choice reads."""
    return "off" if minutes == 0 else str(minutes)


def turn_length(minutes: int) -> timedelta:
    return timedelta(minutes=minutes)
