"""A thread per game: the table's choice, and what a table's messages do when it is gone.

Why a table setting and not an engine option: where the game is shown is the table's
housekeeping, like the turn timer, so the engine never sees it. It is a table setting
(:mod:`bot.features.play.settings`), stored in the table's options under ``thread``
(``yes``/``no``; absent: no thread) but never handed to the engine.

Where the game is: a table's record keeps ``thread_id`` (migration 12) once the bot opened the
thread from the lobby message at the start; ``0`` records that it may not, so the game stays in
the channel without asking again. Its messages then live in the thread; the parent channel
keeps the lobby line and one result line.
"""

from __future__ import annotations

from typing import Any

#: What the host can choose.
THREAD_CHOICES: tuple[str, ...] = ("yes", "no")
#: ``closed_reason`` of a table whose channel or thread was deleted (Discord 10003).
CHANNEL_GONE = "channel_gone"


def parse_thread(value: Any) -> bool:
    """Whether a choice asks for a thread (ValueError for any other value)."""
    text = str(value).strip().lower()
    if text in ("yes", "true", "on", "1"):
        return True
    if text in ("no", "false", "off", "0", "none", ""):
        return False
    raise ValueError(f"not a thread choice: {value!r}")


def shown_thread(wanted: bool) -> str:
    """A choice as it is stored and offered."""
    return "yes" if wanted else "no"


def home_channel(channel_id: int, thread_id: int | None) -> int:
    """Where a table's game messages go: its thread if it has one, else its channel."""
    return thread_id or channel_id
