"""Upgrades lose nothing: a database a past release's real bot left behind, with its Discord
world, is opened by today's bot on both stores, and every open game goes on where it was.

Each kept release (``tests/storage/releases/<schema version>.sqlite3`` and its ``.json``, made by
``python -m tests.helpers.release_db build``) is put into the store under test at its own schema,
SQLite as the file itself, PostgreSQL by ``copy-db``'s row copy into a database built to that
version (``copy_database`` itself first migrates its source, so the PostgreSQL migrations would
never meet the old rows). Today's bot then opens it, which runs every later migration, and
starts against an emulator holding the world of the day the old bot stopped, on a clock set
back to that day plus a minute of downtime: so the deadlines it armed are still ahead, as
they are for an operator who upgrades and starts again. Then:

* what the bot answers about its records (leaderboards, players, the season, preferences,
  defaults, where a player is in the lessons) reads word for word as the old release answered
  before it stopped;
* each game in mid-round holds the same hands, its player to move can move, and its table
  message is the one the old bot posted, edited in place (no second table message);
* the turn timer's deadline fires once the clock passes it, and the next player moves;
* the open lobby seats another player and starts.

The invariant watch of every emulator test (``tests/helpers/invariants.py``) also checks, before
each step and at the end, that every table's message is the stored table and that no other
message has live buttons. A new migration meets every kept release by itself: the fixtures are
found by name, and each is upgraded through whatever migrations come after its version.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.app import RummyBot
from bot.services.copydb import copy_rows
from bot.storage import LATEST_VERSION, is_postgres_url
from bot.storage.migrations.postgres import apply_pg_migrations
from rummy_engine import Phase
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.world import restore_world
from tests.helpers.release_db import (
    RELEASES,
    Cast,
    hands,
    lessons,
    messages,
    puzzles,
    readings,
    seasons,
)

KEPT = sorted(RELEASES.glob("*.sqlite3"), key=lambda path: int(path.stem))
#: How long the bot was down for its upgrade: less than any deadline it had armed.
DOWNTIME = timedelta(minutes=1)


class ReleaseClock:
    """The bot's clock, running from the moment the old release stopped plus the downtime,
    moved forward by the test instead of waited for."""

    offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) - self.offset

    def start_at(self, moment: datetime) -> None:
        self.offset = datetime.now(UTC) - moment

    def advance(self, by: timedelta) -> None:
        self.offset -= by


def kept_release(database: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(database.with_suffix(".json").read_text(encoding="utf-8"))
    return data


def test_a_release_of_todays_schema_is_kept() -> None:
    """The release that brought today's schema has its database here (build it with
    ``python -m tests.helpers.release_db build`` when a migration is added)."""
    assert int(KEPT[-1].stem) == LATEST_VERSION
    for database in KEPT:
        assert database.stat().st_size < 1 << 20, f"{database.name}: keep a release small"


async def put_release(database: Path, store_url: str | Path, tmp_path: Path) -> None:
    """The kept database in the store under test, at its own schema version."""
    copy = tmp_path / "release.sqlite3"
    shutil.copyfile(database, copy)
    if not (isinstance(store_url, str) and is_postgres_url(store_url)):
        shutil.move(copy, store_url)
        return
    conn = await asyncpg.connect(store_url)
    try:
        await apply_pg_migrations(conn, target=int(database.stem))
    finally:
        await conn.close()
    await copy_rows(copy, store_url)


def table_messages(emu: DiscordEmulator, channel_id: int, table_id: int) -> list[int]:
    """The messages of the channel that show table ``table_id``'s live buttons (a finished
    table's Play again and Replay, a round summary's Replay and Review are not a table's)."""
    past = {"again", "replay", "review"}
    return [
        m.id
        for m in emu.channel_messages(channel_id)
        if not m.ephemeral
        and any(
            c.startswith(f"rummy:{table_id}:") and c.split(":")[3] not in past
            for c in m.custom_ids(enabled_only=True)
        )
    ]


async def move(
    emu: DiscordEmulator, cast: Cast, bot: RummyBot, table_id: int, command: str, **options: str
) -> None:
    """The player to move types ``command``; the store holds the move."""
    table = await bot.tables.load(table_id)
    version, game = table.record.version, table.require_game()
    home = emu.channels[table.record.thread_id or table.record.channel_id]
    user = cast.by_id(table.user_at(game.current))
    answer = await (await emu.slash(user, home, command, **options)).answer()
    assert answer.ephemeral
    moved = await bot.store.list_moves(table_id, after_seq=version)
    assert [m.actor_id for m in moved] == [user.id], f"{command} was accepted"


async def draws(emu: DiscordEmulator, cast: Cast, bot: RummyBot, table_id: int) -> None:
    """The player to move draws from the stock."""
    assert (await bot.tables.load(table_id)).require_game().phase is Phase.DRAW
    await move(emu, cast, bot, table_id, "rummy draw", source="stock")


async def goes_on_in_place(
    emu: DiscordEmulator, cast: Cast, bot: RummyBot, kept: dict[str, Any]
) -> None:
    """The game holds the kept hands, turn and messages; its player to move draws, and the
    table message the old bot posted shows it, edited in place, the only table message of its
    channel."""
    table = await bot.tables.load(kept["id"])
    game = table.require_game()
    assert hands(table) == kept["hands"]
    assert (game.round_no, game.turn) == (kept["round"], kept["turn"])
    assert cast.by_id(table.user_at(game.current)).name == kept["to_move"]
    assert await messages(bot, table.id) == kept["messages"]
    channel, message = kept["messages"]["table"]
    old = emu.get_message(channel, message)
    edits = old.edit_count
    await draws(emu, cast, bot, table.id)
    await emu.wait_until(lambda: old.edit_count > edits, what="the old table message edited")
    assert (await messages(bot, table.id))["table"] == [channel, message], (
        "adopted, not posted again"
    )
    assert table_messages(emu, channel, table.id) == [old.id]


