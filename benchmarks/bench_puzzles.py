"""The puzzle of the day: what generating one costs, and whether a year of them holds.

Budget (issue 40): a day's puzzle ≤ 2 s of CPU, off the event loop; over 365 generated days per
kind, 0 puzzles without a verified answer and 0 duplicates. This script generates ``--days``
days of each kind for one server, one after the other as the bot would (each day's ``seen`` is
the keys of the days before, so a repeat is skipped), from simulated games only (a server with
no finished games of its own: the slow case). For each kind it prints the CPU time per day
(median, 99th percentile, largest), the games simulated, how many days have an answer the
engine judges right (its own solution), how many repeat an earlier position, and how many fell
back to a safe-discard puzzle (their kind hid too long, see bot/features/puzzles/daily.py). Run:

    python benchmarks/bench_puzzles.py [--days 365] [--guild 1]

It exits 1 when a budget is missed. About 12 minutes on one core for the defaults.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.features.puzzles.daily import ROTATION, day_puzzle
from rummy_engine.ai.puzzles import Puzzle, PuzzleKind, judge

BUDGET_SECONDS = 2.0
FIRST_DAY = date(2027, 1, 1)


def solved_by_own_solution(puzzle: Puzzle) -> bool:
    """The engine judges the puzzle's own solution right (a verified answer)."""
    if puzzle.kind is PuzzleKind.OPENING:
        best = puzzle.best
        if best is None or not hasattr(best, "melds"):
            return False
        return judge(puzzle, [c.face for m in best.melds for c in m.cards]).right
    return bool(puzzle.answers) and all(judge(puzzle, [f]).right for f in puzzle.answers)


def run_kind(kind: PuzzleKind, days: int, guild: int) -> tuple[list[float], int, int, int]:
    """CPU seconds per day, days without a verified answer, duplicates, days that fell back
    to another kind."""
    times: list[float] = []
    seen: list[str] = []
    unverified = fell_back = 0
    day = FIRST_DAY
    while ROTATION[day.toordinal() % len(ROTATION)] is not kind:
        day += timedelta(days=1)
    for _ in range(days):
        started = time.process_time()
        puzzle = day_puzzle(day, guild_id=guild, seen=seen).puzzle
        times.append(time.process_time() - started)
        fell_back += puzzle.kind is not kind
        unverified += not solved_by_own_solution(puzzle)
        seen.append(puzzle.key)
        day += timedelta(days=len(ROTATION))
    return times, unverified, len(seen) - len(set(seen)), fell_back


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--guild", type=int, default=1)
    args = parser.parse_args()
    missed = False
    print(
        f"{'kind':14} {'days':>5} {'median':>8} {'p99':>8} {'max':>8} {'unverified':>11} "
        f"{'repeats':>8} {'fell back':>10}"
    )
    for kind in ROTATION:
        times, unverified, repeats, fell_back = run_kind(kind, args.days, args.guild)
        p99 = statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]
        print(
            f"{kind.value:14} {len(times):5d} {statistics.median(times):7.2f}s {p99:7.2f}s "
            f"{max(times):7.2f}s {unverified:11d} {repeats:8d} {fell_back:10d}",
            flush=True,
        )
        missed |= max(times) > BUDGET_SECONDS or unverified > 0 or repeats > 0
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
