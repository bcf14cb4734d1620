"""What happens at a table without anyone clicking: the next round after a pause, a computer
seat's turn. Turn timers will join them here.

Why a service of its own: the table service only answers requests, the Discord layer only shows
what is stored; the work that follows a commit by itself sits between them. It publishes
through a callback, so it never imports the Discord layer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.services.tables import Table, TableService
from bot.services.timers import TableTimers
from bot.storage.base import utc_now
from rummy_engine import Phase, RuleViolation

log = logging.getLogger(__name__)

Publish = Callable[[Table], Awaitable[None]]


class Autoplay:
    """Arms and runs the delayed work of every table."""

    def __init__(
        self,
        tables: TableService,
        publish: Publish,
        *,
        next_round_delay: float,
        computer_delay: float,
        timers: TableTimers | None = None,
    ) -> None:
        self.tables = tables
        self.publish = publish
        self.next_round_delay = next_round_delay
        self.computer_delay = computer_delay
        self.timers = timers or TableTimers()

    def next_round_at(self, table: Table) -> datetime | None:
        """When the automatic next round of a finished round is dealt (None if none is due)."""
        game = table.game
        if game is None or game.phase is not Phase.ROUND_OVER or table.record.status != "active":
            return None
        return table.record.updated_at + timedelta(seconds=self.next_round_delay)

    def after(self, table: Table) -> None:
        """Arm what the table needs next: the next round, or a computer's turn."""
        game, tid = table.game, table.id
        if game is None or table.record.status != "active":
            self.timers.cancel(("next-round", tid))
            return
        due = self.next_round_at(table)
        if due is not None:
            delay = (due - utc_now()).total_seconds()
            self.timers.schedule(("next-round", tid), delay, lambda: self.next_round(tid))
        elif table.is_computer(game.current) and game.phase in (Phase.DRAW, Phase.PLAY):
            self.timers.schedule(
                ("computer", tid), self.computer_delay, lambda: self.computer_turn(tid)
            )

    async def computer_turn(self, table_id: int) -> None:
        """A computer seat plays its whole turn, then the table is published once."""
        played = await self.tables.play_computer_turn(table_id)
        if played is not None:
            await self.publish(played.table)
            self.after(played.table)

    async def next_round(self, table_id: int) -> None:
        """The timer's next round; a host who already dealt it leaves nothing to do."""
        try:
            played = await self.tables.next_round(table_id, None)
        except RuleViolation:
            return
        await self.publish(played.table)
        self.after(played.table)

    async def close(self) -> None:
        await self.timers.close()
