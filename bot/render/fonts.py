"""The one font the images use, shipped inside the package, never read from the system.

Why a shipped font: Pillow's built-in bitmap font has no ♠♥♦♣ glyphs and system fonts differ
between machines, which would make the golden-image tests machine-dependent. DejaVu Sans
Condensed Bold has the suit symbols and narrow digits (so "10" fits a card's corner).
The BASIC layout engine is forced so that the presence of libraqm does not change text shaping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import ImageFont

#: Package data (pyproject's ``package-data``), so a wheel install draws like a checkout.
FONT_PATH = Path(__file__).resolve().with_name("assets") / "DejaVuSansCondensed-Bold.ttf"


#: Label renderings kept by :meth:`Fonts.mask` (a few hundred are in use; each is a few KB).
MASKS_KEPT = 2048
#: A label rendering's key: pixel size, text, anchor, sub-pixel start.
MaskKey = tuple[int, str, str, tuple[float, float]]


class Fonts:
    """Font objects by pixel size, loaded once per size (FreeType loading costs ~1 ms)."""

    def __init__(self, path: Path = FONT_PATH) -> None:
        if not path.is_file():
            raise FileNotFoundError(f"render font missing: {path}")
        self._path = path
        self._by_size: dict[int, ImageFont.FreeTypeFont] = {}
        self._masks: dict[MaskKey, tuple[Any, tuple[int, int]]] = {}

    def get(self, size: int) -> ImageFont.FreeTypeFont:
        """The font at ``size`` pixels."""
        font = self._by_size.get(size)
        if font is None:
            font = ImageFont.truetype(str(self._path), size, layout_engine=ImageFont.Layout.BASIC)
            self._by_size[size] = font
        return font

    def mask(
        self, size: int, text: str, anchor: str, start: tuple[float, float]
    ) -> tuple[Any, tuple[int, int]]:
        """FreeType's rendering of one short label (its coverage mask and offset), kept.

        Why: the same labels (the numbers under a hand's cards, seat counts) are drawn in every
        picture, and rasterising them was a tenth of a picture's time. At most ``MASKS_KEPT``
        are kept; the cache starts again when full.
        """
        key = (size, text, anchor, start)
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            found = self.get(size).getmask2(text, "L", anchor=anchor, start=start)
            self._masks[key] = found
        return found
