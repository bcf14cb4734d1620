"""A real ``rummy-bot`` process with a 1-minute turn timer, through the loopback emulator: the
player whose turn it is gets one private reminder, the process is killed (SIGKILL) before the
deadline and started again after it, and the deadline that passed while it was down plays the
turn exactly once at start. This is the one test that waits for real (about 70 seconds)."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from pathlib import Path

from tests.discord_emulator import emulated_discord
from tests.e2e.test_e2e_crash import connected, live, notices, start_bot, stored_game
from tests.helpers.invariants import ProcessWatch

TIMER_SECONDS = 60


def timed_out_moves(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT events FROM moves WHERE actor_id IS NULL").fetchall()
    return sum(any(e["kind"] == "turn_timed_out" for e in json.loads(r[0])) for r in rows)


async def test_a_real_process_reminds_then_plays_a_turn_that_timed_out_while_it_was_down(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = start_bot(emu, db)
        try:
            await connected(emu, 1)
            watch = await ProcessWatch.install(emu, db)  # every step: the stored table
            new = await emu.slash(alice, channel, "rummy new", variant="r51", turn_timer="1")
            await new.followups(1)
            await (await emu.slash(bob, channel, "rummy join")).followups(1)
            await (await emu.slash(alice, channel, "rummy start")).followups(1)
            started = time.monotonic()
            await emu.wait_until(
                lambda: len(notices(emu)) == 1, what="the first deal published", timeout=20
            )
            _, game = stored_game(db)
            turn = game.turn
            player = {0: alice, 1: bob}[game.current]
            (table,) = live(emu)
            assert "⏳ The turn ends <t:" in table.content

            def reminders() -> list[str]:
                return [m.content for m in emu.dm_messages(player) if m.content.startswith("⏳")]

            await emu.wait_until(
                lambda: len(reminders()) == 1, what="the private reminder", timeout=60
            )
            assert time.monotonic() - started >= TIMER_SECONDS * 0.75 - 2
            assert not any(m.content.startswith("⏳ Your turn") for m in emu.public_messages())
            bot.send_signal(signal.SIGKILL)
            await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)
            assert timed_out_moves(db) == 0

            await asyncio.sleep(max(0.0, started + TIMER_SECONDS + 2 - time.monotonic()))
            bot = start_bot(emu, db)
            await connected(emu, 2)
            await emu.wait_until(
                lambda: any("time ran out" in m.content for m in live(emu)),
                what="the turn played for the absent player",
                timeout=20,
            )
            await asyncio.sleep(2)
            assert timed_out_moves(db) == 1, "fired once, at start"
            assert stored_game(db)[1].turn != turn
            assert len(reminders()) == 1, "one reminder in all"
            await watch.finish()
        finally:
            if bot.poll() is None:
                bot.terminate()
                await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)
