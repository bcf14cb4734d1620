"""A thread per game through SimCord: ``/rummy new thread:yes`` opens a public thread from the
lobby message at the start; the game (table, notices, round summary) lives in it and the parent
channel keeps two bot messages (on both stores); a thread Discord archived before a computer's
move is unarchived and the move shown; a deleted thread closes the table, with nothing more sent
into it, across the retry delays and a restart.

SimCord posts a THREAD_CREATED system message in the parent when a thread is opened from a
message, which Discord does only for a thread opened without one (tests/SIMCORD_NOTES.md): the
count of the parent's messages leaves system messages out."""

from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import RummyBot
from rummy_engine import Game, Phase
from tests.discord.conftest import World, make_bot, play_step

COMPUTER_DELAY = 10


async def computer_turn(world: World, game: Game) -> None:
    """Let the clock run past the computer's pause; it must have played its turn by then."""
    turn = game.turn
    await world.env.advance_time(COMPUTER_DELAY + 1)
    after = (await world.table()).require_game()
    assert after.turn != turn or after.phase not in (Phase.DRAW, Phase.PLAY)


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    # longer than SimCord's settle (5 s), so a test sees the table before the computer moves
    return make_bot(store_url, computer_delay=COMPUTER_DELAY)


def bot_posts(world: World, channel: simcord.ChannelHandle) -> list[discord.Message]:  # type: ignore[name-defined]
    """The bot's public messages in ``channel`` (not its ephemeral answers, not system ones;
    a follow-up of a command is one of the bot's messages)."""
    me = world.env.bot.user
    kinds = (discord.MessageType.default, discord.MessageType.chat_input_command)
    return [
        m
        for m in channel.history()
        if not m.flags.ephemeral and m.author.id == me.id and m.type in kinds
    ]


async def start_in_thread(world: World, *, bob: bool = True) -> simcord.ChannelHandle:  # type: ignore[name-defined]
    """alice (host), bob (unless not asked) and a computer open a one-round game of Basic
    rummy in its thread; the world's channel becomes the thread (where commands are typed)."""
    alice, other = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="basic", basic_rounds="1", thread="yes")
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    if bob:
        await other.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy computer", action="addbot")
    await alice.slash(world.channel, "rummy start")
    (thread,) = world.channel.threads
    record = (await world.table()).record
    assert record.thread_id == thread.id and thread.is_thread
    assert "alice" in (thread.name or "") and "Computer" in (thread.name or "")
    world.channel = thread
    return thread


async def until_computer(world: World, rng: random.Random) -> None:
    """People play until it is the computer's turn."""
    for _ in range(200):
        table = await world.table()
        game = table.require_game()
        assert game.phase in (Phase.DRAW, Phase.PLAY), f"the round ended first ({game.phase})"
        if table.is_computer(game.current):
            return
        await play_step(world, rng)
    pytest.fail("the computer never got a turn")


async def test_a_whole_game_in_its_thread_leaves_the_lobby_line_and_the_result_line(
    world: World,
) -> None:
    parent = world.channel
    thread = await start_in_thread(world)
    rng = random.Random(5)
    for _ in range(2000):
        table = await world.table()
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            break
        if table.is_computer(game.current):
            await computer_turn(world, game)
        else:
            await play_step(world, rng)
    else:
        pytest.fail("the game did not end")
    assert (await world.table()).record.status == "finished"
    lobby, result = bot_posts(world, parent)
    assert lobby.content.endswith(f"<#{thread.id}>") and not lobby.components
    assert f"/{world.guild.id}/{thread.id}" in result.content and "won" in result.content
    shown = bot_posts(world, thread)
    assert any(a.filename.startswith("round-") for m in shown for a in m.attachments)
    assert any(m.components and m.attachments for m in shown), "the final table"


