"""The PostgreSQL server goes away while a table plays, through the real client (SimCord): it
restarts, or fails over to a fresh server on a copy of its data at the same address. A move
meanwhile is refused in one sentence, and play goes on by itself once the server is back: no
restart of the bot, and the log says it once each way."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app import RummyBot
from tests.discord.conftest import World, make_bot
from tests.discord.test_database_outage import refused_then_played
from tests.helpers import postgres


@pytest.fixture
def simcord_bot(own_postgres: postgres.Server) -> RummyBot:
    return make_bot(own_postgres.tcp_dsn)


async def _in_thread(action: Any) -> None:
    await asyncio.get_running_loop().run_in_executor(None, action)


@pytest.mark.parametrize("back_how", ["resume", "fail_over"])
async def test_a_postgres_server_that_goes_away_refuses_moves_and_is_found_again(
    world: World, own_postgres: postgres.Server, caplog: pytest.LogCaptureFixture, back_how: str
) -> None:
    watch = world.watch
    assert watch is not None

    def halt() -> None:
        watch.enabled = False  # it reads the store, which has nothing to read from now
        own_postgres.halt()

    async def back() -> None:
        if back_how == "resume":
            await _in_thread(own_postgres.resume)
        else:  # the old server starts for the copy to be taken, then makes way for it
            await _in_thread(own_postgres.resume)
            await _in_thread(own_postgres.fail_over)

    await refused_then_played(world, caplog, outage=halt, back=back, reads=False)
