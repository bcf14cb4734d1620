"""Seasons as views, never resets: a season is a date range of a server, and its board is the
server's rated games of that range rated again from scratch.

Why views: the anchors that reset ratings destructively then fix reset bugs (slack-gamebot#34,
#35) and lose the old seasons (#4). Here nothing is reset or copied: a season board folds the
stored rated games of its range through the very rule the all-time board uses
(:func:`bot.features.stats.ratings.rate_game`, which migration 9's replay and the live recorder share),
so everyone starts the season fresh, the all-time ratings are untouched, and a past season's
board can only change if its games do, which they never do.

The schedule: monthly by default (calendar months, UTC). A server's stored seasons
(``seasons`` rows, migration 13) carry the length of the seasons after them, so an admin's new
length starts with the next season and never moves one under way; "restart" ends the current
season now and starts a new one. A row is stored for each season that had a rated game (its
channel is where its final standings go: that of its latest rated game) and for each admin
change; seasons with no row are derived from the rows before them.

The end of a season is a durable deadline: one :class:`~bot.services.dispatcher.Dispatcher`
sleeps until the nearest unannounced end, and the announcement is claimed (``posted``) before
the post, so it happens once, also when the bot was down at that moment (it fires at the next
start) and never again after another restart. A crash between the claim and the post loses the
post rather than doubling it, as a reminder does.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.features.seasons.store import SeasonsStore
from bot.features.stats.ratings import rate_game
from bot.features.stats.service import PAGE_SIZE, LeaderboardEntry, LeaderboardPage, check_family
from bot.services.dispatcher import Dispatcher
from bot.storage import Deadline, Shards
from bot.storage.base import (
    ALL_VARIANTS,
    Clock,
    GameRecord,
    LeaderboardSort,
    RatingKey,
    SeasonRecord,
    SkillRating,
    utc_now,
)

log = logging.getLogger(__name__)

#: Calendar months in UTC: the default length.
MONTH = "month"
#: The lengths an admin may choose besides the month, in days.
DAY_LENGTHS = (7, 14, 28)
LENGTHS: tuple[str, ...] = (MONTH, *(f"{days}d" for days in DAY_LENGTHS))
#: The dispatcher's deadline kind for a season's end (the "table id" is the guild id).
SEASON_END = "season_end"
#: How many players the final standings picture shows.
STANDINGS_SHOWN = 10

#: Sends a season's final standings: (the season, its first lines, how many players it had).
Post = Callable[[SeasonRecord, Sequence[LeaderboardEntry], int], Awaitable[None]]


def check_length(length: str) -> str:
    """A known season length, or ``ValueError``."""
    if length not in LENGTHS:
        raise ValueError(f"unknown season length {length!r}; expected one of {LENGTHS}")
    return length


def month_start(moment: datetime) -> datetime:
    """Midnight UTC of the first day of *moment*'s month."""
    utc = moment.astimezone(UTC)
    return datetime(utc.year, utc.month, 1, tzinfo=UTC)


