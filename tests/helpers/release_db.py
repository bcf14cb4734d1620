"""The database of a release, made by that release's real bot, kept for the upgrade test.

Why: the upgrade test of every version (``tests/storage/test_upgrade_every_version.py``) writes
rows by hand; this is what a bot really leaves behind when an operator stops it to upgrade:
finished rated games of several variants, a game in mid-round with its turn timer armed, a game
in its thread, an open lobby, a season with standings, server and channel defaults, a player's
preferences, and every message it owns in Discord. ``tests/storage/test_release_databases.py``
starts today's bot on each kept database and checks that nothing was lost.

Run ``python -m tests.helpers.release_db build`` at a release that changes the schema: it plays
through the loopback Discord emulator with the real bot, stops it, and writes into
``tests/storage/releases/``:

* ``<schema version>.sqlite3``, the bot's database as it left it (vacuumed);
* ``<schema version>.json``: the moment the bot stopped, Discord's world then (ids, channels,
  messages, synced commands: :mod:`tests.discord_emulator.world`), the open tables (whose turn,
  every hand) and what the bot answered to the readings of :func:`readings` (leaderboards,
  a player's numbers, the season, preferences, defaults): the expectation, written by the old
  release, never by the code under test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.app import RummyBot
from bot.features.play.tables import Table
from bot.storage import LATEST_VERSION
from rummy_engine import Phase, StartRound
from rummy_engine.strategy import choose_action
from tests.discord.conftest import command_for, make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.world import save_world
from tests.e2e.test_e2e_server_defaults import press, seen

RELEASES = Path(__file__).resolve().parents[1] / "storage" / "releases"
PLAYERS = ("alice", "bob", "carol", "dave", "erin")
#: The channels of the server, one table each (a channel holds one open table at a time).
CHANNELS = ("duel", "partners", "basic", "lobby", "threads", "rami")
#: The mid-round game's turn timer (minutes): long enough for the rest of the build to finish
#: before its deadline, which the test then moves the bot's clock past.
TURN_TIMER = "30"


@dataclass(frozen=True)
class Cast:
    """Who and where, by name: the same names find the restored world's ids in the test."""

    users: dict[str, EmuUser]
    channels: dict[str, EmuChannel]

    @classmethod
    def of(cls, emu: DiscordEmulator) -> Cast:
        users = {u.name: u for u in emu.users.values() if not u.bot}
        channels = {c.name: c for c in emu.channels.values() if c.name in CHANNELS}
        return cls(users, channels)

    def by_id(self, user_id: int | None) -> EmuUser:
        return next(u for u in self.users.values() if u.id == user_id)


def make_world(emu: DiscordEmulator) -> Cast:
    """Five players in one server, alice its owner, and its channels."""
    users = [emu.add_user(name) for name in PLAYERS]
    guild = emu.add_guild("Rummy Club", members=users)
    for name in CHANNELS:
        emu.add_text_channel(guild, name)
    return Cast.of(emu)


def answer_text(message: StoredMessage) -> str:
    """What an answer says: its text, its embeds and its pictures' descriptions."""
    described = [a.description or "" for a in message.attachments]
    return "\n".join([message.text(), *described])


async def ask(
    emu: DiscordEmulator, user: EmuUser, channel: EmuChannel, command: str, **options: Any
) -> str:
    return answer_text(await (await emu.slash(user, channel, command, **options)).answer())


