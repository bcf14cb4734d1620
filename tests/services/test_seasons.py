"""Seasons on both stores: a season board is the rated games of its range rated again from
scratch through the all-time board's own rule, past seasons never change, the schedule follows
calendar months until an admin changes it, and a season's end is claimed once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import count, pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.seasons.service import (
    MONTH,
    SeasonService,
    Standing,
    next_end,
    previous_of,
    season_at,
    standings,
)
from bot.features.stats.ratings import rate_game, replay_ratings
from bot.features.stats.service import LeaderboardEntry
from bot.storage import Store, make_store
from bot.storage.base import ALL_VARIANTS, GamePlayerRecord, GameRecord, SeasonRecord
from tests.helpers.rerun import rerun_migration

JAN = datetime(2026, 1, 1, tzinfo=UTC)
FEB = datetime(2026, 2, 1, tzinfo=UTC)
MAR = datetime(2026, 3, 1, tzinfo=UTC)
APR = datetime(2026, 4, 1, tzinfo=UTC)
MAY = datetime(2026, 5, 1, tzinfo=UTC)
MONTHS = (JAN, FEB, MAR, APR, MAY)
_tables = count(1)
_guilds = count(1 << 40)


class Clock:
    """A clock the test moves."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(store_url: str | Path) -> AsyncIterator[Store]:
    async with make_store(store_url) as opened:
        yield opened


def game(
    guild_id: int,
    ended_at: datetime,
    places: Sequence[tuple[int, int]],
    *,
    variant: str = "r51",
    rated: bool = True,
) -> GameRecord:
    """A recorded game: one player per side, ``places`` = (user id, place)."""
    players = tuple(
        GamePlayerRecord(
            seat=seat, user_id=user, is_computer=False, name=f"P{user}", side=seat,
            partner_id=None, place=place, won=place == 1, forfeited=False, score=0, rounds=1,
            rounds_won=int(place == 1), penalty_total=0, rami_sec=0, best_opening=0,
        )
        for seat, (user, place) in enumerate(places)
    )  # fmt: skip
    return GameRecord(
        table_id=next(_tables),
        guild_id=guild_id,
        channel_id=77,
        variant=variant,
        mode="1v1" if len(places) == 2 else "basic",
        options_json="{}",
        winner_sides_json="[0]",
        scores_json="[]",
        rated=rated,
        started_at=ended_at - timedelta(minutes=20),
        ended_at=ended_at,
        players=players,
    )


async def record(store: Store, seasons: SeasonService, record: GameRecord) -> GameRecord:
    """What :meth:`StatsService.record` does with a game, then the seasons' note of it; the
    record with its id, as a replay needs it."""
    rater = (lambda current: rate_game(record, current)) if record.rated else None
    game_id = await store.record_game(record, rater)
    assert game_id is not None
    await seasons.note_game(record)
    return replace(record, id=game_id)


def oracle(games: Sequence[GameRecord], guild_id: int, family: str) -> dict[int, tuple[float, int]]:
    """Each player's (rating, rated games) from rating only *games*, from scratch."""
    replay = replay_ratings([g for g in games if g.rated])
    return {
        user: (rating.rating, n)
        for (scope, fam, user), (rating, n) in replay.ratings.items()
        if scope == guild_id and fam == family
    }


def as_map(found: Sequence[Standing]) -> dict[int, tuple[float, int]]:
    return {s.user_id: (s.rating, s.rated_games) for s in found}


def month(moment: datetime) -> SeasonRecord:
    return SeasonRecord(1, moment, next_end(moment, MONTH), MONTH)


# -- the schedule (no store) -------------------------------------------------------------------


def test_seasons_are_calendar_months_until_an_admin_changes_them() -> None:
    assert season_at(1, [], JAN + timedelta(days=17, hours=5)) == month(JAN)
    assert season_at(1, [], datetime(2026, 12, 31, 23, 59, tzinfo=UTC)).ends_at == datetime(
        2027, 1, 1, tzinfo=UTC
    )
    assert previous_of(1, [], month(JAN)) == SeasonRecord(
        1, datetime(2025, 12, 1, tzinfo=UTC), JAN, MONTH
    )


def test_a_length_applies_from_the_next_season_and_repeats() -> None:
    weekly = [SeasonRecord(1, JAN, FEB, "7d")]
    assert season_at(1, weekly, JAN + timedelta(days=3)) == weekly[0], "this one keeps its end"
    assert season_at(1, weekly, FEB + timedelta(days=9)) == SeasonRecord(
        1, FEB + timedelta(days=7), FEB + timedelta(days=14), "7d"
    )
    assert previous_of(1, weekly, season_at(1, weekly, FEB)) == weekly[0]


