"""A whole game typed through SimCord lands on the season board: the recorder's callback
stores the game's season and channel (no Discord call), and ``season:current`` ranks its
players with the same ratings as the all-time board (one game: the same fold from scratch)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.storage.base import ALL_VARIANTS
from tests.discord.conftest import World, make_bot, play_to_end


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


async def test_a_whole_game_is_on_the_current_season_board(world: World) -> None:
    await world.open_table("simple", "1v1", 2)
    await play_to_end(world, random.Random(1), steps=3000)
    store = world.bot.store
    (season,) = await store.season_rows(world.guild.id)
    assert season.channel_id == world.channel.id and not season.posted
    board = await world.players[1].slash(world.channel, "rummy-stats leaderboard", season="current")
    embed = board.response.embeds[0].to_dict()
    assert embed["title"].startswith("Leaderboard · All variants · This season (")
    all_time = await store.leaderboard_page(world.guild.id, ALL_VARIANTS, "rating", 0, 10)
    page = await world.bot.seasons.page(season, family=ALL_VARIANTS, sort="rating", page=0)
    assert [(e.user_id, e.rating, e.games) for e in page.entries] == [
        (row.user_id, row.rating, row.games) for row in all_time
    ]
    assert all(name in embed["description"] for name in ("alice", "bob"))
