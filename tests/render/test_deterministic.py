"""The same scene gives the same PNG bytes in any drawing process, whatever its memory held
before (issue 39: a drawing process that had given its memory back was once seen drawing a hand
that differed from the same hand drawn before).

Why these memory states: a picture that depended on memory the drawing never wrote (a buffer
of Pillow's, FreeType's or ISA-L's read before it is filled) would change with what the
allocator hands out. glibc's ``MALLOC_PERTURB_=n`` fills every block it hands out with the
complement of ``n`` and every block freed with ``n``, so processes started with different values
(and none) differ in exactly that memory; giving memory back (``bot.memory.release_memory``)
and churning the heap with garbage changes it again inside one process. Every picture is drawn
for real, by the project's drawing processes and renderer, and compared byte for byte.

What this does not catch every run: ISA-L level 1 choosing other matches for the same rows, seen
only once in a while in a long-running process drawing hundreds of varied pictures (see
``bot/render/encode.py``, which is why the encoder uses level 0).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.memory import release_memory
from bot.render import examples
from bot.render.drawing import ProcessDrawer
from bot.render.renderer import Renderer
from bot.render.scene import Scene

ROOT = Path(__file__).resolve().parents[2]
#: glibc ``MALLOC_PERTURB_`` values the drawing processes are started with (None: unset).
PERTURBS = (None, "85", "170")


def scenes() -> list[Scene]:
    """A big and a small hand, the biggest table and a round's end: every kind of encoding
    (a hand in palette indexes, a table's three bands deflated apart, a whole RGB picture)."""
    return [examples.hand_15(), examples.hand_small(), examples.table(24), examples.round_end()]


def churn_the_heap() -> None:
    """Fill freed memory with garbage: large and small blocks of two patterns, then freed."""
    garbage = [bytes([0xA5]) * (1 << 20) for _ in range(16)]
    garbage += [bytes([0x5A]) * 4096 for _ in range(1024)]
    del garbage
    gc.collect()


async def test_drawing_processes_draw_the_same_bytes_whatever_their_memory_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three drawing processes whose allocator hands out differently filled memory each draw
    the scenes, give their memory back and draw them again: the bytes are this process's."""
    expected = [Renderer().render(scene) for scene in scenes()]
    for perturb in PERTURBS:
        if perturb is None:
            monkeypatch.delenv("MALLOC_PERTURB_", raising=False)
        else:
            monkeypatch.setenv("MALLOC_PERTURB_", perturb)
        drawer = ProcessDrawer(1)
        try:
            first = [await drawer.png(scene) for scene in scenes()]
            await drawer.release()
            again = [await drawer.png(scene) for scene in scenes()]
        finally:
            await drawer.close()
        assert first == expected, f"MALLOC_PERTURB_={perturb}: first pictures differ"
        assert again == expected, f"MALLOC_PERTURB_={perturb}: after giving memory back"


def test_a_renderer_draws_the_same_bytes_after_garbage_and_giving_memory_back() -> None:
    """In one process: what the renderer kept forgotten, the heap filled with garbage and
    given back, twice; the pictures come out the same each time."""
    renderer = Renderer()
    drawn = [renderer.render(scene) for scene in scenes()]
    for _ in range(2):
        renderer.forget_tables()
        churn_the_heap()
        release_memory()
        assert [renderer.render(scene) for scene in scenes()] == drawn


ENCODE_AT_EVERY_LEVEL = """
import hashlib, json
from bot.render import examples
from bot.render.encode import palette_png
from bot.render.renderer import Renderer
renderer = Renderer()
tiles = renderer._tiles_of(renderer.palette())
indexed = [tiles.indexed(renderer.image(s)) for s in (examples.hand_15(), examples.table(24))]
print(json.dumps({level: [hashlib.sha256(palette_png(i, level)).hexdigest() for i in indexed]
                  for level in (0, 1, 2, 3)}))
"""


def test_every_deflate_level_gives_the_same_bytes_whatever_the_memory_held() -> None:
    """ISA-L at each of its levels, in fresh processes whose allocator hands out differently
    filled memory: the same pictures deflate to the same bytes (the level in use, and the
    others one might choose)."""
    outputs = []
    for perturb in PERTURBS:
        env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
        if perturb is not None:
            env["MALLOC_PERTURB_"] = perturb
        run = subprocess.run(
            [sys.executable, "-c", ENCODE_AT_EVERY_LEVEL],
            env=env,
            cwd=ROOT,  # this checkout's code, not another the environment points to
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        outputs.append(json.loads(run.stdout))
    assert outputs[0] == outputs[1] == outputs[2]
