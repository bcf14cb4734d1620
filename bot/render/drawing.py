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
import contextlib
import dataclasses
import itertools
import pickle
import sys
from collections import deque
from typing import TYPE_CHECKING, Protocol

from .scene import Picture, ReplayScene, Scene
from .worker import HEADER, OK, RELEASE, write_frame

if TYPE_CHECKING:
    from .renderer import Renderer

#: How long a drawing process may take to leave once told to.
STOP_SECONDS = 5.0


class Drawer(Protocol):
    """Scenes in, PNG bytes out, off the event loop."""

    async def png(self, scene: Scene) -> bytes: ...

    async def release(self) -> None:
        """Give back the memory drawing took: what is kept of the tables drawn lately, and
        the drawing processes' memory (this process's own is given back by
        :func:`bot.memory.release_memory`)."""

    async def close(self) -> None: ...


def make_drawer(processes: int, *, niceness: int = 0) -> Drawer:
    """Worker processes when ``processes`` > 0 (``niceness`` added to their niceness), else the
    renderer's worker threads."""
    return (
        ProcessDrawer(processes, niceness=niceness) if processes > 0 else ThreadDrawer()
    )


class ThreadDrawer:
    """Draws in the renderer's worker threads, in this process."""

    def __init__(self, renderer: Renderer | None = None) -> None:
        if renderer is None:
            from .renderer import Renderer  # Pillow only where the pictures are drawn

            renderer = Renderer()
        self.renderer = renderer

    async def png(self, scene: Scene) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.renderer.workers, self.renderer.render, scene)

    async def release(self) -> None:
        """What is kept of the tables drawn lately is dropped (the rest of the threads' memory
        is this process's)."""
        self.renderer.forget_tables()

    async def close(self) -> None:
        self.renderer.workers.shutdown(wait=False, cancel_futures=True)


class DrawingFailed(RuntimeError):
    """A worker could not draw a picture (its error is in the message), or died drawing it."""


class ProcessDrawer:
    """Draws in worker processes (``python -m bot.render.worker``), started on the first
    picture: a bot that never draws, or a test, starts none.

    Why plain child processes talking over their stdin/stdout, and not a process pool: the
    pipes are read by the event loop itself, so the bot keeps no extra threads to feed a pool
    and collect its results (they took half a millisecond per move, holding the interpreter
    lock); a worker imports the drawing code only, not the bot's main module; and when the bot
    dies, even killed outright, a worker reads the end of its input and leaves.
    """

    def __init__(self, processes: int, *, niceness: int = 0) -> None:
        self.processes = processes
        #: Added to the workers' niceness (lower priority): see :mod:`bot.render.worker`.
        self.niceness = niceness
        self._workers: list[_Worker] = []
        self._turn = itertools.count()
        self._starting = asyncio.Lock()

    async def png(self, scene: Scene) -> bytes:
        """The picture, from the least busy worker; a worker found dead is started again and the
        picture asked once more."""
        payload = pickle.dumps(_portable(scene), protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in range(2):
            worker = await self._worker()
            try:
                return await worker.draw(payload)
            except _WorkerGone:
                if attempt:
                    raise DrawingFailed("the drawing process stopped twice") from None
        raise AssertionError("unreachable")

    async def _worker(self) -> _Worker:
        # One start at a time: the first pictures come in a burst (every table of a restart),
        # and each would otherwise start a worker of its own.
        async with self._starting:
            self._workers = [w for w in self._workers if w.alive]
            if len(self._workers) < self.processes:
                self._workers.append(await _Worker.start(self.niceness))
        return min(self._workers, key=lambda w: (w.waiting, next(self._turn)))

    @property
    def pids(self) -> list[int]:
        """The running workers' process ids (for tests and the benchmark)."""
        return [w.pid for w in self._workers if w.alive]

    async def release(self) -> None:
        """Each running worker gives back the memory its pictures took (none is started)."""
        await asyncio.gather(
            *(w.ask(RELEASE, b"") for w in self._workers if w.alive), return_exceptions=True
        )

    async def close(self) -> None:
        workers, self._workers = self._workers, []
        await asyncio.gather(*(w.stop() for w in workers))


class _WorkerGone(Exception):
    """The worker's output ended: it exited or was killed."""


class _Worker:
    """One drawing process: requests go down its stdin in order, answers come back in the same
    order, each matched with the oldest request still waiting."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process, self.pid = process, process.pid
        self._input, self._output = process.stdin, process.stdout
        self._waiting: deque[asyncio.Future[bytes]] = deque()
        self.alive = True
        self._reader = asyncio.create_task(self._read(), name=f"drawing-{process.pid}")

    @classmethod
    async def start(cls, niceness: int = 0) -> _Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.render.worker",
            *([str(niceness)] if niceness else []),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    async def draw(self, payload: bytes) -> bytes:
        return await self.ask(OK, payload)

    async def ask(self, status: int, payload: bytes) -> bytes:
        """One request (a picture, or ``RELEASE``) and its answer."""
        if not self.alive:
            raise _WorkerGone()
        answer: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._waiting.append(answer)
        write_frame(self._input, status, payload)
        try:
            await self._input.drain()
        except ConnectionError:  # the worker is gone; its reader fails what waits
            self._gone()
        return await answer

    async def _read(self) -> None:
        try:
            while True:
                status, body = await _frame(self._output)
                answer = self._waiting.popleft()
                if answer.done():  # its caller gave up waiting
                    continue
                if status == OK:
                    answer.set_result(body)
                else:
                    answer.set_exception(DrawingFailed(body.decode(errors="replace")))
        except (asyncio.IncompleteReadError, ConnectionError):
            self._gone()

    def _gone(self) -> None:
        self.alive = False
        while self._waiting:
            answer = self._waiting.popleft()
            if not answer.done():
                answer.set_exception(_WorkerGone())

    async def stop(self) -> None:
        """End of input: the worker finishes the picture in hand and leaves (killed if it
        does not within a few seconds)."""
        self.alive = False
        self._input.close()
        try:
            await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


async def _frame(stream: asyncio.StreamReader) -> tuple[int, bytes]:
    header = await stream.readexactly(HEADER.size)
    status, size = HEADER.unpack(header)
    return status, await stream.readexactly(size)


def _portable(scene: Scene) -> Scene:
    """The scene as it can be pickled: its labels are a read-only mapping proxy."""
    if isinstance(scene, ReplayScene | Picture):
        return scene.portable()
    return dataclasses.replace(scene, labels=dict(scene.labels))
