"""The table service: lobbies and games, one lock per table, every move committed before it is
acknowledged.

Each call follows the same path: lock the table → load it from the store → check the caller →
let the engine verify and apply → commit (move, events, snapshot, version in one transaction) →
return what changed. Nothing here imports discord: the cogs translate and deliver.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import orjson

from bot.features.defaults.service import decode_inherited, encode_inherited, inherited_key
from bot.features.play import seating
from bot.features.play.autoturn import timeout_action
from bot.features.play.coaching import Coach, Note, allowed, asked_key, coached
from bot.features.play.seating import Mode
from bot.features.play.settings import LANGUAGE, Stored, TableSettings, decode, encode, opening
from bot.features.play.store import PlayStore
from bot.features.play.threads import CHANNEL_GONE, home_channel
from bot.features.play.turn_timer import ABSENT_AFTER
from bot.services.inflight import InFlight
from bot.services.refusal import Refusal
from bot.storage import (
    OPEN_STATUSES,
    Deadline,
    DeadlineGone,
    NewTable,
    PlayerPrefs,
    SeatRecord,
    StaleVersion,
    TableClosed,
    TableRecord,
)
from bot.storage.base import utc_now
from bot.storage.outage import DatabaseUnavailable
from bot.text import normalise, t
from rummy_engine import (
    Action,
    Deal,
    Event,
    Game,
    Options,
    Phase,
    PlayerView,
    Resign,
    Rules,
    RuleViolation,
    StartRound,
    Variant,
    action_to_json,
    player_view,
    replay,
)
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action

log = logging.getLogger(__name__)

#: The guild setting holding a server's preferred language (Discord's guild_locale, normalised).
GUILD_LOCALE = "locale"
#: Tables whose last game is kept parsed (~4 KB each): more than a process plays at once.
PARSED_GAMES_KEPT = 1024


@dataclass(frozen=True)
class Table:
    """A table as loaded from the store: its record, its seats and (once started) its game.
    ``prefs``: the seated players' preferences, read with the table (see :meth:`players_prefs`
    for a table whose seats changed since)."""

    record: TableRecord
    seats: tuple[SeatRecord, ...]
    game: Game | None
    prefs: Mapping[int, PlayerPrefs] = field(default_factory=dict)
    #: A Play again lobby's invited players (of the last game), read with a lobby only.
    invited: tuple[int, ...] = ()
    #: What a lobby took from the server's or channel's defaults (origin -> {key: value}),
    #: read with a lobby only (bot/features/defaults/service.py).
    inherited: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    _views: dict[int | None, PlayerView] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def variant(self) -> Variant:
        return Variant(self.record.variant)

    @property
    def mode(self) -> Mode:
        return Mode(self.record.mode)

    @functools.cached_property
    def settings(self) -> TableSettings:
        """What the host set (bot/features/play/settings.py), read from the record once."""
        return decode(Stored(self.record.options_json, self.record.locale))

    @property
    def options(self) -> Options:
        return self.settings.options

    @property
    def turn_timer(self) -> int:
        """The turn timer in minutes (0 = off)."""
        return self.settings.turn_timer

    @property
    def wants_thread(self) -> bool:
        """Whether the host asked for a thread per game (``/rummy new thread:yes``)."""
        return self.settings.wants_thread

    @property
    def home(self) -> int:
        """The channel the game's messages go to: its thread once it has one."""
        return home_channel(self.record.channel_id, self.record.thread_id)

    def timeouts(self, seat: int) -> int:
        """Turns in a row the seat's player let the timer run out."""
        return next((s.timeouts for s in self.seats if s.seat == seat), 0)

    def absent_seat(self) -> int | None:
        """The first human seat whose player timed out too often: the host decides about it."""
        return next(
            (s.seat for s in self.seats if not s.is_computer and s.timeouts >= ABSENT_AFTER),
            None,
        )

    @property
    def game_turn(self) -> str | None:
        """Which turn is being played (round and turn), None outside a running turn."""
        game = self.game
        if game is None or self.record.status != "active":
            return None
        if game.phase not in (Phase.DRAW, Phase.PLAY):
            return None
        return f"{game.round_no}:{game.turn}"

    @property
    def is_lobby(self) -> bool:
        return self.record.status == "lobby"

    @property
    def kept_for(self) -> tuple[int, ...]:
        """The invited players who have not sat down yet: their seats are kept for them."""
        seated = {s.user_id for s in self.seats}
        return tuple(user for user in self.invited if user not in seated)

    def seat_of(self, user_id: int) -> int | None:
        seat = seating.seat_of(self.seats, user_id)
        return seat.seat if seat else None

    def user_at(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def is_computer(self, seat: int) -> bool:
        return any(s.is_computer for s in self.seats if s.seat == seat)

    def view(self, seat: int | None) -> PlayerView:
        """The game as ``seat`` sees it (None: a spectator), built once per table: a move's
        messages read it four times. A table's game does not change once it is read (a move
        is applied to the game of the table it replaces, before anything reads it)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = player_view(self.require_game(), seat)
        return found

    def require_game(self) -> Game:
        if self.game is None:
            raise Refusal("table.not_started")
        return self.game


@dataclass(frozen=True)
class Played:
    """The result of an accepted move: the table after it, the events, whose hand changed."""

    table: Table
    events: list[Event]
    actor_seat: int | None
    changed_hands: frozenset[int] = field(default_factory=frozenset)
    #: At a coached table, the note of the mover's turn that this move ended (coaching.py).
    note: Note | None = None

    @property
    def game_ended(self) -> bool:
        return any(e.kind == "game_ended" for e in self.events)


GameFinished = Callable[[Table], Awaitable[object]]  # what it returns is not used


@dataclass
class _TableLock:
    """One table's lock and how many coroutines hold or await it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableService:
    """Lobbies and games over the play feature's store
    (:class:`~bot.features.play.store.PlayStore`).

    Every change enters ``gate`` (so a shutdown waits for it) and the table's lock (so two fast
    clicks apply once), loads the table once, and commits before returning. ``on_game_finished``
    is called inside the lock after the final commit, so results reach the leaderboard once.
    """

    def __init__(
        self,
        store: PlayStore,
        *,
        gate: InFlight | None = None,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        on_game_finished: GameFinished | None = None,
        default_turn_timer: int = 0,
    ) -> None:
        self.store = store
        self.default_turn_timer = default_turn_timer
        self.gate = gate or InFlight()
        self._seed_source = seed_source
        self._locks: dict[int, _TableLock] = {}
        self._open: dict[tuple[int, int], int] = {}
        #: Per table, the last snapshot read or written and its game, parsed (see _game).
        self._parsed: OrderedDict[int, tuple[str, Game]] = OrderedDict()
        self._on_game_finished = on_game_finished
        #: Coached tables' turns in progress (bot/features/play/coaching.py).
        self.coach = Coach()
        #: Finished tables whose result the database was away for (see :meth:`_record`).
        self._unrecorded: set[int] = set()

    @asynccontextmanager
    async def lock(self, table_id: int) -> AsyncIterator[None]:
        """Hold the lock serialising every change to one table (two fast clicks apply once).

        The entry lives while someone holds or awaits it, so the map holds the tables changing
        now, not every table the process ever served (it grew for the process's life).
        """
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = _TableLock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[table_id]

    @asynccontextmanager
    async def _changing(self, table_id: int) -> AsyncIterator[Table]:
        """The table, loaded once under the gate and its lock, for one change."""
        async with self.gate, self.lock(table_id):
            yield await self.load(table_id)

    # -- loading ------------------------------------------------------------------------------

    async def load(self, table_id: int) -> Table:
        """The table, its seats and its game, in one read."""
        found = await self.store.load_table(table_id)
        if found is None:
            raise Refusal("table.not_found", table=table_id)
        self._remember(found.record)
        invited = await self._invited(found.record)
        inherited = await self._inherited(found.record)
        game = self._game(found.record)
        return Table(found.record, found.seats, game, found.prefs, invited, inherited)

    async def _inherited(self, record: TableRecord) -> dict[str, dict[str, str]]:
        """What a lobby inherited from the defaults (one read, for lobbies only)."""
        if record.status != "lobby":
            return {}
        return decode_inherited(await self.store.get_meta(inherited_key(record.id)))

    async def _invited(self, record: TableRecord) -> tuple[int, ...]:
        """A lobby's invited players (one read, for lobbies only: a move never pays it)."""
        if record.status != "lobby":
            return ()
        stored = await self.store.get_meta(_invited_key(record.id))
        return tuple(json.loads(stored)) if stored else ()

    async def players_prefs(self, table: Table) -> Mapping[int, PlayerPrefs]:
        """The seated players' preferences: as read with the table, unless someone sat down
        since (then read now)."""
        users = [s.user_id for s in table.seats if s.user_id is not None]
        if all(user in table.prefs for user in users):
            return table.prefs
        return await self.store.get_players_prefs(users)

    def _game(self, record: TableRecord) -> Game | None:
        """The game of a stored snapshot: parsed (and its cards counted) once per snapshot; a
        load hands out a copy, so a move applied to it leaves the kept one as stored."""
        snapshot = record.snapshot_json
        if not snapshot:
            return None
        kept = self._parsed.get(record.id)
        if kept is not None and kept[0] == snapshot:
            self._parsed.move_to_end(record.id)
            return kept[1].copy()
        game = Game.from_json(orjson.loads(snapshot))
        self._keep_parsed(record.id, snapshot, game)
        return game

    def _keep_parsed(self, table_id: int, snapshot: str, game: Game) -> None:
        self._parsed[table_id] = (snapshot, game.copy())
        self._parsed.move_to_end(table_id)
        while len(self._parsed) > PARSED_GAMES_KEPT:
            self._parsed.popitem(last=False)

    def _remember(self, record: TableRecord) -> None:
        """Keep which open table each channel has (this service opens and closes them all), so
        a typed move finds its table without a read. A table whose game moved to its thread
        is that thread's (its parent channel may open the next table)."""
        key = (record.guild_id, home_channel(record.channel_id, record.thread_id))
        if record.status in OPEN_STATUSES:
            self._open[key] = record.id
        elif self._open.get(key) == record.id:
            del self._open[key]

    async def in_channel(self, guild_id: int, channel_id: int) -> Table | None:
        """The open (lobby or active) table of a channel, if any: one per channel."""
        for record in await self.store.list_active_tables(guild_id):
            if home_channel(record.channel_id, record.thread_id) == channel_id:
                return await self.load(record.id)
        return None

    async def here(self, guild_id: int | None, channel_id: int | None) -> Table:
        """The open table of a channel, or the refusal that says there is none."""
        return await self.load(await self.id_here(guild_id, channel_id))

    async def id_here(self, guild_id: int | None, channel_id: int | None) -> int:
        """The id of a channel's open table, without loading it (a move then loads it once);
        without a read when this process saw the table open."""
        if guild_id is not None and channel_id is not None:
            known = self._open.get((guild_id, channel_id))
            if known is not None:
                return known
            for record in await self.store.list_active_tables(guild_id):
                self._remember(record)
                if home_channel(record.channel_id, record.thread_id) == channel_id:
                    return record.id
        raise Refusal("table.none_here")

    # -- lobby --------------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: Variant,
        mode: str,
        options: dict[str, Any] | None = None,
        *,
        host_name: str | None = None,
        locale: str | None = None,
        inherited: Mapping[str, Mapping[str, str]] | None = None,
    ) -> Table:
        """Open a lobby in a channel, with the host seated (they may stand up later).

        ``locale`` is the language of the table's public messages; ``None`` takes the server's
        preferred language as it is now (see :meth:`public_locale`). ``inherited``: what came
        from the server's or channel's defaults, kept for the lobby's line.
        """
        async with self.gate:
            existing = await self.in_channel(guild_id, channel_id)
            if existing is not None:
                refs = {r.kind: r for r in await self.store.get_message_refs(existing.id)}
                message = refs["table"].message_id if "table" in refs else 0
                raise Refusal(
                    "lobby.exists_here",
                    table=existing.id,
                    guild=guild_id,
                    channel=channel_id,
                    message=message,
                )
            table_mode = Mode.for_variant(variant, mode)
            settings = opening(
                variant,
                options or {},
                turn_timer=self.default_turn_timer,
                language=normalise(locale or await self._server_locale(guild_id)),
            )
            stored = encode(settings)
            record = await self.store.create_table(
                NewTable(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    variant=variant.value,
                    mode=table_mode.value,
                    options_json=stored.options_json,
                    seed=self._seed_source(),
                    locale=stored.locale,
                )
            )
            seats = seating.join(
                [],
                host_id,
                table_mode,
                team=0 if table_mode is Mode.TWO_V_TWO else None,
                name=host_name,
            )
            await self.store.set_seats(record.id, seats)
            if inherited:
                await self.store.set_meta(inherited_key(record.id), encode_inherited(inherited))
            return await self.load(record.id)

    async def play_again(self, table_id: int, by: int, *, name: str | None = None) -> Table:
        """Open the next game's lobby from a finished table, once: same place, variant, mode,
        stored options (timer included), language and computer seats. ``by``, a player of the
        game, is seated; the other players are invited (their seats kept, never taken for
        them). Under the old table's lock, so a double press opens one lobby; a later press
        is answered with the link to it."""
        async with self.gate, self.lock(table_id):
            old = await self.load(table_id)
            if by not in {s.user_id for s in old.seats if not s.is_computer}:
                raise Refusal("again.not_played")
            if old.record.status != "finished":
                raise Refusal("again.not_finished")
            linked = await self.store.get_meta(_again_key(table_id))
            if linked is not None:
                raise await self._already_again(old, int(linked))
            new = await self.open_table(
                old.record.guild_id,
                old.record.channel_id,
                by,
                old.variant,
                old.mode.value,
                json.loads(old.record.options_json),
                host_name=name,
                locale=old.record.locale or None,
            )
            # the presser and the computers keep their very seats (and so their teams)
            seats = [
                replace(s, timeouts=0, name=(name or s.name) if s.user_id == by else s.name)
                for s in sorted(old.seats, key=lambda s: s.seat)
                if s.is_computer or s.user_id == by
            ]
            await self.store.set_seats(new.id, seats)
            others = [s.user_id for s in old.seats if s.user_id not in (None, by)]
            await self.store.set_meta(_invited_key(new.id), json.dumps(others))
            await self.store.set_meta(_again_key(table_id), str(new.id))
            return await self.load(new.id)

    async def _already_again(self, old: Table, table_id: int) -> Refusal:
        """The answer to a press once the next lobby exists: a link to its message (its
        channel while the message is being posted), or that it is over."""
        record = await self.store.get_table(table_id)
        if record is None or record.status not in OPEN_STATUSES:
            return Refusal("again.used", table=table_id)
        refs = {r.kind: r for r in await self.store.get_message_refs(table_id)}
        guild, channel = old.record.guild_id, old.record.channel_id
        if "table" not in refs:
            return Refusal("again.exists_unposted", guild=guild, channel=channel)
        message = refs["table"].message_id
        return Refusal("again.exists", guild=guild, channel=channel, message=message)

    async def _lobby_change(
        self,
        table_id: int,
        change: Callable[[Table], Awaitable[None]],
        *,
        host: int | None = None,
    ) -> Table:
        """Apply ``change`` to a lobby. A change only the host may make names them (``host``,
        the user asking) and is refused as such first: whether the game has started is no
        business of someone who may not make the change at all."""
        async with self._changing(table_id) as table:
            if host is not None:
                self._require_host(table, host)
            if table.record.status in ("finished", "cancelled"):
                raise Refusal("table.not_open")
            if not table.is_lobby:
                raise Refusal("lobby.already_started")
            await change(table)
            return await self.load(table_id)

    async def join(
        self, table_id: int, user_id: int, team: int | None = None, *, name: str | None = None
    ) -> Table:
        async def change(table: Table) -> None:
            kept = table.kept_for
            free = table.mode.capacity - len(table.seats)
            if kept and user_id not in kept and free <= len(kept):
                raise Refusal("again.seat_kept", players=", ".join(f"<@{u}>" for u in kept))
            await self.store.set_seats(
                table_id, seating.join(table.seats, user_id, table.mode, team, name=name)
            )

        return await self._lobby_change(table_id, change)

    async def leave_lobby(self, table_id: int, user_id: int) -> Table:
        """Give up a seat in the lobby. The host only stands up: the table stays theirs (the
        host is kept on the table's record, not on a seat), so they may start a game of
        computers, or sit down again."""

        async def change(table: Table) -> None:
            await self.store.set_seats(table_id, seating.leave(table.seats, user_id))

        return await self._lobby_change(table_id, change)

    async def sit_out(self, table_id: int, user_id: int) -> Table:
        """The host stands up and stays the host; anyone else is told how to leave instead."""

        async def change(table: Table) -> None:
            if user_id != table.record.host_id:
                raise Refusal("lobby.sit_out_host_only")
            await self.store.set_seats(table_id, seating.leave(table.seats, user_id))

        return await self._lobby_change(table_id, change)

    async def kick(self, table_id: int, by: int, user_id: int, *, name: str = "") -> Table:
        """Remove ``user_id`` from the lobby (host only); ``name`` words the refusal."""

        async def change(table: Table) -> None:
            if user_id == by:
                raise Refusal("lobby.kick_self")
            if table.seat_of(user_id) is None:
                raise Refusal("lobby.kick_not_seated", player=name)
            await self.store.set_seats(table_id, seating.leave(table.seats, user_id))

        return await self._lobby_change(table_id, change, host=by)

    async def add_computer(
        self,
        table_id: int,
        by: int,
        name: str,
        team: int | None = None,
        strength: Strength = Strength.NORMAL,
    ) -> Table:
        """Seat a computer player of ``strength`` (host only), on ``team`` in 2v2."""

        async def change(table: Table) -> None:
            seats = seating.add_computer(table.seats, table.mode, name, team, strength)
            await self.store.set_seats(table_id, seats)

        return await self._lobby_change(table_id, change, host=by)

    async def remove_computer(self, table_id: int, by: int) -> Table:
        """Take the last computer player out of the lobby (host only)."""

        async def change(table: Table) -> None:
            await self.store.set_seats(table_id, seating.remove_computer(table.seats))

        return await self._lobby_change(table_id, change, host=by)

    async def set_option(self, table_id: int, by: int, key: str, value: Any) -> Table:
        """Change one table setting (host only, lobby only); bad keys and values are refused.
        Only the columns that change are written."""

        async def change(table: Table) -> None:
            settings = table.settings.with_choices({key: value})
            allowed(settings.coaching and not table.settings.coaching, table.seats)
            Rules(table.variant, _player_count(table), settings.options)
            before = encode(table.settings).columns()
            for column, stored in encode(settings).columns().items():
                if stored != before[column]:
                    await self.store.set_table_setting(table_id, column, stored)

        return await self._lobby_change(table_id, change, host=by)

    async def set_language(self, table_id: int, by: int, locale: str) -> Table:
        """Choose the language of the table's public messages (host only, lobby only)."""
        return await self.set_option(table_id, by, LANGUAGE, locale)

    async def remember_server_locale(self, guild_id: int, locale: str) -> None:
        """Keep a server's preferred language (Discord sends it with each interaction)."""
        language = normalise(locale)
        if await self.store.get_guild_setting(guild_id, GUILD_LOCALE) != language:
            await self.store.set_guild_setting(guild_id, GUILD_LOCALE, language)

    async def _server_locale(self, guild_id: int) -> str | None:
        return await self.store.get_guild_setting(guild_id, GUILD_LOCALE)

    async def public_locale(self, table: Table) -> str:
        """The language of a table's public messages, summaries and pictures.

        A table opened since migration 6 carries it: the host's choice, else the server's
        preferred language when it was opened (so publishing reads nothing more). Older tables
        follow the server's language as it is now."""
        if table.record.locale:
            return normalise(table.record.locale)
        return normalise(await self._server_locale(table.record.guild_id))

    async def cancel(
        self, table_id: int, by: int, *, can_manage_server: bool = False, lobby_only: bool = False
    ) -> Table:
        """Close a lobby or stop a game without a result (host, or a member with Manage Server);
        ``lobby_only``: a lobby only (a game started since is refused).

        Reads only the table's record, never its game: a table whose stored state cannot be
        loaded can still be cancelled (it is archived as cancelled, never deleted).
        """
        async with self.gate, self.lock(table_id):
            record = await self.store.get_table(table_id)
            if record is None:
                raise Refusal("table.not_found", table=table_id)
            if by != record.host_id and not can_manage_server:
                raise Refusal("table.host_or_manager")
            if record.status not in ("lobby", "active"):
                raise Refusal("table.not_open")
            if lobby_only and record.status != "lobby":
                raise Refusal("lobby.already_started")
            record = await self.store.update_table_status(table_id, "cancelled")
            self._remember(record)
            try:
                return await self.load(table_id)
            except Exception:
                log.exception("table %s: cancelled, but its stored state cannot be read", table_id)
                return Table(record, (), None)

    async def close_idle(
        self, table_id: int, claim: Deadline, *, idle_since: datetime | None = None
    ) -> Table | None:
        """A lobby nobody touched, or a game no human played (since ``idle_since``), closes
        without a result (no rating changes); None if the deadline no longer applies."""
        wanted = {"lobby_idle": "lobby", "game_idle": "active"}[claim.kind]
        async with self.gate, self.lock(table_id):
            record = await self.store.get_table(table_id)
            if record is None or record.status != wanted:
                return None
            if idle_since is not None:
                last = await self.store.last_human_move_at(table_id)
                if last is not None and last > idle_since:
                    return None
            try:
                closed = await self.store.update_table_status(
                    table_id, "cancelled", reason=claim.kind, claim=claim
                )
            except DeadlineGone:
                return None
            self._remember(closed)
            return await self.load(table_id)

    async def set_thread(self, table: Table, thread_id: int) -> Table:
        """Record the thread the game is played in (``0``: none may be opened here); the table
        is then found from its thread."""
        await self.store.set_table_thread(table.id, thread_id)
        record = replace(table.record, thread_id=thread_id)
        if table.record.status in OPEN_STATUSES:
            self._open.pop((record.guild_id, table.home), None)
        self._remember(record)
        return replace(table, record=record)

    async def close_gone(self, table_id: int) -> Table | None:
        """The table's channel or thread was deleted: archived as cancelled (no result, no
        rating change) and its deadlines removed (nothing is left to play or show); None if
        already closed."""
        async with self.gate, self.lock(table_id):
            record = await self.store.get_table(table_id)
            if record is None or record.status not in OPEN_STATUSES:
                return None
            closed = await self.store.update_table_status(
                table_id, "cancelled", reason=CHANNEL_GONE
            )
            await self.store.arm_deadlines(table_id, [])
            self._remember(closed)
            try:
                return await self.load(table_id)
            except Exception:
                log.exception("table %s: closed, but its stored state cannot be read", table_id)
                return Table(closed, (), None)

    @staticmethod
    def _require_host(table: Table, user_id: int) -> None:
        if user_id != table.record.host_id:
            raise Refusal("table.host_only")

    # -- game ---------------------------------------------------------------------------------

    async def start(
        self, table_id: int, by: int, *, dealer: int | None = None, deal: Deal | None = None
    ) -> Played:
        """Deal the first round (host only) once the lobby has its players.

        ``dealer`` and ``deal`` script the first deal (tests, tournaments); by default both come
        from the table's seed.
        """
        async with self._changing(table_id) as table:
            self._require_host(table, by)
            if not table.is_lobby:
                raise Refusal("lobby.already_started")
            seating.ready(table.seats, table.mode)
            seats = seating.compact(table.seats, table.mode)
            rules = Rules(table.variant, len(seats), table.options)
            seed = table.record.seed if table.record.seed is not None else self._seed_source()
            game = Game.new(rules, seed, dealer=dealer, deal=deal)
            await self.store.set_seats(table_id, seats)
            action = {"type": "start_game", "genesis": game.genesis()}
            events = [
                Event("game_started", None, {"players": len(seats)}),
                Event("round_started", None, {"round": game.round_no, "dealer": game.dealer}),
            ]
            seated = replace(table.record, revision=table.record.revision + 1)  # set_seats
            after = await self._commit(
                replace(table, record=seated, seats=tuple(seats)),
                game,
                action,
                events,
                by,
                status="active",
            )
            return Played(after, events, None, frozenset(range(len(seats))))

    async def act(
        self,
        table_id: int,
        user_id: int,
        build: Callable[[Game, int], Action],
        *,
        turn: int | None = None,
    ) -> Played:
        """Play an action built from the current game for the caller's seat.

        ``turn`` (from a button) must still be the game's turn, so a click from an old turn is
        refused instead of acting on a newer position.
        """
        async with self._changing(table_id) as table:
            game = self._playing(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("table.not_seated")
            if turn is not None and turn != game.turn:
                raise Refusal("button.stale")
            try:
                action = build(game, seat)
                seen = None
                if coached(table.settings.coaching, table.seats):
                    seen = player_view(game, seat)
                    await self._question(table.id, seen, action)
                reset = (seat, 0) if table.timeouts(seat) else None
                played = await self._apply(table, game, action, user_id, seat, timeouts=reset)
                if seen is not None:
                    note = self.coach.after(
                        table.id, seat, seen, action, played.table.require_game()
                    )
                    played = replace(played, note=note)
                return played
            except Refusal:
                raise
            except RuleViolation as error:
                raise explain(error, table, seat) from None

    async def _question(self, table_id: int, view: PlayerView, action: Action) -> None:
        """Raise the coach's go-out question, once a turn across restarts, before a discard
        that throws away a go-out; stored before it is raised, so it is asked once."""
        if not self.coach.knows_asked(table_id):
            self.coach.recall_asked(table_id, await self.store.get_meta(asked_key(table_id)))
        ask = self.coach.question(table_id, view, action)
        if ask is not None:
            await self.store.set_meta(asked_key(table_id), self.coach.asked(table_id))
            raise ask

    async def next_round(
        self, table_id: int, by: int | None, *, claim: Deadline | None = None
    ) -> Played:
        """Deal the next round: the host's button, or the automatic timer (``by`` None, its
        deadline claimed with the deal)."""
        async with self._changing(table_id) as table:
            game = self._playing(table)
            if by is not None and by != table.record.host_id:
                raise Refusal("table.host_only")
            if game.phase is not Phase.ROUND_OVER:
                raise Refusal("round.not_over")
            return await self._apply(table, game, StartRound(), by, None, claim=claim)

    async def play_timed_out_turn(self, table_id: int, claim: Deadline) -> Played | None:
        """The turn whose time ran out, played safely for its player (see
        :mod:`bot.features.play.autoturn`); None if that turn is already over.

        Each action is its own move; the one that ends the turn claims the deadline and counts
        the timeout in the same transaction, so a crash in between plays the rest of the same
        turn at the next start, and a finished turn is never played twice.
        """
        async with self._changing(table_id) as table:
            game = table.game
            if table.game_turn != claim.generation or game is None or claim.seat != game.current:
                return None
            seat, turn, round_no = game.current, game.turn, game.round_no
            count = table.timeouts(seat) + 1
            events: list[Event] = []
            changed: set[int] = set()
            played: Played | None = None
            # Whether a card was drawn in this turn (before the timer, or by a start that
            # resumed it): the dealer's first turn has none, so the table must not claim one.
            drew = game.drawn is not None and game.drawn != game.taken
            told = Event("turn_timed_out", seat, {})
            while game.turn == turn and game.round_no == round_no and table.game_turn:
                action = timeout_action(game, seat)
                told = _named(Event("turn_timed_out", seat, {"count": count, "drew": drew}), table)
                played = await self._apply(
                    table, game, action, None, seat, claim=claim, timeouts=(seat, count), told=told
                )
                drew = drew or any(e.kind == "drew_stock" for e in played.events)
                events += played.events
                changed |= played.changed_hands
                table = played.table
                game = table.require_game()
            assert played is not None
            events.insert(0, told)
            return Played(table, events, seat, frozenset(changed))

    async def decide_absent(
        self, table_id: int, seat: int, choice: str, by: int | None, claim: Deadline | None = None
    ) -> Played | Table:
        """The host's answer about a player who timed out too often: ``replace`` the seat by a
        computer, ``wait`` (the count starts again) or ``end`` the game (a forfeit of that
        side). ``by`` None is the timer choosing ``replace`` when the host did not answer."""
        async with self._changing(table_id) as table:
            game = self._playing(table)
            if by is not None and by != table.record.host_id:
                raise Refusal("table.host_only")
            if table.absent_seat() != seat:
                raise Refusal("absent.nothing_to_decide")
            if choice == "end":
                return await self._apply(table, game, Resign(seat), by, None, claim=claim)
            seats = [replace(s, timeouts=0) if s.seat == seat else s for s in table.seats]
            if choice == "replace":
                old = seats[seat]
                name = t("seat.replaced", await self.public_locale(table), name=old.name or "?")
                seats[seat] = replace(old, user_id=None, is_computer=True, name=name)
            # Seats first: the change is idempotent (a second try finds no absent player), and
            # a crash before the claim leaves a deadline that no longer applies, not a question
            # that no timer answers.
            await self.store.set_seats(table_id, seats)
            if claim is not None:
                await self.store.claim_deadline(claim)
            return await self.load(table_id)

    async def play_computer_turn(self, table_id: int) -> Played | None:
        """Let a computer seat play until its turn ends; None when it is not a computer's turn.

        Every action is its own committed move (the log stays replayable); the result gathers
        the turn's events so the table is published once.
        """
        async with self._changing(table_id) as table:
            game = table.game
            if (
                game is None
                or table.record.status != "active"
                or not table.is_computer(game.current)
            ):
                return None
            seat, turn = game.current, game.turn
            strength = seating.strength_of(next(s for s in table.seats if s.seat == seat))
            played: Played | None = None
            events: list[Event] = []
            changed: set[int] = set()
            while game.turn == turn and game.phase in (Phase.DRAW, Phase.PLAY):
                rng = random.Random(f"{table.record.seed}:{table.record.version}")
                played = await self._apply(table, game, choose_action(game, rng, strength), None, seat)
                events += played.events
                changed |= played.changed_hands
                table = played.table
                game = table.require_game()
            assert played is not None
            return Played(table, events, seat, frozenset(changed))

    async def resign(self, table_id: int, user_id: int) -> Played:
        """A seated player leaves a running game: a forfeit for their side."""
        async with self._changing(table_id) as table:
            game = self._playing(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("table.not_seated")
            return await self._apply(table, game, Resign(seat), user_id, seat)

    @staticmethod
    def _playing(table: Table) -> Game:
        """The game of a table that still accepts moves."""
        if table.record.status in ("finished", "cancelled"):
            raise Refusal("table.not_open")
        return table.require_game()

    async def _apply(
        self,
        table: Table,
        game: Game,
        action: Action,
        user_id: int | None,
        seat: int | None,
        *,
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
        told: Event | None = None,
    ) -> Played:
        """Apply and commit one action. ``claim`` and ``timeouts`` are written with the move
        that ends the turn (or round), never with a step inside it; so is ``told``, the
        timed-out turn's own event, when the claim is a turn's."""
        before = [list(h) for h in game.hands]
        turn_before = (game.round_no, game.turn, game.phase)
        events = [_named(e, table) for e in game.apply(action)]
        ends = (game.round_no, game.turn) != turn_before[:2] or game.phase not in (
            Phase.DRAW,
            Phase.PLAY,
        )
        status = "finished" if game.phase is Phase.GAME_OVER else None
        after = await self._commit(
            table,
            game,
            action_to_json(action),
            events,
            user_id,
            status,
            claim=claim if ends or turn_before[2] is Phase.ROUND_OVER else None,
            timeouts=timeouts if ends or user_id is not None else None,
            told=told,
        )
        changed = frozenset(s for s, hand in enumerate(game.hands) if hand != before[s])
        played = Played(after, events, seat, changed)
        if played.game_ended:
            await self._record(after)
        return played

    async def _record(self, table: Table) -> None:
        """Record a finished game's result. The move is committed and must be answered as
        accepted whatever happens here; recording is idempotent per table, so a database away
        at that moment only delays it (:meth:`record_delayed`, when it is back)."""
        if self._on_game_finished is None:
            return
        try:
            await self._on_game_finished(table)
        except DatabaseUnavailable:
            self._unrecorded.add(table.id)
        except Exception:
            log.exception("recording the result of table %s failed", table.id)

    async def record_delayed(self) -> None:
        """Record the results the database was away for (see :meth:`_record`)."""
        while self._unrecorded:
            tid = min(self._unrecorded)
            self._unrecorded.discard(tid)
            await self._record(await self.load(tid))

    async def _commit(
        self,
        table: Table,
        game: Game,
        action: dict[str, Any],
        events: list[Event],
        user_id: int | None,
        status: Any = None,
        *,
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
        told: Event | None = None,
    ) -> Table:
        """One transaction for the move; the table after it, built without reading it back."""
        snapshot = orjson.dumps(game.to_json()).decode()
        if claim is not None and claim.kind == "turn":
            # Stored with the move, so the table still says so after a restart.
            events = [*events, told or Event("turn_timed_out", claim.seat, {})]
        try:
            version = await self.store.commit_move(
                table.id,
                table.record.version,
                user_id,
                orjson.dumps(action).decode(),
                orjson.dumps([e.to_json() for e in events]).decode(),
                snapshot,
                status=status,
                claim=claim,
                timeouts=timeouts,
            )
        except StaleVersion:
            raise Refusal("table.busy") from None
        except TableClosed:
            raise Refusal("table.not_open") from None
        except DeadlineGone:
            raise Refusal("table.busy") from None
        record = replace(
            table.record,
            version=version,
            revision=table.record.revision + 1,
            snapshot_json=snapshot,
            status=status or table.record.status,
            updated_at=utc_now(),
        )
        seats = table.seats
        if timeouts is not None:
            seats = tuple(
                replace(s, timeouts=timeouts[1]) if s.seat == timeouts[0] else s for s in seats
            )
        self._remember(record)
        self._keep_parsed(table.id, snapshot, game)
        return Table(record, seats, game, table.prefs)

    async def replay(self, table_id: int) -> Game:
        """Rebuild a game from its move log (audit): must equal the stored snapshot."""
        moves = await self.store.list_moves(table_id)
        genesis = json.loads(moves[0].action_json)["genesis"]
        actions = [json.loads(m.action_json) for m in moves[1:]]
        return replay(genesis, actions)


def explain(error: RuleViolation, table: Table, seat: int) -> Refusal:
    """The engine's refusal with what only the table knows: names instead of seat numbers, and
    the way back from a discard that cannot be used (RULES.md §2.4)."""
    game = table.require_game()
    names = {s.seat: s.name or f"#{s.seat + 1}" for s in table.seats}
    if error.code == "turn.not_yours":
        return Refusal.from_violation(error, "turn.not_yours_named", player=names.get(game.current))
    stuck = game.taken is not None and game.taken in game.hands[seat]
    if stuck and game.rules.must_use_discard and error.code != "take.must_lay_taken":
        assert game.taken is not None
        return Refusal.from_violation(error, then=("take.offer_undo", {"card": game.taken.pretty}))
    return Refusal.from_violation(error)


def _named(event: Event, table: Table) -> Event:
    """``event`` with the name its seat has now, when it happens: the table retells a past move
    by who made it, even once a computer has taken the seat over."""
    seat = next((s for s in table.seats if s.seat == event.seat), None)
    if seat is None or not seat.name:
        return event
    return replace(event, data={**event.data, "name": seat.name})


def _again_key(table_id: int) -> str:
    """The meta key linking a finished table to the lobby its Play again opened."""
    return f"again:{table_id}"


def _invited_key(table_id: int) -> str:
    """The meta key of a Play again lobby's invited players (a JSON list of user ids)."""
    return f"again.invited:{table_id}"


def _player_count(table: Table) -> int:
    if table.mode is Mode.FREE_FOR_ALL:
        return max(2, len(table.seats))
    return table.mode.capacity
