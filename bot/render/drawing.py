"""Where the bot's pictures are drawn: worker threads of its own process, or worker processes.

Why processes: drawing a picture is partly Python (layout, labels, Pillow's glue), and in a
thread that part holds the interpreter lock the event loop needs for every Discord call and
database answer. With 100 busy tables the bot's process sat near one core's worth of that lock
while both cores had time to spare, and a move's answer waited about a second. Drawing in a
separate process took the load benchmark from about 85 to about 130 moves per second on the
same two cores (``benchmarks/bench_load.py``; the README has the figures).

Threads stay for one-core machines, where a second process only adds memory, and for the tests
that run the bot inside the test process.
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from . import default_renderer
from .renderer import Renderer, Scene

#: How often a drawing process checks that the bot is still there.
WATCH_SECONDS = 1.0


class Drawer(Protocol):
    """Scenes in, PNG bytes out, off the event loop."""

    async def png(self, scene: Scene) -> bytes: ...

    def close(self) -> None: ...


def make_drawer(processes: int) -> Drawer:
    """Worker processes when ``processes`` > 0, else the renderer's worker threads."""
    return ProcessDrawer(processes) if processes > 0 else ThreadDrawer(Renderer())


class ThreadDrawer:
    """Draws in the renderer's worker threads, in this process."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer

    async def png(self, scene: Scene) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.renderer.workers, self.renderer.render, scene)

    def close(self) -> None:
        self.renderer.workers.shutdown(wait=False, cancel_futures=True)


class ProcessDrawer:
    """Draws in worker processes, started on the first picture (a bot that never draws, or a
    test, starts none). A worker that dies (killed, out of memory) breaks the pool: it is
    replaced and the picture drawn again once; what was waiting on it fails and is drawn again
    by the reconciler's retry."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: the bot has threads (database, drawing), and forking a process with
            # threads can copy a held lock into the child; spawn where there is no forkserver.
            # spawn, not fork: the bot has threads (database, network), and a fork copies any
            # lock one of them holds. Not forkserver either: the workers are then the server's
            # children, and outlive a bot that is killed (see _watch).
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def png(self, scene: Scene) -> bytes:
        portable = _portable(scene)
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, _draw, portable)
            except BrokenProcessPool:
                if self._pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _portable(scene: Scene) -> Scene:
    """The scene as it can be pickled: its labels are a read-only mapping proxy."""
    return dataclasses.replace(scene, labels=dict(scene.labels))


def _start_worker(bot_pid: int) -> None:
    """In each worker, at start: watch the bot, then build the fonts, sprites and palette
    before the first picture."""
    threading.Thread(target=_watch, args=(bot_pid,), name="watch-bot", daemon=True).start()
    default_renderer().palette()


def _watch(bot_pid: int) -> None:
    """Leave when the bot is gone: a bot killed outright (SIGKILL, out of memory) cannot shut
    its pool down, and its workers would wait for pictures forever."""
    while os.getppid() == bot_pid:
        time.sleep(WATCH_SECONDS)
    os._exit(0)


def _draw(scene: Scene) -> bytes:
    return default_renderer().render(scene)
