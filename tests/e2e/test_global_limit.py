"""At Discord's global limit of the bot token, the bot paces itself and degrades in order: held
there by more tables than one token can serve (through the loopback emulator's global bucket,
with the real bot in process), it keeps its calls under the bucket (almost no 429), the table
messages keep up before the hand DMs, no move is lost, and every DM is caught up once the load
stops.

Why: a bot token has 50 requests per second across every route; past them Discord answers 429
with ``"global": true`` and discord.py holds every bot-token request until ``retry_after``,
then sends what piled up at once, in no order of its own, and meets the next 429: Discord bans
an IP past 10,000 invalid requests in 10 minutes. Players need the table (and the turn notice,
an interaction's follow-up, outside that limit) to play; the DM only repeats the hand every
move's private answer shows.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.features.play.presenter import hand_lines
from rummy_engine import Phase
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuChannel, EmuUser
from tests.discord_emulator.server import DiscordEmulator, RequestRecord

#: More tables than the bucket serves: each turn's end costs the bot token the mover's DM (the
#: table and the notice ride on the moves' tokens), and the tables move as fast as the bot
#: answers.
TABLES = 32
#: The test's bucket, per second (Discord's is 50): low enough that the tables exceed it on a
#: slow, shared machine too.
LIMIT = 25
#: The bot's own pace, under the bucket as the default 45/s is under Discord's 50.
PACE = 20
#: How long the tables are driven (whole turns: each player ends the load on a discard).
LOAD_SECONDS = 5.0
#: Routes outside the bucket: interaction tokens' (limited apart) and the gateway's address.
EXEMPT = ("/interactions/", "/webhooks/", "/gateway")


@dataclass
class Seat:
    channel: EmuChannel
    users: tuple[EmuUser, EmuUser]
    table_id: int = 0


def two_player_servers(emu: DiscordEmulator, count: int) -> list[Seat]:
    """``count`` servers of two members, each with a channel for their table."""
    seats = []
    for n in range(count):
        alice, bob = emu.add_user(f"alice{n}"), emu.add_user(f"bob{n}")
        guild = emu.add_guild(f"Club {n}", members=[alice, bob])
        seats.append(Seat(emu.add_text_channel(guild, "rummy"), (alice, bob)))
    return seats


async def open_table(emu: DiscordEmulator, bot: RummyBot, seat: Seat) -> None:
    alice, bob = seat.users
    await (await emu.slash(alice, seat.channel, "rummy new", variant="r51")).followups(1, 30)
    await (await emu.slash(bob, seat.channel, "rummy join")).followups(1, 30)
    await (await emu.slash(alice, seat.channel, "rummy start")).followups(1, 30)
    assert seat.channel.guild_id is not None
    found = await bot.tables.in_channel(seat.channel.guild_id, seat.channel.id)
    assert found is not None
    seat.table_id = found.id


async def move(emu: DiscordEmulator, bot: RummyBot, seat: Seat) -> Phase:
    """The player to act draws from the stock or discards their first card that is not a
    joker; returns the phase the table was in."""
    game = (await bot.tables.load(seat.table_id)).require_game()
    mover = seat.users[game.current]
    if game.phase is Phase.DRAW:
        handle = await emu.slash(mover, seat.channel, "rummy draw", source="stock")
    else:
        card = next(c.text for c in game.hands[game.current] if c.text != "JK")
        handle = await emu.slash(mover, seat.channel, "rummy discard", card=card)
    await handle.answer(timeout=30)
    return game.phase


async def drive(emu: DiscordEmulator, bot: RummyBot, seat: Seat, until: float) -> None:
    """Move after move until ``until``, then to the end of the turn (a discard)."""
    while True:
        phase = await move(emu, bot, seat)
        if phase is Phase.PLAY and time.monotonic() >= until:
            return


async def quiet(emu: DiscordEmulator, for_s: float = 0.3) -> None:
    """Wait until the bot has made no REST call for ``for_s`` seconds."""
    seen = -1
    while len(emu.requests) != seen:
        seen = len(emu.requests)
        await asyncio.sleep(for_s)


def bot_token(records: list[RequestRecord]) -> list[RequestRecord]:
    """The calls made with the bot token (interaction tokens have limits of their own)."""
    return [r for r in records if not r.path.startswith(EXEMPT)]


def is_dm(emu: DiscordEmulator, record: RequestRecord) -> bool:
    """Whether a call is for a hand DM (opening the DM channel, or a message in it)."""
    parts = record.path.split("/")
    if parts[1] == "users":
        return True  # opening a DM channel
    channel = emu.channels.get(int(parts[2])) if parts[1] == "channels" else None
    return channel is not None and channel.is_dm


def full_since(records: list[RequestRecord], per_second: float) -> float:
    """When the calls let through first filled nine tenths of a second's ``per_second``."""
    times = sorted(r.started for r in records)
    first = 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        if last - first + 1 >= 0.9 * per_second:
            return at
    return float("inf")


