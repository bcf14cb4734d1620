"""Coached practice (issue 40, item 2) through SimCord: at a table against a computer whose host
turned coaching on, a discard that throws away a go-out is questioned once (nothing played),
then played on "Discard anyway"; each of the person's turns ends with one note in their own
answer when one applies; an uncoached table neither asks nor notes; a table of two people (rated)
refuses the setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import RummyBot
from bot.text import t
from rummy_engine import Deal, Rules, Variant
from tests.discord.conftest import World, make_bot
from tests.engine.helpers import CardPool

#: Seconds a computer waits before its turn: longer than SimCord's settle window, so only the
#: test's clock plays its turn.
DELAY = 10
#: Basic rummy. alice (first to play) holds three nines, a club run and two hearts; she draws
#: 9♥, lays the nines, throws 9♥ (the computer may lay it off on her meld: a note). Next turn she
#: draws J♥ and could lay everything (J♥ Q♥ K♥, 2♣ 3♣ 4♣): her discard is questioned first.
ALICE = "9d 9s 9c 2c 3c 4c Kh Qh"
COMPUTER = "5h 7h Qs Jd 2s 10c 6d 8s"
STOCK_TOP = "9h Ad Jh Ac"


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    return make_bot(db_path, computer_delay=DELAY)


async def against_a_computer(world: World, *, coaching: bool) -> None:
    """A Basic 1v1 table of alice and a computer, coached if asked, dealt the hands above."""
    alice = world.players[0]
    await alice.slash(world.channel, "rummy new", variant="basic", mode="basic")
    await alice.slash(world.channel, "rummy computer", action="addbot")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    if coaching:
        await world.bot.tables.set_option(table.id, alice.user.id, "coaching", "on")
    pool = CardPool(Rules(Variant.BASIC, 2, (await world.table()).options))
    dealt = (tuple(pool.pull(ALICE)), tuple(pool.pull(COMPUTER)))
    top = pool.pull(STOCK_TOP)
    deal = Deal(dealt, tuple(pool.cards + top[::-1]), ())
    played = await world.bot.tables.start(table.id, alice.user.id, dealer=1, deal=deal)
    await world.bot.ui.committed(played, alice.user.id)


async def moves(world: World) -> int:
    return len(await world.bot.store.list_moves((await world.table()).id))


def buttons(message: Any) -> list[str]:
    """The labels of a private answer's buttons (SimCord's raw components)."""
    return [
        str(child.get("label", ""))
        for row in message.components
        for child in row.get("components", [])
    ]


async def computer_plays(world: World) -> None:
    turn = (await world.table()).require_game().turn
    await world.env.advance_time(DELAY + 1)
    assert (await world.table()).require_game().turn != turn


async def first_turn(world: World) -> str:
    """alice's first turn (draw 9♥, lay the nines, throw 9♥), then the computer's; her answer
    to the discard."""
    alice = world.players[0]
    await alice.slash(world.channel, "rummy draw")
    await alice.slash(world.channel, "rummy lay", melds="9d 9s 9c")
    first = await alice.slash(world.channel, "rummy discard", card="9h")
    await computer_plays(world)
    await alice.slash(world.channel, "rummy draw")
    hand = [c.text for c in (await world.table()).require_game().hands[0]]
    assert sorted(hand) == sorted(["2c", "3c", "4c", "Kh", "Qh", "Jh"]), hand
    return str(first.response.content)


async def test_a_coached_game_notes_each_turn_and_asks_once_before_a_thrown_go_out(
    world: World,
) -> None:
    await against_a_computer(world, coaching=True)
    alice = world.players[0]
    noted = await first_turn(world)
    assert noted.endswith(
        "\nCoach: Computer 1 can take your 9♥ from the pile and lay it off on meld 1."
    ), noted

    before = await moves(world)
    asked = await alice.slash(world.channel, "rummy discard", card="Qh")
    question = asked.response
    assert "You can go out this turn — discard Q♥ anyway?" in question.content, question.content
    assert await moves(world) == before, "nothing is played before the answer"
    assert "Discard Q♥ anyway" in buttons(question)

    back = await alice.click(question, label="Back to my hand")
    assert await moves(world) == before, "back to the hand plays nothing"
    assert "You can go out" not in back.response.content
    assert "Discard Q♥ anyway" not in buttons(back.response)

    again = await alice.slash(world.channel, "rummy discard", card="Qh")
    assert await moves(world) == before + 1, "asked once a turn: the second discard is played"
    note = again.response.content
    assert note.endswith(
        "\nCoach: you could have gone out this turn: lay J♥ Q♥ K♥ | 2♣ 3♣ 4♣."
    ), note


async def test_discard_anyway_plays_the_questioned_discard(world: World) -> None:
    """The panel's own Discard is questioned the same way, in the panel; the answer plays it."""
    await against_a_computer(world, coaching=True)
    alice = world.players[0]
    await first_turn(world)
    panel = (await alice.slash(world.channel, "rummy hand")).response
    hand = (await world.table()).view(0).hand
    index = next(i for i, card in enumerate(hand) if card.face.text == "Qh")
    await alice.select(panel, [f"{index}:Qh"])
    before = await moves(world)
    asked = await alice.click(panel, label="Discard")
    assert await moves(world) == before, "nothing is played before the answer"
    assert "You can go out this turn — discard Q♥ anyway?" in asked.response.content
    confirmed = await alice.click(asked.response, label="Discard Q♥ anyway")
    assert await moves(world) == before + 1, "the second press plays the discard"
    game = (await world.table()).require_game()
    assert game.discard[-1].face.text == "Qh" and game.current == 1
    assert "Coach: you could have gone out this turn" in confirmed.response.content