async def readings(emu: DiscordEmulator, cast: Cast) -> dict[str, str]:
    """The bot's answers about what it kept: leaderboards (all-time and the season's, per
    variant, this server's and every server's), players' numbers, the season, a player's
    preferences, the server's defaults."""
    u, where = cast.users, cast.channels["duel"]
    board = "rummy-stats leaderboard"
    return {
        "leaderboard": await ask(emu, u["erin"], where, board),
        "leaderboard r51": await ask(emu, u["erin"], where, board, variant="r51"),
        "leaderboard basic wins": await ask(
            emu, u["erin"], where, board, variant="basic", sort="wins"
        ),
        "leaderboard r51 global win rate": await ask(
            emu, u["erin"], where, board, variant="r51", scope="global", sort="win_rate"
        ),
        "season leaderboard": await ask(emu, u["erin"], where, board, season="current"),
        "season": await ask(emu, u["erin"], where, "rummy-stats season"),
        "player alice": await ask(emu, u["erin"], where, "rummy-stats player", player=u["alice"]),
        "player dave": await ask(emu, u["dave"], where, "rummy-stats player"),
        "preferences alice": await ask(emu, u["alice"], where, "rummy-settings me"),
        **await defaults(emu, u["alice"], cast.channels["rami"]),
    }


async def defaults(emu: DiscordEmulator, owner: EmuUser, channel: EmuChannel) -> dict[str, str]:
    """The defaults panel as the owner opens it in ``channel``: the server's, then the
    channel's own."""
    panel = await (await emu.slash(owner, channel, "rummy-settings server")).answer()
    here = await press(emu, owner, panel, "defscope:c", None)
    return {"defaults": answer_text(panel), "defaults of the channel": answer_text(here)}


async def lessons(emu: DiscordEmulator, cast: Cast) -> dict[str, str]:
    """Where a player is in the course of ``/rummy-learn lessons`` (kept from schema 14 on):
    the page the command resumes at, its heading and question (not its picture's description,
    whose wording may change between releases)."""
    lesson = await ask(emu, cast.users["erin"], cast.channels["duel"], "rummy-learn lessons")
    return {"lessons erin": "\n".join(lesson.split("\n")[:2])}


async def start_lessons(emu: DiscordEmulator, cast: Cast) -> None:
    """erin opens the course and presses Next: her progress is stored at the first exercise."""
    erin = cast.users["erin"]
    page = await (await emu.slash(erin, cast.channels["duel"], "rummy-learn lessons")).answer()
    (next_page,) = page.custom_ids()
    shown = seen(emu, page)
    await (await emu.click(erin, page, next_page)).response()
    await emu.wait_until(lambda: seen(emu, page) != shown, what="the lesson's next page")


async def start_puzzles(emu: DiscordEmulator, bot: RummyBot, cast: Cast) -> None:
    """alice (the owner) sets the daily puzzle in the duel channel; the day's puzzle is posted
    as its hour's deadline posts it, and erin answers it right through its menu."""
    duel, erin = cast.channels["duel"], cast.users["erin"]
    await ask(emu, cast.users["alice"], duel, "rummy-settings puzzle", hour=9)
    today = datetime.now(UTC).date().isoformat()
    made = await bot.puzzles.post_day(duel.guild_id or 0, duel.id, today)
    assert made is not None
    post = next(m for m in emu.channel_messages(duel.id) if m.text().startswith("**Rummy puzzle"))
    (answer_id,) = post.custom_ids()
    menu = await (await emu.click(erin, post, answer_id)).answer()
    (pick_id,) = menu.custom_ids()
    right = sorted(f.text for f in made.puzzle.answers)
    best = made.puzzle.best
    if not right and best is not None and hasattr(best, "melds"):
        faces = [c.face.text for m in best.melds for c in m.cards]
        values = [f"{f}:{faces[:i].count(f) + 1}" for i, f in enumerate(faces)]
    else:
        values = [f"{right[0]}:1"]
    shown = seen(emu, menu)
    await (await emu.select(erin, menu, pick_id, values)).response()
    await emu.wait_until(lambda: seen(emu, menu) != shown, what="the puzzle's verdict")


async def puzzles(bot: RummyBot, cast: Cast) -> dict[str, Any]:
    """The server's daily puzzle as the store holds it (kept from schema 15 on): its schedule,
    its puzzles (day, kind, position), who solved them, and erin's streak."""
    guild = cast.channels["duel"].guild_id or 0
    store = bot.store
    schedule = [[s.channel_id, s.hour] for s in await store.puzzle_guilds() if s.guild_id == guild]
    days = await store.puzzle_days(guild, 10)
    return {
        "schedule": schedule,
        "days": [
            [day, kind, key, list(await store.puzzle_answers(guild, day))]
            for day, kind, key in days
        ],
        "streak erin": await bot.puzzles.streak(guild, cast.users["erin"].id),
    }


