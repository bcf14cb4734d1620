"""Schema migration 13's Python step on both stores: the seasons of games recorded before it.

Why a step: from migration 13 on, each rated game stores its season as it is recorded (the
channel of its latest rated game is where the season's final standings go). Games recorded
before have none, so a server whose last rated games of the month came before the upgrade would
never see that month's end announced. This step gives every (server, calendar month UTC) with a
rated game its row, the channel of its latest one. Months already over are marked announced:
their seasons ended before seasons existed, and a burst of old standings at the upgrade would
be noise. The month arithmetic is repeated here (storage never imports the services), the same
calendar months as :func:`bot.services.seasons.next_end`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

#: ``WHERE rated`` reads an INTEGER 0/1 in SQLite and a BOOLEAN in PostgreSQL alike.
RATED_GAMES_SQL = "SELECT guild_id, channel_id, ended_at FROM games WHERE rated ORDER BY id"
ADD_SEASON_SQL = (
    "INSERT INTO seasons (guild_id, starts_at, ends_at, length, channel_id, posted) "
    "VALUES (?, ?, ?, 'month', ?, ?) ON CONFLICT (guild_id, starts_at) DO NOTHING"
)


def _month(moment: datetime) -> tuple[datetime, datetime]:
    utc = moment.astimezone(UTC)
    start = datetime(utc.year, utc.month, 1, tzinfo=UTC)
    end = datetime(utc.year + utc.month // 12, utc.month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def season_rows(
    games: Sequence[Sequence[Any]],
    moment: Callable[[Any], datetime],
    stored: Callable[[datetime], Any],
    now: datetime,
) -> list[tuple[Any, ...]]:
    """Parameters of ``ADD_SEASON_SQL`` for the rows of ``RATED_GAMES_SQL`` (oldest first, so
    the latest game's channel wins); *moment* reads and *stored* writes the store's times."""
    latest: dict[tuple[int, datetime], tuple[datetime, int]] = {}
    for guild_id, channel_id, ended_at in games:
        start, end = _month(moment(ended_at))
        latest[(int(guild_id), start)] = (end, int(channel_id))
    return [
        (guild_id, stored(start), stored(end), channel_id, end <= now)
        for (guild_id, start), (end, channel_id) in latest.items()
    ]
