"""Small drawing helpers shared by the hand, table and round-end images.

Why: text that is measured, truncated and centred the same way everywhere makes the three images
look like one product, and keeps the per-image modules about layout rather than Pillow details.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rummy_engine.cards import Face

from .fonts import Fonts
from .theme import BLACK, CARD_EDGE, CARD_FACE, GOLD, RGB, TEXT, CardSize, suit_colour

ELLIPSIS = "…"


def text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    """Advance width of ``text`` in pixels."""
    return round(font.getlength(text))


def fit(font: ImageFont.FreeTypeFont, text: str, max_width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits ``max_width`` (long Discord names)."""
    if text_width(font, text) <= max_width:
        return text
    while text and text_width(font, text + ELLIPSIS) > max_width:
        text = text[:-1]
    return text + ELLIPSIS if text else ""


def fit_size(fonts: Fonts, text: str, max_width: int, sizes: tuple[int, ...]) -> int:
    """The biggest of ``sizes`` (biggest first) at which ``text`` fits whole in ``max_width``,
    else the smallest: for a line that must never be shortened (a title with its round)."""
    for size in sizes:
        if text_width(fonts.get(size), text) <= max_width:
            return size
    return sizes[-1]


@dataclass(frozen=True)
class Text:
    """One line of text placed in a picture, with the room it may use.

    Why a value: the pictures decide where every word goes before drawing it, so a test can
    measure each line with the real font against its ``box`` (left, top, right, bottom) and
    see that nothing spills over a neighbour or the edge.
    """

    text: str
    size: int
    xy: tuple[float, float]
    anchor: str
    box: tuple[int, int, int, int]
    fill: RGB

    def origin(self, fonts: Fonts) -> tuple[float, float]:
        """Where it is drawn: ``xy``, moved right just enough that a first glyph whose ink
        reaches left of its origin (ʝ, ƒ in a player's name) stays in the box."""
        left = fonts.get(self.size).getbbox(self.text, anchor=self.anchor)[0]
        x, y = self.xy
        return (max(x, self.box[0] - left), y)

    def bbox(self, fonts: Fonts) -> tuple[float, float, float, float]:
        """Where the text's ink and advance lie, measured with the font it is drawn in."""
        left, top, right, bottom = fonts.get(self.size).getbbox(self.text, anchor=self.anchor)
        x, y = self.origin(fonts)
        return (x + left, y + top, x + right, y + bottom)


def draw_texts(
    draw: ImageDraw.ImageDraw, fonts: Fonts, texts: list[Text], *, kept: bool = True
) -> None:
    """Draw placed lines (see :func:`label_text` for ``kept``)."""
    for item in texts:
        xy = item.origin(fonts)
        label_text(draw, fonts, item.size, xy, item.text, item.fill, item.anchor, kept=kept)


def readable_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour`` (badges in team colours)."""
    r, g, b = colour
    return BLACK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else TEXT


def badge(
    draw: ImageDraw.ImageDraw,
    fonts: Fonts,
    centre: tuple[int, int],
    radius: int,
    text: str,
    colour: RGB,
) -> None:
    """A round number badge (meld numbers) in a team colour with a thin dark ring."""
    cx, cy = centre
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=BLACK, width=2
    )
    size = int(radius * (1.3 if len(text) < 2 else 1.1))
    draw.text((cx, cy + 1), text, font=fonts.get(size), fill=readable_on(colour), anchor="mm")


def pill(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    fill: RGB,
    outline: RGB | None = None,
    width: int = 2,
) -> None:
    """A rounded label background."""
    radius = (box[3] - box[1]) // 2
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def label_text(
    draw: ImageDraw.ImageDraw,
    fonts: Fonts,
    size: int,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    anchor: str,
    *,
    kept: bool = True,
) -> None:
    """``draw.text`` for one line of a label drawn again and again, from :meth:`Fonts.mask`:
    the same pixels (same mask, same position, same blending) without rasterising it again.
    ``kept=False`` rasterises without keeping (a label in a band that is itself kept)."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    if kept:
        mask, (dx, dy) = fonts.mask(size, text, anchor, start)
    else:
        mask, (dx, dy) = fonts.get(size).getmask2(text, "L", anchor=anchor, start=start)
    blit(draw, (int(x) + dx, int(y) + dy), mask, fill)


def blit(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mask: Any, fill: RGB) -> None:
    """A FreeType coverage ``mask`` blended in ``fill`` with its top left at ``xy``: what
    ``draw.text`` does once the text is rasterised."""
    draw.draw.draw_bitmap(xy, mask, draw.draw.draw_ink(fill))


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA sprite with its own alpha as the mask."""
    canvas.paste(sprite, xy, sprite)


def marker(
    draw: ImageDraw.ImageDraw,
    centre_x: int,
    bottom: int,
    width: int,
    fill: RGB | int = GOLD,
    outline: RGB | int = BLACK,
) -> None:
    """A gold down-pointing triangle (the card just drawn, whose turn it is); ``fill`` and
    ``outline`` are palette indexes on an indexed canvas."""
    half = width // 2
    draw.polygon(
        [
            (centre_x - half, bottom - width * 2 // 3),
            (centre_x + half, bottom - width * 2 // 3),
            (centre_x, bottom),
        ],
        fill=fill,
        outline=outline,
    )


def joker_label_px(size: CardSize) -> int:
    """Font size of the "=7♦" joker label for a card size (never below 18 px: it must read)."""
    return max(18, size.rank_px * 3 // 4)


def stands_for_label(
    draw: ImageDraw.ImageDraw,
    fonts: Fonts,
    centre_x: int,
    top: int,
    face: Face,
    size: CardSize,
    four_colour: bool,
) -> int:
    """The small "=7♦" pill under a joker telling what it stands for; returns its bottom.

    The text is the engine's own card name (``Face.pretty``), e.g. "6?" for a joker in a set
    whose missing suit is not fixed yet.
    """
    font = fonts.get(joker_label_px(size))
    text = "=" + face.pretty
    width = text_width(font, text) + 10
    height = int(font.size) + 6
    box = (centre_x - width // 2, top, centre_x - width // 2 + width, top + height)
    pill(draw, box, CARD_FACE, CARD_EDGE, 1)
    draw.text(
        (centre_x, top + height // 2 + 1),
        text,
        font=font,
        fill=suit_colour(face.suit, four_colour),
        anchor="mm",
    )
    return box[3]
