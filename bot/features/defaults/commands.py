"""Server defaults' slash command: the private panel of a server's (or channel's) defaults."""

from __future__ import annotations

import discord

from bot.features.defaults.ui.panel import DefaultsHandlers
from bot.features.play.ui.context import UiContext
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``server``."""
    defaults = DefaultsHandlers(ui)

    @leaf("server")
    async def server(interaction: discord.Interaction) -> None:
        await defaults.open_panel(interaction)

    return [server]