async def test_an_uncoached_table_neither_asks_nor_notes(world: World) -> None:
    await against_a_computer(world, coaching=False)
    alice = world.players[0]
    assert not (await world.table()).settings.coaching, "off unless the host turns it on"
    noted = await first_turn(world)
    assert "Coach" not in noted
    before = await moves(world)
    played = await alice.slash(world.channel, "rummy discard", card="Qh")
    assert await moves(world) == before + 1, "played at once"
    assert "Coach" not in played.response.content and "go out" not in played.response.content


def said(result: Any) -> str:
    """Everything a press answered, privately or by editing its message."""
    answers = [*([result.response] if result.response else []), *result.followups]
    return "\n".join(str(a.content) for a in answers)


async def test_coaching_is_refused_at_a_table_that_would_be_rated(world: World) -> None:
    """The lobby's Settings offer Coaching; between two people (a rated table) it is refused in
    a sentence, and allowed once a computer sits instead."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="basic", mode="basic")
    await bob.slash(world.channel, "rummy join")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    lobby = next(m for m in world.public_messages() if m.components)
    settings = await alice.click(lobby, label="Settings")
    await alice.select(settings.response, ["coaching"])
    refused = await alice.select(settings.response, ["on"])
    assert t("coaching.rated") in said(refused), said(refused)
    assert t("coaching.rated").startswith("Coaching is for unrated tables only")
    assert not (await world.table()).settings.coaching

    await alice.slash(world.channel, "rummy computer", action="addbot")
    await bob.slash(world.channel, "rummy leave")
    lobby = next(m for m in reversed(world.public_messages()) if m.components)
    settings = await alice.click(lobby, label="Settings")
    await alice.select(settings.response, ["coaching"])
    await alice.select(settings.response, ["on"])
    assert (await world.table()).settings.coaching, "allowed once a computer is seated"


async def test_the_go_out_question_is_not_asked_again_after_a_restart(
    world: World, db_path: Path
) -> None:
    """Asked, the bot restarts, the same discard again: played, with the turn's note."""
    await against_a_computer(world, coaching=True)
    alice = world.players[0]
    await first_turn(world)
    before = await moves(world)
    asked = await alice.slash(world.channel, "rummy discard", card="Qh")
    assert "You can go out this turn" in asked.response.content
    old = world.env.bot
    await world.env.restart_bot(make_bot(db_path, computer_delay=DELAY))
    await old.close()
    again = await alice.slash(world.channel, "rummy discard", card="Qh")
    assert "You can go out this turn" not in again.response.content
    assert await moves(world) == before + 1, "asked once a turn, across a restart"
    assert "Coach: you could have gone out this turn" in again.response.content
