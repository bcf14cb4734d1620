"""Answering an interaction: at once, privately, within Discord's limits, never left thinking.

Discord wants a first answer within 3 seconds; every handler defers before any database or
rendering work, then sends one private answer. These helpers work whatever was already sent.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.text import normalise
from bot.text.safe import fit

#: Private answers never ping anyone: a player is not notified about their own action.
NO_PINGS = discord.AllowedMentions.none()


def locale_of(interaction: discord.Interaction) -> str:
    """The player's language for private answers: their Discord client's, if we speak it."""
    return normalise(interaction.locale.value)


async def defer_private(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking…" that the answer replaces."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a click on a private panel that will be edited in place."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def reply(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    """A private answer (content within Discord's limit), deferred or not."""
    content = fit(content)
    if interaction.response.is_done():
        await interaction.followup.send(
            content, ephemeral=True, allowed_mentions=NO_PINGS, **fields
        )
    else:
        await interaction.response.send_message(
            content, ephemeral=True, allowed_mentions=NO_PINGS, **fields
        )


async def edit_panel(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    """Replace the private panel the click came from."""
    await interaction.edit_original_response(
        content=fit(content), allowed_mentions=NO_PINGS, **fields
    )


def can_manage_server(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)
