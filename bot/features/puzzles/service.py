"""The puzzle of the day: when it is due, making it once, judging answers, keeping streaks.

Why a schedule without a table of its own: a server's manager sets a channel and an hour (UTC),
kept as server settings; the day's puzzle row is inserted when it is made (``add_puzzle``), so
it is made once, whoever tries first. The next post is due at the most recent hour that passed
without a puzzle of its day, else at the next hour: a bot that was down at the hour posts that
day's puzzle once when it starts, and never the days it missed before it. One
:class:`~bot.services.dispatcher.Dispatcher` sleeps until the nearest server's hour.

The puzzle is made off the event loop (a thread: the engine holds the GIL in short slices, and
a day's puzzle takes at most ~1 s of CPU, ``benchmarks/bench_puzzles.py``), from the server's
latest finished games when one holds a position of the day's kind, else from simulated games.
What is stored is a stand-in game with only what the mover saw, so an answer is judged on it
after any restart and nothing hidden can leak into the post.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from bot.features.puzzles.daily import Found, SourceGame, day_puzzle
from bot.features.puzzles.store import PuzzlesStore
from bot.services.dispatcher import Dispatcher
from bot.services.refusal import Refusal
from bot.storage import Deadline, Shards
from bot.storage.base import Clock, PuzzleAnswer, PuzzleRecord, PuzzleSchedule, utc_now
from rummy_engine import Face
from rummy_engine.actions import action_from_json
from rummy_engine.ai.puzzles import (
    Puzzle,
    PuzzleKind,
    Verdict,
    judge,
    puzzle_from_snapshot,
    puzzle_snapshot,
)
from rummy_engine.replay import replay

log = logging.getLogger(__name__)

CHANNEL_KEY, HOUR_KEY, SINCE_KEY = "puzzle.channel", "puzzle.hour", "puzzle.since"
#: The dispatcher's deadline kind (its "table id" is the server's id).
PUZZLE_DUE = "puzzle"
#: How many of a server's latest finished games a day's puzzle is looked for in.
SOURCE_GAMES = 12
#: How far back repeats are avoided and a streak is counted.
HISTORY_DAYS = 400


@dataclass(frozen=True)
class DayPuzzle:
    """A stored day's puzzle and the puzzle it holds."""

    record: PuzzleRecord
    puzzle: Puzzle

    @property
    def day(self) -> str:
        return self.record.day


@dataclass(frozen=True)
class Posting:
    """What a day's post shows: the puzzle, and yesterday's with how many solved it."""

    guild_id: int
    channel_id: int
    today: DayPuzzle
    yesterday: DayPuzzle | None
    solved: int
    answered: int


@dataclass(frozen=True)
class Answered:
    """A player's answer judged, and their streak of days solved after it."""

    verdict: Verdict
    streak: int


#: Posts a day's puzzle; returns the message's id (None: not posted, e.g. the channel is gone).
Post = Callable[[Posting], Awaitable[int | None]]


def day_of(moment: datetime) -> str:
    return moment.astimezone(UTC).date().isoformat()


def due_at(now: datetime, schedule: PuzzleSchedule, posted: Callable[[str], bool]) -> datetime:
    """The most recent ``hour`` o'clock (UTC) since the schedule was set that passed without
    its day's puzzle, else the next one."""
    today = now.astimezone(UTC).date()
    latest = datetime.combine(today, time(schedule.hour), tzinfo=UTC)
    if latest > now:
        latest -= timedelta(days=1)
    missed = latest >= schedule.since and not posted(latest.date().isoformat())
    return latest if missed else latest + timedelta(days=1)


def load(record: PuzzleRecord) -> DayPuzzle:
    kind = PuzzleKind(record.kind)
    return DayPuzzle(record, puzzle_from_snapshot(kind, record.seat, json.loads(record.snapshot)))


