"""Does a long-running renderer draw what a fresh one draws, byte for byte? (issue 39)

One renderer draws a random mix of pictures (hands, tables of 0-24 melds, round ends), forgetting
its kept tables now and then as a quiet drawing process does; each picture is compared with a
fresh renderer's. A difference is reported with whether the pixels (palette indexes) differ too:
the same pixels in other bytes is the deflate choosing other matches. At ISA-L level 1 without
the first bytes deflated apart this showed up in one run in five to twelve of 200 pictures (a
hand or a table's band, the same pixels): ISA-L's first-byte bug, see ``bot/render/encode.py``:

    .venv/bin/python benchmarks/bench_deterministic.py [level] [runs] [pictures]

Each run is its own process (what differs is the state of a process, not a scene).
"""

from __future__ import annotations

import dataclasses
import io
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.render import examples
from bot.render.renderer import Renderer
from bot.render.scene import HandScene, Scene

ROOT = Path(__file__).resolve().parents[1]
DECK = examples.cards(
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks "
    "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc JK"
)


def random_scene(rng: random.Random) -> Scene:
    kind = rng.randrange(8)
    if kind == 0:
        hand = tuple(sorted(rng.sample(DECK, rng.randrange(16)), key=DECK.index))
        drawn = hand[0] if hand and rng.random() < 0.5 else None
        title = rng.choice(["Ann · 5 cards", "Bob", "Chloé · sorted", ""])
        return HandScene(hand, drawn, four_colour=rng.random() < 0.5, title=title)
    if kind == 1:
        return examples.hand_15(rng.random() < 0.5)
    if kind == 2:
        return examples.hand_small()
    if kind == 3:
        return examples.table(rng.randrange(25), rng.random() < 0.5)
    if kind == 4:
        return examples.round_end()
    if kind == 5:
        return examples.many_sides_table()
    if kind == 6:
        return examples.hand_by_melds()
    table = examples.table(rng.randrange(25))
    return dataclasses.replace(
        table,
        turn_name=rng.choice(["Ann", "Bob", None]),
        discard_count=rng.randrange(40),
        title=rng.choice(["T #1", "Rummy 51 2v2 · table #12"]),
    )


def indexes(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).tobytes()


def one_run(level: int, seed: int, pictures: int) -> int:
    """Differences in one process."""
    rng = random.Random(seed)
    renderer, differences = Renderer(compress_level=level), 0
    for i in range(pictures):
        if rng.random() < 0.1:
            renderer.forget_tables()
        scene = random_scene(rng)
        drawn, fresh = renderer.render(scene), Renderer(compress_level=level).render(scene)
        if drawn != fresh:
            differences += 1
            same = indexes(drawn) == indexes(fresh)
            print(f"  picture {i} ({type(scene).__name__}): {len(drawn)} / {len(fresh)} bytes, "
                  f"{'the same pixels' if same else 'other pixels'}")  # fmt: skip
    return differences


def main() -> int:
    numbers = [int(a) for a in sys.argv[1:] if a != "--one"] + [1, 10, 200][len(sys.argv) - 1 :]
    level, runs, pictures = numbers[:3]
    if "--one" in sys.argv:  # one run, in this process: ``runs`` is its seed
        return min(one_run(level, runs, pictures), 100)
    total = 0
    for seed in range(runs):
        done = subprocess.run(
            [sys.executable, __file__, str(level), str(seed), str(pictures), "--one"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        print(f"run {seed}: {done.returncode} differences\n{done.stdout}", end="", flush=True)
        total += done.returncode
    print(f"level {level}: {total} pictures differed in {runs} runs of {pictures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
