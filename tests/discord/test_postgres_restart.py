"""Restart safety on PostgreSQL through SimCord: a crash at any step between a move's commit
and its last Discord call heals when a fresh bot starts on the same database, and buttons of an
old message keep working after a restart. (The same tests run on SQLite in test_truth.py and
test_play_flow.py; the whole games of test_full_games.py run on both stores.)"""

from __future__ import annotations

import pytest

from bot.app import RummyBot
from rummy_engine import Phase
from tests.discord.conftest import World, make_bot
from tests.discord.test_play_flow import R51_HANDS, scripted
from tests.discord.test_truth import crash_at, live_buttons, notices


@pytest.fixture
def simcord_bot(postgres_url: str) -> RummyBot:
    return make_bot(postgres_url)


@pytest.mark.parametrize("step", [1, 2, 3])
async def test_a_crash_after_a_discard_heals_at_restart_on_postgres(
    world: World, postgres_url: str, step: int
) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    seen = crash_at(world.bot, step)
    await alice.slash(world.channel, "rummy discard", card="3c")
    assert len(seen) == step, "the crash happened at the step under test"
    old = world.env.bot
    await world.env.restart_bot(make_bot(postgres_url))
    await old.close()

    (table_message,) = live_buttons(world)
    assert f"<@{bob.user.id}> to play: draw a card." in table_message.content
    (notice,) = notices(world)
    assert f"<@{bob.user.id}>" in notice.content
    dm = alice.user.dm_channel.history()[-1].content
    assert "3♣" not in dm and "10 cards" in dm


async def test_restart_mid_turn_keeps_buttons_working_on_postgres(
    world: World, postgres_url: str
) -> None:
    hands = ["Jh Qh Kh 4s 5s 6s 2c 9d 9h Kd 3c", "2d 3d 4d 9s 9c Qs Qd Qc 5h 8c 8h 7d 2s"]
    await scripted(world, "r51", "1v1", hands, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    table_message = next(m for m in reversed(world.public_messages()) if m.components)
    old = world.env.bot
    await world.env.restart_bot(make_bot(postgres_url))
    await old.close()
    drew = await alice.click(table_message, label="Draw")
    # The table's own button: the table is updated, the new hand is a private follow-up.
    assert drew.acknowledged and drew.followups and all(f.ephemeral for f in drew.followups)
    game = (await world.table()).require_game()
    assert game.phase is Phase.PLAY and len(game.hands[0]) == 12
