"""Chaos benchmark: people playing at a human pace on many tables while Discord misbehaves,
the bot process is killed and restarted, and (on PostgreSQL) the database server restarts.

Why: every fault of ``tests/discord_emulator/chaos.py`` is tested once, at an exact step, by
the test suite; here they come at random, together, for minutes, against the real ``rummy-bot``
process, and what matters is what players end with.

Tables: Rummy 51 1v1, Rummy 51 2v2, Basic rummy with three players, and Rummy 51 against a
computer, in turn, each in a channel of its own; every table has a turn timer (the bot's
default, set by ``--timer``). Each table's player to act types ``/rummy draw`` (stock) or
``/rummy discard`` (their oldest card that is no joker) every ``--pace`` seconds (jittered).
Discord answers every call after ``--latency`` ± ``--jitter`` seconds and, with a share of
``--fault-share`` per kind, fails it: 500, 502, 503, 504 (half of them after carrying the call
out), a timeout with no answer, a route's 429, a global 429, an interaction token expired early;
every ``--gateway-every`` seconds a gateway fault of a random kind; every ``--kill-every``
seconds the bot is SIGKILLed and started again; with ``--store postgres``, the server restarts
once, mid-run. Discord forgets an interaction not acknowledged within 3 s (404 / 10062).

Then faults stop, the bot settles, and the report says, overall and by fault kind met by a
move's own calls: moves acknowledged (a hand in the answer) and moves stored (lost: acknowledged
and not stored), tables whose channel does not show the stored table, hand DMs behind their
stored hand, interactions not acknowledged in 3 s (while the bot was up, and while it was down
or reconnecting, which Discord itself answers with "This interaction failed"), duplicated
messages (two live table messages or notices of one table, two hand DMs of one player and
round), tasks left running at the bot's stop, and RSS at the start and the end.

    .venv/bin/python benchmarks/bench_chaos.py                      # SQLite, about 5 minutes
    .venv/bin/python benchmarks/bench_chaos.py --store postgres
    .venv/bin/python benchmarks/bench_chaos.py --tables 8 --minutes 1 --kill-every 25
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_load, when loaded by path

from bench_load import bot_log, total_rss

from bot.features.play.presenter import hand_lines
from bot.storage import CLOSED_STATUSES, Store, make_store
from rummy_engine import Game, Phase
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.chaos import SERVER_ERRORS, Chaos, Fault, GatewayFault, Latency
from tests.discord_emulator.launch import process_env
from tests.discord_emulator.models import EmuChannel, EmuUser
from tests.discord_emulator.server import DiscordEmulator
from tests.helpers import postgres
from tests.helpers.invariants import Watch, emulator_messages

KINDS = ("1v1", "2v2", "basic", "computer")
TOKEN = re.compile(r"/(?:webhooks/\d+|interactions/\d+)/([\w-]+)")
HAND = "**Your hand**"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SAVED = "It is done and saved"


@dataclass
class Table:
    """One table of the run: its channel, its human players (seat order), its id."""

    kind: str
    channel: EmuChannel
    users: list[EmuUser]
    table_id: int = 0
    #: Each human's seat, once the table started (computers have none here).
    by_seat: dict[int, EmuUser] = field(default_factory=dict)


@dataclass
class Move:
    table: Table
    mover: EmuUser
    sent: float
    interaction_id: int
    token: str
    answered: bool = False


@dataclass
class Down:
    """When the bot could not answer: killed until its new process was ready, or its gateway
    connection gone until it was back (an interaction Discord sends then reaches no bot, or
    reaches it on RESUME, often past its 3 s)."""

    spans: list[tuple[float, float]] = field(default_factory=list)
    gateway: list[tuple[float, float]] = field(default_factory=list)

    def covers(self, at: float, margin: float = 3.0) -> bool:
        return _within(self.spans, at, margin)

    def reconnecting(self, at: float, margin: float = 3.0) -> bool:
        return _within(self.gateway, at, margin)


def _within(spans: Sequence[tuple[float, float]], at: float, margin: float) -> bool:
    return any(start - margin <= at <= end + margin for start, end in spans)


class Bot:
    """The real ``rummy-bot run`` process, started again after each kill."""

    def __init__(self, emu: DiscordEmulator, db: Path | str, home: Path, timer: int) -> None:
        self.emu, self.db, self.home, self.timer = emu, db, home, timer
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        env = process_env(self.emu.http_base, self.emu.gateway_url, self.emu.token, self.db, self.home)
        env |= {"RUMMY_COMPUTER_DELAY_SECONDS": "1", "RUMMY_TURN_TIMER_MINUTES": str(self.timer)}
        log = bot_log(self.home, self.starts).open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.discord_emulator.launch", "run"],
            cwd=self.home,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        self.starts += 1

    async def ready(self) -> None:
        wanted = self.starts
        await self.emu.wait_until(
            lambda: len(self.emu.identify_payloads) >= wanted, what="IDENTIFY", timeout=60
        )
        await asyncio.sleep(2.5)  # discord.py waits 2 s for the servers

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(20)

    def errors(self) -> Counter[str]:
        """The ERROR lines of every process's log, by their first words (a bug shows here
        before players see it: a task that died, a pass that failed unexpectedly)."""
        found: Counter[str] = Counter()
        for start in range(self.starts):
            for line in bot_log(self.home, start).read_text(errors="replace").splitlines():
                if " ERROR " in ANSI.sub("", line):
                    found[" ".join(ANSI.sub("", line).split()[3:8])] += 1
        return found

    async def stop(self) -> str:
        """SIGTERM, and the bot's own word on the tasks it left running."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        await asyncio.get_running_loop().run_in_executor(None, self.process.wait, 60)
        text = bot_log(self.home, self.starts - 1).read_text(errors="replace")
        found = re.findall(r"closed with (\d+) task\(s\) still running(.*)", text)
        return " ".join(f"{n}{names}" for n, names in found) or "not logged"


