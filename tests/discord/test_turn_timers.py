"""Turn timers, absent players and housekeeping, on simulated time (SimCord moves the clock;
nothing here sleeps for real).

Tables are opened with a 1-minute timer: the reminder comes at 45 s, the turn is played for the
player at 60 s, and after 3 timed-out turns in a row the host chooses what happens to the seat.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.storage import Deadline
from rummy_engine import Phase
from tests.discord.conftest import World, make_bot, play_step

HUMAN_ACTIONS = ("draw", "discard", "lay", "swap", "undo_take")


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    """The bot of this module: tables get a 1-minute turn timer unless they choose another."""
    return make_bot(db_path, turn_timer=1)


def table_message(world: World):  # type: ignore[no-untyped-def]
    """The newest public message with components or the table picture: the table message."""
    return next(
        m
        for m in reversed(world.public_messages())
        if any(a.filename.startswith("table-") for a in m.attachments) or m.components
    )


async def timed_out_moves(world: World) -> list[dict[str, object]]:
    """The moves nobody typed (actor None) whose events say the turn timed out."""
    table = await world.table()
    moves = await world.bot.store.list_moves(table.id)
    return [
        json.loads(m.action_json)
        for m in moves
        if m.actor_id is None
        and any(e["kind"] == "turn_timed_out" for e in json.loads(m.events_json))
    ]


async def finish_turn_by_hand(world: World, rng: random.Random) -> None:
    """The player whose turn it is plays it through the slash commands."""
    table = await world.table()
    turn = table.require_game().turn
    while True:
        game = (await world.table()).require_game()
        if game.turn != turn or game.phase not in (Phase.DRAW, Phase.PLAY):
            return
        await play_step(world, rng)


async def time_out(world: World) -> None:
    """Let the current turn's minute run out."""
    await world.env.advance_time(61)


async def test_reminder_is_private_then_the_turn_is_played_for_the_player(world: World) -> None:
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    seat, turn = game.current, game.turn
    member = world.member(table.user_at(seat))
    other = world.member(table.user_at(1 - seat))
    shown = table_message(world).content
    assert "⏳ The turn ends <t:" in shown and ":R>" in shown

    dms_before = len(member.user.dm_channel.history())
    public_before = len(world.public_messages())
    await world.env.advance_time(44)
    assert len(member.user.dm_channel.history()) == dms_before, "no reminder before 75%"
    await world.env.advance_time(2)
    dms = member.user.dm_channel.history()
    reminders = [m for m in dms if m.content.startswith("⏳ Your turn")]
    assert len(reminders) == 1 and "<t:" in reminders[0].content
    assert not any(m.content.startswith("⏳ Your turn") for m in other.user.dm_channel.history())
    assert not any(
        m.content.startswith("⏳ Your turn") for m in world.public_messages()[public_before:]
    ), "the reminder is never public"

    await world.env.advance_time(15)
    after = await world.table()
    game = after.require_game()
    assert game.turn != turn and game.current != seat, "the turn was played for them"
    [move] = await timed_out_moves(world)
    assert move["type"] == "discard" and move["seat"] == seat
    assert after.timeouts(seat) == 1
    assert "time ran out" in table_message(world).content
    world.check_privacy(after)
    # The next player got a fresh minute, and a single reminder was sent in all.
    await world.env.advance_time(30)
    assert len([m for m in dms if m.content.startswith("⏳ Your turn")]) == 1
    assert len(await timed_out_moves(world)) == 1


async def test_timer_choice_off_in_new_and_minutes_in_settings(world: World) -> None:
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1", turn_timer="off")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None and table.turn_timer == 0
    lobby = table_message(world)
    assert "Turn timer: off." in lobby.content
    world.table_id = table.id
    settings = await alice.click(lobby, label="Settings")
    assert settings.ephemeral
    await alice.select(settings.response, ["turn_timer"], custom_id=f"rummy:{table.id}:0:setopt")
    chosen = await alice.select(
        settings.response, ["10"], custom_id=f"rummy:{table.id}:0:setval:turn_timer"
    )
    assert chosen.acknowledged and "Turn timer (minutes) is now 10." in settings.response.content
    assert (await world.table()).turn_timer == 10
    assert "Turn timer: 10 minutes per turn." in table_message(world).content
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy start")
    turn = [d for d in await world.bot.store.get_deadlines(table.id) if d.kind == "turn"]
    assert len(turn) == 1 and (turn[0].due_at - world.env.now()).total_seconds() == 600


