"""A round (or a game) as an animated GIF: one still per moment, each under a caption line.

Why GIF: Discord animates GIF attachments, not APNG, and WebP only partly. Why this shape:

- every frame is composed by the same code as the live pictures (a table, or a round's end),
  so a replay looks like the game did, and is mapped onto the same fixed palette (no
  dithering): the same frames give the same bytes, whatever process draws them;
- the frames share one canvas (the tallest frame's height; shorter ones are padded with felt)
  and Pillow's writer keeps only what changed from the frame before: it crops each frame to
  the changed rectangle and, with ``optimize``, paints the unchanged pixels inside it with the
  transparent index (a run LZW packs to almost nothing). A turn changes the caption, the piles
  and a seat or a meld, so a turn costs a few kilobytes instead of a whole picture.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from .encode import PALETTE_COLOURS, mapped
from .fonts import Fonts
from .round_end import render_round_end_image
from .scene import ReplayFrame, RoundEndScene, TableScene
from .sprites import CardSprites
from .table import (
    HeaderPart,
    MeldsPart,
    render_header_band,
    render_info_band,
    render_melds_band,
)
from .theme import FELT, FELT_DARK, GOLD, TEXT

#: The caption band above each frame: its height and its text's size, in pixels.
CAPTION_H = 58
CAPTION_PX = 19
CAPTION_MARGIN = 14
#: The palette index left free for "unchanged" (the shipped palette uses the first 128).
TRANSPARENT = 255


class Bodies:
    """Composes the frames of one replay, keeping the header and melds bands it has drawn: a
    turn without a lay changes neither (the same composition as
    :func:`bot.render.table.render_table_image`, a third of a replay's time saved)."""

    def __init__(self, fonts: Fonts, sprites: CardSprites) -> None:
        self.fonts, self.sprites = fonts, sprites
        self._headers: dict[HeaderPart, Image.Image] = {}
        self._melds: dict[MeldsPart, Image.Image] = {}

    def body(self, scene: TableScene | RoundEndScene) -> Image.Image:
        """The frame's picture (RGB), under its caption."""
        if isinstance(scene, RoundEndScene):
            return render_round_end_image(scene, self.fonts, self.sprites)
        header, melds = HeaderPart.of(scene), MeldsPart.of(scene)
        if header not in self._headers:
            self._headers[header] = render_header_band(header, self.fonts)
        if melds not in self._melds:
            self._melds[melds] = render_melds_band(melds, self.fonts, self.sprites)
        bands = (
            self._headers[header],
            render_info_band(scene, self.fonts, self.sprites),
            self._melds[melds],
        )
        canvas = Image.new("RGB", (bands[0].width, sum(b.height for b in bands)), FELT)
        top = 0
        for band in bands:
            canvas.paste(band, (0, top))
            top += band.height
        return canvas


def captioned(frame: ReplayFrame, body: Image.Image, fonts: Fonts) -> Image.Image:
    """The frame's picture under its caption band (RGB)."""
    canvas = Image.new("RGB", (body.width, CAPTION_H + body.height), FELT)
    draw = ImageDraw.Draw(canvas)
    # Without anti-aliasing: its edge colours changed with every caption and were a quarter of
    # a frame's bytes; the bold font reads as well at this size.
    draw.fontmode = "1"
    draw.rectangle((0, 0, body.width, CAPTION_H - 2), fill=FELT_DARK)
    draw.line((0, CAPTION_H - 2, body.width, CAPTION_H - 2), fill=GOLD, width=2)
    font = fonts.get(CAPTION_PX)
    lines = wrap(frame.caption, lambda s: font.getlength(s), body.width - 2 * CAPTION_MARGIN)
    for i, line in enumerate(lines):
        draw.text((CAPTION_MARGIN, 6 + i * (CAPTION_PX + 4)), line, font=font, fill=TEXT)
    canvas.paste(body, (0, CAPTION_H))
    return canvas


def wrap(text: str, width_of: object, room: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` pixels, the last cut with an ellipsis."""
    measure = width_of if callable(width_of) else len
    out: list[str] = []
    words = text.split()
    current = ""
    while words:
        candidate = f"{current} {words[0]}".strip()
        if measure(candidate) <= room:
            current, words = candidate, words[1:]
            continue
        if not current:  # one word wider than the line
            current, words = words[0], words[1:]
        out.append(current)
        current = ""
        if len(out) == lines:
            break
    if current and len(out) < lines:
        out.append(current)
        words = []
    if words and out:
        last = out[-1]
        while last and measure(last + " …") > room:
            last = last[:-1]
        out[-1] = last.rstrip() + " …"
    return out


def padded(frames: list[Image.Image], palette: Image.Image) -> list[Image.Image]:
    """The frames in palette indexes on one canvas (the tallest frame's height, felt below
    a shorter one), each carrying the palette with :data:`TRANSPARENT` free."""
    height = max(f.height for f in frames)
    width = max(f.width for f in frames)
    colours = list(palette.getpalette() or [])[: PALETTE_COLOURS * 3]
    colours += [0] * (768 - len(colours))
    felt = mapped(Image.new("RGB", (1, 1), FELT), palette).getpixel((0, 0))
    out = []
    for frame in frames:
        indexed = mapped(frame, palette)
        canvas = Image.new("P", (width, height), felt)
        canvas.paste(indexed, (0, 0))
        canvas.putpalette(colours)
        out.append(canvas)
    return out


def gif_of(frames: list[Image.Image], durations: list[int]) -> bytes:
    """The animated GIF: looping, each frame kept under the next (disposal 1), only the
    changed rectangle written, its unchanged pixels transparent."""
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=True,
        transparency=TRANSPARENT,
    )
    return out.getvalue()
