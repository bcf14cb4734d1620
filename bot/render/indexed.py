"""Drawing straight into palette indexes: each piece composited in RGB once, mapped, kept.

Why: for a hand, mapping the whole RGB picture onto the palette was a quarter of its drawing
time and pasting cards through their alpha another quarter, for every move of every table. Yet
a hand is made of few kinds of pieces (card bodies, the corners where a card's rounded edge
shows what lies under it, the numbers), and they recur from one picture to the next. So each
piece is composited in RGB over exactly what lies under it, mapped onto the palette once and
kept; a picture is then a handful of copies of indexes. The pixels are the same as mapping the
RGB composition (``tests/render/test_render.py`` checks it on random hands).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, cast

from PIL import Image

from .encode import Rows, mapped
from .theme import RGB

T = TypeVar("T")

#: Large pieces kept, in palette pixels (a byte each): a seat list of two is ~35 KB, a title
#: ~10 KB, so some twenty busy tables in each of their turn states; past that a piece is drawn
#: again, as before it was kept (at 300 tables a bigger store held more memory than the
#: budget allows, for few hits).
LARGE_KEPT_BYTES = 1536 * 1024
#: Pieces kept: card bodies (~10-20 KB, a few hundred at most) and corners and numbers (~1 KB
#: each with Pillow's own), so the cache stays under ~15 MB; it starts again when full.
TILES_KEPT = 4096


class Tiles:
    """Pieces mapped onto one palette, kept by key; canvases in that palette."""

    def __init__(
        self, palette: Image.Image, kept: int = TILES_KEPT, large_bytes: int = LARGE_KEPT_BYTES
    ) -> None:
        self.palette = palette
        self._colours = palette.getpalette() or []
        self._kept: dict[Hashable, Image.Image] = {}
        self._limit = kept
        self._large: Kept[tuple[Image.Image, tuple[int, int]]] = Kept(
            large_bytes, lambda placed: placed[0].width * placed[0].height
        )
        self._indexes: dict[RGB, int] = {}
        self._facts: dict[Hashable, object] = {}

    def indexed(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) mapped onto the palette, as the encoder maps."""
        return mapped(image, self.palette)

    def index(self, colour: RGB) -> int:
        """The palette index a flat ``colour`` maps to (for shapes drawn on the canvas)."""
        found = self._indexes.get(colour)
        if found is None:
            pixel = self.indexed(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
            assert isinstance(pixel, int)
            found = self._indexes[colour] = pixel
        return found

    def tile(self, key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
        """The piece ``make`` composes (RGB), mapped once per ``key``."""
        return _kept(self._kept, self._limit, key, lambda: self.indexed(make()))

    def large(
        self, key: Hashable, make: Callable[[], tuple[Image.Image, tuple[int, int]]]
    ) -> tuple[Image.Image, tuple[int, int]]:
        """A big or varied piece with its offset (a hand's title, a table's seat list), mapped
        once per ``key`` and kept by bytes, least recently used dropped: in the count-bound
        store, at 300 tables, titles took 18 MB."""
        found = self._large.get(key)
        if found is None:
            image, offset = make()
            found = self.indexed(image), offset
            self._large.keep(key, found)
        return found

    def forget_large(self) -> None:
        """Drop the big pieces kept (they belong to the tables drawn lately)."""
        self._large = Kept(self._large.limit, self._large.size)

    def remember(self, key: Hashable, make: Callable[[], T]) -> T:
        """A small fact about the pieces (pixels that key a tile, the pieces of a card),
        computed once per ``key``."""
        return cast(T, _kept(self._facts, self._limit, key, make))

    @property
    def colours(self) -> bytes:
        """The palette as a PNG's PLTE chunk carries it."""
        return bytes(self._colours)

    def canvas(self, size: tuple[int, int], colour: RGB) -> Image.Image:
        """A 'P' canvas in the palette, filled with ``colour``."""
        canvas = Image.new("P", size, self.index(colour))
        canvas.putpalette(self._colours)
        return canvas


def put(canvas: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """``canvas.paste(tile, xy)`` for two loaded palette images of ours, without the checks of
    ``Image.paste`` (mode, mask, box forms), which took three quarters of each copy: a hand is
    some sixty copies."""
    x, y = xy
    canvas.im.paste(tile.im, (x, y, x + tile.width, y + tile.height))


def _kept(kept: dict[Hashable, T], limit: int, key: Hashable, make: Callable[[], T]) -> T:
    """``kept[key]``, made on first use; the map starts again when it holds ``limit``."""
    found = kept.get(key)
    if found is None:
        if len(kept) >= limit:
            kept.clear()
        found = kept[key] = make()
    return found


#: Deflated bands kept (their compressed bytes): a header is ~6 KB, the melds of a table with
#: a dozen melds ~40 KB, so a few hundred tables' bands, within the memory budget.
ROWS_KEPT_BYTES = 12 * 1024 * 1024


class Kept(Generic[T]):
    """Values by what they show, least recently used dropped past a number of bytes."""

    def __init__(self, limit: int, size: Callable[[T], int]) -> None:
        self._kept: OrderedDict[Hashable, T] = OrderedDict()
        self._bytes = 0
        self.limit = limit
        self.size = size

    def get(self, key: Hashable) -> T | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def keep(self, key: Hashable, value: T) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self._bytes -= self.size(old)
        self._kept[key] = value
        self._bytes += self.size(value)
        while self._bytes > self.limit and len(self._kept) > 1:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= self.size(dropped)

    def __len__(self) -> int:
        return len(self._kept)


def kept_rows(limit: int = ROWS_KEPT_BYTES) -> Kept[Rows]:
    """Deflated bands, by their compressed size."""
    return Kept(limit, lambda rows: len(rows.data))