async def open_tables(
    emu: DiscordEmulator, db: Store, tables: list[Table], host_guild: int
) -> None:
    for table in tables:
        host, *others = table.users
        channel = table.channel
        variant, mode = ("basic", "basic") if table.kind == "basic" else ("r51", table.kind)
        mode = "1v1" if mode == "computer" else mode
        await (await emu.slash(host, channel, "rummy new", variant=variant, mode=mode)).answer(60)
        for user in others:
            await (await emu.slash(user, channel, "rummy join")).answer(60)
        if table.kind == "computer":
            await (await emu.slash(host, channel, "rummy computer", action="addbot")).answer(60)
        await (await emu.slash(host, channel, "rummy start")).answer(60)
        records = await db.list_active_tables(host_guild)
        [table.table_id] = [r.id for r in records if r.channel_id == channel.id]
        people = {u.id: u for u in table.users}
        for seat in await db.get_seats(table.table_id):
            if seat.user_id is not None:
                table.by_seat[seat.seat] = people[seat.user_id]


async def stored(db: Store, table_id: int) -> tuple[Game | None, str]:
    record = await db.get_table(table_id)
    if record is None or record.snapshot_json is None:
        return None, "gone"
    return Game.from_json(json.loads(record.snapshot_json)), record.status


async def play(
    emu: DiscordEmulator,
    db: Store,
    table: Table,
    args: argparse.Namespace,
    until: float,
    moves: list[Move],
    rng: random.Random,
) -> None:
    """The table's player to act types their move every ``pace`` seconds (jittered)."""
    await asyncio.sleep(rng.uniform(0, args.pace))
    while time.monotonic() < until:
        await asyncio.sleep(args.pace * rng.uniform(0.7, 1.3))
        try:
            game, status = await stored(db, table.table_id)
        except Exception:  # the database restarting: the player looks again later
            continue
        if game is None or status in CLOSED_STATUSES:
            return
        mover = table.by_seat.get(game.current)
        if game.phase not in (Phase.DRAW, Phase.PLAY) or mover is None:
            continue  # a round summary, or the computer's turn
        if game.phase is Phase.DRAW:
            handle = await emu.slash(mover, table.channel, "rummy draw", source="stock")
        else:
            card = next(c.text for c in game.hands[game.current] if c.text != "JK")
            handle = await emu.slash(mover, table.channel, "rummy discard", card=card)
        move = Move(table, mover, time.monotonic(), handle.id, handle.token)
        moves.append(move)
        try:
            answer = await handle.answer(timeout=15)
        except (AssertionError, TimeoutError):
            continue
        move.answered = HAND in answer.content or answer.content.startswith(SAVED)


