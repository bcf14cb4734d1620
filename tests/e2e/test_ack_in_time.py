"""Never late to Discord: a move that reaches the bot while its event loop is behind is
acknowledged at once, so a stall in its own handling cannot push the acknowledgement past
Discord's 3 seconds (the emulator then forgets the interaction, as Discord does).

The lag is made by blocking the one event loop the emulator and the bot share, before the bot
reads the interaction and again inside the move's handling.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.ui.ack_watch import DISCORD_LIMIT
from bot.ui.loop_lag import REMEMBERED
from rummy_engine import Phase
from tests.e2e.test_load_budget import interaction_calls, quiet, two_player_table

LOOP_BEHIND_S = 1.2
STALL_S = 2.0


async def test_a_move_reaching_a_lagging_bot_is_acknowledged_before_its_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_player_table(tmp_path) as table:
        emu, bot = table.emu, table.bot
        emu.ack_deadline = 3.0
        act: Callable[..., Awaitable[Any]] = bot.tables.act

        async def stalled(*args: Any, **kwargs: Any) -> Any:
            time.sleep(STALL_S)  # the whole loop stops: no timer can fire meanwhile
            return await act(*args, **kwargs)

        monkeypatch.setattr(bot.tables, "act", stalled)
        game = (await bot.tables.load(table.table_id)).require_game()
        assert game.phase is Phase.DRAW
        mover = table.users[game.current]
        since = len(emu.requests)
        handle = await emu.slash(mover, table.channel, "rummy draw", source="stock")
        time.sleep(LOOP_BEHIND_S)  # the bot reads the interaction this late
        reply = await handle.answer()
        await quiet(emu)
        assert "Your hand" in (reply.content or ""), reply.content
        assert interaction_calls(emu, since)[:2] == ["POST callback", "POST followup"]
        assert all(r.status < 400 for r in emu.requests[since:]), emu.requests[since:]
        assert (await bot.tables.load(table.table_id)).require_game().phase is Phase.PLAY


async def test_the_bot_times_each_acknowledgement_and_warns_when_it_is_late(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot's own figure (bot/ui/ack_watch.py): every callback is timed from the moment
    Discord made the interaction; one that leaves little of the 3 s is a warning."""
    async with two_player_table(tmp_path) as table:
        emu, bot = table.emu, table.bot
        seen = bot.acks.count
        game = (await bot.tables.load(table.table_id)).require_game()
        handle = await emu.slash(
            table.users[game.current], table.channel, "rummy draw", source="stock"
        )
        await handle.answer()
        assert bot.acks.count == seen + 1
        assert 0 <= bot.acks.slowest < 1.0, bot.acks.slowest
        assert not [r for r in caplog.records if r.name == "bot.ui.ack_watch"]

        handle = await emu.slash(table.users[game.current], table.channel, "rummy hand")
        time.sleep(2.3)  # the bot reads the interaction this late: acknowledged at once after
        await handle.answer()
        assert bot.acks.count == seen + 2
        assert 2.3 <= bot.acks.slowest < DISCORD_LIMIT, bot.acks.slowest
        assert bot.acks.late == 0
        [warning] = [r for r in caplog.records if r.name == "bot.ui.ack_watch"]
        assert warning.levelname == "WARNING" and "overloaded" in warning.getMessage()


async def test_a_move_reaching_the_bot_while_its_loop_lags_is_acknowledged_before_its_work(
    tmp_path: Path,
) -> None:
    """A move that reaches its handler late, if well under the age that says so by itself
    (LAGGING), shows the loop behind: it is deferred at once, not by a timer that would wait
    behind the same backlog. On time, the same move is answered in one call."""
    async with two_player_table(tmp_path) as table:
        emu, bot = table.emu, table.bot
        answered_in = []
        for lagging in (False, True):
            while (await table.move())[0] != "discard":
                pass  # each case starts a turn with a draw
            await quiet(emu)
            await asyncio.sleep(REMEMBERED)  # what the last moves showed is forgotten
            game = (await bot.tables.load(table.table_id)).require_game()
            since = len(emu.requests)
            mover = table.users[game.current]
            handle = await emu.slash(mover, table.channel, "rummy draw", source="stock")
            if lagging:
                time.sleep(LOOP_BEHIND_S / 4)  # the loop stops a moment: the move comes late
            await handle.answer()
            assert bot.lag.behind() is lagging, bot.lag.last
            await quiet(emu)
            calls = interaction_calls(emu, since)
            answered_in.append(calls[: calls.index("POST callback") + 2])
        assert answered_in[0][-1] != "POST followup", answered_in
        assert answered_in[1][-1] == "POST followup", answered_in
