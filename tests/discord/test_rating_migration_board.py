"""The real bot opens a database whose ratings were stored under Plackett-Luce and then replayed
by migration 9: `/rummy-stats leaderboard` shows the corrected board (issue 23, item 2). That
opening a database of any past version runs the migrations it lacks is
``tests/storage/test_upgrade_every_version.py``'s."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.storage import SqliteStore
from tests.discord.conftest import World, make_bot
from tests.helpers.old_ratings import record_with_old_rule
from tests.helpers.rating_order import ranked_game
from tests.helpers.rerun import rerun_migration

#: Four newcomers finished 1, 1, 3, 4 (seat order), names as their seats recorded them.
PLACES = (1, 1, 3, 4)
FIRST_USER = 9001
NAMES = [f"P{FIRST_USER + seat}" for seat in range(len(PLACES))]


@pytest.fixture
async def simcord_bot(db_path: Path) -> RummyBot:
    """The bot on a file holding that game, rated by the old rule, then migration 9."""
    async with SqliteStore(db_path) as old:
        await record_with_old_rule(old, [ranked_game(PLACES, first_user=FIRST_USER)])
        board = await old.leaderboard_page(0, "basic", "rating", 0, 10)
        assert [row.user_id - FIRST_USER for row in board] == [2, 0, 1, 3]  # the old, wrong board
    await rerun_migration(db_path, 9)
    return make_bot(db_path)


async def test_the_leaderboard_shows_the_corrected_board(world: World) -> None:
    result = await world.players[0].slash(
        world.channel, "rummy-stats leaderboard", variant="basic", scope="global"
    )
    assert result.response is not None
    (embed,) = result.response.embeds
    lines = (embed.description or "").splitlines()
    ranked = [name for line in lines for name in NAMES if re.search(rf"\b{name}\b", line)]
    assert ranked == NAMES, lines  # both winners, then the third, then the fourth
    # The rating is the first number of three digits or more after the name (games are 1).
    ratings = {
        name: float(match.group(1))
        for line in lines
        for name in NAMES
        if name in line and (match := re.search(r"(\d{3,})", line.split(name, 1)[1]))
    }
    assert ratings[NAMES[0]] == ratings[NAMES[1]] > ratings[NAMES[2]] > ratings[NAMES[3]], lines
