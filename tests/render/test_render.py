"""Card images: golden images (appearance changes are deliberate), phone readability, size,
colour schemes, markers, threading.

Regenerate the reference images after an intended change of appearance with

    RUMMY_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_render.py -q

then look at every file in tests/golden/ before committing them.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import io
import itertools
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.config import default_drawing_processes
from bot.render import (
    HandScene,
    Renderer,
    TableScene,
    examples,
    render_hand,
)
from bot.render.drawing import ProcessDrawer, ThreadDrawer, _portable
from bot.render.encode import Rows, adler32_combine, load_palette
from bot.render.fonts import FONT_PATH, Fonts
from bot.render.hand import MARGIN, NUMBER_H, TITLE_H, TOP
from bot.render.indexed import kept_rows
from bot.render.layout import layout_hand, order_hand, row_breaks, shown_width
from bot.render.scene import (
    HAND_LABELS,
    ROUND_END_LABELS,
    TABLE_LABELS,
    Picture,
    RoundEndScene,
    Scene,
    SeatInfo,
    labels_from,
)
from bot.render.sprites import CardSprites
from bot.render.table import TIERS, _choose_tier
from bot.render.theme import BLUE, FELT, GOLD, GREEN, HAND, RED
from bot.render.worker import OK, read_frame, write_frame
from bot.text import t
from rummy_engine.cards import Card, Suit, make_deck, sort_key

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE = os.environ.get("RUMMY_UPDATE_GOLDEN") == "1"
PHONE_WIDTH = 400  # CSS px Discord gives an image on a phone in portrait


def _french(key: str) -> str:
    """A picture label's template in French, as the presenter asks for it."""
    return t(key, "fr")


def table_5_fr() -> TableScene:
    """The 5-meld table of a French table: every word from the French catalogue (the title is
    the variant alone, as in the English example, so the two pictures compare)."""
    return dataclasses.replace(
        examples.table(5),
        title=t("variant.r51", "fr"),
        labels=labels_from(TABLE_LABELS, _french),
    )


def hand_15_fr() -> HandScene:
    return dataclasses.replace(
        examples.hand_15(),
        title=t("hand.image_title", "fr", table=12, count=15),
        labels=labels_from(HAND_LABELS, _french),
    )


def round_end_fr() -> RoundEndScene:
    title = t("table.title", "fr", variant="r51", mode=t("mode.2v2", "fr"), table=12)
    return dataclasses.replace(
        examples.round_end(),
        title=t("round.image_title", "fr", round=3, title=title),
        note=t("round.won.rami_sec", "fr", player="Dan", round=3),
        labels=labels_from(ROUND_END_LABELS, _french),
    )