async def absent_three_times(world: World, rng: random.Random) -> int:
    """Bob (seat of players[1]) lets three turns run out; alice plays hers. Returns bob's seat."""
    table = await world.open_table("r51", "1v1", 2)
    bob_seat = table.seat_of(world.players[1].user.id)
    assert bob_seat is not None
    for _ in range(40):
        table = await world.table()
        if table.timeouts(bob_seat) >= 3:
            return bob_seat
        game = table.require_game()
        if game.phase is Phase.ROUND_OVER:
            await play_step(world, rng)
        elif game.current == bob_seat:
            await time_out(world)
        else:
            await finish_turn_by_hand(world, rng)
    raise AssertionError("bob did not time out three times")


async def test_third_timeout_asks_the_host_and_wait_starts_the_count_again(world: World) -> None:
    rng = random.Random(3)
    bob_seat = await absent_three_times(world, rng)
    alice, bob = world.players[:2]
    message = table_message(world)
    assert "let the timer run out 3 times in a row" in message.content
    refused = await bob.click(message, label="Wait")
    assert "Only the host" in refused.response.content
    waited = await alice.click(message, label="Wait")
    assert waited.response.content.startswith("The table waits")
    table = await world.table()
    assert table.timeouts(bob_seat) == 0 and not table.is_computer(bob_seat)
    assert "absent" not in {d.kind for d in await world.bot.store.get_deadlines(table.id)}
    assert "let the timer run out" not in table_message(world).content


async def test_host_replaces_the_absent_player_by_a_computer(world: World) -> None:
    rng = random.Random(3)
    bob_seat = await absent_three_times(world, rng)
    alice = world.players[0]
    replaced = await alice.click(table_message(world), label="Replace by a computer")
    assert replaced.response.content == "A computer player takes the seat."
    table = await world.table()
    seat = next(s for s in table.seats if s.seat == bob_seat)
    assert seat.is_computer and seat.user_id is None and seat.name == "🤖 Computer (for bob)"
    await play_on_until_the_computer_moves(world, rng, bob_seat)


async def play_on_until_the_computer_moves(world: World, rng: random.Random, seat: int) -> None:
    before = len(await world.bot.store.list_moves(world.table_id or 0))
    for _ in range(10):
        game = (await world.table()).require_game()
        if game.current != seat:
            await finish_turn_by_hand(world, rng)
        await world.env.advance_time(1)
        moves = await world.bot.store.list_moves(world.table_id or 0)
        if any(
            json.loads(m.action_json).get("seat") == seat
            and m.actor_id is None
            and not any(e["kind"] == "turn_timed_out" for e in json.loads(m.events_json))
            for m in moves[before:]
        ):
            return
    raise AssertionError("the computer never played the seat")


async def test_host_ends_the_game_as_a_forfeit_of_the_absent_side(world: World) -> None:
    rng = random.Random(3)
    bob_seat = await absent_three_times(world, rng)
    alice = world.players[0]
    ended = await alice.click(table_message(world), label="End the game")
    assert ended.response.content.startswith("The game ended")
    table = await world.table()
    assert table.record.status == "finished"
    record = await world.bot.store.get_game_record(table.id)
    assert record is not None
    bob_row = next(p for p in record.players if p.seat == bob_seat)
    alice_row = next(p for p in record.players if p.seat != bob_seat)
    assert bob_row.forfeited and not bob_row.won and alice_row.won


async def test_a_computer_takes_the_seat_when_the_host_does_not_answer(world: World) -> None:
    rng = random.Random(3)
    bob_seat = await absent_three_times(world, rng)
    table = await world.table()
    assert table.require_game().current != bob_seat
    await finish_turn_by_hand(world, rng)  # alice plays; the host's minute runs on
    await world.env.advance_time(61)
    table = await world.table()
    assert table.is_computer(bob_seat), "a computer took the seat after one turn time"
    assert "let the timer run out" not in table_message(world).content


async def test_an_idle_lobby_closes_itself(world: World) -> None:
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    await world.env.advance_time(20 * 60)
    await bob.slash(world.channel, "rummy join")  # activity: the 30 minutes start again
    await world.env.advance_time(20 * 60)
    assert (await world.table()).record.status == "lobby"
    await world.env.advance_time(10 * 60 + 1)
    closed = await world.table()
    assert closed.record.status == "cancelled" and closed.record.closed_reason == "lobby_idle"
    [message] = [m for m in world.public_messages() if m.content.startswith("**Rummy 51")]
    assert "closed itself after 30 minutes" in message.content and not message.components


async def test_a_game_without_human_action_for_24_hours_ends_unrated(world: World) -> None:
    table = await world.open_table("r51", "1v1", 2, turn_timer="off")
    assert table.turn_timer == 0
    await world.env.advance_time(23 * 3600)
    assert (await world.table()).record.status == "active"
    await world.env.advance_time(3600 + 1)
    ended = await world.table()
    assert ended.record.status == "cancelled" and ended.record.closed_reason == "game_idle"
    assert await world.bot.store.get_game_record(ended.id) is None, "no result, no rating"
    assert "No one played for 24 hours" in table_message(world).content


