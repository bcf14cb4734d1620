"""What players see is the stored table: the invariant every game test checks after every step.

Checked against the store (the truth) and what the simulated Discord holds (SimCord's backend
or the loopback emulator's messages), never through the bot, so it costs no Discord call:

* the table message in the channel shows the stored table (its text, the last move's line
  aside, and exactly the buttons of the stored phase: the lobby's while seating, the game's
  once started, none once the table is closed); no other public message has live buttons;
* exactly one turn notice while a human is to act, naming that seat; none otherwise;
* no private answer (ephemeral reply, direct message) carries the table message's public
  buttons or its picture.

Why one helper: the bug it is for (a press answered privately, and the table edited through
that private answer) left every test green, because each test looked at what it expected to
change. This looks at everything, after every step of every test that plays through Discord.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.features.play.tables import Table, TableService
from bot.features.play.ui.messages import table_draft, turn_key, turn_text
from bot.features.play.ui.reconciler import TABLE, TURN
from bot.features.play.ui.widgets import Action, view_signature
from bot.storage import CLOSED_STATUSES, Store
from tests.helpers import alt_checks

#: The buttons only the public table message carries (a private hand panel has its own Draw
#: and Take): a private message with one of these is a copy of the table.
PUBLIC_ONLY = frozenset(
    {
        Action.JOIN,
        Action.JOIN_A,
        Action.JOIN_B,
        Action.LEAVE,
        Action.SIT_OUT,
        Action.START,
        Action.CANCEL,
        Action.SETTINGS,
        Action.ADD_COMPUTER,
        Action.REMOVE_COMPUTER,
        Action.HAND,
        Action.NEXT_ROUND,
        Action.ABSENT_REPLACE,
        Action.ABSENT_WAIT,
        Action.ABSENT_END,
    }
)
#: Buttons a round summary keeps live: they show the past (Replay) or answer only the presser
#: (Review my round), never ask for a move.
SUMMARY_ACTIONS = frozenset({Action.REVIEW, Action.REPLAY})
LOBBY_ACTIONS = PUBLIC_ONLY - {
    Action.HAND,
    Action.NEXT_ROUND,
    Action.ABSENT_REPLACE,
    Action.ABSENT_WAIT,
    Action.ABSENT_END,
}
NOTICE_MARK = "🔔"


@dataclass(frozen=True)
class Shown:
    """One message as a player's client shows it, whichever simulated Discord holds it."""

    id: int
    channel_id: int
    content: str
    components: Sequence[Mapping[str, Any]]
    ephemeral: bool
    filenames: tuple[str, ...]
    edited: str | None = None
    #: Each attachment's description (alt text), in the order of ``filenames``.
    descriptions: tuple[str | None, ...] = ()


class InvariantBroken(AssertionError):
    """What the channel shows is not the stored table."""


