"""The final standings picture of a season: a small PNG, the same bytes for the same lines in a
drawing process as here, and columns laid out from their own headers so French ones never run
into each other."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import Renderer
from bot.render.drawing import ProcessDrawer
from bot.render.fonts import Fonts
from bot.render.paint import text_width
from bot.render.scene import StandingLine, StandingsScene
from bot.render.standings import LINE_PX, SUB_PX, WIDTH, _column_ends

FRENCH = ("#", "Joueur", "Cote", "Parties", "Victoires")
LINES = tuple(
    StandingLine(n, f"joueur {n}" * n, f"{1100 - n}?", 100 + n, 50 + n) for n in range(1, 11)
)
SCENE = StandingsScene("Classement final de la saison", "2026-01-01 – 2026-01-31", FRENCH, LINES)


async def test_standings_are_a_small_png_drawn_alike_in_a_drawing_process() -> None:
    png = Renderer().render(SCENE)
    drawer = ProcessDrawer(1)
    try:
        assert await drawer.png(SCENE) == png
    finally:
        await drawer.close()
    assert len(png) < 30_000
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH and image.height > 40 * len(LINES)


def test_number_columns_never_overlap_their_headers() -> None:
    fonts = Fonts()
    head, body = fonts.get(SUB_PX), fonts.get(LINE_PX)
    rows = [("1", "x", line.rating, f"{line.games}", f"{line.wins}") for line in LINES]
    rating_end, games_end, wins_end = _column_ends(FRENCH, rows, head, body)
    assert wins_end - text_width(head, "Victoires") > games_end
    assert games_end - text_width(head, "Parties") > rating_end
    assert wins_end <= WIDTH
