"""How fast is a leaderboard page with 100,000 players and 1,000,000 recorded games?

Why: the leaderboard must stay interactive as a bot's history grows. This script builds a
database of that size through the real schema (migrations of ``SqliteStore``), then times
``StatsService.leaderboard`` — what a command or a page button runs: the player count, one
page of 10 rows, the caller's position and the players' names — through the real async store.

The build writes ``games``, ``game_players`` (one row per seat) and the aggregated
``player_stats`` rows (server and global scope, per variant and ``all``) in one transaction
with ``PRAGMA synchronous=OFF`` (build only), dropping the indexes first and recreating them
from the migration's own SQL afterwards (faster than keeping them up to date row by row).
Ratings are synthetic (drawn from each player's win rate) rather than replayed through
openskill: the timing of a query does not depend on how the numbers were computed.
``rating_history`` and ``game_rounds`` stay empty: no leaderboard query reads them.

Run (a few minutes on 2 cores; the temp file is about 0.5 GB):

    python benchmarks/bench_leaderboard.py [--players 100000] [--games 1000000] [--runs 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.features.stats.service import PAGE_SIZE, StatsService, display_rating
from bot.storage import SqliteStore
from bot.storage.base import ALL_VARIANTS, GLOBAL_SCOPE, LEADERBOARD_SORTS, LeaderboardSort

VARIANTS = ("simple", "r51", "r71", "basic")
BIG_GUILD = 1_000
GUILDS = 200
USER_BASE = 300_000_000_000_000_000  # snowflake-sized ids, as Discord's
STAT_TABLES = ("games", "game_players", "player_stats")


# -- build --------------------------------------------------------------------------------------


def rosters(players: int, rng: random.Random) -> dict[int, list[int]]:
    """Players by home server: one big server with 30% of everyone, the rest spread out."""
    users = [USER_BASE + n for n in range(players)]
    rng.shuffle(users)
    big = int(players * 0.3)
    guilds: dict[int, list[int]] = {BIG_GUILD: users[:big]}
    for index, user in enumerate(users[big:]):
        guilds.setdefault(BIG_GUILD + 1 + index % (GUILDS - 1), []).append(user)
    return guilds


def seat_plan(variant: str, rng: random.Random) -> tuple[str, int]:
    """(mode, seats) with a realistic mix: mostly 1v1, some 2v2, Basic for 2-6."""
    if variant == "basic":
        return "basic", rng.choice((2, 3, 3, 4, 4, 5, 6))
    return ("2v2", 4) if rng.random() < 0.3 else ("1v1", 2)


def generate_games(
    games: int, guilds: dict[int, list[int]], rng: random.Random
) -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]:
    """Yield (games row, game_players rows) for each game, ids 1..games."""
    guild_ids = list(guilds)
    weights = [len(guilds[g]) for g in guild_ids]
    picks = rng.choices(guild_ids, weights=weights, k=games)
    for game_id, guild in enumerate(picks, start=1):
        variant = rng.choice(VARIANTS)
        mode, seats = seat_plan(variant, rng)
        users = rng.sample(guilds[guild], seats)
        sides = 2 if mode != "basic" else seats
        winner = rng.randrange(sides)
        stamp = f"2025-01-01T00:00:00+00:00#{game_id}"
        game_row = (
            game_id,
            game_id,
            guild,
            1,
            variant,
            mode,
            "{}",
            seats,
            f"[{winner}]",
            "[]",
            1,
            stamp,
            stamp,
        )
        player_rows = []
        for seat, user in enumerate(users):
            side = seat % 2 if mode == "2v2" else seat
            won = int(side == winner)
            partner = users[(seat + 2) % 4] if mode == "2v2" else None
            player_rows.append(
                (
                    game_id,
                    seat,
                    user,
                    0,
                    f"P{user % 100000}",
                    side,
                    partner,
                    2 - won,
                    won,
                    0,
                    0,
                    5,
                    won,
                    60,
                    0,
                    0,
                )
            )
        yield game_row, player_rows


def build(path: Path, players: int, games: int, seed: int) -> None:
    """Fill *path* (already migrated) with the games and their aggregates."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA foreign_keys = OFF")
    marks = ", ".join("?" for _ in STAT_TABLES)
    indexes = conn.execute(
        f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
        f"AND tbl_name IN ({marks})",
        STAT_TABLES,
    ).fetchall()
    conn.execute("BEGIN")
    for name, _ in indexes:
        conn.execute(f"DROP INDEX {name}")
    totals: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0, 0])
    game_batch: list[tuple[Any, ...]] = []
    player_batch: list[tuple[Any, ...]] = []
    for game_row, player_rows in generate_games(games, rosters(players, rng), rng):
        game_batch.append(game_row)
        player_batch.extend(player_rows)
        guild, variant = game_row[2], game_row[4]
        for row in player_rows:
            user, won = row[2], row[8]
            for key in (
                (guild, variant, user), (guild, ALL_VARIANTS, user),
                (GLOBAL_SCOPE, variant, user), (GLOBAL_SCOPE, ALL_VARIANTS, user),
            ):  # fmt: skip
                counters = totals[key]
                counters[0] += 1
                counters[1] += won
        if len(game_batch) >= 50_000:
            flush(conn, game_batch, player_batch)
    flush(conn, game_batch, player_batch)
    conn.executemany(
        "INSERT INTO player_stats (scope, family, user_id, games, wins, win_rate, rated_games, "
        "mu, sigma, rating, rounds, penalty_total, streak, best_streak) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (stats_row(key, counters, rng) for key, counters in totals.items()),
    )
    for _, sql in indexes:
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def flush(
    conn: sqlite3.Connection,
    game_batch: list[tuple[Any, ...]],
    player_batch: list[tuple[Any, ...]],
) -> None:
    conn.executemany(
        "INSERT INTO games (id, table_id, guild_id, channel_id, variant, mode, options, players, "
        "winner_sides, scores, rated, started_at, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_batch,
    )
    conn.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, is_computer, name, side, partner_id, "
        "place, won, forfeited, score, rounds, rounds_won, penalty_total, rami_sec, "
        "best_opening) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        player_batch,
    )
    game_batch.clear()
    player_batch.clear()


