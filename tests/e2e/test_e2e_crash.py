"""A real ``rummy-bot`` process, killed with SIGKILL at each Discord call that follows a
committed discard, heals at restart on the same database: over real HTTP and WebSocket through
the loopback emulator. "before": killed as the call arrives (Discord never applied it);
"after": killed once Discord applied it, before the bot heard back (a new message then must
not be posted twice). The calls made with the discard's interaction token count too: the
mover's reply (the interaction's response itself), the old table message and turn notice
deleted and the new ones posted as follow-ups (which carry no nonce: a first pass after the
restart finds one posted and not recorded)."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummy_engine import Game
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.launch import process_env
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator
from tests.helpers.invariants import ProcessWatch

REPO_ROOT = Path(__file__).resolve().parents[2]
#: The mover's reply, the new table message posted at the bottom (the discard's follow-up,
#: with no nonce), the old one deleted (the opening command's follow-up), the old notice
#: deleted (the start's follow-up), the new notice posted (the discard's), the mover's hand
#: DM edited.
CALLS_AFTER_A_DISCARD = 6


def start_bot(emu: DiscordEmulator, db: Path) -> subprocess.Popen[bytes]:
    env = process_env(emu.http_base, emu.gateway_url, emu.token, db)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.discord_emulator.launch", "run"],
        cwd=db.parent,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


async def connected(emu: DiscordEmulator, count: int) -> None:
    await emu.wait_until(lambda: len(emu.identify_payloads) >= count, what="IDENTIFY", timeout=30)
    await asyncio.sleep(2.5)  # discord.py waits 2 s for guilds before it is ready


def stored_game(db: Path) -> tuple[int, Game]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        table_id, snapshot = conn.execute("SELECT id, snapshot FROM tables").fetchone()
    return table_id, Game.from_json(json.loads(snapshot))


def live(emu: DiscordEmulator) -> list[StoredMessage]:
    return [
        m
        for m in emu.public_messages()
        if any(
            not c.get("disabled") for row in m.components for c in row.get("components", [])
        )
    ]


def notices(emu: DiscordEmulator) -> list[StoredMessage]:
    return [m for m in emu.public_messages() if m.content.startswith("🔔")]


async def deal_a_table(
    emu: DiscordEmulator, alice: EmuUser, bob: EmuUser, channel: EmuChannel
) -> None:
    """Alice opens a Rummy 51 table, Bob joins, Alice starts; until the first deal is published
    (the turn notice, and both hands in their DMs)."""
    await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
    await (await emu.slash(bob, channel, "rummy join")).followups(1)
    await (await emu.slash(alice, channel, "rummy start")).followups(1)
    await emu.wait_until(
        lambda: len(notices(emu)) == 1 and all(emu.dm_messages(u) for u in (alice, bob)),
        what="the first deal published",
    )


@pytest.mark.parametrize(
    ("when", "step"),
    # Not before the reply: the test waits for it (a kill there is a kill before the commit's
    # answer, which tests/storage/test_durability.py covers).
    [("before", n) for n in range(2, CALLS_AFTER_A_DISCARD + 1)]
    + [("after", n) for n in range(1, CALLS_AFTER_A_DISCARD + 1)],
)
async def test_a_killed_process_heals_at_restart(tmp_path: Path, when: str, step: int) -> None:
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = start_bot(emu, db)
        try:
            await connected(emu, 1)
            watch = await ProcessWatch.install(emu, db)  # every step: the stored table
            await deal_a_table(emu, alice, bob, channel)
            _, game = stored_game(db)
            users = {0: alice, 1: bob}
            mover, other = users[game.current], users[1 - game.current]
            hand = Counter(c.text for c in game.hands[game.current])
            card = next(text for text, n in hand.items() if n == 1 and text != "JK")

            calls: list[str] = []

            def kill(phase: str, method: str, path: str) -> None:
                if phase == "before":
                    calls.append(f"{method} {path}")
                if phase == when and len(calls) == step and bot.poll() is None:
                    bot.send_signal(signal.SIGKILL)

            emu.request_hook = kill
            emu.hook_webhooks = True
            await (await emu.slash(mover, channel, "rummy discard", card=card)).answer()
            await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)
            assert bot.returncode == -signal.SIGKILL, f"killed at {when} {step}: {calls}"
            emu.request_hook = None
            emu.hook_webhooks = False
            turn = f"<@{other.id}> to play: draw a card."
            seen = [m for m in live(emu) if turn in m.content]
            restarted_at = len(emu.requests)

            bot = start_bot(emu, db)
            await connected(emu, 2)
            await emu.wait_until(
                lambda: any(turn in m.content for m in live(emu)), what="the healed table", timeout=20
            )
            await emu.wait_until(lambda: len(notices(emu)) == 1 and str(other.id) in notices(emu)[0].content, what="one notice for the next player", timeout=20)
            await watch.finish()
        finally:
            if bot.poll() is None:
                bot.terminate()
                await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)
        (table_message,) = live(emu)
        assert turn in table_message.content
        if seen:  # the table players were looking at stays: adopted, not posted again
            assert table_message.id == seen[0].id, (when, step)
        # what the killed process had deleted already is not deleted again (a 404 each)
        gone = [f"{r.method} {r.path}" for r in emu.requests[restarted_at:] if r.status == 404]
        assert not gone, (when, step, gone)
        dm = [m for m in emu.dm_messages(mover) if m.content.startswith("**Your hand**")][-1]
        assert "10 cards" in dm.content or "14 cards" in dm.content
        assert f" {card} " not in dm.content.replace("`", " ")