async def misbehave(
    emu: DiscordEmulator, bot: Bot, args: argparse.Namespace, until: float, down: Down,
    server: postgres.Server | None, rng: random.Random,
) -> list[str]:
    """Gateway faults, kills and the database restart, on their schedules; what was done."""
    done: list[str] = []
    started = time.monotonic()
    next_gateway = started + args.gateway_every
    next_kill = started + args.kill_every
    pg_at = started + (until - started) / 2 if server is not None else float("inf")
    while time.monotonic() < until:
        await asyncio.sleep(0.5)
        now = time.monotonic()
        if now >= next_gateway:
            fault = rng.choice(list(GatewayFault))
            sessions = len(emu.identify_payloads) + emu.resumes
            await emu.gateway_fault(fault)
            await emu.wait_until(
                lambda sessions=sessions: len(emu.identify_payloads) + emu.resumes > sessions,
                what="the gateway back",
                timeout=60,
            )
            back = time.monotonic()
            down.gateway.append((now, back))
            done.append(f"{now - started:5.0f} s gateway {fault.value}, back after {back - now:.1f} s")
            next_gateway += args.gateway_every
        if now >= next_kill:
            bot.kill()
            bot.start()
            await bot.ready()
            down.spans.append((now, time.monotonic()))
            done.append(f"{now - started:5.0f} s bot killed, back after {time.monotonic() - now:.1f} s")
            next_kill += args.kill_every
        if now >= pg_at and server is not None:
            await asyncio.get_running_loop().run_in_executor(None, server.restart)
            emu.chaos.injected["postgres restart"] += 1  # type: ignore[union-attr]
            done.append(f"{now - started:5.0f} s PostgreSQL restarted ({time.monotonic() - now:.1f} s)")
            pg_at = float("inf")
    return done


def chaos_plan(args: argparse.Namespace) -> Chaos:
    chaos = Chaos(seed=args.seed, rest=Latency(args.latency, args.jitter),
                  gateway=Latency(args.latency / 2, args.jitter / 2))
    share = args.fault_share
    for fault in SERVER_ERRORS:
        chaos.add(fault, share=share / 2)
        chaos.add(fault, share=share / 2, carried_out=True)
    chaos.add(Fault.TIMEOUT, share=share, hang=args.hang)
    for fault in (Fault.ROUTE_429, Fault.GLOBAL_429, Fault.TOKEN_EXPIRED):
        chaos.add(fault, share=share)
    return chaos


async def settle(emu: DiscordEmulator, db: Store, tables: Sequence[Table], seconds: float) -> list[str]:
    """Wait (up to ``seconds``) for every channel to show its stored table; what still does
    not, by table."""
    watch = Watch(db)
    deadline = time.monotonic() + seconds
    while True:
        channels, _ = emulator_messages(emu)
        found = await watch.violations(emu.guilds, channels, ())
        found = [f for f in found if not f.startswith("private")]
        if not found or time.monotonic() > deadline:
            return found
        await asyncio.sleep(2)


async def dms_behind(emu: DiscordEmulator, db: Store, tables: Sequence[Table]) -> int:
    """Players whose newest hand DM does not show their stored hand (the mover mid-turn
    aside: their DM catches up at the end of the turn)."""
    behind = 0
    for table in tables:
        game, status = await stored(db, table.table_id)
        if game is None or status != "active" or game.phase not in (Phase.DRAW, Phase.PLAY):
            continue
        for seat, user in table.by_seat.items():
            if seat == game.current and game.phase is Phase.PLAY:
                continue
            dms = [m for m in emu.dm_messages(user) if m.content.startswith(HAND)
                   and f"table #{table.table_id} " in m.content]
            if not dms or hand_lines(game.hands[seat], "en") not in dms[-1].content:
                behind += 1
    return behind


