"""The hand image: a fanned hand of big-index cards, grouped, numbered like the text list.

Why this shape: on a phone Discord shrinks an image to about 400 px wide, so a 15-card hand is
laid out in two overlapped rows of at most ten; only each card's corner index has to be read, and
that index stays above 18 px tall at phone width. The number under each card is its position in
the text list the bot prints, so "play 3 4 5" means the same in the picture and in the text.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .fonts import Fonts
from .layout import HandSlot, layout_hand, order_hand, shown_width
from .paint import fit, label_text, marker, paste
from .scene import HAND_LABELS, HandScene, label
from .sprites import CardSprites
from .theme import FELT, GOLD, HAND, TEXT, TEXT_DIM, CardSize

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


def render_hand_image(scene: HandScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Compose the hand (RGB). See the module docstring for the layout rules."""
    size = HAND
    by_melds = scene.groups is not None
    ordered = order_hand(scene.cards, scene.groups)
    slots = layout_hand(ordered, size, MAX_PER_ROW, MELD_GAP if by_melds else GROUP_GAP)
    rows = max((s.row for s in slots), default=-1) + 1
    below = NUMBER_H + (BAR_H + 6 if by_melds else 0)
    row_h = TOP + size.height + below
    title_font = fonts.get(TITLE_PX)
    content_w = max((s.x + size.width for s in slots), default=MIN_WIDTH - 2 * MARGIN)
    width = max(MIN_WIDTH, content_w + 2 * MARGIN)
    title_h = TITLE_H if scene.title else 10
    height = title_h + (rows * row_h + 6 if rows else EMPTY_H)
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if scene.title:
        text = fit(title_font, scene.title, width - 2 * MARGIN)
        draw.text((MARGIN, TITLE_H // 2 + 2), text, font=title_font, fill=TEXT, anchor="lm")
    if not slots:
        draw.text(
            (width // 2, title_h + EMPTY_H // 2),
            label(scene.labels, HAND_LABELS, "empty"),
            font=fonts.get(NUMBER_PX),
            fill=TEXT_DIM,
            anchor="mm",
        )
        return canvas
    for slot, shown in zip(slots, _shown_widths(slots, size), strict=True):
        row_top = title_h + slot.row * row_h
        x = MARGIN + slot.x
        y = row_top + TOP
        drawn = scene.drawn is not None and slot.card == scene.drawn
        if drawn:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + size.width + 3, y + size.height + 3),
                radius=size.radius + 4,
                fill=GOLD,
            )
            marker(draw, x + size.step // 2, y - 7, 26)
        paste(canvas, sprites.face(slot.card, size, scene.four_colour, shown), (x, y))
        label_text(
            draw,
            fonts,
            NUMBER_PX,
            (x + size.step // 2 + 1, y + size.height + below - NUMBER_H // 2 + 1),
            str(slot.number),
            GOLD if drawn else TEXT_DIM,
            "mm",
        )
    if by_melds:
        _draw_meld_bars(draw, slots, scene, title_h, row_h)
    return canvas


def _shown_widths(slots: list[HandSlot], size: CardSize) -> list[int | None]:
    """How much of each card the next one of its row leaves visible (None: all of it)."""
    return [
        shown_width(
            size, None if following is None or following.row != slot.row else following.x - slot.x
        )
        for slot, following in zip(slots, [*slots[1:], None], strict=True)
    ]


def _draw_meld_bars(
    draw: ImageDraw.ImageDraw, slots: list[HandSlot], scene: HandScene, title_h: int, row_h: int
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
            (MARGIN + first.x + 4, top, right, top + BAR_H - 1), radius=BAR_H // 2, fill=TEXT_DIM
        )
