"""How strong the computer players are, measured by playing whole games:
``python benchmarks/bench_strength.py [GAMES] [OTHER_GAMES] [VARIANTS]``.

For the three headline pairs (strong vs easy, strong vs the pre-issue-12 player ``baseline``,
normal vs the plain ``greedy`` player) it plays GAMES games (default 500) of Rummy 51 1v1 and
OTHER_GAMES games (default 100) of every other variant and mode, swapping seats every other game,
on all cores. It prints each pair's win rate with its 95% Wilson interval, and the CPU time of
every engine computer turn (median and worst), which the bot needs to stay responsive.
VARIANTS (e.g. ``basic`` or ``r51,basic``) measures only those variants' rows.
Goals: strong beats easy in >= 75% and baseline in >= 60%, normal beats greedy in >= 97% (Rummy
51 1v1); a computer turn takes <= 20 ms median, <= 200 ms worst.
"""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from players import baseline, greedy

from bot.offline import GameRecord, Player, Tally, computer, play_game, seat_labels, wilson
from rummy_engine import Rules, Variant
from rummy_engine.ai import Strength

PAIRS = (("strong", "easy"), ("strong", "baseline"), ("normal", "greedy"))
TABLES = (
    (Variant.R51, 2),
    (Variant.R51, 4),
    (Variant.R71, 2),
    (Variant.R71, 4),
    (Variant.SIMPLE, 2),
    (Variant.SIMPLE, 4),
    (Variant.BASIC, 2),
    (Variant.BASIC, 4),
)
ENGINE = {s.value for s in Strength}


def _player(label: str) -> Player:
    if label in ENGINE:
        return computer(Strength(label))
    return {"baseline": baseline, "greedy": greedy}[label]


Job = tuple[str, int, tuple[str, str], int]


def _one(job: Job) -> tuple[Job, list[str], GameRecord]:
    """Play one game; turn times are kept only when every seat is an engine player."""
    variant, players, pair, i = job
    rules = Rules(Variant(variant), players)
    seats = seat_labels(rules, pair, swap=i % 2 == 1)
    record = play_game(rules, f"bench:{i}", [_player(label) for label in seats])
    if not all(label in ENGINE for label in pair):
        record.turn_seconds = []
    return job, seats, record


def _row(variant: str, players: int, pair: tuple[str, str], tally: Tally) -> str:
    wins = tally.wins.get(pair[0], 0)
    low, high = wilson(wins, tally.games)
    mode = ("1v1" if players == 2 else "2v2") if variant != "basic" else f"{players}p"
    return (
        f"| {variant:<6} | {mode:<3} | {pair[0]} vs {pair[1]:<8} | {tally.games:>5} | "
        f"{100 * wins / tally.games:5.1f}% | {100 * low:5.1f}-{100 * high:5.1f}% | "
        f"{tally.rounds / tally.games:5.1f} | {tally.unfinished} |"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    other = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    wanted = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else {v.value for v in Variant}
    tables = [(variant, players) for variant, players in TABLES if variant.value in wanted]
    jobs: list[Job] = [
        (variant.value, players, pair, i)
        for variant, players in tables
        for pair in PAIRS
        for i in range(games if (variant, players) == (Variant.R51, 2) else other)
    ]
    tallies: dict[tuple[str, int, tuple[str, str]], Tally] = {}
    started = time.time()
    with multiprocessing.Pool() as pool:
        for n, (job, seats, record) in enumerate(pool.imap_unordered(_one, jobs, chunksize=4), 1):
            variant, players, pair, _ = job
            tally = tallies.setdefault((variant, players, pair), Tally(pair))
            tally.add(record, seats)
            print(f"\r{n}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(
        f"\n{len(jobs)} games in {time.time() - started:.0f} s on {multiprocessing.cpu_count()} cores\n"
    )
    print(
        "| variant | mode | pair (first wins) | games | win rate | 95% Wilson | rounds | unfinished |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for variant, players in tables:
        for pair in PAIRS:
            print(_row(variant.value, players, pair, tallies[(variant.value, players, pair)]))
    times = sorted(t for tally in tallies.values() for t in tally.turn_seconds)
    print(
        f"\nCPU per engine computer turn (strong vs easy games): median "
        f"{1000 * statistics.median(times):.2f} ms, 99th percentile "
        f"{1000 * times[int(len(times) * 0.99)]:.1f} ms, worst {1000 * times[-1]:.1f} ms "
        f"over {len(times)} turns"
    )


if __name__ == "__main__":
    main()
