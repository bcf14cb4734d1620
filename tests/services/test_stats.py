"""Statistics service on both stores (a real SQLite file, a real PostgreSQL database): recording,
ratings, leaderboard pages, stats; and two processes recording games at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.stats.service import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    NEWCOMER_RATING,
    FinishedGame,
    LeaderboardPage,
    StatsService,
    display_rating,
    side_places,
)
from bot.storage import NewTable, SeatRecord, Store, TableRecord, make_store
from bot.storage.base import LEADERBOARD_SORTS, LeaderboardSort
from rummy_engine import Card, Game, Outcome, Phase, Resign, RoundResult, Rules, Variant

GUILD_A = 111
GUILD_B = 222
START = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
async def store(store_url: str | Path) -> AsyncIterator[Store]:
    async with make_store(store_url) as opened:
        yield opened


@pytest.fixture
def service(store: Store) -> StatsService:
    return StatsService(store)


# -- building finished games with the engine ----------------------------------------------------


def finished_engine_game(
    variant: Variant,
    players: int,
    *,
    winners: Sequence[int],
    scores: Sequence[int],
    results: Sequence[RoundResult] = (),
) -> Game:
    """A real engine game forced into its final state (what the table service hands over)."""
    game = Game.new(Rules(variant, players), seed=1)
    game.phase = Phase.GAME_OVER
    game.winners = list(winners)
    game.scores = list(scores)
    game.results = list(results)
    return game


_counter = iter(range(1, 1_000_000))


def finished(
    users: Sequence[int | None],
    *,
    variant: Variant = Variant.R51,
    winners: Sequence[int] = (0,),
    scores: Sequence[int] | None = None,
    guild_id: int = GUILD_A,
    results: Sequence[RoundResult] = (),
    forfeits: frozenset[int] = frozenset(),
    openings: dict[int, int] | None = None,
    names: dict[int, str] | None = None,
) -> FinishedGame:
    """A finished game with one seat per entry of *users* (``None`` = computer seat)."""
    players = len(users)
    rules = Rules(variant, players)
    if scores is None:
        scores = [0 if side in winners else 300 for side in range(rules.sides)]
    game = finished_engine_game(variant, players, winners=winners, scores=scores, results=results)
    table_id = next(_counter)
    seats = tuple(
        SeatRecord(
            seat=seat,
            user_id=user,
            is_computer=user is None,
            name=(names or {}).get(user) if user is not None else "Computer",
        )
        for seat, user in enumerate(users)
    )
    return FinishedGame(
        table_id=table_id,
        guild_id=guild_id,
        channel_id=9,
        mode="2v2" if rules.teams else ("basic" if variant is Variant.BASIC else "1v1"),
        options_json="{}",
        seats=seats,
        game=game,
        started_at=START + timedelta(minutes=table_id),
        ended_at=START + timedelta(minutes=table_id, seconds=30),
        forfeits=forfeits,
        best_openings=openings or {},
    )


async def stats_of(store: Store, scope: int, user: int, family: str = "r51"):
    rows = {r.family: r for r in await store.get_player_stats(scope, user)}
    return rows.get(family)


async def all_pages(
    service: StatsService, scope: int, family: str, sort: LeaderboardSort
) -> list[int]:
    """User ids of every page, in order, by following ``has_next``."""
    users: list[int] = []
    page_no = 0
    while True:
        page = await service.leaderboard(scope=scope, family=family, sort=sort, page=page_no)
        users += [e.user_id for e in page.entries]
        if not page.has_next:
            return users
        page_no += 1


async def seed_players(service: StatsService, users: Sequence[int]) -> None:
    """Give every user one recorded game: pairs play 1v1 (first wins), an odd one out plays
    a 3-player Basic game with the last pair's players."""
    pairs = list(users)
    trio: list[int] = []
    if len(pairs) % 2:
        trio = pairs[-3:]
        pairs = pairs[:-3]
    for a, b in zip(pairs[0::2], pairs[1::2], strict=True):
        await service.record(finished([a, b]))
    if trio:
        await service.record(
            finished(trio, variant=Variant.BASIC, winners=(0,), scores=[30, 10, 0])
        )


# -- recording and ratings ------------------------------------------------------------------------


