"""The final standings of a season as a picture: a title, the dates, one line per player.

Drawn once per season per server (never per move), from words already translated by the
caller (:class:`~bot.render.scene.StandingsScene`), in a drawing process like every picture, so
the bot's own process never loads Pillow for it. Same table colours as every picture
(:mod:`bot.render.theme`), the package's font, wide lines a phone reads without zooming.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from .fonts import Fonts
from .paint import fit, text_width
from .scene import StandingsScene
from .theme import FELT, FELT_DARK, FELT_LINE, GOLD, RGB, TEXT, TEXT_DIM

WIDTH = 640
MARGIN = 24
TITLE_PX, SUB_PX, LINE_PX = 30, 20, 24
LINE_HEIGHT = 40
HEAD_HEIGHT = 112
#: Where the rank ends and the name starts; the number columns are laid out from the right,
#: each as wide as its header or its widest number (French headers are longer).
RANK_END, NAME_START, GAP = 64, 84, 22



def standings_image(scene: StandingsScene, fonts: Fonts) -> Image.Image:
    """The picture; the first three lines are gold: the podium."""
    title, subtitle, header, lines = scene.title, scene.subtitle, scene.header, scene.lines
    height = HEAD_HEIGHT + LINE_HEIGHT * (len(lines) + 1) + MARGIN
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    title_font, sub_font, font = fonts.get(TITLE_PX), fonts.get(SUB_PX), fonts.get(LINE_PX)
    draw.text((MARGIN, MARGIN), fit(title_font, title, WIDTH - 2 * MARGIN), GOLD, title_font)
    draw.text((MARGIN, MARGIN + 44), fit(sub_font, subtitle, WIDTH - 2 * MARGIN), TEXT_DIM,
              sub_font)  # fmt: skip
    top = HEAD_HEIGHT
    rows = [(f"{x.rank}", x.name, x.rating, f"{x.games}", f"{x.wins}") for x in lines]
    ends = _column_ends(header, rows, sub_font, font)
    draw.rectangle((0, top, WIDTH, top + LINE_HEIGHT), FELT_DARK)
    _line(draw, top, header, sub_font, TEXT_DIM, ends)
    for index, (line, cells) in enumerate(zip(lines, rows, strict=True), start=1):
        y = top + LINE_HEIGHT * index
        draw.line((MARGIN, y, WIDTH - MARGIN, y), FELT_LINE)
        _line(draw, y, cells, font, GOLD if line.rank <= 3 else TEXT, ends)
    return image


def _column_ends(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    head_font: ImageFont.FreeTypeFont,
    font: ImageFont.FreeTypeFont,
) -> tuple[int, int, int]:
    """Right edges of the rating, games and wins columns, from the right margin leftwards."""
    widths = [
        max([text_width(head_font, header[column])] + [text_width(font, r[column]) for r in rows])
        for column in (2, 3, 4)
    ]
    wins_end = WIDTH - MARGIN
    games_end = wins_end - widths[2] - GAP
    return games_end - widths[1] - GAP, games_end, wins_end


def _line(
    draw: ImageDraw.ImageDraw,
    y: int,
    cells: Sequence[str],
    font: ImageFont.FreeTypeFont,
    colour: RGB,
    ends: tuple[int, int, int],
) -> None:
    """One row: the rank right-aligned, the name cut to its column, the numbers right-aligned."""
    rank, name, rating, games, wins = cells
    middle = y + LINE_HEIGHT // 2
    rating_end, games_end, wins_end = ends
    for text, end in ((rank, RANK_END), (rating, rating_end), (games, games_end), (wins, wins_end)):
        draw.text((end - text_width(font, text), middle), text, colour, font, anchor="lm")
    rating_start = rating_end - max(text_width(font, rating), 90)
    name_room = rating_start - GAP - NAME_START
    draw.text((NAME_START, middle), fit(font, name, name_room), colour, font, anchor="lm")
