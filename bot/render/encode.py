"""PNG encoding: map to one fixed palette of few colours, then deflate with ISA-L.

Why a fixed palette: the images are flat colours plus anti-aliased edges, so 128 colours are
visually lossless here and cut the PNG to about a third of its RGB size (a 24-meld table is
~175 KB as RGB, ~50 KB as a palette image). Computing a palette per image (octree) costs ~8 ms
for a big table; mapping onto a palette computed once from :func:`calibration_sheet` costs ~1 ms
and makes identical scenes give byte-identical files.

Why ISA-L (``isal``) and our own PNG chunks: deflate was the largest part of a move's CPU under
load, and Pillow's encoder only offers zlib. Measured on this project's pictures (issue 11, 2-core
machine): 15-card hand, zlib level 3 0.97 ms / 22 KB, ISA-L level 1 0.13 ms / 23 KB; 24-meld
table 2.9 ms / 62 KB against 0.35 ms / 65 KB (level 0 is as fast: 28 KB and 79 KB). A palette PNG
is four chunks (header, palette, data, end) of unfiltered rows, which Pillow reads back in the
tests. ``benchmarks/bench_render.py`` prints the comparison.

Why the first bytes are deflated apart (:data:`PRIMED_BYTES`): ISA-L's level 1-2 deflate body
(``igzip_icf_body_h1_gr_bt.asm``, isal 1.9.1 / ISA-L 2.32.1) has a bug in the path it takes for
the first byte of a stream (``.write_first_byte``): it hashes ``tmp2`` (``rcx``) to place the
third byte in its hash table, but ``rcx`` was never loaded with the data there; it still holds
the stream's address (copied from ``rdi`` on entry). So byte 2 of the rows goes into a hash slot
chosen by bits 16-47 of the address of the deflater's state, and a later search that reads that
slot finds, or misses, a match at distance ``position - 2``: the same rows deflate to other (valid)
bytes depending on where the deflater happens to live in memory, i.e. on the process's heap
layout. That is what made a long-running drawing process differ from a fresh one (issue 39).
Level 0 uses another body, without the bug, but gives pictures ~15 % bigger. Instead, the first
:data:`PRIMED_BYTES` bytes are deflated and flushed on their own: ISA-L hands so short an input
straight to its end-of-input routine, which hashes the first byte correctly, and the body, which
then deflates the rest, never takes that path. This costs one small block (~10-20 bytes a band). ``tests/render/test_deterministic.py`` deflates
with the stream placed at addresses of each of ISA-L's 8,192 hash slots and requires one output.
"""

from __future__ import annotations

import io
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from isal import isal_zlib
from PIL import Image

from .png import PNG_SIGNATURE

PALETTE_COLOURS = 128
#: The palette of PALETTE_COLOURS colours computed from the calibration scenes, shipped so that a
#: drawing process starts at once: computing it takes ~0.65 s and briefly ~60 MB (the stacked
#: scenes). ``python -m bot.render --palette`` writes it; a test checks it is still what the
#: renderer computes.
PALETTE_FILE = Path(__file__).with_name("palette.json")
#: ISA-L deflate level (0-3): 1, as fast as 0 and 15 % smaller; 3 is five times slower for no
#: smaller pictures.
COMPRESS_LEVEL = 1
#: The first bytes of the rows, deflated and flushed apart so that ISA-L's end-of-input routine,
#: not its body, handles the first byte (see the module docstring): at most 16, since with a flush
#: the body leaves the last 16 bytes of its input to that routine, and at least 4 for the routine
#: to hash the first byte.
PRIMED_BYTES = 16
ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, "fastest" (a hint only)
FINAL_EMPTY_BLOCK = b"\x03\x00"  # a last, empty block with fixed codes: ends the stream
ADLER_BASE = 65521


def calibration_sheet(images: Sequence[Image.Image]) -> Image.Image:
    """The given renders stacked into one RGB image, to compute the shared palette from."""
    width = max(image.width for image in images)
    sheet = Image.new("RGB", (width, sum(image.height for image in images)))
    y = 0
    for image in images:
        sheet.paste(image, (0, y))
        y += image.height
    return sheet


