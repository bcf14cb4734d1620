"""Computer players: seated from the lobby by the host, they play their turns by themselves a
moment after the previous move, their hands stay hidden, and their games are recorded unrated."""

from __future__ import annotations

import json
import random

from rummy_engine import Discard, Phase
from tests.discord.conftest import World, computer_turn, make_bot, play_step


async def open_with_computer(
    world: World, variant: str = "r51", strength: str = "normal"
) -> None:
    """The host adds a computer with the lobby's button, choosing its strength in the select
    the button answers with."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant=variant, mode="1v1")
    lobby = next(m for m in world.public_messages() if m.components)
    refused = await bob.click(lobby, label="Add computer")
    assert "Only the host" in refused.response.content
    asked = await alice.click(lobby, label="Add computer")
    assert asked.ephemeral and asked.response.content == "How well should the computer play?"
    added = await alice.select(asked.response, [strength])
    assert added.response.content == f"Computer 1 sits down ({strength})."
    lobby = next(m for m in world.public_messages() if m.components)
    assert f"🤖 Computer 1 ({strength})" in lobby.content
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None and [s.is_computer for s in table.seats] == [False, True]
    assert table.seats[1].strength == strength
    world.table_id = table.id
    await alice.slash(world.channel, "rummy start")


async def test_computer_plays_a_whole_game(world: World) -> None:
    await open_with_computer(world)
    rng = random.Random(4)
    for _ in range(2000):
        table = await world.table()
        world.check_privacy(table)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase in (Phase.DRAW, Phase.PLAY) and table.is_computer(game.current):
            await computer_turn(world, game)
        else:
            await play_step(world, rng)
    else:
        raise AssertionError("the game did not end")
    moves = await world.bot.store.list_moves(table.id)
    by_computer = [
        m for m in moves if m.actor_id is None and json.loads(m.action_json)["type"] == "discard"
    ]
    assert len(by_computer) > 5 and all(json.loads(m.action_json)["seat"] == 1 for m in by_computer)
    notices = [m.content for m in world.public_messages() if m.content.startswith("🔔")]
    assert all("Computer" not in n for n in notices), "no one pings a computer"
    record = await world.bot.store.get_game_record(table.id)
    assert record is not None and not record.rated


async def test_computer_turn_survives_a_restart(world: World, db_path) -> None:
    await open_with_computer(world)
    alice = world.players[0]
    table = await world.table()
    game = table.require_game()
    if table.is_computer(game.current):
        await world.env.advance_time(2)
        table = await world.table()
    game = table.require_game()
    assert game.current == 0
    if game.phase is Phase.DRAW:
        await alice.slash(world.channel, "rummy draw")
    card = (await world.table()).require_game().hands[0][0]
    old = world.env.bot
    # The discard is committed but the bot stops before arming the computer's turn.
    await world.bot.tables.act(table.id, alice.user.id, lambda g, seat: Discard(seat, card.face))
    assert (await world.table()).require_game().current == 1
    deadlines = await world.bot.store.get_deadlines(table.id)
    assert "computer" not in {d.kind for d in deadlines}
    await world.env.restart_bot(make_bot(db_path, computer_delay=1))
    await old.close()
    await world.env.advance_time(2)
    game = (await world.table()).require_game()
    assert game.current == 0, "the restored bot let the computer finish its turn"