def next_end(start: datetime, length: str) -> datetime:
    """Where a season starting at *start* ends: the next first of a month (``month``), or
    *start* plus the days."""
    if check_length(length) == MONTH:
        first = month_start(start)
        return datetime(first.year + first.month // 12, first.month % 12 + 1, 1, tzinfo=UTC)
    return start + timedelta(days=int(length[:-1]))


def season_at(guild_id: int, rows: Sequence[SeasonRecord], moment: datetime) -> SeasonRecord:
    """The season of the server that contains *moment*: a stored one, else derived from the
    latest stored season that ended before it (its length, season after season), else the
    calendar month. A derived season never runs into a stored one that starts later."""
    for row in rows:
        if row.starts_at <= moment < row.ends_at:
            return row
    earlier = [row for row in rows if row.ends_at <= moment]
    if earlier:
        base = max(earlier, key=lambda row: row.ends_at)
        length, start = base.length, base.ends_at
        end = next_end(start, length)
        while end <= moment:
            start, end = end, next_end(end, length)
    else:
        length, start = MONTH, month_start(moment)
        end = next_end(start, MONTH)
    later = [row.starts_at for row in rows if row.starts_at > moment]
    if later:
        end = min(end, *later)
    return SeasonRecord(guild_id, start, end, length)


def previous_of(guild_id: int, rows: Sequence[SeasonRecord], season: SeasonRecord) -> SeasonRecord:
    """The season right before *season* (the one holding its start's last microsecond)."""
    return season_at(guild_id, rows, season.starts_at - timedelta(microseconds=1))


# -- the board -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A player's line of a season board before it is ranked."""

    user_id: int
    rating: float
    rated_games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.rated_games if self.rated_games else 0.0


def _sort_key(sort: LeaderboardSort) -> Callable[[Standing], tuple[float, ...]]:
    """The all-time board's orders (``SORT_SPECS``), then the user id."""
    if sort == "wins":
        return lambda s: (-s.wins, s.rated_games, s.user_id)
    if sort == "win_rate":
        return lambda s: (-s.win_rate, -s.rated_games, s.user_id)
    return lambda s: (-s.rating, s.user_id)


def standings(
    games: Sequence[GameRecord], scope: int, family: str, sort: LeaderboardSort = "rating"
) -> list[Standing]:
    """The board of *games* (rated, oldest first) in *scope* and *family*, everyone starting
    fresh: each game through :func:`rate_game`, the all-time rule, exactly as
    :func:`~bot.features.stats.ratings.replay_ratings` folds them, but for this one (scope, family)
    only (the rule rates each pair on its own, so the numbers are the same; the other three
    pairs of a game would quadruple the time of a board nobody asked for)."""
    ratings: dict[RatingKey, SkillRating] = {}
    counts: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for game in games:
        if not game.rated or (family != ALL_VARIANTS and game.variant != family):
            continue
        keys = [
            (scope, family, player.user_id)
            for player in game.players
            if player.user_id is not None and not player.is_computer
        ]
        ratings.update(rate_game(game, {key: ratings.get(key) for key in keys}))
        for player in game.players:
            if player.user_id is not None and not player.is_computer:
                counts[player.user_id] += 1
                wins[player.user_id] += player.won
    found = [
        Standing(user, rating.rating, counts[user], wins[user])
        for (_, _, user), rating in ratings.items()
    ]
    return sorted(found, key=_sort_key(sort))


def _entry(rank: int, standing: Standing, names: dict[int, str]) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank,
        user_id=standing.user_id,
        name=names.get(standing.user_id),
        rating=standing.rating,
        rated_games=standing.rated_games,
        games=standing.rated_games,
        wins=standing.wins,
        win_rate=standing.win_rate,
    )


# -- the dispatcher's view of the seasons ------------------------------------------------------


class SeasonEnds:
    """The store's unannounced season ends as the dispatcher's deadlines (guild id in place of
    the table id, the season's start as the generation), so the durable-timer loop that runs
    the tables' deadlines runs these too, unchanged."""

    def __init__(self, store: SeasonsStore) -> None:
        self.store = store

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        rows = await self.store.pending_season_ends(limit, shards)
        return [
            Deadline(row.guild_id, SEASON_END, row.ends_at, row.starts_at.isoformat())
            for row in rows
        ]

    async def claim_deadline(self, deadline: Deadline) -> bool:
        return await self.store.claim_season_end(
            deadline.table_id, datetime.fromisoformat(deadline.generation)
        )


async def _no_post(season: SeasonRecord, entries: Sequence[LeaderboardEntry], players: int) -> None:
    return None