def build_palette(sheet: Image.Image, colours: int = PALETTE_COLOURS) -> Image.Image:
    """A 'P' image carrying the palette (octree: it keeps rare but vivid colours like badges)."""
    return sheet.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def to_png(
    image: Image.Image,
    palette: Image.Image | None = None,
    compress_level: int = COMPRESS_LEVEL,
) -> bytes:
    """PNG bytes of ``image``, mapped onto ``palette`` without dithering (None keeps RGB, written
    by Pillow: only the benchmark's comparison uses it)."""
    if palette is None:
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=6)
        return out.getvalue()
    return palette_png(mapped(image, palette), compress_level)


def mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` (RGB) mapped onto ``palette``, without dithering: how every picture, and every
    piece kept in palette indexes, gets its indexes."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


@dataclass(frozen=True)
class Rows:
    """The rows of a palette picture (or of a band of one), deflated on their own.

    Why apart: bands deflated apart join into one PNG without deflating again, so a band kept
    from an earlier picture (the melds of a table) costs a copy. Each ends on a byte boundary
    and no band claims to be the last (``deflate_rows``); :func:`png_of` closes the stream.
    """

    data: bytes
    checksum: int  # Adler-32 of the rows as PNG filters them (a 0 byte, then the indexes)
    length: int
    width: int
    height: int


def deflate_rows(indexed: Image.Image, compress_level: int = COMPRESS_LEVEL) -> Rows:
    """A 'P' image's rows, each with filter type 0 (none), deflated.

    The crop one pixel to the left adds a zero column, which is exactly the filter-type byte
    each PNG row starts with, so the scanlines come out of Pillow in one copy.
    """
    width, height = indexed.size
    rows = indexed.crop((-1, 0, width, height)).tobytes()
    deflater = isal_zlib.compressobj(compress_level, isal_zlib.DEFLATED, -15)
    return Rows(deflated(deflater, rows), isal_zlib.adler32(rows), len(rows), width, height)


class Deflater(Protocol):
    """What :func:`deflated` needs of a deflate stream (ISA-L's ``compressobj``)."""

    def compress(self, data: bytes | memoryview, /) -> bytes: ...

    def flush(self, mode: int, /) -> bytes: ...


def deflated(deflater: Deflater, rows: bytes, primed: int = PRIMED_BYTES) -> bytes:
    """``rows`` deflated by a fresh raw-deflate ``deflater``, ending on a byte boundary with no
    last block: its first ``primed`` bytes flushed on their own (see the module docstring)."""
    view = memoryview(rows)
    return b"".join(
        (
            deflater.compress(view[:primed]),
            deflater.flush(isal_zlib.Z_SYNC_FLUSH),
            deflater.compress(view[primed:]),
            deflater.flush(isal_zlib.Z_SYNC_FLUSH),
        )
    )


def png_of(bands: Sequence[Rows], colours: bytes) -> bytes:
    """One PNG of ``bands`` stacked (all as wide), 8-bit indexes into ``colours``."""
    width, height = bands[0].width, sum(band.height for band in bands)
    checksum = 1
    for band in bands:
        checksum = adler32_combine(checksum, band.checksum, band.length)
    stream = b"".join(
        (
            ZLIB_HEADER,
            *(band.data for band in bands),
            FINAL_EMPTY_BLOCK,
            struct.pack(">I", checksum),
        )
    )
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


def palette_png(indexed: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """A 'P' image as PNG (see :func:`deflate_rows`)."""
    return png_of([deflate_rows(indexed, compress_level)], bytes(indexed.getpalette() or []))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine, which
    Python's zlib module does not offer): A sums the bytes, B sums the running A values."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % ADLER_BASE
    b = (b1 + b2 + second_length * (a1 - 1)) % ADLER_BASE
    return (b << 16) | a


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC of type and data."""
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def palette_from(colours: Sequence[int]) -> Image.Image:
    """A 'P' image carrying ``colours`` (flat r, g, b values), to map pictures onto."""
    image = Image.new("P", (1, 1))
    image.putpalette(list(colours))
    return image


def load_palette(path: Path = PALETTE_FILE) -> Image.Image | None:
    """The shipped palette, or None when there is none (a fresh checkout before writing it)."""
    try:
        colours = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return palette_from(colours)


def save_palette(palette: Image.Image, path: Path = PALETTE_FILE) -> None:
    colours = palette.getpalette() or []
    path.write_text(json.dumps(colours) + "\n", encoding="utf-8")
