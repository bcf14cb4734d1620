"""Line charts: each side's score after every round against the limit, a player's rating.

Why drawn here and not with a plotting library: the bot ships Pillow only, and a chart of a
few lines is a few dozen drawing calls (well under the 20 ms and 30 KB budget, see
``benchmarks/bench_charts.py``). It speaks the pictures' visual language: the felt, the team
colours of the table picture (a side keeps its colour from the table to the chart), the shipped
font and the shared palette (so the same chart is the same bytes).

Readable on a phone, where Discord shows a picture 400 px wide: the chart is 640 px wide, so
its 24 px digits stay 11 px tall or more there; lines are 5 px. Colour is never the only clue:
every line has its own marker shape (also in the legend) and its name at its end. A name too
long for the end of its line ("Toutes les variantes") is not cut there: the legend names it in
full, so its end label is its marker and its value, and the plot keeps its width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import Fonts
from .paint import fit, fit_size, text_width
from .scene import CHART_LABELS, ChartScene, ChartSeries
from .theme import BLACK, FELT, FELT_DARK, FELT_LINE, GOLD, RGB, TEXT, TEXT_DIM, team_colour

WIDTH = 640
MARGIN = 16
TITLE_SIZES = (30, 28, 26, 24, 22, 20)
TITLE_H = 50
LEGEND_PX = 24
LEGEND_H = 36
TICK_PX = 24
AXIS_PX = 24
END_PX = 24
END_H = 28
PLOT_H = 320
LINE_W = 5
MARK_R = 7
#: The widest a name may be at a line's end (a wider one leaves its end label to its marker and
#: its value), and in the legend.
END_NAME_W = 160
LEGEND_NAME_W = WIDTH - 2 * MARGIN - 64
#: Beyond this many points a line shows its marker at its end only (markers would clutter).
MARKED_POINTS = 16
#: The marker before the end label of a line that stops short of the right edge, or whose
#: name is left to the legend.
EARLY_W = 2 * MARK_R + 8
SHAPES = ("circle", "square", "triangle", "diamond", "down", "hexagon")


def label_of(scene: ChartScene, key: str, **params: object) -> str:
    template = scene.labels.get(key, CHART_LABELS[key])
    return template.format(**params) if params else template


def nice_step(span: float, most: int) -> int:
    """The smallest of 1, 2, 5 × 10^k that cuts ``span`` into at most ``most`` steps."""
    span = max(span, 1.0)
    power: int = 10 ** max(0, math.floor(math.log10(span / most)))
    for factor in (1, 2, 5, 10):
        if span / (factor * power) <= most:
            return int(factor * power)
    return int(10 * power)


@dataclass(frozen=True)
class _Frame:
    """Where the plot lies and how values map into it."""

    left: int
    top: int
    right: int
    bottom: int
    x_min: int
    x_max: int
    y_min: int
    y_max: int

    def x(self, value: float) -> float:
        span = max(1, self.x_max - self.x_min)
        return self.left + (value - self.x_min) * (self.right - self.left) / span

    def y(self, value: float) -> float:
        span = max(1, self.y_max - self.y_min)
        return self.bottom - (value - self.y_min) * (self.bottom - self.top) / span


def _y_range(scene: ChartScene) -> tuple[int, int, int]:
    """Low, high and tick step of the y axis: round numbers around every value and the limit."""
    values = [v for s in scene.series for v in s.values] or [0]
    low, high = min(values), max(values)
    if scene.limit:
        high = max(high, scene.limit)
    if scene.x_start == 0:  # scores start at 0
        low = min(low, 0)
    step = nice_step(high - low, 5)
    low = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top - high < step * 0.2:  # room over the highest line (and the limit's words)
        top += step
    return low, max(top, low + step), step


def _legend_rows(scene: ChartScene, fonts: Fonts) -> list[list[tuple[str, int]]]:
    """The legend's items (name, series index; -1 for the limit) in rows that fit the width."""
    font = fonts.get(LEGEND_PX)
    items = [(fit(font, s.name, LEGEND_NAME_W), i) for i, s in enumerate(scene.series)]
    if scene.limit:
        items.append((label_of(scene, "limit", limit=scene.limit), -1))
    rows: list[list[tuple[str, int]]] = [[]]
    x = MARGIN
    for text, index in items:
        width = _legend_item_w(font, text)
        if rows[-1] and x + width > WIDTH - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append((text, index))
        x += width
    return rows


def _legend_item_w(font: ImageFont.FreeTypeFont, text: str) -> int:
    return 40 + text_width(font, text) + 24


