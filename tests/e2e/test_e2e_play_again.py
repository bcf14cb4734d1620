"""Play again over real HTTP and WebSocket through the loopback emulator: a game ends, the bot
restarts, a stranger's press on the final table is refused, a player's press posts the next
lobby once, and the other player sits down only by pressing Join there."""

from __future__ import annotations

from pathlib import Path

from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord

STRANGER = (
    "Only the players of this game can open the next one; to play, open your own table with "
    "/rummy new."
)


async def test_play_again_after_a_restart_seats_the_others_only_when_they_join(
    tmp_path: Path,
) -> None:
    async with emulated_discord() as emu:
        alice, bob, carol = (emu.add_user(n) for n in ("alice", "bob", "carol"))
        guild = emu.add_guild("Rummy Club", members=[alice, bob, carol])
        channel = emu.add_text_channel(guild, "rummy")
        db = tmp_path / "rummy.db"
        async with emu.running(make_bot(db)) as bot:
            await (await emu.slash(alice, channel, "rummy new", variant="r51")).answer()
            old = await bot.tables.in_channel(guild.id, channel.id)  # type: ignore[attr-defined]
            await emu.wait_until(lambda: bool(emu.public_messages()), what="lobby")
            (table,) = emu.public_messages()
            await (await emu.click(bob, table, f"rummy:{old.id}:0:join")).answer()
            await (await emu.click(alice, table, f"rummy:{old.id}:0:start")).answer()
            await (await emu.slash(bob, channel, "rummy leave")).answer()
            again = f"rummy:{old.id}:0:again"
            await emu.wait_until(lambda: again in table.custom_ids(), what="Play again")
        async with emu.running(make_bot(db)) as bot:
            refused = await (await emu.click(carol, table, again)).answer()
            assert refused.ephemeral and refused.content == STRANGER
            pressed = await (await emu.click(alice, table, again)).answer()
            assert pressed.ephemeral and "new lobby" in pressed.content
            new = await bot.tables.in_channel(guild.id, channel.id)  # type: ignore[attr-defined]
            assert new.id != old.id and [s.user_id for s in new.seats] == [alice.id]
            join = f"rummy:{new.id}:0:join"
            await emu.wait_until(
                lambda: any(join in m.custom_ids() for m in emu.public_messages()), what="lobby"
            )
            lobby = next(m for m in emu.public_messages() if join in m.custom_ids())
            assert f"<@{bob.id}>: your seat is kept until <t:" in lobby.content
            twice = await (await emu.click(bob, table, again)).answer()
            assert f"/{channel.id}/{lobby.id}" in twice.content
            assert await (await emu.click(bob, lobby, join)).answer()
            seated = await bot.tables.load(new.id)  # type: ignore[attr-defined]
            assert [s.user_id for s in seated.seats] == [alice.id, bob.id]
            assert len([m for m in emu.public_messages() if m.custom_ids()]) == 2
