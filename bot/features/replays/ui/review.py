"""The round summary's **Review my round** button and its private answer.

The button's custom_id names the table and the round (``rummy:<table>:0:review:<round>``), so
it answers from the stored move log whenever it is pressed, also after a restart. The answer
goes to the presser only; a press by someone who did not play is refused in one sentence.
"""

from __future__ import annotations

import discord

from bot.features.play.actions import Action
from bot.features.play.tables import Table, TableService
from bot.features.play.ui.widgets import TableButton
from bot.features.replays.review import review_text_for
from bot.storage.base import MoveLog
from bot.text import t
from bot.ui.interaction import defer_private, locale_of, reply


def review_button(table: Table, round_no: int, locale: str) -> TableButton | None:
    """The button under round ``round_no``'s summary; none at a table of computers only."""
    if not any(not seat.is_computer for seat in table.seats):
        return None
    label = t("review.button", locale)
    return TableButton(table.id, 0, Action.REVIEW, label, arg=str(round_no))


class ReviewHandlers:
    """Answers a press on a round summary's review button. Given the services, not the
    UiContext: the round summary's draft imports this module, and the context imports the
    reconciler that drafts it."""

    def __init__(self, tables: TableService, store: MoveLog) -> None:
        self.tables, self.store = tables, store

    async def review(self, interaction: discord.Interaction, table_id: int, round_no: int) -> None:
        await defer_private(interaction)
        table = await self.tables.load(table_id)
        locale = locale_of(interaction)
        text = await review_text_for(
            self.store, table, interaction.user.id, round_no, locale
        )
        await reply(interaction, text)
