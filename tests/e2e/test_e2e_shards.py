"""Two real ``rummy-bot`` processes, each running one shard of two, over one database, through
the loopback emulator (which routes each server's interactions to its shard's session, as
Discord does): each serves its own server; a SIGKILL of one loses nothing and the other keeps
playing; the restarted one picks its table up where it was; the leaderboard spans both."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bot.storage import Store, TableRecord, make_store
from rummy_engine import Game
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.launch import process_env
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator
from tests.helpers.invariants import ProcessWatch

SHARDS = 2


def start_shard(
    emu: DiscordEmulator, db: Path | str, home: Path, shard: int
) -> subprocess.Popen[bytes]:
    env = process_env(emu.http_base, emu.gateway_url, emu.token, db, home)
    env |= {"RUMMY_SHARD_COUNT": str(SHARDS), "RUMMY_SHARDS": str(shard)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.discord_emulator.launch", "run"],
        cwd=home,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def identified(emu: DiscordEmulator, shard: int) -> int:
    return sum(1 for d in emu.identify_payloads if d.get("shard") == [shard, SHARDS])


async def connected(emu: DiscordEmulator, shard: int, times: int = 1) -> None:
    await emu.wait_until(
        lambda: identified(emu, shard) >= times, what=f"IDENTIFY of shard {shard}", timeout=30
    )
    await asyncio.sleep(2.5)  # discord.py waits 2 s for guilds before it is ready


async def table_in(store: Store, channel: EmuChannel) -> TableRecord:
    [record] = [r for r in await store.list_active_tables() if r.channel_id == channel.id]
    return record


async def game_in(store: Store, channel: EmuChannel) -> Game:
    snapshot = (await table_in(store, channel)).snapshot_json
    assert snapshot is not None
    return Game.from_json(json.loads(snapshot))


async def seats_in(store: Store, channel: EmuChannel, users: list[EmuUser]) -> dict[int, EmuUser]:
    by_id = {u.id: u for u in users}
    seats = await store.get_seats((await table_in(store, channel)).id)
    return {s.seat: by_id[s.user_id] for s in seats if s.user_id is not None}


async def open_game(
    emu: DiscordEmulator, channel: EmuChannel, host: EmuUser, guest: EmuUser
) -> None:
    await (await emu.slash(host, channel, "rummy new", variant="r51")).followups(1)
    await (await emu.slash(guest, channel, "rummy join")).followups(1)
    await (await emu.slash(host, channel, "rummy start")).followups(1)


async def discard(
    emu: DiscordEmulator, store: Store, channel: EmuChannel, players: dict[int, EmuUser]
) -> None:
    """The player to act discards a single card (the dealer's first move needs no draw)."""
    game = await game_in(store, channel)
    before = (await table_in(store, channel)).version
    hand = Counter(c.text for c in game.hands[game.current])
    card = next(text for text, n in hand.items() if n == 1 and text != "JK")
    mover = players[game.current]
    await (await emu.slash(mover, channel, "rummy discard", card=card)).answer()
    assert (await table_in(store, channel)).version == before + 1, "committed before answered"


async def test_two_shard_processes_share_one_database(
    tmp_path: Path, store_url: Path | str
) -> None:
    db = store_url
    async with emulated_discord() as emu, make_store(db) as store:
        alice, bob, carol, dave = (emu.add_user(n) for n in ("alice", "bob", "carol", "dave"))
        first = emu.add_guild("First", members=[alice, bob], shard=(0, SHARDS))
        second = emu.add_guild("Second", members=[carol, dave], shard=(1, SHARDS))
        here, there = emu.add_text_channel(first, "rummy"), emu.add_text_channel(second, "rummy")
        bots = {0: start_shard(emu, db, tmp_path, 0)}
        try:
            await connected(emu, 0)
            await emu.wait_until(lambda: bool(emu.global_commands), what="commands pushed")
            bots[1] = start_shard(emu, db, tmp_path, 1)
            await connected(emu, 1)
            watch = await ProcessWatch.install(emu, db)  # every step: the stored tables
            assert len(emu.sync_calls) == 1, "only the process running shard 0 pushes commands"

            await open_game(emu, here, alice, bob)
            await open_game(emu, there, carol, dave)
            seats_here = await seats_in(store, here, [alice, bob])
            seats_there = await seats_in(store, there, [carol, dave])
            await discard(emu, store, there, seats_there)
            await discard(emu, store, here, seats_here)
            # Killed as soon as the move is acknowledged, maybe before Discord shows it.
            bots[0].send_signal(signal.SIGKILL)
            acknowledged = (await table_in(store, here)).version
            watch.behind.add((await table_in(store, here)).id)  # its process is dead
            next_here = await current(store, here, seats_here)
            await asyncio.get_running_loop().run_in_executor(None, bots[0].wait, 20)
            await emu.wait_until(lambda: identified_live(emu) == {1}, what="shard 0's socket gone")
            # Discord keeps it for shard 0's session, which never resumes: nobody answers it
            lost = await emu.slash(alice, here, "rummy hand")
            for _ in range(2):  # the other server plays on: a draw and a discard
                await (
                    await emu.slash(await current(store, there, seats_there), there, "rummy draw")
                ).answer()
                await discard(emu, store, there, seats_there)

            bots[0] = start_shard(emu, db, tmp_path, 0)
            await connected(emu, 0, times=2)
            assert (await table_in(store, here)).version == acknowledged, "nothing lost"
            turn = f"<@{next_here.id}> to play: draw a card."
            await emu.wait_until(
                lambda: any(turn in m.content for m in table_messages(emu, here)),
                what="the restarted process shows the move made before the kill",
                timeout=20,
            )
            watch.behind.clear()
            assert lost.response_type is None, "the restarted process identified anew"
            await (
                await emu.slash(await current(store, here, seats_here), here, "rummy draw")
            ).answer()
            await discard(emu, store, here, seats_here)

            for channel, seats in ((here, seats_here), (there, seats_there)):
                await (await emu.slash(seats[0], channel, "rummy leave")).followups(1)
            board = await emu.slash(carol, there, "rummy-stats leaderboard", scope="global")
            shown = (await board.followups(1))[0]
            text = shown.content + json.dumps([e for e in shown.embeds])
            assert all(name in text for name in ("alice", "bob", "carol", "dave")), text
            await watch.finish()
        finally:
            for bot in bots.values():
                if bot.poll() is None:
                    bot.terminate()
                    await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)


def table_messages(emu: DiscordEmulator, channel: EmuChannel) -> list[StoredMessage]:
    """The channel's public messages that still have buttons (the live table message)."""
    return [m for m in emu.channel_messages(channel) if not m.ephemeral and m.components]


def identified_live(emu: DiscordEmulator) -> set[int]:
    return {c.shard[0] for c in emu._connections if c.identified}


async def current(store: Store, channel: EmuChannel, seats: dict[int, EmuUser]) -> EmuUser:
    return seats[(await game_in(store, channel)).current]
