"""Discord REST + gateway emulator on 127.0.0.1 for end-to-end tests of the real discord.py client.

Why: SimCord fakes discord.py's seams in-process; this emulator keeps discord.py's
HTTP client, multipart encoder, webhook adapter and gateway (zlib-stream) in the loop.

API summary (see ``tests/tools/test_emulator_smoke.py`` for every call in use)::

    from tests.discord_emulator import emulated_discord

    async with emulated_discord() as emu:                 # random port; patches Route.BASE
        alice = emu.add_user("alice")                     # + DEFAULT_GATEWAY, restored on exit
        guild = emu.add_guild("Rummy", members=[alice])   # build the world BEFORE running()
        table = emu.add_text_channel(guild, "table")
        async with emu.running(bot):                      # login + connect + READY; clean close
            h = await emu.slash(alice, table, "rummy new", variant="51")
            msg = await h.response()                      # StoredMessage | None
            ups = await h.followups(count=1)
            await emu.click(alice, msg, "rummy:join:1")   # / emu.select(user, msg, cid, [...])
            emu.forbid_dms(alice)                         # next DM -> 403 / code 50007
            emu.threads(table); emu.archive_thread(t)     # edits -> 400 / 50083 until unarchived
            emu.delete_channel(t); emu.forbid_threads(table)  # -> 404 / 10003; 403 / 50013
            emu.add_thread(table, "x"); emu.fail_requests("PATCH", "/channels/*", times=1)
            emu.dm_messages(alice)[0].attachments[0].is_png
            emu.public_messages(); emu.sync_calls; emu.requests; emu.unknown_routes
            msg.pinged             # who the message notified when posted (allowed_mentions)
            emu.keep_payloads = True  # each call's JSON payload on emu.requests[i].json
            emu.refused_commands   # command writes refused with 50035 (see command_limits)
            emu.global_limit = 50  # Discord's global bot-token bucket per second (None: off)
        world = save_world(emu)  # world.py: ids, channels, messages, commands, as JSON;
        restore_world(emu2, world)  # laid into a new emulator before running()

Teardown of ``running()`` fails the test on emulator crashes, ERRORs logged by
discord.py (e.g. a command raised) and, with ``strict=True``, unimplemented routes.
"""

from .fixtures import discord_emulator, emulated_discord
from .models import (
    EmuChannel,
    EmuGuild,
    EmuUser,
    InteractionRecord,
    StoredAttachment,
    StoredMessage,
)
from .server import DiscordEmulator, InteractionHandle, RequestRecord

__all__ = [
    "DiscordEmulator",
    "EmuChannel",
    "EmuGuild",
    "EmuUser",
    "InteractionHandle",
    "InteractionRecord",
    "RequestRecord",
    "StoredAttachment",
    "StoredMessage",
    "discord_emulator",
    "emulated_discord",
]
