"""The table image: header (variant, round, scores, turn), seats, piles, and every meld.

Why this shape: players glance at the table to answer "whose turn, what is the score, where can I
lay off?". The header answers the first two; each meld carries the number ``/rummy add`` uses in a
badge of its side's colour, and every joker says what it stands for. Melds wrap into rows like
words, and the cards shrink (three sizes) when there are many melds, so 20+ melds still fit an
image that a phone shows without the cards turning into specks.

It is drawn as three bands stacked: the header, the piles and seats, the melds. Each band sees
only what it shows (``HeaderPart``, the scene, ``MeldsPart``), so the renderer can keep the
header and the melds between turns by those values and draw only the piles and seats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rummy_engine.cards import Face

from .fonts import Fonts
from .indexed import Tiles, put
from .layout import fan_width, flow, shown_width
from .paint import (
    Text,
    badge,
    draw_texts,
    fit,
    fit_size,
    joker_label_px,
    paste,
    pill,
    stands_for_label,
    text_width,
)
from .scene import TABLE_LABELS, SeatInfo, SideScore, TableMeld, TableScene, label
from .sprites import CardSprites
from .theme import (
    CARD_EDGE,
    FELT,
    FELT_DARK,
    FELT_LINE,
    GOLD,
    RGB,
    SLOT,
    TABLE_L,
    TABLE_M,
    TABLE_S,
    TEXT,
    TEXT_DIM,
    CardSize,
    team_colour,
)

WIDTH = 760
MARGIN = 16
TITLE_PX = 28
CHIP_PX = 20
SEAT_PX = 20
PILE_LABEL_PX = 20
BADGE_W = 36
BLOCK_GAP = 12
ROW_GAP = 10
BAR_H = 5
#: Card sizes for melds, biggest first; the first whose rows fit ``MELDS_BUDGET`` px is used,
#: so a table stays about as tall as it is wide (a phone shows it without scrolling).
TIERS: tuple[CardSize, ...] = (TABLE_L, TABLE_M, TABLE_S)
MELDS_BUDGET = 640
#: Space between the header and the piles and seats.
INFO_TOP = 12


@dataclass(frozen=True)
class _Block:
    meld: TableMeld
    width: int
    label_lines: int


@dataclass(frozen=True)
class MeldsPart:
    """All the melds band of a table picture draws from, and so its cache key: the band
    changes only when a meld is laid or added to, while the rest changes every turn."""

    melds: tuple[TableMeld, ...]
    side_colours: tuple[int, ...]
    four_colour: bool
    no_melds: str

    @classmethod
    def of(cls, scene: TableScene) -> MeldsPart:
        no_melds = label(scene.labels, TABLE_LABELS, "no_melds")
        return cls(scene.melds, _side_colours(scene), scene.four_colour, no_melds)


@dataclass(frozen=True)
class HeaderPart:
    """All the header band draws from, and so its cache key: it changes with the turn's name
    and the scores, so a game of two shows two headers a round."""

    title: str
    round_no: int
    sides: tuple[SideScore, ...]
    turn_name: str | None
    labels: tuple[str, ...]  # the round, turn and score templates
    #: Every seat's name: the turn badge stays on the title's line only if each would, so the
    #: header keeps its height from turn to turn (the table does not jump under the eyes).
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, scene: TableScene) -> HeaderPart:
        labels = tuple(scene.labels.get(key, TABLE_LABELS[key]) for key in HEADER_LABELS)
        names = tuple(seat.name for seat in scene.seats)
        return cls(scene.title, scene.round_no, scene.sides, scene.turn_name, labels, names)

    def label(self, key: str, **params: object) -> str:
        return self.labels[HEADER_LABELS.index(key)].format(**params)


HEADER_LABELS = ("round", "turn", "score")


@dataclass(frozen=True)
class SeatsPart:
    """All the seat list draws from, and so its cache key: it changes with the turn."""

    seats: tuple[SeatInfo, ...]
    side_colours: tuple[int, ...]
    opened: str

    @classmethod
    def of(cls, scene: TableScene) -> SeatsPart:
        return cls(scene.seats, _side_colours(scene), label(scene.labels, TABLE_LABELS, "opened"))


def _side_colours(scene: TableScene) -> tuple[int, ...]:
    return tuple(side.colour_index for side in scene.sides)


def render_table_image(scene: TableScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Compose the table (RGB): the header band, the piles and seats, the melds band."""
    bands = (
        render_header_band(HeaderPart.of(scene), fonts),
        render_info_band(scene, fonts, sprites),
        render_melds_band(MeldsPart.of(scene), fonts, sprites),
    )
    canvas = Image.new("RGB", (WIDTH, sum(band.height for band in bands)), FELT)
    y = 0
    for band in bands:
        canvas.paste(band, (0, y))
        y += band.height
    return canvas


