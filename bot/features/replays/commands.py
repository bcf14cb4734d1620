"""Replays' slash command: a finished round played back, only for the one who asks."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play.ui.context import UiContext
from bot.features.replays.ui.replay import ReplayHandlers
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``replay``."""
    replays = ReplayHandlers(ui)

    @leaf("replay")
    async def replay(
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1] | None = None,
        round: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        await replays.command(interaction, table, round)

    return [replay]
