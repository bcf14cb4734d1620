"""Faults Discord really produces, each at an exact step of a move, through the loopback
emulator's chaos plan (``tests/discord_emulator/chaos.py``) and the real discord.py client.

Each test checks what players see afterwards with the suite's invariant (the channel shows the
stored table, one turn notice naming the player to act, nothing private with public buttons),
and what the mover was told: never that nothing happened when their move was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.features.play.ui.reconciler import RETRY_DELAYS
from rummy_engine import Game, Phase
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.chaos import Chaos, Fault
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator

CALLBACK = "/interactions/*/callback"
FOLLOW_UP = "/webhooks/*/*"


def live_tables(emu: DiscordEmulator, table_id: int) -> list[StoredMessage]:
    """Public messages with a live button of the table (its message, copies of it)."""
    return [
        m
        for m in emu.public_messages()
        if any(f":{table_id}:" in cid for cid in m.custom_ids(enabled_only=True))
    ]


def notices(emu: DiscordEmulator) -> list[StoredMessage]:
    return [m for m in emu.public_messages() if m.content.startswith("🔔")]


async def dealt(
    emu: DiscordEmulator, bot: RummyBot, alice: EmuUser, bob: EmuUser, channel: EmuChannel
) -> tuple[int, dict[int, EmuUser]]:
    """A Rummy 51 table of Alice and Bob, dealt and published; its id and its seats' users."""
    await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
    await (await emu.slash(bob, channel, "rummy join")).followups(1)
    await (await emu.slash(alice, channel, "rummy start")).followups(1)
    table = await bot.tables.in_channel(channel.guild_id, channel.id)
    assert table is not None
    await emu.wait_until(lambda: len(notices(emu)) == 1, what="the first deal published")
    seats = {s.seat: {alice.id: alice, bob.id: bob}[s.user_id] for s in table.seats if s.user_id}
    return table.id, seats


@dataclass
class Dealt:
    """A dealt Rummy 51 table of Alice and Bob, published, the bot running on it."""

    emu: DiscordEmulator
    bot: RummyBot
    channel: EmuChannel
    table_id: int
    seats: dict[int, EmuUser]

    async def game(self) -> Game:
        return (await self.bot.tables.load(self.table_id)).require_game()

    async def discard(self) -> None:
        """The player to act discards (the first turn of a Rummy 51 deal needs no draw)."""
        game = await self.game()
        card = a_single_card(game)
        await (await self.emu.slash(self.seats[game.current], self.channel, "rummy discard", card=card)).answer()
        await settled(self.emu)


@contextlib.asynccontextmanager
async def a_dealt_table(tmp_path: Path) -> AsyncIterator[Dealt]:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            table_id, seats = await dealt(emu, bot, alice, bob, channel)
            yield Dealt(emu, bot, channel, table_id, seats)


def a_single_card(game: Game) -> str:
    hand = Counter(c.text for c in game.hands[game.current])
    return next(text for text, n in hand.items() if n == 1 and text != "JK")


async def settled(emu: DiscordEmulator) -> None:
    """The suite's invariant, now: the channel reaches the stored table (or the test fails)."""
    assert emu.step_check is not None
    await emu.step_check.check()


async def test_a_callback_carried_out_but_answered_500_still_publishes_the_move(
    tmp_path: Path,
) -> None:
    """Discord applies the typed move's answer but answers 500; discord.py sends it again and
    hears 400 / 40060 (already acknowledged). The move was stored and answered: the table must
    show the next player to act, and nobody is pinged twice."""
    async with a_dealt_table(tmp_path) as table:
        emu, game = table.emu, await table.game()
        mover, other = table.seats[game.current], table.seats[1 - game.current]
        emu.chaos = Chaos()
        emu.chaos.add(Fault.E500, "POST", CALLBACK, times=1, carried_out=True)
        handle = await emu.slash(mover, table.channel, "rummy discard", card=a_single_card(game))
        answer = await handle.response()
        assert answer is not None and "Your hand" in answer.content
        await settled(emu)
        assert [r.fault for r in emu.requests if r.fault] == ["500 carried out"]
        (notice,) = notices(emu)
        assert f"<@{other.id}>" in notice.content
        assert not emu.bot_errors


