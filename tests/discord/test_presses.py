"""Presses on the table message: Start (answered privately; the channel's table message still
becomes the game), Next round (the table shows the new round, the presser gets no private
word), and a lobby button pressed once the game is running changes nothing."""

from __future__ import annotations

import discord
import pytest

from bot.text import t
from rummy_engine import Phase
from tests.discord.conftest import World
from tests.discord.test_play_flow import scripted

LOBBY_LABELS = {"Join", "Join team A", "Join team B", "Leave", "Start", "Settings", "Cancel"}


def labels(message: discord.Message) -> set[str]:
    return {c.label for row in message.components for c in row.children if c.label}


def now(world: World, message: discord.Message) -> discord.Message:
    """The message as the channel shows it now."""
    (found,) = [m for m in world.public_messages() if m.id == message.id]
    return found


async def lobby_of_two(world: World) -> discord.Message:
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    await bob.slash(world.channel, "rummy join")
    (lobby,) = [m for m in world.public_messages() if m.components]
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    return lobby


async def test_start_pressed_on_the_lobby_turns_the_lobby_into_the_table(world: World) -> None:
    alice = world.players[0]
    lobby = await lobby_of_two(world)
    started = await alice.click(lobby, label="Start")
    assert started.ephemeral and started.response.content == t("lobby.started")
    assert not started.response.components and not started.response.attachments
    table = now(world, lobby)
    assert not labels(table) & LOBBY_LABELS, labels(table)
    assert {"Draw", "Show my hand"} <= labels(table)
    assert table.attachments and table.attachments[0].filename.startswith("table-")
    assert "to play" in table.content


async def test_next_round_pressed_on_the_table_shows_round_two_in_the_channel(
    world: World,
) -> None:
    await scripted(
        world, "basic", "basic", ["2c 3c 4c 5c 9d 9h 9s", "5h 6h 7h Qs Qd Kc 2s"], dealer=1
    )
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy draw")
    await alice.slash(world.channel, "rummy lay", melds="2c 3c 4c 5c | 9d 9h 9s")
    game = (await world.table()).require_game()
    if game.phase is not Phase.ROUND_OVER:
        await alice.slash(world.channel, "rummy discard", card=game.hands[0][0].text)
    assert (await world.table()).require_game().phase is Phase.ROUND_OVER
    (table_message,) = [m for m in world.public_messages() if "Next round" in labels(m)]
    pressed = await alice.click(table_message, label="Next round")
    # the press is an update of the table: nothing private of its own, the table says it all
    assert pressed.response is None and not any(m.ephemeral for m in pressed.followups)
    # round two's table is posted anew at the bottom of the channel, the old one deleted
    (shown,) = [m for m in world.public_messages() if "Draw" in labels(m)]
    assert "Next round" not in labels(shown) and {"Draw", "Show my hand"} <= labels(shown)
    assert shown.id != table_message.id and not any(
        m.id == table_message.id for m in world.public_messages()
    )
    game = (await world.table()).require_game()
    assert game.round_no == 2 and game.phase is Phase.DRAW
    assert bob  # both players stay seated


@pytest.mark.simcord(settle_timeout=1.0)  # a press settles before the retry, 5 s later
async def test_a_stale_lobby_button_never_touches_the_running_game(world: World) -> None:
    """Discord refused the lobby's edit for now: its buttons still show, and are refused."""
    alice, bob = world.players[:2]
    lobby = await lobby_of_two(world)
    for path in (f"/channels/{world.channel.id}/messages/{lobby.id}", "/webhooks/*/messages/*"):
        world.env.inject_error("PATCH", path, status=500)
    await alice.click(lobby, label="Start")
    stale = now(world, lobby)
    assert "Leave" in labels(stale), "the test needs the lobby still showing"
    version = (await world.table()).record.version
    for who, label in ((bob, "Leave"), (bob, "Join"), (alice, "Start"), (alice, "Cancel")):
        refused = await who.click(stale, label=label)
        answer = (refused.followups or [refused.response])[-1].content
        assert answer == t("button.lobby_started"), (label, answer)
    table = await world.table()
    assert table.record.status == "active" and table.record.version == version
    assert {s.user_id for s in table.seats} == {alice.user.id, bob.user.id}
    await world.env.advance_time(60)
    assert not labels(now(world, lobby)) & LOBBY_LABELS
