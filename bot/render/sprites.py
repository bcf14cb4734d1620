"""Card faces and backs, drawn once per (card, size, colour scheme) and reused.

Why sprites: drawing a card means several anti-aliased glyphs at 3× size and a down-sample;
that is far too slow to repeat for every card of every image (a 15-card hand must render in
under 10 ms). A :class:`CardSprites` instance owns its cache explicitly (held by the
``Renderer``), so there is no hidden module-level state and tests can use a fresh one.

Design ("jumbo index", as phone card games do): rank above suit in the top-left corner, centred
in the strip that stays visible when cards overlap, and a large suit symbol in the bottom-right
for the one card whose face shows in full. Jokers are purple on cream with gold stars.
"""

from __future__ import annotations

import math
import threading

from PIL import Image, ImageDraw, ImageFont

from rummy_engine.cards import RANK_TEXT, Card, Face, Suit

from .fonts import Fonts
from .theme import (
    BACK,
    BACK_LINE,
    CARD_EDGE,
    CARD_FACE,
    GOLD,
    JOKER_FACE,
    JOKER_INK,
    RGB,
    CardSize,
    suit_colour,
)

SS = 3  # supersampling factor: draw at 3x, then down-sample, for smooth edges and glyphs
JOKER_STAR = "★"


def _ink_origin(
    font: ImageFont.FreeTypeFont, text: str, centre_x: float, top: float
) -> tuple[float, float]:
    """Text origin (left, baseline) that puts the *ink* of ``text`` centred at ``centre_x``
    with its top at ``top``; font metrics alone would misplace glyphs of different heights."""
    left, ink_top, right, _ = font.getbbox(text, anchor="ls")
    return centre_x - (left + right) / 2, top - ink_top


def _draw_centred(
    draw: ImageDraw.ImageDraw,
    font: ImageFont.FreeTypeFont,
    text: str,
    centre_x: float,
    top: float,
    fill: RGB,
    tracking: float = 0.0,
) -> float:
    """Draw ``text`` with its ink centred at ``centre_x`` from ``top``; returns the ink bottom.

    ``tracking`` (pixels, may be negative) tightens letters so "10" and "JK" fit the strip.
    """
    if len(text) == 1 or tracking == 0:
        x, y = _ink_origin(font, text, centre_x, top)
        draw.text((x, y), text, font=font, fill=fill, anchor="ls")
        return top + (font.getbbox(text, anchor="ls")[3] - font.getbbox(text, anchor="ls")[1])
    boxes = [font.getbbox(ch, anchor="ls") for ch in text]
    widths = [b[2] - b[0] for b in boxes]
    total = sum(widths) + tracking * (len(text) - 1)
    ink_top = min(b[1] for b in boxes)
    ink_bottom = max(b[3] for b in boxes)
    x = centre_x - total / 2
    for ch, box, width in zip(text, boxes, widths, strict=True):
        draw.text((x - box[0], top - ink_top), ch, font=font, fill=fill, anchor="ls")
        x += width + tracking
    return top + ink_bottom - ink_top


