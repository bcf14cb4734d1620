"""Replay over real HTTP and WebSocket through the loopback emulator, drawn in a real drawing
process: two computers play while the host watches; the first round's summary carries Replay,
and a press answers privately with an animated GIF and its alt text."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

from bot.app import BOT_CLOCK, RummyBot
from bot.config import Settings
from bot.storage import make_store
from tests.discord_emulator import emulated_discord


def drawing_bot(db: Path) -> RummyBot:
    """The bot of the SimCord tests, but drawing in one worker process as deployed."""
    settings = Settings(
        database=db,
        next_round_delay_seconds=30,
        computer_delay_seconds=0,
        turn_timer_minutes=0,
        drawing_processes=1,
    )
    bot = RummyBot(settings, make_store(settings.database_target, clock=BOT_CLOCK))
    bot.tables._seed_source = lambda: 7
    return bot


async def test_a_round_summary_replay_answers_with_a_gif_drawn_in_a_process(
    tmp_path: Path,
) -> None:
    async with emulated_discord() as emu:
        alice, carol = emu.add_user("alice"), emu.add_user("carol")
        guild = emu.add_guild("Rummy Club", members=[alice, carol])
        channel = emu.add_text_channel(guild, "rummy")
        async with emu.running(drawing_bot(tmp_path / "rummy.db")) as bot:
            await (await emu.slash(alice, channel, "rummy new", variant="r51")).answer()
            table = await bot.tables.in_channel(guild.id, channel.id)  # type: ignore[attr-defined]
            await emu.wait_until(lambda: bool(emu.public_messages()), what="lobby")
            (lobby,) = emu.public_messages()
            await (await emu.click(alice, lobby, f"rummy:{table.id}:0:sitout")).answer()
            for _ in range(2):
                added = emu.slash(alice, channel, "rummy computer", action="addbot")
                await (await added).answer()
            await (await emu.click(alice, lobby, f"rummy:{table.id}:0:start")).answer()
            replay = f"rummy:{table.id}:0:replay:1"
            await emu.wait_until(
                lambda: any(replay in m.custom_ids() for m in emu.public_messages()),
                what="the first round's summary",
                timeout=60,
            )
            summary = next(m for m in emu.public_messages() if replay in m.custom_ids())
            answer = await (await emu.click(carol, summary, replay)).answer(timeout=30)
            assert answer.ephemeral and "Replay of round 1" in answer.content
            (gif,) = answer.attachments
            assert gif.filename == f"replay-{table.id}-1.gif" and gif.data.startswith(b"GIF89a")
            with Image.open(io.BytesIO(gif.data)) as image:
                frames = image.n_frames
            assert frames >= 3 and f"in {frames} frames" in (gif.description or "")
            assert bot.replay_drawer.pids, "drawn in a drawing process of its own"  # type: ignore[attr-defined]
            (pid,) = bot.replay_drawer.pids  # type: ignore[attr-defined]
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, pid) > mine, "replays yield to the tables"
