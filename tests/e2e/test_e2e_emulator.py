"""End to end over real HTTP and WebSocket: the real RummyBot logs in to the loopback Discord
emulator, syncs its commands, and two players play a short Basic rummy game to the end with
slash commands; hands arrive as PNG direct messages."""

from __future__ import annotations

import random

from rummy_engine import Phase
from rummy_engine.strategy import choose_action
from tests.discord.conftest import CARD_TOKEN, command_for, make_bot
from tests.discord_emulator import emulated_discord


async def test_short_game_over_http_and_websocket(tmp_path) -> None:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            assert any(c["name"] == "rummy" for c in emu.synced_commands())
            opened = await emu.slash(alice, channel, "rummy new", variant="basic", mode="basic", basic_rounds="1")
            (welcome,) = await opened.followups(1)
            assert opened.response_type == 5 and welcome.flags & 64, "deferred first, then a private answer"
            await (await emu.slash(bob, channel, "rummy join")).followups(1)
            await (await emu.slash(alice, channel, "rummy start")).followups(1)
            table = await bot.tables.in_channel(channel.guild_id, channel.id)
            assert table is not None
            users = {alice.id: alice, bob.id: bob}
            rng = random.Random(3)
            for _ in range(400):
                table = await bot.tables.load(table.id)
                game = table.require_game()
                if game.phase is Phase.GAME_OVER:
                    break
                action = choose_action(game, rng)
                name, options = command_for(action)
                handle = await emu.slash(users[table.user_at(action.seat)], channel, name, **options)
                answer = await handle.answer()
                assert answer.flags & 64, "answers to a move are private"
            assert table.record.status == "finished"
            await emu.wait_until(lambda: any("Game over" in m.content for m in emu.public_messages()), what="the game-over post")
        for user in (alice, bob):
            dms = emu.dm_messages(user)
            assert dms and dms[0].attachments[0].data.startswith(b"\x89PNG")
        result = game.results[-1]
        summary = next(m for m in emu.public_messages() if f"round {result.round_no}" in m.content and "+" in m.content)
        left = [c.pretty for seat, hand in enumerate(result.hands) if seat != result.winner for c in hand]
        assert left and all(card in CARD_TOKEN.findall(summary.content) for card in left)
        assert summary.attachments[0].data.startswith(b"\x89PNG")
        for message in emu.public_messages():
            assert not any(a.filename.startswith("hand-") for a in message.attachments)
            assert "Your hand" not in message.content
