"""Render speed and PNG size: the figures behind the issue's budget and the PNG encoder choice.

Budget: a 15-card hand under 10 ms median, a 20-meld table under 30 ms median, every PNG under
150 KB. Run it as a script (prints medians, sizes, and the encoder comparison):

    .venv/bin/python benchmarks/bench_render.py

or through pytest-benchmark (``.venv/bin/python -m pytest benchmarks/bench_render.py``).
Timings are steady state: the renderer's sprites and palette are built before timing, as they
are in the running bot after its first image.
"""

from __future__ import annotations

import functools
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.render import Renderer, TableScene, examples
from bot.render.encode import mapped, palette_png, to_png
from bot.render.scene import Scene

BUDGET_MS = {"hand_15": 10.0, "table_20": 30.0}
MAX_BYTES = 150 * 1024

SCENES: dict[str, Callable[[], Scene]] = {
    "hand_15": examples.hand_15,
    "hand_15_four_colour": lambda: examples.hand_15(four_colour=True),
    "table_20": lambda: examples.table(20),
    "table_24": lambda: examples.table(24),
    "round_end": examples.round_end,
}


def pillow_png(indexed: Image.Image, level: int) -> bytes:
    """The same palette image written by Pillow's zlib encoder, to compare with ISA-L."""
    out = io.BytesIO()
    indexed.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def first_render(renderer: Renderer, scene: Scene) -> bytes:
    """A render with no band kept from an earlier one."""
    renderer.forget_bands()
    return renderer.render(scene)


def median_ms(fn: Callable[[], object], repeat: int = 60) -> float:
    """Median wall time of ``fn`` in milliseconds, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    warm = time.perf_counter()
    renderer = Renderer()
    renderer.palette()
    print(f"first use (sprites + palette): {(time.perf_counter() - warm) * 1000:.0f} ms\n")
    failures = []
    print("compose: the RGB picture; total: the PNG as the bot makes it (a hand in palette")
    print("indexes; a table with its melds band new, and kept as between two turns)\n")
    print(f"{'scene':22} {'size':>10} {'compose':>9} {'total':>9} {'kept':>9} {'png':>8}")
    for name, make in SCENES.items():
        scene = make()
        image = renderer.image(scene)
        png = renderer.render(scene)
        compose = median_ms(functools.partial(renderer.image, scene))
        total = median_ms(functools.partial(first_render, renderer, scene))
        kept = median_ms(functools.partial(renderer.render, scene))
        size = f"{image.width}x{image.height}"
        shown = f"{kept:7.2f}ms" if isinstance(scene, TableScene) else f"{'':9}"
        print(
            f"{name:22} {size:>10} {compose:7.2f}ms {total:7.2f}ms {shown} {len(png) / 1024:6.1f}KB"
        )
        if name in BUDGET_MS and total > BUDGET_MS[name]:
            failures.append(f"{name}: {total:.1f} ms > {BUDGET_MS[name]} ms")
        if len(png) > MAX_BYTES:
            failures.append(f"{name}: {len(png)} bytes > {MAX_BYTES}")

    print("\nPNG encoding of the 24-meld table (composition excluded):")
    print(f"{'encoder':32} {'level':>5} {'encode':>9} {'png':>8}")
    image = renderer.image(examples.table(24))
    palette = renderer.palette()
    assert palette is not None
    indexed = mapped(image, palette)
    rgb_ms = median_ms(functools.partial(to_png, image, None), repeat=15)
    print(f"{'RGB, Pillow zlib':32} {6:5} {rgb_ms:7.2f}ms {len(to_png(image, None)) / 1024:6.1f}KB")
    for level in (1, 3, 6):
        png = pillow_png(indexed, level)
        ms = median_ms(functools.partial(pillow_png, indexed, level), repeat=15)
        print(
            f"{'128-colour palette, Pillow zlib':32} {level:5} {ms:7.2f}ms {len(png) / 1024:6.1f}KB"
        )
    for level in (0, 1, 2, 3):
        png = palette_png(indexed, level)
        ms = median_ms(functools.partial(palette_png, indexed, level), repeat=15)
        print(f"{'128-colour palette, ISA-L':32} {level:5} {ms:7.2f}ms {len(png) / 1024:6.1f}KB")
    print(
        f"\nchosen: fixed palette, ISA-L level {renderer.compress_level} (see bot/render/encode.py)."
    )
    if failures:
        print("\nOVER BUDGET:\n  " + "\n  ".join(failures))
        return 1
    print("\nall within budget")
    return 0


# -- pytest-benchmark entry points -----------------------------------------------------------

_RENDERER: list[Renderer] = []


def _renderer() -> Renderer:
    if not _RENDERER:
        _RENDERER.append(Renderer())
        _RENDERER[0].palette()
    return _RENDERER[0]


def test_bench_hand_15(benchmark: Any) -> None:
    png = benchmark(_renderer().render, examples.hand_15())
    assert len(png) < MAX_BYTES


def test_bench_table_20(benchmark: Any) -> None:
    png = benchmark(_renderer().render, examples.table(20))
    assert len(png) < MAX_BYTES


def test_bench_round_end(benchmark: Any) -> None:
    png = benchmark(_renderer().render, examples.round_end())
    assert len(png) < MAX_BYTES


if __name__ == "__main__":
    raise SystemExit(main())
