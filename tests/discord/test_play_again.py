"""Play again through SimCord: the final table's button opens the next lobby once, in the same
channel with the same settings and computer seats; the last game's players are named in it and
sit down only when they press Join; a stranger is refused; the button works after a restart.
The whole-game test runs on both stores."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import discord
import pytest

from bot.app import RummyBot
from bot.services.refusal import Refusal
from tests.discord.conftest import World, has_table_buttons, make_bot, play_to_end
from tests.discord.test_truth import crash_at

NOT_PLAYED = (
    "Only the players of this game can open the next one; to play, open your own table with "
    "/rummy new."
)
OPENED = (
    "A new lobby with the same settings is open in this channel; you are seated. The other "
    "players are offered their seats."
)


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


def table_message(world: World, table_id: int) -> discord.Message:
    """The message the table's ref names (the lobby, then the table, then the final table);
    round summaries, which keep a Review my round button, aside."""
    prefix = f"rummy:{table_id}:"
    return next(
        m
        for m in reversed(world.public_messages())
        if has_table_buttons(m)
        for row in m.components
        for c in getattr(row, "children", [])
        if (getattr(c, "custom_id", None) or "").startswith(prefix)
    )


async def finish_game(world: World) -> None:
    """alice (host), bob and a strong computer play a one-round game of Basic rummy to its end,
    every human move typed by the player whose turn it is."""
    alice, bob = world.players[:2]
    await alice.slash(
        world.channel, "rummy new", variant="basic", basic_rounds="1", turn_timer="5", language="fr"
    )
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy computer", action="addbot", strength="strong")
    await alice.slash(world.channel, "rummy start")
    await play_to_end(world, random.Random(3))
    assert (await world.table()).record.status == "finished"


async def test_play_again_after_a_restart_reopens_the_same_table_and_seats_only_who_join(
    world: World, store_url: str | Path
) -> None:
    alice, bob, carol = world.players[:3]
    await finish_game(world)
    old = await world.table()
    final = table_message(world, old.id)
    old_bot = world.env.bot
    await world.env.restart_bot(make_bot(store_url))
    await old_bot.close()
    before = len(world.public_messages())
    calls = crash_at(world.bot, None)  # bot-token REST calls, counted (none made to fail)

    stranger = await carol.click(final, label="Rejouer")
    assert stranger.ephemeral and stranger.response.content == NOT_PLAYED
    assert await world.bot.tables.in_channel(world.guild.id, world.channel.id) is None

    pressed = await bob.click(final, label="Rejouer")
    assert pressed.ephemeral and pressed.response.content == OPENED
    new = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert new is not None and new.id != old.id and new.is_lobby
    kept = ("guild_id", "channel_id", "variant", "mode", "options_json", "locale")
    assert {k: getattr(new.record, k) for k in kept} == {k: getattr(old.record, k) for k in kept}
    assert json.loads(new.record.options_json) == {"basic_rounds": 1, "turn_timer": 5}
    computers = [(s.name, s.strength) for s in new.seats if s.is_computer]
    assert computers == [(s.name, s.strength) for s in old.seats if s.is_computer]
    assert [s.user_id for s in new.seats if not s.is_computer] == [bob.user.id]
    assert new.record.host_id == bob.user.id
    # one click, one new message: the lobby, naming alice once; she is not seated for her
    lobby = world.public_messages()[before:]
    assert len(lobby) == 1, [m.content for m in lobby]
    assert calls == [], "the lobby is the press's public follow-up: no bot-token call"
    assert f"<@{alice.user.id}> : votre place est gardée jusqu’à <t:" in lobby[0].content
    assert new.seat_of(alice.user.id) is None

    again = await alice.click(final, label="Rejouer")
    assert again.ephemeral and "already open" in again.response.content
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby[0].id}"
    assert link in again.response.content
    assert len(world.public_messages()) == before + 1 and calls == []
    active = await world.bot.store.list_active_tables(world.guild.id)
    assert [r.id for r in active] == [new.id]

    joined = await alice.click(lobby[0], label="Rejoindre")
    assert joined.response.content == "You are seated."
    seated = await world.bot.tables.load(new.id)
    assert {s.user_id for s in seated.seats if not s.is_computer} == {alice.user.id, bob.user.id}
    assert "gardée" not in table_message(world, new.id).content
    started = await bob.slash(world.channel, "rummy start")
    assert started.acknowledged
    game = (await world.bot.tables.load(new.id)).require_game()
    assert game.rules.options == old.options and game.rules.players == 3


async def test_kept_seats_refuse_strangers_and_a_double_press_opens_one_lobby(
    world: World,
) -> None:
    """1v1: bob forfeits, alice's two presses at once open one lobby; its free seat is kept
    for bob (carol is told so) until he presses Join."""
    alice, bob, carol = world.players[:3]
    await world.open_table("simple", "1v1", 2)
    await bob.slash(world.channel, "rummy leave")
    old = await world.table()
    assert old.record.status == "finished"
    tables = world.bot.tables
    both = await asyncio.gather(
        tables.play_again(old.id, alice.user.id, name="alice"),
        tables.play_again(old.id, alice.user.id, name="alice"),
        return_exceptions=True,
    )
    opened = [r for r in both if not isinstance(r, BaseException)]
    refused = [r for r in both if isinstance(r, Refusal)]
    assert len(opened) == 1 and len(refused) == 1 and refused[0].code == "again.exists_unposted"
    assert [r.id for r in await world.bot.store.list_active_tables(world.guild.id)] == [
        opened[0].id
    ]
    await world.bot.ui.committed(opened[0], alice.user.id)
    lobby = table_message(world, opened[0].id)

    taken = await carol.click(lobby, label="Join")
    assert taken.ephemeral and "kept for the players of the last game" in taken.response.content
    assert f"<@{bob.user.id}>" in taken.response.content
    joined = await bob.click(lobby, label="Join")
    assert joined.response.content == "You are seated."
    seated = await tables.load(opened[0].id)
    assert [s.user_id for s in seated.seats] == [alice.user.id, bob.user.id]
    await alice.slash(world.channel, "rummy cancel")
    late = await bob.click(table_message(world, old.id), label="Play again")
    assert late.ephemeral and late.response.content.startswith(
        f"Play again was already used for this game (table #{opened[0].id})"
    )
    assert await tables.in_channel(world.guild.id, world.channel.id) is None


async def test_a_2v2_play_again_keeps_the_teams_and_the_free_seat_for_its_player(
    world: World,
) -> None:
    """bob (team B) forfeits and presses Play again: he sits on team B again, each computer on
    its team; the one free seat is alice's, so carol's Join is refused until alice takes it."""
    alice, bob, carol = world.players[:3]
    await alice.slash(world.channel, "rummy new", variant="simple", mode="2v2")
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    await bob.slash(world.channel, "rummy join", team=1)
    await alice.slash(world.channel, "rummy computer", action="addbot", team=0, strength="easy")
    await alice.slash(world.channel, "rummy computer", action="addbot", team=1)
    await alice.slash(world.channel, "rummy start")
    await bob.slash(world.channel, "rummy leave")
    old = await world.table()
    assert old.record.status == "finished"
    pressed = await bob.click(table_message(world, old.id), label="Play again")
    assert pressed.response.content == OPENED
    new = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert new is not None
    by_seat = lambda table: {s.seat: (s.user_id, s.team, s.strength) for s in table.seats}  # noqa: E731
    assert by_seat(new) == {k: v for k, v in by_seat(old).items() if v[0] != alice.user.id}
    lobby = table_message(world, new.id)
    refused = await carol.click(lobby, label="Join team A")
    assert "kept for the players of the last game" in refused.response.content
    assert (await alice.click(lobby, label="Join team A")).response.content == "You are seated."
    assert by_seat(await world.bot.tables.load(new.id)) == by_seat(old)
