"""Whole games through SimCord, one per variant and mode: every move typed as a slash command
by the player whose turn it is, next rounds by the host's button or the 30-second timer, and
the privacy of every hand checked after every move. Each game runs on both stores."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import RummyBot
from rummy_engine import Phase
from tests.discord.conftest import World, make_bot, play_step

GAMES = [
    ("simple", "1v1", 2),
    ("simple", "2v2", 4),
    ("r51", "1v1", 2),
    ("r51", "2v2", 4),
    ("r71", "1v1", 2),
    ("r71", "2v2", 4),
    ("basic", "basic", 3),
]


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


@pytest.mark.parametrize(
    ("variant", "mode", "players"), GAMES, ids=[f"{v}-{m}-{p}" for v, m, p in GAMES]
)
async def test_whole_game(world: World, variant: str, mode: str, players: int) -> None:
    table = await world.open_table(variant, mode, players)
    rng = random.Random(1)
    rounds_by_timer = 0
    for _ in range(3000):
        table = await world.table()
        world.check_privacy(table)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            break
        by_timer = game.phase is Phase.ROUND_OVER and game.round_no % 2 == 1
        rounds_by_timer += by_timer
        await play_step(world, rng, by_timer=by_timer)
    else:
        pytest.fail("the game did not end")
    assert table.record.status == "finished"
    assert len(game.results) >= 2 and rounds_by_timer >= 1
    public = [m.content for m in world.public_messages()]
    assert any("Game over" in text for text in public), public[-3:]
    assert table.record.version == len(await world.bot.store.list_moves(table.id))
    replayed = await world.bot.tables.replay(table.id)
    assert replayed.to_json() == game.to_json()
    board = await world.players[0].slash(world.channel, "rummy-stats leaderboard", variant=variant)
    listed = str(board.response.embeds[0].to_dict())
    assert all(name in listed for name in ("alice", "bob"))
