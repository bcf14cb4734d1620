"""How far behind the event loop is, as the moves reaching their handlers late show it.

Why: a typed move is answered in one call when its answer is ready soon enough, and deferred
by a timer otherwise (:func:`bot.ui.interaction.defer_unless_answered`). When the loop is
behind, every step of the move waits behind the backlog, that timer too: under 300 saturating
tables half the moves were deferred by it 1.5 s after they came and the slowest came within
a quarter of a second of Discord's 3. A move that reaches its handler late (the interaction's
age: Discord's network and the loop's backlog) says the loop is behind, for the moves that
come soon after too: while it is, they are acknowledged before any of their work.

Measured from the moves themselves rather than by a ticker task: nothing wakes an idle bot
(and SimCord's simulated clock has no timer to run ahead to).
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: A move this late (seconds) at its handler says the loop is behind; behind for this long after.
BEHIND_AFTER = 0.2
REMEMBERED = 1.0


class LoopLag:
    """The event loop's lateness, as the last moves saw it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._late_at = -REMEMBERED
        #: The latest move's lateness and the worst seen (seconds; for logs and tests).
        self.last = 0.0
        self.worst = 0.0

    def saw(self, late: float) -> None:
        """A move reached its handler ``late`` seconds after Discord made it."""
        self.last = late
        self.worst = max(self.worst, late)
        if late >= BEHIND_AFTER:
            self._late_at = self.clock()

    def behind(self) -> bool:
        """Whether a move came :data:`BEHIND_AFTER` late within the last :data:`REMEMBERED`."""
        return self.clock() - self._late_at < REMEMBERED