async def ends_the_turn(
    emu: DiscordEmulator, cast: Cast, bot: RummyBot, kept: dict[str, Any]
) -> None:
    """The player who drew discards a card they held: their hand DM, the one the old bot sent,
    is edited to show it, and no player gets a second one."""
    seat = (await bot.tables.load(kept["id"])).require_game().current
    dm = emu.get_message(*kept["messages"][f"hand:{seat}"])
    edits = dm.edit_count
    card = next(c for c in kept["hands"][seat] if c != "JK")
    await move(emu, cast, bot, kept["id"], "rummy discard", card=card)
    await emu.wait_until(lambda: dm.edit_count > edits, what="the kept hand DM edited")
    hand_dms_adopted(emu, kept["id"], kept["messages"])


async def times_out(
    emu: DiscordEmulator, cast: Cast, bot: RummyBot, clock: ReleaseClock, kept: dict[str, Any]
) -> None:
    """Past the turn timer's deadline the turn is played for its player, once; the next
    player, whose hand is the kept one, moves."""
    table_id = kept["id"]
    turn = next(d for d in await bot.store.get_deadlines(table_id) if d.kind == "turn")
    clock.advance(turn.due_at - clock() + timedelta(seconds=1))
    bot.autoplay.dispatcher.wake()
    channel, _ = kept["messages"]["table"]
    await emu.wait_until(
        lambda: any(
            "time ran out" in emu.get_message(channel, m).content
            for m in table_messages(emu, channel, table_id)
        ),
        what="the turn played for the absent player",
    )
    moves = await bot.store.list_moves(table_id)
    timed_out = [m for m in moves if m.actor_id is None and "turn_timed_out" in m.events_json]
    assert len(timed_out) == 1
    table = await bot.tables.load(table_id)
    game = table.require_game()
    assert game.turn == kept["turn"] + 1
    assert hands(table)[game.current] == kept["hands"][game.current]
    hand_dms_adopted(emu, table_id, kept["messages"])
    await draws(emu, cast, bot, table_id)


def hand_dms_adopted(emu: DiscordEmulator, table_id: int, kept: dict[str, list[int]]) -> None:
    """One hand DM per player and table: the one the old bot sent."""
    for kind, (channel, message) in kept.items():
        if kind.startswith("hand:"):
            mine = [
                m.id
                for m in emu.channel_messages(channel)
                if m.content.startswith("**Your hand**") and f"table #{table_id} " in m.content
            ]
            assert mine == [message], kind


async def lobby_starts(
    emu: DiscordEmulator, cast: Cast, bot: RummyBot, kept: dict[str, Any]
) -> None:
    """The kept lobby, edited in place, seats another player, and its host starts it."""
    lobby = await bot.tables.load(kept["id"])
    assert lobby.record.status == "lobby"
    assert await messages(bot, lobby.id) == kept["messages"]
    channel, message = kept["messages"]["table"]
    old = emu.get_message(channel, message)
    edits = old.edit_count
    await (await emu.slash(cast.users["alice"], emu.channels[channel], "rummy join")).answer()
    await emu.wait_until(lambda: old.edit_count > edits, what="the kept lobby edited")
    assert table_messages(emu, channel, lobby.id) == [old.id]
    host = cast.by_id(lobby.record.host_id)
    await (await emu.slash(host, emu.channels[channel], "rummy start")).answer()
    started = await bot.tables.load(lobby.id)
    assert started.record.status == "active" and len(started.seats) == 3


@pytest.fixture
def release_clock(monkeypatch: pytest.MonkeyPatch) -> ReleaseClock:
    """Lets a test set the bot's clock (``make_bot`` and the bot read it from their module)."""
    clock = ReleaseClock()
    for module in ("bot.app", "tests.discord.conftest"):
        monkeypatch.setattr(f"{module}.BOT_CLOCK", clock)
    return clock


@pytest.mark.parametrize("database", KEPT, ids=lambda path: f"v{path.stem}")
async def test_a_kept_release_upgrades_and_its_games_go_on(
    database: Path, store_url: str | Path, tmp_path: Path, release_clock: ReleaseClock
) -> None:
    kept = kept_release(database)
    await put_release(database, store_url, tmp_path)
    release_clock.start_at(datetime.fromisoformat(kept["stopped_at"]) + DOWNTIME)
    async with emulated_discord() as emu:
        restore_world(emu, kept["world"])
        cast = Cast.of(emu)
        bot = make_bot(store_url)
        async with emu.running(bot):
            assert await bot.store.schema_version() == LATEST_VERSION
            assert await readings(emu, cast) == kept["readings"]
            assert await seasons(bot, cast) == kept["seasons"]
            if "lessons" in kept:  # a player's place in the course (schema 14 on)
                assert await lessons(emu, cast) == kept["lessons"]
            if "puzzles" in kept:  # the daily puzzle, its answers, a streak (schema 15 on)
                assert await puzzles(bot, cast) == kept["puzzles"]
            await goes_on_in_place(emu, cast, bot, kept["threaded"])
            await ends_the_turn(emu, cast, bot, kept["threaded"])
            await goes_on_in_place(emu, cast, bot, kept["timed"])
            await lobby_starts(emu, cast, bot, kept["lobby"])  # before its idle deadline passes
            await times_out(emu, cast, bot, release_clock, kept["timed"])
