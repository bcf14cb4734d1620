"""The automatic next round: a round that is over starts again by itself after a delay.

Deadlines come from the stored game (the time of the move that ended the round), so a restart
re-arms them instead of forgetting them; the clock is asyncio's, which tests can advance.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class RoundTimer:
    """One pending "next round" per table; starting it by hand makes the timer a no-op."""

    def __init__(self, start_round: Callable[[int], Awaitable[None]]) -> None:
        self._start_round = start_round
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def schedule(self, table_id: int, delay: float) -> None:
        self.cancel(table_id)
        self._tasks[table_id] = asyncio.create_task(
            self._later(table_id, delay), name=f"next-round-{table_id}"
        )

    async def _later(self, table_id: int, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        self._tasks.pop(table_id, None)
        try:
            await self._start_round(table_id)
        except Exception:
            log.exception("automatic next round failed for table %s", table_id)

    def cancel(self, table_id: int) -> None:
        task = self._tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def pending(self) -> frozenset[int]:
        return frozenset(self._tasks)
