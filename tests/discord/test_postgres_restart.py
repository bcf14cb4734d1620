"""Restart safety on PostgreSQL through SimCord: the SQLite tests of test_truth.py and
test_play_flow.py, run on a PostgreSQL database (a crash at any step between a move's commit
and its last Discord call heals when a fresh bot starts; an old message's buttons keep working
after a restart). The whole games of test_full_games.py run on both stores."""

from __future__ import annotations

import pytest

from bot.app import RummyBot
from tests.discord.conftest import World, make_bot
from tests.discord.test_play_flow import restart_mid_turn_keeps_buttons_working
from tests.discord.test_truth import CRASH_STEPS, crash_after_a_discard_heals


@pytest.fixture
def simcord_bot(postgres_url: str) -> RummyBot:
    return make_bot(postgres_url)


@pytest.mark.parametrize("step", CRASH_STEPS)
async def test_a_crash_after_a_discard_heals_at_restart_on_postgres(
    world: World, postgres_url: str, step: int
) -> None:
    await crash_after_a_discard_heals(world, postgres_url, step)


async def test_restart_mid_turn_keeps_buttons_working_on_postgres(
    world: World, postgres_url: str
) -> None:
    await restart_mid_turn_keeps_buttons_working(world, postgres_url)
