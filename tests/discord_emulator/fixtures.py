"""pytest glue for the emulator.

Two entry points, because world-building (users, guilds, channels) must happen
*before* the bot connects (GUILD_CREATE is sent once, at IDENTIFY):

* ``emulated_discord()`` -- async context manager yielding a started
  :class:`DiscordEmulator`; use ``async with emu.running(bot):`` inside it.
* ``discord_emulator`` -- the same as a function-scoped pytest fixture. Make it
  visible with ``from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401``
  in a conftest.py (or a test module).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from tests.helpers.invariants import emulator_watch

from .server import DiscordEmulator


@contextlib.asynccontextmanager
async def emulated_discord(**options: Any) -> AsyncIterator[DiscordEmulator]:
    """Start an emulator (patching discord.py's endpoints) and always restore them afterwards."""
    emulator = DiscordEmulator(**options)
    emulator.watcher = emulator_watch  # every step: what players see is the stored table
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.close()


@pytest_asyncio.fixture
async def discord_emulator() -> AsyncIterator[DiscordEmulator]:
    """A started emulator on a random loopback port; build the world, then ``emu.running(bot)``."""
    async with emulated_discord() as emulator:
        yield emulator
