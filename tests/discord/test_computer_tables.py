"""Tables of computers only: the host may sit out of the lobby and stay its host, seat
computers in every chair, start, and watch the game play itself through the same paced
autoplay as any computer seat, on simulated time. Nobody gets a hand, nothing is rated."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import RummyBot
from bot.storage.base import GLOBAL_SCOPE
from rummy_engine import Phase, StartRound, action_from_json
from tests.discord.conftest import World, has_table_buttons, make_bot

#: Seat strengths of the 2v2 table, as the host adds them (team, strength).
COMPUTERS = [(0, "strong"), (1, "easy"), (0, "normal"), (1, "strong")]
SIT_OUT_REFUSED = (
    "Only the host can sit out and keep the table; to leave it, press Leave or type /rummy leave."
)
SAT_OUT = (
    "You gave up your seat and are still the host: add computers and start, or sit down again "
    "with Join."
)


#: Seconds a computer waits before its turn. The bot's default is 1 s; here it is longer than
#: SimCord's settle window, so only the test's clock plays a turn and the pacing is visible.
DELAY = 10


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    return make_bot(db_path, computer_delay=DELAY)


def lobby_message(world: World) -> discord.Message:
    return next(m for m in reversed(world.public_messages()) if has_table_buttons(m))


def table_message(world: World) -> discord.Message:
    """The message that shows the table picture (edited in place through the game)."""
    return next(
        m
        for m in reversed(world.public_messages())
        if any(a.filename.startswith("table-") for a in m.attachments)
    )


def button(message: discord.Message, label: str) -> Any:
    return next(
        child
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "label", None) == label
    )


async def open_lobby(world: World, variant: str, mode: str) -> None:
    alice = world.players[0]
    opened = await alice.slash(world.channel, "rummy new", variant=variant, mode=mode)
    assert opened.acknowledged
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id


async def sit_out(world: World) -> None:
    """alice, the host, presses Sit out: she has no seat, the lobby says she does not play."""
    alice = world.players[0]
    answer = await alice.click(lobby_message(world), label="Sit out")
    assert answer.ephemeral and answer.response.content == SAT_OUT
    table = await world.table()
    assert table.seat_of(alice.user.id) is None and table.record.host_id == alice.user.id
    lobby = lobby_message(world)
    assert f"Host: <@{alice.user.id}> (not playing)" in lobby.content
    assert button(lobby, "Sit out").disabled, "nothing to sit out of without a seat"


async def play_out(world: World) -> None:
    """Move the clock as a watcher would wait: the computer's pause before each turn, the 30 s
    pause between rounds. Every step plays something; no one types or clicks anything."""
    for _ in range(6000):
        table = await world.table()
        world.check_privacy(table)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return
        version = table.record.version
        await world.env.advance_time(31 if game.phase is Phase.ROUND_OVER else DELAY)
        assert (await world.table()).record.version > version, "the game moved on by itself"
    raise AssertionError("the game did not end")


async def assert_nothing_rated(world: World, db_path: Path) -> None:
    """The game is recorded unrated; no rating, no player statistics, no leaderboard row."""
    table = await world.table()
    record = await world.bot.store.get_game_record(table.id)
    assert record is not None and not record.rated
    assert all(p.is_computer and p.user_id is None for p in record.players)
    with sqlite3.connect(db_path) as db:
        for name in ("player_stats", "rating_history"):
            assert db.execute(f"SELECT COUNT(*) FROM {name}").fetchone() == (0,), name
    for scope in (GLOBAL_SCOPE, world.guild.id):
        assert await world.bot.store.leaderboard_size(scope, "all") == 0
    assert await world.bot.store.get_player_stats(world.guild.id, world.players[0].user.id) == []


async def assert_every_move_stored(world: World) -> None:
    """The log replays to the stored game; only the host's Start has an actor (everything
    after it, the next rounds included, was played by the table itself)."""
    table = await world.table()
    moves = await world.bot.store.list_moves(table.id)
    assert (await world.bot.tables.replay(table.id)).to_json() == table.require_game().to_json()
    assert moves[0].actor_id == world.players[0].user.id
    assert all(m.actor_id is None for m in moves[1:])
    actions = [action_from_json(json.loads(m.action_json)) for m in moves[1:]]
    assert sum(isinstance(a, StartRound) for a in actions) == len(table.require_game().results) - 1


async def test_four_computers_play_a_whole_2v2_game_while_the_host_watches(
    world: World, db_path: Path
) -> None:
    alice = world.players[0]
    await open_lobby(world, "r51", "2v2")
    await sit_out(world)
    for team, strength in COMPUTERS:
        added = await alice.slash(
            world.channel, "rummy computer", action="addbot", team=team, strength=strength
        )
        assert added.ephemeral and f"({strength})" in added.response.content
    table = await world.table()
    assert [(s.team, s.strength) for s in sorted(table.seats, key=lambda s: s.seat)] == [
        COMPUTERS[0],
        COMPUTERS[1],
        COMPUTERS[2],
        COMPUTERS[3],
    ]
    started = await alice.slash(world.channel, "rummy start")
    assert started.response.content == "The game has started: the table is at the bottom of the channel, posted anew at each turn."

    # Paced like any computer seat: nothing moves before the pause has passed.
    assert len(await world.bot.store.list_moves(table.id)) == 1
    await world.env.advance_time(DELAY - 1)
    assert len(await world.bot.store.list_moves(table.id)) == 1
    await play_out(world)

    table = await world.table()
    game = table.require_game()
    assert table.record.status == "finished" and game.winners
    shown = table_message(world).content
    assert "Game over. Winner: Computer" in shown and not table_message(world).components
    await assert_every_move_stored(world)
    await assert_nothing_rated(world, db_path)
    assert alice.user.dm_channel.history() == [], "no hand goes to the host who does not play"
    pings = [m.content for m in world.public_messages() if m.content.startswith("🔔")]
    assert pings == [], "nobody to ping at a table of computers"


async def test_four_computers_play_a_whole_basic_game(world: World, db_path: Path) -> None:
    alice = world.players[0]
    await open_lobby(world, "basic", "1v1")
    left = await alice.slash(world.channel, "rummy leave")
    assert left.response.content == SAT_OUT, "/rummy leave stands the host up"
    for strength in ("easy", "strong", "normal", "strong"):
        await alice.slash(world.channel, "rummy computer", action="addbot", strength=strength)
    await alice.slash(world.channel, "rummy start")
    await play_out(world)
    table = await world.table()
    assert table.record.status == "finished" and len(table.require_game().hands) == 4
    assert "Game over. Winner: Computer" in table_message(world).content
    await assert_every_move_stored(world)
    await assert_nothing_rated(world, db_path)


async def test_the_host_sits_out_and_sits_down_again(world: World) -> None:
    alice, bob = world.players[:2]
    await open_lobby(world, "r51", "2v2")
    refused = await bob.click(lobby_message(world), label="Sit out")
    assert refused.ephemeral and refused.response.content == SIT_OUT_REFUSED
    await bob.click(lobby_message(world), label="Join team B")
    refused = await bob.click(lobby_message(world), label="Sit out")
    assert refused.response.content == SIT_OUT_REFUSED, "a seated guest is refused too"

    await sit_out(world)
    assert [s.user_id for s in (await world.table()).seats] == [bob.user.id]
    kicked_self = await alice.slash(world.channel, "rummy kick", player=alice)
    assert kicked_self.response.content == (
        "You cannot remove yourself: to give up your seat, press Sit out or type /rummy leave."
    )
    # Still the host: the host's tools answer her, and only her.
    asked = await alice.click(lobby_message(world), label="Settings")
    assert asked.response.content == "Choose an option to change:"
    not_host = await bob.slash(world.channel, "rummy computer", action="addbot")
    assert not_host.response.content == "Only the host can do that."

    back = await alice.click(lobby_message(world), label="Join team A")
    assert back.response.content == "You are seated."
    lobby = lobby_message(world)
    assert f"Host: <@{alice.user.id}>\n" in lobby.content and "not playing" not in lobby.content
    assert not button(lobby, "Sit out").disabled
    table = await world.table()
    assert {s.user_id: s.team for s in table.seats} == {alice.user.id: 0, bob.user.id: 1}


async def test_start_is_refused_while_seats_are_empty(world: World) -> None:
    alice = world.players[0]
    await open_lobby(world, "r51", "2v2")
    await sit_out(world)
    empty = await alice.slash(world.channel, "rummy start")
    assert empty.response.content == (
        "The game needs 4 players; 0 are seated. Fill the free seats with Join or Add computer."
    )
    for team, strength in COMPUTERS[:3]:
        await alice.slash(
            world.channel, "rummy computer", action="addbot", team=team, strength=strength
        )
    short = await alice.slash(world.channel, "rummy start")
    assert short.response.content.startswith("The game needs 4 players; 3 are seated.")
    assert (await world.table()).is_lobby
    await alice.slash(world.channel, "rummy computer", action="addbot", team=1)
    started = await alice.slash(world.channel, "rummy start")
    assert started.response.content == "The game has started: the table is at the bottom of the channel, posted anew at each turn."
    cancelled = await alice.slash(world.channel, "rummy cancel")
    assert cancelled.response.content == "This table was cancelled."
    assert (await world.table()).record.status == "cancelled"


async def test_two_computers_play_1v1_until_the_host_cancels(world: World) -> None:
    alice = world.players[0]
    await open_lobby(world, "r71", "1v1")
    await sit_out(world)
    for strength in ("easy", "strong"):
        await alice.slash(world.channel, "rummy computer", action="addbot", strength=strength)
    await alice.slash(world.channel, "rummy start")
    for _ in range(3):
        await world.env.advance_time(DELAY)
    table = await world.table()
    assert table.require_game().turn >= 3, "the computers play by themselves"
    cancelled = await alice.slash(world.channel, "rummy cancel")
    assert cancelled.response.content == "This table was cancelled."
    assert (await world.table()).record.status == "cancelled"
    assert await world.bot.store.get_game_record(table.id) is None, "nothing is recorded"
