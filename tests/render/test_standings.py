"""The final standings picture of a season: a small PNG, the same bytes for the same lines,
and columns laid out from their own headers so French ones never run into each other."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.paint import text_width
from bot.render.scene import StandingLine
from bot.render.standings import (
    LINE_PX,
    SUB_PX,
    WIDTH,
    _column_ends,
    fonts,
    standings_png,
)

FRENCH = ["#", "Joueur", "Cote", "Parties", "Victoires"]
LINES = [StandingLine(n, f"joueur {n}" * n, f"{1100 - n}?", 100 + n, 50 + n) for n in range(1, 11)]


def test_standings_are_a_small_png_drawn_the_same_every_time() -> None:
    png = standings_png("Classement final de la saison", "2026-01-01 – 2026-01-31", FRENCH, LINES)
    assert png == standings_png(
        "Classement final de la saison", "2026-01-01 – 2026-01-31", FRENCH, LINES
    )
    assert len(png) < 30_000
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH and image.height > 40 * len(LINES)


def test_number_columns_never_overlap_their_headers() -> None:
    head, body = fonts().get(SUB_PX), fonts().get(LINE_PX)
    rows = [("1", "x", line.rating, f"{line.games}", f"{line.wins}") for line in LINES]
    rating_end, games_end, wins_end = _column_ends(FRENCH, rows, head, body)
    assert wins_end - text_width(head, "Victoires") > games_end
    assert games_end - text_width(head, "Parties") > rating_end
    assert wins_end <= WIDTH
