"""What a season board costs: it is never stored, every request rates the season's games again.

Why: ``/rummy-stats leaderboard season:current`` and its page buttons read the server's rated games of
the range and fold them through openskill from scratch (:mod:`bot.features.seasons.service`), so the
answer's time grows with the games of one season of one server. This script records ``--games``
rated games of one month among ``--players`` players (duels and Basic tables of 3-4) through
the real SQLite store and recorder (``record_game`` with the live rater, then the seasons' note
of each game), then times:

* ``note``: the seasons' own work per recorded game (one read and one write; no Discord call);
* ``board``: one page of the season's board as the command builds it (read, replay, sort,
  names), median of ``--runs``;
* ``picture``: drawing the final standings (10 lines) and its size.

Run (about a minute on one core for the defaults):

    python benchmarks/bench_seasons.py [--games 3000] [--players 200] [--runs 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.features.seasons.service import SeasonService
from bot.features.stats.ratings import rate_game
from bot.render import Renderer
from bot.render.scene import StandingLine, StandingsScene
from bot.storage import SqliteStore
from bot.storage.base import ALL_VARIANTS, GamePlayerRecord, GameRecord

GUILD = 1_000
JAN = datetime(2026, 1, 1, tzinfo=UTC)


def a_game(table_id: int, users: list[int], when: datetime, rng: random.Random) -> GameRecord:
    places = [rng.randint(1, len(users)) for _ in users]
    players = tuple(
        GamePlayerRecord(
            seat=seat, user_id=user, is_computer=False, name=f"P{user}", side=seat,
            partner_id=None, place=place, won=place == min(places), forfeited=False, score=0,
            rounds=1, rounds_won=0, penalty_total=0, rami_sec=0, best_opening=0,
        )
        for seat, (user, place) in enumerate(zip(users, places, strict=True))
    )  # fmt: skip
    return GameRecord(
        table_id=table_id, guild_id=GUILD, channel_id=1, variant=rng.choice(["r51", "basic"]),
        mode="1v1" if len(users) == 2 else "basic", options_json="{}",
        winner_sides_json="[0]", scores_json="[]", rated=True,
        started_at=when - timedelta(minutes=20), ended_at=when, players=players,
    )  # fmt: skip


async def main(games: int, players: int, runs: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        async with SqliteStore(Path(folder) / "bench.db") as store:
            seasons = SeasonService(store, clock=lambda: JAN + timedelta(days=30))
            notes: list[float] = []
            for n in range(games):
                users = rng.sample(range(1, players + 1), rng.choice([2, 2, 3, 4]))
                when = JAN + timedelta(seconds=rng.randrange(30 * 86_400))
                game = a_game(n + 1, users, when, rng)
                await store.record_game(game, lambda current, g=game: rate_game(g, current))
                start = time.perf_counter()
                await seasons.note_game(game)
                notes.append(time.perf_counter() - start)
            season = await seasons.current(GUILD)
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                page = await seasons.page(season, family=ALL_VARIANTS, sort="rating", page=0,
                                          caller_id=1)  # fmt: skip
                times.append(time.perf_counter() - start)
            lines = [StandingLine(e.rank, e.name or "?", f"{e.rating:.0f}", e.games, e.wins)
                     for e in page.entries]  # fmt: skip
            scene = StandingsScene("Final standings of the season", "2026-01-01 – 2026-01-31",
                                   ("#", "Player", "Rating", "Games", "Wins"), tuple(lines))
            renderer = Renderer()
            start = time.perf_counter()
            png = renderer.render(scene)
            drawn = time.perf_counter() - start
    print(f"{games} rated games in one month among {players} players, {page.total} on the board")
    print(f"note:    median {statistics.median(notes) * 1e3:.2f} ms per recorded game")
    print(f"board:   median {statistics.median(times) * 1e3:.1f} ms, "
          f"max {max(times) * 1e3:.1f} ms over {runs} runs")  # fmt: skip
    print(f"picture: {drawn * 1e3:.1f} ms, {len(png):,} bytes")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.players, options.runs))
