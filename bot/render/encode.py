"""PNG encoding: map to one fixed palette of few colours, then zlib at a measured level.

Why a fixed palette: the images are flat colours plus anti-aliased edges, so 128 colours are
visually lossless here and cut the PNG to about a third of its RGB size (a 24-meld table is
~175 KB as RGB, ~50 KB as a palette image). Computing a palette per image (octree) costs ~8 ms
for a big table; mapping onto a palette computed once from :func:`calibration_sheet` costs ~1 ms
and makes identical scenes give byte-identical files. ``benchmarks/bench_render.py`` measured the
compression levels; see ``COMPRESS_LEVEL``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

PALETTE_COLOURS = 128
#: The palette of PALETTE_COLOURS colours computed from the calibration scenes, shipped so that a
#: drawing process starts at once: computing it takes ~0.65 s and briefly ~60 MB (the stacked
#: scenes). ``python -m bot.render --palette`` writes it; a test checks it is still what the
#: renderer computes.
PALETTE_FILE = Path(__file__).with_name("palette.json")
#: zlib level, measured on the palette images of bot.render.examples (issue 11, 2-core machine):
#: 15-card hand 6: 19 KB / 3.5 ms, 3: 23 KB / 1.2 ms, 1: 25 KB / 1.0 ms; 20-meld table
#: 6: 46 KB / 6.7 ms, 3: 55 KB / 3.0 ms, 1: 62 KB / 2.5 ms (Z_RLE: 82 KB / 2.4 ms).
#: Every move draws two pictures, so 3 is chosen: 20 % bigger files for half the encoding time,
#: where encoding was the biggest part of a move's CPU under load.
COMPRESS_LEVEL = 3


def calibration_sheet(images: Sequence[Image.Image]) -> Image.Image:
    """The given renders stacked into one RGB image, to compute the shared palette from."""
    width = max(image.width for image in images)
    sheet = Image.new("RGB", (width, sum(image.height for image in images)))
    y = 0
    for image in images:
        sheet.paste(image, (0, y))
        y += image.height
    return sheet


def build_palette(sheet: Image.Image, colours: int = PALETTE_COLOURS) -> Image.Image:
    """A 'P' image carrying the palette (octree: it keeps rare but vivid colours like badges)."""
    return sheet.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def to_png(
    image: Image.Image,
    palette: Image.Image | None = None,
    compress_level: int = COMPRESS_LEVEL,
) -> bytes:
    """PNG bytes of ``image``, mapped onto ``palette`` without dithering (None keeps RGB)."""
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def palette_from(colours: Sequence[int]) -> Image.Image:
    """A 'P' image carrying ``colours`` (flat r, g, b values), to map pictures onto."""
    image = Image.new("P", (1, 1))
    image.putpalette(list(colours))
    return image


def load_palette(path: Path = PALETTE_FILE) -> Image.Image | None:
    """The shipped palette, or None when there is none (a fresh checkout before writing it)."""
    try:
        colours = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return palette_from(colours)


def save_palette(palette: Image.Image, path: Path = PALETTE_FILE) -> None:
    colours = palette.getpalette() or []
    path.write_text(json.dumps(colours) + "\n", encoding="utf-8")
