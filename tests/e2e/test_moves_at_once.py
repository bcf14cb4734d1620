"""A bot process carries a bounded number of moves at once (bot/features/play/ui/context.py, MOVES_AT_ONCE):
the others wait their turn, already acknowledged, and every one is applied and answered.

Why: a move in progress holds ~100 KB of small Python objects; a burst of hundreds at once
spread them over arenas of the interpreter's allocator that a few long-lived objects then keep
for the process's life (docs/performance.md, Memory). Here the cap is 2 and eight tables'
players move at the same moment, through the real client and the loopback emulator.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.app import RummyBot
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.e2e.test_global_limit import move, open_table, quiet, two_player_servers

TABLES = 8
AT_ONCE = 2


def count_overlap(bot: RummyBot) -> Callable[[], int]:
    """Watch the table service's moves (the real ones run, each on a database slow by 50 ms,
    so that uncapped they would overlap): returns the most in progress at any one moment."""
    real: Callable[..., Awaitable[Any]] = bot.tables.act
    active, busiest = 0, 0

    async def act(*args: Any, **kwargs: Any) -> Any:
        nonlocal active, busiest
        active += 1
        busiest = max(busiest, active)
        try:
            await asyncio.sleep(0.05)
            return await real(*args, **kwargs)
        finally:
            active -= 1

    bot.tables.act = act  # type: ignore[method-assign]
    return lambda: busiest


async def test_moves_beyond_the_cap_wait_their_turn_and_all_go_through(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        seats = two_player_servers(emu, TABLES)
        bot = make_bot(tmp_path / "rummy.db")
        bot.ui = replace(bot.ui, moves=asyncio.Semaphore(AT_ONCE))
        async with emu.running(bot):
            await asyncio.gather(*(open_table(emu, bot, seat) for seat in seats))
            await quiet(emu)
            busiest = count_overlap(bot)
            # The step check waits for the channel before each move; here the moves come
            # together, so the tables are checked once, at the end.
            watch, emu.step_check = emu.step_check, None
            assert watch is not None
            versions = [(await bot.tables.load(seat.table_id)).record.version for seat in seats]
            await asyncio.gather(*(move(emu, bot, seat) for seat in seats))  # answered, each
            assert busiest() == AT_ONCE, "the moves came together, and went through two at once"
            for seat, version in zip(seats, versions, strict=True):
                table = await bot.tables.load(seat.table_id)
                assert table.record.version == version + 1, "every move applied, once"
            await quiet(emu)
            await watch.check()  # each table message shows its stored table, one notice each
