"""The object that owns the render resources (fonts, card sprites, palette) and makes PNGs.

Why an object: the sprite cache and the palette are the expensive state; holding them in a
``Renderer`` instance makes their lifetime explicit (the bot keeps one, a test can make a fresh
one) instead of hiding them in module globals. Composition is serialised by a lock because
FreeType faces are not safe to share between threads; PNG encoding runs outside it. A hand,
drawn on every move, is composed straight into palette indexes from kept pieces
(:mod:`bot.render.indexed`); :meth:`Renderer.image` still gives any scene in RGB.

The renderer also owns the worker threads a ``ThreadDrawer`` draws in: as many as there are
cores (at most 4), not asyncio's default pool of up to 32, because each extra thread keeps
its own malloc arena of image buffers (the bot's memory grew with the pool, not with tables).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from . import examples
from .encode import (
    COMPRESS_LEVEL,
    PALETTE_COLOURS,
    Rows,
    build_palette,
    calibration_sheet,
    deflate_rows,
    load_palette,
    palette_png,
    png_of,
    to_png,
)
from .fonts import Fonts
from .hand import render_hand_image, render_hand_indexed
from .indexed import Tiles, kept_rows
from .replay import Bodies, captioned, gif_of, padded
from .round_end import render_round_end_image
from .scene import HandScene, Picture, ReplayScene, RoundEndScene, Scene, TableScene
from .sprites import CardSprites
from .table import (
    HeaderPart,
    MeldsPart,
    render_header_band,
    render_info_indexed,
    render_melds_band,
    render_table_image,
)


class Renderer:
    """Scenes in, PNG bytes out. Safe to call from several worker threads.

    ``colours=None`` writes full-colour RGB PNGs (used by the benchmark to compare).
    """

    def __init__(
        self,
        fonts: Fonts | None = None,
        colours: int | None = PALETTE_COLOURS,
        compress_level: int = COMPRESS_LEVEL,
    ) -> None:
        self.fonts = fonts or Fonts()
        self.sprites = CardSprites(self.fonts)
        self.colours = colours
        self.compress_level = compress_level
        self._lock = threading.Lock()
        self._palette: Image.Image | None = None
        self._tiles: Tiles | None = None
        self._bands = kept_rows()
        self.workers = ThreadPoolExecutor(
            max_workers=min(4, os.cpu_count() or 1), thread_name_prefix="render"
        )

    # -- images (RGB, before encoding): used by tests and the benchmark --------------------

    def image(self, scene: Scene) -> Image.Image:
        """The composed RGB image of any scene (a replay's: its first frame)."""
        if isinstance(scene, ReplayScene):
            return self._frames(scene)[0]
        with self._lock:
            if isinstance(scene, HandScene):
                return render_hand_image(scene, self.fonts, self.sprites)
            if isinstance(scene, TableScene):
                return render_table_image(scene, self.fonts, self.sprites)
            if isinstance(scene, Picture):
                return scene.draw(self.fonts, self.sprites)
            return render_round_end_image(scene, self.fonts, self.sprites)

    def palette(self) -> Image.Image | None:
        """The shared PNG palette: the shipped one (``encode.PALETTE_FILE``), else computed on
        first use from the example scenes (~0.65 s)."""
        if self.colours is None:
            return None
        if self._palette is None:
            shipped = load_palette() if self.colours == PALETTE_COLOURS else None
            palette = shipped or self.calibrated_palette()
            with self._lock:
                if self._palette is None:
                    self._palette = palette
        return self._palette

    def calibrated_palette(self) -> Image.Image:
        """The palette computed from the calibration scenes (what the shipped one must be)."""
        assert self.colours is not None
        sheet = calibration_sheet([self.image(s) for s in examples.calibration_scenes()])
        return build_palette(sheet, self.colours)

    # -- PNG bytes --------------------------------------------------------------------------

    def encode(self, image: Image.Image) -> bytes:
        return to_png(image, self.palette(), self.compress_level)

    def render(self, scene: Scene) -> bytes:
        """PNG of ``scene``. A hand (drawn on every move) is composed in palette indexes; a
        table's header and melds bands are kept deflated (see :meth:`_table`)."""
        if isinstance(scene, ReplayScene):
            return self.replay(scene)
        palette = self.palette()
        if palette is None or isinstance(scene, RoundEndScene | Picture):
            return self.encode(self.image(scene))
        if isinstance(scene, HandScene):
            with self._lock:
                indexed = render_hand_indexed(
                    scene, self.fonts, self.sprites, self._tiles_of(palette)
                )
            return palette_png(indexed, self.compress_level)
        return self._table(scene, palette)

    def replay(self, scene: ReplayScene) -> bytes:
        """A replay's GIF (:mod:`bot.render.replay`), or its first frame as a PNG (``still``)."""
        if scene.still:
            return self.encode(self._frames(scene)[0])
        palette = self.palette()
        assert palette is not None, "a replay is drawn on the shipped palette"
        frames = padded(self._frames(scene), palette)
        return gif_of(frames, [f.duration_ms for f in scene.frames])

    def _frames(self, scene: ReplayScene) -> list[Image.Image]:
        """Each frame composed (RGB) under its caption; a still composes its first only."""
        chosen = scene.frames[:1] if scene.still else scene.frames
        bodies = Bodies(self.fonts, self.sprites)
        images = []
        for frame in chosen:  # the lock frame by frame: a picture may be drawn in between
            with self._lock:
                images.append(captioned(frame, bodies.body(frame.scene), self.fonts))
        return images

    def _table(self, scene: TableScene, palette: Image.Image) -> bytes:
        """Three bands: the header and the melds kept deflated by what they show (a turn
        changes neither, and a game of two has two headers a round), the piles and seats
        drawn each time (the seat list is a kept piece)."""
        header, melds = HeaderPart.of(scene), MeldsPart.of(scene)
        with self._lock:
            tiles = self._tiles_of(palette)
            kept_header, kept_melds = self._bands.get(header), self._bands.get(melds)
            info = render_info_indexed(scene, self.fonts, self.sprites, tiles)
            new_header = None
            if kept_header is None:
                new_header = tiles.indexed(render_header_band(header, self.fonts))
            new_melds = None
            if kept_melds is None:
                new_melds = tiles.indexed(render_melds_band(melds, self.fonts, self.sprites))
        bands = (
            kept_header or self._keep(header, new_header),
            deflate_rows(info, self.compress_level),
            kept_melds or self._keep(melds, new_melds),
        )
        return png_of(bands, tiles.colours)

    def _keep(self, key: HeaderPart | MeldsPart, indexed: Image.Image | None) -> Rows:
        """Deflate a band just drawn (outside the lock) and keep it."""
        assert indexed is not None, "a band is drawn when none is kept"
        rows = deflate_rows(indexed, self.compress_level)
        with self._lock:
            self._bands.keep(key, rows)
        return rows

    @property
    def bands_kept(self) -> int:
        return len(self._bands)

    def forget_bands(self) -> None:
        """Drop the kept table bands (the benchmark times a table drawn whole)."""
        with self._lock:
            self._bands = kept_rows()

    def forget_tables(self) -> None:
        """Drop what is kept of the tables drawn lately (their bands, their titles and seat
        lists), keeping the card pieces every picture uses: once the bot has been quiet for a
        while, those tables may have moved on or closed, and what they left would hold the
        memory a burst of them took (see bot/memory.py)."""
        with self._lock:
            self._bands = kept_rows()
            if self._tiles is not None:
                self._tiles.forget_large()

    def _tiles_of(self, palette: Image.Image) -> Tiles:
        if self._tiles is None:
            self._tiles = Tiles(palette)
        return self._tiles

    def hand(self, scene: HandScene) -> bytes:
        return self.render(scene)

    def table(self, scene: TableScene) -> bytes:
        return self.render(scene)

    def round_end(self, scene: RoundEndScene) -> bytes:
        return self.render(scene)
