"""Start-up: the Discord client wired to the settings, the store, the services and the cogs.

Why it is this thin: rules live in ``rummy_engine``, table logic in ``bot/services``, what
players see in ``bot/ui`` and the commands in ``cogs``; this class only owns the lifecycle (open
the store, load the cogs, push slash commands when they changed, re-arm and re-publish open
tables after a restart, and shut down without losing a move).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.features.learn.service import LessonService
from bot.features.play.autoplay import Autoplay
from bot.features.play.tables import Table, TableService
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.reconciler import Reconciler
from bot.features.puzzles.service import PuzzleService
from bot.features.puzzles.ui.answers import PuzzlePoster, bound_puzzle_items
from bot.features.seasons.service import SeasonService
from bot.features.seasons.ui.answers import StandingsPoster
from bot.features.stats.service import StatsService
from bot.memory import release_memory
from bot.render.drawing import make_drawer
from bot.services.inflight import InFlight, ShuttingDown
from bot.services.memory import MemoryKeeper
from bot.storage import Store, TableRecord
from bot.storage.outage import DatabaseUnavailable
from bot.ui import errors
from bot.ui.ack_watch import AckWatch
from bot.ui.commands import CatalogueTranslator
from bot.ui.global_limit import GlobalLimit
from bot.ui.loop_lag import LoopLag
from bot.ui.pacer import make_pacer
from rummy_engine import Event

log = logging.getLogger(__name__)

#: Extensions (cogs) loaded at start, in order. Add a module path here to ship a cog.
EXTENSIONS: tuple[str, ...] = ("cogs.surface",)

#: Meta key prefix under which the hash of the last synced command tree is kept.
COMMAND_HASH_KEY = "command_tree_hash"

#: How long a shutdown waits for moves in progress before closing anyway.
SHUTDOWN_GRACE_SECONDS = 20.0

#: How long the connection task may take to notice the close before it is cancelled.
RUNNER_EXIT_SECONDS = 5.0
#: Seconds between tries of a login that Discord answers with a 5xx (Discord failing for a
#: moment); after the last, the failure is the operator's one sentence.
LOGIN_RETRY_SECONDS = (1.0, 2.0, 4.0, 8.0)
#: The bot's one clock, for its deadlines and its store's timestamps alike (they are compared:
#: an idle game's last human move): discord.utils.utcnow, which SimCord moves in tests.
BOT_CLOCK = discord.utils.utcnow


def make_intents() -> discord.Intents:
    """The gateway intents the bot asks for: the defaults, no privileged ones.

    The bot works with slash commands, buttons and select menus only, so it needs
    neither message content, nor the member list, nor presences; nor typing and reaction
    events, nor direct messages' events. It takes the servers' message events for one of them:
    a message deleted (a moderator deleting a table message, which is posted again at once).
    Discord then sends an event for every message created or edited too, the bot's own
    included, in every channel of every server: :func:`hear_deletions` leaves those unparsed
    (parsing them was a fifth of a move's CPU under load).
    """
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    intents.messages = False
    intents.guild_messages = True
    intents.typing = False
    intents.reactions = False
    return intents


#: Gateway events the bot receives (with the servers' message events) and never reads.
UNREAD_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


def _unread(data: Any) -> None:
    """A gateway event left as it came: nothing is built from it, nothing dispatched."""


def hear_deletions(client: discord.Client, deleted: Callable[[Sequence[int]], None]) -> None:
    """Route the gateway's message deletions to ``deleted`` (the ids) and leave every created
    or edited message unparsed: the client's own parsers (``ConnectionState.parsers``, which
    its gateway looks events up in) are replaced for these events, so a message event costs
    the gateway's decoding only, neither a Message nor a dispatched event."""
    parsers = client._connection.parsers
    for event in UNREAD_EVENTS:
        parsers[event] = _unread
    parsers["MESSAGE_DELETE"] = lambda data: deleted((int(data["id"]),))
    parsers["MESSAGE_DELETE_BULK"] = lambda data: deleted([int(i) for i in data["ids"]])


def required_permissions() -> discord.Permissions:
    """The channel permissions the bot needs; the README and ``doctor`` use this list."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
        use_application_commands=True,
    )


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the right scopes and permissions."""
    return discord.utils.oauth_url(
        application_id,
        permissions=required_permissions(),
        scopes=("bot", "applications.commands"),
    )


