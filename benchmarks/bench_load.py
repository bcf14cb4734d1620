"""Load benchmark: the real ``rummy-bot`` process, many tables of two humans, through the
loopback Discord emulator (``tests/discord_emulator``), nothing mocked.

Why: the cost of a move is spread over the engine, the store, the renderer, the event loop and
Discord's rate limits; only the whole process shows it. Each table is opened, joined and started
with slash commands, then its two players draw from the stock and discard a card (typed
``/rummy draw`` / ``/rummy discard``), either as fast as the bot answers (``--pace 0``, the
saturation point) or one move per table every ``--pace`` seconds.

What it prints, over the measured window: moves/s, the bot's CPU per move (from
``/proc/<pid>/stat``, its drawing processes included), its RSS and theirs, the time until the move is acknowledged (the interaction's
callback), until the mover's private reply shows the new hand, until the channel's table message
shows the move, and until the mover's hand DM shows the hand at the end of their turn (p50/p99);
then the REST calls per move, bot-token calls apart from interaction-token calls, by route.

    .venv/bin/python benchmarks/bench_load.py --tables 10 --pace 0 --seconds 20
    .venv/bin/python benchmarks/bench_load.py --tables 300 --pace 4 --seconds 30
    .venv/bin/python benchmarks/bench_load.py --tables 10 --pace 0 --seconds 20 --replays
    .venv/bin/python benchmarks/bench_load.py --tables 100 --pace 0 --seconds 20 --global-limit 50 --settle 15
    .venv/bin/python benchmarks/bench_load.py --tables 300 --pace 0 --seconds 30 --latency 0.08 --jitter 0.04

``--replays`` adds a table of two computers (its host sits out) played to the end of its first
round before the window (then closed), and a spectator who asks for that round's replay again and again
during the window, one at a time: compare its figures with a run without it, back to back, to
see whether a move slows down while a replay is drawn.

``--learners N`` adds N players who, during the window, work through the course (``/rummy-learn
lessons``, then its buttons and menus: right answers, wrong ones, the answer shown after two
misses; learner ``i`` starts at chapter ``i``) at the tables' pace, and answer the day's puzzle
once each (its post's Answer button, then the card menu; every other learner right), spread over
the window. The puzzle is set as ``/rummy-settings puzzle`` sets it, a day ago at this hour, so
the bot posts today's at start-up. It prints, for the lesson and for the puzzle interactions
apart, the time until acknowledged (p50/p99/slowest), how many after Discord's 3 s, the time
until the page shows the answer, and how many were judged otherwise than the learner meant; their
calls are not counted in the moves' calls.

    .venv/bin/python benchmarks/bench_load.py --tables 300 --pace 4 --seconds 30 --learners 50

``--processes N`` runs N bot processes, one shard each (``RUMMY_SHARD_COUNT=N``), with the
tables spread over one server per shard; ``--store postgres`` puts the database on a throw-away
PostgreSQL server (with its default, durable settings) instead of a SQLite file. CPU is summed
over the processes; RSS is given per process.

``--idle SECONDS`` keeps the bot running, with no load, for that long after the window and reads
its RSS (its drawing processes included, in MB = 10^6 bytes) every ``--sample`` seconds: with the
figures read when the tables were open (before the load) and at the window's end, this shows what
a burst of load takes and whether it is given back.

    .venv/bin/python benchmarks/bench_load.py --tables 300 --pace 0 --seconds 30 --idle 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.features.learn.chapters import CHAPTERS
from bot.features.learn.exercises import Control, Opens, mask_of
from bot.features.play.presenter import hand_lines
from bot.features.puzzles.service import Posting, PuzzleService, load
from bot.features.puzzles.ui.answers import day_text
from bot.storage import Store, make_store
from bot.storage.base import LessonProgress, utc_now
from bot.text import t
from rummy_engine import Game, Phase, player_view
from rummy_engine.ai import hint
from rummy_engine.solver import Opening
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.chaos import Chaos, Latency
from tests.discord_emulator.launch import process_env
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator, InteractionHandle, RequestRecord
from tests.helpers import postgres

PILES = re.compile(r"round (\d+).*?Stock: (\d+) · discard: .*?\((\d+) cards?\)", re.S)
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
SNOWFLAKE = re.compile(r"/\d{6,}")
TOKEN = re.compile(r"/itk-[\w-]+")


@dataclass
class Seat:
    """One table of the benchmark: its channel, its two players, its database id."""

    channel: EmuChannel
    users: tuple[EmuUser, EmuUser]
    table_id: int = 0
    #: The game as stored after this table's last move (only this table's players move it),
    #: so each move reads the database once, not twice: the benchmark's own CPU is spent on
    #: the emulator and the players, and at high rates it is the limit.
    game: Game | None = None


@dataclass
class Move:
    """One move as the benchmark saw it, with what the table and the DM must show after it."""

    seat: Seat
    mover: EmuUser
    turn_ends: bool
    sent: float
    interaction_id: int
    replied: float = 0.0
    progress: tuple[int, int] = (0, 0)
    hand: str = ""


@dataclass
class Run:
    """What one measured window produced."""

    moves: list[Move] = field(default_factory=list)
    #: The learners' lesson and puzzle interactions (--learners).
    presses: list[Press] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0
    cpu: float = 0.0
    drawing_cpu: float = 0.0
    until: float = 0.0
    own_cpu: float = 0.0


def start_bot(
    emu: DiscordEmulator,
    db: Path | str,
    home: Path,
    args: argparse.Namespace,
    shard: int,
    shards: int,
) -> subprocess.Popen[bytes]:
    """The real ``rummy-bot run`` against the emulator (running ``shard`` of ``shards`` when
    there are several), under cProfile when asked, at the bot's own pace unless asked, with
    ``--bot-env`` settings added to its environment (its drawing processes inherit them)."""
    profile: Path | None = args.profile
    extra_env: Sequence[str] = args.bot_env
    env = process_env(emu.http_base, emu.gateway_url, emu.token, db, home)
    env |= dict(setting.split("=", 1) for setting in extra_env)
    env["RUMMY_COMPUTER_DELAY_SECONDS"] = "0"  # only the --replays table has computers
    # No turn times out in the window, nor in an --idle period (5 minutes by default).
    env["RUMMY_TURN_TIMER_MINUTES"] = "30"
    if args.requests_per_second is not None:
        env["RUMMY_REQUESTS_PER_SECOND"] = str(args.requests_per_second)
    if shards > 1:
        env |= {"RUMMY_SHARD_COUNT": str(shards), "RUMMY_SHARDS": str(shard)}
        profile = profile and profile.with_suffix(f".{shard}{profile.suffix}")
    profiler = ["-m", "cProfile", "-o", str(profile)] if profile else []
    return subprocess.Popen(
        [sys.executable, *profiler, "-m", "tests.discord_emulator.launch", "run"],
        cwd=home,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=bot_log(home, shard).open("wb"),
    )


def bot_log(home: Path, shard: int) -> Path:
    return home / f"bot-{shard}.log"


def own_acks(home: Path, shards: int) -> None:
    """The bot's own figure of its acknowledgements (bot/ui/ack_watch.py, logged at its
    shutdown): timed from the interaction's snowflake when the callback starts, so without
    the emulator's own delay in reading it, which the figure above includes."""
    for shard in range(shards):
        for line in bot_log(home, shard).read_text(errors="replace").splitlines():
            if "acknowledged" in line and "interaction(s)" in line:
                print(f"bot {shard}'s own figure: {line.split('acknowledged', 1)[1].strip()}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, from /proc (fields 14 and 15, after the command name)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """The process and its descendants (the drawing processes it starts), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = [pid], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def family_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the bot process itself and of its drawing processes."""
    own, *others = family(pid)
    drawing = 0.0
    for member in others:
        with contextlib.suppress(OSError):
            drawing += cpu_seconds(member)
    return cpu_seconds(own), drawing


def bots_cpu(pids: list[int]) -> tuple[float, float]:
    """:func:`family_cpu` summed over the bot processes (one per shard)."""
    shares = [family_cpu(pid) for pid in pids]
    return sum(own for own, _ in shares), sum(drawing for _, drawing in shares)


def family_rss(pid: int, key: str = "VmRSS") -> str:
    """ "bot MB" or "bot MB + drawing MB" (the drawing processes summed)."""
    own, *others = family(pid)
    drawing = sum(rss_mb(p, key) for p in others)
    return f"{rss_mb(own, key):.0f}" + (f" + drawing {drawing:.0f}" if others else "")


def rss_mb(pid: int, key: str = "VmRSS") -> float:
    """A size from /proc/<pid>/status (given there in KiB) in MB (10^6 bytes); 0 when the
    process is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024 / 1e6
    return 0.0


def total_rss(pids: Sequence[int]) -> tuple[float, float]:
    """RSS of the bot processes and of their drawing processes, each summed, in MB."""
    bots = drawing = 0.0
    for pid in pids:
        own, *others = family(pid)
        bots += rss_mb(own)
        drawing += sum(rss_mb(p) for p in others)
    return bots, drawing


def rss_line(label: str, pids: Sequence[int]) -> str:
    bots, drawing = total_rss(pids)
    return f"{label}: {bots + drawing:.1f} MB (bot {bots:.1f} + drawing {drawing:.1f})"


async def idle_series(pids: Sequence[int], since: float, seconds: float, every: float) -> None:
    """RSS every ``every`` seconds while the bot idles, until ``seconds`` after ``since`` (the
    end of the load); then the figure after the idle period."""
    at = since
    while (at := at + every) < since + seconds:
        if at < time.monotonic():
            continue  # already past (while the results were read)
        await asyncio.sleep(at - time.monotonic())
        print(rss_line(f"  {time.monotonic() - since:5.0f} s after the load", pids), flush=True)
    await asyncio.sleep(max(0.0, since + seconds - time.monotonic()))
    print(rss_line(f"RSS after {seconds:.0f} s idle", pids), flush=True)


async def identified(emu: DiscordEmulator, shards: int) -> None:
    """Every process's shard connected (discord.py then waits 2 s for the servers)."""
    await emu.wait_until(
        lambda: len(emu.identify_payloads) >= shards, what="every shard's IDENTIFY", timeout=60
    )
    await asyncio.sleep(2.5)


async def stored_game(db: Store, table_id: int) -> Game:
    record = await db.get_table(table_id)
    assert record is not None and record.snapshot_json is not None
    return Game.from_json(json.loads(record.snapshot_json))


def progress_of(game: Game) -> tuple[int, int]:
    """A key that grows with every draw (stock - 1) and discard (pile + 1) within a round."""
    return game.round_no, len(game.discard) - len(game.stock)


def progress_shown(content: str) -> tuple[int, int] | None:
    match = PILES.search(content)
    if match is None:
        return None
    round_no, stock, discards = (int(g) for g in match.groups())
    return round_no, discards - stock


async def open_table(emu: DiscordEmulator, seat: Seat, db: Store) -> None:
    alice, bob = seat.users
    await (await emu.slash(alice, seat.channel, "rummy new", variant="r51")).followups(1, 60)
    await (await emu.slash(bob, seat.channel, "rummy join")).followups(1, 60)
    await (await emu.slash(alice, seat.channel, "rummy start")).followups(1, 60)
    guild_id = seat.channel.guild_id
    assert guild_id is not None
    [record] = [r for r in await db.list_active_tables(guild_id) if r.channel_id == seat.channel.id]
    seat.table_id = record.id


async def one_move(emu: DiscordEmulator, seat: Seat, db: Store) -> Move | None:
    """Draw from the stock, or discard the oldest card that is not a joker (not the one just
    drawn: that hand would be a picture already drawn); wait for the private reply."""
    game = seat.game or await stored_game(db, seat.table_id)
    if game.phase not in (Phase.DRAW, Phase.PLAY):
        return None
    mover = seat.users[game.current]
    sent = time.monotonic()
    if game.phase is Phase.DRAW:
        handle = await emu.slash(mover, seat.channel, "rummy draw", source="stock")
    else:
        card = next(c.text for c in game.hands[game.current] if c.text != "JK")
        handle = await emu.slash(mover, seat.channel, "rummy discard", card=card)
    move = Move(seat, mover, game.phase is Phase.PLAY, sent, handle.id)
    await handle.answer(timeout=120)
    move.replied = time.monotonic()
    after = seat.game = await stored_game(db, seat.table_id)
    move.progress = progress_of(after)
    move.hand = hand_lines(after.hands[seat.users.index(mover)], "en")
    return move


async def drive(
    emu: DiscordEmulator, seat: Seat, db: Store, pace: float, until: float, run: Run
) -> None:
    """One table's players: move after move, or one move every ``pace`` seconds."""
    next_at = time.monotonic() + (pace * (seat.table_id % 97) / 97 if pace else 0)
    while True:
        if pace:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += pace
        if time.monotonic() >= until:
            return
        move = await one_move(emu, seat, db)
        if move is None:
            return
        run.moves.append(move)


async def computers_round(
    emu: DiscordEmulator, channel: EmuChannel, host: EmuUser, db: Store
) -> int:
    """A table of two computers whose host sits out, played to its first round's summary;
    its id."""
    await (await emu.slash(host, channel, "rummy new", variant="r51")).answer(timeout=60)

    def lobbies() -> list[StoredMessage]:
        return [m for m in emu.channel_messages(channel) if not m.ephemeral and m.components]

    await emu.wait_until(lambda: bool(lobbies()), what="lobby", timeout=60)
    lobby = lobbies()[0]
    assert channel.guild_id is not None
    records = await db.list_active_tables(channel.guild_id)
    [table_id] = [r.id for r in records if r.channel_id == channel.id]
    await (await emu.click(host, lobby, f"rummy:{table_id}:0:sitout")).answer(timeout=60)
    for _ in range(2):
        await (await emu.slash(host, channel, "rummy computer", action="addbot")).answer()
    await (await emu.click(host, lobby, f"rummy:{table_id}:0:start")).answer(timeout=60)
    replay = f"rummy:{table_id}:0:replay:1"
    await emu.wait_until(
        lambda: any(replay in m.custom_ids() for m in emu.channel_messages(channel)),
        what="the computers' first round summary",
        timeout=300,
    )
    # closed, so that only the replays (no computer moves) run beside the measured moves
    await (await emu.slash(host, channel, "rummy cancel")).answer(timeout=60)
    return table_id


async def watch_replays(
    emu: DiscordEmulator, channel: EmuChannel, watcher: EmuUser, table_id: int, until: float
) -> list[float]:
    """Ask for round 1's replay again and again until ``until``; each answer's seconds."""
    took = []
    while time.monotonic() < until:
        sent = time.monotonic()
        handle = await emu.slash(watcher, channel, "rummy-stats replay", table=table_id, round=1)
        answer = await handle.answer(timeout=120)
        assert answer.attachments, answer.content
        took.append(time.monotonic() - sent)
    return took


# -- learners: the course and the day's puzzle beside the tables (--learners) -------------------


@dataclass
class Press:
    """One lesson or puzzle interaction of a learner: what it was, when it was sent, when the
    page showed its answer, and whether it was judged as the learner meant (right or wrong)."""

    kind: str  # "lesson" or "puzzle"
    what: str  # open, next, again, pick, check, yes, no, choose; answer, pick
    sent: float
    interaction_id: int
    token: str
    shown: float = 0.0
    as_meant: bool = True


@dataclass(frozen=True)
class DayPuzzleAnswers:
    """The puzzle post and the menu values of a right and of a wrong answer."""

    post: StoredMessage
    right: list[str]
    wrong: list[str]


def lesson_answers() -> dict[tuple[str, int], tuple[list[str], list[str]]]:
    """Every exercise's right and a wrong answer as its controls take them: the menu values of
    the cards to pick (PICK), ``yes``/``no``, the value to choose (CHOOSE); found with the
    course's own check (an opening from the engine's hint: 2^15 picks are too many to try)."""
    found: dict[tuple[str, int], tuple[list[str], list[str]]] = {}
    for chapter in CHAPTERS:
        for item, exercise in enumerate(chapter.exercises, 1):
            if exercise.control is Control.YES_NO:
                right = ["yes" if exercise.check("yes").right else "no"]
                wrong = ["no" if right == ["yes"] else "yes"]
            elif exercise.control is Control.CHOOSE:
                values = [str(v) for v in exercise.choices()]
                right = [next(v for v in values if exercise.check(v).right)]
                wrong = [next(v for v in values if not exercise.check(v).right)]
            else:
                cards = list(exercise.cards)
                if isinstance(exercise, Opens):
                    opening = hint(player_view(exercise.game(), 0), exercise.rules).opening
                    assert opening is not None
                    masks = [int(mask_of([cards.index(c) for m in opening.melds for c in m.cards]))]
                else:
                    masks = list(range(1, 1 << len(cards)))
                mask = next(m for m in masks if exercise.check(str(m)).right)
                right = [str(i) for i in range(len(cards)) if mask >> i & 1]
                wrong = [
                    next(str(i) for i in range(len(cards)) if not exercise.check(str(1 << i)).right)
                ]
            found[chapter.key, item] = right, wrong
    return found


async def seat_learners(db: Store, learners: Sequence[EmuUser]) -> None:
    """Learner ``i`` has read up to chapter ``i`` (of the course's, in turn): within a short
    window the learners answer every kind of exercise, not only the first chapter's."""
    for i, user in enumerate(learners):
        chapter = CHAPTERS[i % len(CHAPTERS)]
        assert await db.save_lesson_progress(LessonProgress(user.id, chapter.key, step=1), 0)


async def schedule_puzzle(db: Store, guild_id: int, channel_id: int) -> None:
    """What ``/rummy-settings puzzle`` stores, as if a manager had set the channel a day ago at
    this hour (UTC): the bot, started next, finds today's puzzle due and posts it at once (as a
    bot that was down at the hour does), instead of at this hour tomorrow."""
    yesterday = utc_now() - timedelta(days=1)

    async def no_post(posting: Posting) -> int | None:
        raise AssertionError("the bot's process posts the puzzle")

    service = PuzzleService(db, post=no_post, clock=lambda: yesterday)
    await service.close()  # this one fires nothing: the bot does
    await service.configure(guild_id, channel_id, yesterday.hour)


async def posted_puzzle(emu: DiscordEmulator, channel: EmuChannel, db: Store) -> DayPuzzleAnswers:
    """The day's post once the bot made it, and a right and a wrong answer to it (from the
    stored puzzle, as the bot judges it)."""

    def posts() -> list[StoredMessage]:
        return [
            m
            for m in emu.channel_messages(channel)
            if any(i.startswith("rummy:pz:") for i in m.custom_ids())
        ]

    await emu.wait_until(lambda: bool(posts()), what="the puzzle of the day", timeout=120)
    post = posts()[0]
    _, _, guild, day = post.custom_ids()[0].split(":")
    record = await db.get_puzzle(int(guild), day_text(int(day)))
    assert record is not None
    puzzle = load(record).puzzle
    if isinstance(puzzle.best, Opening):
        faces = [c.face.text for m in puzzle.best.melds for c in m.cards]
        cut = len(puzzle.best.melds[0].cards) if len(puzzle.best.melds) > 1 else 2
        numbered = [f"{f}:{faces[:i].count(f) + 1}" for i, f in enumerate(faces)]
        return DayPuzzleAnswers(post, numbered, numbered[:cut])
    good = sorted(f.text for f in puzzle.answers)
    bad = next(c.face.text for c in puzzle.view.hand if c.face not in puzzle.answers)
    return DayPuzzleAnswers(post, [f"{good[0]}:1"], [f"{bad}:1"])


@dataclass
class Learner:
    """A player taking the course, who answers the day's puzzle once, at ``puzzle_at``."""

    user: EmuUser
    index: int
    #: When, after the window's start, its first interaction goes (the learners spread over
    #: a pace), and when it answers the puzzle.
    offset: float
    puzzle_at: float
    page: StoredMessage | None = None
    menu: StoredMessage | None = None
    puzzled: bool = False
    #: Answers given per exercise on this lap of the course.
    tries: Counter[tuple[str, int]] = field(default_factory=Counter)


async def learner_press(
    emu: DiscordEmulator,
    run: Run,
    kind: str,
    what: str,
    message: StoredMessage | None,
    send: Callable[[], Awaitable[InteractionHandle]],
) -> tuple[Press, StoredMessage | None]:
    """Send one interaction; wait for its acknowledgement, then for the page to show the
    answer (``message`` edited; a command's or a private menu's: its first answer). Returns
    the press and the page, None if no answer came."""
    before = len(emu.get_message(message.channel_id, message.id).shown) if message else 0
    sent = time.monotonic()
    handle = await send()
    press = Press(kind, what, sent, handle.id, handle.token)
    run.presses.append(press)
    try:
        if message is None:
            page = await handle.answer(timeout=120)
        else:
            await handle.response(timeout=120)
            page = emu.get_message(message.channel_id, message.id)
            while len(page.shown) <= before:
                await asyncio.wait_for(page.edited.wait(), 120)
    except (AssertionError, TimeoutError):
        press.as_meant = False
        return press, None
    press.shown = time.monotonic()
    return press, page


async def learner_step(
    emu: DiscordEmulator,
    learner: Learner,
    channel: EmuChannel,
    answers: dict[tuple[str, int], tuple[list[str], list[str]]],
    puzzle: DayPuzzleAnswers,
    run: Run,
) -> None:
    """The learner's next interaction: the puzzle's pick once its menu is open; the puzzle's
    Answer button once its time came; else the course's next control (opened first)."""
    user = learner.user
    if learner.menu is not None:
        menu = learner.menu
        [pick] = [i for i in menu.custom_ids() if i.startswith("rummy:pzp:")]
        meant = learner.index % 2 == 0  # every other learner answers right
        values = puzzle.right if meant else puzzle.wrong
        press, page = await learner_press(
            emu, run, "puzzle", "pick", menu, lambda: emu.select(user, menu, pick, values)
        )
        said = page.content if page is not None else ""
        press.as_meant = press.as_meant and said.startswith("Right:" if meant else "Not ")
        learner.menu, learner.puzzled = None, True
        return
    if not learner.puzzled and time.monotonic() - run.started >= learner.puzzle_at:
        [button] = [i for i in puzzle.post.custom_ids() if i.startswith("rummy:pz:")]
        press, page = await learner_press(
            emu, run, "puzzle", "answer", None, lambda: emu.click(user, puzzle.post, button)
        )
        has_menu = page is not None and any(i.startswith("rummy:pzp:") for i in page.custom_ids())
        press.as_meant = press.as_meant and has_menu
        learner.menu, learner.puzzled = (page, False) if has_menu else (None, True)
        return
    if learner.page is None:
        _, learner.page = await learner_press(
            emu,
            run,
            "lesson",
            "open",
            None,
            lambda: emu.slash(user, channel, "rummy-learn lessons"),
        )
        return
    page = emu.get_message(learner.page.channel_id, learner.page.id)
    controls = {
        parts[6]: (custom_id, parts)
        for custom_id in page.custom_ids(enabled_only=True)
        if (parts := custom_id.split(":"))[:2] == ["rummy", "learn"]
    }
    if "next" in controls or "again" in controls:
        what = "next" if "next" in controls else "again"
        if what == "again":
            learner.tries.clear()
        custom_id = controls[what][0]
        _, learner.page = await learner_press(
            emu, run, "lesson", what, page, lambda: emu.click(user, page, custom_id)
        )
        return
    parts = next(iter(controls.values()))[1]
    exercise = (parts[3], int(parts[4]))
    tries = learner.tries[exercise]
    # right at once, wrong then right, or wrong twice (the answer is then shown), in turn
    meant = [True, tries > 0, False][(learner.index + exercise[1]) % 3]
    right, wrong = answers[exercise]
    given = right if meant else wrong
    if "pick" in controls:
        mask = mask_of([int(v) for v in given])
        check = controls.get("check")
        if check is None or check[1][7:] != [mask]:  # the cards are not picked yet
            pick_id = controls["pick"][0]
            _, learner.page = await learner_press(
                emu,
                run,
                "lesson",
                "pick",
                page,
                lambda: emu.select(user, page, pick_id, given),
            )
            return
        what, send = "check", lambda: emu.click(user, page, check[0])
    elif "choose" in controls:
        choose_id = controls["choose"][0]
        what, send = "choose", lambda: emu.select(user, page, choose_id, given)
    else:
        what, send = given[0], lambda: emu.click(user, page, controls[given[0]][0])
    press, learner.page = await learner_press(emu, run, "lesson", what, page, send)
    learner.tries[exercise] += 1
    said = learner.page.content if learner.page is not None else ""
    mark = t("learn.right" if meant else "learn.wrong", "en")
    press.as_meant = press.as_meant and mark in said


async def learn(
    emu: DiscordEmulator,
    learner: Learner,
    channel: EmuChannel,
    answers: dict[tuple[str, int], tuple[list[str], list[str]]],
    puzzle: DayPuzzleAnswers,
    pace: float,
    run: Run,
) -> None:
    """One learner: an interaction every ``pace`` seconds (or as fast as answered) until the
    window's end; the course opened again if a page went unanswered."""
    next_at = run.started + learner.offset
    while True:
        if pace:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += pace
        if time.monotonic() >= run.until:
            return
        await learner_step(emu, learner, channel, answers, puzzle, run)


def first_shown(messages: Sequence[StoredMessage], after: float, wanted: str) -> float | None:
    times = [at for m in messages for at, text in m.shown if at >= after and wanted in text]
    return min(times, default=None)


def already_shown(messages: Sequence[StoredMessage], before: float, wanted: str) -> bool:
    """Whether the newest DM before the move showed that hand already: a turn that drew a card
    and discarded its twin leaves the hand as it was, and its DM is rightly not edited."""
    shown = [(at, text) for m in messages for at, text in m.shown if at < before]
    return bool(shown) and wanted in max(shown)[1]


def table_shown(messages: Sequence[StoredMessage], move: Move) -> float | None:
    times = [
        at
        for m in messages
        for at, text in m.shown
        if at >= move.sent
        and (shown := progress_shown(text)) is not None
        and shown >= move.progress
    ]
    return min(times, default=None)


def pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def route_of(path: str) -> str:
    return TOKEN.sub("/{token}", SNOWFLAKE.sub("/{id}", path))


def callbacks(emu: DiscordEmulator) -> dict[int, float]:
    """When each interaction's acknowledgement reached Discord (the emulator), not when the
    bot answered it, by interaction id."""
    return {
        int(r.path.split("/")[2]): r.started
        for r in emu.requests
        if r.path.startswith("/interactions/") and r.path.endswith("/callback")
    }


def report_learners(emu: DiscordEmulator, run: Run, learners: int) -> None:
    """The lesson and puzzle interactions apart: how many of each control, the time until
    acknowledged and until the page showed the answer, and how many were judged otherwise
    than the learner meant (a right answer taken as wrong, or the reverse) or went unanswered."""
    acks = callbacks(emu)
    print(f"learners {learners}:")
    for kind in ("lesson", "puzzle"):
        presses = [p for p in run.presses if p.kind == kind]
        ack = [
            1000 * (acks[p.interaction_id] - p.sent) for p in presses if p.interaction_id in acks
        ]
        shown = [1000 * (p.shown - p.sent) for p in presses if p.shown]
        late = sum(1 for a in ack if a > 3000) + len(presses) - len(ack)
        counts = ", ".join(f"{what} {n}" for what, n in Counter(p.what for p in presses).items())
        print(
            f"  {kind} interactions {len(presses)} ({counts}): ack p50/p99/slowest"
            f" {pct(ack, 0.5):.0f} / {pct(ack, 0.99):.0f} / {max(ack, default=0):.0f} ms;"
            f" later than Discord's 3 s: {late}"
        )
        print(
            f"    page shows the answer p50/p99 {pct(shown, 0.5):.0f} / {pct(shown, 0.99):.0f} ms;"
            f" not as meant or unanswered: {sum(not p.as_meant for p in presses)}"
        )


def report(emu: DiscordEmulator, run: Run, pids: Sequence[int], tables: int, pace: float) -> None:
    moves = run.moves
    n = len(moves)
    # Paced players start no move after the window, but wait up to a pace to notice: the
    # moves/s count the window only (the CPU counts until the last player stopped).
    span = min(run.ended, run.until) - run.started
    acks = callbacks(emu)
    ack = [1000 * (acks[m.interaction_id] - m.sent) for m in moves if m.interaction_id in acks]
    reply = [1000 * (m.replied - m.sent) for m in moves]
    shown_table, shown_dm, missing = [], [], Counter[str]()
    for m in moves:
        # deleted messages too: each turn's table message showed its moves until the next
        # turn's replaced it
        every = emu.channel_messages(m.seat.channel, include_deleted=True)
        public = [x for x in every if not x.ephemeral]
        at = table_shown(public, m)
        if at is None:
            missing["table"] += 1
        else:
            shown_table.append(1000 * (at - m.sent))
        if m.turn_ends:
            dms = emu.dm_messages(m.mover)
            at = first_shown(dms, m.sent, m.hand)
            if at is not None:
                shown_dm.append(1000 * (at - m.sent))
            elif not already_shown(dms, m.sent, m.hand):
                missing["dm"] += 1
    learners = {p.token for p in run.presses}  # their calls are not the moves'
    calls = Counter(
        (
            "interaction" if r.path.startswith(INTERACTION_ROUTES) else "bot",
            r.method,
            route_of(r.path),
        )
        for r in emu.requests
        if run.started <= r.started <= run.ended
        and not r.path.startswith("/gateway")
        and not ((token := TOKEN.search(r.path)) and token.group()[1:] in learners)
    )
    print(f"tables {tables}, pace {'saturation' if not pace else f'1 move / table / {pace:g} s'}")
    print(f"moves {n} in {span:.1f} s: {n / span:.1f} moves/s")
    rss = "; ".join(family_rss(pid) for pid in pids)
    per_move = 1000 / max(n, 1)
    print(
        f"bot CPU {run.cpu * per_move:.2f} ms/move (drawing included:"
        f" {run.drawing_cpu * per_move:.2f} in drawing processes); RSS {rss} MB"
    )
    own = 1000 * run.own_cpu / max(n, 1)
    print(f"benchmark's own CPU (emulator and players) {own:.2f} ms/move")
    late = sum(1 for a in ack if a > 3000) + n - len(ack)
    print(
        f"ack p50/p99/slowest {pct(ack, 0.5):.0f} / {pct(ack, 0.99):.0f} / {max(ack, default=0):.0f}"
        f" ms; later than Discord's 3 s: {late}"
    )
    print(f"reply with the hand p50/p99 {pct(reply, 0.5):.0f} / {pct(reply, 0.99):.0f} ms")
    print(
        f"table shows the move p50/p99 {pct(shown_table, 0.5):.0f} / {pct(shown_table, 0.99):.0f} ms"
    )
    print(
        f"hand DM at the end of the turn p50/p99 {pct(shown_dm, 0.5):.0f} / "
        f"{pct(shown_dm, 0.99):.0f} ms"
    )
    if missing:
        print(f"never shown before the end: {dict(missing)}")
    for kind in ("bot", "interaction"):
        total = sum(v for k, v in calls.items() if k[0] == kind)
        print(f"{kind}-token REST calls per move: {total / max(n, 1):.2f}")
        for (k, method, route), count in sorted(calls.items(), key=lambda kv: -kv[1]):
            if k == kind:
                print(f"    {count / max(n, 1):5.2f}  {method} {route}")


def full_since(records: Sequence[RequestRecord], limit: float) -> float:
    """When the calls let through first filled four fifths of the bucket within a second (the
    bot's own pace, 45/s, is nine tenths of Discord's 50)."""
    times = sorted(r.started for r in records)
    first = 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        if last - first + 1 >= 0.8 * limit:
            return at
    return float("inf")


def busiest_second(records: Sequence[RequestRecord]) -> int:
    """The most calls within any one second (the bucket's own measure)."""
    times = sorted(r.started for r in records)
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def at_limit(
    emu: DiscordEmulator, run: Run, seats: Sequence[Seat], db: Store, limit: float
) -> None:
    """At the global bucket: how often it answered 429, which calls it let through while it
    was (nearly) full (the table's before the DMs') and after the load, and whose hand DM does
    not show their stored hand at the end."""
    bot = [
        r
        for r in emu.requests
        if r.started >= run.started and not r.path.startswith((*INTERACTION_ROUTES, "/gateway"))
    ]
    over = [r for r in bot if r.limited == "global"]

    def split(records: list[RequestRecord]) -> str:
        dms = sum(
            emu.channels[int(r.path.split("/")[2])].is_dm for r in records if "/channels/" in r.path
        )
        return f"{len(records) - dms} table / {dms} DM"

    through = [r for r in bot if r.status != 429]
    first = min(full_since(through, limit), min((r.started for r in over), default=run.ended))
    print(f"global 429s: {len(over)} (of {len(bot)} bot-token calls)")
    during = [r for r in through if run.started <= r.started <= run.ended]
    print(
        f"bot-token calls let through during the load: {len(during) / (run.ended - run.started):.1f}"
        f"/s, at most {busiest_second(during)} in a second"
    )
    print(
        f"let through at the limit: {split([r for r in through if first <= r.started <= run.ended])}"
    )
    after = [r for r in through if r.started > run.ended]
    last = max((r.started - run.ended for r in after), default=0.0)
    print(f"let through after the load: {split(after)}, the last {last:.1f} s after it")
    behind = 0
    for seat in seats:
        game = await stored_game(db, seat.table_id)
        for index, user in enumerate(seat.users):
            if game.current == index and game.phase is Phase.PLAY:
                continue  # mid-turn: the DM shows the hand at the end of the turn
            dms = emu.dm_messages(user)
            behind += not dms or hand_lines(game.hands[index], "en") not in dms[-1].content
    print(f"hand DMs behind their stored hand at the end: {behind}")


async def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        server = postgres.start(durable=True) if args.store == "postgres" else None
        try:
            target = home / "rummy.db" if server is None else server.tcp_dsn
            async with make_store(target) as db:  # creates the schema before the bots start
                await measure(args, db, target, home)
        finally:
            if server is not None:
                server.stop()


async def measure(args: argparse.Namespace, db: Store, target: Path | str, home: Path) -> None:
    tables, pace, settle, shards = args.tables, args.pace, args.settle, args.processes
    async with emulated_discord() as emu:
        users = [emu.add_user(f"{side}{i}") for i in range(tables) for side in "ab"]
        guilds = [
            emu.add_guild(f"Load {s}", members=users, shard=(s, shards)) for s in range(shards)
        ]
        seats = [
            Seat(
                emu.add_text_channel(guilds[i % shards], f"t{i}"), (users[2 * i], users[2 * i + 1])
            )
            for i in range(tables)
        ]
        watcher = emu.add_user("watcher")
        replay_channel = emu.add_text_channel(guilds[0], "replays")
        guilds[0].member_ids.append(watcher.id)
        learners = [emu.add_user(f"learner{i}") for i in range(args.learners)]
        guilds[0].member_ids.extend(u.id for u in learners)
        learn_channel = emu.add_text_channel(guilds[0], "learn")
        puzzle_channel = emu.add_text_channel(guilds[0], "puzzle")
        if learners:
            await schedule_puzzle(db, guilds[0].id, puzzle_channel.id)
            await seat_learners(db, learners)
        answers = lesson_answers() if learners else {}
        bots = [start_bot(emu, target, home, args, s, shards) for s in range(shards)]
        try:
            await identified(emu, shards)
            puzzle = await posted_puzzle(emu, puzzle_channel, db) if learners else None
            replayed = (
                await computers_round(emu, replay_channel, watcher, db) if args.replays else 0
            )
            gate = asyncio.Semaphore(16)

            async def opened(seat: Seat) -> None:
                async with gate:
                    await open_table(emu, seat, db)

            t0 = time.monotonic()
            await asyncio.gather(*(opened(s) for s in seats))
            await asyncio.sleep(settle)
            print(f"{tables} tables open in {time.monotonic() - t0:.1f} s", flush=True)
            pids = [b.pid for b in bots]
            before = rss_line("RSS before the load (tables open)", pids)
            emu.global_limit = args.global_limit  # the tables are opened apart from the load
            if args.latency:  # Discord's own delay on every call and event, from now on
                gateway = Latency(args.latency / 2, args.jitter / 2)
                emu.chaos = Chaos(rest=Latency(args.latency, args.jitter), gateway=gateway)
            run = Run(started=time.monotonic())
            (bot0, drawing0), own0 = bots_cpu(pids), cpu_seconds(os.getpid())
            until = run.until = run.started + args.seconds
            watching = (
                asyncio.ensure_future(watch_replays(emu, replay_channel, watcher, replayed, until))
                if args.replays
                else None
            )
            learning = [
                learn(emu, learner, learn_channel, answers, puzzle, pace, run)
                for learner in (
                    Learner(
                        u, i, pace * i / len(learners), args.seconds * (i + 0.5) / len(learners)
                    )
                    for i, u in enumerate(learners)
                )
                if puzzle is not None
            ]
            await asyncio.gather(*(drive(emu, s, db, pace, until, run) for s in seats), *learning)
            run.ended = time.monotonic()
            after_load = rss_line("RSS at the end of the load", pids)
            replays = await watching if watching is not None else []
            bot1, drawing1 = bots_cpu(pids)
            run.cpu, run.drawing_cpu = bot1 - bot0 + drawing1 - drawing0, drawing1 - drawing0
            run.own_cpu = cpu_seconds(os.getpid()) - own0
            await asyncio.sleep(settle)  # let the last messages catch up before reading
            print(f"{shards} process(es), {args.store}")
            report(emu, run, [b.pid for b in bots], tables, pace)
            if learners:
                report_learners(emu, run, len(learners))
            if replays:
                print(
                    f"replays drawn beside the moves: {len(replays)}, "
                    f"answer p50 {pct(replays, 0.5):.2f} s, max {max(replays):.2f} s"
                )
            if args.global_limit:
                await at_limit(emu, run, seats, db, args.global_limit)
            peaks = "; ".join(family_rss(b.pid, "VmHWM") for b in bots)
            print(f"peak RSS {peaks} MB")
            if args.idle:
                print(before, after_load, sep="\n", flush=True)
                await idle_series(pids, run.ended, args.idle, args.sample)
        finally:
            for bot in bots:
                bot.terminate()  # the emulator keeps answering while the bots shut down
            for bot in bots:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    await asyncio.get_running_loop().run_in_executor(None, bot.wait, 30)
        own_acks(home, shards)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between a table's moves")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the window")
    parser.add_argument("--settle", type=float, default=5.0, help="wait before reading results")
    parser.add_argument("--profile", type=Path, help="write the bot's cProfile stats here")
    parser.add_argument("--processes", type=int, default=1, help="bot processes, one shard each")
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--latency", type=float, default=0.0,
        help="seconds Discord takes to answer each call during the window (half as much for a "
        "gateway event), as real Discord does rather than loopback's microseconds",
    )
    parser.add_argument("--jitter", type=float, default=0.0, help="± seconds on --latency")
    parser.add_argument(
        "--replays", action="store_true", help="draw replays, one after another, beside the moves"
    )
    parser.add_argument(
        "--learners",
        type=int,
        default=0,
        help="players who take the course (/rummy-learn lessons) at the tables' pace during the "
        "window, and answer the day's puzzle once each",
    )
    parser.add_argument(
        "--global-limit", type=float, help="the emulator's global bot-token bucket, per second"
    )
    parser.add_argument(
        "--requests-per-second",
        type=int,
        help="the bot's own pace of bot-token calls, all processes together "
        "(RUMMY_REQUESTS_PER_SECOND; default: the bot's, 45; 0: unpaced)",
    )
    parser.add_argument(
        "--idle", type=float, default=0.0, help="seconds to idle after the load, reading RSS"
    )
    parser.add_argument(
        "--sample", type=float, default=10.0, help="seconds between RSS readings while idle"
    )
    parser.add_argument(
        "--bot-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="add to the bot's environment (e.g. MALLOC_ARENA_MAX=2), again for more",
    )
    args = parser.parse_args(argv)
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
