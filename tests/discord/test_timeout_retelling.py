"""How the table retells a turn the timer played, through SimCord on simulated time: it says
what was really done (a dealer's first turn draws nothing), it keeps the name of who played
even once a computer has taken the seat, and a bot started after a turn's end plays the turn
without first reminding the player of an end that has passed.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.app import RummyBot
from rummy_engine import Phase
from tests.discord.conftest import World, make_bot
from tests.discord.test_turn_timers import absent_three_times, table_message, time_out

STOCK = re.compile(r"Stock: (\d+)")


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    """Tables get a 1-minute turn timer: reminder at 45 s, the turn played at 60 s."""
    return make_bot(db_path, turn_timer=1)


def last_move(world: World) -> str:
    """The table message's last line: what just happened, in italics."""
    line = table_message(world).content.splitlines()[-1]
    assert line.startswith("_") and line.endswith("_"), line
    return line.strip("_")


def stock(world: World) -> int:
    found = STOCK.search(table_message(world).content)
    assert found, table_message(world).content
    return int(found[1])


async def test_a_timed_out_turn_is_told_as_it_was_played(world: World) -> None:
    """The dealer starts without drawing: their timed-out first turn is a discard only, and
    the stock keeps its count. The next player's timed-out turn draws, and says so."""
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    assert game.phase is Phase.PLAY, "the dealer plays first without drawing"
    dealer = next(s.name for s in table.seats if s.seat == game.current)
    other = next(s.name for s in table.seats if s.seat != game.current)
    before = stock(world)

    await time_out(world)
    told = last_move(world)
    assert told.startswith(f"⏰ {dealer}'s time ran out: the turn was played for them."), told
    assert re.search(rf"{dealer} discarded \S+\.$", told), told
    assert "drew" not in told and "drawn" not in told, told
    assert stock(world) == before, "nothing was drawn"

    await time_out(world)
    told = last_move(world)
    assert told.startswith(f"⏰ {other}'s time ran out: the turn was played for them."), told
    assert f"{other} drew from the stock." in told and f"{other} discarded" in told, told
    assert stock(world) == before - 1


async def test_a_past_move_keeps_the_name_of_who_made_it(world: World) -> None:
    """bob lets his turn run out three times; the host replaces him by a computer. The table's
    last line still tells bob's turn as bob's, while the seat is now the computer's."""
    bob_seat = await absent_three_times(world, random.Random(3))
    assert "⏰ bob's time ran out" in last_move(world)
    alice = world.players[0]
    replaced = await alice.click(table_message(world), label="Replace by a computer")
    assert replaced.acknowledged
    table = await world.table()
    assert next(s for s in table.seats if s.seat == bob_seat).name == "🤖 Computer (for bob)"
    told = last_move(world)
    assert told.startswith("⏰ bob's time ran out"), told
    assert "Computer" not in told, told


async def test_no_reminder_for_a_turn_that_ended_while_the_bot_was_down(
    world: World, db_path: Path
) -> None:
    """Killed while a turn runs, started again after its end: the turn is played for the
    player, and no DM tells them their turn "ends" at a time already gone."""
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    seat, turn = game.current, game.turn
    member = world.member(table.user_at(seat))
    dms_before = len(member.user.dm_channel.history())
    await world.env.bot.close()
    await world.env.advance_time(80)  # past the reminder (45 s) and the turn's end (60 s)
    await world.env.restart_bot(make_bot(db_path, turn_timer=1))
    await world.env.advance_time(1)
    assert (await world.table()).require_game().turn != turn, "the turn was played"
    sent = [m.content for m in member.user.dm_channel.history()[dms_before:]]
    assert not [m for m in sent if m.startswith("⏳")], sent


async def test_a_reminder_still_comes_for_a_running_turn_after_a_restart(
    world: World, db_path: Path
) -> None:
    """The other side of the rule: started again before the reminder is due, the bot still
    reminds the player once, and then plays the turn."""
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    member = world.member(table.user_at(game.current))
    await world.env.bot.close()
    await world.env.advance_time(30)
    await world.env.restart_bot(make_bot(db_path, turn_timer=1))
    await world.env.advance_time(20)  # 50 s into the minute
    reminders = [m for m in member.user.dm_channel.history() if m.content.startswith("⏳")]
    assert len(reminders) == 1
