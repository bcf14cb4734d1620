"""When to give memory back: once per quiet spell (the why is in :mod:`bot.memory`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

#: Seconds without any new work before the memory a burst took is given back.
QUIET_SECONDS = 30.0


class Activity(Protocol):
    """What counts work: how many pieces have begun so far, and how many are in progress."""

    @property
    def entered(self) -> int: ...

    @property
    def active(self) -> int: ...


class MemoryKeeper:
    """Gives memory back once per quiet spell: when a look finds that no work began since the
    previous look (``quiet`` seconds before), none is in progress, and some was done since the
    memory was last given back. ``release`` does it (this process's and the drawing
    processes' memory).

    Looks are armed by work (:meth:`poke`, on every piece begun) and stop once the memory is
    given back: an idle bot has no timer of its own, and a month of simulated time in the tests
    does not wake it every ``quiet`` seconds."""

    def __init__(
        self,
        work: Activity,
        release: Callable[[], Awaitable[None]],
        quiet: float = QUIET_SECONDS,
    ) -> None:
        self.work = work
        self.release = release
        self.quiet = quiet
        #: Work begun by the last look, and by the last time memory was given back.
        self._seen = self._released = work.entered
        self._task: asyncio.Task[None] | None = None
        self._watching = False

    async def look(self) -> bool:
        """One look; True when it gave memory back."""
        entered = self.work.entered
        quiet = entered == self._seen and not self.work.active
        self._seen = entered
        if not quiet or entered == self._released:
            return False
        self._released = entered
        await self.release()
        return True

    @property
    def looking(self) -> bool:
        """Whether a look is armed (work was done since the memory was last given back)."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Watch for quiet spells from now on, the work done before included."""
        self._watching = True
        self.poke()

    def poke(self) -> None:
        """Work began: make sure looks come until its memory is given back."""
        if self._watching and not self.looking and self.work.entered != self._released:
            self._task = asyncio.create_task(self._run(), name="memory-keeper")

    async def _run(self) -> None:
        while self.work.entered != self._released:
            await asyncio.sleep(self.quiet)
            try:
                await self.look()
            except Exception:  # giving memory back is a nicety: never a reason to stop
                log.exception("giving memory back failed")

    async def stop(self) -> None:
        self._watching = False
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
