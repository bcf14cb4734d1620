"""What a PNG file starts with, apart from the encoder: the bot's own process reads a picture's
size without Pillow (:func:`bot.preflight.drawing_finding`), and the encoder
(:mod:`bot.render.encode`, which needs Pillow) writes the same header."""

from __future__ import annotations

import struct

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk (IHDR), which follows its signature."""
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR":
        raise ValueError("the picture drawn is not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return width, height
