"""The bot token's own pace: at most so many REST calls start per second, what players need
to play first.

Why: Discord allows a bot token 50 requests per second in all. discord.py does not count them:
it sends, meets a global 429, holds every request for the ``retry_after``, then sends them all
at once and meets the next 429. Held at the limit that way, a bot answered thousands of 429s a
minute, and Discord bans an IP for a while past 10,000 invalid requests (429s included) in 10
minutes. So every call made with the bot token waits here for its turn, a little below the
limit, and the bucket is never met: the calls are spread 1/rate apart (a few may go at once
after a quiet spell) and no second ever holds more than the rate.

The wait is an aiohttp trace on discord.py's own session (``on_request_start``), so each call
that really goes out is counted when it goes, discord.py's own retries included, and nothing of
discord.py is patched. Only the bot token's calls are paced (they carry ``Authorization: Bot``):
interaction callbacks and follow-ups, limited apart by their own tokens, go at once.

Waiting calls are served by priority: ``PLAY`` (the default: table messages, turn notices,
threads) before ``LATER`` (hand DMs and turn reminders, marked with :func:`later` by the
reconciler, which knows which calls those are). A ``LATER`` call is never starved for good: it
counts as queued ``LATER_HANDICAP`` seconds after it really was, so it goes before the ``PLAY``
calls queued that much after it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import IntEnum
from types import SimpleNamespace

import aiohttp

from bot.config import Settings

#: The bucket's window, as Discord's: a sliding second.
WINDOW = 1.0
#: How much later than a ``PLAY`` call queued at the same moment a ``LATER`` call may go.
LATER_HANDICAP = 3.0
#: After a call last had to wait, how long the pacer still counts as pressed (see
#: :meth:`Pacer.pressed`): at a load just at the rate, its queue empties and fills again
#: between two calls.
PRESSED_CALM = 1.0
#: The log says that calls wait when they start to, after this many seconds without any.
LOG_EVERY = 60.0

log = logging.getLogger(__name__)


class Priority(IntEnum):
    """Which waiting calls go first."""

    PLAY = 0
    LATER = 1


_priority: ContextVar[Priority] = ContextVar("rest_priority", default=Priority.PLAY)


@contextmanager
def later() -> Iterator[None]:
    """The bot-token calls made inside (by this task, and tasks it starts) can wait for the
    others: a hand DM, a reminder."""
    token = _priority.set(Priority.LATER)
    try:
        yield
    finally:
        _priority.reset(token)


class Pacer:
    """Lets at most ``per_second`` bot-token calls start in any second, by priority."""

    def __init__(
        self,
        per_second: float,
        *,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_second <= 0:
            raise ValueError("a pacer needs a positive rate")
        self.per_second = per_second
        self.clock = clock
        #: How many calls may start in one second (the sliding window's hard cap).
        self.cap = max(1, math.floor(per_second))
        #: How many may start at once after a quiet spell: a tenth of the rate, so a move's
        #: few calls go at once, while a burst cannot bunch up on the way to Discord.
        self.burst = max(1, burst if burst is not None else round(per_second / 10))
        self._interval = 1.0 / per_second
        #: The spacing's "theoretical arrival time" (GCRA): a call may start once
        #: ``_tat - _tolerance`` has passed.
        self._tat = 0.0
        self._tolerance = (self.burst - 1) * self._interval
        self._starts: deque[float] = deque()
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._serving: asyncio.Task[None] | None = None
        #: No call starts before this (a global 429 felt all the same, see :meth:`pause`).
        self._paused_until = 0.0
        self._held_at = -math.inf
        #: How many calls had to wait, and of them how many ``LATER`` (for logs and tests).
        self.held = 0
        self.held_later = 0

    def trace(self, config: aiohttp.TraceConfig) -> None:
        """Pace the requests of ``config``'s session (discord.py's ``http_trace``)."""
        config.on_request_start.append(self._on_request_start)

    async def _on_request_start(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if params.headers.get("Authorization", "").startswith("Bot "):
            await self.slot(_priority.get())

    def queued(self) -> int:
        """How many calls are waiting now."""
        return sum(not future.done() for _, _, future in self._waiting)

    def pressed(self) -> bool:
        """Whether calls are waiting, or one had to wait within the last ``PRESSED_CALM``
        seconds: what can wait should, rather than queue behind the tables."""
        return bool(self._waiting) or self.clock() < self._held_at + PRESSED_CALM

    def pause(self, seconds: float) -> None:
        """Let nothing start for ``seconds`` (Discord answered a global 429 all the same,
        another process of the token say): calls queued here would meet the next one."""
        self._paused_until = max(self._paused_until, self.clock() + seconds)

    async def slot(self, priority: Priority = Priority.PLAY) -> None:
        """Return when a call of ``priority`` may start (it is then counted as started)."""
        now = self.clock()
        if not self._waiting and self._free_at(now) <= now:
            self._take(now)
            return
        future = asyncio.get_running_loop().create_future()
        handicap = LATER_HANDICAP if priority is Priority.LATER else 0.0
        heapq.heappush(self._waiting, (now + handicap, next(self._order), future))
        self.held += 1
        self.held_later += priority is Priority.LATER
        if now >= self._held_at + LOG_EVERY:
            log.info(
                "bot-token calls held to %.1f per second (%d waiting)",
                self.per_second,
                len(self._waiting),
            )
        self._held_at = now
        if self._serving is None or self._serving.done():
            self._serving = asyncio.create_task(self._serve(), name="rest-pacer")
        await future  # cancelled with its call: the server skips it

    async def _serve(self) -> None:
        """Let the waiting calls go, best first, each as soon as the pace allows (calls
        cancelled meanwhile are dropped first, so that none is waited for)."""
        waiting = self._waiting
        while waiting:
            if waiting[0][2].done():
                heapq.heappop(waiting)
                continue
            now = self.clock()
            free = self._free_at(now)
            if free > now:
                await asyncio.sleep(free - now)
                continue
            _, _, future = heapq.heappop(waiting)
            self._take(now)
            self._held_at = now
            future.set_result(None)

    def _free_at(self, now: float) -> float:
        """When the next call may start: the spacing, the window's cap and any pause."""
        starts = self._starts
        while starts and starts[0] <= now - WINDOW:
            starts.popleft()
        free = max(now, self._tat - self._tolerance, self._paused_until)
        if len(starts) >= self.cap:
            free = max(free, starts[0] + WINDOW)
        return free

    def _take(self, now: float) -> None:
        self._starts.append(now)
        self._tat = max(self._tat, now) + self._interval


def make_pacer(settings: Settings) -> Pacer | None:
    """The pacer for this process's share of ``RUMMY_REQUESTS_PER_SECOND`` (None: 0, off)."""
    share = settings.process_requests_per_second
    return Pacer(share) if share > 0 else None
