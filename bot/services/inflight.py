"""Counting work in progress so a shutdown can wait for it to finish.

Why in services: every change to a table enters here, whether a player, a timer or a computer
asked for it, so one counter sees all of it; the Discord layer only closes the gate.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import TracebackType

from bot.services.refusal import Refusal


class ShuttingDown(Refusal):
    """New work after a shutdown began; the player is asked to try again in a moment."""

    def __init__(self) -> None:
        super().__init__("bot.shutting_down")


class InFlight:
    """``async with gate:`` around one piece of work; after :meth:`close`, entering raises
    :class:`ShuttingDown`, while work already inside continues. ``on_enter`` hears of each
    piece as it begins (the memory keeper: its look is armed by work, not by a clock)."""

    def __init__(self, on_enter: Callable[[], object] = lambda: None) -> None:
        self._on_enter = on_enter
        self._count = 0
        self._entered = 0
        self._closed = False
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def active(self) -> int:
        """How many pieces of work are in progress."""
        return self._count

    @property
    def entered(self) -> int:
        """How many pieces of work have begun since the start: whether any began lately (see
        bot/memory.py)."""
        return self._entered

    @property
    def closed(self) -> bool:
        """Whether new work is refused."""
        return self._closed

    def close(self) -> None:
        """Refuse new work from now on."""
        self._closed = True

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no work is in progress; ``False`` if ``timeout`` expired first."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def __aenter__(self) -> InFlight:
        if self._closed:
            raise ShuttingDown()
        self._count += 1
        self._entered += 1
        self._idle.clear()
        self._on_enter()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._count -= 1
        if self._count == 0:
            self._idle.set()