class SeasonService:
    """Season boards, the admin's schedule, and the announcement of each season's end."""

    def __init__(
        self,
        store: SeasonsStore,
        *,
        clock: Clock = utc_now,
        post: Post = _no_post,
        shards: Shards | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        self.store = store
        self.clock = clock
        #: Sends the final standings (the Discord layer sets it; services never import discord).
        self.post = post
        self.page_size = page_size
        self.dispatcher = Dispatcher(SeasonEnds(store), self.fire, clock, shards)
        self._running = False

    def start(self) -> None:
        self._running = True
        self.dispatcher.start()

    async def close(self) -> None:
        self._running = False
        await self.dispatcher.close()

    def _wake(self, due_at: datetime) -> None:
        """A season's end was stored or moved: the dispatcher looks again (once started; before
        that, its start finds it)."""
        if self._running:
            self.dispatcher.wake(due_at)

    # -- which season ----------------------------------------------------------------------------

    async def current(self, guild_id: int) -> SeasonRecord:
        return season_at(guild_id, await self.store.season_rows(guild_id), self.clock())

    async def previous(self, guild_id: int) -> SeasonRecord:
        rows = await self.store.season_rows(guild_id)
        return previous_of(guild_id, rows, season_at(guild_id, rows, self.clock()))

    async def season_from(self, guild_id: int, starts_at: datetime) -> SeasonRecord:
        """The season that starts at *starts_at* (a page button's), stored or derived."""
        return season_at(guild_id, await self.store.season_rows(guild_id), starts_at)

    # -- recording and the admin's choices ------------------------------------------------------

    async def note_game(self, record: GameRecord) -> None:
        """After a rated game is recorded: store its season (if new) and its channel, where the
        final standings will go. One read and one write per game, none per move; a failure
        here is logged and never fails the game's recording."""
        if not record.rated:
            return
        try:
            rows = await self.store.season_rows(record.guild_id)
            season = season_at(record.guild_id, rows, record.ended_at)
            await self.store.add_season(
                SeasonRecord(
                    record.guild_id,
                    season.starts_at,
                    season.ends_at,
                    season.length,
                    record.channel_id,
                )
            )
        except Exception:
            log.exception("the season of table %s's game was not stored", record.table_id)
            return
        self._wake(season.ends_at)

    async def configure(
        self, guild_id: int, *, length: str | None, restart: bool
    ) -> SeasonRecord:
        """An admin's change; returns the current season afterwards.

        *length* applies from the next season (the current one keeps its end); *restart* ends
        the current season now (its standings are announced at once) and starts a new one of
        the chosen length, or of the current one's."""
        now = self.clock()
        rows = await self.store.season_rows(guild_id)
        current = season_at(guild_id, rows, now)
        new_length = check_length(length) if length is not None else current.length
        if not restart:
            await self.store.add_season(current)
            await self.store.set_season_schedule(
                guild_id, current.starts_at, current.ends_at, new_length
            )
            return await self.current(guild_id)
        if current.starts_at < now:
            await self.store.add_season(current)
            await self.store.set_season_schedule(guild_id, current.starts_at, now, new_length)
        fresh = SeasonRecord(guild_id, now, next_end(now, new_length), new_length)
        await self.store.add_season(fresh)
        await self.store.set_season_schedule(guild_id, now, fresh.ends_at, new_length)
        self._wake(now)
        return await self.current(guild_id)

    # -- boards ---------------------------------------------------------------------------------

    async def standings(
        self, season: SeasonRecord, family: str, sort: LeaderboardSort
    ) -> list[Standing]:
        games = await self.store.rated_games_between(
            season.guild_id, season.starts_at, season.ends_at
        )
        return standings(games, season.guild_id, check_family(family), sort)

    async def page(
        self,
        season: SeasonRecord,
        *,
        family: str,
        sort: LeaderboardSort,
        page: int,
        caller_id: int | None = None,
    ) -> LeaderboardPage:
        """A page of the season's board, shaped like the all-time board's (clamped into range,
        the caller's own line when they played in the season)."""
        ranked = await self.standings(season, family, sort)
        page_count = max(1, math.ceil(len(ranked) / self.page_size))
        page = min(max(0, page), page_count - 1)
        offset = page * self.page_size
        shown = ranked[offset : offset + self.page_size]
        mine = next((i for i, s in enumerate(ranked) if s.user_id == caller_id), None)
        users = [s.user_id for s in shown] + ([ranked[mine].user_id] if mine is not None else [])
        names = await self.store.player_names(users)
        entries = tuple(_entry(offset + i + 1, s, names) for i, s in enumerate(shown))
        caller = None if mine is None else _entry(mine + 1, ranked[mine], names)
        return LeaderboardPage(
            season.guild_id, family, sort, page, page_count, len(ranked), entries, caller
        )

    # -- a season's end -------------------------------------------------------------------------

    async def fire(self, deadline: Deadline) -> None:
        """A season ended: claim its announcement, then post its final standings (nothing when
        nobody played a rated game in it)."""
        guild_id, starts_at = deadline.table_id, datetime.fromisoformat(deadline.generation)
        rows = await self.store.season_rows(guild_id)
        season = next((row for row in rows if row.starts_at == starts_at), None)
        if season is None or not await self.store.claim_season_end(guild_id, starts_at):
            return
        ranked = await self.standings(season, ALL_VARIANTS, "rating")
        if not ranked or season.channel_id is None:
            return
        shown = ranked[:STANDINGS_SHOWN]
        names = await self.store.player_names([s.user_id for s in shown])
        lines = [_entry(i + 1, s, names) for i, s in enumerate(shown)]
        await self.post(season, lines, len(ranked))
