"""A table message someone else deleted is posted again at once: a moderator's deletion while
the bot runs (the gateway's MESSAGE_DELETE), one made while the bot was down (the start-up
look); and the stale-notice sweep of a first pass after a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot.features.play.ui.reconciler import TABLE, TURN
from rummy_engine import Discard, Draw, parse_face
from tests.discord.conftest import World, make_bot
from tests.discord.test_play_flow import R51_HANDS, scripted
from tests.discord.test_truth import crash_at, live_buttons, notices


def moderator(world: World) -> simcord.MemberActor:  # type: ignore[name-defined]
    """A member whose role may delete others' messages (Manage Messages)."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    return world.guild.add_member(world.env.create_user("mod"), roles=[role])


async def recorded(world: World, kind: str) -> int:
    assert world.table_id is not None
    refs = {r.kind: r for r in await world.bot.store.get_message_refs(world.table_id)}
    return refs[kind].message_id


async def a_game_under_way(world: World) -> Any:
    """A game at bob's turn, its messages posted by alice's discard; returns bob."""
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy discard", card="3c")
    return bob


async def test_a_table_message_a_moderator_deletes_is_posted_again_at_once(world: World) -> None:
    bob = await a_game_under_way(world)
    version = (await world.table()).record.version
    (shown,) = live_buttons(world)
    assert await recorded(world, TABLE) == shown.id
    await moderator(world).delete(shown)

    # no move: the deletion alone brings a new table message, recorded, the only live one
    (again,) = live_buttons(world)
    assert again.id != shown.id
    assert again.content == shown.content
    assert await recorded(world, TABLE) == again.id
    assert (await world.table()).record.version == version
    (notice,) = notices(world)
    assert f"<@{bob.user.id}>" in notice.content
    # and the game goes on from it
    drawn = await bob.click(again, label="Draw")
    assert drawn.acknowledged
    assert len(live_buttons(world)) == 1


async def test_a_deleted_turn_notice_is_posted_again_without_a_second_ping(world: World) -> None:
    await a_game_under_way(world)
    (notice,) = notices(world)
    assert await recorded(world, TURN) == notice.id
    world.env.http_requests.clear()
    await moderator(world).delete(notice)

    (again,) = notices(world)
    assert again.id != notice.id and again.content == notice.content
    assert await recorded(world, TURN) == again.id
    posts = [r for r in world.env.http_requests if r.method == "POST" and r.json]
    (post,) = [r for r in posts if r.json.get("content") == notice.content]
    assert not post.json["allowed_mentions"].get("users"), "bob was pinged for this turn already"
    assert len(live_buttons(world)) == 1


async def test_a_table_message_deleted_while_the_bot_was_down_is_posted_at_start_up(
    world: World, db_path: Path
) -> None:
    await a_game_under_way(world)
    version = (await world.table()).record.version
    (shown,) = live_buttons(world)
    old = world.env.bot
    old.crashed = True  # down: it hears nothing, shows nothing
    old._connection.parsers["MESSAGE_DELETE"] = lambda data: None
    await moderator(world).delete(shown)
    assert not live_buttons(world)

    await world.env.restart_bot(make_bot(db_path))
    await old.close()
    # before any move
    (again,) = live_buttons(world)
    assert again.content == shown.content
    assert await recorded(world, TABLE) == again.id
    assert (await world.table()).record.version == version
    assert len(notices(world)) == 1


async def test_deleting_another_message_costs_no_call(world: World) -> None:
    await a_game_under_way(world)
    alice = world.players[0]
    said = await alice.send(world.channel, "nice one")
    seen = crash_at(world.bot, None, tokens=True)
    await moderator(world).delete(said)
    await alice.send(world.channel, "oops")
    assert seen == []
    assert len(live_buttons(world)) == 1 and len(notices(world)) == 1


async def test_a_first_pass_after_a_crash_sweeps_a_past_turns_notice(
    world: World, db_path: Path
) -> None:
    """The killed process posted bob's notice and died before recording it; while it was down
    the game moved on to alice's turn; the restarted bot's first pass cannot adopt bob's notice
    (it is not this turn's) and deletes it: one notice remains, alice's."""
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    old = world.env.bot
    seen = crash_at(old, 5, tokens=True)  # killed before the mover's hand DM, notice posted
    await alice.slash(world.channel, "rummy discard", card="3c")
    assert len(seen) == 5
    (stray,) = notices(world)
    assert f"<@{bob.user.id}>" in stray.content
    assert world.table_id is not None
    assert stray.id not in {r.message_id for r in await old.store.get_message_refs(world.table_id)}
    # the turn moves on before any pass of the restarted bot: bob draws and discards
    await old.tables.act(world.table_id, bob.user.id, lambda game, seat: Draw(seat))
    await old.tables.act(world.table_id, bob.user.id, lambda g, s: Discard(s, parse_face("2s")))

    await world.env.restart_bot(make_bot(db_path))
    await old.close()
    (notice,) = notices(world)
    assert notice.id != stray.id
    assert f"<@{alice.user.id}>" in notice.content and f"<@{bob.user.id}>" not in notice.content
    assert await recorded(world, TURN) == notice.id
    (table_message,) = live_buttons(world)
    assert f"<@{alice.user.id}> to play: draw a card." in table_message.content


async def test_a_deletion_during_a_moves_publication_leaves_one_table_message(
    world: World,
) -> None:
    """A moderator deletes the table message while a discard's pass is posting its successor:
    the pass goes on, and the deletion's own pass finds the new message shown; one table
    message, recorded, one notice."""
    bob = await a_game_under_way(world)
    (shown,) = live_buttons(world)
    reconciler = world.bot.reconciler
    follow_up = reconciler._follow_up
    moderated: list[int] = []

    async def deleted_meanwhile(*args: Any, **kwargs: Any) -> int | None:
        if not moderated:  # the table's follow-up, about to be posted
            moderated.append(shown.id)
            world.env.backend.delete_message(world.channel.id, shown.id)  # the gateway tells
        return await follow_up(*args, **kwargs)

    await bob.slash(world.channel, "rummy draw")
    reconciler._follow_up = deleted_meanwhile  # type: ignore[method-assign]
    await bob.slash(world.channel, "rummy discard", card="2s")
    reconciler._follow_up = follow_up  # type: ignore[method-assign]
    assert moderated == [shown.id]

    (table_message,) = live_buttons(world)
    assert table_message.id != shown.id
    assert await recorded(world, TABLE) == table_message.id
    (notice,) = notices(world)
    assert await recorded(world, TURN) == notice.id
