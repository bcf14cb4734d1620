"""When the database goes away: one exception for every driver, and one log line per episode.

Why: a disk that fills, a filesystem the kernel remounts read-only, a PostgreSQL server that
restarts or drops a connection are weather, not bugs. Each move tried meanwhile is refused in one
sentence (nothing is acknowledged that is not stored) and logged by nobody: :class:`Health`
says once that the database went away and once that it came back, with how many calls it
refused in between, and tells the bot when it is back so that what waited (tables to show,
deadlines to arm, results to record) is done without a restart.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from bot.storage.base import StorageError

log = logging.getLogger(__name__)


class Outage(enum.Enum):
    """Why the database cannot serve a call (the log says it; the player's sentence is one)."""

    DISK_FULL = "the disk is full"
    READ_ONLY = "its file cannot be written (a read-only or failing filesystem)"
    BUSY = "another process holds its write lock"
    UNREACHABLE = "the server cannot be reached"


class DatabaseUnavailable(StorageError):
    """The database could not serve a call, for a reason outside the bot (``outage``).

    ``maybe_done``: the connection was lost while a commit was on its way, so the change may
    have been stored (PostgreSQL only); otherwise nothing of the call was stored."""

    def __init__(self, outage: Outage, *, maybe_done: bool = False) -> None:
        super().__init__(f"the database is unavailable: {outage.value}")
        self.outage = outage
        self.maybe_done = maybe_done


Recovered = Callable[[], Coroutine[Any, Any, None]]


class Health:
    """The store's state across calls: up, or down since a moment for a reason.

    :meth:`worked` is called after every successful call, so it must cost nothing while up."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.down_since: float | None = None
        self.outage: Outage | None = None
        self.refused = 0
        #: Called (as a task of the caller's loop) each time the database comes back.
        self.on_recovery: Recovered | None = None

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, outage: Outage, error: BaseException) -> None:
        """A call failed for ``outage``: the first of an episode is logged, the others counted."""
        self.refused += 1
        if self.down_since is not None:
            return
        self.down_since, self.outage = self._clock(), outage
        log.error(
            "The database is unavailable (%s: %s); moves are refused until it is back",
            outage.value,
            error,
        )

    def worked(self, *, write: bool) -> bool:
        """A call succeeded; True when that ends an episode (logged, and :attr:`on_recovery`
        is due). A read ends only an unreachable database's episode: a full disk or a
        read-only file still serves reads."""
        if self.down_since is None or not (write or self.outage is Outage.UNREACHABLE):
            return False
        took, refused = self._clock() - self.down_since, self.refused
        self.down_since, self.outage, self.refused = None, None, 0
        log.warning(
            "The database is back after %.0f s; %d call(s) were refused meanwhile", took, refused
        )
        return True
