"""The loopback emulator's threads, through a real discord.py client over HTTP: a thread opened
from a message has the message's id (a second try is refused 160004), an archived thread
refuses edits (400 / 50083) until it is unarchived or a message is sent in it, a deleted one
answers 404 / 10003, a channel may refuse threads (403 / 50013), and THREAD_CREATE reaches the
gateway."""

from __future__ import annotations

import discord
import pytest
from discord.http import handle_message_parameters

from tests.discord_emulator import emulated_discord


async def test_threads_open_archive_unarchive_and_go() -> None:
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        client = discord.Client(intents=discord.Intents.default())
        async with emu.running(client):
            http = client.http
            lobby = await http.send_message(channel.id, params=_text("lobby"))
            opened = await http.start_thread_with_message(
                channel.id, lobby["id"], name="Rummy · alice, bob", auto_archive_duration=1440
            )
            assert opened["id"] == lobby["id"] and opened["parent_id"] == str(channel.id)
            (thread,) = emu.threads(channel)
            assert thread.name == "Rummy · alice, bob"
            assert any(event == "THREAD_CREATE" for event, _ in emu.gateway_events)
            with pytest.raises(discord.HTTPException) as twice:
                await http.start_thread_with_message(
                    channel.id, lobby["id"], name="again", auto_archive_duration=1440
                )
            assert twice.value.code == 160004
            table = await http.send_message(thread.id, params=_text("table"))

            emu.archive_thread(thread)
            with pytest.raises(discord.HTTPException) as archived:
                await http.edit_message(thread.id, table["id"], params=_text("edited"))
            assert archived.value.status == 400 and archived.value.code == 50083
            unarchived = await http.edit_channel(thread.id, archived=False)
            assert unarchived["thread_metadata"]["archived"] is False
            await http.edit_message(thread.id, table["id"], params=_text("edited"))

            emu.archive_thread(thread)
            await http.send_message(thread.id, params=_text("a new message"))
            assert not thread.archived, "a message unarchives a thread, as on Discord"

            emu.delete_channel(thread)
            with pytest.raises(discord.NotFound) as gone:
                await http.edit_message(thread.id, table["id"], params=_text("late"))
            assert gone.value.code == 10003
            with pytest.raises(discord.NotFound):
                await http.get_channel(thread.id)

            emu.forbid_threads(channel)
            other = await http.send_message(channel.id, params=_text("another lobby"))
            with pytest.raises(discord.Forbidden) as refused:
                await http.start_thread_with_message(
                    channel.id, other["id"], name="no", auto_archive_duration=1440
                )
            assert refused.value.code == 50013
            assert alice.id not in {int(m.author_id) for m in emu.channel_messages(channel)}


def _text(content: str) -> discord.http.MultipartParameters:
    return handle_message_parameters(content=content).__enter__()