async def press_draw(table: Dealt, chaos: Chaos) -> list[StoredMessage]:
    """After the first discard, the next player presses Draw on the table while ``chaos``
    plays; the stored draw is checked; the private answers the press got."""
    await table.discard()
    game = await table.game()
    assert game.phase is Phase.DRAW
    (message,) = live_tables(table.emu, table.table_id)
    draw = next(c for c in message.custom_ids(enabled_only=True) if c.endswith(":draw"))
    table.emu.chaos = chaos
    handle = await table.emu.click(table.seats[game.current], message, draw)
    await handle.followups(1, timeout=10)
    stored = await table.game()
    assert stored.phase is Phase.PLAY and stored.current == game.current
    await settled(table.emu)
    return [m for m in await handle.followups(1) if m.ephemeral]


async def test_a_follow_up_that_hangs_and_drops_still_publishes_and_shows_the_hand(
    tmp_path: Path,
) -> None:
    """Draw pressed on the table: the private follow-up with the new hand hangs, then its
    connection drops. The draw is stored: the table shows it, and the mover gets their hand
    (sent once more), never a sentence saying nothing changed."""
    async with a_dealt_table(tmp_path) as table:
        chaos = Chaos()
        chaos.add(Fault.TIMEOUT, "POST", FOLLOW_UP, times=1, hang=0.3)
        (answer,) = await press_draw(table, chaos)
        assert answer.ephemeral and "Your hand" in answer.content, answer.content
        assert chaos.injected == Counter({"timeout": 1})
        assert not table.emu.bot_errors


async def test_an_answer_that_fails_twice_says_the_move_is_saved(tmp_path: Path) -> None:
    """The hand's follow-up and its second try both drop: the table still shows the draw, and
    the mover reads that it is saved, never that nothing changed."""
    async with a_dealt_table(tmp_path) as table:
        chaos = Chaos()
        chaos.add(Fault.TIMEOUT, "POST", FOLLOW_UP, times=2, hang=0.2)
        (answer,) = await press_draw(table, chaos)
        assert answer.ephemeral and answer.content.startswith("It is done and saved"), answer
        assert not table.emu.bot_errors  # Discord's failure is a warning, not a bug's traceback


async def test_a_follow_up_created_but_answered_504_leaves_one_live_table(
    tmp_path: Path,
) -> None:
    """After a discard the table is posted anew as a follow-up; Discord creates it but answers
    504, and a client that sent it again would leave two tables with live buttons. One table
    message and one turn notice stay live."""
    async with a_dealt_table(tmp_path) as table:
        emu, game = table.emu, await table.game()
        other = table.seats[1 - game.current]
        emu.chaos = Chaos()
        emu.chaos.add(Fault.E504, "POST", FOLLOW_UP, times=1, carried_out=True)
        await table.discard()
        assert [r.fault for r in emu.requests if r.fault] == ["504 carried out"]
        assert len(live_tables(emu, table.table_id)) == 1
        (notice,) = notices(emu)
        assert f"<@{other.id}>" in notice.content
        assert not emu.bot_errors


@pytest.mark.parametrize("look", [Fault.E503, Fault.TIMEOUT])
async def test_a_follow_up_made_but_failed_whose_look_fails_too_leaves_one_live_table(
    tmp_path: Path, look: Fault
) -> None:
    """The new table, posted as a follow-up, is made but answered 502, and the look at the
    channel for it fails too (a 503, a dropped connection): the pass is tried again a few
    seconds later, adopts the follow-up, and the channel shows one live table and one notice
    (posting blind left the follow-up live beside a second table, seen in the chaos run)."""
    async with a_dealt_table(tmp_path) as table:
        emu, game = table.emu, await table.game()
        emu.chaos = Chaos()
        emu.chaos.add(Fault.E502, "POST", FOLLOW_UP, times=1, carried_out=True)
        emu.chaos.add(look, "GET", "/channels/*/messages", times=1)
        card = a_single_card(game)
        mover = table.seats[game.current]
        await (await emu.slash(mover, table.channel, "rummy discard", card=card)).answer()
        await asyncio.sleep(RETRY_DELAYS[0] + 2)  # the pass tried again
        assert [r.fault for r in emu.requests if r.fault] == ["502 carried out", look.value]
        await settled(emu)
        assert len(live_tables(emu, table.table_id)) == 1
        assert len(notices(emu)) == 1


async def test_a_login_discord_answers_503_is_tried_again(tmp_path: Path) -> None:
    """A start that meets Discord failing for a moment (its login answered 503 twice, which
    discord.py does not retry) waits for it and serves, instead of exiting (seen after a kill
    in the short chaos run)."""
    async with emulated_discord() as emu:
        alice, _, channel = emu.two_players()
        emu.chaos = Chaos()
        emu.chaos.add(Fault.E503, "GET", "/users/@me", times=2)
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            opened = await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
            assert opened[0].content.startswith("Your table is open")
        assert [r.fault for r in emu.requests if r.fault] == ["503", "503"]
