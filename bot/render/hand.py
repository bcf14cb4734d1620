"""The hand image: a fanned hand of big-index cards, grouped, numbered like the text list.

Why this shape: on a phone Discord shrinks an image to about 400 px wide, so a 15-card hand is
laid out in two overlapped rows of at most ten; only each card's corner index has to be read, and
that index stays above 18 px tall at phone width. The number under each card is its position in
the text list the bot prints, so "play 3 4 5" means the same in the picture and in the text.

A hand is drawn on every move, so it has two painters over one layout: in RGB (the reference,
for tests and the palette's calibration) and straight into palette indexes (see
:mod:`bot.render.indexed`), which the PNGs are made from; both give the same pixels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image, ImageDraw

from rummy_engine.cards import Card

from .fonts import Fonts
from .indexed import Tiles, put
from .layout import HandSlot, layout_hand, order_hand, shown_width
from .paint import blit, fit, marker, paste
from .scene import HAND_LABELS, HandScene, label
from .sprites import CardSprites
from .theme import BLACK, FELT, GOLD, HAND, RGB, TEXT, TEXT_DIM, CardSize

MARGIN = 18
TITLE_PX = 26
TITLE_H = 46
TOP = 28  # room above a row for the gold marker over the card just drawn
NUMBER_PX = 22
NUMBER_H = 32
GROUP_GAP = 16  # between suits
MELD_GAP = 28  # between melds (sort by melds): wide enough to read as separate units
BAR_H = 6
MAX_PER_ROW = 10
MIN_WIDTH = 360
EMPTY_H = 70


Ink = RGB | int  # a colour on an RGB canvas, a palette index on an indexed one
#: Text rasterised: a FreeType coverage mask and its offset from where the text is placed.
Rasterise = Callable[[], tuple[Any, tuple[int, int]]]


@dataclass(frozen=True)
class _Placed:
    """One card where it goes: what shows of it (None: all), the card before it in its row and
    how far left (what its left corners show through), whether it is the card just drawn."""

    card: Card
    x: int
    y: int
    shown: int | None
    under: tuple[Card, int] | None
    drawn: bool


class _Painter(Protocol):
    image: Image.Image
    draw: ImageDraw.ImageDraw

    def ink(self, colour: RGB) -> Ink: ...

    def card(self, placed: _Placed) -> None: ...

    def write(
        self, rasterise: Rasterise, xy: tuple[int, int], colour: RGB, key: Hashable, kept: bool
    ) -> None:
        """Text on felt: ``rasterise`` gives its FreeType coverage mask and the mask's offset
        from ``xy``; ``key`` names it; ``kept``: a label drawn again and again."""


def render_hand_image(scene: HandScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Compose the hand (RGB). See the module docstring for the layout rules."""
    layout = _layout(scene)
    painter = _RgbPainter(layout.size, sprites, scene.four_colour)
    return _paint(scene, layout, fonts, painter)


def render_hand_indexed(
    scene: HandScene, fonts: Fonts, sprites: CardSprites, tiles: Tiles
) -> Image.Image:
    """The same hand, composed in the palette of ``tiles`` ('P')."""
    layout = _layout(scene)
    painter = _IndexedPainter(layout.size, sprites, scene.four_colour, tiles)
    return _paint(scene, layout, fonts, painter)


@dataclass(frozen=True)
class _Layout:
    slots: list[HandSlot]
    rows: int
    row_h: int
    below: int
    width: int
    height: int
    title_h: int

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height


def _layout(scene: HandScene) -> _Layout:
    size = HAND
    by_melds = scene.groups is not None
    ordered = order_hand(scene.cards, scene.groups)
    slots = layout_hand(ordered, size, MAX_PER_ROW, MELD_GAP if by_melds else GROUP_GAP)
    rows = max((s.row for s in slots), default=-1) + 1
    below = NUMBER_H + (BAR_H + 6 if by_melds else 0)
    row_h = TOP + size.height + below
    content_w = max((s.x + size.width for s in slots), default=MIN_WIDTH - 2 * MARGIN)
    width = max(MIN_WIDTH, content_w + 2 * MARGIN)
    title_h = TITLE_H if scene.title else 10
    height = title_h + (rows * row_h + 6 if rows else EMPTY_H)
    return _Layout(slots, rows, row_h, below, width, height, title_h)


