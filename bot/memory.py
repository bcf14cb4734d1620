"""Giving back the memory a burst of work took (imported by the drawing processes: no asyncio).

Why: after a burst of load (300 busy tables) the bot's RSS stayed where the burst left it, for
as long as the process lived, while it held fewer live Python objects than before the burst.
What held it (``benchmarks/bench_load.py --idle``, ``/proc/<pid>/smaps``, the interpreter's
``sys._debugmallocstats()``):

- garbage in reference cycles, among it the PNG of every picture sent (see
  :class:`bot.ui.files.BytesFile`), waiting for the garbage collector's oldest generation,
  which runs only after many new long-lived objects: an idle bot makes none, so it never ran;
- glibc's allocator keeping the pages freed in its heaps for the next burst;
- what the drawing processes kept of the tables they drew (bounded, but full after a burst).

So once the bot has been quiet for a while (:class:`bot.services.memory.MemoryKeeper`) it
forgets what was kept of the tables drawn lately, collects that garbage and asks glibc to
return every free page to the system (``malloc_trim(0)``, which since glibc 2.8 releases the
free pages inside the heaps too, not only at their top), in its own process and in its drawing
processes (:meth:`bot.render.drawing.ProcessDrawer.release`): a few tens of milliseconds of
CPU, once per quiet spell. What it cannot give back is the interpreter's own small-object
arenas (1 MiB each, freed only when wholly empty) that the burst's objects left partly used:
so a burst is kept from needing many (``MOVES_AT_ONCE`` in :mod:`bot.features.play.ui.context`).
"""

from __future__ import annotations

import ctypes
import functools
import gc
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_memory() -> None:
    """Free the garbage in reference cycles, then give the allocator's free pages back."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
