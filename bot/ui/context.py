"""What the Discord handlers need, handed to them at set-up (never the whole bot)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.autoplay import Autoplay
from bot.services.stats import StatsService
from bot.services.tables import Played, Table, TableService
from bot.storage import Store
from bot.ui.reconciler import Reconciler


@dataclass(frozen=True)
class UiContext:
    """The services behind the commands and buttons, and the reconciler that shows results."""

    tables: TableService
    store: Store
    stats: StatsService
    reconciler: Reconciler
    autoplay: Autoplay
    locale: str = "en"

    async def committed(self, change: Played | Table, actor_id: int | None) -> None:
        """After a commit: arm what comes next (so the message shows its deadlines), then bring
        the table's messages up to date."""
        human = actor_id is not None
        if isinstance(change, Played):
            await self.autoplay.after(change.table, human=human)
            await self.reconciler.publish(change.table, events=change.events, actor_id=actor_id)
        else:
            await self.autoplay.after(change, human=human)
            await self.reconciler.publish(change, actor_id=actor_id)


class HasUi:
    """The attribute start-up gives the bot, read by the cogs' ``setup``."""

    ui: UiContext