def stats_row(
    key: tuple[int, str, int], counters: list[int], rng: random.Random
) -> tuple[Any, ...]:
    """A plausible rating for the counters: mu follows the win rate, sigma shrinks with games."""
    games, wins = counters
    mu = 25.0 + 12.0 * (wins / games - 0.5) + rng.gauss(0, 1)
    sigma = max(1.0, (25.0 / 3.0) / (1.0 + games / 8.0) ** 0.5)
    return (
        *key, games, wins, wins / games, games, mu, sigma, display_rating(mu, sigma),
        games * 5, games * 60, 0, wins,
    )  # fmt: skip


# -- timing -------------------------------------------------------------------------------------


async def timed(runs: int, query: Callable[[], Awaitable[object]]) -> list[float]:
    """Milliseconds of *runs* calls, after two warm-up calls."""
    for _ in range(2):
        await query()
    latencies = []
    for _ in range(runs):
        started = time.perf_counter()
        await query()
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def summary(name: str, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return (
        f"{name:<46} median={statistics.median(ordered):7.2f} ms  p95={p95:7.2f} ms  "
        f"max={ordered[-1]:7.2f} ms"
    )


async def bottom_player(store: SqliteStore, scope: int, sort: LeaderboardSort) -> int:
    """The last-ranked player: the worst case for the caller's position (counts everyone)."""
    size = await store.leaderboard_size(scope, ALL_VARIANTS)
    (row,) = await store.leaderboard_page(scope, ALL_VARIANTS, sort, size - 1, 1)
    return row.user_id


def page_query(
    service: StatsService,
    scope: int,
    family: str,
    sort: LeaderboardSort,
    page: int,
    caller: int | None = None,
) -> Callable[[], Awaitable[object]]:
    """One leaderboard request, as a command or a page button makes it."""
    return partial(
        service.leaderboard, scope=scope, family=family, sort=sort, page=page, caller_id=caller
    )


async def measure(path: Path, runs: int) -> list[tuple[str, list[float]]]:
    results: list[tuple[str, list[float]]] = []
    async with SqliteStore(path) as store:
        service = StatsService(store)
        for scope, label in ((BIG_GUILD, "server"), (GLOBAL_SCOPE, "global")):
            size = await store.leaderboard_size(scope, ALL_VARIANTS)
            deep = (size // PAGE_SIZE) // 2
            for sort in LEADERBOARD_SORTS:
                caller = await bottom_player(store, scope, sort)
                cases = {
                    f"{label} {sort} page 1": (0, None),
                    f"{label} {sort} page 1 + caller ranked {size}": (0, caller),
                    f"{label} {sort} deep page {deep + 1}": (deep, None),
                }
                for name, (page, who) in cases.items():
                    query = page_query(service, scope, ALL_VARIANTS, sort, page, who)
                    results.append((name, await timed(runs, query)))
            family_size = await store.leaderboard_size(scope, "r51")
            query = page_query(service, scope, "r51", "rating", 0)
            results.append(
                (f"{label} r51 rating page 1 ({family_size} players)", await timed(runs, query))
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=None, help="where the temp file goes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".bench-leaderboard-") as tmp:
        path = Path(tmp) / "bench.db"
        asyncio.run(migrate(path))
        started = time.perf_counter()
        build(path, args.players, args.games, args.seed)
        built = time.perf_counter() - started
        with sqlite3.connect(path) as conn:
            counts = {
                table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in STAT_TABLES
            }
        print(
            f"build: {built:.1f} s for {args.players} players, {counts['games']} games, "
            f"{counts['game_players']} player rows, {counts['player_stats']} player_stats rows "
            f"({path.stat().st_size / 1e6:.0f} MB)"
        )
        print(f"timings over {args.runs} runs each (StatsService.leaderboard, real async store):")
        for name, latencies in asyncio.run(measure(path, args.runs)):
            print(summary(name, latencies))


async def migrate(path: Path) -> None:
    async with SqliteStore(path):
        pass


if __name__ == "__main__":
    main()
