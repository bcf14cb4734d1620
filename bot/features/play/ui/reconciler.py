"""The reconciler: every message the bot owns for a table is a projection of the stored table.

Why: a move is committed before anything is sent, and anything can happen between that commit
and the last Discord call (a crash, a 404, a 5xx, a rate limit). So nothing here is pushed "for
a move": after every commit, and for every table not yet published at start-up, one pass
compares what each message shows (its stored stamp) with what the stored table calls for, and
catches up. Passes are idempotent and coalesce: requests that arrive while a pass runs are served
by one more pass on the newest state. New messages carry a nonce Discord de-duplicates, and are
recorded as soon as they exist, so a crash between the two does not post them twice.

What each message shows is read from the store once per table and process, then kept in memory
beside every write of it (the reconciler is the only writer); a failed pass forgets it, so the
next pass reads it again. The mover's hand DM is brought up to date at the end of their turn:
during it, the private reply to each move shows their hand.

Messages of a table: ``table`` (lobby, then the game), ``turn`` (the notice that pings the
player to act, once per turn), ``hand:<seat>`` (each player's DM), ``round:<n>`` (each round's
summary, posted once). A closed table shows its final state, without live buttons.

Discord allows a bot token 50 requests per second across every server, while an interaction's
own token is limited apart (bot/ui/courier.py). So the table's public messages ride on the
moves made in its channel: at each new turn the table message is posted anew at the bottom of
the channel as a public follow-up of the newest move (or lobby action), then the turn notice
below it, and the old ones are deleted through the tokens that posted them; within a turn the
table is edited through its own token. A computer's move uses the newest token still alive.
Only when no token is at hand (a restart, a table nobody touched for 14 minutes) does the bot
token edit, post or delete; a player's move at most costs it their hand DM at the turn's end.
A follow-up carries no nonce, so the first pass of a table in a process (after a restart or a
failure) reads the channel's last messages: a table message or a notice posted just before a
crash and not recorded is adopted. A follow-up Discord failed (a 5xx, a dropped connection)
may have been made all the same: it is looked for in the same way before it is posted again.
A table message or notice someone else deleted (a moderator; the gateway tells, see
``Reconciler.deleted``, or the start-up look finds it gone, see ``Reconciler.look``) is posted
again at once by a pass of its table.

At that limit (a global 429, see bot/ui/global_limit.py) a pass leaves the hand DMs for later:
the table message and the notice go out, the table stays marked unpublished, and one catch-up
task publishes the tables whose DMs waited, one after another, so that they never take more
than one request of the budget from the tables in play. A pass that discord.py gave up on at
the limit (five 429s in a row) is not a failure to back off from: its table is caught up
first, as soon as the limit's wait is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import discord
from discord.http import handle_message_parameters

from bot.features.play.actions import Action
from bot.features.play.presenter import names_for, past_notices, relative_time
from bot.features.play.store import ReconcilerStore
from bot.features.play.tables import Table, TableService
from bot.features.play.threads import CHANNEL_GONE
from bot.features.play.ui.messages import (
    Draft,
    Pictures,
    hand_draft,
    hand_inputs,
    hand_round,
    round_draft,
    table_draft,
    turn_key,
)
from bot.features.play.ui.messages import turn_text as turn_notice_text
from bot.features.play.ui.threads import (
    ALREADY_THREADED,
    ARCHIVE_MINUTES,
    LOBBY,
    RESULT,
    archived,
    lobby_line,
    no_thread_here,
    refused,
    refused_line,
    result_line,
    thread_name,
    unknown_channel,
)
from bot.features.stats.ui import charts
from bot.render.drawing import Drawer
from bot.services.inflight import InFlight, ShuttingDown
from bot.storage import (
    CLOSED_STATUSES,
    Deadline,
    MessageRef,
    PlayerPrefs,
    Shards,
    TableRecord,
)
from bot.storage.outage import DatabaseUnavailable
from bot.text import normalise, t
from bot.ui.courier import TOKEN_LIFE, Courier, TokenGone, Unsure
from bot.ui.global_limit import GlobalLimit
from bot.ui.interaction import DISCORD_FAILURES, updated_message
from bot.ui.pacer import later
from rummy_engine import Event, Phase

log = logging.getLogger(__name__)

TABLE, TURN = "table", "turn"
DM_CLOSED = 50007
UNKNOWN_MESSAGE = 10008
NO_PINGS = discord.AllowedMentions.none()
#: Waits before a pass that failed (Discord down, missing permission) is tried again; after the
#: last one, the next change to the table or the next start-up tries again.
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0)
#: How many of a channel's last messages a first pass reads to find what it may have posted
#: as a follow-up just before a crash (a follow-up carries no nonce).
LOOKBACK = 10
#: How many tables the catch-up of waiting DMs publishes at once (see Reconciler._catch_up):
#: enough to keep the pacer's queue full while each pass waits for its drawing and its call
#: (with 4, a busy bot let through 12 of its 20 calls a second while DMs waited).
CATCHERS = 16
#: The buttons a round summary keeps: a message with only these is not a table message.
SUMMARY_ACTIONS = frozenset({Action.REVIEW, Action.REPLAY})
#: How many of its own deletions the bot remembers until Discord's gateway tells of them (see
#: Reconciler.deleted): more than the deletions of a burst of moves in flight at once.
OWN_DELETIONS = 4096


def hand_kind(seat: int) -> str:
    return f"hand:{seat}"


def round_kind(round_no: int) -> str:
    return f"round:{round_no}"


def nonce_for(table_id: int, kind: str, stamp: str) -> str:
    """The same new message always gets the same nonce (Discord keeps at most 25 characters)."""
    return hashlib.sha256(f"{table_id}:{kind}:{stamp}".encode()).hexdigest()[:25]


@dataclass
class _Pending:
    """One table's coalescing state: requests are numbered; a pass serves all before it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    requested: int = 0
    served: int = 0
    newest: Table | None = None
    events: tuple[Event, ...] = ()
    actor_id: int | None = None
    deadlines: Sequence[Deadline] | None = None
    failures: int = 0
    retry: asyncio.Task[None] | None = None
    #: When the armed retry runs (the loop's clock): a later failure due sooner re-arms it.
    retry_at: float = 0.0
    #: The thread this process opened for the table's game, until its record carries it.
    thread: int | None = None
    #: What each message shows, as stored (None: not read yet, or forgotten after a failure).
    refs: dict[str, MessageRef] | None = None
    #: The interaction of the move handed over, if in the table's channel (used by the next
    #: pass only: a press on the table message edits it through its answer).
    interaction: discord.Interaction | None = None
    #: The token of the newest move in the table's channel: it posts the table message and
    #: the notice while it lives (kept across passes: a computer's move has none of its own).
    courier: Courier | None = None
    #: The table message and the notice posted as follow-ups: each edited and deleted through
    #: the token that posted it (with the message's id).
    table_by: tuple[Courier, int] | None = None
    notice_by: tuple[Courier, int] | None = None
    #: The turn the table message was posted or last brought up to date for (None: not known
    #: in this process): at another turn it is posted anew at the bottom of the channel.
    table_turn: str | None = None
    #: Table messages replaced by a newer one and not deleted yet (a failure in between, an
    #: archived thread): each pass deletes them first.
    stale: list[tuple[MessageRef, tuple[Courier, int] | None]] = field(default_factory=list)
    #: Per seat, what its hand DM's last draft was made of and its stamp (see hand_inputs).
    hands: dict[int, tuple[tuple[object, ...], str]] = field(default_factory=dict)
    #: Messages of the table that someone else deleted (a moderator; seen by the gateway or
    #: the start-up look): the next pass posts them again instead of trusting their stamps.
    gone: set[int] = field(default_factory=set)

    seen: tuple[int, int] = (-1, -1)

    def offer(
        self,
        table: Table,
        events: Sequence[Event],
        actor_id: int | None,
        deadlines: Sequence[Deadline] | None = None,
    ) -> None:
        """Keep the newest table handed over; a late, older one never wins, even after the
        newer one was published."""
        key = (table.record.version, table.record.revision)
        if key >= self.seen:
            self.seen = key
            self.newest, self.events, self.actor_id = table, tuple(events), actor_id
            self.deadlines = deadlines


