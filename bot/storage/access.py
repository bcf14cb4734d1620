"""Who may use the SQLite store's one connection at a time: many one-hop calls, or one
transaction spread over several hops.

Why: aiosqlite runs every call on one worker thread, in the order they were queued. A call that
is a single hop (a read, or a transaction run whole on the thread) is therefore atomic, and
such calls need no lock among themselves. A transaction made of several awaited statements is
not: a call queued between two of its statements would run inside it. So such a transaction
waits for the calls already running and holds off new ones until it ends, and nothing else
waits for anybody. Readers that arrive while it waits queue behind it, so it cannot starve.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Access:
    """``shared()`` around one-hop calls, ``alone()`` around a multi-hop transaction."""

    def __init__(self) -> None:
        self._alone = asyncio.Lock()
        self._running = 0
        self._drained = asyncio.Event()
        self._drained.set()

    @property
    def running(self) -> int:
        """How many shared users are inside now (for tests)."""
        return self._running

    @asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        while self._alone.locked():
            async with self._alone:
                pass
        self._running += 1
        self._drained.clear()
        try:
            yield
        finally:
            self._running -= 1
            if not self._running:
                self._drained.set()

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[None]:
        async with self._alone:
            await self._drained.wait()
            yield
