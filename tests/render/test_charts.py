"""The charts (bot/render/chart.py and their words in bot/features/stats/charts.py): the same chart is
the same bytes, small (at most 30 KB) even for a long game of six, each side's line in its team
colour with its name at its end, labels that never overlap, words in the reader's language and
alt text within Discord's 1,024 characters."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from bot.features.stats.charts import ALT_LIMIT, alt_text, rating_chart
from bot.render import Renderer
from bot.render.chart import (
    END_NAME_W,
    MARGIN,
    TICK_PX,
    WIDTH,
    EndLabel,
    end_labels,
    spread,
)
from bot.render.drawing import ProcessDrawer
from bot.render.encode import mapped
from bot.render.scene import ChartScene, ChartSeries
from bot.render.theme import GOLD, team_colour
from bot.storage.base import RatingChange
from bot.text import t

MAX_BYTES = 30 * 1024
NAMES = ("Alice", "Bartholomew the Magnificent", "Chloé", "Dmitri", "Eve", "Farouk")


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def scores(sides: int, rounds: int, seed: int = 1, step: int = 40) -> tuple[ChartSeries, ...]:
    rng = random.Random(seed)
    series = []
    for side in range(sides):
        values = [0]
        for _ in range(rounds):
            values.append(values[-1] + rng.randint(0, step))
        series.append(ChartSeries(NAMES[side], tuple(values), side))
    return tuple(series)


def labels(locale: str, limit: int) -> dict[str, str]:
    return {
        "x_axis": t("charts.round", locale),
        "y_axis": t("charts.points", locale),
        "limit": t("charts.limit", locale, limit=limit),
    }


def score_scene(sides: int, rounds: int, locale: str = "en", limit: int | None = 251) -> ChartScene:
    title = t("charts.score_title", locale, title="Rummy 51 1v1 · table #12")
    return ChartScene(title, scores(sides, rounds), 0, limit, labels(locale, limit or 0))


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def colours_of(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.getcolors(maxcolors=1 << 16) or []}


def shown(renderer: Renderer, colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """What ``colour`` becomes in a picture: its nearest colour of the shared palette."""
    palette = renderer.palette()
    assert palette is not None
    pixel = mapped(Image.new("RGB", (1, 1), colour), palette).convert("RGB").getpixel((0, 0))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_the_same_chart_is_the_same_bytes_in_a_fresh_renderer(renderer: Renderer) -> None:
    scene = score_scene(2, 9)
    assert renderer.render(scene) == Renderer().render(scene)
    assert renderer.render(scene) != renderer.render(score_scene(2, 8))


@pytest.mark.parametrize("sides", [2, 3, 4, 5, 6])
def test_every_side_has_its_line_in_its_colour_and_the_chart_is_small(
    renderer: Renderer, sides: int
) -> None:
    png = renderer.render(score_scene(sides, 9, limit=None if sides > 2 else 251))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) <= MAX_BYTES
    image = opened(png)
    assert image.width == WIDTH
    found = colours_of(image)
    assert all(shown(renderer, team_colour(side)) in found for side in range(sides))
    assert (shown(renderer, GOLD) in found) == (
        sides == 2
    )  # the limit's dashed line (Basic has no limit)


def test_a_long_game_of_six_stays_under_30_kb(renderer: Renderer) -> None:
    png = renderer.render(score_scene(6, 60))
    assert len(png) <= MAX_BYTES
    assert opened(png).width == WIDTH


def test_a_one_round_game_and_a_single_rating_draw(renderer: Renderer) -> None:
    one = ChartScene("x", (ChartSeries("Alice", (0, 40), 0), ChartSeries("Bob", (0, 0), 1)))
    rating = ChartScene("y", (ChartSeries("Rummy 51", (1012,), 0),), x_start=1)
    for scene in (one, rating):
        assert len(renderer.render(scene)) <= MAX_BYTES


def test_french_words_change_the_picture(renderer: Renderer) -> None:
    english, french = score_scene(2, 5, "en"), score_scene(2, 5, "fr")
    assert french.labels["x_axis"] == "Manche" and french.labels["limit"] == "Limite 251"
    assert french.title.startswith("Scores par manche")
    assert renderer.render(english) != renderer.render(french)


def test_labels_at_line_ends_are_spread_apart_within_the_plot() -> None:
    placed = spread([100, 101, 102, 300, 301, 599], 26, 13, 400)
    assert all(b - a >= 26 for a, b in itertools.pairwise(placed))
    assert placed[:3] == [100, 126, 152] and placed[-1] == 400
    assert spread([50, 200], 26, 13, 400) == [50, 200]  # apart already: not moved


def test_end_labels_fit_the_picture(renderer: Renderer) -> None:
    """The rightmost ink of a six-side chart with a long name stays inside the margin."""
    image = opened(renderer.render(score_scene(6, 12)))
    felt = image.getpixel((WIDTH - 1, 0))
    right = image.crop((WIDTH - MARGIN // 2, 0, WIDTH, image.height))
    assert colours_of(right) == {felt}


def test_a_name_too_wide_for_its_line_end_is_left_to_the_legend(renderer: Renderer) -> None:
    """French family names ("Toutes les variantes", "Rami classique") were cut at their lines'
    ends ("Toutes les … 1145"): such a line ends with its marker and value (the legend names it
    in full), a short name keeps its own; no label is cut, and the plot gets the room back."""
    names = ("Rami 51", "Rami classique", "Toutes les variantes")
    values = ((1000, 1040), (990, 1044), (1000, 1010, 1145))
    series = tuple(ChartSeries(n, v, i) for i, (n, v) in enumerate(zip(names, values, strict=True)))
    scene = ChartScene(t("charts.rating_title", "fr", player="Alice"), series, x_start=1)
    font = renderer.fonts.get(24)
    assert font.getlength("Rami 51") <= END_NAME_W < font.getlength("Rami classique")
    assert end_labels(scene, renderer.fonts) == [
        EndLabel("Rami 51 1040", marked=True),  # stops short: its marker first
        EndLabel("1044", marked=True),
        EndLabel("1145", marked=True),
    ]
    assert len(renderer.render(scene)) <= MAX_BYTES


def test_alt_text_fits_1024_characters_and_names_the_values() -> None:
    series = scores(6, 9)
    head = t("charts.score_alt", "en", limit=251)
    tail = t("charts.alt_winners", "en", winners="Alice", count=1)
    short = alt_text(head, series, tail, "en")
    assert "limit of 251" in short and short.endswith("Winner: Alice.")
    assert all(", ".join(map(str, s.values)) in short for s in series)
    long = alt_text(head, scores(6, 80, step=400), tail, "en")
    assert len(long) <= ALT_LIMIT and "…" in long and long.endswith("Winner: Alice.")
    french = alt_text(
        t("charts.score_alt", "fr", limit=251),
        series,
        t("charts.alt_winners", "fr", winners="Alice, Bob", count=2),
        "fr",
    )
    assert "Alice : 0," in french and french.endswith("Vainqueurs : Alice, Bob.")


def test_digits_stay_readable_on_a_phone(renderer: Renderer) -> None:
    """Shown 400 px wide (a phone in portrait), the axes' digits are 11 px tall or more."""
    png = renderer.render(score_scene(6, 12))
    width = opened(png).width
    digit = renderer.fonts.get(TICK_PX).getbbox("0", anchor="ls")
    assert (digit[3] - digit[1]) * 400 / width >= 11


