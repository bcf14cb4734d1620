"""The puzzle of the day's slash command: where and when a server's puzzles are posted."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play.ui.context import UiContext
from bot.features.puzzles.ui import answers as puzzles
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``puzzle``."""

    @leaf("puzzle")
    async def puzzle(
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        hour: app_commands.Range[int, 0, 23] | None = None,
        off: bool = False,
    ) -> None:
        assert ui.puzzles is not None, "start-up gives the context its puzzle service"
        await puzzles.puzzle_command(interaction, ui.puzzles, channel=channel, hour=hour, off=off)

    return [puzzle]
