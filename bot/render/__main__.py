"""Write the shipped PNG palette: ``python -m bot.render --palette``.

Why a command: after a deliberate change of colours the palette the renderer ships
(``encode.PALETTE_FILE``) must be computed again from the calibration scenes, in one line. The
documentation's pictures have their own command, ``python -m bot.gallery OUT_DIR``.
"""

from __future__ import annotations

import sys

from .encode import PALETTE_FILE, save_palette
from .renderer import Renderer


def write_palette() -> str:
    """The palette computed from the calibration scenes, where the renderer reads it."""
    save_palette(Renderer().calibrated_palette())
    return str(PALETTE_FILE)


if __name__ == "__main__":
    if sys.argv[1:] != ["--palette"]:
        print(
            "usage: python -m bot.render --palette (the pictures of docs/: "
            "python -m bot.gallery docs/images)",
            file=sys.stderr,
        )
        sys.exit(2)
    print(write_palette())
