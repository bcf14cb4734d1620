"""Delayed work per table: the automatic next round, a computer player's turn.

One pending task per (kind, table); scheduling again replaces it. The delay is asyncio's
clock, which tests can advance, and a restart re-arms what the stored games still need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Key = tuple[str, int]


class TableTimers:
    """Pending delayed actions, keyed by what they do and for which table."""

    def __init__(self) -> None:
        self._tasks: dict[Key, asyncio.Task[None]] = {}

    def schedule(self, key: Key, delay: float, work: Callable[[], Awaitable[None]]) -> None:
        self.cancel(key)
        self._tasks[key] = asyncio.create_task(
            self._later(key, delay, work), name=f"{key[0]}-{key[1]}"
        )

    async def _later(self, key: Key, delay: float, work: Callable[[], Awaitable[None]]) -> None:
        await asyncio.sleep(max(0.0, delay))
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]
        try:
            await work()
        except Exception:
            log.exception("delayed %s failed for table %s", *key)

    def cancel(self, key: Key) -> None:
        task = self._tasks.pop(key, None)
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
    def pending(self) -> frozenset[Key]:
        return frozenset(self._tasks)