def walk(rows: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component of a message, nested rows included."""
    for component in rows:
        yield component
        yield from walk(component.get("components") or ())


def buttons(components: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, bool]]:
    """(custom_id, label, disabled) of every interactive component, in order."""
    return [
        (str(c["custom_id"]), str(c.get("label") or ""), bool(c.get("disabled")))
        for c in walk(components)
        if c.get("custom_id")
    ]


def action_of(custom_id: str) -> Action | None:
    parts = custom_id.split(":")
    if len(parts) < 4 or parts[0] != "rummy":
        return None
    try:
        return Action(parts[3])
    except ValueError:
        return None


def live_actions(message: Shown, table_id: int | None = None) -> set[Action]:
    """The live actions of a message's buttons (of table ``table_id``'s buttons only, if given:
    a channel may hold another table's live lobby)."""
    found = (
        action_of(cid)
        for cid, _, disabled in buttons(message.components)
        if not disabled and (table_id is None or cid.startswith(f"rummy:{table_id}:"))
    )
    return {a for a in found if a is not None}


def phase_of(table: Table) -> str:
    if table.record.status in CLOSED_STATUSES:
        return table.record.status
    if table.game is None:
        return "lobby"
    return table.game.phase.value


async def table_violations(
    store: Store,
    tables: TableService,
    table_id: int,
    channel: Sequence[Shown],
) -> list[str]:
    """Where the channel's messages differ from the stored table ``table_id``."""
    try:
        table = await tables.load(table_id)
    except ValueError:  # a stored state that cannot be read: the bot only offers to cancel it
        return []
    if table.record.closed_reason == "channel_gone":  # its channel is gone: nothing to show
        return []
    refs = {r.kind: r for r in await store.get_message_refs(table_id)}
    locale = await tables.public_locale(table)
    due = {d.kind: d.due_at for d in await store.get_deadlines(table_id) if not d.fired}
    public = [m for m in channel if not m.ephemeral]
    by_id = {m.id: m for m in public}
    phase, found = phase_of(table), []
    ref = refs.get(TABLE)
    shown = by_id.get(ref.message_id) if ref is not None else None
    if shown is None:
        return [f"table #{table_id} ({phase}): its table message is not in the channel"]
    draft = table_draft(table, locale, deadlines=due)
    rest = shown.content[len(draft.content) :]
    if not shown.content.startswith(draft.content) or not (
        rest == "" or (rest.startswith("\n_") and rest.endswith("_"))
    ):
        found.append(
            f"table #{table_id} ({phase}, revision {table.record.revision}): the table message "
            f"shows {shown.content!r}, the stored table is {draft.content!r}"
        )
    found += alt_checks.table_picture(table, shown) + alt_checks.round_pictures(table, public)
    wanted = buttons(view_signature(draft.view))
    if buttons(shown.components) != wanted:
        live = sorted(a.value for a in live_actions(shown))
        found.append(
            f"table #{table_id} ({phase}): the table message's live buttons are {live}, the "
            f"stored phase calls for {sorted({str(action_of(c[0])) for c in wanted if not c[2]})}"
        )
    for message in public:
        if message.id != shown.id and live_actions(message, table_id) - SUMMARY_ACTIONS:
            found.append(
                f"table #{table_id} ({phase}): message {message.id} still has live buttons "
                f"{sorted(a.value for a in live_actions(message, table_id) - SUMMARY_ACTIONS)}: "
                f"{message.content[:80]!r}"
            )
    found += _notice_violations(table, refs, locale, public, await _followed(store, table))
    return found


async def _followed(store: Store, table: Table) -> bool:
    """Whether a closed table's channel holds a newer open table (Play again): the turn
    notices there are that table's, not this one's."""
    if table.record.status not in CLOSED_STATUSES:
        return False
    return any(
        r.channel_id == table.record.channel_id and r.id > table.id
        for r in await store.list_active_tables(table.record.guild_id)
    )


def _notice_violations(
    table: Table,
    refs: Mapping[str, Any],
    locale: str,
    public: Sequence[Shown],
    followed: bool = False,
) -> list[str]:
    """One turn notice, naming the player to act; none once no one is (of a table followed
    by a newer one in its channel, none of its own: see :func:`_followed`)."""
    notices = [m for m in public if m.content.startswith(NOTICE_MARK)]
    if followed:
        ref = refs.get(TURN)
        notices = [m for m in notices if ref is not None and m.id == ref.message_id]
    if turn_key(table) is None:
        return [f"table #{table.id}: no one is to act, yet notices {[m.content for m in notices]}"] if notices else []
    expected = turn_text(table, locale)
    user = table.user_at(table.require_game().current)
    ref = refs.get(TURN)
    if (
        len(notices) != 1
        or notices[0].content != expected
        or f"<@{user}>" not in notices[0].content
        or ref is None
        or ref.message_id != notices[0].id
    ):
        return [
            f"table #{table.id}: one turn notice {expected!r} expected, the channel has "
            f"{[m.content for m in notices]}"
        ]
    return []


def private_violations(messages: Iterable[Shown]) -> list[str]:
    """Private messages (ephemeral answers, DMs) that carry the table's public buttons or
    picture."""
    found = []
    for message in messages:
        public = live_actions(message) & PUBLIC_ONLY
        pictures = [f for f in message.filenames if f.startswith("table-")]
        if public or pictures:
            found.append(
                f"private message {message.id} carries the table's "
                f"{sorted(a.value for a in public) or pictures}: {message.content[:80]!r}"
            )
    return found


class _Unpatched:
    """The store's own methods, past any a test replaced on the instance (a test counting the
    bot's store calls counts the bot's, not the check's)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(type(self._store), name).__get__(self._store)


class Watch:
    """Checks the invariant for every table of some servers; private messages are checked once
    per content (each new or edited one), so a whole game stays cheap."""

    def __init__(self, store: Store) -> None:
        self.store: Any = _Unpatched(store)
        self.tables = TableService(self.store)
        self.table_ids: set[int] = set()
        self._checked: dict[int, object] = {}
        #: How many checks ran and the CPU they took (the suite's budget is measured).
        self.checks, self.cpu_seconds = 0, 0.0

    async def violations(
        self,
        guild_ids: Iterable[int],
        channels: Mapping[int, Sequence[Shown]],
        private: Iterable[Shown],
        *,
        skip: Iterable[int] = (),
    ) -> list[str]:
        """``channels``: each table channel's messages (ephemeral ones included); ``private``:
        every other message a player alone can read; ``skip``: tables known to be behind (a
        failed publication waiting for its retry, a crash a test staged)."""
        started = time.process_time()
        for guild_id in guild_ids:
            self.table_ids.update(r.id for r in await self.store.list_active_tables(guild_id))
        skipped, found = set(skip), []
        for table_id in sorted(self.table_ids - skipped):
            record = await self.store.get_table(table_id)
            if record is None:
                continue
            home = record.thread_id or record.channel_id  # a game in its thread is shown there
            found += await table_violations(
                self.store, self.tables, table_id, channels.get(home, ())
            )
        fresh = []
        for channel in channels.values():
            fresh += [m for m in channel if m.ephemeral and self._new(m)]
        fresh += [m for m in private if self._new(m)]
        found += private_violations(fresh)
        found += alt_checks.hand_pictures(fresh)
        every = [m for channel in channels.values() for m in channel] + list(private)
        found += [v for m in every for v in alt_checks.present(m)]
        self.checks += 1
        self.cpu_seconds += time.process_time() - started
        return found

    def _new(self, message: Shown) -> bool:
        key = (message.edited, len(message.content))
        if self._checked.get(message.id) == key:
            return False
        self._checked[message.id] = key
        return True


# -- SimCord -------------------------------------------------------------------------------------


def simcord_messages(env: Any) -> tuple[dict[int, list[Shown]], list[Shown]]:
    """Every message SimCord's Discord holds: per server channel, and the direct messages."""
    backend = env.backend
    channels: dict[int, list[Shown]] = {}
    private: list[Shown] = []
    for channel_id, messages in backend.messages.items():
        shown = [
            Shown(
                m.id,
                channel_id,
                m.content,
                m.components,
                m.is_ephemeral,
                tuple(str(a.get("filename", "")) for a in m.attachments),
                m.edited_timestamp,
                tuple(a.get("description") for a in m.attachments),
            )
            for m in sorted(messages.values(), key=lambda m: m.id)
        ]
        if backend.channels[channel_id].guild_id is None:
            private += shown
        else:
            channels[channel_id] = shown
    return channels, private


class SimcordWatch:
    """Runs the invariant after every settled step of a SimCord test: each action of a player
    (a command, a click, a select), each ``advance_time`` and each restart. A table is skipped
    while the bot is known to be behind: a failed publication waits for its retry, or a test
    staged a crash of this bot (``staged(bot)``) that only a restart heals."""

    def __init__(self, env: Any, staged: Any) -> None:
        self.env, self.staged = env, staged
        self.watches: dict[int, Watch] = {}
        self.table_ids: set[int] = set()
        self.enabled = True

    def install(self) -> None:
        env = self.env
        settle, advance, restart = env._settle_internal, env.advance_time, env.restart_bot
        inside: list[str] = []  # the public operation whose own settles are not steps

        async def settled(*args: Any, **kwargs: Any) -> None:
            await settle(*args, **kwargs)
            if kwargs.get("_deadline") is None and not env._advancing and not inside:
                await self.check()

        async def advanced(seconds: float) -> None:
            await advance(seconds)
            await self.check()

        async def restarted(bot: Any = None) -> None:
            inside.append("restart")  # the old bot is drained first, as it was left
            try:
                await restart(bot)
            finally:
                inside.pop()
            await self.check()

        env._settle_internal, env.advance_time, env.restart_bot = settled, advanced, restarted

    async def check(self) -> None:
        bot = getattr(self.env, "bot", None)
        store = getattr(bot, "store", None)
        if not self.enabled or store is None or not store.is_open:
            return
        if self.staged(bot):
            return
        watch = self.watches.setdefault(id(store), Watch(store))
        watch.table_ids |= self.table_ids
        pending = getattr(bot, "reconciler", None)
        behind = [
            tid
            for tid, state in (getattr(pending, "_pending", None) or {}).items()
            if state.failures or state.retry is not None
        ]
        guilds = [g for g in self.env.backend.guilds]
        channels, private = simcord_messages(self.env)
        found = await watch.violations(guilds, channels, private, skip=behind)
        self.table_ids |= watch.table_ids
        if found:
            raise InvariantBroken("what players see is not the stored table:\n" + "\n".join(found))


# -- the loopback emulator -----------------------------------------------------------------------

#: How long the emulator's bot (answering over real sockets, publishing after its answer) has
#: to bring the channel to the stored table after a step.
SETTLE_SECONDS = 5.0


def emulator_messages(emu: Any) -> tuple[dict[int, list[Shown]], list[Shown]]:
    """Every message the emulator holds: per server channel, and the direct messages."""
    channels: dict[int, list[Shown]] = {}
    private: list[Shown] = []
    for channel in emu.channels.values():
        shown = [
            Shown(
                m.id,
                m.channel_id,
                m.content,
                m.components,
                m.ephemeral,
                tuple(a.filename for a in m.attachments),
                m.edited_timestamp,
                tuple(a.description for a in m.attachments),
            )
            for m in emu.channel_messages(channel)
        ]
        if channel.is_dm:
            private += shown
        else:
            channels[channel.id] = shown
    return channels, private


class EmulatorWatch:
    """The invariant for an in-process bot under the emulator, before every step a test
    injects and when the bot stops: the channel must reach the stored table within
    :data:`SETTLE_SECONDS` (the bot publishes after it answers)."""

    def __init__(self, emu: Any, store: Store) -> None:
        self.emu, self.watch = emu, Watch(store)
        self.private: list[str] = []
        #: Tables a test knows to be behind (their process killed on purpose): not checked.
        self.behind: set[int] = set()

    async def check(self) -> None:
        import asyncio

        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_SECONDS
        while True:
            channels, private = emulator_messages(self.emu)
            table_ids = set(self.watch.table_ids)
            found = await self.watch.violations(
                self.emu.guilds, channels, (), skip=self.behind
            )
            fresh = [m for m in private if self.watch._new(m)]
            self.private += private_violations(fresh) + alt_checks.hand_pictures(fresh)
            table_found = [f for f in found if not f.startswith("private")]
            self.private += [f for f in found if f.startswith("private")]
            if self.private or (not table_found and table_ids == self.watch.table_ids):
                break
            if loop.time() > deadline:
                break
            await asyncio.sleep(0.02)
        found = self.private + table_found
        if found:
            raise InvariantBroken("what players see is not the stored table:\n" + "\n".join(found))


def emulator_watch(emu: Any, bot: Any) -> EmulatorWatch | None:
    """The watch for ``bot`` (None for a client that is not the rummy bot)."""
    store = getattr(bot, "store", None)
    return None if store is None else EmulatorWatch(emu, store)


class ProcessWatch(EmulatorWatch):
    """The invariant for bots that run as processes of their own (``rummy-bot run`` under the
    emulator): the test reads their database itself. Installed on the emulator, it checks
    before every step the test injects; :meth:`finish` checks what the last step left and
    closes the database. Open it once the bot has started (its start-up migrates the file)."""

    def __init__(self, emu: Any, store: Store) -> None:
        super().__init__(emu, store)
        self.store = store

    @classmethod
    async def install(cls, emu: Any, db: Any) -> ProcessWatch:
        from bot.storage import make_store

        store = make_store(db)
        await store.open()
        watch = cls(emu, store)
        emu.step_check = watch
        return watch

    async def finish(self) -> None:
        try:
            await self.check()
            assert self.watch.checks > 1, "the process's steps were checked"
        finally:
            await self.close()

    async def close(self) -> None:
        if self.emu.step_check is self:
            self.emu.step_check = None
        await self.store.close()