def render_chart_image(scene: ChartScene, fonts: Fonts) -> Image.Image:
    """The chart as an RGB image."""
    legend = _legend_rows(scene, fonts)
    end_font = fonts.get(END_PX)
    ends = end_labels(scene, fonts)
    end_w = max((e.width(end_font) for e in ends), default=0)
    top = TITLE_H + LEGEND_H * len(legend) + 46  # the y axis' words over the plot
    height = top + PLOT_H + 70
    x_min = min((s.first_x(scene.x_start) for s in scene.series), default=scene.x_start)
    x_max = max((s.last_x(scene.x_start) for s in scene.series), default=scene.x_start)
    low, high, y_step = _y_range(scene)
    tick_font = fonts.get(TICK_PX)
    tick_w = max(text_width(tick_font, str(v)) for v in (low, high))
    frame = _Frame(
        left=MARGIN + tick_w + 10,
        top=top,
        right=WIDTH - MARGIN - end_w - MARK_R - 14,
        bottom=top + PLOT_H,
        x_min=x_min,
        x_max=max(x_max, x_min + 1),
        y_min=low,
        y_max=high,
    )
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    _title(draw, fonts, scene)
    _legend(draw, fonts, scene, legend)
    _axes(draw, fonts, scene, frame, y_step)
    if scene.limit:
        _limit(draw, frame, scene.limit)
    for index, series in enumerate(scene.series):
        _line(draw, frame, series, index, series.first_x(scene.x_start))
    _end_labels(draw, end_font, scene, frame, ends)
    return image


