"""Chart speed and size: the score chart of a game's end and the rating chart of /rummy-stats player.

Budget (issue 26): every chart at most 30 KB and 20 ms to draw (median, PNG bytes included).
Run it as a script; it prints the median wall and CPU time and the PNG size of each chart:

    .venv/bin/python benchmarks/bench_charts.py

Timings are steady state, as in a drawing process after its first picture (fonts and palette
loaded).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import Renderer
from bot.render.scene import ChartScene, ChartSeries

BUDGET_MS = 20.0
MAX_BYTES = 30 * 1024
NAMES = ("Alice", "Bartholomew", "Chloé", "Dmitri", "Eve", "Farouk")


def totals(sides: int, rounds: int, most: int, seed: int = 1) -> tuple[ChartSeries, ...]:
    rng = random.Random(seed)
    out = []
    for side in range(sides):
        values = [0]
        for _ in range(rounds):
            values.append(values[-1] + rng.randint(0, most))
        out.append(ChartSeries(NAMES[side], tuple(values), side))
    return tuple(out)


def ratings(families: int, games: int) -> tuple[ChartSeries, ...]:
    rng = random.Random(2)
    out = []
    for family in range(families):
        value, values = 1000, []
        for _ in range(games):
            value += rng.randint(-30, 35)
            values.append(value)
        out.append(ChartSeries(("Rummy 51", "All variants")[family], tuple(values), family))
    return tuple(out)


SCENES: dict[str, Callable[[], ChartScene]] = {
    "score, 1v1 Rummy 51, 9 rounds": lambda: ChartScene(
        "Scores by round · Rummy 51 1v1 · table #12", totals(2, 9, 45), 0, 251
    ),
    "score, 2v2 Rummy 71, 14 rounds": lambda: ChartScene(
        "Scores by round · Rummy 71 2v2 · table #7",
        tuple(
            ChartSeries(name, s.values, s.colour_index)
            for name, s in zip(
                ("Alice & Chloé", "Bartholomew & Dmitri"), totals(2, 14, 40), strict=True
            )
        ),
        0,
        451,
    ),
    "score, Basic 6 players, 40 rounds": lambda: ChartScene(
        "Scores by round · Basic rummy 6 players · table #3", totals(6, 40, 30)
    ),
    "rating, 2 lines of 50 games": lambda: ChartScene("Rating of Alice", ratings(2, 50), x_start=1),
}


def medians(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn`` after one warm-up call."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60, help="timed draws per chart")
    args = parser.parse_args()
    renderer = Renderer()
    renderer.palette()
    over = False
    print(f"{'chart':38} {'wall ms':>8} {'CPU ms':>7} {'PNG KB':>7}")
    for name, make in SCENES.items():
        scene = make()
        size = len(renderer.render(scene))
        wall, cpu = medians(lambda s=scene: renderer.render(s), args.repeat)
        fits = cpu <= BUDGET_MS and size <= MAX_BYTES
        over |= not fits
        print(f"{name:38} {wall:8.2f} {cpu:7.2f} {size / 1024:7.1f} {'ok' if fits else 'OVER'}")
    print(f"budget: {BUDGET_MS:.0f} ms, {MAX_BYTES // 1024} KB per chart")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