async def test_2v2_result_updates_both_partners_equally(
    service: StatsService, store: Store
) -> None:
    # seats 0 and 2 (users 1, 3) are side 0 and win; users 2 and 4 lose.
    game = finished([1, 2, 3, 4], winners=(0,), scores=[120, 360])
    assert await service.record(game) is not None
    for scope in (GUILD_A, GLOBAL_SCOPE):
        for family in ("r51", ALL_VARIANTS):
            rows = [await stats_of(store, scope, user, family) for user in (1, 2, 3, 4)]
            w1, l1, w2, l2 = rows
            assert w1 and w2 and l1 and l2
            assert (w1.mu, w1.sigma) == (w2.mu, w2.sigma)
            assert (l1.mu, l1.sigma) == (l2.mu, l2.sigma)
            assert w1.mu > 25.0 > l1.mu
            assert w1.rating == pytest.approx(display_rating(w1.mu, w1.sigma))
            assert [r.rated_games for r in rows] == [1, 1, 1, 1]
            assert [r.wins for r in rows] == [1, 0, 1, 0]
    record = await store.get_game_record(game.table_id)
    assert record is not None and record.rated
    partners = {p.user_id: p.partner_id for p in record.players}
    assert partners == {1: 3, 2: 4, 3: 1, 4: 2}
    assert [p.place for p in record.players] == [1, 2, 1, 2]


async def test_recording_is_idempotent_per_table(service: StatsService, store: Store) -> None:
    game = finished([1, 2])
    assert await service.record(game) is not None
    first = await stats_of(store, GUILD_A, 1)
    assert await service.record(game) is None  # a retried callback
    again = await stats_of(store, GUILD_A, 1)
    assert first == again and again is not None and again.games == 1


async def test_computer_game_is_recorded_but_not_rated(
    service: StatsService, store: Store
) -> None:
    game = finished([1, None], winners=(0,))
    assert await service.record(game) is not None
    record = await store.get_game_record(game.table_id)
    assert record is not None and not record.rated
    assert [p.is_computer for p in record.players] == [False, True]
    row = await stats_of(store, GUILD_A, 1)
    assert row is not None
    assert (row.games, row.wins, row.rated_games) == (1, 1, 0)
    assert row.rating is None and row.mu is None
    assert await store.rating_history(GUILD_A, "r51", 1, 10) == []
    # the computer has no leaderboard row at all
    page = await service.leaderboard(scope=GUILD_A, family="r51", sort="wins", page=0)
    assert [e.user_id for e in page.entries] == [1]


async def test_a_rated_game_after_a_computer_game_rates_from_the_default(
    service: StatsService, store: Store
) -> None:
    await service.record(finished([1, None]))
    await service.record(finished([1, 2], winners=(1,)))
    row = await stats_of(store, GUILD_A, 1)
    assert row is not None and (row.games, row.wins, row.rated_games) == (2, 1, 1)
    (change,) = await store.rating_history(GUILD_A, "r51", 1, 10)
    assert change.before is None and change.after < NEWCOMER_RATING


@dataclass(frozen=True)
class TableStub:
    """The shape of the lead's ``Table`` (record, seats, game): what the callback receives."""

    record: TableRecord
    seats: tuple[SeatRecord, ...]
    game: Game | None


async def test_forfeit_from_the_move_log_is_a_loss(
    service: StatsService, store: Store
) -> None:
    """Seat 0 resigns mid-game (the engine's Resign, as the table service commits it)."""
    table = await store.create_table(NewTable(GUILD_A, 5, 1, "r51", "1v1"))
    seats = (SeatRecord(0, 1, name="Ann"), SeatRecord(1, 2, name="Bob"))
    await store.set_seats(table.id, seats)
    game = Game.new(Rules(Variant.R51, 2), seed=3)
    start = {"type": "start_game", "genesis": game.genesis()}
    version = await store.commit_move(table.id, 0, 1, json.dumps(start), "[]", "{}")
    events = game.apply(Resign(0))
    await store.commit_move(
        table.id,
        version,
        1,
        json.dumps({"type": "resign", "seat": 0}),
        json.dumps([e.to_json() for e in events]),
        json.dumps(game.to_json()),
        status="finished",
    )
    record = await store.get_table(table.id)
    assert record is not None
    game_id = await service.on_game_finished(TableStub(record, seats, game))
    assert game_id is not None
    stored = await store.get_game_record(table.id)
    assert stored is not None and stored.rated
    quitter, stayer = stored.players
    assert (quitter.forfeited, quitter.won, quitter.place) == (True, False, 2)
    assert (stayer.forfeited, stayer.won, stayer.place) == (False, True, 1)
    assert stored.started_at <= stored.ended_at
    q, s = await stats_of(store, GUILD_A, 1), await stats_of(store, GUILD_A, 2)
    assert q and s and q.rating is not None and s.rating is not None
    assert q.rating < NEWCOMER_RATING < s.rating
    assert (q.wins, q.streak, s.wins, s.streak) == (0, 0, 1, 1)
    # the callback again (a retry) records nothing
    assert await service.on_game_finished(TableStub(record, seats, game)) is None


