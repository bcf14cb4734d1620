"""The round-end image: what each player was left holding, what it made, and the totals.

Why: the moment a round ends is when players check the arithmetic. Showing the actual cards next
to their points lets them verify it at a glance, and the totals show what each side's total
gained this round and (Atlas variants) how close it is to the limit.

Each player's name has a line of its own above the cards, so a long name (Discord allows 32
characters) or a team name has the picture's width; the points have a column of their own,
with a caption that says what they are: a penalty (Rummy 51, 71, Simple), or in Basic rummy
what the winner collects and what each other hand is worth to the winner. Every line of text is
placed first (:func:`round_end_texts`), so a test can measure it against its box.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import Fonts
from .paint import Text, draw_texts, fit, fit_size, paste, pill, text_width
from .scene import ROUND_END_LABELS, PlayerResult, RoundEndScene, SideScore, label
from .sprites import CardSprites
from .theme import (
    FELT,
    FELT_DARK,
    FELT_LINE,
    GOLD,
    RED,
    TABLE_M,
    TEXT,
    TEXT_DIM,
    team_colour,
)

WIDTH = 760
MARGIN = 16
TITLE_H = 52
TITLE_SIZES = (28, 26, 24, 22, 20, 18)
NAME_PX = 22
NAME_H = 30
#: Where a row's name and cards start (right of the side's colour bar).
ROW_LEFT = MARGIN + 16
#: The points column on the right of every row.
POINTS_W = 128
ROW_PAD = 10
SIZE = TABLE_M
TOTAL_PX = 20
TOTAL_H = 52
#: The column of a total's gain this round, and of the total itself.
GAIN_W = 84
SCORE_W = 150
#: The room of the words over the column of this round's gains.
COLUMN_W = 150
NOTE_PX = 18


@dataclass(frozen=True)
class _Row:
    """One player's row: its top, height, and where its cards start."""

    player: PlayerResult
    top: int
    height: int


