"""Replays through SimCord: the Replay button of a round summary and ``/rummy-stats replay`` answer
privately with the same GIF (with its alt text); a running round is refused in a sentence; the
step-through's ◀ ▶ edit their own message through the press (no bot-token call) and show a
hand only to a player of the game, their own; a new bot on the same database file replays a
round finished before the restart, byte for byte."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.app import RummyBot
from rummy_engine import Phase
from tests.discord.conftest import World, computer_turn, make_bot, play_step
from tests.discord.test_truth import crash_at

RUNNING = (
    "Round 2 of table {table} is still being played: its replay is drawn once the round is over."
)


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    return make_bot(db_path)


def round_summary(world: World, round_no: int) -> discord.Message:
    """The public message whose Replay shows round ``round_no`` (0: the final table's)."""
    return next(
        m
        for m in world.public_messages()
        for row in m.components
        for c in getattr(row, "children", [])
        if (getattr(c, "custom_id", None) or "").endswith(f":replay:{round_no}")
    )


async def play_until(world: World, done: Any) -> None:
    """alice and bob play (and the computer plays its turns) until ``done(game)``."""
    rng = random.Random(5)
    for _ in range(3000):
        table = await world.table()
        game = table.require_game()
        if done(game):
            return
        if table.is_computer(game.current) and game.phase in (Phase.DRAW, Phase.PLAY):
            await computer_turn(world, game)
        else:
            await play_step(world, rng)
    pytest.fail("the game did not get there")


async def open_basic(world: World, rounds: int) -> None:
    """alice (host) and bob play Basic rummy against a computer, ``rounds`` rounds."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="basic", basic_rounds=str(rounds))
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy computer", action="addbot", strength="normal")
    await alice.slash(world.channel, "rummy start")


async def gif_of(result: Any) -> tuple[bytes, discord.Attachment]:
    (attachment,) = result.response.attachments
    data = await attachment.read()
    return data, attachment


def frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return int(image.n_frames)


async def test_replay_button_and_command_give_the_same_gif_and_a_running_round_is_refused(
    world: World,
) -> None:
    carol = world.players[2]
    await open_basic(world, rounds=3)
    await play_until(world, lambda g: g.phase is Phase.ROUND_OVER and g.round_no == 1)
    await play_until(world, lambda g: g.round_no == 2 and g.phase is Phase.PLAY and g.turn > 2)
    table = await world.table()

    pressed = await carol.click(round_summary(world, 1), label="Replay")
    assert pressed.ephemeral, pressed.response.content
    data, attachment = await gif_of(pressed)
    assert data.startswith(b"GIF89a") and attachment.filename == f"replay-{table.id}-1.gif"
    count = frames(data)
    assert f"({count} frames)" in pressed.response.content
    alt = attachment.description or ""
    assert f"table #{table.id}" in alt and "round 1" in alt and f"in {count} frames" in alt
    assert "Totals:" in alt and len(alt) <= 1024

    typed = await carol.slash(world.channel, "rummy-stats replay", table=table.id, round=1)
    again, _ = await gif_of(typed)
    assert again == data, "the same log gives the same bytes"
    last = await carol.slash(world.channel, "rummy-stats replay")
    assert (await gif_of(last))[0] == data, "by default the last round over, of this channel"

    running = await carol.slash(world.channel, "rummy-stats replay", round=2)
    assert running.ephemeral and running.response.content == RUNNING.format(table=table.id)
    assert not running.response.attachments


async def step_through(world: World, who: Any, summary: discord.Message) -> list[Any]:
    """``who`` opens the step-through of ``summary``'s round and presses ▶ to its last frame:
    each frame's text and still (bytes, description), read as shown after each press."""
    gif = await who.click(summary, label="Replay")
    count = frames((await gif_of(gif))[0])
    step = await who.click(gif.response, label="Step through")
    assert step.ephemeral
    seen = []
    for index in range(count):
        if index:
            moved = await who.click(step.response, label="▶")
            assert moved.response.id == step.response.id, "the press edits its own message"
        content = step.response.content
        assert f"frame {index + 1} of {count}" in content
        (picture,) = step.response.attachments
        data = await picture.read()
        assert data.startswith(b"\x89PNG") and picture.description
        seen.append((content, data, picture.description))
    back = await who.click(step.response, label="◀")
    assert f"frame {count - 1} of {count}" in back.response.content
    return seen


async def test_step_through_edits_itself_and_shows_a_hand_only_to_its_player(
    world: World,
) -> None:
    alice, carol = world.players[0], world.players[2]
    await open_basic(world, rounds=2)
    await play_until(world, lambda g: g.phase is Phase.ROUND_OVER and g.round_no == 1)
    summary = round_summary(world, 1)

    calls = crash_at(world.bot, None)
    stranger = await step_through(world, carol, summary)
    assert calls == [], "the step-through uses the presses' own tokens only"
    player = await step_through(world, alice, summary)
    spectator = "You did not play this game: you see what the table showed, without any hand."
    for (theirs, still, alt), (mine, my_still, my_alt) in zip(stranger, player, strict=True):
        assert still == my_still and alt == my_alt, "every still is the table's public picture"
        assert "Your hand" not in theirs and theirs.endswith("\n" + spectator)
        assert spectator not in mine
        # the player's text is the stranger's, with their own hand of that moment instead
        assert theirs.removesuffix("\n" + spectator) == mine.split("\nYour hand then:")[0]
    hands = [m for m, _, _ in player if "Your hand then:" in m]
    assert len(hands) == len(player) - 1, "every frame but the round's end (hands shown there)"
    # each still's alt text names what it shows: the melds, or at the end the hands and totals
    assert all("Hands left" not in alt for _, _, alt in player[:-1])
    end = player[-1][2]
    assert "Hands left: alice:" in end and "Totals:" in end and "Melds on the table" not in end


async def test_a_new_bot_on_the_same_database_replays_a_round_finished_before(
    world: World, db_path: Path
) -> None:
    carol = world.players[2]
    await open_basic(world, rounds=2)
    await play_until(world, lambda g: g.phase is Phase.ROUND_OVER and g.round_no == 1)
    table = await world.table()
    before, _ = await gif_of(await carol.click(round_summary(world, 1), label="Replay"))

    old = world.env.bot
    await world.env.restart_bot(make_bot(db_path))
    await old.close()
    pressed = await carol.click(round_summary(world, 1), label="Replay")
    assert (await gif_of(pressed))[0] == before
    typed = await carol.slash(world.channel, "rummy-stats replay", table=table.id, round=1)
    assert (await gif_of(typed))[0] == before

    # the game goes on to its end: the final table's Replay shows the whole game
    await play_until(world, lambda g: g.phase is Phase.GAME_OVER)
    final = round_summary(world, 0)
    assert "Play again" in [c.label for row in final.components for c in row.children]
    whole = await carol.click(final, label="Replay")
    data, attachment = await gif_of(whole)
    count = frames(data)
    assert whole.response.content == (
        f"Replay of the whole game at table {table.id}: 2 rounds, {count} frames."
    )
    assert attachment.filename == f"replay-{table.id}-game.gif"
    assert f"2 rounds in {count} frames" in (attachment.description or "")
    first = frames(before)
    # round 1's frames open the game's replay (a taller canvas has felt below)
    with Image.open(io.BytesIO(data)) as image, Image.open(io.BytesIO(before)) as alone:
        for index in range(first):
            image.seek(index)
            alone.seek(index)
            shown = image.convert("RGB").crop((0, 0, *alone.size))
            assert shown.tobytes() == alone.convert("RGB").tobytes()
    # the game is over, so the channel has no open table: /rummy-stats replay asks which one
    unnamed = await carol.slash(world.channel, "rummy-stats replay")
    assert unnamed.ephemeral and unnamed.response.content == (
        "This channel has no open table: name the one to replay with the table option (its "
        "number is in the table's title)."
    )
    other = world.env.create_guild("Other Club")
    mallory = other.add_member(world.env.create_user("mallory"))
    away = await mallory.slash(other.create_text_channel("cards"), "rummy-stats replay", table=table.id)
    assert away.ephemeral and away.response.content == f"There is no table #{table.id}."
    named = await carol.slash(world.channel, "rummy-stats replay", table=table.id)
    assert (await gif_of(named))[1].filename == f"replay-{table.id}-2.gif", "its last round"
