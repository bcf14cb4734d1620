"""Discord's global limit of the bot token, as the bot last felt it.

Why: a bot token has 50 requests per second across every route (an interaction's own token is
limited apart). Past them Discord answers 429 with ``X-RateLimit-Global: true`` and discord.py
holds every bot-token request until ``retry_after`` has passed, then sends them all again, in
no particular order. So at the limit, what players need to play (the table message, the turn
notice) would queue behind what can wait (the hand DMs, whose hand every move's private answer
shows anyway). This records each global 429 (an aiohttp trace on discord.py's own session, so
nothing is parsed twice and no private attribute is read) and says whether the budget is tight:
the reconciler then leaves the DMs for later and catches them up one table at a time.

With a pacer (bot/ui/pacer.py), the bot keeps its own calls under the limit, so a 429 should
not come at all: the budget is then also tight while the pacer holds calls back, and a global
429 felt all the same (another process of the token, say) pauses the pacer for its wait too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

from bot.ui.pacer import Pacer

#: After the last global 429's ``retry_after``, how long the budget stays tight: a burst of DM
#: catch-ups right at the end of the wait would meet the next 429.
CALM_SECONDS = 5.0


class GlobalLimit:
    """When the bot token last met Discord's global limit, and until when it is tight."""

    def __init__(
        self,
        calm: float = CALM_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        *,
        pacer: Pacer | None = None,
    ) -> None:
        self.calm = calm
        self.clock = clock
        #: What keeps the bot token's calls under the limit (None: nothing, as discord.py).
        self.pacer = pacer
        #: The clock's time until which the budget is tight (0: never met).
        self.until = 0.0
        #: How many global 429s were felt (for logs and tests).
        self.hits = 0

    def trace(self) -> aiohttp.TraceConfig:
        """The trace to give discord.py's client (``http_trace``): it sees every answer."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._on_request_end)
        if self.pacer is not None:
            self.pacer.trace(config)
        return config

    async def _on_request_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        response = params.response
        if response.status != 429:
            return
        if response.headers.get("X-RateLimit-Global", "").lower() != "true":
            return  # one route's own bucket: the other routes are not held
        try:
            retry_after = float(response.headers.get("Retry-After", "1"))
        except ValueError:
            retry_after = 1.0
        self.felt(retry_after)

    def felt(self, retry_after: float) -> None:
        """A global 429 was answered, asking to wait ``retry_after`` seconds."""
        self.hits += 1
        self.until = max(self.until, self.clock() + retry_after + self.calm)
        if self.pacer is not None:
            self.pacer.pause(retry_after)

    def tight(self) -> bool:
        """Whether what can wait should: a global 429 was felt recently enough, or the pacer
        holds calls back (the budget is spent as it is)."""
        if self.pacer is not None and self.pacer.pressed():
            return True
        return self.clock() < self.until

    async def released(self) -> None:
        """Return once the last global 429's ``retry_after`` has passed (discord.py lets its
        requests go again then)."""
        while (left := self.until - self.calm - self.clock()) > 0:
            await asyncio.sleep(left)