class Reconciler:
    """Brings the Discord messages of tables to their stored state."""

    def __init__(
        self,
        client: discord.Client,
        store: ReconcilerStore,
        tables: TableService,
        *,
        gate: InFlight,
        drawer: Drawer,
        limit: GlobalLimit | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.tables = tables
        self.gate = gate
        self.pictures = Pictures(drawer)
        self.limit = limit
        self._pending: dict[int, _Pending] = {}
        #: Tables whose hand DMs waited for the global limit, oldest first (a dict as an
        #: ordered set); tables whose pass discord.py gave up on at that limit; the tasks
        #: catching both up (the latter first) and the tables they are publishing.
        self._postponed: dict[int, None] = {}
        self._behind: dict[int, None] = {}
        self._catchers: list[asyncio.Task[None]] = []
        self._catching: set[int] = set()
        #: Turn reminders that waited for the global limit, oldest first, and their sender.
        self._reminders: list[tuple[Table, int, datetime]] = []
        self._reminding: asyncio.Task[None] | None = None
        #: Messages the bot deleted itself, until the gateway tells of it (oldest first; a
        #: dict as an ordered set), and the passes that repost a message someone deleted.
        self._deleting: dict[int, None] = {}
        self._reposts: set[asyncio.Task[None]] = set()
        self._looking: asyncio.Task[None] | None = None

    # -- entry points ---------------------------------------------------------------------------

    async def publish(
        self,
        table: Table | int,
        *,
        events: Sequence[Event] = (),
        actor_id: int | None = None,
        interaction: discord.Interaction | None = None,
        deadlines: Sequence[Deadline] | None = None,
    ) -> None:
        """Bring every message of ``table`` to the stored state (a Table just committed, or an
        id to load). ``events`` word the last move; ``actor_id`` is not pinged for it;
        ``deadlines`` are the table's stored deadlines, when the caller knows them already;
        ``interaction`` is the move's, already answered, whose token may post the turn notice
        (see the module's docstring)."""
        tid = table if isinstance(table, int) else table.id
        pending = self._pending.setdefault(tid, _Pending())
        if isinstance(table, Table):
            pending.offer(table, events, actor_id, deadlines)
            if interaction is not None and interaction.channel_id == _home(table, pending):
                pending.interaction = interaction
        pending.requested += 1
        ticket = pending.requested
        async with pending.lock:
            if pending.served >= ticket:
                return
            pending.served = pending.requested
            closed = await self._pass(tid, pending)
        if closed and pending.served == pending.requested and pending.retry is None:
            # a closed table's messages are final: its state would be kept for the process's
            # life (a later repost or heal reads what it needs from the store again)
            self._pending.pop(tid, None)

    async def heal(self, shards: Shards | None = None) -> int:
        """Publish every table (of ``shards``' servers) with a change not yet shown (start-up);
        returns how many."""
        records = await self.store.list_unpublished_tables(shards)
        for record in records:
            await self.publish(record.id)
        return len(records)

    async def save_refs(self) -> None:
        """Write again what each table's messages show, as this process knows it. After a
        filesystem failure the last writes that need not wait for the disk (these) may be gone,
        and the next start-up would look for messages that were replaced."""
        for pending in list(self._pending.values()):
            for ref in list((pending.refs or {}).values()):
                await self.store.set_message_ref(ref)

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (the old one loses its
        buttons), for a table scrolled out of sight."""
        pending = self._pending.setdefault(table.id, _Pending())
        old = (await self._refs(table.id, pending)).get(TABLE)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._message(old).edit(view=None)
            await self._forget(table.id, TABLE)
        pending.offer(table, (), None)
        await self.publish(table.id)

    def deleted(self, message_ids: Sequence[int]) -> None:
        """Discord's gateway says these messages were deleted (MESSAGE_DELETE or
        MESSAGE_DELETE_BULK). The bot's own deletions are expected; a table's current table
        message or turn notice deleted by someone else (a moderator) is posted again at once,
        by a pass of its own (which waits for a pass in progress, so a deletion during a move's
        publication never makes two table messages). Anything else costs nothing: no store
        read, no Discord call."""
        for message_id in message_ids:
            if message_id in self._deleting:
                del self._deleting[message_id]
                continue
            for tid, pending in self._pending.items():
                refs = pending.refs
                if refs is None or not any(
                    (ref := refs.get(kind)) is not None and ref.message_id == message_id
                    for kind in (TABLE, TURN)
                ):
                    continue
                log.info("table %s: its message %s was deleted; posting it again", tid, message_id)
                pending.gone.add(message_id)
                task = asyncio.create_task(self.publish(tid), name=f"repost-{tid}")
                self._reposts.add(task)
                task.add_done_callback(self._reposts.discard)
                break

    def look(self, records: Sequence[TableRecord]) -> None:
        """At start-up, see that each open table's recorded table message still exists (one
        bot-token call each, paced behind the tables in play): one deleted while the bot was
        down is posted again at once. Runs in the background."""
        self._looking = asyncio.create_task(self._look(records), name="look")

    async def _look(self, records: Sequence[TableRecord]) -> None:
        for record in records:
            pending = self._pending.setdefault(record.id, _Pending())
            try:
                async with pending.lock:  # a pass may be reading them too
                    ref = (await self._refs(record.id, pending)).get(TABLE)
                if ref is None:
                    continue
                try:
                    with later():
                        await self.client.http.get_message(ref.channel_id, ref.message_id)
                except discord.NotFound as error:
                    if error.code != UNKNOWN_MESSAGE:
                        continue  # its channel is gone: the table's next pass closes it
                    log.info("table %s: its table message is gone; posting it again", record.id)
                    pending.gone.add(ref.message_id)
                    await self.publish(record.id)
            except (ShuttingDown, DatabaseUnavailable):
                return  # (the database's return heals what changed; its log said it once)
            except DISCORD_FAILURES as error:
                log.warning("table %s: could not look at its table message (%s)", record.id, error)
            except Exception:
                log.exception("table %s: looking at its table message failed", record.id)

    def _own(self, message_id: int) -> None:
        """Note a deletion of the bot's own, so that its gateway echo is not taken for a
        moderator's (see :meth:`deleted`)."""
        self._deleting[message_id] = None
        if len(self._deleting) > OWN_DELETIONS:
            del self._deleting[next(iter(self._deleting))]

    async def close(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
        for task in self._reposts:
            task.cancel()
        for pending in self._pending.values():
            if pending.retry is not None:
                pending.retry.cancel()
        for catcher in self._catchers:
            catcher.cancel()
        if self._reminding is not None:
            self._reminding.cancel()

    # -- at the global limit --------------------------------------------------------------------

    def _dms_wait(self, table: Table) -> bool:
        """Whether this pass leaves the hand DMs for later: the bot token is at its global
        limit, the table is a game whose DMs may need a call, and this is not the catch-up's
        own pass of it."""
        if self.limit is None or not self.limit.tight() or table.id in self._catching:
            return False
        return table.game is not None and table.record.status == "active"

    def _postpone(self, tid: int, queue: dict[int, None]) -> None:
        queue.pop(tid, None)  # to the back: the oldest waited longest
        queue[tid] = None
        self._catchers = [c for c in self._catchers if not c.done()]
        if len(self._catchers) < CATCHERS:
            self._catchers.append(asyncio.create_task(self._catch_up(), name="catch-up"))

    def _gave_up_at_limit(self, error: Exception) -> bool:
        """Whether discord.py gave up on a request at a rate limit (five 429s in a row)."""
        if self.limit is None or not isinstance(error, discord.HTTPException):
            return False
        return error.status == 429

    async def _catch_up(self) -> None:
        """Publish, a table at a time in each of :data:`CATCHERS` tasks, DMs included: first
        the tables left behind by the limit, then those whose DMs waited. A bounded number at a
        time, their calls behind the tables' in the pacer (``later()``), so that what waited
        takes little of the budget from the tables still moving (a pass that meets the limit
        again postpones its table once more), and yet enough to keep the pacer busy: a catch-up slower than the pace would let the passes of the
        tables in play send their DMs themselves, and wait for the pacer, the table's
        messages with them."""
        assert self.limit is not None
        while self._behind or self._postponed:
            await self.limit.released()
            queue = self._behind or self._postponed
            if not queue:
                break  # the other catchers took the last ones while this one waited
            tid = next(iter(queue))
            del queue[tid]
            self._catching.add(tid)
            try:
                await self.publish(tid)
            finally:
                self._catching.discard(tid)

    # -- one pass -------------------------------------------------------------------------------

    async def _pass(self, tid: int, pending: _Pending) -> bool:
        """One pass; True when it showed a closed (finished or cancelled) table."""
        try:
            async with self.gate:
                table, events, actor_id = pending.newest, pending.events, pending.actor_id
                deadlines, pending.deadlines = pending.deadlines, None
                pending.newest, pending.events, pending.actor_id = None, (), None
                interaction, pending.interaction = pending.interaction, None
                pending.courier = Courier.of(interaction) or pending.courier
                if table is None:
                    table = await self.tables.load(tid)
                fresh = pending.refs is None
                refs = await self._refs(tid, pending)
                step = _Step(refs, events, actor_id, deadlines, pending, fresh, interaction)
                # deletions of messages no longer shown (replaced before the gateway told)
                seen = set(pending.gone)
                try:
                    table = await self._bring(table, step)
                except discord.HTTPException as error:
                    table = await self._recover(table, step, error)
                pending.gone -= seen
        except ShuttingDown:
            return False
        except DISCORD_FAILURES as error:
            pending.refs = None
            if self._gave_up_at_limit(error):
                self._postpone(tid, self._behind)  # not Discord failing: its budget, spent
            else:
                self._retry_later(tid, pending, error)
            return False
        except DatabaseUnavailable:
            # Logged once by the store; the table stays marked unpublished, and the database's
            # return publishes it (heal), as a start-up does.
            pending.refs = None
            return False
        except Exception as error:
            pending.refs = None
            log.exception("table %s: publishing failed unexpectedly", tid)
            self._retry_later(tid, pending, error)
            return False
        pending.failures = 0
        return table.record.status in CLOSED_STATUSES

    async def _refs(self, tid: int, pending: _Pending) -> dict[str, MessageRef]:
        """What the table's messages show: read once, then kept beside every write."""
        if pending.refs is None:
            pending.refs = {r.kind: r for r in await self.store.get_message_refs(tid)}
        return pending.refs

    def _kept(self, tid: int) -> dict[str, MessageRef] | None:
        pending = self._pending.get(tid)
        return None if pending is None else pending.refs

    async def _record(self, ref: MessageRef) -> None:
        """Store what a message shows (durably: it may be a new message) and keep it."""
        await self.store.set_message_ref(ref)
        kept = self._kept(ref.table_id)
        if kept is not None:
            kept[ref.kind] = ref

    async def _forget(self, tid: int, kind: str) -> None:
        await self.store.delete_message_ref(tid, kind)
        kept = self._kept(tid)
        if kept is not None:
            kept.pop(kind, None)

    def _retry_later(self, tid: int, pending: _Pending, error: Exception) -> None:
        """Try a failed pass again a few times, further apart each time; then leave it to the
        table's next change or the next start-up (its messages stay marked unpublished). A
        retry already armed for later never hides this failure's sooner one: the earliest
        due time wins."""
        if pending.failures >= len(RETRY_DELAYS):
            log.warning("table %s: publishing failed (%s); left for the next change", tid, error)
            return
        delay = RETRY_DELAYS[pending.failures]
        pending.failures += 1
        log.warning("table %s: publishing failed (%s); retrying in %.0f s", tid, error, delay)
        due = asyncio.get_running_loop().time() + delay
        armed = pending.retry
        if armed is not None and not armed.done():
            if pending.retry_at <= due:
                return
            armed.cancel()  # still asleep: _later clears it before it publishes
        pending.retry_at = due
        pending.retry = asyncio.create_task(self._later(tid, delay), name=f"republish-{tid}")

    async def _later(self, tid: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._pending[tid].retry = None  # this pass may arm the next retry itself
        await self.publish(tid)

    async def _bring(self, table: Table, step: _Step) -> Table:
        """Bring every message of ``table`` to its state; returns the table as shown (with
        the thread its game moved to, if it did in this pass)."""
        refs, pending, events = step.refs, step.pending, step.events
        if not events and table.game is not None and table.record.version:
            events = await self._last_events(table)
        edited: list[MessageRef] = []
        # Public messages speak the table's language (its own choice, else its server's);
        # each hand DM speaks its reader's (see _hands).
        locale = await self.tables.public_locale(table)
        table = await self._placed(table, refs, edited, locale, pending)
        if table.record.closed_reason == CHANNEL_GONE:
            return await self._gone_shown(table, refs, edited, locale)
        # a table just opened by a command here has nothing of its own to look for
        opened = not refs and step.interaction is not None
        recent = await self._recent(table, refs) if step.fresh and not opened else None
        await self._round_summaries(table, refs, locale)
        shown = _Shown(events, step.deadlines, step.interaction, pending)
        notice = _Notice(step.actor_id, pending, recent)
        try:
            published = await self._in_play(table, refs, edited, locale, shown, notice)
        except DISCORD_FAILURES:
            # what went out is recorded: a table message or a notice posted as a follow-up
            # would be left in the channel if the next pass found another one
            await self.store.mark_published(table.id, 0, edited)
            raise
        await self._result_line(table, refs, locale)
        await self.store.mark_published(table.id, published, edited)
        refs.update((ref.kind, ref) for ref in edited)
        log.debug("table %s: messages show revision %s", table.id, table.record.revision)
        return table

    async def _in_play(
        self,
        table: Table,
        refs: dict[str, MessageRef],
        edited: list[MessageRef],
        locale: str,
        shown: _Shown,
        notice: _Notice,
    ) -> int:
        """The table message, the notice and the hand DMs; returns the revision they show
        (0 when the DMs wait for the global limit: a restart before the catch-up heals the
        table too)."""
        await self._table_message(table, refs, edited, locale, shown)
        await self._turn_notice(table, refs, edited, locale, notice)
        if self._dms_wait(table):
            self._postpone(table.id, self._postponed)
            return 0
        await self._hands(table, refs, edited, locale, shown.pending.hands)
        return table.record.revision

    # -- a thread per game ----------------------------------------------------------------------

    async def _placed(
        self,
        table: Table,
        refs: dict[str, MessageRef],
        edited: list[MessageRef],
        locale: str,
        pending: _Pending,
    ) -> Table:
        """Where the game is shown. A table that asked for a thread gets one at the start,
        opened from its lobby message, which then becomes a line linking to it."""
        table = _threaded(table, pending.thread)
        lobby = refs.get(TABLE)
        if table.record.thread_id is None:
            if not table.wants_thread or table.record.status != "active" or lobby is None:
                return table
            table = await self._open_thread(table, lobby, locale, pending)
        thread = table.record.thread_id
        if not thread:
            return table
        if lobby is not None and lobby.channel_id != thread:
            # the lobby message stays in the parent channel as a line; the table moves
            if LOBBY not in refs:
                await self._record(replace(lobby, kind=LOBBY))
            await self._forget(table.id, TABLE)
        line, ref = lobby_line(table, locale), refs.get(LOBBY)
        if ref is not None and ref.stamp != line.stamp and await self._edit(ref, line):
            edited.append(replace(ref, stamp=line.stamp, revision=table.record.revision))
        return table

    async def _open_thread(
        self, table: Table, lobby: MessageRef, locale: str, pending: _Pending
    ) -> Table:
        """Open the game's public thread from its lobby message; where the bot may not, say
        so once and play in the channel (recorded, so it is not asked again)."""
        try:
            data = await self.client.http.start_thread_with_message(
                lobby.channel_id,
                lobby.message_id,
                name=thread_name(table, locale),
                auto_archive_duration=ARCHIVE_MINUTES,
            )
            thread = int(data["id"])
        except discord.HTTPException as error:
            if refused(error):
                log.info(
                    "table %s: may not open a thread (%s); played in the channel", table.id, error
                )
                await self._post(
                    table, "thread_refused", refused_line(locale), self._channel(table)
                )
                return await self.tables.set_thread(table, 0)
            if no_thread_here(error):
                return await self.tables.set_thread(table, 0)
            if error.code != ALREADY_THREADED:
                raise
            thread = lobby.message_id  # opened before a crash: a message's thread has its id
        pending.thread = thread
        return await self.tables.set_thread(table, thread)

    async def _result_line(self, table: Table, refs: dict[str, MessageRef], locale: str) -> None:
        """The one line the parent channel gets at a threaded game's end, with a link."""
        if not table.record.thread_id or table.record.status not in CLOSED_STATUSES:
            return
        if RESULT not in refs:
            parent = self.client.get_partial_messageable(table.record.channel_id)
            await self._post(table, RESULT, result_line(table, locale), parent)

    async def _gone_shown(
        self, table: Table, refs: dict[str, MessageRef], edited: list[MessageRef], locale: str
    ) -> Table:
        """A table whose channel or thread was deleted: nothing more is sent there (its thread's
        parent gets the result line), and its messages count as shown, so no pass, retry or
        start-up tries again."""
        if table.record.thread_id:
            with contextlib.suppress(discord.NotFound):
                await self._result_line(table, refs, locale)
        await self.store.mark_published(table.id, table.record.revision, edited)
        return table

    async def _recover(self, table: Table, step: _Step, error: discord.HTTPException) -> Table:
        """A thread archived by Discord is unarchived and the pass tried once more; a channel
        or thread that is gone closes the table. Any other failure is retried later."""
        table = _threaded(table, step.pending.thread)
        if archived(error):
            try:
                await self.client.http.edit_channel(table.home, archived=False)
            except discord.NotFound as gone:
                error = gone
            else:
                log.info("table %s: its thread was archived; unarchived", table.id)
                return await self._bring(table, step)
        if unknown_channel(error) and await self._deleted(table.home):
            log.warning("table %s: its channel %s is gone; closing the table", table.id, table.home)
            closed = await self.tables.close_gone(table.id) or await self.tables.load(table.id)
            return await self._bring(_threaded(closed, step.pending.thread), step)
        raise error

    async def _deleted(self, channel_id: int) -> bool:
        """Whether Discord says ``channel_id`` does not exist (an unknown channel answer may
        have come from another channel of the pass, a player's DM say)."""
        try:
            await self.client.http.get_channel(channel_id)
        except discord.NotFound as error:
            return error.code == 10003
        except discord.HTTPException:
            return False
        return False

    async def _last_events(self, table: Table) -> tuple[Event, ...]:
        moves = await self.store.list_moves(table.id, after_seq=table.record.version - 1)
        return tuple(Event(**e) for m in moves for e in json.loads(m.events_json))

    # -- the messages ---------------------------------------------------------------------------

    async def _table_message(
        self,
        table: Table,
        refs: dict[str, MessageRef],
        edited: list[MessageRef],
        locale: str,
        shown: _Shown,
    ) -> None:
        """At each new turn, posted anew at the bottom of the channel as a follow-up of the
        last move (the old one deleted), when a token is at hand; within a turn, edited
        through the press that made the move when it was acknowledged as an update of this
        very message, else through the token that posted it, else with the bot token; posted
        anew when it is gone. See the module's docstring."""
        pending, deadlines = shown.pending, shown.deadlines
        if deadlines is None:
            deadlines = await self.store.get_deadlines(table.id)
        due = {d.kind: d.due_at for d in deadlines if not d.fired}
        draft = table_draft(table, locale, last_events=shown.events, deadlines=due)
        draft = charts.on_table(table, draft, locale)
        await self._delete_stale(pending)
        ref, turn = refs.get(TABLE), _turn_of(table)
        courier = self._courier(table, pending)
        moved = pending.table_turn not in (None, turn)
        pending.table_turn = turn
        if ref is not None and ref.message_id in pending.gone:
            # deleted by someone else (a moderator): posted anew, as when an edit finds it gone
            pending.gone.discard(ref.message_id)
            pending.table_by = None
            await self._post_table(table, draft, courier, pending, edited, gone=ref.message_id)
            return
        if ref is not None and moved and turn is not None and courier is not None:
            # the new one first: if Discord fails in between, the channel still shows a table
            pending.stale.append((ref, pending.table_by))
            pending.table_by = None
            await self._post_table(table, draft, courier, pending, edited)
            await self._delete_stale(pending)
            return
        if ref is not None and ref.stamp == draft.stamp:
            return
        pressed = _live(shown.interaction)
        if pressed is not None and (ref is None or updated_message(pressed) != ref.message_id):
            pressed = None
        if ref is not None and await self._edit(ref, draft, pressed, _by(pending.table_by, ref)):
            edited.append(replace(ref, stamp=draft.stamp, revision=table.record.revision))
            return
        await self._post_table(table, draft, courier, pending, edited)

    async def _post_table(
        self,
        table: Table,
        draft: Draft,
        courier: Courier | None,
        pending: _Pending,
        edited: list[MessageRef],
        *,
        gone: int = 0,
    ) -> None:
        """As a follow-up of ``courier`` while it lives, recorded with the pass's other
        stamps (a follow-up has no nonce: a first pass after a crash adopts one left
        unrecorded, see :meth:`_recent`); else with the bot token, recorded at once (``gone``:
        the deleted message it replaces, whose nonce Discord must not match)."""
        shown = {ref.message_id for ref, _ in pending.stale}

        def posted(message: discord.Message) -> bool:
            return _table_buttons(message, table.id) and message.id not in shown

        message_id = await self._follow_up(table, courier, pending, draft, found=posted)
        if courier is None or message_id is None:
            await self._post(table, TABLE, draft, self._channel(table), again=gone)
            return
        revision = table.record.revision
        ref = MessageRef(table.id, TABLE, table.home, message_id, draft.stamp, revision)
        edited.append(ref)
        pending.table_by = (courier, message_id)
        kept = self._kept(table.id)
        if kept is not None:  # a pass tried again (an unarchived thread) edits it
            kept[TABLE] = ref

    async def _follow_up(
        self,
        table: Table,
        courier: Courier | None,
        pending: _Pending,
        draft: Draft,
        *,
        found: Callable[[discord.Message], bool],
        mentions: discord.AllowedMentions = NO_PINGS,
    ) -> int | None:
        """Post ``draft`` as a public follow-up of ``courier``; its id. None: no courier, its
        token is gone, or Discord failed the post and the channel does not show it (``found``
        tells it among the channel's last messages), so the bot token posts it, with a nonce."""
        if courier is None:
            return None
        try:
            files = await draft.files(self.pictures)
            return await courier.post(draft.content, view=draft.view, files=files, mentions=mentions)
        except TokenGone:
            pending.courier = None
            return None
        except Unsure as error:
            log.info("table %s: a follow-up may have been made (%s); looking", table.id, error)
            return await self._posted_anyway(table, found)

    async def _posted_anyway(
        self, table: Table, found: Callable[[discord.Message], bool]
    ) -> int | None:
        """The newest of the bot's last messages in the table's channel that ``found``
        accepts (a follow-up Discord made though it failed the call), if any.

        A look that fails too (Discord's 5xx, a dropped connection) fails the pass rather than
        posting blind, which would leave the follow-up live beside a second table: the pass is
        tried again later as a first pass, which adopts the follow-up if Discord made it
        (:meth:`_recent`). Without the right to read the channel's history the table is posted
        again."""
        me = self.client.user
        try:
            recent = [m async for m in self._channel(table).history(limit=LOOKBACK)]
        except discord.Forbidden:
            return None
        mine = (m for m in recent if me is not None and m.author.id == me.id)
        return next((m.id for m in mine if found(m)), None)

    async def _delete_stale(self, pending: _Pending) -> None:
        while pending.stale:
            ref, by = pending.stale[0]
            await self._delete(ref, by)
            pending.stale.pop(0)

    def _courier(self, table: Table, pending: _Pending) -> Courier | None:
        """The token that may carry the table's public messages now: live, and of a move in
        the channel the game is shown in (a lobby's token stays in the parent channel when
        the game moves to a thread)."""
        courier = pending.courier
        if courier is None or courier.channel_id != table.home or not courier.live():
            return None
        return courier

    async def _round_summaries(
        self, table: Table, refs: dict[str, MessageRef], locale: str
    ) -> None:
        if table.game is None:
            return
        for result in table.game.results:
            kind = round_kind(result.round_no)
            if kind not in refs:
                draft = round_draft(table, result, locale)
                draft = charts.on_round(table, result, draft, locale)
                await self._post(table, kind, draft, self._channel(table))

    async def _turn_notice(
        self,
        table: Table,
        refs: dict[str, MessageRef],
        edited: list[MessageRef],
        locale: str,
        how: _Notice,
    ) -> None:
        """One notice per turn, pinging the player to act; gone once the turn is over. A
        follow-up's reference is stored with the pass's other stamps, without waiting for the
        fsync: if it is lost, the next first pass finds the notice in the channel."""
        wanted, ref = turn_key(table), refs.get(TURN)
        pending = how.pending
        # deleted by someone else (a moderator): posted again, without pinging the player twice
        gone = 0 if ref is None or ref.message_id not in pending.gone else ref.message_id
        pending.gone.discard(gone)
        if ref is not None and ref.stamp == wanted and not gone:
            return
        pinged = bool(gone) and ref is not None and ref.stamp == wanted
        if ref is not None:
            # after a restart, one the crashed process deleted already is not deleted again
            if not gone and (how.recent is None or _may_exist(ref, how.recent)):
                await self._delete(ref, pending.notice_by)
            pending.notice_by = None
        text = turn_notice_text(table, locale) if wanted is not None else None
        if how.recent is not None and table.game is not None:
            await self._sweep_notices(table, how.recent, locale, keep=text, gone=ref)
        if wanted is None:
            if ref is not None:
                await self._forget(table.id, TURN)
            return
        user = table.user_at(table.require_game().current)
        pings = (
            discord.AllowedMentions(users=[discord.Object(user)])
            if user is not None and user != how.actor_id and not pinged
            else NO_PINGS
        )
        assert text is not None
        draft = Draft(text, None, None, "", wanted)
        if how.recent is not None and await self._adopt_notice(table, draft, how.recent):
            return
        courier = self._courier(table, pending)
        message_id = await self._follow_up(
            table,
            courier,
            pending,
            draft,
            mentions=pings,
            found=lambda message: message.content == draft.content,
        )
        if courier is None or message_id is None:
            await self._post(table, TURN, draft, self._channel(table), mentions=pings, again=gone)
            return
        pending.notice_by = (courier, message_id)
        revision = table.record.revision
        edited.append(MessageRef(table.id, TURN, table.home, message_id, draft.stamp, revision))

    async def _delete(self, ref: MessageRef, by: tuple[Courier, int] | None) -> None:
        """Through the token that posted it while it lives, else with the bot token."""
        courier = _by(by, ref)
        self._own(ref.message_id)
        with contextlib.suppress(discord.NotFound):
            if courier is not None:
                with contextlib.suppress(TokenGone):
                    await courier.delete(ref.message_id)
                    return
            await self._message(ref).delete()

    async def _recent(
        self, table: Table, refs: dict[str, MessageRef]
    ) -> Sequence[discord.Message] | None:
        """A table's first pass in this process (after a restart or a failure) reads the
        channel's last messages: a table message posted as a follow-up just before a crash,
        and not recorded, is adopted (see :meth:`_adopt_table`); so is a notice (see
        :meth:`_adopt_notice`). None: nothing read (a closed table, or no Read
        Message History)."""
        if table.record.status in CLOSED_STATUSES:
            return None
        channel, me = self._channel(table), self.client.user
        try:
            recent = [m async for m in channel.history(limit=LOOKBACK)]
        except discord.Forbidden:
            return None
        ref = refs.get(TABLE)
        shown = None if ref is None else ref.message_id
        strays = [
            m
            for m in recent
            if me is not None and m.author.id == me.id and m.id != shown
            if _table_buttons(m, table.id)
        ]
        if strays:
            await self._adopt_table(table, ref, strays[0], recent)
        for message in strays[1:]:
            self._own(message.id)
            with contextlib.suppress(discord.NotFound):
                await message.delete()
        return recent

    async def _adopt_table(
        self,
        table: Table,
        old: MessageRef | None,
        newest: discord.Message,
        recent: Sequence[discord.Message],
    ) -> None:
        """The newest table message of the bot not recorded (posted as a follow-up just
        before a crash) is the one players look at: it becomes the table's message, brought
        up to date by this pass, and the recorded one goes, unless the channel shows it is gone
        already (the crashed process had deleted it)."""
        adopted = MessageRef(table.id, TABLE, table.home, newest.id, "", table.record.revision)
        await self._record(adopted)
        if old is None or not _may_exist(old, recent):
            return
        self._own(old.message_id)
        with contextlib.suppress(discord.NotFound):
            await self._message(old).delete()

    async def _sweep_notices(
        self,
        table: Table,
        recent: Sequence[discord.Message],
        locale: str,
        *,
        keep: str | None,
        gone: MessageRef | None,
    ) -> None:
        """A first pass after a crash: notices of past turns that the crashed process posted
        and never recorded (the turn has moved on since, so none is adopted) are deleted; the
        current turn's (``keep``) is left to be adopted."""
        me = self.client.user
        stale = past_notices(table, names_for(table), locale) - {keep}
        skip = None if gone is None else gone.message_id
        for message in recent:
            mine = me is not None and message.author.id == me.id
            if mine and message.id != skip and message.content in stale:
                self._own(message.id)
                with contextlib.suppress(discord.NotFound):
                    await message.delete()

    async def _adopt_notice(
        self, table: Table, draft: Draft, recent: Sequence[discord.Message]
    ) -> bool:
        """After a restart or a failure: a notice for this turn posted just before (a crash
        between Discord's answer and the record) is recorded instead of posted twice."""
        me = self.client.user
        found = next(
            (
                m.id
                for m in recent
                if me is not None and m.author.id == me.id and m.content == draft.content
            ),
            None,
        )
        if found is None:
            return False
        revision = table.record.revision
        await self._record(MessageRef(table.id, TURN, table.home, found, draft.stamp, revision))
        return True

    async def _hands(
        self,
        table: Table,
        refs: dict[str, MessageRef],
        edited: list[MessageRef],
        public_locale: str,
        drafted: dict[int, tuple[tuple[object, ...], str]],
    ) -> None:
        """Each hand DM in its reader's language (remembered from their last interaction),
        else the table's. A DM whose hand is made of what it showed already is not drafted
        again: at each move, that is every player's but the mover's."""
        game = table.game
        if game is None or table.record.status != "active":
            return
        if game.phase not in (Phase.DRAW, Phase.PLAY):
            return
        people = {s.seat: s.user_id for s in table.seats if s.user_id is not None}
        prefs = await self.tables.players_prefs(table)
        for seat, user_id in sorted(people.items()):
            reader, ref = prefs[user_id], refs.get(hand_kind(seat))
            locale = normalise(reader.locale) if reader.locale else public_locale
            inputs = hand_inputs(table, seat, reader, locale)
            if ref is not None and drafted.get(seat) == (inputs, ref.stamp):
                continue
            with later():  # the pacer serves the tables' calls first
                stamp = await self._hand(table, seat, reader, ref, edited, locale, public_locale)
            if stamp is not None:
                drafted[seat] = (inputs, stamp)

    async def _hand(
        self,
        table: Table,
        seat: int,
        prefs: PlayerPrefs,
        ref: MessageRef | None,
        edited: list[MessageRef],
        locale: str,
        public_locale: str,
    ) -> str | None:
        """A new DM on a deal, an edit of it at the end of each of the player's turns; closed
        DMs are tried once a round. Returns the stamp of the hand as drafted (None: not
        drafted, mid-turn)."""
        new_round = ref is None or not ref.stamp.startswith(hand_round(table))
        if not new_round and _mid_turn(table, seat):
            return None
        draft = hand_draft(table, seat, prefs, locale, turn=False)
        if ref is not None and ref.stamp == draft.stamp:
            return draft.stamp
        if not new_round and (prefs.dm_closed or ref is None or not ref.message_id):
            return draft.stamp
        if not new_round and ref is not None and await self._edit(ref, draft):
            edited.append(replace(ref, stamp=draft.stamp, revision=table.record.revision))
            return draft.stamp
        try:
            await self._to_dm(
                prefs,
                lambda dm: self._post(
                    # a deal's DM once per round; one found gone is posted anew (its own nonce)
                    table, hand_kind(seat), draft, dm, once_per=hand_round(table) if new_round else None
                ),
            )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await self._dms_closed(table, seat, prefs, draft.stamp, public_locale)
            return draft.stamp
        if prefs.dm_closed:
            await self.store.set_player_prefs(replace(prefs, dm_closed=False))
        return draft.stamp

    async def _dms_closed(
        self, table: Table, seat: int, prefs: PlayerPrefs, stamp: str, locale: str
    ) -> None:
        """Remember closed DMs (not retried before the next deal) and say so once, publicly,
        without a card."""
        await self._record(
            MessageRef(table.id, hand_kind(seat), 0, 0, stamp, table.record.revision)
        )
        if prefs.dm_closed:
            return
        await self.store.set_player_prefs(replace(prefs, dm_closed=True))
        names = names_for(table)
        await self._channel(table).send(
            t("hand.dm_closed", locale, player=names.mention(seat)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(prefs.user_id)]),
        )

    async def remind(self, table: Table, seat: int, ends_at: datetime) -> None:
        """The private reminder that a turn is running out: a DM, or nothing at all when the
        player's DMs are closed (never a public message). It can wait for the tables' calls:
        at the global limit it is kept for later, so that the deadlines' dispatcher, which
        awaits this, does not wait behind the limit."""
        if self.limit is not None and self.limit.tight():
            self._reminders.append((table, seat, ends_at))
            if self._reminding is None or self._reminding.done():
                self._reminding = asyncio.create_task(self._remind_later(), name="reminders")
            return
        with later():
            await self._remind(table, seat, ends_at)

    async def _remind_later(self) -> None:
        """The reminders that waited, one at a time once the limit's wait is over, each behind
        the tables' calls (the pacer's ``LATER``). One whose turn ended meanwhile has nothing
        left to announce (the timer played the turn), as when its deadline fires late."""
        assert self.limit is not None
        while self._reminders:
            await self.limit.released()
            table, seat, ends_at = self._reminders.pop(0)
            if ends_at <= discord.utils.utcnow():
                log.info("table %s: reminder to seat %s dropped, the turn is over", table.id, seat)
                continue
            try:
                with later():
                    await self._remind(table, seat, ends_at)
            except ShuttingDown:
                return
            except Exception:
                log.exception("table %s: reminder to seat %s failed", table.id, seat)

    async def _remind(self, table: Table, seat: int, ends_at: datetime) -> None:
        user_id = table.user_at(seat)
        if user_id is None:
            return
        prefs = await self.store.get_player_prefs(user_id)
        if prefs.dm_closed:
            return
        locale = normalise(prefs.locale) if prefs.locale else await self.tables.public_locale(table)
        text = t(
            "timer.reminder",
            locale,
            table=table.id,
            channel=f"<#{table.home}>",
            when=relative_time(ends_at),
        )
        try:
            await self._to_dm(prefs, lambda dm: dm.send(text, allowed_mentions=NO_PINGS))
        except discord.Forbidden:
            log.info("table %s: reminder not sent, seat %s has DMs closed", table.id, seat)
        except DISCORD_FAILURES as error:
            log.warning("table %s: reminder to seat %s failed (%s)", table.id, seat, error)

    # -- Discord calls --------------------------------------------------------------------------

    def _channel(self, table: Table) -> discord.PartialMessageable:
        """Where the game's messages go: its thread, once it has one."""
        return self.client.get_partial_messageable(table.home)

    def _message(self, ref: MessageRef) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(ref.channel_id)
        return channel.get_partial_message(ref.message_id)

    async def _to_dm(
        self, prefs: PlayerPrefs, send: Callable[[discord.abc.Messageable], Awaitable[object]]
    ) -> None:
        """``send`` into the player's DM channel; a stored channel Discord no longer knows is
        forgotten and the DM opened anew, once."""
        try:
            await send(await self._dm_channel(prefs))
        except discord.NotFound:
            if prefs.dm_channel_id is None:
                raise
            await self.store.set_dm_channel(prefs.user_id, None)
            await send(await self._dm_channel(replace(prefs, dm_channel_id=None)))

    async def _dm_channel(self, prefs: PlayerPrefs) -> discord.abc.Messageable:
        """The stored DM channel costs no request; otherwise it is opened (one
        ``POST /users/@me/channels``, no ``GET /users/{id}``) and stored for every later DM,
        also after a restart."""
        if prefs.dm_channel_id is not None:
            return self.client.get_partial_messageable(
                prefs.dm_channel_id, type=discord.ChannelType.private
            )
        channel = await self.client.create_dm(discord.Object(prefs.user_id))
        await self.store.set_dm_channel(prefs.user_id, channel.id)
        return channel

    async def _edit(
        self,
        ref: MessageRef,
        draft: Draft,
        pressed: discord.Interaction | None = None,
        by: Courier | None = None,
    ) -> bool:
        """Edit in place: through ``pressed`` (an interaction acknowledged as an update of this
        message) or ``by`` (the token that posted it), if given and still accepted, else with
        the bot token; False when the message is gone (it is then posted anew). A picture the
        message already shows is neither drawn nor uploaded again."""
        same = draft.same_picture(ref.stamp)

        async def pictures() -> list[discord.File] | None:
            return None if same else await draft.files(self.pictures)

        if pressed is not None:
            with contextlib.suppress(discord.NotFound):  # the token is gone: the bot's own edit
                files = await pictures()
                fields = {} if files is None else {"attachments": files}
                await pressed.edit_original_response(
                    content=draft.content,
                    view=draft.view,
                    allowed_mentions=NO_PINGS,
                    **fields,  # type: ignore[arg-type]
                )
                return True
        if by is not None:
            try:
                await by.edit(
                    ref.message_id, draft.content, view=draft.view, attachments=await pictures()
                )
            except TokenGone:
                pass
            except discord.NotFound:
                return False
            else:
                return True
        # The bot token's edit, without making the answer a Message (nothing reads it; it was a
        # tenth of an edit's cost) nor keeping the view: the components are dynamic items,
        # routed by their custom ids.
        files = await pictures()
        try:
            with handle_message_parameters(
                content=draft.content,
                view=draft.view,
                allowed_mentions=NO_PINGS,
                previous_allowed_mentions=self.client.allowed_mentions,
                **({} if files is None else {"attachments": files}),  # type: ignore[arg-type]
            ) as params:
                await self.client.http.edit_message(ref.channel_id, ref.message_id, params=params)
        except discord.NotFound:
            return False
        return True

    async def _post(
        self,
        table: Table,
        kind: str,
        draft: Draft,
        channel: discord.abc.Messageable,
        *,
        mentions: discord.AllowedMentions = NO_PINGS,
        again: int = 0,
        once_per: str | None = None,
    ) -> None:
        """Send a new message and record it at once (a crash after the send is covered by the
        nonce, which makes Discord return the first message instead of a second one). ``again``:
        a deleted message of the same stamp that this one replaces (another nonce).
        ``once_per``: the nonce's stamp instead of the draft's (a hand DM: one per round), so
        a message a crashed process sent for an older state of it is returned, and brought up
        to date in place, rather than joined by a second one."""
        files = await draft.files(self.pictures)
        stamp = f"{draft.stamp}:{again}" if again else draft.stamp
        message = await channel.send(
            draft.content,
            allowed_mentions=mentions,
            nonce=nonce_for(table.id, kind, once_per or stamp),
            files=files or discord.utils.MISSING,
            view=draft.view or discord.utils.MISSING,
        )
        ref = MessageRef(
            table.id, kind, message.channel.id, message.id, draft.stamp, table.record.revision
        )
        if once_per is not None and message.content != draft.content:
            await self._edit(replace(ref, stamp=""), draft)  # the crashed process's, older
        await self._record(ref)


@dataclass(frozen=True)
class _Step:
    """What one pass brings a table's messages to, kept to try the pass again once (after
    unarchiving its thread) or to show the table closed."""

    refs: dict[str, MessageRef]
    events: Sequence[Event]
    actor_id: int | None
    deadlines: Sequence[Deadline] | None
    pending: _Pending
    fresh: bool
    interaction: discord.Interaction | None


def _threaded(table: Table, thread: int | None) -> Table:
    """The table with the thread this process opened for it, when its record (read or built
    before) does not carry it yet."""
    if thread is None or table.record.thread_id is not None:
        return table
    return replace(table, record=replace(table.record, thread_id=thread))


def _home(table: Table, pending: _Pending) -> int | None:
    """The channel the game's messages go to; None while a thread is about to be opened (an
    interaction elsewhere must not carry the game's notice)."""
    table = _threaded(table, pending.thread)
    if table.record.thread_id is None and table.wants_thread and not table.is_lobby:
        return None
    return table.home


@dataclass(frozen=True)
class _Notice:
    """What decides how a pass moves the turn notice: who moved (not pinged), the table's
    coalescing state (its tokens, the follow-up posted last), and, on the table's first pass
    in this process, the channel's last messages (a notice posted before a crash)."""

    actor_id: int | None
    pending: _Pending
    recent: Sequence[discord.Message] | None


@dataclass(frozen=True)
class _Shown:
    """What the table message of a pass is drawn from and sent with: the last move's events,
    the stored deadlines (when the caller knew them), the move's interaction (a press on
    the table message edits it through its answer) and the table's coalescing state."""

    events: Sequence[Event]
    deadlines: Sequence[Deadline] | None
    interaction: discord.Interaction | None
    pending: _Pending


def _turn_of(table: Table) -> str | None:
    """Which turn of a running game the table shows, a computer's included (None: a lobby,
    a closed table)."""
    game = table.game
    if game is None or table.record.status != "active":
        return None
    return f"{game.round_no}:{game.turn}"


def _by(posted: tuple[Courier, int] | None, ref: MessageRef) -> Courier | None:
    """The token that posted the message ``ref`` shows, while it lives."""
    if posted is None or posted[1] != ref.message_id or not posted[0].live():
        return None
    return posted[0]


def _may_exist(ref: MessageRef, recent: Sequence[discord.Message]) -> bool:
    """Whether the message ``ref`` points at may still be in the channel, given its last
    messages: among them, or older than all of a full window of them."""
    ids = [m.id for m in recent]
    return ref.message_id in ids or (len(ids) >= LOOKBACK and ref.message_id < min(ids))


def _table_buttons(message: discord.Message, table_id: int) -> bool:
    """Whether a message carries live buttons of table ``table_id`` other than a round
    summary's: a table message."""
    summary = {a.value for a in SUMMARY_ACTIONS}
    for custom in _live_ids(message):
        parts = custom.split(":")
        if len(parts) > 3 and parts[1] == str(table_id) and parts[3] not in summary:
            return True
    return False


def _live_ids(message: discord.Message) -> Iterator[str]:
    for row in message.components:
        for item in getattr(row, "children", ()):
            custom = getattr(item, "custom_id", None)
            if custom and not getattr(item, "disabled", False):
                yield custom


def _live(interaction: discord.Interaction | None) -> discord.Interaction | None:
    """The interaction, if its token can still be used (answered, and young enough)."""
    if interaction is None or not interaction.response.is_done():
        return None
    if discord.utils.utcnow() - interaction.created_at > TOKEN_LIFE:
        return None
    return interaction


def _mid_turn(table: Table, seat: int) -> bool:
    """Whether ``seat`` has drawn and not yet discarded: their DM waits for the turn's end."""
    game = table.require_game()
    return game.current == seat and game.phase is Phase.PLAY
