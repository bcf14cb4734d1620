"""The one font the images use, loaded from the repository, never from the system.

Why a shipped font: Pillow's built-in bitmap font has no ♠♥♦♣ glyphs and system fonts differ
between machines, which would make the golden-image tests machine-dependent. DejaVu Sans
Condensed Bold has the suit symbols and narrow digits (so "10" fits a card's corner).
The BASIC layout engine is forced so that the presence of libraqm does not change text shaping.
"""

from __future__ import annotations

from pathlib import Path

from PIL import ImageFont

FONT_PATH = (
    Path(__file__).resolve().parents[2] / "assets" / "fonts" / "DejaVuSansCondensed-Bold.ttf"
)


class Fonts:
    """Font objects by pixel size, loaded once per size (FreeType loading costs ~1 ms)."""

    def __init__(self, path: Path = FONT_PATH) -> None:
        if not path.is_file():
            raise FileNotFoundError(f"render font missing: {path}")
        self._path = path
        self._by_size: dict[int, ImageFont.FreeTypeFont] = {}

    def get(self, size: int) -> ImageFont.FreeTypeFont:
        """The font at ``size`` pixels."""
        font = self._by_size.get(size)
        if font is None:
            font = ImageFont.truetype(str(self._path), size, layout_engine=ImageFont.Layout.BASIC)
            self._by_size[size] = font
        return font
