"""Logging for operators, without the players' secrets.

Why the caps: at DEBUG, discord.py's HTTP, gateway and webhook loggers print every payload (DMs
with hands, card menus, ephemeral panels) and aiosqlite prints every statement's parameters (game
snapshots: all hands and the stock order). Those loggers never go below INFO here, whatever the
configured level; the bot's own log lines name tables and seats, never cards.
"""

from __future__ import annotations

import logging

import discord

from bot.config import Settings

#: Loggers whose DEBUG lines carry message payloads or SQL parameters.
PAYLOAD_LOGGERS = (
    "discord.http",
    "discord.gateway",
    "discord.webhook",
    "discord.webhook.async_",
    "discord.client",
    "discord.state",
    "aiosqlite",
)


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level, with discord.py's formatter."""
    level = logging.getLevelName(settings.log_level)
    discord.utils.setup_logging(level=level, root=True)
    quiet_payload_loggers()


def quiet_payload_loggers() -> None:
    """Keep the payload loggers at INFO or above."""
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logging.INFO, logger.getEffectiveLevel()))
