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
from datetime import datetime
from typing import Protocol

from bot.services.inflight import ShuttingDown
from bot.storage import Deadline, Shards
from bot.storage.base import Clock
from bot.storage.outage import DatabaseUnavailable

log = logging.getLogger(__name__)

Fire = Callable[[Deadline], Awaitable[None]]


class DeadlineSource(Protocol):
    """Where the dispatcher finds deadlines and claims them: the store (the tables' deadlines)
    or any other durable list shaped the same (the seasons' ends, :mod:`bot.features.seasons.service`)."""

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        ...

    async def claim_deadline(self, deadline: Deadline) -> bool:
        ...

#: The longest sleep between two looks at the database (a safety net, not a poll).
MAX_SLEEP_SECONDS = 3600.0
#: While the database is away, how soon to look again (its return also wakes the dispatcher).
OUTAGE_RETRY_SECONDS = 10.0


class Dispatcher:
    """Runs each due deadline once, nearest first.

    Between looks it holds one event-loop timer (``call_later``) for the nearest deadline, not
    a sleeping task: arming a nearer deadline replaces the timer without cancelling anything
    that might be in the middle of a move, and the loop's clock is the one tests move.

    Arming a deadline no sooner than the timer's own costs nothing: every turn of every table
    arms one, and a look is two reads. A deadline that moved later or went away leaves the
    timer early; it then looks, finds nothing due, and sleeps until the real nearest one.
    """

    def __init__(
        self, store: DeadlineSource, fire: Fire, clock: Clock, shards: Shards | None = None
    ) -> None:
        self.store = store
        #: Only the deadlines of this process's servers: another process owns the rest.
        self.shards = shards
        self.fire = fire
        self.clock = clock
        self._timer: asyncio.TimerHandle | None = None
        self._target: datetime | None = None  # the deadline the timer is set for
        self._task: asyncio.Task[None] | None = None
        self._again = False  # a wake-up came while a look was running
        self._closed = False

    def start(self) -> None:
        self._closed = False
        self._kick()

    def wake(self, due_at: datetime | None = None) -> None:
        """A deadline was armed or changed (``due_at``: the nearest of them, if known): look
        at the nearest one again, unless the timer is already set for that time or sooner."""
        target = self._target if self._timer is not None else None
        if due_at is not None and target is not None and target <= due_at:
            return
        self._kick()

    def _kick(self) -> None:
        if self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.create_task(self._look(), name="deadline-dispatcher")

    async def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_due(self) -> int:
        """Fire every deadline due now; returns how many (start-up and tests call it too)."""
        fired = 0
        while True:
            now = self.clock()
            due = [d for d in await self.store.next_deadlines(shards=self.shards) if d.due_at <= now]
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
        except (ShuttingDown, DatabaseUnavailable):
            raise  # unclaimed: fired again once the database is back
        except Exception:
            log.exception("deadline %s of table %s failed", deadline.kind, deadline.table_id)
        await self.store.claim_deadline(deadline)

    async def _look(self) -> None:
        """Fire what is due, then set the timer for the nearest pending deadline."""
        while True:
            self._again = False
            try:
                await self.run_due()
                pending = await self.store.next_deadlines(1, shards=self.shards)
            except ShuttingDown:
                return
            except DatabaseUnavailable:  # logged by the store, once; its return wakes us
                pending, delay = [], OUTAGE_RETRY_SECONDS
            except Exception:
                log.exception("the deadline dispatcher failed; looking again in a minute")
                pending, delay = [], 60.0
            else:
                delay = MAX_SLEEP_SECONDS
                if pending:
                    delay = min(delay, (pending[0].due_at - self.clock()).total_seconds())
            if not self._again:
                break
        self._target = pending[0].due_at if pending else None
        if not self._closed:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(0.0, delay), self._kick)
