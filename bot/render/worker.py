"""A drawing process: scenes in on stdin, PNG bytes out on stdout, until stdin ends.

Run by :class:`bot.render.drawing.ProcessDrawer` as ``python -m bot.render.worker [niceness]``
(a positive niceness lowers the process's priority: replays, seconds of drawing, must never
take the CPU from the pictures and moves of the tables in play). Each
message is a frame: a 5-byte header (status, length) and that many bytes; a request is a
pickled scene, an answer the PNG (status ``OK``) or the error's text (``FAILED``), in the order
the requests came. A request of status ``RELEASE`` (empty) asks the process to give back the
memory a burst of pictures took (what it kept of the tables drawn lately, then
:func:`bot.memory.release_memory`), answered by an empty ``OK``. Why pickle: both ends are
this program, started by the bot itself, over a private pipe.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import traceback
from typing import TYPE_CHECKING, BinaryIO, Protocol

from bot.memory import release_memory

if TYPE_CHECKING:
    from bot.render.renderer import Renderer

#: Status byte, then the body's length.
HEADER = struct.Struct(">BI")
OK, FAILED, RELEASE = 0, 1, 2


class Writable(Protocol):
    """A binary file, or an asyncio stream writer: both take bytes."""

    def write(self, data: bytes, /) -> object: ...


def write_frame(out: Writable, status: int, body: bytes) -> None:
    """One frame to ``out``."""
    out.write(HEADER.pack(status, len(body)) + body)


def read_frame(source: BinaryIO) -> tuple[int, bytes] | None:
    """The next frame, or None at the end of the input."""
    header = source.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    status, size = HEADER.unpack(header)
    body = source.read(size)
    return None if len(body) < size else (status, body)


def serve(source: BinaryIO, out: BinaryIO) -> None:
    """Answer every request until the input ends (the bot closed it, or died). A process that
    cannot draw at all (Pillow or the package's font missing) answers every request with why,
    so that the bot says it in a sentence rather than this process in a traceback."""
    try:
        renderer = ready_renderer()
    except Exception:
        why = traceback.format_exc().encode()
        while read_frame(source) is not None:
            write_frame(out, FAILED, why)
            out.flush()
        return
    while (frame := read_frame(source)) is not None:
        write_frame(out, *answer_to(frame, renderer))
        out.flush()


def ready_renderer() -> Renderer:
    """The renderer, its fonts, sprites and palette loaded before the first picture."""
    from bot.render import default_renderer

    renderer = default_renderer()
    renderer.palette()
    return renderer


def answer_to(frame: tuple[int, bytes], renderer: Renderer) -> tuple[int, bytes]:
    """The answer to one request: the picture, or the memory given back."""
    status, body = frame
    try:
        if status == RELEASE:
            renderer.forget_tables()
            release_memory()
            return OK, b""
        return OK, renderer.render(pickle.loads(body))
    except Exception:
        return FAILED, traceback.format_exc().encode()


if __name__ == "__main__":
    # Ctrl-C in a terminal reaches the whole process group: the bot then shuts down and ends
    # this worker's input, which is when it leaves (not with a KeyboardInterrupt traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if len(sys.argv) > 1:
        os.nice(int(sys.argv[1]))
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not break the frames
    serve(sys.stdin.buffer, answers)
