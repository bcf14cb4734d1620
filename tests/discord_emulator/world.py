"""What Discord holds, saved as JSON and laid back into a new emulator: users, servers, channels
and threads, direct-message channels, the synced commands and the messages players can see.

Why: a database kept from a past release (``tests/storage/releases``) names Discord's ids (its
servers, channels, players, and the messages it owns: table messages, turn notices, hand DMs).
A bot started on it must find those messages where it left them, to edit them rather than post
them again, and the commands it synced then (it pushes them again only when they changed). So
the world is saved with the database and restored, ids and all, before the bot connects.

What is left out is what no longer exists once the old bot stopped: deleted messages, private
answers (ephemeral: tied to interactions whose tokens are dead), the interactions themselves,
and the bytes of pictures (their names and descriptions stay: they are what the bot and the
tests read; a picture is uploaded again when the bot edits its message).
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from .models import EmuChannel, EmuGuild, EmuUser, StoredAttachment, StoredMessage
from .server import DiscordEmulator

#: StoredMessage fields that describe this emulator's run rather than the message.
_RUN_ONLY = frozenset({"attachments", "shown", "pinged", "edited"})


def _message(message: StoredMessage) -> dict[str, Any]:
    saved = {f.name: getattr(message, f.name) for f in fields(message) if f.name not in _RUN_ONLY}
    saved["attachments"] = [
        {key: value for key, value in asdict(a).items() if key != "data"}
        for a in message.attachments
    ]
    return saved


def save_world(emu: DiscordEmulator) -> dict[str, Any]:
    """Everything :func:`restore_world` needs, as JSON-ready data."""
    return {
        "bot_user": asdict(emu.bot_user),
        "users": [asdict(u) for u in emu.users.values() if u.id != emu.bot_user.id],
        "guilds": [asdict(g) for g in emu.guilds.values()],
        "channels": [asdict(c) for c in emu.channels.values()],
        "dm_channels": {str(user): channel for user, channel in emu.dm_channels.items()},
        "global_commands": emu.global_commands,
        "guild_commands": {str(g): cmds for g, cmds in emu.guild_commands.items()},
        "messages": {
            str(channel): [_message(m) for m in messages if not m.deleted and not m.ephemeral]
            for channel, messages in emu.messages.items()
        },
    }


def _restored_message(saved: dict[str, Any]) -> StoredMessage:
    attachments = [StoredAttachment(data=b"", **a) for a in saved["attachments"]]
    message = StoredMessage(**{**saved, "attachments": attachments})
    message.shown.append((0.0, message.content))
    return message


def restore_world(emu: DiscordEmulator, world: dict[str, Any]) -> None:
    """Lay ``world`` (from :func:`save_world`) into ``emu``, a started emulator whose world is
    still empty: the bot user (whose id is the application's), then everything it knew."""
    emu.users.clear()
    emu.bot_user = EmuUser(**world["bot_user"])
    emu.application_id = emu.bot_user.id
    emu.users[emu.bot_user.id] = emu.bot_user
    emu.users.update({u["id"]: EmuUser(**u) for u in world["users"]})
    emu.guilds.update({g["id"]: EmuGuild(**g) for g in world["guilds"]})
    emu.channels.update({c["id"]: EmuChannel(**c) for c in world["channels"]})
    emu.dm_channels.update({int(u): c for u, c in world["dm_channels"].items()})
    emu.global_commands = list(world["global_commands"])
    emu.guild_commands.update({int(g): list(c) for g, c in world["guild_commands"].items()})
    emu.messages.update(
        {
            int(channel): [_restored_message(m) for m in saved]
            for channel, saved in world["messages"].items()
        }
    )
