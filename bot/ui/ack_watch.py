"""How late after Discord sent an interaction the bot acknowledged it, as the bot sees it.

Why: Discord forgets an interaction not acknowledged within 3 seconds, and the player sees
"This interaction failed". A bot whose event loop falls behind under load gets there without
any error of its own, so the operator is told (a warning, at most once a minute, with how many
were late), and the figures are logged at shutdown (the load benchmark reads them).

Measured on discord.py's own session (an aiohttp trace, like bot/ui/global_limit.py): the
acknowledgement is the POST to ``/interactions/{id}/{token}/callback``, and the interaction's
id is a snowflake that carries when Discord made it, so nothing is added to the handlers. The
age is read when the request starts, on this host's clock: a clock off by some seconds from
Discord's shifts every figure alike.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
import discord

log = logging.getLogger(__name__)

#: Discord's limit for the first answer, in seconds.
DISCORD_LIMIT = 3.0
#: An acknowledgement this late (seconds) is worth the operator's attention: little margin left.
WARN_AFTER = 2.0
#: At most one warning in this many seconds (with the count since the last one).
WARN_EVERY = 60.0
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class AckWatch:
    """Counts the acknowledgements, the slowest, and those past :data:`DISCORD_LIMIT`."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.count = 0
        self.late = 0
        self.slowest = 0.0
        self._warned_at = -WARN_EVERY
        self._slow_since_warning = 0

    def trace(self, config: aiohttp.TraceConfig) -> None:
        """Watch the callbacks sent through ``config``'s session (discord.py's)."""
        config.on_request_start.append(self._on_request_start)

    async def _on_request_start(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        match = CALLBACK.search(params.url.path)
        if match is not None:
            made = discord.utils.snowflake_time(int(match.group(1))).timestamp()
            self.saw(self.clock() - made)

    def saw(self, age: float) -> None:
        """One acknowledgement, ``age`` seconds after Discord made its interaction."""
        self.count += 1
        self.slowest = max(self.slowest, age)
        self.late += age > DISCORD_LIMIT
        if age <= WARN_AFTER:
            return
        self._slow_since_warning += 1
        now = self.clock()
        if now - self._warned_at >= WARN_EVERY:
            log.warning(
                "An interaction was acknowledged %.1f s after Discord sent it (%d over %.0f s "
                "since the last warning; Discord allows %.0f s): the bot is overloaded",
                age,
                self._slow_since_warning,
                WARN_AFTER,
                DISCORD_LIMIT,
            )
            self._warned_at, self._slow_since_warning = now, 0

    def log_summary(self) -> None:
        """One line for the log at shutdown (the load benchmark reads it)."""
        log.info(
            "acknowledged %d interaction(s): the slowest %.2f s after Discord sent it, %d after %.0f s",
            self.count,
            self.slowest,
            self.late,
            DISCORD_LIMIT,
        )