def busiest_second(records: list[RequestRecord]) -> int:
    """The most requests let through within any one second (the bucket's own measure)."""
    times = sorted(r.started for r in records)
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def hands_shown(emu: DiscordEmulator, bot: RummyBot, seats: list[Seat]) -> list[str]:
    """Whose hand DM does not show their stored hand."""
    behind = []
    for seat in seats:
        game = (await bot.tables.load(seat.table_id)).require_game()
        for index, user in enumerate(seat.users):
            dms = emu.dm_messages(user)
            if not dms or hand_lines(game.hands[index], "en") not in dms[-1].content:
                behind.append(f"table {seat.table_id}: {user.name}")
    return behind


async def test_the_global_bucket_answers_as_discord_and_discord_py_waits(tmp_path: Path) -> None:
    """The emulator's global 429 is one discord.py handles as Discord's (every request gets
    through in the end, none refused), and the bot feels it; a route's own 429 is not global."""
    async with emulated_discord(global_limit=3) as emu:
        _, _, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db", requests_per_second=0)  # discord.py's own way
        async with emu.running(bot):
            limit = bot.reconciler.limit
            assert limit is not None
            since = len(emu.requests)
            answers = await asyncio.gather(*(bot.http.get_channel(channel.id) for _ in range(8)))
            assert all(int(a["id"]) == channel.id for a in answers)
            calls = emu.requests[since:]
            over = [r for r in calls if r.status == 429]
            assert over and all(r.limited == "global" for r in over)
            assert busiest_second([r for r in calls if r.status == 200]) <= 3
            assert limit.hits == len(over), "each global 429 felt"
            assert limit.tight()
            emu.global_limit, limit.until, hits = None, 0.0, limit.hits
            once = [0.05]  # the route's next call is limited, then let through
            emu.rate_limit = lambda method, path: once.pop() if once else None
            await bot.http.get_channel(channel.id)
            emu.rate_limit = None
            assert any(r.limited == "route" for r in emu.requests[since + len(calls) :])
            assert limit.hits == hits and not limit.tight(), "one route's 429 is not global"


async def test_at_the_global_limit_the_bot_paces_itself_the_tables_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with emulated_discord() as emu:
        seats = two_player_servers(emu, TABLES)
        bot = make_bot(tmp_path / "rummy.db", requests_per_second=PACE)
        async with emu.running(bot):
            await asyncio.gather(*(open_table(emu, bot, seat) for seat in seats))
            await quiet(emu)  # every deal's DMs are out: the load starts from tables shown
            # The step check waits for the channel before each move; here the tables must pile
            # up behind the limit, so they are checked once, at the end.
            watch, emu.step_check = emu.step_check, None
            assert watch is not None
            since = len(emu.requests)
            emu.global_limit = LIMIT
            until = time.monotonic() + LOAD_SECONDS
            await asyncio.gather(*(drive(emu, bot, seat, until) for seat in seats))
            load_end, load_ended = len(emu.requests), time.monotonic()

            async def caught_up() -> bool:
                unpublished = await bot.store.list_unpublished_tables()
                return not unpublished and not await hands_shown(emu, bot, seats)

            deadline = time.monotonic() + 30
            while not await caught_up():
                assert time.monotonic() < deadline, await hands_shown(emu, bot, seats)
                await asyncio.sleep(0.1)
            # No move lost: every table message shows its stored table, one notice each.
            await watch.check()

        calls = bot_token(emu.requests[since:])
        limit = bot.reconciler.limit
        assert limit is not None and limit.pacer is not None
        assert limit.pacer.held, "the load was more than the pace: calls waited"
        # Paced under the bucket, the bot (almost) never meets it: discord.py alone, held at
        # the bucket, meets it hundreds of times in these 5 seconds.
        limited = [r for r in calls if r.status == 429]
        assert len(limited) <= 3, (len(limited), len(calls))
        let_through = [r for r in calls if r.status != 429]
        assert busiest_second(let_through) <= LIMIT
        # While the pace was spent, the table messages and notices did not wait for it: they
        # travel with the moves' interaction tokens, outside it; the pace served the DMs.
        full = full_since(let_through, PACE)
        at_limit = [r for r in let_through if full <= r.started <= load_ended]
        assert at_limit, "the pace was spent"
        assert all(is_dm(emu, r) for r in at_limit), at_limit
        carried = [
            r
            for r in emu.requests[since:load_end]
            if r.path.startswith("/webhooks/") and r.status < 300 and full <= r.started
        ]
        assert len(carried) > len(at_limit), (len(carried), len(at_limit))
        # Once the load stopped, the DMs that waited were caught up (and nothing else was
        # left for the bot token).
        after = [r for r in bot_token(emu.requests[load_end:]) if r.status != 429]
        failed = [m for m in caplog.messages if "publishing failed" in m]
        assert after and all(is_dm(emu, r) for r in after), (after, failed)
