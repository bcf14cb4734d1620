"""The Discord client: wiring of settings, storage, extensions and slash commands.

Why it is this thin: game rules live in ``rummy_engine`` and the Discord
features in ``cogs``; this class only owns the lifecycle (open the store, load
the cogs, push slash commands when they changed, restore tables after a
restart, and shut down without losing a move).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
from types import TracebackType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.controller import Controller
from bot.delivery import Delivery
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.storage import Store, TableRecord
from bot.timers import TableTimers
from bot.views import DYNAMIC_ITEMS
from cogs.stats import DYNAMIC_ITEMS as STATS_ITEMS

log = logging.getLogger(__name__)

#: Extensions (cogs) loaded at start, in order. Add a module path here to ship a cog.
EXTENSIONS: tuple[str, ...] = ("cogs.rummy",)

#: Meta key prefix under which the hash of the last synced command tree is kept.
COMMAND_HASH_KEY = "command_tree_hash"

#: How long a shutdown waits for moves in progress before closing anyway.
SHUTDOWN_GRACE_SECONDS = 20.0

#: How long the connection task may take to notice the close before it is cancelled.
RUNNER_EXIT_SECONDS = 5.0


def make_intents() -> discord.Intents:
    """The gateway intents the bot asks for: the defaults, no privileged ones.

    The bot works with slash commands, buttons and select menus only, so it needs
    neither message content, nor the member list, nor presences.
    """
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


def required_permissions() -> discord.Permissions:
    """The channel permissions the bot needs; the README and ``doctor`` use this list."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
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


class ShuttingDown(RuntimeError):
    """Raised when new work starts after a shutdown began; reply 'try again later'."""


class InFlight:
    """Counts work in progress (moves) so a shutdown can wait for it to finish.

    Use ``async with bot.inflight:`` around handling one move. Once :meth:`close`
    has been called, entering raises :class:`ShuttingDown`, so no new move starts
    while the bot drains.
    """

    def __init__(self) -> None:
        self._count = 0
        self._closed = False
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def active(self) -> int:
        """How many pieces of work are in progress."""
        return self._count

    @property
    def closed(self) -> bool:
        """Whether new work is refused."""
        return self._closed

    def close(self) -> None:
        """Refuse new work from now on; work already inside continues."""
        self._closed = True

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no work is in progress; ``False`` if *timeout* expired first."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def __aenter__(self) -> InFlight:
        if self._closed:
            raise ShuttingDown("the bot is shutting down")
        self._count += 1
        self._idle.clear()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._count -= 1
        if self._count == 0:
            self._idle.set()


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
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=make_intents(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.store = store
        self.inflight = InFlight()
        self.force_sync = force_sync
        self.restore_tables = restore_tables
        self.extension_names = extensions
        self._shutdown_lock = asyncio.Lock()
        self._store_closed = False
        self.stats = StatsService(store)
        self.tables = TableService(store, on_game_finished=self.stats.on_game_finished)
        self.delivery = Delivery(self)
        self.controller = Controller(self)
        self.timers = TableTimers()

    @property
    def dev_guild(self) -> discord.Object | None:
        """The server that receives commands instantly, if one is configured."""
        guild_id = self.settings.dev_guild_id
        return None if guild_id is None else discord.Object(id=guild_id)

    async def setup_hook(self) -> None:
        """Runs once after login, before the gateway connects."""
        await self.store.open()
        self.add_dynamic_items(*DYNAMIC_ITEMS, *STATS_ITEMS)
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        await self.sync_commands_if_changed(force=self.force_sync)
        if self.restore_tables:
            await self.restore_active_tables()

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
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("Synced %d slash command(s) (%s)", len(synced), key)
        return True

    async def restore_active_tables(self) -> list[TableRecord]:
        """Bring back lobbies and games that were open when the bot stopped.

        Buttons need nothing (their custom_ids carry the table and turn and are parsed by the
        registered dynamic items); rounds that were over get their next-round timer back,
        counted from the move that ended them, and a computer whose turn it was plays on.
        """
        records = await self.store.list_active_tables()
        log.info("Restoring %d open table(s)", len(records))
        now = discord.utils.utcnow()
        for record in records:
            waited = (now - record.updated_at).total_seconds()
            self.controller.schedule_next(await self.tables.load(record.id), waited=waited)
        return records

    async def close(self) -> None:
        """Graceful stop: refuse new moves, wait for moves in progress, then close.

        Order matters: in-flight moves may still need Discord to send their reply,
        so the connection is closed after they finish, and the store last.
        """
        async with self._shutdown_lock:
            self.inflight.close()
            await self.timers.close()
            if self.inflight.active:
                log.info("Waiting for %d move(s) in progress", self.inflight.active)
                if not await self.inflight.wait_idle(SHUTDOWN_GRACE_SECONDS):
                    log.warning("Shutting down with %d move(s) unfinished", self.inflight.active)
            await super().close()
            if not self._store_closed:
                self._store_closed = True
                await self.store.close()

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


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level, with discord.py's formatter."""
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