def _title(draw: ImageDraw.ImageDraw, fonts: Fonts, scene: ChartScene) -> None:
    size = fit_size(fonts, scene.title, WIDTH - 2 * MARGIN, TITLE_SIZES)
    font = fonts.get(size)
    text = fit(font, scene.title, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, TITLE_H // 2 + 2), text, font=font, fill=TEXT, anchor="lm")


def _legend(
    draw: ImageDraw.ImageDraw,
    fonts: Fonts,
    scene: ChartScene,
    rows: Sequence[Sequence[tuple[str, int]]],
) -> None:
    font = fonts.get(LEGEND_PX)
    for row_no, row in enumerate(rows):
        y = TITLE_H + row_no * LEGEND_H + LEGEND_H // 2
        x = MARGIN
        for text, index in row:
            if index < 0:
                _dashes(draw, (x, y), (x + 32, y), GOLD, 4)
                colour = GOLD
            else:
                colour = team_colour(scene.series[index].colour_index)
                draw.line((x, y, x + 32, y), fill=colour, width=LINE_W)
                _mark(draw, (x + 16, y), index, colour)
            draw.text((x + 40, y), text, font=font, fill=colour, anchor="lm")
            x += _legend_item_w(font, text)


def _axes(
    draw: ImageDraw.ImageDraw, fonts: Fonts, scene: ChartScene, frame: _Frame, y_step: int
) -> None:
    """Plot area, grid lines with their values, the axes' words."""
    draw.rectangle((frame.left, frame.top, frame.right, frame.bottom), fill=FELT_DARK)
    tick = fonts.get(TICK_PX)
    for value in range(frame.y_min, frame.y_max + 1, y_step):
        y = round(frame.y(value))
        draw.line((frame.left, y, frame.right, y), fill=FELT_LINE, width=2)
        draw.text((frame.left - 8, y), str(value), font=tick, fill=TEXT_DIM, anchor="rm")
    span = frame.x_max - frame.x_min
    x_step = nice_step(span, max(2, (frame.right - frame.left) // 44))
    first = math.ceil(frame.x_min / x_step) * x_step
    for value in range(first, frame.x_max + 1, x_step):
        x = round(frame.x(value))
        draw.line((x, frame.bottom, x, frame.bottom + 6), fill=TEXT_DIM, width=2)
        draw.text((x, frame.bottom + 10), str(value), font=tick, fill=TEXT_DIM, anchor="mt")
    draw.line((frame.left, frame.bottom, frame.right, frame.bottom), fill=TEXT_DIM, width=2)
    draw.line((frame.left, frame.top, frame.left, frame.bottom), fill=TEXT_DIM, width=2)
    axis = fonts.get(AXIS_PX)
    draw.text(
        (MARGIN, frame.top - 20), label_of(scene, "y_axis"), font=axis, fill=TEXT, anchor="ls"
    )
    draw.text(
        ((frame.left + frame.right) // 2, frame.bottom + 40),
        label_of(scene, "x_axis"),
        font=axis,
        fill=TEXT,
        anchor="mt",
    )


def _limit(draw: ImageDraw.ImageDraw, frame: _Frame, limit: int) -> None:
    y = round(frame.y(limit))
    _dashes(draw, (frame.left, y), (frame.right, y), GOLD, 4)


def _dashes(
    draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], fill: RGB, width: int
) -> None:
    """A horizontal dashed line (the limit): 12 px on, 8 off."""
    (x0, y), (x1, _) = start, end
    for x in range(x0, x1, 20):
        draw.line((x, y, min(x + 12, x1), y), fill=fill, width=width)


def _line(
    draw: ImageDraw.ImageDraw, frame: _Frame, series: ChartSeries, index: int, x_start: int
) -> None:
    colour = team_colour(series.colour_index)
    points = [(frame.x(x_start + i), frame.y(v)) for i, v in enumerate(series.values)]
    if len(points) > 1:
        _polyline(draw, points, BLACK, LINE_W + 4)
        _polyline(draw, points, colour, LINE_W)
    apart = frame.x(1) - frame.x(0) >= 2 * MARK_R + 2  # markers that would touch are left out
    marked = points if len(points) <= MARKED_POINTS and apart else points[-1:]
    for point in marked:
        _mark(draw, point, index, colour)


def _polyline(
    draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], fill: RGB, width: int
) -> None:
    """A thick line with round joints: the segments, then a disc at each joint (Pillow's own
    ``joint="curve"`` draws its joints in Python, half of a long game's chart's time)."""
    draw.line(points, fill=fill, width=width)
    r = width / 2
    for x, y in points[1:-1]:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], index: int, colour: RGB) -> None:
    """The marker of the ``index``-th line: a shape of its own, so lines differ without colour."""
    x, y = centre
    r = MARK_R
    shape = SHAPES[index % len(SHAPES)]
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=BLACK, width=2)
        return
    if shape == "square":
        draw.rectangle(
            (x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour, outline=BLACK, width=2
        )
        return
    corners = {
        "triangle": [(x, y - r - 2), (x + r + 1, y + r - 1), (x - r - 1, y + r - 1)],
        "down": [(x, y + r + 2), (x + r + 1, y - r + 1), (x - r - 1, y - r + 1)],
        "diamond": [(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)],
    }.get(shape)
    if corners is None:  # hexagon
        corners = [(x + r * math.cos(a), y + r * math.sin(a)) for a in _HEX]
    draw.polygon(corners, fill=colour, outline=BLACK, width=2)


_HEX = tuple(math.pi / 3 * k for k in range(6))


@dataclass(frozen=True)
class EndLabel:
    """What stands right of the plot for a line: its text, and whether its marker comes first
    (the line stops short of the right edge, or its name is left to the legend)."""

    text: str
    marked: bool

    def width(self, font: ImageFont.FreeTypeFont) -> int:
        return text_width(font, self.text) + (EARLY_W if self.marked else 0)


def _end_label(font: ImageFont.FreeTypeFont, series: ChartSeries, early: bool) -> EndLabel:
    """The name and last value; only the value (after the marker) when the name is wider than
    :data:`END_NAME_W`: a name cut short ("Toutes les …") names nothing."""
    last = series.values[-1] if series.values else 0
    if text_width(font, series.name) <= END_NAME_W:
        return EndLabel(f"{series.name} {last}", early)
    return EndLabel(str(last), True)


def end_labels(scene: ChartScene, fonts: Fonts) -> list[EndLabel]:
    """The end label of each line of ``scene`` (what a test checks against the names)."""
    last = max((s.last_x(scene.x_start) for s in scene.series), default=0)
    font = fonts.get(END_PX)
    return [_end_label(font, s, s.last_x(scene.x_start) < last) for s in scene.series]


def _end_labels(
    draw: ImageDraw.ImageDraw,
    font: ImageFont.FreeTypeFont,
    scene: ChartScene,
    frame: _Frame,
    labels: Sequence[EndLabel],
) -> None:
    """Each line's end label right of the plot, at its last value's height, pushed apart so
    none covers another; the marker first when the label carries one."""
    wanted = [
        (frame.y(s.values[-1]) if s.values else frame.bottom, i) for i, s in enumerate(scene.series)
    ]
    wanted.sort()
    placed = spread([y for y, _ in wanted], END_H, END_H / 2, frame.bottom + END_H / 2)
    for y, (_, index) in zip(placed, wanted, strict=True):
        series = scene.series[index]
        x = frame.right + MARK_R + 8
        colour = team_colour(series.colour_index)
        label = labels[index]
        if label.marked:  # stops short, or its name is in the legend only: its marker says which
            _mark(draw, (x + MARK_R, y), index, colour)
            x += EARLY_W
        draw.text((x, y), label.text, font=font, fill=colour, anchor="lm")


def spread(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """``ys`` (sorted) moved as little as it takes to be ``gap`` apart within [low, high]."""
    placed: list[float] = []
    for y in ys:
        placed.append(max(y, low, placed[-1] + gap if placed else low))
    if placed and placed[-1] > high:  # back up from the bottom, as far as it takes
        placed[-1] = high
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    return placed
