"""Write the README example images: ``python -m bot.render [directory]`` (default docs/images);
``python -m bot.render --palette`` writes the shipped PNG palette instead.

Why a command: the pictures in the README must come from the real renderer, and regenerating
them after a deliberate change of appearance should be one line, like the golden images.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import examples
from .encode import PALETTE_FILE, save_palette
from .renderer import Renderer


def write_docs_images(directory: Path) -> list[Path]:
    """A 15-card hand (10♠ just drawn) and a 12-meld 2v2 table with jokers."""
    renderer = Renderer()
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, scene in (("hand.png", examples.hand_15()), ("table.png", examples.table(12))):
        path = directory / name
        path.write_bytes(renderer.render(scene))
        written.append(path)
    return written


def write_palette() -> Path:
    """The palette computed from the calibration scenes, where the renderer reads it."""
    save_palette(Renderer().calibrated_palette())
    return PALETTE_FILE


if __name__ == "__main__":
    if sys.argv[1:] == ["--palette"]:
        print(write_palette())
    else:
        for path in write_docs_images(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
            print(path)
