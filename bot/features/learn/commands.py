"""The lessons' slash command: the private course, where the player left off."""

from __future__ import annotations

import discord

from bot.features.learn.ui.lessons import lesson_handlers
from bot.features.play.ui.context import UiContext
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``lessons``."""
    lessons = lesson_handlers(ui)

    @leaf("lessons")
    async def lessons_command(interaction: discord.Interaction) -> None:
        await lessons.command(interaction)

    return [lessons_command]
