"""A channel the bot posts in unasked (a season's standings, the daily puzzle), found by id."""

from __future__ import annotations

import discord


async def messageable(client: discord.Client, channel_id: int) -> discord.abc.Messageable | None:
    """The channel from the cache, else from Discord (one bot-token call, after a restart
    before the gateway filled the cache); None when it is gone or not one to post in."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None
