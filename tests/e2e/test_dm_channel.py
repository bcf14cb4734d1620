"""A hand DM costs one bot-token call once the DM channel is known: the channel is opened once
per player (``POST /users/@me/channels``, never ``GET /users/{id}``), stored, and used as is
after a restart; a stored channel Discord no longer knows is forgotten and opened anew.

Counted through the loopback emulator with the real bot, as the load budget test does.
"""

from __future__ import annotations

from pathlib import Path

from bot.app import RummyBot
from bot.storage import make_store
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuChannel, EmuUser
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.test_load_budget import quiet


def user_calls(emu: DiscordEmulator, since: int) -> list[str]:
    """The user lookups and DM openings after the ``since``-th request."""
    return [
        f"{r.method} {'/users/@me/channels' if r.path.endswith('/channels') else '/users/{id}'}"
        for r in emu.requests[since:]
        if r.path.startswith("/users/") and r.path != "/users/@me"
    ]


async def start_table(
    emu: DiscordEmulator, bot: RummyBot, players: tuple[EmuUser, EmuUser], channel: EmuChannel
) -> int:
    """Open and start a 1v1 Rummy 51 table; the number of the first request it made."""
    since = len(emu.requests)
    async with emu.running(bot):
        alice, bob = players
        await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
        await (await emu.slash(bob, channel, "rummy join")).followups(1)
        await (await emu.slash(alice, channel, "rummy start")).followups(1)
        await quiet(emu)
    return since


async def test_the_dm_channel_is_opened_once_and_reused_after_a_restart(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        alice, bob, first = emu.two_players()
        second = emu.add_text_channel(emu.guilds[first.guild_id], "rummy-2")
        db = tmp_path / "rummy.db"

        since = await start_table(emu, make_bot(db), (alice, bob), first)
        assert sorted(user_calls(emu, since)) == ["POST /users/@me/channels"] * 2
        dealt = {user.id: len(emu.dm_messages(user)) for user in (alice, bob)}
        assert all(dealt.values()), "each player got their hand"

        since = await start_table(emu, make_bot(db), (alice, bob), second)
        assert user_calls(emu, since) == [], emu.requests[since:]
        for user in (alice, bob):
            assert len(emu.dm_messages(user)) == dealt[user.id] + 1, "the new hand came by DM"


async def test_a_stored_dm_channel_discord_forgot_is_opened_anew(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            await bot.store.set_dm_channel(alice.id, 4242)  # no such channel
        since = await start_table(emu, make_bot(tmp_path / "rummy.db"), (alice, bob), channel)
        assert sorted(user_calls(emu, since)) == ["POST /users/@me/channels"] * 2
        assert len(emu.dm_messages(alice)) == 1, "the hand reached alice all the same"
        prefs = await bot_prefs(tmp_path / "rummy.db", alice.id)
        assert prefs == emu.dm_channel(alice).id


async def bot_prefs(db: Path, user_id: int) -> int | None:
    """The DM channel the database holds for ``user_id``."""
    async with make_store(str(db)) as store:
        return (await store.get_player_prefs(user_id)).dm_channel_id