def render_header_band(part: HeaderPart, fonts: Fonts) -> Image.Image:
    """Title, round, whose turn and the scores, with the space below (RGB)."""
    header = _Header(part, fonts)
    canvas = Image.new("RGB", (WIDTH, header.height + INFO_TOP), FELT)
    header.draw(ImageDraw.Draw(canvas))
    return canvas


def render_info_band(scene: TableScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Piles and seats, down to the line above the melds (RGB)."""
    canvas = Image.new("RGB", (WIDTH, info_height(scene)), FELT)
    draw = ImageDraw.Draw(canvas)
    _draw_piles(canvas, draw, scene, fonts, sprites, 0)
    _draw_seats(draw, SeatsPart.of(scene), fonts, 0)
    _info_line(draw, canvas.height, FELT_LINE)
    return canvas


def render_info_indexed(
    scene: TableScene, fonts: Fonts, sprites: CardSprites, tiles: Tiles
) -> Image.Image:
    """The same band in the palette of ``tiles`` ('P'), from two pieces that meet at
    ``SEATS_LEFT``: the piles, drawn each time, and the seat list, kept (it changes with the
    turn only). Mapping the whole band was two thirds of a table's drawing."""
    canvas = tiles.canvas((WIDTH, info_height(scene)), FELT)
    piles = Image.new("RGB", (SEATS_LEFT, PILES_H), FELT)
    _draw_piles(piles, ImageDraw.Draw(piles), scene, fonts, sprites, 0)
    put(canvas, tiles.indexed(piles), (0, 0))
    part = SeatsPart.of(scene)
    seat_list, at = tiles.large(part, lambda: (_render_seats(part, fonts), (SEATS_LEFT, 0)))
    put(canvas, seat_list, at)
    _info_line(ImageDraw.Draw(canvas), canvas.height, tiles.index(FELT_LINE))
    return canvas


def info_height(scene: TableScene) -> int:
    return max(PILES_H, _seats_height(len(scene.seats))) + 16


def _seats_height(seats: int) -> int:
    return max(seats, 1) * 30 + 8


def _info_line(draw: ImageDraw.ImageDraw, height: int, ink: RGB | int) -> None:
    draw.line((MARGIN, height - 8, WIDTH - MARGIN, height - 8), fill=ink, width=2)


def _render_seats(part: SeatsPart, fonts: Fonts) -> Image.Image:
    """The seat list alone, from ``SEATS_LEFT`` to the right edge (RGB)."""
    canvas = Image.new("RGB", (WIDTH - SEATS_LEFT, _seats_height(len(part.seats))), FELT)
    _draw_seats(ImageDraw.Draw(canvas), part, fonts, 0, left=SEATS_LEFT)
    return canvas


def render_melds_band(part: MeldsPart, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Every meld, in rows, with the margin below (RGB)."""
    size, blocks, rows, row_heights = _choose_tier(part.melds, fonts)
    canvas = Image.new("RGB", (WIDTH, _melds_band_height(rows, row_heights)), FELT)
    draw = ImageDraw.Draw(canvas)
    y = 0
    if not rows:
        draw.text(
            (WIDTH // 2, y + 18), part.no_melds, font=fonts.get(SEAT_PX), fill=TEXT_DIM, anchor="mm"
        )
    for row, row_h in zip(rows, row_heights, strict=True):
        x = MARGIN
        for i in row:
            _draw_block(canvas, draw, blocks[i], part, fonts, sprites, size, x, y)
            x += blocks[i].width + BLOCK_GAP
        y += row_h + ROW_GAP
    return canvas


def _melds_band_height(rows: Sequence[Sequence[int]], row_heights: Sequence[int]) -> int:
    melds_h = sum(row_heights) + ROW_GAP * max(len(rows) - 1, 0) if rows else 44
    return melds_h + 2 * MARGIN - INFO_TOP


# -- melds ----------------------------------------------------------------------------------


def _joker_labels(meld: TableMeld, size: CardSize, fonts: Fonts) -> list[tuple[int, Face, int]]:
    """(card index, what it stands for, label line) of each joker of a meld.

    A label is centred under its joker's visible strip; when it would touch the previous
    label (two jokers side by side) it drops to a second line.
    """
    font = fonts.get(joker_label_px(size))
    out: list[tuple[int, Face, int]] = []
    last_right, line = -10_000, 0
    for i, (card, face) in enumerate(zip(meld.meld.cards, meld.meld.stands_for, strict=True)):
        if not card.is_joker:
            continue
        centre = i * size.step + size.step // 2
        half = (text_width(font, "=" + face.pretty) + 10) // 2
        line = 1 if centre - half < last_right + 2 and line == 0 else 0
        if line == 0:
            last_right = centre + half
        out.append((i, face, line))
    return out


def _label_line_h(size: CardSize) -> int:
    return joker_label_px(size) + 10


def _choose_tier(
    melds: Sequence[TableMeld], fonts: Fonts
) -> tuple[CardSize, list[_Block], list[list[int]], list[int]]:
    """The biggest card size whose wrapped meld rows fit the height budget (else the smallest).

    Returns the size, the blocks, the rows (block indexes) and each row's height.
    """
    usable = WIDTH - 2 * MARGIN
    for size in TIERS:
        blocks = [
            _Block(
                m,
                BADGE_W + fan_width(len(m.meld.cards), size),
                max((line + 1 for _, _, line in _joker_labels(m, size, fonts)), default=0),
            )
            for m in melds
        ]
        rows = flow([b.width for b in blocks], usable, BLOCK_GAP)
        heights = [
            size.height + BAR_H + 6 + max(blocks[i].label_lines for i in row) * _label_line_h(size)
            for row in rows
        ]
        if sum(heights) + ROW_GAP * max(len(rows) - 1, 0) <= MELDS_BUDGET:
            break
    return size, blocks, rows, heights


def _draw_block(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    block: _Block,
    part: MeldsPart,
    fonts: Fonts,
    sprites: CardSprites,
    size: CardSize,
    x: int,
    y: int,
) -> None:
    """One meld: number badge, the fanned cards, a bar in the side's colour, joker labels."""
    tm = block.meld
    colour = team_colour(_side_colour(part.side_colours, tm.side_index))
    badge(draw, fonts, (x + BADGE_W // 2 - 1, y + 18), 17, str(tm.number), colour)
    fan_x = x + BADGE_W
    count = len(tm.meld.cards)
    covered = shown_width(size, size.step)
    for i, card in enumerate(tm.meld.cards):
        shown = covered if i < count - 1 else None
        paste(canvas, sprites.face(card, size, part.four_colour, shown), (fan_x + i * size.step, y))
    bar_y = y + size.height + 3
    draw.rounded_rectangle(
        (fan_x, bar_y, fan_x + fan_width(count, size) - 1, bar_y + BAR_H - 1),
        radius=2,
        fill=colour,
    )
    label_top = bar_y + BAR_H + 3
    for i, face, line in _joker_labels(tm, size, fonts):
        centre = fan_x + i * size.step + size.step // 2
        top = label_top + line * _label_line_h(size)
        stands_for_label(draw, fonts, centre, top, face, size, part.four_colour)


def _side_colour(colours: Sequence[int], index: int) -> int:
    return colours[index] if 0 <= index < len(colours) else index


# -- header, piles, seats -------------------------------------------------------------------


class _Header:
    """Title + round on the left, whose turn on the right, then one chip per side's score.

    The title and its round are never shortened (a smaller size is used before that); the
    player's name in the turn badge is, and when even a short name leaves no room the badge
    takes a line of its own. A finished round has no badge (nobody is to move).
    """

    def __init__(self, part: HeaderPart, fonts: Fonts) -> None:
        self.part, self.fonts = part, fonts
        inner = WIDTH - 2 * MARGIN
        round_text = part.label("round", n=part.round_no)
        left = f"{part.title} · {round_text}" if part.title else round_text
        title_px = fit_size(fonts, left, inner, TITLE_SIZES)
        left_w = text_width(fonts.get(title_px), left)
        self.badge: tuple[int, int, int, int] | None = None
        self.texts: list[Text] = []
        y = 0
        title_right = WIDTH - MARGIN
        if part.turn_name is not None:
            room = inner - left_w - TITLE_GAP
            turn, on_title_line = self._turn(part.turn_name, room)
            on_title_line &= all(self._turn(name, room)[1] for name in part.names)
            if not on_title_line:
                turn, _ = self._turn(part.turn_name, inner)
                y = LINE_H
            tw = text_width(fonts.get(TURN_PX), turn)
            self.badge = (WIDTH - MARGIN - tw - 2 * BADGE_PAD, y + 13, WIDTH - MARGIN, y + 45)
            if on_title_line:
                title_right = self.badge[0] - TITLE_GAP // 2
            self.texts.append(
                Text(
                    turn,
                    TURN_PX,
                    (WIDTH - MARGIN - BADGE_PAD, y + 30),
                    "rm",
                    (self.badge[0] + 4, self.badge[1], self.badge[2] - 4, self.badge[3]),
                    FELT_DARK,
                )
            )
        self.texts.append(
            Text(left, title_px, (MARGIN, 29), "lm", (MARGIN - 2, 5, title_right, 53), TEXT)
        )
        self.chips_top = 56 + y
        chip_font = fonts.get(CHIP_PX)
        self.chips = [
            (side, text, text_width(chip_font, text) + CHIP_PAD)
            for side in part.sides
            for text in (self._chip_text(side, inner - CHIP_PAD),)
        ]
        self.chip_rows = flow([w for _, _, w in self.chips], inner, 8)
        self._chip_texts()
        self.height = self.chips_top - 2 + len(self.chip_rows) * 36 + 6

    def _turn(self, name: str, room: int) -> tuple[str, bool]:
        """The badge's text with ``name`` shortened to the ``room`` left for the badge, and
        whether a readable part of the name (or all of it) fits there."""
        font = self.fonts.get(TURN_PX)
        frame = text_width(font, self.part.label("turn", name="")) + 2 * BADGE_PAD
        name_room = room - frame
        shown = fit(font, name, name_room)
        enough = shown == name or name_room >= MIN_NAME_PX
        return self.part.label("turn", name=shown), enough

    def _chip_text(self, side: SideScore, room: int) -> str:
        """The side's name and score, the name shortened when a chip of the whole width could
        not hold them."""
        if side.limit is None:
            score = str(side.score)
        else:
            score = self.part.label("score", score=side.score, limit=side.limit)
        tail = f"  {score}"
        font = self.fonts.get(CHIP_PX)
        return fit(font, side.name, room - text_width(font, tail)) + tail

    def _chip_texts(self) -> None:
        y = self.chips_top
        for row in self.chip_rows:
            x = MARGIN
            for i in row:
                _, text, width = self.chips[i]
                self.texts.append(
                    Text(
                        text, CHIP_PX, (x + 30, y + 16), "lm", (x + 26, y, x + width, y + 30), TEXT
                    )
                )
                x += width + 8
            y += 36

    def draw(self, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((0, 0, WIDTH, self.height), fill=FELT_DARK)
        draw.line((0, self.height, WIDTH, self.height), fill=GOLD, width=2)
        if self.badge is not None:
            pill(draw, self.badge, GOLD)
        y = self.chips_top
        for row in self.chip_rows:
            x = MARGIN
            for i in row:
                side, _, width = self.chips[i]
                colour = team_colour(side.colour_index)
                pill(draw, (x, y, x + width, y + 30), FELT, colour, 2)
                draw.ellipse((x + 9, y + 8, x + 23, y + 22), fill=colour)
                x += width + 8
            y += 36
        # the header band is kept whole (see Renderer._table): its labels need not be
        draw_texts(draw, self.fonts, self.texts, kept=False)


#: Title sizes, biggest first: the first at which the title and its round fit whole.
TITLE_SIZES = (TITLE_PX, 26, 24, 22, 20, 18)
TURN_PX = 22
BADGE_PAD = 11
#: Between the title and the turn badge.
TITLE_GAP = 24
#: The least of a name the turn badge shows beside the title before taking its own line.
MIN_NAME_PX = 90
#: A header line (the turn badge's own line when the title leaves it no room).
LINE_H = 40
CHIP_PAD = 40


def header_texts(part: HeaderPart, fonts: Fonts) -> tuple[list[Text], int]:
    """Every line the header draws and the header's height (for tests and layout)."""
    header = _Header(part, fonts)
    return header.texts, header.height


def _draw_piles(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: TableScene,
    fonts: Fonts,
    sprites: CardSprites,
    y: int,
) -> None:
    """Stock (face down) and the discard pile (its top card and size), like on a table.

    The stock's size and each seat's hand size are in the message text, not here: a draw from
    the stock then leaves the picture as it was, so half the moves neither draw nor upload it."""
    size = TABLE_L
    x = MARGIN + 4
    if not scene.stock_empty:
        canvas.paste(sprites.stock(size, FELT), (x, y))
    else:
        draw.rounded_rectangle(
            (x, y, x + size.width, y + size.height), radius=size.radius, outline=SLOT, width=2
        )
    x += size.width + 38
    if scene.discard_top is not None:
        if scene.discard_count > 1:
            draw.rounded_rectangle(
                (x + 3, y + 3, x + size.width + 2, y + size.height + 2),
                radius=size.radius,
                fill=(235, 235, 235),
                outline=CARD_EDGE,
            )
        paste(canvas, sprites.face(scene.discard_top, size, scene.four_colour), (x, y))
    else:
        draw.rounded_rectangle(
            (x, y, x + size.width, y + size.height), radius=size.radius, outline=SLOT, width=2
        )
    draw_texts(draw, fonts, pile_texts(scene, fonts, y))


def pile_texts(scene: TableScene, fonts: Fonts, y: int = 0) -> list[Text]:
    """The labels under the stock and the discard pile.

    Each is centred under its card; a longer discard label ("Défausse 104") may use the free
    space on the right, up to the seats, so it is shifted rather than cut whenever it fits."""
    size = TABLE_L
    font = fonts.get(PILE_LABEL_PX)
    label_y = y + size.height + 20
    box_top, box_bottom = y + size.height + 4, y + PILES_H
    stock_centre = MARGIN + 4 + size.width // 2 + 2
    stock = fit(font, label(scene.labels, TABLE_LABELS, "stock"), size.width + 30)
    stock_right = stock_centre + font.getlength(stock) / 2
    half = math.ceil(stock_right - stock_centre) + 1
    stock_box = (stock_centre - half, box_top, stock_centre + half, box_bottom)
    texts = [Text(stock, PILE_LABEL_PX, (stock_centre, label_y), "mm", stock_box, TEXT)]
    left_limit, right_limit = stock_right + PILE_LABEL_GAP, SEATS_X - PILE_LABEL_GAP
    discard = fit(
        font,
        label(scene.labels, TABLE_LABELS, "discard", n=scene.discard_count),
        int(right_limit - left_limit),
    )
    box = (int(left_limit), box_top, int(right_limit), box_bottom)
    centre, width = MARGIN + 4 + size.width + 38 + size.width // 2 + 2, font.getlength(discard)
    if left_limit <= centre - width / 2 and centre + width / 2 <= right_limit:
        texts.append(Text(discard, PILE_LABEL_PX, (centre, label_y), "mm", box, TEXT))
    else:
        left = max(left_limit, min(centre - width / 2, right_limit - width))
        texts.append(Text(discard, PILE_LABEL_PX, (left, label_y), "lm", box, TEXT))
    return texts


SEATS_X = MARGIN + 2 * TABLE_L.width + 80
#: The least space between the pile labels, and between the discard label and the seats.
PILE_LABEL_GAP = 6
#: Where the seat list's drawing starts (the pill of whose turn it is): the pile labels stop
#: there, so the piles and the seats are two pieces side by side.
SEATS_LEFT = SEATS_X - PILE_LABEL_GAP
#: The piles with their labels.
PILES_H = TABLE_L.height + 40


def _draw_seats(
    draw: ImageDraw.ImageDraw, part: SeatsPart, fonts: Fonts, y: int, *, left: int = 0
) -> None:
    """One line per seat: side colour, name, opened; gold for whose turn. ``left``: where the
    canvas starts in the band (whole pixels, so every glyph falls on the same pixels)."""
    right = WIDTH - MARGIN - left
    seats_x = SEATS_X - left
    opened_w = _opened_width(part, fonts)
    side_colours = list(part.side_colours)
    for seat in part.seats:
        colour = team_colour(_side_colour(side_colours, seat.side_index))
        cy = y + 14
        if seat.is_turn:
            pill(draw, (seats_x - 6, y, right, y + 28), FELT_DARK, GOLD, 2)
            marker_x = seats_x + 8
            draw.polygon(
                [(marker_x - 5, cy - 7), (marker_x - 5, cy + 7), (marker_x + 6, cy)], fill=GOLD
            )
        else:
            draw.ellipse((seats_x + 2, cy - 6, seats_x + 14, cy + 6), fill=colour)
        if seat.opened:
            ox = right - 10 - opened_w
            pill(draw, (ox, cy - 10, ox + opened_w - 4, cy + 10), FELT_LINE)
        y += 30
    draw_texts(draw, fonts, seat_texts(part, fonts, left=left))


def _opened_width(part: SeatsPart, fonts: Fonts) -> int:
    return text_width(fonts.get(16), part.opened) + 16


def seat_texts(part: SeatsPart, fonts: Fonts, y: int = 0, *, left: int = 0) -> list[Text]:
    """Each seat's name (shortened to the room beside its "opened" pill) and the pill's word."""
    font = fonts.get(SEAT_PX)
    right = WIDTH - MARGIN - left
    seats_x = SEATS_X - left
    opened_w = _opened_width(part, fonts)
    texts: list[Text] = []
    for seat in part.seats:
        cy = y + 14
        name_right = right - 10
        if seat.opened:
            ox = right - 10 - opened_w
            box = (ox + 2, cy - 10, ox + opened_w - 6, cy + 10)
            texts.append(Text(part.opened, 16, (ox + (opened_w - 4) // 2, cy), "mm", box, TEXT))
            name_right = ox - 8
        name_x = seats_x + 22
        name = fit(font, seat.name, name_right - name_x)
        fill = GOLD if seat.is_turn else TEXT
        box = (name_x - 2, y, name_right, y + 28)
        texts.append(Text(name, SEAT_PX, (name_x, cy + 1), "lm", box, fill))
        y += 30
    return texts


def table_texts(scene: TableScene, fonts: Fonts) -> tuple[list[Text], tuple[int, int]]:
    """Every line of text the table picture draws, where it is in the whole picture, and the
    picture's size: what a test measures against the boxes."""
    texts, header_h = header_texts(HeaderPart.of(scene), fonts)
    info_top = header_h + INFO_TOP
    texts += pile_texts(scene, fonts, info_top)
    texts += seat_texts(SeatsPart.of(scene), fonts, info_top)
    _, _, rows, row_heights = _choose_tier(scene.melds, fonts)
    melds_h = _melds_band_height(rows, row_heights)
    return texts, (WIDTH, info_top + info_height(scene) + melds_h)
