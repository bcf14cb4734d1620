"""One task that sleeps until the nearest stored deadline and hands it over (the durable-timer
pattern of RoboDanny's reminder cog).

Why one task instead of a task per timer: the deadlines live in the database, so the process
only needs to know the nearest one. Arming a deadline wakes the task to look again; a restart
starts it and it finds what is due, including deadlines that passed while the bot was down.
The clock and the sleep are injected, so tests move time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.services.inflight import ShuttingDown
from bot.storage import Deadline, Store
from bot.storage.base import Clock

log = logging.getLogger(__name__)

Fire = Callable[[Deadline], Awaitable[None]]
#: The longest sleep between two looks at the database (a safety net, not a poll).
MAX_SLEEP_SECONDS = 3600.0


class Dispatcher:
    """Runs each due deadline once, nearest first."""

    def __init__(self, store: Store, fire: Fire, clock: Clock) -> None:
        self.store = store
        self.fire = fire
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        # Waking interrupts a plain sleep (not an Event wait), so the sleep stays on the
        # event loop's clock, the one tests move: ``_dirty`` notes a wake-up that came while
        # the task was busy, ``_sleeping``/``_woken`` let wake() interrupt only the sleep.
        self._dirty = False
        self._sleeping = False
        self._woken = False

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="deadline-dispatcher")

    def wake(self) -> None:
        """A deadline was armed or changed: look at the nearest one again."""
        self._dirty = True
        if self._sleeping and not self._woken and self._task is not None:
            self._woken = True
            self._task.cancel()

    async def close(self) -> None:
        self._woken = False  # a pending wake-up must not swallow this cancellation
        self._sleeping = False
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_due(self) -> int:
        """Fire every deadline due now; returns how many (start-up and tests call it too)."""
        fired = 0
        while True:
            now = self.clock()
            due = [d for d in await self.store.next_deadlines() if d.due_at <= now]
            if not due:
                return fired
            for deadline in due:
                await self._fire_once(deadline)
                fired += 1

    async def _fire_once(self, deadline: Deadline) -> None:
        """Fire; whatever happens, the deadline is marked fired afterwards (a no-op when the
        work claimed it in its own transaction), so a failing deadline cannot spin."""
        try:
            await self.fire(deadline)
        except ShuttingDown:
            raise
        except Exception:
            log.exception("deadline %s of table %s failed", deadline.kind, deadline.table_id)
        await self.store.claim_deadline(deadline)

    async def _run(self) -> None:
        while True:
            self._dirty = False
            try:
                await self.run_due()
                pending = await self.store.next_deadlines(1)
            except ShuttingDown:
                return
            except Exception:
                log.exception("the deadline dispatcher failed; retrying in a minute")
                pending, delay = [], 60.0
            else:
                delay = MAX_SLEEP_SECONDS
                if pending:
                    delay = min(delay, (pending[0].due_at - self.clock()).total_seconds())
            if self._dirty or delay <= 0:
                continue
            await self._sleep(delay)

    async def _sleep(self, delay: float) -> None:
        """Sleep ``delay`` seconds unless wake() interrupts; close() still cancels."""
        self._sleeping = True
        try:
            await asyncio.sleep(delay)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._woken or task is None or self._task is not task:
                raise
            task.uncancel()
        finally:
            self._sleeping = self._woken = False
