"""How far behind the event loop is, measured by a ticker that oversleeps when it is.

Why: a typed move is answered in one call when its answer is ready soon enough, and deferred
by a timer otherwise (:func:`bot.ui.interaction.defer_unless_answered`). When the loop is
behind, every step of the move waits behind the backlog, that timer too: under 300 saturating
tables half the moves were deferred by it 1.5 s after they came and the slowest came within
a quarter of a second of Discord's 3. A loop seen behind lately acknowledges a move before any
of its work instead: it would have been deferred anyway, and now early.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

#: Seconds between the ticks: the cost is a wake-up, the reaction time this.
TICK = 0.1
#: A tick this late (seconds) says the loop is behind; behind for this long after it.
BEHIND_AFTER = 0.2
REMEMBERED = 1.0


class LoopLag:
    """The event loop's lateness, as the last ticks saw it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._late_at = -REMEMBERED
        #: The latest tick's lateness and the worst seen (seconds; for logs and tests).
        self.last = 0.0
        self.worst = 0.0
        self._ticker: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._tick(), name="loop-lag")

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None

    async def _tick(self) -> None:
        while True:
            due = self.clock() + TICK
            await asyncio.sleep(TICK)
            self.saw(self.clock() - due)

    def saw(self, late: float) -> None:
        """One tick ``late`` seconds after it was due."""
        self.last = late
        self.worst = max(self.worst, late)
        if late >= BEHIND_AFTER:
            self._late_at = self.clock()

    def behind(self) -> bool:
        """Whether a tick came :data:`BEHIND_AFTER` late within the last :data:`REMEMBERED`."""
        return self.clock() - self._late_at < REMEMBERED