async def command_tree_hash(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None
) -> str:
    """A stable SHA-256 of what :meth:`CommandTree.sync` would send for *guild*.

    Uses the same payload as ``sync`` (translated when a translator is set), with
    sorted keys and sorted commands, so the hash only changes when Discord would
    see a difference.
    """
    translator = tree.translator
    payload: list[dict[str, Any]] = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    encoded = sorted(json.dumps(item, sort_keys=True, separators=(",", ":")) for item in payload)
    return hashlib.sha256("\n".join(encoded).encode("utf-8")).hexdigest()


class RummyBot(commands.Bot):
    """The bot. Receives its settings and store; owns no global state."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        force_sync: bool = False,
        restore_tables: bool = True,
        extensions: tuple[str, ...] = EXTENSIONS,
    ) -> None:
        # The bot never joins a voice channel: discord.py's warnings that voice libraries are
        # missing (PyNaCl, davey) would only alarm the operator at every start.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        limit = GlobalLimit(pacer=make_pacer(settings))
        trace = limit.trace()
        acks = AckWatch()
        acks.trace(trace)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=make_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # no message events arrive to fill a message cache
            # every bot-token call is paced and every global 429 felt (bot/ui/pacer.py and
            # bot/ui/global_limit.py), every acknowledgement timed (bot/ui/ack_watch.py)
            http_trace=trace,
            **self._client_options(settings),
        )
        self.settings = settings
        self.store = store
        self.acks = acks
        self.inflight = InFlight(on_enter=lambda: self.memory.poke())
        self.lag = LoopLag()
        self.force_sync = force_sync
        self.restore_tables = restore_tables
        self.extension_names = extensions
        self._shutdown_lock = asyncio.Lock()
        self._store_closed = False
        self.stats = StatsService(store)
        self.tables = TableService(
            store,
            gate=self.inflight,
            on_game_finished=self.stats.on_game_finished,
            default_turn_timer=settings.turn_timer_minutes,
        )
        self.drawer = make_drawer(settings.drawing_processes)
        # Replays draw apart (a process started on the first replay, or a renderer of their
        # own): a whole game's GIF takes seconds, which no move's picture should wait behind;
        # at the lowest priority, so the moves and pictures of the tables in play go first.
        self.replay_drawer = make_drawer(min(1, settings.drawing_processes), niceness=19)
        self.reconciler = Reconciler(
            self, store, self.tables, gate=self.inflight, drawer=self.drawer, limit=limit
        )
        hear_deletions(self, self.reconciler.deleted)
        self.memory = MemoryKeeper(self.inflight, self.release_memory)
        self.autoplay = Autoplay(
            self.tables,
            self._publish,
            next_round_delay=settings.next_round_delay_seconds,
            computer_delay=settings.computer_delay_seconds,
            clock=BOT_CLOCK,
            remind=self.reconciler.remind,
            shards=settings.shards,
        )
        self.seasons = SeasonService(
            store, clock=BOT_CLOCK, post=StandingsPoster(self, store, self.drawer), shards=settings.shards
        )
        self.stats.after_rated = self.seasons.note_game
        poster = PuzzlePoster(self, store, self.drawer)
        self.puzzles = PuzzleService(store, post=poster, clock=BOT_CLOCK, shards=settings.shards)
        poster.answer = bound_puzzle_items(self.puzzles)[0]
        self.ui = UiContext(
            self.tables,
            store,
            self.stats,
            self.reconciler,
            self.autoplay,
            self.seasons,
            self.replay_drawer,
            self.lag,
            self.puzzles,
            lessons=LessonService(store),
        )
        self.tree.on_error = errors.answer  # type: ignore[method-assign]
        store.health.on_recovery = self.database_back

    def _client_options(self, settings: Settings) -> dict[str, Any]:
        """Extra options of the discord.py client: none unsharded (see ShardedRummyBot)."""
        return {}

    @property
    def syncs_commands(self) -> bool:
        """Whether this process pushes slash commands: commands belong to the application, not a
        shard, so with several processes only the one running shard 0 pushes them."""
        shards = self.settings.shards
        return shards is None or 0 in shards.ids

    async def _publish(self, table: Table, events: Sequence[Event]) -> None:
        await self.reconciler.publish(table, events=events)

    @property
    def dev_guild(self) -> discord.Object | None:
        """The server that receives commands instantly, if one is configured."""
        guild_id = self.settings.dev_guild_id
        return None if guild_id is None else discord.Object(id=guild_id)

    async def login(self, token: str) -> None:
        """discord.py's login, tried again when Discord answers it with a 5xx: a start (after a
        crash, or a deploy) that meets Discord failing for a moment waits for it instead of
        exiting. A refused token or an unreachable network still fails at once. discord.py
        retries 500, 502 and 504 itself, not 503."""
        delays = iter(LOGIN_RETRY_SECONDS)
        while True:
            try:
                await super().login(token)
                return
            except discord.DiscordServerError as error:
                delay = next(delays, None)
                if delay is None:
                    raise
                log.warning("Discord failed the login (%s); trying again in %.0f s", error, delay)
                # the session login opened, and its connector, are made anew by the next try
                await self.http.close()
                self.http.connector = discord.utils.MISSING
                await asyncio.sleep(delay)

    async def setup_hook(self) -> None:
        """Runs once after login, before the gateway connects."""
        await self.store.open()
        # Before the cogs and the sync: the command tree Discord receives (and its hash) carries
        # every language of the catalogue.
        await self.tree.set_translator(CatalogueTranslator())
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        if self.syncs_commands or self.force_sync:
            await self.sync_commands_if_changed(force=self.force_sync)
        if self.restore_tables:
            await self.restore_active_tables()
        self.autoplay.start()
        # Seasons that ended while the bot was down are announced now, once.
        self.seasons.start()
        # A puzzle due while the bot was down is posted now, once; one made but not posted too.
        await self.puzzles.resend_unsent()
        self.puzzles.start()
        self.memory.start()

    async def release_memory(self) -> None:
        """Give back what a burst of work took, here and in the drawing processes (see
        bot/memory.py): the memory keeper calls it once the bot is quiet."""
        self.reconciler.pictures.forget()
        await self.drawer.release()
        await self.replay_drawer.release()
        release_memory()

    def _command_hash_key(self, guild: discord.abc.Snowflake | None) -> str:
        scope = "global" if guild is None else f"guild:{guild.id}"
        return f"{COMMAND_HASH_KEY}:{self.application_id}:{scope}"

    async def sync_commands_if_changed(self, *, force: bool = False) -> bool:
        """Push slash commands to Discord if they differ from the last push (or if forced).

        Discord rate-limits command updates and global ones take a while to
        propagate, so pushing on every start is wasteful. The hash of the last
        pushed tree is kept in the database per application and scope. With a
        dev server configured, the global commands are copied there and pushed to
        that server only (instant, and no duplicates in the list).
        Returns whether a push happened.
        """
        guild = self.dev_guild
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await command_tree_hash(self.tree, guild=guild)
        key = self._command_hash_key(guild)
        if not force and await self.store.get_meta(key) == digest:
            log.info("Slash commands unchanged; not syncing (%s)", key)
            return False
        try:
            synced = await self.tree.sync(guild=guild)
        except app_commands.CommandSyncFailure as refused:
            # Discord refuses the whole tree for one field over a limit (50035); the bot still
            # serves the tables, and the next start tries again (no hash is stored).
            fields = refused.text.splitlines()[1:] or [refused.text]  # "In <path>: <why>"
            log.error(
                "Discord refused the slash commands (%s, error %d) and keeps the ones it had: %s",
                "global" if guild is None else f"server {guild.id}",
                refused.code,
                "; ".join(fields),
            )
            return False
        await self.store.set_meta(key, digest)
        log.info("Synced %d slash command(s) (%s)", len(synced), key)
        return True

    async def restore_active_tables(self) -> list[TableRecord]:
        """Bring back lobbies and games that were open when the bot stopped.

        Buttons need nothing (their custom_ids carry the table and turn and are parsed by the
        registered dynamic items). Deadlines are stored, so re-arming keeps every due time
        (tables from before deadlines existed get theirs now); every table with a change
        Discord does not show yet is published, whatever step the last run stopped at; then
        the dispatcher starts and at once fires what fell due while the bot was down (each
        deadline once: its claim is part of the move it causes).
        """
        records = await self.store.list_active_tables(shards=self.settings.shards)
        log.info("Restoring %d open table(s)", len(records))
        healed = await self._rearm(records)
        log.info("Re-published %d table(s) with changes not yet shown", healed)
        # a table message deleted while the bot was down is posted again (in the background)
        self.reconciler.look(records)
        return records

    async def _rearm(self, records: Sequence[TableRecord]) -> int:
        """Arm the deadlines of each open table, then publish every table whose change the
        channel does not show yet; returns how many were. A table that cannot be loaded is
        logged and left (a database away stops it all: its return calls this again)."""
        for record in records:
            try:
                table = await self.tables.load(record.id)
            except DatabaseUnavailable:
                raise
            except Exception:
                log.exception("table %s cannot be loaded; /rummy cancel archives it", record.id)
                continue
            await self.autoplay.after(table)
        return await self.reconciler.heal(self.settings.shards)

    async def database_back(self) -> None:
        """What waited for the database while it was away, once it is back (the store calls
        it): which messages show each table, as this process knows them; the results of games
        that ended then; the deadlines of every open table (computer turns, timers) and every
        table whose change the channel does not show yet, as at start-up; then the deadlines
        that fell due meanwhile fire. If the database goes away again, its next return calls
        this again."""
        try:
            await self.reconciler.save_refs()
            await self.tables.record_delayed()
            records = await self.store.list_active_tables(shards=self.settings.shards)
            healed = await self._rearm(records)
        except (DatabaseUnavailable, ShuttingDown):
            return
        log.info("After the database's return: %d table(s) shown again", healed)
        self.autoplay.dispatcher.wake()

    async def close(self) -> None:
        """Graceful stop: refuse new moves, wait for moves in progress, then close.

        Order matters: in-flight moves may still need Discord to send their reply,
        so the connection is closed after they finish, and the store last.
        """
        async with self._shutdown_lock:
            self.inflight.close()
            await self.memory.stop()
            await self.autoplay.close()
            await self.seasons.close()
            await self.puzzles.close()
            await self.reconciler.close()
            if self.inflight.active:
                log.info("Waiting for %d move(s) in progress", self.inflight.active)
                if not await self.inflight.wait_idle(SHUTDOWN_GRACE_SECONDS):
                    log.warning("Shutting down with %d move(s) unfinished", self.inflight.active)
            await super().close()
            self.acks.log_summary()
            await self.drawer.close()
            await self.replay_drawer.close()
            if not self._store_closed:
                self._store_closed = True
                await self.store.close()
            _log_tasks_left()

    async def serve(self, token: str) -> None:
        """Log in, connect, and run until SIGINT/SIGTERM; then shut down gracefully.

        Exceptions from logging in (e.g. :class:`discord.LoginFailure`) propagate
        after the store has been closed.
        """
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        installed: list[signal.Signals] = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
                installed.append(sig)
        runner = asyncio.create_task(self.start(token), name="rummy-bot-runner")
        stopper = asyncio.create_task(stop.wait(), name="rummy-bot-signal")
        try:
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                log.info("Signal received; shutting down")
            await self.close()
            if stop.is_set():
                # Closing the connection can make start() fail in various ways; the
                # shutdown was asked for, so only a hang matters.
                try:
                    await asyncio.wait_for(runner, RUNNER_EXIT_SECONDS)
                except Exception:
                    log.debug("Runner ended during shutdown", exc_info=True)
            else:
                await runner
        finally:
            stopper.cancel()
            if not runner.done():
                runner.cancel()
            for sig in installed:
                loop.remove_signal_handler(sig)


class ShardedRummyBot(RummyBot, commands.AutoShardedBot):
    """The bot running a range of Discord's shards (``RUMMY_SHARD_COUNT``/``RUMMY_SHARDS``).

    Why ranges instead of one process: Discord requires sharding past 2,500 servers and one
    process saturates long before, so several processes share one PostgreSQL database, each
    running its shards. Discord sends a server's interactions to the shard of that server, so
    each process owns its servers' tables: their locks stay in memory, and start-up, healing and
    deadlines only look at them (the claim rows keep a deadline from firing twice anyway).
    """

    def _client_options(self, settings: Settings) -> dict[str, Any]:
        assert settings.shards is not None
        return {"shard_count": settings.shards.count, "shard_ids": list(settings.shards.ids)}


def make_bot(settings: Settings, store: Store, **options: Any) -> RummyBot:
    """The bot for these settings: sharded when ``RUMMY_SHARD_COUNT`` is set."""
    cls = RummyBot if settings.shards is None else ShardedRummyBot
    return cls(settings, store, **options)


def _log_tasks_left() -> None:
    """Every task the bot started should be over once it is closed: say so, or name those
    that are not (a leak shows up in the operator's log and in benchmarks/bench_chaos.py)."""
    current = asyncio.current_task()
    left = sorted(t.get_name() for t in asyncio.all_tasks() if t is not current and not t.done())
    log.info("closed with %d task(s) still running%s", len(left), f": {left}" if left else "")