def _star(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, fill: RGB, outline: RGB
) -> None:
    """A five-pointed star as a polygon (crisper than a glyph, and the same on every machine)."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy - r * math.sin(angle)))
    draw.polygon(points, fill=fill, outline=outline, width=max(1, int(radius / 8)))


#: How far apart the stock's backs lie, which is how thick the pile looks.
STOCK_DEPTH = 4


class CardSprites:
    """Cache of card images (RGBA, transparent outside the rounded corners).

    Thread-safe: the renderer runs in worker threads, and FreeType faces must not be used by
    two threads at once, so drawing a missing sprite happens under a lock.
    """

    def __init__(self, fonts: Fonts) -> None:
        self._fonts = fonts
        self._cache: dict[tuple[object, ...], Image.Image] = {}
        self._lock = threading.Lock()

    def face(
        self, card: Card | Face, size: CardSize, four_colour: bool, width: int | None = None
    ) -> Image.Image:
        """The face of ``card`` at ``size``; the copy number of a physical card is ignored.

        ``width`` keeps only the left part of it, for a card the next one of a fan covers:
        pasting what shows instead of the whole card was a third of a hand's drawing time.
        """
        colour = four_colour and card.suit is not None
        if width is not None and width < size.width:
            key: tuple[object, ...] = ("strip", card.rank, card.suit, size, colour, width)
            strip = self._cache.get(key)
            if strip is None:
                strip = self.face(card, size, four_colour).crop((0, 0, width, size.height))
                self._cache[key] = strip
            return strip
        key = ("face", card.rank, card.suit, size, colour)
        sprite = self._cache.get(key)
        if sprite is None:
            with self._lock:
                sprite = self._cache.get(key)
                if sprite is None:
                    sprite = self._draw_face(card.rank, card.suit, size, four_colour)
                    self._cache[key] = sprite
        return sprite

    def back(self, size: CardSize) -> Image.Image:
        """The back of a card (the stock)."""
        key = ("back", size)
        sprite = self._cache.get(key)
        if sprite is None:
            with self._lock:
                sprite = self._cache.get(key)
                if sprite is None:
                    sprite = self._draw_back(size)
                    self._cache[key] = sprite
        return sprite

    def stock(self, size: CardSize, felt: RGB) -> Image.Image:
        """The stock pile, three backs a little apart, composited once over ``felt`` (RGB, no
        alpha): pasting the backs through their alpha was a fifth of a table's drawing."""
        key = ("stock", size, felt)
        pile = self._cache.get(key)
        if pile is None:
            back = self.back(size)
            pile = Image.new("RGB", (size.width + STOCK_DEPTH, size.height + STOCK_DEPTH), felt)
            for depth in (STOCK_DEPTH, STOCK_DEPTH // 2, 0):
                pile.paste(back, (depth, depth), back)
            self._cache[key] = pile
        return pile

    def __len__(self) -> int:
        return len(self._cache)

    # -- drawing ---------------------------------------------------------------------------

    @staticmethod
    def _blank(size: CardSize, fill: RGB, edge: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        image = Image.new("RGBA", (size.width * SS, size.height * SS), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle(
            (0, 0, size.width * SS - 1, size.height * SS - 1),
            radius=size.radius * SS,
            fill=fill,
            outline=edge,
            width=max(2, SS * 3 // 2),
        )
        return image, draw

    @staticmethod
    def _finish(image: Image.Image, size: CardSize) -> Image.Image:
        return image.resize((size.width, size.height), Image.Resampling.LANCZOS)

    def _draw_face(
        self, rank: int, suit: Suit | None, size: CardSize, four_colour: bool
    ) -> Image.Image:
        joker = suit is None
        ink = JOKER_INK if joker else suit_colour(suit, four_colour)
        image, draw = self._blank(size, JOKER_FACE if joker else CARD_FACE, CARD_EDGE)
        rank_text = "JK" if joker else RANK_TEXT[rank]
        symbol = JOKER_STAR if joker else suit.symbol  # type: ignore[union-attr]
        centre = size.step * SS / 2 + SS
        bottom = self._index(
            draw,
            size.rank_px,
            size.suit_px,
            rank_text,
            symbol,
            ink,
            centre,
            size.height * SS * 0.045,
        )
        # A big symbol low in the same strip: every card of a fan shows its suit as a large
        # colour shape, and nothing half-hidden peeks out between groups.
        pip_w = (size.step - 9) * SS
        pip_top = bottom + (size.height * SS - bottom - pip_w) * 0.45
        if joker:
            _star(draw, centre, pip_top + pip_w / 2, pip_w / 2, GOLD, JOKER_INK)
        else:
            big = self._fonts.get(int(pip_w / 0.78))
            _draw_centred(draw, big, symbol, centre, pip_top, ink)
        if size.width >= 100:
            # A small index in the far corner, for the one card of a fan seen whole. Upright,
            # not upside down as on paper cards: a turned 9 reads as 6 in a picture. It sits
            # right of the widest gap between groups, so it never peeks out between cards.
            mini_centre = size.width * SS - size.step * SS * 0.3 - 2 * SS
            mini_h = (size.rank_px + size.suit_px) // 2 * SS * 0.95
            self._index(
                draw,
                size.rank_px // 2,
                size.suit_px // 2,
                rank_text,
                symbol,
                ink,
                mini_centre,
                size.height * SS * 0.955 - mini_h,
            )
        return self._finish(image, size)

    def _index(
        self,
        draw: ImageDraw.ImageDraw,
        rank_px: int,
        suit_px: int,
        rank_text: str,
        symbol: str,
        ink: RGB,
        centre: float,
        top: float,
    ) -> float:
        """Rank above suit, centred on ``centre``; returns the bottom of the suit's ink."""
        rank_font = self._fonts.get(rank_px * SS)
        tracking = -rank_px * SS * 0.07 if len(rank_text) > 1 else 0.0
        bottom = _draw_centred(draw, rank_font, rank_text, centre, top, ink, tracking)
        gap = rank_px * SS * 0.12
        if symbol == JOKER_STAR:
            radius = suit_px * SS * 0.4
            _star(draw, centre, bottom + gap + radius, radius, ink, ink)
            return bottom + gap + 2 * radius
        return _draw_centred(draw, self._fonts.get(suit_px * SS), symbol, centre, bottom + gap, ink)

    def _draw_back(self, size: CardSize) -> Image.Image:
        image, draw = self._blank(size, BACK, CARD_EDGE)
        inset = 5 * SS
        w, h = size.width * SS, size.height * SS
        draw.rounded_rectangle(
            (inset, inset, w - inset - 1, h - inset - 1),
            radius=max(1, size.radius * SS - inset // 2),
            outline=BACK_LINE,
            width=SS * 2,
        )
        step = 12 * SS
        for offset in range(-h, w + h, step):
            draw.line((offset, inset, offset + h, inset + h), fill=BACK_LINE, width=SS)
            draw.line((offset + h, inset, offset, inset + h), fill=BACK_LINE, width=SS)
        # Cut the lattice back to the inner frame so the outer border stays clean.
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (inset, inset, w - inset - 1, h - inset - 1),
            radius=max(1, size.radius * SS - inset // 2),
            fill=255,
        )
        plain, _ = self._blank(size, BACK, CARD_EDGE)
        ImageDraw.Draw(plain).rounded_rectangle(
            (inset, inset, w - inset - 1, h - inset - 1),
            radius=max(1, size.radius * SS - inset // 2),
            outline=BACK_LINE,
            width=SS * 2,
        )
        plain.paste(image, (0, 0), mask)
        return self._finish(plain, size)
