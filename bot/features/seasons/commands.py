"""Seasons' slash command: this server's season, and its length for a server manager."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play.ui.context import UiContext
from bot.features.seasons.ui import answers as seasons
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``season``."""

    @leaf("season")
    @app_commands.choices(length=seasons.LENGTH_CHOICES)
    async def season(
        interaction: discord.Interaction,
        length: app_commands.Choice[str] | None = None,
        restart: bool = False,
    ) -> None:
        await seasons.season_command(
            interaction, ui.seasons, length=length.value if length else None, restart=restart
        )

    return [season]