def test_basic_forfeit_ranks_last_even_with_the_best_score() -> None:
    game = Game.new(Rules(Variant.BASIC, 3), seed=2)
    game.scores = [50, 10, 0]
    game.apply(Resign(0))  # the engine excludes seat 0 from the winners
    assert game.winners == [1]
    assert side_places(game, frozenset({0})) == [3, 1, 2]


def test_basic_equal_scores_share_a_place() -> None:
    game = finished_engine_game(Variant.BASIC, 4, winners=[1, 2], scores=[5, 40, 40, 5])
    assert side_places(game, frozenset()) == [3, 1, 1, 3]


# -- leaderboard pages -----------------------------------------------------------------------------


async def test_empty_leaderboard(service: StatsService) -> None:
    page = await service.leaderboard(
        scope=GUILD_A, family="r51", sort="rating", page=3, caller_id=1
    )
    assert page.entries == () and page.total == 0
    assert (page.page, page.page_count, page.has_previous, page.has_next) == (0, 1, False, False)
    assert page.caller is None


async def test_exactly_ten_players_fit_one_page(service: StatsService) -> None:
    await seed_players(service, range(1, 11))
    page = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=0)
    assert len(page.entries) == 10 and page.total == 10
    assert (page.page_count, page.has_previous, page.has_next) == (1, False, False)
    assert [e.rank for e in page.entries] == list(range(1, 11))
    beyond = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=1)
    assert beyond.page == 0 and beyond.entries == page.entries  # clamped, never empty


async def test_eleven_players_make_a_second_page_of_one(service: StatsService) -> None:
    await seed_players(service, range(1, 12))
    first = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=0)
    last = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=1)
    assert (first.page_count, first.has_next, first.has_previous) == (2, True, False)
    assert (last.page, last.has_next, last.has_previous) == (1, False, True)
    assert len(last.entries) == 1 and last.entries[0].rank == 11
    ids = [e.user_id for e in first.entries + last.entries]
    assert sorted(ids) == list(range(1, 12))
    far = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=99)
    assert far.page == 1 and far.entries == last.entries
    negative = await service.leaderboard(scope=GUILD_A, family=ALL_VARIANTS, sort="wins", page=-4)
    assert negative.page == 0


@pytest.mark.parametrize("sort", ["rating", "wins", "win_rate"])
async def test_callers_position_off_the_page_matches_the_full_order(
    service: StatsService, sort: LeaderboardSort
) -> None:
    users = list(range(100, 125))
    await seed_players(service, users)
    # make a few records uneven so the orders differ between sorts
    await service.record(finished([100, 102], winners=(1,)))
    await service.record(finished([104, 124, 110, 112], winners=(0,)))
    order = await all_pages(service, GUILD_A, "r51", sort)
    for caller in (order[-1], order[13], order[0]):
        page = await service.leaderboard(
            scope=GUILD_A, family="r51", sort=sort, page=0, caller_id=caller
        )
        assert page.caller is not None and page.caller.user_id == caller
        assert page.caller.rank == order.index(caller) + 1
        assert page.caller_on_page == (order.index(caller) < 10)


async def test_unrated_players_rank_after_rated_ones(service: StatsService) -> None:
    await service.record(finished([5, 6], winners=(1,)))
    await service.record(finished([9, None]))  # computer games only: no rating
    await service.record(finished([1, None]))
    assert await all_pages(service, GUILD_A, "r51", "rating") == [6, 5, 1, 9]
    for caller, rank in ((6, 1), (5, 2), (1, 3), (9, 4)):
        page = await service.leaderboard(
            scope=GUILD_A, family="r51", sort="rating", page=0, caller_id=caller
        )
        assert page.caller is not None and page.caller.rank == rank
        assert page.caller.rating is None if caller in (1, 9) else page.caller.rating


async def test_caller_without_games_has_no_position(service: StatsService) -> None:
    await seed_players(service, [1, 2])
    page = await service.leaderboard(
        scope=GUILD_A, family="r51", sort="rating", page=0, caller_id=999
    )
    assert page.caller is None and [e.user_id for e in page.entries] == [1, 2]