GOLDEN_SCENES: dict[str, Callable[[], Scene]] = {
    "table_5_fr": table_5_fr,
    "hand_15_fr": hand_15_fr,
    "round_end_fr": round_end_fr,
    "hand_15": examples.hand_15,
    "hand_15_four_colour": lambda: examples.hand_15(four_colour=True),
    "hand_by_melds": examples.hand_by_melds,
    "hand_small": examples.hand_small,
    "table_5": lambda: examples.table(5),
    "table_24": lambda: examples.table(24),
    "table_six_sides": examples.many_sides_table,
    "table_round_over": examples.round_over_table,
    "round_end": examples.round_end,
    "round_end_basic": examples.basic_round_end,
}


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    """One renderer for the module: building sprites and the palette takes most of a second."""
    return Renderer()


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def count_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """Pixels within ``tolerance`` (per channel) of ``colour``."""
    r, g, b = colour
    bands = image.split()
    masks = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for band, c in zip(bands, (r, g, b), strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    return both.histogram()[255]


# -- golden images -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_SCENES))
def test_golden_image(name: str, renderer: Renderer, tmp_path: Path) -> None:
    """Rendered image matches tests/golden/<name>.png within a small tolerance.

    Both images are halved (2x2 averages) before comparing, which absorbs anti-aliasing noise
    between FreeType builds; then the mean difference must stay under 0.3 levels and fewer than
    0.02 % of pixels may differ by more than 48. Removing the drawn-card marker alone scores
    0.6 / 0.6 %, so any visible change fails.
    """
    png = renderer.render(GOLDEN_SCENES[name]())
    path = GOLDEN_DIR / f"{name}.png"
    if UPDATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_bytes(png)
        return
    assert path.exists(), f"missing {path}; run with RUMMY_UPDATE_GOLDEN=1 and review it"
    actual, expected = decode(png), Image.open(path).convert("RGB")
    (tmp_path / f"{name}.actual.png").write_bytes(png)
    assert actual.size == expected.size, f"size changed; actual in {tmp_path}"
    mean, far = golden_difference(actual, expected)
    assert mean < 0.3 and far < 0.0002, (
        f"{name}: mean diff {mean:.2f}, {far:.3%} pixels far off; actual in {tmp_path}"
    )


def golden_difference(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    """(mean difference, share of pixels off by more than 48) of the half-size images."""
    diff = ImageChops.difference(actual.reduce(2), expected.reduce(2)).convert("L")
    histogram = diff.histogram()
    pixels = diff.width * diff.height
    mean = sum(level * n for level, n in enumerate(histogram)) / pixels
    return mean, sum(histogram[49:]) / pixels


def test_golden_tolerance_catches_a_missing_marker(renderer: Renderer) -> None:
    """The tolerance is small enough that dropping the drawn-card marker is a failure."""
    scene = examples.hand_15()
    marked = decode(renderer.render(scene))
    unmarked = decode(renderer.render(dataclasses.replace(scene, drawn=None)))
    mean, far = golden_difference(marked, unmarked)
    assert mean >= 0.3 or far >= 0.0002


def test_goldens_have_no_strays() -> None:
    """Every reference image belongs to a scene (a renamed scene must not leave an orphan)."""
    if GOLDEN_DIR.exists():
        stored = {p.stem for p in GOLDEN_DIR.glob("*.png")}
        assert stored <= set(GOLDEN_SCENES)


# -- readability on a phone --------------------------------------------------------------------


def rank_ink_height(sprite: Image.Image, size_step: int) -> int:
    """Height in px of the rank glyph (first run of inked rows) in a card's corner strip."""
    card = Image.new("RGB", sprite.size, (255, 255, 255))
    card.paste(sprite, (0, 0), sprite)
    grey = card.convert("L").crop((0, 0, size_step, sprite.height // 2))
    rows = [
        any(grey.getpixel((x, y)) < 100 for x in range(4, size_step - 2))  # type: ignore[operator]
        for y in range(3, grey.height)
    ]
    start = rows.index(True)
    end = rows.index(False, start)
    return end - start


def test_hand_index_readable_at_phone_width(renderer: Renderer) -> None:
    """At 400 px display width the rank of each card in a 15-card hand is at least 16 px tall."""
    image = renderer.image(examples.hand_15())
    scale = min(1.0, PHONE_WIDTH / image.width)
    for card in (Card(10, Suit.SPADES), Card(7, Suit.HEARTS), Card(0, None)):
        sprite = renderer.sprites.face(card, HAND, False)
        assert rank_ink_height(sprite, HAND.step) * scale >= 16, card
    assert image.width <= 640, "a 15-card hand must wrap into rows, not get wider"


def test_table_index_readable_at_phone_width(renderer: Renderer) -> None:
    """Even the smallest meld cards (24 melds) keep a rank of 9+ px at 400 px display width;
    a few melds use cards twice as legible."""
    for count, minimum in ((24, 9.0), (5, 12.0)):
        scene = examples.table(count)
        image = renderer.image(scene)
        size = _choose_tier(scene.melds, renderer.fonts)[0]
        sprite = renderer.sprites.face(Card(10, Suit.CLUBS), size, False)
        assert rank_ink_height(sprite, size.step) * PHONE_WIDTH / image.width >= minimum


def test_hand_of_fifteen_uses_two_balanced_rows() -> None:
    scene = examples.hand_15()
    slots = layout_hand(order_hand(scene.cards, None), HAND, 10, 16)
    per_row = [sum(s.row == r for s in slots) for r in range(2)]
    assert sorted(per_row) == [7, 8]
    assert max(s.row for s in slots) == 1


def test_a_covered_card_is_pasted_up_to_the_next_ones_rounded_corner() -> None:
    """What shows of a fanned card: the strip before the next card and the radius of that
    card's corner; a card nothing covers, or covers only past its edge, is pasted whole."""
    assert shown_width(HAND, HAND.step) == HAND.step + HAND.radius + 1
    assert shown_width(HAND, None) is None
    assert shown_width(HAND, HAND.width) is None
    assert shown_width(HAND, HAND.width - HAND.radius - 1) is None


def test_row_breaks_prefer_group_boundaries() -> None:
    # 4 + 5 + 3 + 3 cards: the balanced break at 8 moves to the suit boundary at 9.
    assert row_breaks(15, {3, 8, 11}, 10) == [(0, 9), (9, 15)]
    assert row_breaks(7, {2}, 10) == [(0, 7)]
    assert row_breaks(22, set(), 10) == [(0, 8), (8, 15), (15, 22)]


def test_table_shrinks_cards_when_crowded(renderer: Renderer) -> None:
    few, many = examples.table(5), examples.table(24)
    assert _choose_tier(few.melds, renderer.fonts)[0] == TIERS[0]
    assert _choose_tier(many.melds, renderer.fonts)[0] == TIERS[-1]
    image = renderer.image(many)
    assert image.height <= 1.6 * image.width


# -- size ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scene",
    [examples.hand_15(), examples.table(24), examples.round_end()],
    ids=["hand_15", "table_24", "round_end"],
)
def test_png_under_150_kb(scene: Scene, renderer: Renderer) -> None:
    assert len(renderer.render(scene)) < 150 * 1024


def test_png_is_a_small_palette_image(renderer: Renderer) -> None:
    image = Image.open(io.BytesIO(renderer.render(examples.table(24))))
    assert image.mode == "P"
    assert len(image.getcolors(256) or ()) <= 128


@pytest.mark.parametrize(
    "scene", [examples.hand_15(), examples.table(24)], ids=["hand_15", "table_24"]
)
def test_the_png_writer_keeps_every_pixel(scene: Scene, renderer: Renderer) -> None:
    """Our own PNG chunks (ISA-L deflate) decode, by Pillow's reader, to exactly the palette
    image Pillow would have written: same size, same indexes, same colours."""
    expected = renderer.image(scene).quantize(palette=renderer.palette(), dither=Image.Dither.NONE)
    decoded = Image.open(io.BytesIO(renderer.render(scene)))
    decoded.load()
    assert decoded.size == expected.size
    assert decoded.tobytes() == expected.tobytes()
    assert decoded.getpalette() == expected.getpalette()
    assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def idat_stream(png: bytes) -> bytes:
    """The zlib stream of a PNG (its IDAT chunks joined)."""
    out, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            out += png[at + 8 : at + 8 + length]
        at += 12 + length
    return out


def test_a_table_keeps_its_header_and_melds_bands_and_joins_them(renderer: Renderer) -> None:
    """A turn changes the piles and seats, not the melds (nor, in a game of two, the header
    for long): those bands are drawn and deflated once per state, then joined to each new
    piles band; the stream stays whole (zlib checks the joined Adler-32) and every pixel is
    the RGB picture's."""
    fresh = Renderer()
    first = examples.table(5)
    turned = dataclasses.replace(first, turn_name="Dan", discard_count=first.discard_count + 1)
    laid = dataclasses.replace(turned, melds=examples.table(6).melds)
    # kept: the header and the melds of each state (the turn changes the header)
    for scene, kept in ((first, 2), (turned, 3), (laid, 4), (first, 4)):
        png = fresh.render(scene)
        assert fresh.bands_kept == kept
        expected = fresh.image(scene).quantize(palette=fresh.palette(), dither=Image.Dither.NONE)
        width, height = expected.size
        assert zlib.decompress(idat_stream(png)) == expected.crop((-1, 0, width, height)).tobytes()


def test_kept_bands_stay_under_their_byte_limit() -> None:
    kept = kept_rows(limit=250)
    for key in range(5):
        kept.keep(key, Rows(bytes(100), 1, 0, 1, 1))
    assert len(kept) == 2 and kept.get(0) is None and kept.get(4) is not None
    kept.get(3)  # used: the next drop takes 4
    kept.keep(9, Rows(bytes(100), 1, 0, 1, 1))
    assert kept.get(3) is not None and kept.get(4) is None


@given(st.binary(max_size=3000), st.binary(max_size=3000))
def test_adler32_of_joined_bands_is_combined_exactly(first: bytes, second: bytes) -> None:
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


DECK = make_deck(2, 4)


@st.composite
def hands(draw: st.DrawFn) -> HandScene:
    """Any hand a player may hold: up to 22 cards of two packs with jokers, sorted or in melds,
    a card just drawn or not, either colour scheme, with or without a title."""
    cards = tuple(
        sorted(
            draw(st.lists(st.sampled_from(DECK), max_size=22, unique=True)),
            key=lambda c: (*sort_key(c), c.copy),
        )
    )
    drawn = draw(st.none() | st.sampled_from(cards)) if cards else None
    groups = None
    if cards and draw(st.booleans()):
        cuts = sorted(draw(st.lists(st.integers(0, len(cards)), max_size=5)))
        bounds = [0, *cuts, len(cards)]
        groups = tuple(cards[a:b] for a, b in itertools.pairwise(bounds) if b - a >= 3)
    return HandScene(
        cards=cards,
        drawn=drawn,
        groups=groups,
        four_colour=draw(st.booleans()),
        title=draw(st.sampled_from(["", "Alice · 15 cards", "Zoë the very long named player"])),
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(scene=hands())
def test_a_hand_composed_in_palette_indexes_is_the_rgb_hand_mapped(
    scene: HandScene, renderer: Renderer
) -> None:
    """The PNG of a hand is composed from kept pieces in palette indexes; it must be exactly
    the RGB composition mapped onto the palette, whatever the hand."""
    expected = renderer.image(scene).quantize(palette=renderer.palette(), dither=Image.Dither.NONE)
    decoded = Image.open(io.BytesIO(renderer.render(scene)))
    decoded.load()
    assert decoded.size == expected.size
    assert decoded.tobytes() == expected.tobytes()


NAMES = ("Alice", "Bob", "Chloé", "Dan", "Zoë the very long named player of cards", "李")


@st.composite
def tables(draw: st.DrawFn) -> TableScene:
    """Any piles and seats: two to six seats, any of them to play and opened, any discard
    pile (or none, or no stock), either colour scheme, in English or French (longer labels)."""
    count = draw(st.integers(2, 6))
    turn = draw(st.integers(0, count - 1))
    seats = tuple(
        SeatInfo(draw(st.sampled_from(NAMES)), i % 2, draw(st.booleans()), i == turn)
        for i in range(count)
    )
    base = examples.table(0)
    scene = dataclasses.replace(
        base,
        seats=seats,
        discard_top=draw(st.none() | st.sampled_from(DECK)),
        discard_count=draw(st.integers(1, 104)),
        stock_empty=draw(st.booleans()),
        four_colour=draw(st.booleans()),
    )
    if draw(st.booleans()):
        return dataclasses.replace(scene, labels=labels_from(TABLE_LABELS, _french))
    return scene


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(scene=tables())
def test_a_table_composed_from_pieces_is_the_rgb_table_mapped(
    scene: TableScene, renderer: Renderer
) -> None:
    """The piles and the seat list are drawn apart (the seat list kept between turns) and
    joined in palette indexes; the picture must be exactly the RGB table mapped."""
    expected = renderer.image(scene).quantize(palette=renderer.palette(), dither=Image.Dither.NONE)
    for _ in range(2):  # drawn, then from the kept seat list
        decoded = Image.open(io.BytesIO(renderer.render(scene)))
        decoded.load()
        assert decoded.size == expected.size
        assert decoded.tobytes() == expected.tobytes()


def test_rendering_is_deterministic(renderer: Renderer) -> None:
    assert renderer.render(examples.table(24)) == Renderer().render(examples.table(24))


# -- colours and markers -------------------------------------------------------------------------


def test_four_colour_deck_recolours_diamonds_and_clubs(renderer: Renderer) -> None:
    classic = decode(renderer.render(examples.hand_15()))
    four = decode(renderer.render(examples.hand_15(four_colour=True)))
    assert count_near(classic, BLUE) == 0 and count_near(classic, GREEN) == 0
    assert count_near(four, BLUE) > 2000  # three diamonds: ranks, suits, big pips
    assert count_near(four, GREEN) > 2000
    assert count_near(four, RED) < count_near(classic, RED) * 0.75  # 3 of 7 red cards moved


def drawn_marker_spot(scene: HandScene) -> tuple[int, int]:
    """Where the gold marker above the card just drawn must be."""
    slots = layout_hand(order_hand(scene.cards, None), HAND, 10, 16)
    slot = next(s for s in slots if s.card == scene.drawn)
    row_h = TOP + HAND.height + NUMBER_H
    return MARGIN + slot.x + HAND.step // 2, TITLE_H + slot.row * row_h + TOP - 14


def test_drawn_card_is_marked(renderer: Renderer) -> None:
    scene = examples.hand_15()
    x, y = drawn_marker_spot(scene)
    marked = decode(renderer.render(scene))
    unmarked = decode(renderer.render(dataclasses.replace(scene, drawn=None)))
    assert count_near(marked.crop((x - 2, y - 2, x + 3, y + 3)), GOLD, 30) == 25
    assert count_near(unmarked.crop((x - 2, y - 2, x + 3, y + 3)), FELT, 8) == 25


def test_index_numbers_follow_the_text_list_order() -> None:
    """The number under a card is its position in ``cards`` even when sorted by melds."""
    scene = examples.hand_by_melds()
    ordered = order_hand(scene.cards, scene.groups)
    assert sorted(n for _, n, _ in ordered) == list(range(1, len(scene.cards) + 1))
    assert all(scene.cards[n - 1] == card for card, n, _ in ordered)
    assert [c for c, _, _ in ordered][:4] == list(scene.groups[0])  # type: ignore[index]


def test_labels_come_from_the_scene(renderer: Renderer) -> None:
    scene = examples.table(3)
    french = {**TABLE_LABELS, "stock": "Pioche {n}", "turn": "Au tour de {name}"}
    translated = dataclasses.replace(scene, labels=french)
    assert renderer.render(translated) != renderer.render(scene)


def test_empty_and_edge_scenes_render(renderer: Renderer) -> None:
    empty = TableScene("Basic rummy", 1, (), "Ann", seats=(), stock_empty=True)
    assert decode(renderer.render(empty)).width > 0
    assert decode(renderer.render(HandScene(()))).width > 0


# -- plumbing ------------------------------------------------------------------------------------


async def test_the_thread_drawer_draws_in_worker_threads() -> None:
    threads: list[int] = []

    class Spy(Renderer):
        def render(self, scene: Scene) -> bytes:
            threads.append(threading.get_ident())
            return super().render(scene)

    drawer = ThreadDrawer(Spy())
    try:
        results = await asyncio.gather(
            drawer.png(examples.hand_small()),
            drawer.png(examples.table(2)),
            drawer.png(examples.round_end()),
        )
    finally:
        await drawer.close()
    assert all(r.startswith(b"\x89PNG") for r in results)
    assert len(threads) == 3 and threading.get_ident() not in threads


async def test_the_process_drawer_draws_what_the_renderer_draws_and_survives_a_killed_worker(
    renderer: Renderer,
) -> None:
    """Pictures from the worker process are the renderer's, byte for byte (labels included, in
    French too); a worker killed between two pictures is replaced, and the next picture comes."""
    drawer = ProcessDrawer(1)
    french = dataclasses.replace(examples.table(5), labels={**TABLE_LABELS, "stock": "Pioche"})
    try:
        for scene in (examples.hand_15(), french, examples.round_end()):
            assert await drawer.png(scene) == renderer.render(scene)
        (worker,) = drawer.pids
        os.kill(worker, signal.SIGKILL)
        # A burst of pictures after the loss (a restart's tables) starts one worker, not many.
        burst = await asyncio.gather(*(drawer.png(examples.hand_small()) for _ in range(8)))
        assert len(set(burst)) == 1 and len(drawer.pids) == 1
        assert await drawer.png(examples.hand_small()) == renderer.render(examples.hand_small())
        assert drawer.pids and drawer.pids != [worker]
    finally:
        await drawer.close()


KILLED_BOT = """
import asyncio, sys
from bot.render import examples
from bot.render.drawing import ProcessDrawer

async def main():
    drawer = ProcessDrawer(1)
    await drawer.png(examples.hand_small())
    print(*drawer.pids, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_a_killed_bot_leaves_no_drawing_process_behind() -> None:
    """SIGKILL gives the bot no chance to shut its pool down: the workers leave on their own."""
    repo = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen(
        [sys.executable, "-c", KILLED_BOT], cwd=repo, stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert workers and all(Path(f"/proc/{pid}").exists() for pid in workers)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(pid) for pid in workers), "a drawing process outlived the bot"


def test_a_drawing_process_leaves_at_the_end_of_its_input_not_at_ctrl_c(
    renderer: Renderer,
) -> None:
    """Ctrl-C reaches the worker too: it keeps answering until the bot ends its input, then
    leaves quietly."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.render.worker"],
        cwd=Path(__file__).resolve().parents[2],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert worker.stdin is not None and worker.stdout is not None
    expected = (OK, renderer.render(examples.hand_small()))
    for interrupt in (False, True):  # the first answer shows the worker is serving
        if interrupt:
            worker.send_signal(signal.SIGINT)
        write_frame(worker.stdin, OK, pickle.dumps(_portable(examples.hand_small())))
        worker.stdin.flush()
        assert read_frame(worker.stdout) == expected
    worker.stdin.close()
    assert worker.wait(timeout=20) == 0
    assert worker.stderr is not None and worker.stderr.read() == b""


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan is reaped by init, a zombie is just a record)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_shipped_palette_is_the_one_the_scenes_calibrate(renderer: Renderer) -> None:
    """A drawing process reads the palette instead of computing it (0.6 s, ~60 MB at its
    peak); after a change of colours, ``python -m bot.render --palette`` writes it again."""
    shipped = load_palette()
    assert shipped is not None, "bot/render/palette.json is missing"
    assert shipped.getpalette() == renderer.calibrated_palette().getpalette(), (
        "the colours changed: run python -m bot.render --palette"
    )
    assert Renderer().palette().getpalette() == shipped.getpalette()  # type: ignore[union-attr]


def test_drawing_processes_by_core_count() -> None:
    assert [default_drawing_processes(n) for n in (1, 2, 3, 8, 64)] == [0, 1, 2, 4, 4]


def test_default_renderer_is_used_when_none_given() -> None:
    assert render_hand(examples.hand_small()).startswith(b"\x89PNG")


def test_font_ships_with_its_licence() -> None:
    package = Path(__file__).resolve().parents[2] / "bot" / "render"
    assert FONT_PATH.is_relative_to(package)  # package data: every install carries it
    licence = (FONT_PATH.parent / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Arev" in licence


def test_render_package_does_not_import_discord() -> None:
    package = Path(__file__).resolve().parents[2] / "bot" / "render"
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "discord" for n in names), path


@dataclasses.dataclass(frozen=True)
class _Swatch(Picture):
    """A kind of picture the renderer has never heard of: one colour, its size and labels."""

    width: int
    labels: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType({"title": "Swatch"})
    )

    def draw(self, fonts: Fonts, sprites: CardSprites) -> Image.Image:
        return Image.new("RGB", (self.width, 40), RED)


def test_a_new_kind_of_picture_is_drawn_by_its_own_draw_and_pickles(renderer: Renderer) -> None:
    """A new kind of picture is one class: the renderer draws it without a line of its own, and
    the copy sent to a drawing process carries plain dicts (a mapping proxy does not pickle)."""
    scene = _Swatch(123)
    with Image.open(io.BytesIO(renderer.render(scene))) as png:
        assert png.size == (123, 40)
        drawn = png.convert("RGB").getpixel((60, 20))
        assert isinstance(drawn, tuple)
        assert max(abs(a - b) for a, b in zip(drawn, RED, strict=True)) <= 8  # the palette's
    travelled = pickle.loads(pickle.dumps(_portable(scene)))
    assert travelled == dataclasses.replace(scene, labels={"title": "Swatch"})
