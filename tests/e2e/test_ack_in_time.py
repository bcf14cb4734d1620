"""Never late to Discord: a move that reaches the bot while its event loop is behind is
acknowledged at once, so a stall in its own handling cannot push the acknowledgement past
Discord's 3 seconds (the emulator then forgets the interaction, as Discord does).

The lag is made by blocking the one event loop the emulator and the bot share, before the bot
reads the interaction and again inside the move's handling.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

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