async def test_server_and_global_scope(service: StatsService, store: Store) -> None:
    await service.record(finished([1, 2], guild_id=GUILD_A, winners=(0,)))
    await service.record(finished([1, 3], guild_id=GUILD_B, winners=(0,)))
    server_a = await all_pages(service, GUILD_A, "r51", "rating")
    server_b = await all_pages(service, GUILD_B, "r51", "rating")
    world = await all_pages(service, GLOBAL_SCOPE, "r51", "rating")
    assert sorted(server_a) == [1, 2] and sorted(server_b) == [1, 3]
    assert sorted(world) == [1, 2, 3] and world[0] == 1
    a, b, g = [await stats_of(store, s, 1) for s in (GUILD_A, GUILD_B, GLOBAL_SCOPE)]
    assert a and b and g
    assert (a.games, b.games, g.games) == (1, 1, 2)
    assert (a.rated_games, b.rated_games, g.rated_games) == (1, 1, 2)
    # the global rating was updated from both servers' games: two wins beat one
    assert g.rating is not None and a.rating is not None and g.rating > a.rating


async def test_ties_are_broken_by_user_id_and_stable(service: StatsService) -> None:
    # identical results for every player: all tie on every sort key
    for a, b in [(50, 7), (30, 12), (41, 3)]:
        await service.record(finished([a, b, b + 1000, a + 1000], winners=(0,)))
    for sort in LEADERBOARD_SORTS:
        first = await all_pages(service, GUILD_A, "r51", sort)
        again = await all_pages(service, GUILD_A, "r51", sort)
        assert first == again
        winners = [u for u in first if u in (50, 30, 41, 1050, 1030, 1041)]
        assert winners == sorted(winners)
        assert first[:6] == sorted(first[:6]) and first[6:] == sorted(first[6:])


async def test_win_rate_ties_prefer_more_games(service: StatsService) -> None:
    await service.record(finished([1, 2], winners=(0,)))  # 1: 1/1
    await service.record(finished([3, 4], winners=(0,)))
    await service.record(finished([3, 4], winners=(0,)))  # 3: 2/2
    order = await all_pages(service, GUILD_A, "r51", "win_rate")
    assert order[:2] == [3, 1]


# -- player statistics -----------------------------------------------------------------------------


def atlas_round(
    round_no: int, winner: int | None, outcome: Outcome, penalties: Sequence[int]
) -> RoundResult:
    hands = tuple(() for _ in penalties)
    return RoundResult(round_no, winner, outcome, hands, tuple(penalties), (0, 0), (0, 0))


async def test_player_stats_per_variant(service: StatsService, store: Store) -> None:
    rounds = [
        atlas_round(1, 0, Outcome.RAMI_SEC, [0, 40, 0, 30]),
        atlas_round(2, None, Outcome.VOID, [0, 0, 0, 0]),  # void: not a round for averages
        atlas_round(3, 1, Outcome.OUT, [20, 0, 10, 0]),
    ]
    await service.record(
        finished([1, 2, 3, 4], winners=(0,), results=rounds, openings={0: 57, 2: 62})
    )
    await service.record(finished([1, 5, 3, 6], winners=(0,), openings={0: 81}))
    await service.record(finished([1, 7, 8, 9], winners=(1,)))
    await service.record(finished([1, 2], variant=Variant.R71, winners=(0,)))
    await service.record(finished([1, None], variant=Variant.SIMPLE, winners=(0,)))

    rows = {s.family: s for s in await service.player_stats(scope=GUILD_A, user_id=1)}
    assert list(rows) == ["r51", "r71", "simple", ALL_VARIANTS]
    r51 = rows["r51"]
    assert (r51.games, r51.wins, r51.rated_games) == (3, 2, 3)
    assert r51.win_rate == pytest.approx(2 / 3)
    assert r51.best_opening == 81 and r51.rami_sec == 1
    assert r51.average_penalty == pytest.approx(20 / 2)  # 0 in round 1, 20 in round 3
    assert r51.best_streak == 2
    assert r51.favourite_partner == (3, 2)
    assert r51.provisional and r51.rating is not None
    history = await store.rating_history(GUILD_A, "r51", 1, 10)
    assert r51.trend == pytest.approx(history[0].after - NEWCOMER_RATING)
    assert rows["simple"].rating is None and rows["simple"].games == 1  # computer game
    everything = rows[ALL_VARIANTS]
    assert (everything.games, everything.wins, everything.best_streak) == (5, 4, 2)
    assert everything.rated_games == 4
    partner_of_3 = {s.family: s for s in await service.player_stats(scope=GUILD_A, user_id=3)}
    assert partner_of_3["r51"].favourite_partner == (1, 2)


