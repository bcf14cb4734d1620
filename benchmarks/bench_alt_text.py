"""What a picture's alt text costs: every table, hand and round-end draft describes its scene
(``bot/services/alt_text.py``), at every move, beside a move's ~4 ms of CPU.

Run it as a script (prints medians in microseconds and the descriptions' lengths):

    .venv/bin/python benchmarks/bench_alt_text.py

or through pytest-benchmark (``.venv/bin/python -m pytest benchmarks/bench_alt_text.py``).
"Warm" is the bot's steady state (a meld's sentences cached since the last move); "cold"
clears that cache before each description, as for a table seen for the first time.
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import examples
from bot.render.scene import Scene
from bot.services import alt_text

SCENES: dict[str, Callable[[], Scene]] = {
    "table_5": examples.table,
    "table_20": lambda: examples.table(20),
    "basic_6_seats": examples.many_sides_table,
    "hand_15": examples.hand_15,
    "hand_by_melds": examples.hand_by_melds,
    "round_end": examples.round_end,
}


def median_us(fn: Callable[[], object], *, cold: bool, repeat: int = 400) -> float:
    """Median wall time of ``fn`` in microseconds, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        if cold:
            alt_text.meld_forms.cache_clear()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    print(f"{'scene':<16}{'locale':<8}{'warm µs':>9}{'cold µs':>9}{'chars':>7}")
    for name, make in SCENES.items():
        scene = make()
        for locale in ("en", "fr"):
            describe = functools.partial(alt_text.describe, scene, locale)
            warm = median_us(describe, cold=False)
            cold = median_us(describe, cold=True)
            print(f"{name:<16}{locale:<8}{warm:>9.0f}{cold:>9.0f}{len(describe()):>7}")


# -- pytest-benchmark entry points -----------------------------------------------------------


def test_bench_table_20(benchmark: Any) -> None:
    told = benchmark(alt_text.describe, examples.table(20), "fr")
    assert len(told) <= alt_text.ALT_LIMIT


def test_bench_hand_15(benchmark: Any) -> None:
    told = benchmark(alt_text.describe, examples.hand_15(), "fr")
    assert len(told) <= alt_text.ALT_LIMIT


def test_bench_round_end(benchmark: Any) -> None:
    told = benchmark(alt_text.describe, examples.round_end(), "fr")
    assert len(told) <= alt_text.ALT_LIMIT


if __name__ == "__main__":
    main()
