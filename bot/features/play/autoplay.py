"""What happens at a table without anyone clicking: the next round after a pause, a computer
seat's turn, the turn timer (a private reminder, then the turn played for an absent player,
then the host's choice about them), and housekeeping (idle lobbies and games close).

Why a service of its own: the table service only answers requests, the Discord layer only shows
what is stored; the work that follows a commit by itself sits between them. All of it is one
mechanism: after every commit :meth:`Autoplay.after` stores the deadlines the table needs now
(:class:`~bot.storage.Deadline`), and one :class:`~bot.services.dispatcher.Dispatcher` wakes
for the nearest. It publishes and reminds through callbacks, so it never imports the Discord
layer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from bot.features.play.tables import Played, Table, TableService
from bot.features.play.turn_timer import REMIND_AT, turn_length
from bot.services.dispatcher import Dispatcher
from bot.storage import Deadline, Shards
from bot.storage.base import Clock, utc_now
from rummy_engine import Event, Phase, RuleViolation

log = logging.getLogger(__name__)

Publish = Callable[[Table, Sequence[Event]], Awaitable[None]]
#: Tell a player privately that their time is running out: (table, seat, when it runs out).
Remind = Callable[[Table, int, datetime], Awaitable[None]]

#: A lobby nobody touched for this long closes itself.
LOBBY_IDLE = timedelta(minutes=30)
#: A game no human played for this long ends without a result.
GAME_IDLE = timedelta(hours=24)

TURN, REMIND, ABSENT = "turn", "remind", "absent"
NEXT_ROUND, COMPUTER = "next_round", "computer"
LOBBY_IDLE_KIND, GAME_IDLE_KIND = "lobby_idle", "game_idle"


async def _no_reminder(table: Table, seat: int, when: datetime) -> None:
    return None


class Autoplay:
    """Arms the deadlines of every table and runs them when they are due."""

    def __init__(
        self,
        tables: TableService,
        publish: Publish,
        *,
        next_round_delay: float,
        computer_delay: float,
        clock: Clock = utc_now,
        remind: Remind = _no_reminder,
        shards: Shards | None = None,
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.publish = publish
        self.remind = remind
        self.next_round_delay = timedelta(seconds=next_round_delay)
        self.computer_delay = timedelta(seconds=computer_delay)
        self.clock = clock
        self.dispatcher = Dispatcher(self.store, self.fire, clock, shards)
        # What this process last armed per table, as (kind, generation) pairs: arming the same
        # again changes no row, so the write (and the dispatcher's wake-up) is skipped. Only
        # this process writes deadlines, and claims never change a generation, so it stays true.
        self._armed: dict[int, tuple[tuple[str, str], ...]] = {}
        # The deadlines as stored after this process last armed them, so the table message can
        # show them without reading them back; forgotten when one fires (a claim changes it).
        self._due: dict[int, tuple[Deadline, ...]] = {}

    # -- arming ----------------------------------------------------------------------------------

    def wanted(self, table: Table, *, idle_from: datetime | None = None) -> list[Deadline]:
        """The deadlines ``table`` needs now. A generation already stored keeps its due time, so
        only a new turn, round or lobby change moves one.

        The idle game's deadline is set at the start, and moved only when it comes (to
        ``idle_from``, a person's last move, plus GAME_IDLE; see :meth:`_idle_game`): moved at
        each turn, it cost a write per turn of every table."""
        now, tid, record = self.clock(), table.id, table.record
        if record.status == "lobby":
            return [Deadline(tid, LOBBY_IDLE_KIND, now + LOBBY_IDLE, f"v{record.revision}")]
        game = table.game
        if record.status != "active" or game is None:
            return []
        since = "" if idle_from is None else f"since {idle_from.isoformat()}"
        idle = Deadline(tid, GAME_IDLE_KIND, (idle_from or now) + GAME_IDLE, since)
        wanted = [idle]
        if game.phase is Phase.ROUND_OVER:
            wanted.append(
                Deadline(tid, NEXT_ROUND, now + self.next_round_delay, f"r{game.round_no}")
            )
        turn = table.game_turn
        if turn is not None and table.is_computer(game.current):
            wanted.append(Deadline(tid, COMPUTER, now + self.computer_delay, turn, game.current))
        elif turn is not None and table.turn_timer:
            length = turn_length(table.turn_timer)
            wanted.append(Deadline(tid, TURN, now + length, turn, game.current))
            wanted.append(Deadline(tid, REMIND, now + length * REMIND_AT, turn, game.current))
        absent = table.absent_seat()
        if absent is not None and table.turn_timer:
            length = turn_length(table.turn_timer)
            wanted.append(Deadline(tid, ABSENT, now + length, f"s{absent}", absent))
        return wanted

    async def after(
        self, table: Table, *, idle_from: datetime | None = None
    ) -> tuple[Deadline, ...] | None:
        """Store what the table needs next and wake the dispatcher. Call it after every commit,
        before publishing, so the table message shows the deadlines that will run. Returns the
        table's deadlines as stored, when known without a read (None: ask the store)."""
        wanted = self.wanted(table, idle_from=idle_from)
        key = tuple((d.kind, d.generation) for d in wanted)
        if self._armed.get(table.id) == key:
            return self._due.get(table.id)
        stored = tuple(await self.store.arm_deadlines(table.id, wanted))
        if wanted:
            self._armed[table.id] = key
            self._due[table.id] = stored
        else:
            self._armed.pop(table.id, None)
            self._due.pop(table.id, None)
        pending = [d.due_at for d in stored if not d.fired]
        if pending:  # one gone can only leave the timer early, which it survives
            self.dispatcher.wake(min(pending))
        return stored

    def start(self) -> None:
        self.dispatcher.start()

    async def close(self) -> None:
        await self.dispatcher.close()

    # -- firing ----------------------------------------------------------------------------------

    async def fire(self, deadline: Deadline) -> None:
        """Do what a due deadline stands for (each handler checks it still applies)."""
        tid, kind = deadline.table_id, deadline.kind
        self._due.pop(tid, None)
        if kind == COMPUTER:
            await self._done(await self.tables.play_computer_turn(tid))
        elif kind == NEXT_ROUND:
            try:
                await self._done(await self.tables.next_round(tid, None, claim=deadline))
            except RuleViolation:
                return
        elif kind == TURN:
            await self._done(await self.tables.play_timed_out_turn(tid, deadline))
        elif kind == REMIND:
            await self._reminder(deadline)
        elif kind == ABSENT:
            assert deadline.seat is not None
            try:
                change = await self.tables.decide_absent(
                    tid, deadline.seat, "replace", None, claim=deadline
                )
            except RuleViolation:
                return
            await self._done(change)
        elif kind == GAME_IDLE_KIND:
            await self._idle_game(deadline)
        elif kind == LOBBY_IDLE_KIND:
            await self._close_idle(deadline)
        else:
            log.warning("table %s: unknown deadline kind %r", tid, kind)

    async def _idle_game(self, deadline: Deadline) -> None:
        """The game closes when no person moved for GAME_IDLE; if someone did since the
        deadline was set, it is set again, GAME_IDLE after their last move."""
        since = self.clock() - GAME_IDLE
        if await self._close_idle(deadline, idle_since=since):
            return
        last = await self.store.last_human_move_at(deadline.table_id)
        if last is not None and last > since:
            await self.after(await self.tables.load(deadline.table_id), idle_from=last)

    async def _close_idle(self, deadline: Deadline, idle_since: datetime | None = None) -> bool:
        closed = await self.tables.close_idle(deadline.table_id, deadline, idle_since=idle_since)
        if closed is None:
            return False
        await self.after(closed)
        await self.publish(closed, ())
        return True

    async def _done(self, change: Played | Table | None) -> None:
        if change is None:
            return
        table = change.table if isinstance(change, Played) else change
        events = change.events if isinstance(change, Played) else ()
        await self.after(table)
        await self.publish(table, events)

    async def _reminder(self, deadline: Deadline) -> None:
        """Claimed first: a crash may lose a reminder, never send it twice. Only for a turn
        still running: a bot started after the turn's end plays it instead of announcing an
        end that has passed."""
        if not await self.store.claim_deadline(deadline):
            return
        table = await self.tables.load(deadline.table_id)
        if table.game_turn != deadline.generation or deadline.seat is None:
            return
        turn = next((d for d in await self.store.get_deadlines(table.id) if d.kind == TURN), None)
        if turn is None or turn.fired or turn.due_at <= self.clock():
            return
        await self.remind(table, deadline.seat, turn.due_at)