async def duplicates(emu: DiscordEmulator, db: Store, tables: Sequence[Table]) -> Counter[str]:
    """Messages shown twice: a table's live table messages or turn notices beyond one, a
    player's hand DMs of a table beyond one per round dealt."""
    found: Counter[str] = Counter()
    for table in tables:
        public = [m for m in emu.channel_messages(table.channel) if not m.ephemeral]
        tag = f":{table.table_id}:"
        live = [
            m
            for m in public
            if any(tag in c for c in m.custom_ids(enabled_only=True)) and "Stock" in m.content
        ]
        found["live table messages"] += max(0, len(live) - 1)
        found["turn notices"] += max(0, sum(m.content.startswith("🔔") for m in public) - 1)
        game, _ = await stored(db, table.table_id)
        rounds = 0 if game is None else game.round_no
        for user in table.by_seat.values():
            dms = [
                m
                for m in emu.dm_messages(user)
                if m.content.startswith(HAND) and f"table #{table.table_id} " in m.content
            ]
            found["hand DMs"] += max(0, len(dms) - rounds)
    return found


async def lost_moves(db: Store, moves: Sequence[Move]) -> list[Move]:
    """Moves acknowledged with a hand whose mover has fewer stored moves at that table than
    acknowledged ones (each is counted against the move log, by actor)."""
    acked: dict[tuple[int, int], list[Move]] = defaultdict(list)
    for move in moves:
        if move.answered:
            acked[(move.table.table_id, move.mover.id)].append(move)
    lost: list[Move] = []
    for (table_id, user), mine in acked.items():
        stored_moves = [m for m in await db.list_moves(table_id) if m.actor_id == user]
        if len(stored_moves) < len(mine):
            lost += mine[len(stored_moves):]
    return lost


def late_acks(
    emu: DiscordEmulator, moves: Sequence[Move], down: Down
) -> tuple[list[Move], list[Move], list[Move]]:
    """Moves not acknowledged within 3 s: while the bot was up, while it was killed or
    starting, while its gateway connection was coming back."""
    answered = {  # (one Discord carried out before failing it counts)
        int(r.path.split("/")[2])
        for r in emu.requests
        if r.path.startswith("/interactions/") and r.path.endswith("/callback")
        if r.status < 300 or r.fault.endswith("carried out")
    }
    late = [m for m in moves if m.interaction_id not in answered]
    killed = [m for m in late if down.covers(m.sent)]
    away = [m for m in late if m not in killed and down.reconnecting(m.sent)]
    return [m for m in late if m not in killed and m not in away], killed, away


def faults_of(emu: DiscordEmulator, moves: Sequence[Move]) -> dict[str, list[Move]]:
    """The fault kinds each move's own calls (its interaction token's) met."""
    by_token = {m.token: m for m in moves}
    met: dict[str, list[Move]] = defaultdict(list)
    for request in emu.requests:
        found = TOKEN.search(request.path)
        if request.fault and found and found.group(1) in by_token:
            met[request.fault].append(by_token[found.group(1)])
    return met


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    home = Path(tempfile.mkdtemp(prefix="rummy-chaos-"))
    server = postgres.start(durable=True) if args.store == "postgres" else None
    db_target: Path | str = server.tcp_dsn if server is not None else home / "rummy.db"
    async with emulated_discord() as emu:
        emu.watcher = None
        emu.ack_deadline = 3.0
        guild_users = [emu.add_user(f"player{i}") for i in range(args.tables * 4)]
        guild = emu.add_guild("Chaos", members=guild_users)
        tables: list[Table] = []
        users = iter(guild_users)
        for index in range(args.tables):
            kind = KINDS[index % len(KINDS)]
            humans = {"1v1": 2, "2v2": 4, "basic": 3, "computer": 1}[kind]
            channel = emu.add_text_channel(guild, f"table-{index}")
            tables.append(Table(kind, channel, [next(users) for _ in range(humans)]))
        bot = Bot(emu, db_target, home, args.timer)
        bot.start()
        await bot.ready()
        db = make_store(db_target)
        await db.open()
        try:
            await open_tables(emu, db, tables, guild.id)
            assert bot.process is not None
            rss_start = sum(total_rss([bot.process.pid]))
            emu.chaos = chaos_plan(args)
            started = time.monotonic()
            until = started + args.minutes * 60
            moves: list[Move] = []
            down = Down()
            players = [play(emu, db, t, args, until, moves, random.Random(rng.random())) for t in tables]
            chaos_task = misbehave(emu, bot, args, until, down, server, rng)
            *_, done = await asyncio.gather(*players, chaos_task)
            injected = Counter(emu.chaos.injected)
            emu.chaos.rules.clear()  # Discord behaves again (latency stays): now it settles
            diverged = await settle(emu, db, tables, args.settle)
            behind = await dms_behind(emu, db, tables)
            rss_end = sum(total_rss([bot.process.pid]))
            lost = await lost_moves(db, moves)
            late_up, late_down, late_away = late_acks(emu, moves, down)
            met = faults_of(emu, moves)
            dupes = await duplicates(emu, db, tables)
            tasks = await bot.stop()
            errors = bot.errors()
        finally:
            await db.close()
            if bot.process is not None and bot.process.poll() is None:
                bot.process.kill()
            if server is not None:
                server.stop()
    print(f"the bot's logs: {home}/bot-*.log")
    print_report(args, done, injected, moves, lost, diverged, behind, late_up, late_down, late_away,
                 met, dupes, tasks, rss_start, rss_end, time.monotonic() - started)
    print("errors in the bot's log:", ", ".join(f"{k!r} {n}" for k, n in errors.items()) or "none")
    # late acknowledgements are timing, reported and not judged here: a loaded machine's
    bad = len(lost) + len(diverged) + behind + sum(dupes.values()) + (tasks != "0")
    return 1 if bad else 0


