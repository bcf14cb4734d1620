"""The round-end image: what each player was left holding, what it cost, and the totals.

Why: the moment a round ends is when players check the arithmetic. Showing the actual cards next
to the penalty lets them verify it at a glance, and the totals bars show how close each side is
to the limit.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .fonts import Fonts
from .paint import fit, paste, pill, text_width
from .scene import ROUND_END_LABELS, RoundEndScene, SideScore, label
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

WIDTH = 640
MARGIN = 16
TITLE_H = 52
NAME_W = 150
PENALTY_W = 84
ROW_PAD = 10
SIZE = TABLE_M


def _cards_per_line() -> int:
    usable = WIDTH - 2 * MARGIN - NAME_W - PENALTY_W
    return max(1, (usable - SIZE.width) // SIZE.step + 1)


def render_round_end_image(scene: RoundEndScene, fonts: Fonts, sprites: CardSprites) -> Image.Image:
    """Compose the round end (RGB)."""
    per_line = _cards_per_line()
    # A row fits the player's cards (wrapped), or just the name and badge when none are left.
    lines = [-(-len(p.cards) // per_line) for p in scene.players]
    row_hs = [max(48, n * (SIZE.height + 6)) + 2 * ROW_PAD for n in lines]
    totals_h = 40 + len(scene.totals) * 40
    note_font = fonts.get(18)
    note_lines = _wrap(scene.note, note_font, WIDTH - 2 * MARGIN) if scene.note else []
    height = TITLE_H + sum(row_hs) + totals_h + len(note_lines) * 24 + 2 * MARGIN
    canvas = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, WIDTH, TITLE_H), fill=FELT_DARK)
    draw.line((0, TITLE_H, WIDTH, TITLE_H), fill=GOLD, width=2)
    title_font = fonts.get(28)
    draw.text(
        (MARGIN, TITLE_H // 2 + 1),
        fit(title_font, scene.title, WIDTH - 2 * MARGIN),
        font=title_font,
        fill=TEXT,
        anchor="lm",
    )
    name_font, small, big = fonts.get(22), fonts.get(16), fonts.get(30)
    y = TITLE_H + 8
    for player, row_h in zip(scene.players, row_hs, strict=True):
        colour = team_colour(_colour_index(scene.totals, player.side_index))
        draw.rounded_rectangle((MARGIN, y + 6, MARGIN + 6, y + row_h - 6), radius=3, fill=colour)
        draw.text(
            (MARGIN + 16, y + ROW_PAD + 14),
            fit(name_font, player.name, NAME_W - 20),
            font=name_font,
            fill=TEXT,
            anchor="lm",
        )
        if player.went_out:
            text = label(scene.labels, ROUND_END_LABELS, "went_out")
            w = min(text_width(small, text) + 16, NAME_W - 20)
            top = y + ROW_PAD + 32
            pill(draw, (MARGIN + 16, top, MARGIN + 16 + w, top + 22), GOLD)
            draw.text(
                (MARGIN + 16 + w // 2, top + 12),
                fit(small, text, w - 10),
                font=small,
                fill=FELT_DARK,
                anchor="mm",
            )
        x0 = MARGIN + NAME_W
        if not player.cards:
            draw.text(
                (x0, y + ROW_PAD + 14),
                label(scene.labels, ROUND_END_LABELS, "no_cards"),
                font=small,
                fill=TEXT_DIM,
                anchor="lm",
            )
        for i, card in enumerate(player.cards):
            line, col = divmod(i, per_line)
            paste(
                canvas,
                sprites.face(card, SIZE, scene.four_colour),
                (x0 + col * SIZE.step, y + ROW_PAD + line * (SIZE.height + 6)),
            )
        penalty = label(scene.labels, ROUND_END_LABELS, "penalty", n=player.penalty)
        draw.text(
            (WIDTH - MARGIN, y + row_h // 2),
            fit(big, penalty, PENALTY_W),
            font=big,
            fill=GOLD if player.went_out else TEXT,
            anchor="rm",
        )
        y += row_h
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=FELT_LINE, width=1)
    y += 10
    draw.text(
        (MARGIN, y + 14),
        label(scene.labels, ROUND_END_LABELS, "totals"),
        font=name_font,
        fill=TEXT,
        anchor="lm",
    )
    y += 36
    for side in scene.totals:
        _draw_total(draw, fonts, scene, side, y)
        y += 40
    for line_text in note_lines:
        draw.text((MARGIN, y + 12), line_text, font=note_font, fill=TEXT_DIM, anchor="lm")
        y += 24
    return canvas


def _draw_total(
    draw: ImageDraw.ImageDraw, fonts: Fonts, scene: RoundEndScene, side: SideScore, y: int
) -> None:
    """Name, score against the limit, and a bar that fills up towards the limit."""
    colour = team_colour(side.colour_index)
    font = fonts.get(20)
    draw.ellipse((MARGIN + 2, y + 8, MARGIN + 18, y + 24), fill=colour)
    draw.text(
        (MARGIN + 28, y + 16), fit(font, side.name, NAME_W), font=font, fill=TEXT, anchor="lm"
    )
    if side.limit is None:
        score = str(side.score)
    else:
        score = label(scene.labels, ROUND_END_LABELS, "score", score=side.score, limit=side.limit)
    draw.text((WIDTH - MARGIN, y + 16), score, font=font, fill=TEXT, anchor="rm")
    if side.limit:
        left = MARGIN + NAME_W + 40
        right = WIDTH - MARGIN - 120
        draw.rounded_rectangle((left, y + 10, right, y + 22), radius=6, fill=FELT_DARK)
        share = max(0.0, min(1.0, side.score / side.limit))
        if share > 0:
            fill = RED if share >= 0.8 else colour
            draw.rounded_rectangle(
                (left, y + 10, left + max(12, int((right - left) * share)), y + 22),
                radius=6,
                fill=fill,
            )


def _colour_index(totals: tuple[SideScore, ...], index: int) -> int:
    return totals[index].colour_index if 0 <= index < len(totals) else index


def _wrap(text: str, font: object, width: int) -> list[str]:
    """Greedy word wrap of the note under the totals."""
    from PIL import ImageFont

    assert isinstance(font, ImageFont.FreeTypeFont)
    lines: list[str] = []
    for paragraph in text.splitlines():
        words, current = paragraph.split(), ""
        for word in words:
            trial = f"{current} {word}".strip()
            if current and text_width(font, trial) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines
