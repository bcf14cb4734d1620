"""The bot token's pace (bot/ui/pacer.py), through the real discord.py client and the loopback
emulator: waiting calls go by priority, interaction calls are not paced, and a turn reminder
waits behind the tables' calls without being lost.

Why: Discord's global limit is the bot token's; a bot that meets it over and over is banned for
a while, so it paces its own calls under it. What players need to play goes first; what can
wait (hand DMs, reminders) waits, but is still sent.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import discord

from bot.app import RummyBot
from bot.ui.pacer import Pacer, later
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuChannel
from tests.discord_emulator.server import DiscordEmulator


def pacer_of(bot: RummyBot) -> Pacer:
    limit = bot.reconciler.limit
    assert limit is not None and limit.pacer is not None
    return limit.pacer


async def queued(pacer: Pacer) -> None:
    """Until calls wait in the pacer."""
    while not pacer.queued():
        await asyncio.sleep(0.01)


def gets(emu: DiscordEmulator, since: int, channel: EmuChannel) -> list[int]:
    """The order (indexes in the emulator's log) in which ``GET /channels/{channel}`` came."""
    path = f"/channels/{channel.id}"
    return [i for i, r in enumerate(emu.requests[since:]) if r.path == path]


async def test_waiting_calls_go_by_priority_play_before_later(tmp_path: Path) -> None:
    """Calls queued at once: every ``PLAY`` one goes before the ``LATER`` ones queued first."""
    async with emulated_discord() as emu:
        _, _, play = emu.two_players()
        assert play.guild_id is not None
        wait = emu.add_text_channel(emu.guilds[play.guild_id], "later")
        bot = make_bot(tmp_path / "rummy.db", requests_per_second=10)
        async with emu.running(bot):
            pacer = pacer_of(bot)
            await bot.http.get_channel(play.id)  # the pace is spent for a tenth of a second
            since = len(emu.requests)
            with later():  # tasks started here inherit the priority
                waiting = [asyncio.create_task(bot.http.get_channel(wait.id)) for _ in range(3)]
            playing = [asyncio.create_task(bot.http.get_channel(play.id)) for _ in range(3)]
            await asyncio.gather(*waiting, *playing)
            assert pacer.held >= 6 and pacer.held_later >= 3
        first_later = min(gets(emu, since, wait))
        assert all(i < first_later for i in gets(emu, since, play)), "PLAY first"
        assert len(gets(emu, since, wait)) == 3, "LATER calls go too"


async def test_interaction_calls_are_not_paced(tmp_path: Path) -> None:
    """While bot-token calls wait for a slow pace, a command is still answered: its callback
    goes with the interaction's own token, outside the bot token's limit."""
    async with emulated_discord() as emu:
        alice, _, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db", requests_per_second=1)
        async with emu.running(bot):
            pacer = pacer_of(bot)
            held = [asyncio.create_task(bot.http.get_channel(channel.id)) for _ in range(6)]
            await queued(pacer)
            handle = await emu.slash(alice, channel, "rummy hand")
            await handle.answer(timeout=30)
            assert pacer.queued() >= 1, "bot-token calls still wait at 1/s"
            assert not all(task.done() for task in held)
            assert bot.reconciler.limit is not None and bot.reconciler.limit.tight()
            for task in held:
                task.cancel()  # a call cancelled while it waits gives up its turn
            await asyncio.gather(*held, return_exceptions=True)
            assert pacer.queued() == 0


async def test_a_reminder_waits_behind_the_tables_and_is_sent(tmp_path: Path) -> None:
    """While the pace is spent, the deadline dispatcher's call to remind returns at once and
    the reminder goes after the calls waiting before it, never lost."""
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db", requests_per_second=5)
        async with emu.running(bot):
            await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1, 30)
            await (await emu.slash(bob, channel, "rummy join")).followups(1, 30)
            await (await emu.slash(alice, channel, "rummy start")).followups(1, 30)
            assert channel.guild_id is not None
            table = await bot.tables.in_channel(channel.guild_id, channel.id)
            assert table is not None
            while pacer_of(bot).pressed():  # the deal's calls are out
                await asyncio.sleep(0.1)
            dms = len(emu.dm_messages(alice))
            since = len(emu.requests)
            held = [asyncio.create_task(bot.http.get_channel(channel.id)) for _ in range(5)]
            await queued(pacer_of(bot))
            ends_at = discord.utils.utcnow() + timedelta(minutes=5)
            await bot.reconciler.remind(table, 0, ends_at)
            assert len(emu.dm_messages(alice)) == dms, "the reminder waits"
            await asyncio.gather(*held)
            while len(emu.dm_messages(alice)) == dms:
                await asyncio.sleep(0.1)
            assert "ends" in emu.dm_messages(alice)[-1].content
            posted = [i for i, r in enumerate(emu.requests[since:]) if r.method == "POST"]
            assert max(gets(emu, since, channel)) < min(posted), "after the waiting calls"