def print_report(args: argparse.Namespace, done: list[str], injected: Counter[str],
                 moves: Sequence[Move], lost: Sequence[Move], diverged: Sequence[str],
                 behind: int, late_up: Sequence[Move], late_down: Sequence[Move],
                 late_away: Sequence[Move],
                 met: dict[str, list[Move]], dupes: Counter[str], tasks: str,
                 rss_start: float, rss_end: float, took: float) -> None:
    print(f"store {args.store}, {args.tables} tables, {args.minutes} min at one move per "
          f"{args.pace} s per table, latency {args.latency * 1000:.0f} ± {args.jitter * 1000:.0f} ms, "
          f"fault share {args.fault_share} per kind; {took:.0f} s in all")
    for line in done:
        print("  " + line)
    print("faults injected:", ", ".join(f"{k} {n}" for k, n in sorted(injected.items())))
    acked = [m for m in moves if m.answered]
    print(f"moves typed {len(moves)}, acknowledged with a hand {len(acked)}, "
          f"lost (acknowledged, not stored) {len(lost)}")
    print(f"tables whose channel does not show the stored table: {len(diverged)}")
    for line in diverged[:10]:
        print("  " + line[:300])
    print(f"hand DMs behind their stored hand once settled: {behind}")
    print(f"interactions not acknowledged within 3 s: {len(late_up)} while the bot was up, "
          f"{len(late_down)} while it was killed or starting, {len(late_away)} while its "
          "gateway connection was coming back")
    print("duplicated messages:", ", ".join(f"{k} {n}" for k, n in dupes.items()))
    print("by fault kind a move's own calls met: moves, acknowledged, lost, late")
    lost_ids = {m.interaction_id for m in lost}
    late_ids = {m.interaction_id for m in (*late_up, *late_down, *late_away)}
    for kind, hit in sorted(met.items()):
        unique = {m.interaction_id: m for m in hit}.values()
        print(f"  {kind:20} {len(unique):5} {sum(m.answered for m in unique):5} "
              f"{sum(m.interaction_id in lost_ids for m in unique):5} "
              f"{sum(m.interaction_id in late_ids for m in unique):5}")
    print(f"tasks left running at the bot's stop: {tasks}")
    print(f"RSS (bot + drawing) at the start {rss_start:.0f} MB, at the end {rss_end:.0f} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--pace", type=float, default=4.0, help="seconds between a table's moves")
    parser.add_argument("--latency", type=float, default=0.08)
    parser.add_argument("--jitter", type=float, default=0.04)
    parser.add_argument("--fault-share", type=float, default=0.004)
    parser.add_argument("--hang", type=float, default=2.0, help="a timeout's seconds before it drops")
    parser.add_argument("--gateway-every", type=float, default=35.0)
    parser.add_argument("--kill-every", type=float, default=70.0)
    parser.add_argument("--timer", type=int, default=1, help="turn timer, minutes")
    parser.add_argument("--settle", type=float, default=90.0)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