class PuzzleService:
    """Schedules, makes and posts each server's daily puzzle, and judges its answers."""

    def __init__(
        self,
        store: PuzzlesStore,
        *,
        post: Post,
        clock: Clock = utc_now,
        shards: Shards | None = None,
    ) -> None:
        self.store, self.post, self.clock, self.shards = store, post, clock, shards
        self.dispatcher = Dispatcher(self, self._fire, clock, shards)
        #: The puzzles judged lately, by (server, day): rebuilding one costs a solver call.
        self._loaded: dict[tuple[int, str], DayPuzzle] = {}

    def start(self) -> None:
        self.dispatcher.start()

    async def close(self) -> None:
        await self.dispatcher.close()

    # -- settings -------------------------------------------------------------------------------

    async def configure(self, guild_id: int, channel_id: int | None, hour: int) -> datetime | None:
        """Post this server's puzzles in ``channel_id`` at ``hour`` (UTC), or stop (None).
        Returns when the next one is due."""
        if not 0 <= hour <= 23:
            raise Refusal("puzzle.bad_hour", hour=hour)
        since = self.clock().replace(second=0, microsecond=0)
        await self.store.set_guild_setting(guild_id, HOUR_KEY, str(hour))
        await self.store.set_guild_setting(guild_id, SINCE_KEY, since.isoformat())
        value = None if channel_id is None else str(channel_id)
        await self.store.set_guild_setting(guild_id, CHANNEL_KEY, value)
        if channel_id is None:
            return None
        self.dispatcher.wake()
        return await self._due(PuzzleSchedule(guild_id, channel_id, hour, since))

    # -- the schedule (the dispatcher's deadline source) -----------------------------------------

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        found = [
            Deadline(s.guild_id, PUZZLE_DUE, await self._due(s), str(s.channel_id))
            for s in await self.store.puzzle_guilds(shards)
        ]
        return sorted(found, key=lambda d: d.due_at)[:limit]

    async def claim_deadline(self, deadline: Deadline) -> bool:
        return True  # the day's row is the claim (add_puzzle)

    async def _due(self, schedule: PuzzleSchedule) -> datetime:
        days = {day for day, _, _ in await self.store.puzzle_days(schedule.guild_id, 2)}
        return due_at(self.clock(), schedule, days.__contains__)

    async def _fire(self, deadline: Deadline) -> None:
        await self.post_day(deadline.table_id, int(deadline.generation), day_of(deadline.due_at))

    # -- making and posting ------------------------------------------------------------------------

    async def post_day(self, guild_id: int, channel_id: int, day: str) -> DayPuzzle | None:
        """Make and post ``day``'s puzzle, once; None if another process made it."""
        found = await self._make(guild_id, day)
        record = PuzzleRecord(
            guild_id,
            day,
            found.puzzle.kind.value,
            found.puzzle.key,
            found.puzzle.seat,
            json.dumps(puzzle_snapshot(found.puzzle)),
            credit=None if found.source is None else f"{found.source}|{found.puzzle.view.round_no}",
            channel_id=channel_id,
        )
        if not await self.store.add_puzzle(record):
            return None
        today = DayPuzzle(record, found.puzzle)
        await self._send(today, channel_id)
        return today

    async def resend_unsent(self) -> None:
        """Post a puzzle of today made but not posted (a crash or Discord failing in between)."""
        for schedule in await self.store.puzzle_guilds(self.shards):
            record = await self.store.get_puzzle(schedule.guild_id, day_of(self.clock()))
            if record is not None and record.message_id is None:
                await self._send(load(record), schedule.channel_id)

    async def _send(self, today: DayPuzzle, channel_id: int) -> None:
        guild_id = today.record.guild_id
        before = (date.fromisoformat(today.day) - timedelta(days=1)).isoformat()
        yesterday = await self._loaded_puzzle(guild_id, before)
        solved, answered = await self.store.puzzle_answers(guild_id, before)
        posting = Posting(guild_id, channel_id, today, yesterday, solved, answered)
        message_id = await self.post(posting)
        if message_id is not None:
            await self.store.set_puzzle_message(guild_id, today.day, channel_id, message_id)

    async def _make(self, guild_id: int, day: str) -> Found:
        seen = [key for _, _, key in await self.store.puzzle_days(guild_id, HISTORY_DAYS)]
        games = await self._source_games(guild_id)
        return await asyncio.to_thread(
            day_puzzle, date.fromisoformat(day), guild_id=guild_id, seen=seen, games=games
        )

    async def _source_games(self, guild_id: int) -> list[SourceGame]:
        """The server's latest finished games, as the engine replays them."""
        games = []
        for table in await self.store.finished_tables(guild_id, SOURCE_GAMES):
            moves = await self.store.list_moves(table.id)
            if len(moves) < 2:
                continue
            genesis = json.loads(moves[0].action_json)["genesis"]
            actions = [action_from_json(json.loads(m.action_json)) for m in moves[1:]]
            seats = await self.store.get_seats(table.id)
            names = " · ".join(s.name or "?" for s in seats)
            games.append(SourceGame(names, replay(genesis, ()), actions))
        return games

    # -- answers ---------------------------------------------------------------------------------

    async def current(self, guild_id: int, day: str) -> DayPuzzle:
        """The puzzle of ``day`` if it is still the server's current one (one sentence refuses
        an answer to an older post)."""
        latest = await self.store.puzzle_days(guild_id, 1)
        if not latest or latest[0][0] != day:
            raise Refusal("puzzle.not_current")
        found = await self._loaded_puzzle(guild_id, day)
        assert found is not None
        return found

    async def answer(self, guild_id: int, day: str, user_id: int, faces: Sequence[Face]) -> Answered:
        """Judge and keep a player's first answer to the current puzzle."""
        today = await self.current(guild_id, day)
        verdict = await asyncio.to_thread(judge, today.puzzle, faces)
        text = " ".join(f.text for f in faces)
        stored = PuzzleAnswer(guild_id, day, user_id, text, verdict.right, self.clock())
        if not await self.store.add_puzzle_answer(stored):
            raise Refusal("puzzle.answered")
        return Answered(verdict, await self.streak(guild_id, user_id))

    async def already_answered(self, guild_id: int, day: str, user_id: int) -> bool:
        days = await self.store.player_puzzle_days(guild_id, user_id, 1)
        return bool(days) and days[0][0] == day

    async def streak(self, guild_id: int, user_id: int) -> int:
        """Puzzles of this server solved in a row, up to the latest one (a latest one not yet
        answered does not break it)."""
        puzzle_days = [day for day, _, _ in await self.store.puzzle_days(guild_id, HISTORY_DAYS)]
        solved = dict(await self.store.player_puzzle_days(guild_id, user_id, HISTORY_DAYS))
        count = 0
        for index, day in enumerate(puzzle_days):
            if day not in solved and index == 0:
                continue
            if not solved.get(day):
                break
            count += 1
        return count

    async def _loaded_puzzle(self, guild_id: int, day: str) -> DayPuzzle | None:
        key = (guild_id, day)
        if key not in self._loaded:
            record = await self.store.get_puzzle(guild_id, day)
            if record is None:
                return None
            if len(self._loaded) > 64:
                self._loaded.clear()
            self._loaded[key] = await asyncio.to_thread(load, record)
        return self._loaded[key]
