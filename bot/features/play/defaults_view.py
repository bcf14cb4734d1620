"""The lobby's line about what a new table inherited from the server's or channel's defaults.

Apart from :mod:`bot.features.defaults.service` because it reads a :class:`Table` (whose service imports
that module). An inherited value the host has changed since in the lobby's Settings is no longer
the default's, so it is left out: the line never claims a setting the table does not have.
"""

from __future__ import annotations

from bot.features.defaults.service import MODE, VARIANT, items_text
from bot.features.play.settings import setting
from bot.features.play.tables import Table
from bot.text import t


def table_value(table: Table, key: str) -> str | None:
    """The table's current value of default ``key``, as its choice reads."""
    if key == VARIANT:
        return table.record.variant
    if key == MODE:
        return table.record.mode
    try:
        return setting(key).read(table.settings)
    except KeyError:
        return None


def inherited_lines(table: Table, locale: str) -> list[str]:
    """One line per origin (the server's, then the channel's defaults), of what still holds."""
    lines = []
    for origin in ("server", "channel"):
        kept = {
            key: value
            for key, value in table.inherited.get(origin, {}).items()
            if table_value(table, key) == value
        }
        if kept:
            lines.append(t(f"defaults.lobby.{origin}", locale, items=items_text(kept, locale)))
    return lines