async def test_a_game_closes_24_hours_after_the_last_human_move_not_before(
    world: World,
) -> None:
    await world.open_table("r51", "1v1", 2, turn_timer="off")
    await world.env.advance_time(20 * 3600)
    await finish_turn_by_hand(world, random.Random(5))  # a move 20 hours in
    first_idle = (await world.bot.store.get_deadlines(world.table_id))[0]
    await world.env.advance_time(5 * 3600)  # the first 24 hours have run out
    kept = await world.table()
    assert kept.record.status == "active", "a person played 5 hours ago"
    [idle] = await world.bot.store.get_deadlines(world.table_id)
    assert idle.due_at > first_idle.due_at and not idle.fired
    await world.env.advance_time(19 * 3600 - 60)
    assert (await world.table()).record.status == "active"
    await world.env.advance_time(61)  # 24 hours after that move
    ended = await world.table()
    assert ended.record.status == "cancelled" and ended.record.closed_reason == "game_idle"


async def test_a_deadline_that_passed_during_a_restart_fires_once(
    world: World, db_path: Path
) -> None:
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    seat, turn = game.current, game.turn
    old = world.env.bot
    await old.close()  # the bot is down while the minute passes
    await world.env.advance_time(5 * 60)
    await world.env.restart_bot(make_bot(db_path, turn_timer=1))
    await world.env.advance_time(1)
    after = await world.table()
    assert after.require_game().turn != turn
    assert len(await timed_out_moves(world)) == 1, "fired at start, once"
    # Starting again at once does not fire it a second time, nor the next player's fresh minute.
    again = world.env.bot
    await world.env.restart_bot(make_bot(db_path, turn_timer=1))
    await again.close()
    await world.env.advance_time(1)
    assert len(await timed_out_moves(world)) == 1
    assert (await world.table()).timeouts(seat) == 1


async def test_a_crash_between_draw_and_discard_finishes_the_same_turn_once(
    world: World, db_path: Path
) -> None:
    """The draw of a timed-out turn is committed, the discard (which claims the deadline) is
    not: the next start plays the rest of that turn, once."""
    table = await world.open_table("r51", "1v1", 2)
    game = table.require_game()
    if game.phase is Phase.PLAY:  # the dealer starts without drawing: let that turn go by
        await finish_turn_by_hand(world, random.Random(1))
        table = await world.table()
    game = table.require_game()
    seat, turn = game.current, game.turn
    [deadline] = [d for d in await world.bot.store.get_deadlines(table.id) if d.kind == "turn"]
    old = world.env.bot
    await old.close()
    store = make_bot(db_path).store
    await store.open()
    service = make_bot(db_path).tables
    service.store = store
    from rummy_engine import Draw

    loaded = await service.load(table.id)
    drawn = await service._apply(loaded, loaded.require_game(), Draw(seat), None, seat)
    assert drawn.table.require_game().phase is Phase.PLAY
    await store.close()
    pending = [d for d in await _deadlines(db_path, table.id) if d.kind == "turn"]
    assert pending == [deadline], "a step inside the turn does not claim the deadline"
    await world.env.advance_time(2 * 60)
    await world.env.restart_bot(make_bot(db_path, turn_timer=1))
    await world.env.advance_time(1)
    game = (await world.table()).require_game()
    assert game.turn != turn
    moves = await timed_out_moves(world)
    assert len(moves) == 1 and moves[0]["type"] == "discard"


async def _deadlines(db_path: Path, table_id: int) -> list[Deadline]:
    store = make_bot(db_path).store
    await store.open()
    try:
        return await store.get_deadlines(table_id)
    finally:
        await store.close()


async def test_cancel_works_on_a_table_whose_state_cannot_be_loaded(world: World) -> None:
    table = await world.open_table("r51", "1v1", 2)
    with sqlite3.connect(world.bot.settings.database) as conn:
        conn.execute("UPDATE tables SET snapshot = '{broken' WHERE id = ?", (table.id,))
    bob = world.players[1]
    refused = await bob.slash(world.channel, "rummy cancel")
    assert "host" in refused.response.content
    cancelled = await world.players[0].slash(world.channel, "rummy cancel")
    assert cancelled.ephemeral and "cancelled" in cancelled.response.content
    record = await world.bot.store.get_table(table.id)
    assert record is not None and record.status == "cancelled", "archived, not deleted"
    assert await world.bot.store.list_moves(table.id), "its moves are kept"
