"""The final standings of a season as a picture: a title, the dates, one line per player.

Why its own small drawer rather than a scene of the drawing processes: it is drawn once per
season per server (never per move), from words already translated by the caller, so it runs in
a thread (:func:`asyncio.to_thread` in the Discord layer) and keeps the drawing processes'
scene protocol unchanged. Same table colours as every picture (:mod:`bot.render.theme`),
the package's font, wide lines a phone reads without zooming.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import Fonts
from .paint import fit, text_width
from .theme import FELT, FELT_DARK, FELT_LINE, GOLD, RGB, TEXT, TEXT_DIM

WIDTH = 640
MARGIN = 24
TITLE_PX, SUB_PX, LINE_PX = 30, 20, 24
LINE_HEIGHT = 40
HEAD_HEIGHT = 112
#: Where each column ends (right-aligned numbers) or starts (the name), from the left edge.
RANK_END, NAME_START, RATING_END, GAMES_END, WINS_END = 64, 84, 460, 540, 616

_FONTS = Fonts()


@dataclass(frozen=True)
class StandingLine:
    """One drawn line, already worded: rank, name, rating (with its ``?``), games, wins."""

    rank: int
    name: str
    rating: str
    games: int
    wins: int


def standings_png(
    title: str, subtitle: str, header: Sequence[str], lines: Sequence[StandingLine]
) -> bytes:
    """The picture as PNG bytes; *header* names the columns (rank, player, rating, games,
    wins). The first three lines are gold: the podium."""
    height = HEAD_HEIGHT + LINE_HEIGHT * (len(lines) + 1) + MARGIN
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    title_font, sub_font, font = _FONTS.get(TITLE_PX), _FONTS.get(SUB_PX), _FONTS.get(LINE_PX)
    draw.text((MARGIN, MARGIN), fit(title_font, title, WIDTH - 2 * MARGIN), GOLD, title_font)
    draw.text((MARGIN, MARGIN + 44), fit(sub_font, subtitle, WIDTH - 2 * MARGIN), TEXT_DIM,
              sub_font)  # fmt: skip
    top = HEAD_HEIGHT
    draw.rectangle((0, top, WIDTH, top + LINE_HEIGHT), FELT_DARK)
    _line(draw, top, header, sub_font, TEXT_DIM)
    for index, line in enumerate(lines, start=1):
        y = top + LINE_HEIGHT * index
        draw.line((MARGIN, y, WIDTH - MARGIN, y), FELT_LINE)
        colour = GOLD if line.rank <= 3 else TEXT
        cells = (f"{line.rank}", line.name, line.rating, f"{line.games}", f"{line.wins}")
        _line(draw, y, cells, font, colour)
    out = io.BytesIO()
    image.quantize(colors=32).save(out, "PNG", optimize=True)
    return out.getvalue()


def _line(
    draw: ImageDraw.ImageDraw,
    y: int,
    cells: Sequence[str],
    font: ImageFont.FreeTypeFont,
    colour: RGB,
) -> None:
    """One row: the rank right-aligned, the name cut to its column, the numbers right-aligned."""
    rank, name, rating, games, wins = cells
    middle = y + LINE_HEIGHT // 2
    for text, end in ((rank, RANK_END), (rating, RATING_END), (games, GAMES_END), (wins, WINS_END)):
        draw.text((end - text_width(font, text), middle), text, colour, font, anchor="lm")
    name_room = RATING_END - 120 - NAME_START
    draw.text((NAME_START, middle), fit(font, name, name_room), colour, font, anchor="lm")
