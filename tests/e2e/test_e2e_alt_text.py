"""Alt text over real HTTP: discord.py sends each picture's description in the multipart
request's ``attachments`` (SimCord never serialises it), the loopback emulator keeps it, and
every table, hand and round-end picture of a short Basic game arrives described."""

from __future__ import annotations

import random
from pathlib import Path

from bot.services.alt_text import ALT_LIMIT
from rummy_engine import Phase
from rummy_engine.strategy import choose_action
from tests.discord.conftest import command_for, make_bot
from tests.discord_emulator import emulated_discord
from tests.helpers import alt_checks


async def test_every_picture_arrives_with_its_description(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            opened = await emu.slash(
                alice, channel, "rummy new", variant="basic", mode="basic", basic_rounds="1"
            )
            await opened.followups(1)
            await (await emu.slash(bob, channel, "rummy join")).followups(1)
            await (await emu.slash(alice, channel, "rummy start")).followups(1)
            table = await bot.tables.in_channel(channel.guild_id, channel.id)
            assert table is not None
            users = {alice.id: alice, bob.id: bob}
            rng = random.Random(3)
            told_melds = 0
            for _ in range(400):
                table = await bot.tables.load(table.id)
                game = table.require_game()
                if game.phase is Phase.GAME_OVER:
                    break
                name, options = command_for(choose_action(game, rng))
                handle = await emu.slash(users[table.user_at(game.current)], channel, name, **options)
                await handle.answer()
                told_melds += len(game.table)
            await emu.wait_until(
                lambda: any("Game over" in m.content for m in emu.public_messages()),
                what="the game-over post",
            )
        assert told_melds, "melds were on the table during the game"
        messages = emu.public_messages() + emu.dm_messages(alice) + emu.dm_messages(bob)
        attachments = [a for m in messages for a in m.attachments]
        kinds = {a.filename.split("-")[0] for a in attachments}
        assert {"table", "hand", "round"} <= kinds, kinds
        assert all(a.description and len(a.description) <= ALT_LIMIT for a in attachments)
        (summary,) = [a for a in attachments if a.filename.startswith("round-")]
        left = [c.pretty for hand in game.results[-1].hands for c in hand]
        assert sorted(alt_checks.cards(summary.description or "").elements()) == sorted(left)