def hands(table: Table) -> list[list[str]]:
    """Every seat's hand, in the order it is held."""
    return [[card.text for card in hand] for hand in table.require_game().hands]


async def open_table(
    emu: DiscordEmulator, bot: RummyBot, cast: Cast, channel: str, names: list[str], **options: Any
) -> int:
    """``names[0]`` opens a table in ``channel``, the others take their seats (partners
    opposite in 2v2), and the host starts it unless ``options`` say ``start=False``."""
    start = options.pop("start", True)
    where = cast.channels[channel]
    host, *others = (cast.users[n] for n in names)
    await (await emu.slash(host, where, "rummy new", **options)).answer()
    table = await bot.tables.in_channel(where.guild_id or 0, where.id)
    assert table is not None
    for index, user in enumerate(others, start=1):
        team = {1: 1, 2: 0, 3: 1}[index] if options.get("mode") == "2v2" else None
        extra = {} if team is None else {"team": team}
        await (await emu.slash(user, where, "rummy join", **extra)).answer()
    if start:
        await (await emu.slash(host, where, "rummy start")).answer()
    return table.id


async def play(
    emu: DiscordEmulator,
    bot: RummyBot,
    cast: Cast,
    table_id: int,
    rng: random.Random,
    *,
    turns: int | None = None,
) -> Table:
    """Type the engine's simple player's moves (and press Next round as the host): to the end
    of the game, or until ``turns`` turns were played and a person is to draw."""
    for _ in range(5000):
        table = await bot.tables.load(table_id)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return table
        if turns is not None and game.turn > turns and game.phase is Phase.DRAW:
            return table
        action = choose_action(game, rng)
        if isinstance(action, StartRound):
            await next_round(emu, cast, table)
            continue
        name, options = command_for(action)
        home = emu.channels[table.record.thread_id or table.record.channel_id]
        await (
            await emu.slash(cast.by_id(table.user_at(action.seat)), home, name, **options)
        ).answer()
    raise AssertionError(f"table {table_id} did not end")


async def next_round(emu: DiscordEmulator, cast: Cast, table: Table) -> None:
    """The host presses Next round on the table message."""
    button = f"rummy:{table.id}:{table.require_game().turn}:next"

    def shown() -> list[StoredMessage]:
        return [m for m in emu.public_messages() if button in m.custom_ids(enabled_only=True)]

    await emu.wait_until(lambda: bool(shown()), what="Next round")
    await (await emu.click(cast.by_id(table.record.host_id), shown()[0], button)).answer()


async def set_defaults(emu: DiscordEmulator, cast: Cast) -> None:
    """The server's default rounds of Basic rummy, and French in #rami, set in the panel."""
    owner = cast.users["alice"]
    for channel, scope, key, value in (
        ("duel", "s", "basic_rounds", "2"),
        ("rami", "c", "language", "fr"),
    ):
        panel = await (
            await emu.slash(owner, cast.channels[channel], "rummy-settings server")
        ).answer()
        if scope == "c":
            panel = await press(emu, owner, panel, "defscope:c", None)
        panel = await press(emu, owner, panel, f"defkey:{scope}", key)
        await press(emu, owner, panel, f"defval:{scope}_{key}", value)


