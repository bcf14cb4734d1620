"""The per-table turn timer: its choices and where a table keeps it.

Why not an engine option: the time a player may think is the table's housekeeping, not a rule
of the game, so the engine never sees it. It is kept in the table's options under
``turn_timer`` (whole minutes, 0 = off) and stripped before the engine's options are built;
the lobby's menus and ``/rummy new`` offer :data:`TIMER_CHOICES` beside the engine's options.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.features.play.threads import THREAD_KEY
from bot.services.refusal import Refusal

TIMER_KEY = "turn_timer"
#: What the host can choose: off, or minutes.
TIMER_CHOICES: tuple[str, ...] = ("off", "1", "2", "5", "10", "30")
#: Share of the turn after which the player is reminded privately.
REMIND_AT = 0.75
#: Timed-out turns in a row after which the host decides what happens to the seat.
ABSENT_AFTER = 3


def parse_timer(value: Any) -> int:
    """Minutes from a choice (``off`` = 0); any other value is refused by name."""
    text = str(value).strip().lower()
    if text in ("off", "0", "none"):
        return 0
    if text in TIMER_CHOICES:
        return int(text)
    raise Refusal("options.bad_value", key=TIMER_KEY, value=value, allowed=", ".join(TIMER_CHOICES))


def shown_timer(minutes: int) -> str:
    """A timer as its choice reads."""
    return "off" if minutes == 0 else str(minutes)


def split_options(data: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """(the engine's options, the timer in minutes or None if not given); the thread choice
    (:mod:`bot.features.play.threads`) is the table's too, not the engine's."""
    rest = {k: v for k, v in data.items() if k not in (TIMER_KEY, THREAD_KEY)}
    return rest, (parse_timer(data[TIMER_KEY]) if TIMER_KEY in data else None)


def turn_length(minutes: int) -> timedelta:
    return timedelta(minutes=minutes)