async def test_basic_penalty_is_the_hand_left_to_the_winner(service: StatsService) -> None:
    hand = (Card.from_key("Kh.0"), Card.from_key("5s.0"))  # 10 + 5
    result = RoundResult(
        1, 0, Outcome.BASIC_RUMMY, ((), hand, ()), (0, 0, 0), (30, 0, 0), (30, 0, 0)
    )
    await service.record(
        finished(
            [1, 2, 3], variant=Variant.BASIC, winners=(0,), scores=[30, 0, 0], results=[result]
        )
    )
    (winner,) = [
        s for s in await service.player_stats(scope=GUILD_A, user_id=1) if s.family == "basic"
    ]
    (loser,) = [
        s for s in await service.player_stats(scope=GUILD_A, user_id=2) if s.family == "basic"
    ]
    assert winner.rami_sec == 1 and winner.average_penalty == 0
    assert loser.average_penalty == 15


async def test_provisional_until_ten_rated_games(service: StatsService) -> None:
    for _ in range(9):
        await service.record(finished([1, 2]))
    page = await service.leaderboard(scope=GUILD_A, family="r51", sort="rating", page=0)
    assert all(e.provisional for e in page.entries)
    await service.record(finished([1, 2]))
    page = await service.leaderboard(scope=GUILD_A, family="r51", sort="rating", page=0)
    assert [e.provisional for e in page.entries] == [False, False]
    assert [e.rated_games for e in page.entries] == [10, 10]


async def test_leaderboard_names_come_from_the_latest_seat(service: StatsService) -> None:
    await service.record(finished([1, 2], names={1: "Old name", 2: "Bea"}))
    await service.record(finished([1, 2], names={1: "Ann"}))
    page: LeaderboardPage = await service.leaderboard(
        scope=GLOBAL_SCOPE, family="r51", sort="wins", page=0
    )
    assert {e.user_id: e.name for e in page.entries} == {1: "Ann", 2: "Bea"}


# -- option parsing of the Discord handlers ---------------------------------------------------------


def test_option_parsing() -> None:
    from bot.features.stats.ui.answers import parse_family, parse_sort, resolve_scope

    assert parse_family(None) == ALL_VARIANTS
    assert (parse_family("51"), parse_family("R71"), parse_family("basic")) == (
        "r51",
        "r71",
        "basic",
    )
    with pytest.raises(ValueError):
        parse_family("poker")
    assert (parse_sort("win rate"), parse_sort("wins")) == ("win_rate", "wins")
    with pytest.raises(ValueError):
        parse_sort("elo")
    assert resolve_scope("server", GUILD_A) == GUILD_A
    assert resolve_scope("server", None) == GLOBAL_SCOPE  # a DM has no server
    assert resolve_scope("global", GUILD_A) == GLOBAL_SCOPE
    with pytest.raises(ValueError):
        resolve_scope("galaxy", GUILD_A)


# -- several processes ---------------------------------------------------------------------------


async def test_two_processes_recording_at_once_lose_no_game_and_no_rating(
    store_url: str | Path,
) -> None:
    """Two bot processes (two stores on one database) record games of the same players at once:
    every counter counts every game, every rating update builds on the one before it (the
    rating history chains), and a game recorded by both counts once."""
    games = [finished([1, 2], winners=(n % 2,)) for n in range(12)]
    async with make_store(store_url) as first, make_store(store_url) as second:
        services = [StatsService(first), StatsService(second)]
        ids = await asyncio.gather(
            *(services[n % 2].record(game) for n, game in enumerate(games)),
            *(services[1].record(game) for game in games[:3]),  # retried by the other process
        )
        assert sum(1 for game_id in ids if game_id is not None) == len(games)
        for user in (1, 2):
            row = await stats_of(first, GUILD_A, user)
            assert row is not None
            assert (row.games, row.wins, row.rated_games) == (12, 6, 12)
            history = await first.rating_history(GUILD_A, "r51", user, 100)
            assert len(history) == 12
            # Commit order, not id order: each update starts from the rating the previous left.
            by_before = {change.before: change for change in history}
            assert len(by_before) == 12, "two updates started from the same rating"
            rating, chain = None, 0
            while rating in by_before:
                rating, chain = by_before[rating].after, chain + 1
            assert chain == 12 and rating == row.rating