async def record_release(emu: DiscordEmulator, bot: RummyBot, cast: Cast) -> dict[str, Any]:
    """Play everything the kept database holds; returns what the test expects of it."""
    rng = random.Random(51)
    finished = [
        await open_table(emu, bot, cast, "duel", ["alice", "bob"], variant="r51", mode="1v1"),
        await open_table(
            emu, bot, cast, "partners", ["alice", "bob", "carol", "dave"], variant="r51", mode="2v2"
        ),
        await open_table(
            emu,
            bot,
            cast,
            "basic",
            ["carol", "dave", "erin"],
            variant="basic",
            mode="basic",
            basic_rounds="1",
        ),
    ]
    for table_id in finished:
        await play(emu, bot, cast, table_id, rng)
    threaded = await open_table(
        emu, bot, cast, "threads", ["carol", "erin"], variant="r51", mode="1v1", thread="yes"
    )
    await play(emu, bot, cast, threaded, rng, turns=2)
    lobby = await open_table(
        emu, bot, cast, "lobby", ["bob", "dave"], variant="basic", mode="basic", start=False
    )
    await (
        await emu.slash(
            cast.users["alice"],
            cast.channels["duel"],
            "rummy-settings me",
            four_colour=True,
            sort="melds",
        )
    ).answer()
    await set_defaults(emu, cast)
    timed = await open_table(
        emu, bot, cast, "duel", ["bob", "alice"], variant="r51", mode="1v1", turn_timer=TURN_TIMER
    )
    await play(emu, bot, cast, timed, rng, turns=3)
    await start_lessons(emu, cast)
    await start_puzzles(emu, bot, cast)
    return {
        "lessons": await lessons(emu, cast),
        "puzzles": await puzzles(bot, cast),
        "readings": await readings(emu, cast),
        "seasons": await seasons(bot, cast),
        "timed": await kept_game(bot, cast, timed),
        "threaded": await kept_game(bot, cast, threaded),
        "lobby": {"id": lobby, "messages": await messages(bot, lobby)},
    }


async def seasons(bot: RummyBot, cast: Cast) -> list[list[Any]]:
    """The server's seasons as the store reads them (their dates, length, channel, whether
    their end was announced): kept apart from the boards, which later seasons' rows of the
    same length would read alike."""
    guild = cast.channels["duel"].guild_id or 0
    return [
        [s.starts_at.isoformat(), s.ends_at.isoformat(), s.length, s.channel_id, s.posted]
        for s in await bot.store.season_rows(guild)
    ]


async def messages(bot: RummyBot, table_id: int) -> dict[str, list[int]]:
    """The messages the store names for a table: kind -> [channel, message]."""
    refs = await bot.store.get_message_refs(table_id)
    return {r.kind: [r.channel_id, r.message_id] for r in refs}


async def kept_game(bot: RummyBot, cast: Cast, table_id: int) -> dict[str, Any]:
    """A game in mid-round as the old bot holds it: whose turn, every hand, its messages."""
    table = await bot.tables.load(table_id)
    game = table.require_game()
    return {
        "id": table_id,
        "to_move": cast.by_id(table.user_at(game.current)).name,
        "round": game.round_no,
        "turn": game.turn,
        "hands": hands(table),
        "messages": await messages(bot, table_id),
    }


def compact(db: Path, out: Path) -> None:
    """The stopped bot's database as one small file: its log folded in, then vacuumed."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    conn.close()
    shutil.copyfile(db, out)


async def build(folder: Path = RELEASES) -> Path:
    """Play the release's database with the real bot and write it with its world into
    ``folder``; returns the database's path."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "rummy.db"
        async with emulated_discord() as emu:
            cast = make_world(emu)
            bot = make_bot(db)
            seeds = random.Random(7)  # each table its own deal, the same at every build
            bot.tables._seed_source = lambda: seeds.randrange(1 << 31)
            async with emu.running(bot):
                expected = await record_release(emu, bot, cast)
            stopped_at = datetime.now(UTC)
            world = save_world(emu)
        out = folder / f"{LATEST_VERSION}.sqlite3"
        compact(db, out)
    kept = {"schema_version": LATEST_VERSION, "stopped_at": stopped_at.isoformat(), **expected}
    write_json(folder / f"{LATEST_VERSION}.json", {**kept, "world": world})
    return out


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build"])
    parser.add_argument("folder", nargs="?", type=Path, default=RELEASES)
    args = parser.parse_args(argv)
    print(asyncio.run(build(args.folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