def _paint(scene: HandScene, layout: _Layout, fonts: Fonts, painter: _Painter) -> Image.Image:
    size = HAND
    slots, title_h = layout.slots, layout.title_h
    if scene.title:
        font = fonts.get(TITLE_PX)
        text = fit(font, scene.title, layout.width - 2 * MARGIN)
        _write(painter, fonts, TITLE_PX, text, (MARGIN, TITLE_H // 2 + 2), TEXT, "lm")
    if not slots:
        empty = label(scene.labels, HAND_LABELS, "empty")
        centre = (layout.width // 2, title_h + EMPTY_H // 2)
        _write(painter, fonts, NUMBER_PX, empty, centre, TEXT_DIM, "mm")
        return painter.image
    draw = painter.draw
    previous: HandSlot | None = None
    for slot, shown in zip(slots, _shown_widths(slots, size), strict=True):
        row_top = title_h + slot.row * layout.row_h
        x = MARGIN + slot.x
        y = row_top + TOP
        drawn = scene.drawn is not None and slot.card == scene.drawn
        if drawn:
            _gold_behind(painter, x, y)
            marker(draw, x + size.step // 2, y - 7, 26, painter.ink(GOLD), painter.ink(BLACK))
        under = None
        if previous is not None and previous.row == slot.row:
            under = (previous.card, slot.x - previous.x)
        painter.card(_Placed(slot.card, x, y, shown, under, drawn))
        centre = (x + size.step // 2 + 1, y + size.height + layout.below - NUMBER_H // 2 + 1)
        number, colour = str(slot.number), GOLD if drawn else TEXT_DIM
        _write(painter, fonts, NUMBER_PX, number, centre, colour, "mm", kept=True)
        previous = slot
    if scene.groups is not None:
        _draw_meld_bars(draw, slots, scene, title_h, layout.row_h, painter.ink(TEXT_DIM))
    return painter.image


def _gold_behind(painter: _Painter, x: int, y: int) -> None:
    """The gold frame behind the card just drawn, whose top left is at ``x``, ``y``."""
    box = (x - 4, y - 4, x + HAND.width + 3, y + HAND.height + 3)
    painter.draw.rounded_rectangle(box, radius=HAND.radius + 4, fill=painter.ink(GOLD))


def _write(
    painter: _Painter,
    fonts: Fonts,
    px: int,
    text: str,
    xy: tuple[int, int],
    colour: RGB,
    anchor: str,
    *,
    kept: bool = False,
) -> None:
    """``draw.text`` at whole-pixel ``xy``, through the painter. ``kept``: a label drawn again
    and again (the numbers), kept rendered; a title (each player's name and card count) is
    rasterised when a painter needs it, which the indexed one rarely does (see
    :meth:`_IndexedPainter.write`)."""

    def rasterise() -> tuple[Any, tuple[int, int]]:
        if kept:
            return fonts.mask(px, text, anchor, (0.0, 0.0))
        return fonts.get(px).getmask2(text, "L", anchor=anchor)

    painter.write(rasterise, xy, colour, (px, text, anchor, colour), kept)


class _RgbPainter:
    def __init__(self, size: tuple[int, int], sprites: CardSprites, four_colour: bool) -> None:
        self.image = Image.new("RGB", size, FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.sprites, self.four_colour = sprites, four_colour

    def ink(self, colour: RGB) -> Ink:
        return colour

    def card(self, placed: _Placed) -> None:
        sprite = self.sprites.face(placed.card, HAND, self.four_colour, placed.shown)
        paste(self.image, sprite, (placed.x, placed.y))

    def write(
        self, rasterise: Rasterise, xy: tuple[int, int], colour: RGB, key: Hashable, kept: bool
    ) -> None:
        mask, (dx, dy) = rasterise()
        blit(self.draw, (xy[0] + dx, xy[1] + dy), mask, colour)


class _IndexedPainter:
    """Copies of pieces kept in ``tiles``: a card's body, then its corners composited over
    what lies under them (felt, the card before it, the gold of the card just drawn)."""

    def __init__(
        self, size: tuple[int, int], sprites: CardSprites, four_colour: bool, tiles: Tiles
    ) -> None:
        self.image = tiles.canvas(size, FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.sprites, self.four_colour, self.tiles = sprites, four_colour, tiles

    def ink(self, colour: RGB) -> Ink:
        return self.tiles.index(colour)

    def card(self, placed: _Placed) -> None:
        under = None
        if placed.under is not None:
            under = (self._face_key(placed.under[0]), placed.under[1])
        key = ("pieces", self._face_key(placed.card), placed.shown, under, placed.drawn)
        pieces = self.tiles.remember(key, functools.partial(self._pieces, placed))
        for tile, (dx, dy) in pieces:
            put(self.image, tile, (placed.x + dx, placed.y + dy))

    def _pieces(self, placed: _Placed) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
        """A card as the pieces that show it where it lies (its body, then its corners), each
        with its offset; kept per card, what lies under it, and how much of it shows, so a
        hand of fifteen cards costs fifteen look-ups and the copies."""
        shown = placed.shown
        body = self.tiles.tile(
            ("body", self._face_key(placed.card), shown),
            lambda: (
                self._sprite(placed.card)
                .crop((0, 0, shown or HAND.width, HAND.height))
                .convert("RGB")
            ),
        )
        pieces = [(body, (0, 0))]
        for corner in _corners(shown):
            # Keyed by the pixels that meet there, not by the cards: most cards have the same
            # plain corners, so a few dozen pieces serve every pair of cards.
            own = self._pixels(placed.card, corner)
            below = None
            if placed.under is not None:
                card, offset = placed.under
                below = self._pixels(card, (offset + corner[0], corner[1]))
            key = ("corner", corner, own, below, placed.drawn)
            pieces.append(
                (self.tiles.tile(key, functools.partial(self._corner, placed, corner)), corner)
            )
        return tuple(pieces)

    def _face_key(self, card: Card) -> tuple[object, ...]:
        return (card.rank, card.suit, self.four_colour and card.suit is not None)

    def _pixels(self, card: Card, at: tuple[int, int]) -> bytes:
        """The RGBA pixels of ``card`` in the corner square whose top left is ``at`` in the
        card (always within what shows of it: a strip reaches the next card's corners)."""

        def crop() -> bytes:
            square = (at[0], at[1], at[0] + CORNER, at[1] + CORNER)
            return self._sprite(card).crop(square).tobytes()

        return self.tiles.remember(("pixels", self._face_key(card), at), crop)

    def _sprite(self, card: Card) -> Image.Image:
        """The whole sprite: the pieces are cut from it once, so the sprite cache keeps no
        strips of hand cards (they were most of the drawing process's memory)."""
        return self.sprites.face(card, HAND, self.four_colour)

    def _corner(self, placed: _Placed, corner: tuple[int, int]) -> Image.Image:
        """The RGB painter's steps, replayed on one corner square: felt, the card before (as
        it was pasted), the gold behind the card just drawn, then the card."""
        painter = _RgbPainter((CORNER, CORNER), self.sprites, self.four_colour)
        left, top = placed.x + corner[0], placed.y + corner[1]

        def moved(x: int, y: int) -> tuple[int, int]:
            return x - left, y - top

        if placed.under is not None:
            card, offset = placed.under
            shown = shown_width(HAND, offset)
            painter.card(_Placed(card, *moved(placed.x - offset, placed.y), shown, None, False))
        if placed.drawn:
            _gold_behind(painter, *moved(placed.x, placed.y))
        painter.card(_Placed(placed.card, *moved(placed.x, placed.y), placed.shown, None, False))
        return painter.image

    def write(
        self, rasterise: Rasterise, xy: tuple[int, int], colour: RGB, key: Hashable, kept: bool
    ) -> None:
        """A label is a piece kept with the others; a title is kept by bytes (see
        :meth:`Tiles.large`), so a player's next hand with the same card count neither
        rasterises nor maps it again."""
        if kept:
            mask, (dx, dy) = rasterise()
            tile = self.tiles.tile(("text", key), lambda: self._on_felt(mask, colour))
            put(self.image, tile, (xy[0] + dx, xy[1] + dy))
            return

        def make() -> tuple[Image.Image, tuple[int, int]]:
            mask, offset = rasterise()
            return self._on_felt(mask, colour), offset

        tile, (dx, dy) = self.tiles.large(("title", key), make)
        put(self.image, tile, (xy[0] + dx, xy[1] + dy))

    def _on_felt(self, mask: Any, colour: RGB) -> Image.Image:
        painter = _RgbPainter(mask.size, self.sprites, self.four_colour)
        blit(painter.draw, (0, 0), mask, colour)
        return painter.image


#: The side of the square at each corner of a card where its rounded edge is not opaque (its
#: radius and one pixel of anti-aliasing), the only part composited over what lies under it.
CORNER = HAND.radius + 1


def _corners(shown: int | None) -> tuple[tuple[int, int], ...]:
    """The corner squares of a card that show: the left ones, and the right ones when no card
    covers them."""
    bottom = HAND.height - CORNER
    left = ((0, 0), (0, bottom))
    if shown is not None:
        return left
    right = HAND.width - CORNER
    return (*left, (right, 0), (right, bottom))


def _shown_widths(slots: list[HandSlot], size: CardSize) -> list[int | None]:
    """How much of each card the next one of its row leaves visible (None: all of it)."""
    return [
        shown_width(
            size, None if following is None or following.row != slot.row else following.x - slot.x
        )
        for slot, following in zip(slots, [*slots[1:], None], strict=True)
    ]


def _draw_meld_bars(
    draw: ImageDraw.ImageDraw,
    slots: list[HandSlot],
    scene: HandScene,
    title_h: int,
    row_h: int,
    ink: Ink,
) -> None:
    """A bar under each meld the solver found (sort-by-melds), like the bars under table melds;
    cards in no meld get none, so "what is left over" is visible at a glance."""
    in_meld = {card for group in scene.groups or () for card in group}
    spans: dict[tuple[int, int], list[int]] = {}
    for i, slot in enumerate(slots):
        if slot.card in in_meld:
            spans.setdefault((slot.row, slot.group), []).append(i)
    for (row, _), members in spans.items():
        first, last = slots[members[0]], slots[members[-1]]
        following = slots[members[-1] + 1] if members[-1] + 1 < len(slots) else None
        if following is not None and following.row == row:
            right = MARGIN + following.x - 10
        else:
            right = MARGIN + last.x + HAND.width - 4
        top = title_h + row * row_h + TOP + HAND.height + 5
        draw.rounded_rectangle(
            (MARGIN + first.x + 4, top, right, top + BAR_H - 1), radius=BAR_H // 2, fill=ink
        )