def _cards_per_line() -> int:
    usable = WIDTH - MARGIN - POINTS_W - ROW_LEFT
    return max(1, (usable - SIZE.width) // SIZE.step + 1)


def _rows(scene: RoundEndScene) -> list[_Row]:
    per_line = _cards_per_line()
    rows, y = [], TITLE_H + 8
    for player in scene.players:
        lines = -(-len(player.cards) // per_line)
        cards_h = lines * (SIZE.height + 6) if lines else 30
        height = ROW_PAD + NAME_H + cards_h + ROW_PAD
        rows.append(_Row(player, y, height))
        y += height
    return rows


def _totals_top(rows: list[_Row]) -> int:
    return (rows[-1].top + rows[-1].height if rows else TITLE_H + 8) + 10


def _note_lines(scene: RoundEndScene, fonts: Fonts) -> list[str]:
    return _wrap(scene.note, fonts.get(NOTE_PX), WIDTH - 2 * MARGIN) if scene.note else []


def image_height(scene: RoundEndScene, fonts: Fonts) -> int:
    totals_top = _totals_top(_rows(scene))
    notes = len(_note_lines(scene, fonts))
    return totals_top + 36 + len(scene.totals) * TOTAL_H + notes * 24 + MARGIN


@dataclass(frozen=True)
class Layout:
    """Every line of text of the picture, in its place with the room it may use, and the gold
    pills of the "went out" badges under their words."""

    texts: list[Text]
    badges: list[tuple[int, int, int, int]]


def round_end_texts(scene: RoundEndScene, fonts: Fonts) -> list[Text]:
    return layout(scene, fonts).texts


def layout(scene: RoundEndScene, fonts: Fonts) -> Layout:
    """Where every word of the picture goes (see :class:`Layout`)."""
    labels = scene.labels
    badges: list[tuple[int, int, int, int]] = []
    title_px = fit_size(fonts, scene.title, WIDTH - 2 * MARGIN, TITLE_SIZES)
    texts = [
        Text(
            scene.title,
            title_px,
            (MARGIN, TITLE_H // 2 + 1),
            "lm",
            (MARGIN - 2, 0, WIDTH - MARGIN, TITLE_H),
            TEXT,
        )
    ]
    small = fonts.get(16)
    name_font = fonts.get(NAME_PX)
    points_left = WIDTH - MARGIN - POINTS_W
    for row in _rows(scene):
        player, y = row.player, row.top
        name_y = y + ROW_PAD + NAME_H // 2
        badge_w = 0
        badge = label(labels, ROUND_END_LABELS, "went_out") if player.went_out else ""
        if badge:
            badge_w = min(text_width(small, badge) + 16, (points_left - ROW_LEFT) // 2)
        name_right = points_left - 12 - (badge_w + 10 if badge else 0)
        name = fit(name_font, player.name, name_right - ROW_LEFT)
        if badge:  # the name's box ends where its badge starts
            name_right = ROW_LEFT + text_width(name_font, name) + 8
        texts.append(
            Text(
                name, NAME_PX, (ROW_LEFT, name_y), "lm", (ROW_LEFT - 2, y, name_right, y + 40), TEXT
            )
        )
        if badge:
            left = name_right + 2
            badges.append((left, name_y - 11, left + badge_w, name_y + 11))
            box = (left + 4, name_y - 11, left + badge_w - 4, name_y + 11)
            texts.append(
                Text(
                    fit(small, badge, badge_w - 10),
                    16,
                    (left + badge_w // 2, name_y + 1),
                    "mm",
                    box,
                    FELT_DARK,
                )
            )
        if not player.cards:
            cards_top = y + ROW_PAD + NAME_H
            no_cards = fit(
                small, label(labels, ROUND_END_LABELS, "no_cards"), points_left - ROW_LEFT
            )
            box = (ROW_LEFT - 2, cards_top, points_left, cards_top + 30)
            texts.append(Text(no_cards, 16, (ROW_LEFT, cards_top + 14), "lm", box, TEXT_DIM))
        texts += _points_texts(scene, player, fonts, y + row.height // 2, row)
    y = _totals_top(_rows(scene))
    totals = label(labels, ROUND_END_LABELS, "totals")
    score_left = WIDTH - MARGIN - SCORE_W
    column_left = score_left - 8 - COLUMN_W
    totals_right = column_left - 8 if scene.round_points else WIDTH - MARGIN
    box = (MARGIN - 2, y, totals_right, y + 30)
    texts.append(
        Text(
            fit(name_font, totals, totals_right - MARGIN),
            NAME_PX,
            (MARGIN, y + 14),
            "lm",
            box,
            TEXT,
        )
    )
    if scene.round_points:
        this_round = fit(small, label(labels, ROUND_END_LABELS, "this_round"), COLUMN_W)
        box = (column_left, y, score_left - 8, y + 30)
        texts.append(Text(this_round, 16, (score_left - 12, y + 16), "rm", box, TEXT_DIM))
    y += 36
    for i, side in enumerate(scene.totals):
        texts += _total_texts(scene, i, side, fonts, y)
        y += TOTAL_H
    for line_text in _note_lines(scene, fonts):
        box = (MARGIN - 2, y, WIDTH - MARGIN, y + 24)
        texts.append(Text(line_text, NOTE_PX, (MARGIN, y + 12), "lm", box, TEXT_DIM))
        y += 24
    return Layout(texts, badges)


def _points_texts(
    scene: RoundEndScene, player: PlayerResult, fonts: Fonts, middle: int, row: _Row
) -> list[Text]:
    """The row's points, big, and what they are, small, in the right-hand column (none in a
    void round: nobody pays or collects)."""
    labels = scene.labels
    if scene.scoring == "void":
        return []
    if scene.scoring == "gain" and not player.went_out:
        number = label(labels, ROUND_END_LABELS, "counted", n=player.points)
        caption = label(labels, ROUND_END_LABELS, "counted_caption")
        colour = TEXT_DIM
    else:
        number = label(labels, ROUND_END_LABELS, "penalty", n=player.points)
        key = "collected_caption" if scene.scoring == "gain" else "penalty_caption"
        caption = label(labels, ROUND_END_LABELS, key)
        colour = GOLD if player.went_out else TEXT
    left, right = WIDTH - MARGIN - POINTS_W, WIDTH - MARGIN
    at = right - 2  # a right-aligned word's last letter may lean a pixel past its advance
    small = fonts.get(16)
    size = fit_size(fonts, number, POINTS_W, (30, 26, 22))
    return [
        Text(number, size, (at, middle - 8), "rm", (left, row.top, right, middle + 9), colour),
        Text(
            fit(small, caption, POINTS_W),
            16,
            (at, middle + 20),
            "rm",
            (left, middle + 9, right, row.top + row.height),
            TEXT_DIM,
        ),
    ]


def _gain_text(scene: RoundEndScene, index: int) -> str:
    if index >= len(scene.round_points):
        return ""
    return label(scene.labels, ROUND_END_LABELS, "penalty", n=scene.round_points[index])


def _total_texts(
    scene: RoundEndScene, index: int, side: SideScore, fonts: Fonts, y: int
) -> list[Text]:
    """A total's line: the side's name (the width the other columns leave), what it gained
    this round, its score against the limit; the bar below it is drawn by :func:`_draw_total`."""
    font = fonts.get(TOTAL_PX)
    score_left = WIDTH - MARGIN - SCORE_W
    gain_left = score_left - GAIN_W
    name_left = MARGIN + 28
    name = fit(font, side.name, gain_left - 8 - name_left)
    texts = [
        Text(
            name,
            TOTAL_PX,
            (name_left, y + 14),
            "lm",
            (name_left - 2, y - 6, gain_left - 8, y + 30),
            TEXT,
        )
    ]
    gain = _gain_text(scene, index)
    if gain:
        points = scene.round_points[index]
        colour = TEXT_DIM if not points else GOLD if scene.scoring == "gain" else TEXT
        box = (gain_left, y - 6, score_left - 8, y + 30)
        texts.append(Text(gain, TOTAL_PX, (score_left - 12, y + 14), "rm", box, colour))
    if side.limit is None:
        score = str(side.score)
    else:
        score = label(scene.labels, ROUND_END_LABELS, "score", score=side.score, limit=side.limit)
    texts.append(
        Text(
            fit(font, score, SCORE_W),
            TOTAL_PX,
            (WIDTH - MARGIN, y + 14),
            "rm",
            (score_left, y - 6, WIDTH - MARGIN, y + 30),
            TEXT,
        )
    )
    return texts


def render_round_end_image(scene: RoundEndScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Compose the round end (RGB)."""
    canvas = Image.new("RGB", (WIDTH, image_height(scene, fonts)), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, WIDTH, TITLE_H), fill=FELT_DARK)
    draw.line((0, TITLE_H, WIDTH, TITLE_H), fill=GOLD, width=2)
    placed = layout(scene, fonts)
    per_line = _cards_per_line()
    rows = _rows(scene)
    for row in rows:
        player, y = row.player, row.top
        colour = team_colour(_colour_index(scene.totals, player.side_index))
        draw.rounded_rectangle(
            (MARGIN, y + 6, MARGIN + 6, y + row.height - 6), radius=3, fill=colour
        )
        cards_top = y + ROW_PAD + NAME_H
        for i, card in enumerate(player.cards):
            line, col = divmod(i, per_line)
            paste(
                canvas,
                sprites.face(card, SIZE, scene.four_colour),
                (ROW_LEFT + col * SIZE.step, cards_top + line * (SIZE.height + 6)),
            )
        draw.line((MARGIN, y + row.height, WIDTH - MARGIN, y + row.height), fill=FELT_LINE, width=1)
    for box in placed.badges:
        pill(draw, box, GOLD)
    y = _totals_top(rows) + 36
    for side in scene.totals:
        _draw_total(draw, side, y)
        y += TOTAL_H
    draw_texts(draw, fonts, placed.texts, kept=False)
    return canvas


def _draw_total(draw: ImageDraw.ImageDraw, side: SideScore, y: int) -> None:
    """The side's colour dot and, against a limit, a bar under its line that fills up
    towards the limit (red from four fifths on)."""
    colour = team_colour(side.colour_index)
    draw.ellipse((MARGIN + 2, y + 6, MARGIN + 18, y + 22), fill=colour)
    if not side.limit:
        return
    left, right = MARGIN + 28, WIDTH - MARGIN
    top = y + 32
    draw.rounded_rectangle((left, top, right, top + 10), radius=5, fill=FELT_DARK)
    share = max(0.0, min(1.0, side.score / side.limit))
    if share > 0:
        fill = RED if share >= 0.8 else colour
        draw.rounded_rectangle(
            (left, top, left + max(10, int((right - left) * share)), top + 10), radius=5, fill=fill
        )


def _colour_index(totals: tuple[SideScore, ...], index: int) -> int:
    return totals[index].colour_index if 0 <= index < len(totals) else index


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap of the note under the totals."""
    lines: list[str] = []
    for paragraph in text.splitlines():
        words, current = paragraph.split(), ""
        for word in words:
            trial = f"{current} {word}".strip()
            if current and text_width(font, trial) > width:
                lines.append(current)
                current = fit(font, word, width)
            else:
                current = trial
        lines.append(fit(font, current, width))
    return lines
