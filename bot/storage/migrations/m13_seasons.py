"""Schema migration 13's Python step on both stores: the seasons of games recorded before it.

Why a step: from migration 13 on, each rated game stores its season as it is recorded (the
channel of its latest rated game is where the season's final standings go). Games recorded
before have none, so a server whose last rated games of the month came before the upgrade would
never see that month's end announced. This step gives every (server, calendar month UTC) with a
rated game its row, the channel of its latest one. Months already over are marked announced:
their seasons ended before seasons existed, and a burst of old standings at the upgrade would
be noise.

Why its own copy of the month arithmetic (the calendar months of
:func:`bot.features.seasons.service.next_end` on the day it was written) and of the time codecs: this
step is history and imports nothing of the bot, so a later change to how seasons are scheduled
or times are stored cannot change what upgrading an old database does. It reads only columns
``games`` has had since migration 4.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.storage.migrations.base import numbered

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


def _iso(moment: datetime) -> str:
    """A time as SQLite's store keeps it: ISO-8601 text in UTC."""
    return moment.isoformat()


async def sqlite_step(conn: aiosqlite.Connection) -> None:
    """Migration 13 on SQLite, inside the migration's transaction."""
    games = await conn.execute_fetchall(RATED_GAMES_SQL)
    rows = season_rows(list(games), datetime.fromisoformat, _iso, datetime.now(UTC))
    await conn.executemany(ADD_SEASON_SQL, rows)


async def postgres_step(conn: Any) -> None:
    """Migration 13 on PostgreSQL (TIMESTAMPTZ in and out), inside the migration's transaction."""
    games = await conn.fetch(RATED_GAMES_SQL)
    rows = season_rows(games, lambda moment: moment, lambda moment: moment, datetime.now(UTC))
    await conn.executemany(numbered(ADD_SEASON_SQL), rows)