async def test_a_drawing_process_draws_the_same_bytes(renderer: Renderer) -> None:
    """The bot draws in worker processes: the scene travels pickled, the chart is the same."""
    scene = score_scene(4, 9, "fr", limit=None)
    drawer = ProcessDrawer(1)
    try:
        assert await drawer.png(scene) == renderer.render(scene)
    finally:
        await drawer.close()


def test_a_veterans_rating_chart_numbers_the_latest_games(renderer: Renderer) -> None:
    """80 rated games: the latest 50 are drawn as games 31 to 80; a variant with 3 games of its
    own starts at 1 beside it."""
    many = [RatingChange(g, 1000.0 + g, 1001.0 + g) for g in range(80, 30, -1)]  # newest first
    few = [RatingChange(g, 990.0, 995.0 + g) for g in (3, 2, 1)]
    chart = rating_chart("alice", [("All variants", 80, many), ("Rummy 51", 3, few)], 7, "en")
    assert chart is not None and chart.filename == "rating-7.png"
    first, second = chart.scene.series
    assert (first.start, first.values[0], first.values[-1]) == (31, 1032, 1081)
    assert (second.start, second.values) == (1, (996, 997, 998))
    assert "All variants: 1032, 1033, " in chart.description
    assert chart.description.endswith("Rummy 51: 996, 997, 998.")
    assert len(renderer.render(chart.scene)) <= MAX_BYTES
    assert rating_chart("bob", [("Rummy 51", 0, [])], 8, "en") is None