def test_a_derived_season_never_runs_into_a_later_stored_one() -> None:
    restarted = [SeasonRecord(1, JAN + timedelta(days=10), FEB, MONTH)]
    assert season_at(1, restarted, JAN + timedelta(days=2)).ends_at == JAN + timedelta(days=10)


# -- boards ------------------------------------------------------------------------------------


players = st.lists(st.integers(1, 6), min_size=2, max_size=4, unique=True)
moments = st.integers(0, (MAY - JAN) // timedelta(minutes=1) - 1).map(
    lambda minutes: JAN + timedelta(minutes=minutes)
)
games_strategy = st.lists(
    st.tuples(
        players,
        st.lists(st.integers(1, 4), min_size=4, max_size=4),
        moments,
        st.sampled_from(["r51", "r71"]),
        st.booleans(),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(drawn=games_strategy, family=st.sampled_from([ALL_VARIANTS, "r51", "r71"]))
def test_the_board_rule_is_the_all_time_replay_for_one_scope_and_family(
    drawn: list[tuple[list[int], list[int], datetime, str, bool]], family: str
) -> None:
    """Without a store: the season board's fold, which rates only the asked (scope, family),
    gives exactly what :func:`replay_ratings` (migration 9's full replay) gives for it, and the
    board's wins and order are those of the games."""
    games = [
        replace(
            game(7, ended_at, list(zip(users, places, strict=False)), variant=variant,
                 rated=rated),
            id=n,
        )
        for n, (users, places, ended_at, variant, rated) in enumerate(drawn, start=1)
    ]  # fmt: skip
    board = standings(games, 7, family, "wins")
    assert as_map(board) == oracle(games, 7, family)
    counted = [g for g in games if g.rated and family in (ALL_VARIANTS, g.variant)]
    for line in board:
        assert line.wins == sum(
            p.won for g in counted for p in g.players if p.user_id == line.user_id
        )
    keys = [(-s.wins, s.rated_games, s.user_id) for s in board]
    assert keys == sorted(keys)


# Every example plays in a server of its own (a new guild id), so one database serves them all.
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(drawn=games_strategy)
def test_a_season_board_is_its_games_rated_again_from_scratch(
    store_url: str | Path, drawn: list[tuple[list[int], list[int], datetime, str, bool]]
) -> None:
    """Random rated (and some unrated) games across four months, recorded as the bot records
    them: each month's board equals rating only that month's rated games, through the same
    rule, from scratch; a season spanning every game equals the all-time board the live
    recorder kept, game after game."""

    async def body() -> None:
        guild = next(_guilds)
        async with make_store(store_url) as store:
            seasons = SeasonService(store, clock=Clock(JAN))
            recorded = []
            for users, places, ended_at, variant, rated in drawn:
                one = game(guild, ended_at, list(zip(users, places, strict=False)),
                           variant=variant, rated=rated)  # fmt: skip
                recorded.append(await record(store, seasons, one))
            for start, end in pairwise(MONTHS):
                season = SeasonRecord(guild, start, end, MONTH)
                inside = [g for g in recorded if start <= g.ended_at < end]
                for family in (ALL_VARIANTS, "r51"):
                    board = await seasons.standings(season, family, "rating")
                    assert as_map(board) == oracle(inside, guild, family)
                    ratings = [s.rating for s in board]
                    assert ratings == sorted(ratings, reverse=True)
            everything = SeasonRecord(guild, JAN, MAY, MONTH)
            board = as_map(await seasons.standings(everything, ALL_VARIANTS, "rating"))
            all_time = {
                row.user_id: (row.rating, row.rated_games)
                for row in await store.leaderboard_page(guild, ALL_VARIANTS, "rating", 0, 100)
                if row.rating is not None
            }
            assert board.keys() == all_time.keys()
            for user, (rating, games) in board.items():
                assert games == all_time[user][1]
                assert rating == pytest.approx(all_time[user][0], abs=1e-9)

    asyncio.run(body())


async def test_past_seasons_and_all_time_ratings_stay_as_they_were(store: Store) -> None:
    clock = Clock(FEB + timedelta(days=3))
    seasons = SeasonService(store, clock=clock)
    guild = next(_guilds)
    for day, places in enumerate([((1, 1), (2, 2)), ((2, 1), (3, 2)), ((1, 1), (3, 2))]):
        await record(store, seasons, game(guild, JAN + timedelta(days=day + 1), places))
    january = await seasons.previous(guild)
    assert (january.starts_at, january.ends_at) == (JAN, FEB)
    before = await seasons.page(january, family=ALL_VARIANTS, sort="rating", page=0)
    all_time_before = await store.leaderboard_page(guild, ALL_VARIANTS, "rating", 0, 10)
    for day in range(5):  # February: player 3 wins everything
        await record(store, seasons, game(guild, FEB + timedelta(days=day), ((3, 1), (1, 2))))
    after = await seasons.page(january, family=ALL_VARIANTS, sort="rating", page=0)
    assert after == before, "a past season's board never changes"
    february = await seasons.page(
        await seasons.current(guild), family=ALL_VARIANTS, sort="rating", page=0
    )
    assert [e.user_id for e in february.entries] == [3, 1], "the season starts fresh"
    assert february.entries[0].rated_games == 5 and february.entries[0].wins == 5
    assert await store.leaderboard_page(guild, ALL_VARIANTS, "rating", 0, 10) != all_time_before
    assert all(e.games <= 2 for e in before.entries), "January's board holds January only"


async def test_each_rated_game_stores_its_season_and_its_channel(store: Store) -> None:
    seasons = SeasonService(store, clock=Clock(JAN))
    guild = next(_guilds)
    await record(store, seasons, game(guild, JAN + timedelta(days=2), ((1, 1), (2, 2)), rated=False))
    assert await store.season_rows(guild) == [], "an unrated game makes no season"
    await record(store, seasons, game(guild, JAN + timedelta(days=2), ((1, 1), (2, 2))))
    assert await store.season_rows(guild) == [SeasonRecord(guild, JAN, FEB, MONTH, 77)]
    pending = [s for s in await store.pending_season_ends(100) if s.guild_id == guild]
    assert pending == [SeasonRecord(guild, JAN, FEB, MONTH, 77)]


async def test_an_admin_length_and_restart(store: Store) -> None:
    clock = Clock(JAN + timedelta(days=10, hours=6))
    seasons = SeasonService(store, clock=clock)
    guild = next(_guilds)
    changed = await seasons.configure(guild, length="7d", restart=False)
    assert (changed.starts_at, changed.ends_at, changed.length) == (JAN, FEB, "7d")
    clock.now = FEB + timedelta(days=8)
    assert (await seasons.current(guild)).starts_at == FEB + timedelta(days=7)
    restarted = await seasons.configure(guild, length=None, restart=True)
    assert restarted.starts_at == clock.now and restarted.ends_at == clock.now + timedelta(days=7)
    cut = await seasons.previous(guild)
    assert (cut.starts_at, cut.ends_at) == (FEB + timedelta(days=7), clock.now)
    monthly = await seasons.configure(guild, length=MONTH, restart=True)
    assert monthly.ends_at == MAR, "a month-long season runs to the next first of a month"


async def test_a_season_end_is_posted_once_across_restarts(store: Store) -> None:
    """The bot was down at the end: the next start posts it, the one after does not."""
    guild = next(_guilds)
    posts: list[tuple[SeasonRecord, list[LeaderboardEntry], int]] = []

    async def post(season: SeasonRecord, entries: Sequence[LeaderboardEntry], n: int) -> None:
        posts.append((season, list(entries), n))

    first = SeasonService(store, clock=Clock(JAN + timedelta(days=5)), post=post)
    await record(store, first, game(guild, JAN + timedelta(days=4), ((1, 1), (2, 2))))
    assert await first.dispatcher.run_due() == 0 and posts == []
    for _ in range(2):  # two starts after the end
        later = SeasonService(store, clock=Clock(FEB + timedelta(days=2)), post=post)
        await later.dispatcher.run_due()
    assert len(posts) == 1
    season, entries, n = posts[0]
    assert (season.starts_at, season.ends_at, season.channel_id, n) == (JAN, FEB, 77, 2)
    assert [(e.rank, e.user_id, e.name) for e in entries] == [(1, 1, "P1"), (2, 2, "P2")]
    assert not await store.claim_season_end(guild, JAN)


async def test_migration_13_gives_earlier_games_their_seasons(store_url: str | Path) -> None:
    """Games recorded before seasons existed: migrating gives each (server, month) its row,
    the channel of its latest game; months already over count as announced, the current one
    is announced at its end."""
    guild, now = next(_guilds), datetime.now(UTC)
    this_month = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    async with make_store(store_url) as store:
        seasons = SeasonService(store, clock=Clock(now))
        for when, channel in ((JAN + timedelta(days=3), 5), (JAN + timedelta(days=9), 6),
                              (this_month, 7)):  # fmt: skip
            await record(store, seasons, replace(game(guild, when, ((1, 1), (2, 2))),
                                                 channel_id=channel))  # fmt: skip
        async with store._write() as conn:  # type: ignore[attr-defined]
            # the database as schema 12 left it: no seasons yet
            await conn.execute("DROP TABLE seasons")
            await conn.execute("DROP INDEX games_guild_ended")
    await rerun_migration(store_url, 13)
    async with make_store(store_url) as store:
        rows = await store.season_rows(guild)
    assert [(r.starts_at, r.ends_at, r.length, r.channel_id, r.posted) for r in rows] == [
        (JAN, FEB, MONTH, 6, True),
        (this_month, next_end(this_month, MONTH), MONTH, 7, False),
    ]