async def test_a_thread_archived_during_a_turn_is_unarchived_and_the_move_shown(
    world: World,
) -> None:
    """A new message unarchives a thread, an edit does not: the draw that edits the table
    message of the turn meets the archived thread."""
    thread = await start_in_thread(world, bob=False)
    await until_computer(world, random.Random(2))
    await computer_turn(world, (await world.table()).require_game())
    table = await world.table()
    assert not table.is_computer(table.require_game().current)
    assert table.require_game().phase is Phase.DRAW
    # Discord archived the thread: the next edit in it is refused until it is unarchived
    world.env.backend.channels[thread.id].thread_metadata.archived = True
    world.env.inject_error(
        "PATCH", "/webhooks/*/messages/*", status=400, code=50083,
        message="Thread is archived",
    )  # fmt: skip
    since = len(world.env.http_requests)
    await world.players[0].slash(thread, "rummy draw")
    after = await world.table()
    assert after.require_game().phase is Phase.PLAY
    assert after.record.published == after.record.revision, "the draw is shown"
    unarchived = [
        r
        for r in world.env.http_requests[since:]
        if r.method == "PATCH" and r.path == f"/channels/{thread.id}"
    ]
    assert [r.json for r in unarchived] == [{"archived": False}]
    assert not world.env.backend.channels[thread.id].thread_metadata.archived


async def test_a_deleted_thread_closes_the_table_and_nothing_more_goes_into_it(
    world: World, store_url: str | Path
) -> None:
    parent = world.channel
    thread = await start_in_thread(world, bob=False)
    await until_computer(world, random.Random(4))
    game = (await world.table()).require_game()
    world.env.backend.delete_channel(thread.id)  # a moderator deletes the thread
    await world.env.advance_time(COMPUTER_DELAY + 1)  # the computer plays: the thread is gone
    closed = await world.table()
    assert closed.record.status == "cancelled" and closed.record.closed_reason == "channel_gone"
    assert await world.bot.store.get_deadlines(closed.id) == [], "nothing left to fire"
    assert closed.require_game().turn != game.turn or closed.require_game().current != game.current
    into = [r for r in world.env.http_requests if r.path.startswith(f"/channels/{thread.id}")]
    await world.env.advance_time(3600)  # every retry delay of a failed publication
    old = world.env.bot
    await world.env.restart_bot(make_bot(store_url))
    await old.close()
    await world.env.advance_time(60)
    assert [r for r in world.env.http_requests if r.path.startswith(f"/channels/{thread.id}")] == into
    _lobby, result = bot_posts(world, parent)
    assert "its thread was deleted" in result.content
    assert not world.env.errors


async def test_the_lobbys_settings_choose_a_thread_and_keep_it_when_another_option_changes(
    world: World,
) -> None:
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None and not table.wants_thread
    world.table_id = table.id
    (lobby,) = [m for m in bot_posts(world, world.channel) if m.components]
    settings = await alice.click(lobby, label="Settings")
    menu = f"rummy:{table.id}:0:setopt"
    await alice.select(settings.response, ["thread"], custom_id=menu)
    chosen = await alice.select(
        settings.response, ["yes"], custom_id=f"rummy:{table.id}:0:setval:thread"
    )
    assert chosen.acknowledged and "Thread per game is now yes." in settings.response.content
    (lobby,) = [m for m in bot_posts(world, world.channel) if m.components]
    assert "The game is played in a thread of its own" in lobby.content
    settings = await alice.click(lobby, label="Settings")
    await alice.select(settings.response, ["turn_timer"], custom_id=menu)
    await alice.select(
        settings.response, ["10"], custom_id=f"rummy:{table.id}:0:setval:turn_timer"
    )
    kept = await world.table()
    assert kept.wants_thread and kept.turn_timer == 10
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy start")
    (thread,) = world.channel.threads
    assert (await world.table()).record.thread_id == thread.id
    (line,) = bot_posts(world, world.channel)
    assert line.content.endswith(f"<#{thread.id}>") and not line.components


async def test_a_channel_that_refuses_threads_says_so_once_and_the_game_stays_there(
    world: World,
) -> None:
    world.env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages/*/threads", status=403, code=50013,
        message="Missing Permissions",
    )  # fmt: skip
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1", thread="yes")
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy start")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None and table.record.thread_id == 0 and not world.channel.threads
    said = [m for m in bot_posts(world, world.channel) if "Create Public Threads" in m.content]
    assert len(said) == 1
    world.table_id = table.id
    await play_step(world, random.Random(1))  # the game is played in the channel
    assert len([m for m in bot_posts(world, world.channel) if "Create Public" in m.content]) == 1
