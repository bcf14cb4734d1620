"""The database goes away while a table plays, through the real client (SimCord).

On a real filesystem that fills up or that the kernel remounts read-only (an ext4 image, see
tests/helpers/disk.py), and on a PostgreSQL server of the test's own that stops: a press during
the outage is refused in one sentence and changes nothing (what the channel shows is checked
against the store after every step, by the world's watch), reading one's hand goes on where the
database still reads, the log says it once, and play goes on by itself when the database is
back: no restart, and a computer's turn that fell due meanwhile is played then.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import RummyBot
from bot.text import t
from tests.discord.conftest import World, make_bot
from tests.discord.test_computer_tables import DELAY, open_lobby, table_message
from tests.helpers.disk import LoopDisk, loop_disk

OUTAGE_LOG = "bot.storage.outage"


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[LoopDisk]:
    with loop_disk(tmp_path) as made:
        yield made


@pytest.fixture
def simcord_bot(disk: LoopDisk) -> RummyBot:
    return make_bot(disk.mount / "rummy.db", computer_delay=DELAY)


def answer_of(result: Any) -> str:
    """What the player alone was told (a deferred answer comes as a follow-up; the public
    follow-ups are the table's)."""
    private = [m for m in (result.response, *result.followups) if m and m.flags.ephemeral]
    return "\n".join(str(m.content) for m in private)


def log_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every warning or error the bot logged, as the operator reads them."""
    return [
        f"{r.levelname} {r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.WARNING
    ]


async def discard(world: World, player: Any, card: str) -> Any:
    return await player.slash(world.channel, "rummy discard", card=card)


async def refused_then_played(
    world: World,
    caplog: pytest.LogCaptureFixture,
    *,
    outage: Any,
    back: Any,
    lost_cache: bool = False,
    reads: bool = True,
) -> list[str]:
    """The dealer discards; during ``outage`` the other player presses Draw on the table twice
    and the dealer presses Show my hand; after ``back`` Draw is pressed again, and the dealer's
    next turn follows. Returns what the player pressing Draw read, in order."""
    await world.open_table("r51", "1v1", 2)
    table = await world.table()
    game = table.require_game()
    dealer = world.member(table.user_at(game.current))
    other = world.member(table.user_at(1 - game.current))
    await discard(world, dealer, str(game.hands[game.current][0]))  # no draw for the dealer
    version = (await world.table()).record.version
    outage()
    told = [answer_of(await other.click(table_message(world), label="Draw")) for _ in range(2)]
    assert told == [t("error.database")] * 2
    if reads:
        assert (await world.table()).record.version == version  # nothing stored
    look = await dealer.click(table_message(world), label="Show my hand")
    if reads:  # a full disk or a read-only file still reads
        shown = [m for m in (look.response, *look.followups) if m and m.attachments]
        assert shown, "a read needs no write"
    else:
        assert answer_of(look) == t("error.database")
    watch = world.watch
    assert watch is not None
    # A filesystem that failed loses what was not yet on the disk, as a power cut does: the
    # writes that need not wait for it (which messages show the table) are gone, the moves
    # (each committed with fsync) are not. The bot writes them again once its first write
    # succeeds; the watch looks after that.
    watch.enabled = not lost_cache
    await back()
    told.append(answer_of(await other.click(table_message(world), label="Draw")))
    watch.enabled = True
    await watch.check()
    assert (await world.table()).record.version == version + 1
    assert "Your hand" in told[-1], told[-1]
    game = (await world.table()).require_game()
    await discard(world, other, str(game.hands[game.current][0]))
    assert (await world.table()).record.version == version + 2
    lines = log_lines(caplog)
    assert len(lines) == 2, lines  # once when it went, once when it came back
    assert lines[0].startswith("ERROR bot.storage.outage: The database is unavailable")
    assert "back after" in lines[1], lines
    print("\n".join(["what the player pressing Draw read:", *told, "the log:", *lines]))
    return told


async def test_a_full_disk_refuses_a_press_in_one_sentence_and_play_resumes_when_freed(
    world: World, disk: LoopDisk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def freed() -> None:
        disk.free()

    await refused_then_played(world, caplog, outage=disk.fill, back=freed)


async def test_a_filesystem_remounted_read_only_refuses_presses_until_it_is_mounted_again(
    world: World, disk: LoopDisk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def mounted_again() -> None:
        disk.repair()

    await refused_then_played(
        world, caplog, outage=disk.break_, back=mounted_again, lost_cache=True
    )


async def test_a_computer_turn_due_during_the_outage_is_played_when_the_disk_is_back(
    world: World, disk: LoopDisk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice = world.players[0]
    await open_lobby(world, "r51", "1v1")
    await alice.slash(world.channel, "rummy computer", action="addbot", strength="easy")
    await alice.slash(world.channel, "rummy start")
    table = await world.table()
    game = table.require_game()
    if table.is_computer(game.current):
        await world.env.advance_time(DELAY + 1)
        table = await world.table()
    assert not table.is_computer(table.require_game().current)
    await alice.slash(world.channel, "rummy draw", source="stock")
    hand = (await world.table()).require_game().hands[table.require_game().current]
    await alice.slash(world.channel, "rummy discard", card=str(hand[-1]))
    version = (await world.table()).record.version
    disk.fill()
    await world.env.advance_time(DELAY + 1)  # the computer's turn falls due: refused
    assert (await world.table()).record.version == version
    disk.free()
    await world.env.advance_time(15)  # the dispatcher looks again
    after = await world.table()
    assert after.record.version > version
    assert not after.is_computer(after.require_game().current), "the computer played its turn"
    notices = [m for m in world.public_messages() if m.content and alice.user.mention in m.content]
    assert notices, "the turn is Alice's again, and the channel says so"
    lines = log_lines(caplog)
    assert len(lines) == 2, lines
