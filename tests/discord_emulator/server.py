"""A small Discord REST API + gateway emulator on 127.0.0.1 for end-to-end tests.

Why: SimCord replaces discord.py's HTTP/gateway seams in-process; this emulator
does not. A real ``discord.Client`` logs in over real HTTP (aiohttp client ->
aiohttp server) and a real WebSocket (HELLO/IDENTIFY/READY/heartbeats, optional
zlib-stream), so transport-level wiring (multipart uploads, webhook follow-ups,
``with_response`` callbacks, error JSON -> ``discord.Forbidden``) is exercised
exactly as in production.

Scope: what a slash-command + component bot needs. Anything else answers a
clear 404 JSON, is logged, and (with ``strict=True``) fails the test at
teardown, so a missing route is never silent. Commands are held to Discord's limits
(``command_limits``): a tree Discord would refuse gets its 400 / 50035 answer here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import logging
import re
import secrets
import time
import traceback
import zlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import BodyPartReader, WSMsgType, hdrs, web

from . import command_limits
from .chaos import Chaos, Fault, GatewayFault, Rule
from .models import (
    ALL_PERMISSIONS,
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GUILD_TEXT,
    PUBLIC_THREAD,
    EmuChannel,
    EmuGuild,
    EmuUser,
    InteractionRecord,
    SnowflakeFactory,
    StoredAttachment,
    StoredMessage,
    now_iso,
    snowflake_age,
    walk_components,
)

log = logging.getLogger("tests.discord_emulator")

API_PREFIX = "/api/v10"
#: A user mention in a message's content (``<@id>``, or ``<@!id>`` as older clients wrote it).
USER_MENTION = re.compile(r"<@!?(\d+)>")
HEARTBEAT_INTERVAL_MS = 41_250

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY = 0, 1, 2
OP_RESUME, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 6, 8, 9, 10, 11
#: How many dispatched events a session keeps for a RESUME.
BACKLOG = 5000

# Interaction + callback types.
INTERACTION_APP_COMMAND, INTERACTION_COMPONENT, INTERACTION_AUTOCOMPLETE = 2, 3, 4
CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL = 8, 9
SUBCOMMAND, SUBCOMMAND_GROUP, USER_OPTION = 1, 2, 6
# Gateway intents (bits) that gate MESSAGE_* events.
INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES = 1 << 9, 1 << 12


class EmulatorHTTPError(Exception):
    """Raised inside handlers; rendered as Discord-style error JSON."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class UploadedFile:
    """A ``files[n]`` multipart part."""

    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass
class RequestRecord:
    """One REST call the bot made (for assertions and debugging)."""

    method: str
    path: str
    status: int
    json: Any = None
    #: ``time.monotonic()`` when the request arrived and when its answer was ready (benchmarks
    #: measure what players see from these).
    started: float = 0.0
    finished: float = 0.0
    #: A 429's scope: ``"global"`` (the token's global bucket) or ``"route"``; "" otherwise.
    limited: str = ""
    #: The chaos fault this call met (``"500 carried out"``, ``"timeout"``…); "" otherwise.
    fault: str = ""


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only when Content-Type is *exactly* application/json
    # (no charset suffix), so set the header by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class _GatewayConnection:
    """One WebSocket session, with optional zlib-stream/zstd-stream transport compression."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self.seq = 0
        self.identified = False
        #: The intents the session identified with: which events Discord would send it.
        self.intents = 0
        self.session_id = secrets.token_hex(16)
        self.transport: asyncio.BaseTransport | None = None
        #: (shard id, shard count) from IDENTIFY; an unsharded session is (0, 1).
        self.shard = (0, 1)
        #: The session's dispatched events (seq, name, data), kept for a RESUME to replay
        #: what a dropped connection missed, as Discord does.
        self.backlog: deque[tuple[int, str | None, Any]] = deque(maxlen=BACKLOG)
        #: Whether Discord would let this session resume once its connection is gone.
        self.resumable = True
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd: Any = None
        if compress == "zstd-stream":
            self._zstd = _make_zstd_stream()
        self._lock = asyncio.Lock()

    def serves(self, guild_id: int | str | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (None: a DM)."""
        shard, count = self.shard
        if guild_id is None:
            return shard == 0
        return (int(guild_id) >> 22) % count == shard

    def record(self, d: Any, t: str | None) -> int:
        """The next sequence number, given to a dispatched event kept in the backlog."""
        self.seq += 1
        self.backlog.append((self.seq, t, d))
        return self.seq

    def resume_from(self, old: _GatewayConnection) -> None:
        """Take over a dropped connection's session: its shard, intents, numbers, backlog."""
        self.identified, self.session_id = True, old.session_id
        self.intents, self.shard = old.intents, old.shard
        self.seq, self.backlog = old.seq, old.backlog

    async def send(
        self, op: int, d: Any, t: str | None = None, *, seq: int | None = None
    ) -> None:
        async with self._lock:
            if op == OP_DISPATCH and seq is None:
                seq = self.record(d, t)
            raw = json.dumps({"op": op, "d": d, "s": seq, "t": t}).encode()
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionResetError):  # dropped: kept for a RESUME
                await self._write(raw)

    async def _write(self, raw: bytes) -> None:
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        elif self._zstd is not None:
            await self.ws.send_bytes(self._zstd(raw))
        else:
            await self.ws.send_str(raw.decode())


def _make_zstd_stream() -> Callable[[bytes], bytes]:
    """Streaming zstd compressor matching discord.py's decompressor (one flushed block per message).

    Only used when discord.py itself found a zstd module (``zstandard`` or 3.14's
    ``compression.zstd``) and therefore asked for ``compress=zstd-stream``.
    """
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        from compression import zstd  # type: ignore[import-not-found]

        std = zstd.ZstdCompressor()
        return lambda raw: std.compress(raw, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    obj = zstandard.ZstdCompressor().compressobj()
    return lambda raw: obj.compress(raw) + obj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


class _ErrorLogCapture(logging.Handler):
    """Collects ERROR+ records from the ``discord`` logger (tracebacks included)."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.messages = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.messages.append(text)


class InteractionHandle:
    """What a test gets back after injecting an interaction: await the bot's answer."""

    def __init__(self, emulator: DiscordEmulator, record: InteractionRecord) -> None:
        self._emu = emulator
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def response_type(self) -> int | None:
        """Callback type used: 4 message, 5 deferred, 6 deferred update, 7 update, 9 modal."""
        return self.record.response_type

    async def response(self, timeout: float = 5.0) -> StoredMessage | None:
        """Wait for the callback; return the response message (source message for 6/7)."""
        try:
            await asyncio.wait_for(self.record.responded.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"bot did not answer interaction {self.id} within {timeout}s "
                f"(data={self.record.data}); unknown routes so far: {self._emu.unknown_routes}"
            ) from None
        if self.record.response_message_id is None:
            return None
        return self._emu.get_message(self.record.channel_id, self.record.response_message_id)

    async def followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait until at least ``count`` follow-ups were sent; return them all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        record = self.record
        while len(record.followup_ids) < count:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {count} follow-up(s) to "
                    f"interaction {self.id}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.followed.wait(), remaining)
        return [self._emu.get_message(self.record.channel_id, m) for m in self.record.followup_ids]

    async def answer(self, timeout: float = 5.0) -> StoredMessage:
        """The bot's first answer to the user: the response message itself, or, after a deferral
        ("thinking…"), the follow-up that replaced it (a move is answered either way)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        response = await self.response(timeout)
        if self.record.response_type == CB_MESSAGE and response is not None:
            return response
        remaining = max(0.0, timeout - (loop.time() - started))
        return (await self.followups(1, remaining))[0]

    def original(self) -> StoredMessage | None:
        """The current state of the original response message (after edits)."""
        if self.record.response_message_id is None:
            return None
        return self._emu.get_message(self.record.channel_id, self.record.response_message_id)


class DiscordEmulator:
    """In-memory Discord on 127.0.0.1: REST under ``/api/v10``, gateway at ``/ws``.

    Typical use (see ``tests/tools/test_emulator_smoke.py``)::

        async with DiscordEmulator() as emu:
            alice = emu.add_user("alice")
            guild = emu.add_guild("Test", members=[alice])
            general = emu.add_text_channel(guild, "general")
            async with emu.running(bot):
                handle = await emu.slash(alice, general, "demo ping")
                assert (await handle.response()).content == "pong"

    ``start()`` patches ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``; ``close()`` restores them.
    """

    def __init__(
        self,
        *,
        token: str = "emulator-token",
        bot_name: str = "RummyBot",
        strict: bool = True,
        dispatch_message_events: bool = True,
        global_limit: float | None = None,
    ) -> None:
        self.token = token
        self.strict = strict
        self.dispatch_message_events = dispatch_message_events
        self.snowflake = SnowflakeFactory()
        self.bot_user = EmuUser(self.snowflake(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, EmuUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, EmuGuild] = {}
        self.channels: dict[int, EmuChannel] = {}
        self.messages: dict[int, list[StoredMessage]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_forbidden: set[int] = set()
        #: Channels where the bot may not open threads (403 / 50013, Missing Permissions).
        self.threads_forbidden: set[int] = set()
        #: Channels and threads deleted (any later call into them answers 404 / 10003).
        self.deleted_channels: set[int] = set()
        #: Injected failures: [method, fnmatch pattern of the path, calls left] (fail_requests).
        self._failures: list[list[Any]] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        #: Every bulk-overwrite: (guild_id or None, payload as sent). Count it to assert sync calls.
        self.sync_calls: list[tuple[int | None, list[dict[str, Any]]]] = []
        #: Every command write refused as Discord would (50035): (guild_id or None, errors).
        self.refused_commands: list[tuple[int | None, dict[str, Any]]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        #: Tracebacks of emulator-side handler crashes (always fail the test at teardown).
        self.errors: list[str] = []
        #: ERROR records discord.py logged while the bot ran (e.g. a command raised); live.
        self.bot_errors: list[str] = []
        self.gateway_events: list[tuple[str, Any]] = []  # (t, d) dispatched, in order
        self.identify_payloads: list[dict[str, Any]] = []
        #: Query string of each gateway connection, e.g. ``{"v": "10", "compress": "zlib-stream"}``.
        self.gateway_queries: list[dict[str, str]] = []
        self._connections: list[_GatewayConnection] = []
        #: Sessions whose connection is gone and that may resume, by session id.
        self._detached: dict[str, _GatewayConnection] = {}
        #: Events dispatched while no session could ever receive them (chaos runs only).
        self.undelivered: list[tuple[str, Any]] = []
        self._echoes: set[asyncio.Task[None]] = set()
        #: Sessions resumed (a RESUME accepted, its missed events replayed).
        self.resumes = 0
        #: What ``GET /gateway/bot`` recommends; sessions may identify with any shard count.
        self.recommended_shards = 1
        #: Called around every bot-token REST call with ("before" | "after", method, path), e.g.
        #: to kill a bot process at an exact step. Interaction endpoints are not bot-token calls;
        #: ``hook_webhooks`` adds the calls made with an interaction's token (its response and
        #: follow-ups).
        self.request_hook: Callable[[str, str, str], None] | None = None
        self.hook_webhooks = False
        #: Rate limiting as Discord does it: called with (method, path) for every bot-token REST
        #: call; a number of seconds answers 429 with that ``Retry-After`` (None lets it through).
        self.rate_limit: Callable[[str, str], float | None] | None = None
        #: Discord's global bucket of a bot token: at most this many bot-token requests in any
        #: second, across every route (interaction callbacks and webhook follow-ups are exempt);
        #: past it, 429 with ``"global": true`` and ``X-RateLimit-Global``, as Discord answers
        #: (discord.py then holds every bot-token request until ``retry_after``). Off (None)
        #: unless a test sets it.
        self.global_limit = global_limit
        self._global_window: deque[float] = deque()
        #: Discord forgets an interaction not acknowledged within 3 seconds of its creation
        #: (its callback then gets 404 / 10062). Off unless a test sets it: a loaded machine
        #: must not fail tests that are about something else.
        self.ack_deadline: float | None = None
        #: An interaction token lives 15 minutes: past this age (seconds after the
        #: interaction's creation) its webhook calls answer 401 / 50027, as Discord's do.
        self.token_life = 15 * 60.0
        #: Called with the bot once it is READY; what it returns is awaited before every
        #: injected interaction and when the bot stops (the fixtures' invariant check).
        self.watcher: Callable[[DiscordEmulator, discord.Client], Any] | None = None
        #: The check in force (set per connected bot, or by a test for a bot process of its
        #: own; a test that holds the bot behind on purpose lifts it and checks at the end).
        self.step_check: Any = None
        #: Discord misbehaving on purpose (latency, 5xx, timeouts, 429s, expired tokens): see
        #: ``chaos.py``. None: a perfect Discord.
        self.chaos: Chaos | None = None
        #: Keep each REST call's JSON payload on its record (``RequestRecord.json``), for a
        #: test that reads what the bot sent (e.g. that no bot-token call carries a text).
        self.keep_payloads = False
        #: The JSON payload of each request being handled, by ``id(request)``, for its record.
        self._payloads: dict[int, Any] = {}
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/"

    async def start(self) -> None:
        """Bind a random free loopback port and point discord.py at it."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.http_base + API_PREFIX
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    async def close(self) -> None:
        """Close sockets, stop the server and restore discord.py's real endpoints."""
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1000)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def running(
        self,
        bot: discord.Client,
        *,
        token: str | None = None,
        ready_timeout: float = 5.0,
        guild_ready_timeout: float = 0.05,
        reconnect: bool = False,
    ) -> AsyncIterator[discord.Client]:
        """Log ``bot`` in, connect it in a task, wait for ``on_ready``; close it cleanly on exit.

        ``token`` defaults to the emulator's token (pass another to test a 401 LoginFailure).
        ``guild_ready_timeout`` shortens discord.py's fixed wait after the last
        GUILD_CREATE (2 s by default) -- otherwise every test would pay it. ``reconnect``:
        the client comes back after a gateway fault, as a real bot does (off: a test that
        does not expect one fails at once).
        On exit, emulator handler crashes, ERRORs logged by discord.py and (if ``strict``)
        unknown routes fail the test.
        """
        bot._connection.guild_ready_timeout = guild_ready_timeout
        # discord.py only *logs* exceptions raised in commands/views/events; capture them so a
        # crashing callback fails the test instead of passing silently.
        capture = _ErrorLogCapture(self.bot_errors)
        discord_logger = logging.getLogger("discord")
        discord_logger.addHandler(capture)
        task: asyncio.Task[None] | None = None
        ready: asyncio.Task[None] | None = None
        try:
            await bot.login(self.token if token is None else token)
            task = asyncio.create_task(
                bot.connect(reconnect=reconnect), name="emulated-bot-connect"
            )
            ready = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait(
                {task, ready}, timeout=ready_timeout, return_when="FIRST_COMPLETED"
            )
            if task in done:
                task.result()  # re-raise the connect failure
                raise AssertionError("bot.connect() returned before READY")
            if ready not in done:
                raise AssertionError(
                    f"bot not READY within {ready_timeout}s; unknown routes: {self.unknown_routes}"
                )
            self.step_check = self.watcher(self, bot) if self.watcher else None
            yield bot
            if self.step_check is not None:
                await self.step_check.check()
        finally:
            self.step_check = None
            if ready is not None:
                ready.cancel()
            await bot.close()
            if task is not None and not task.done():  # early failures were re-raised above
                with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                    await asyncio.wait_for(task, timeout=5)
            # Let aiohttp's connector finish closing its transports before the loop goes away.
            await asyncio.sleep(0)
            discord_logger.removeHandler(capture)
        self.check()

    def check(self) -> None:
        """Fail loudly if the emulator crashed or (strict) the bot hit unimplemented routes."""
        if self.errors:
            raise AssertionError("emulator handler error(s):\n" + "\n".join(self.errors))
        if self.bot_errors:
            raise AssertionError("discord.py logged error(s):\n" + "\n".join(self.bot_errors))
        if self.strict and self.unknown_routes:
            raise AssertionError(
                f"bot called routes the emulator does not implement: {self.unknown_routes}"
            )

    # ------------------------------------------------------------------ world building

    def add_user(self, name: str, *, bot: bool = False) -> EmuUser:
        user = EmuUser(self.snowflake(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        members: list[EmuUser] | tuple[EmuUser, ...] = (),
        shard: tuple[int, int] | None = None,
    ) -> EmuGuild:
        """Create a guild (the bot is always a member). Do this before ``running()``.
        ``shard=(id, count)`` gives it an id on that shard."""
        owner = members[0] if members else self.add_user("owner")
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = EmuGuild(guild_id, name, owner_id=owner.id)
        guild.member_ids = [self.bot_user.id, *(m.id for m in members)]
        if owner.id not in guild.member_ids:
            guild.member_ids.append(owner.id)
        self.guilds[guild.id] = guild
        return guild

    def two_players(self) -> tuple[EmuUser, EmuUser, EmuChannel]:
        """alice and bob in the server "Rummy Club", and its #rummy channel: most tests' table."""
        alice, bob = self.add_user("alice"), self.add_user("bob")
        guild = self.add_guild("Rummy Club", members=[alice, bob])
        return alice, bob, self.add_text_channel(guild, "rummy")

    def add_text_channel(self, guild: EmuGuild, name: str) -> EmuChannel:
        channel = EmuChannel(
            self.snowflake(),
            GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
        )
        guild.channel_ids.append(channel.id)
        self.channels[channel.id] = channel
        self.messages[channel.id] = []
        return channel

    def add_thread(self, parent: EmuChannel, name: str) -> EmuChannel:
        """A public thread a person opened in ``parent`` (the bot may play a table in it)."""
        thread = EmuChannel(
            self.snowflake(), PUBLIC_THREAD, name=name, guild_id=parent.guild_id,
            parent_id=parent.id,
        )  # fmt: skip
        self.channels[thread.id] = thread
        self.messages[thread.id] = []
        return thread

    def threads(self, channel: EmuChannel | None = None) -> list[EmuChannel]:
        """The threads opened (in ``channel``, if given), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (channel is None or c.parent_id == channel.id)
        ]

    def archive_thread(self, thread: EmuChannel) -> None:
        """Archive ``thread`` as Discord does after its inactivity time: edits in it are
        refused (400 / 50083) until it is unarchived; a new message unarchives it."""
        assert thread.is_thread, "only a thread can be archived"
        thread.archived = True
        self._notify()

    def delete_channel(self, channel: EmuChannel) -> None:
        """Delete a channel (with its threads) or a thread, as a moderator would: every later
        call into it answers 404 / 10003 Unknown Channel."""
        gone = [channel, *(t for t in self.threads(channel) if not channel.is_thread)]
        for each in gone:
            self.channels.pop(each.id, None)
            self.deleted_channels.add(each.id)
            guild = self.guilds.get(each.guild_id or 0)
            if guild is not None and each.id in guild.channel_ids:
                guild.channel_ids.remove(each.id)
        self._notify()

    def forbid_threads(self, channel: EmuChannel, forbidden: bool = True) -> None:
        """Refuse the bot threads in ``channel`` (403 / 50013: no Create Public Threads)."""
        (self.threads_forbidden.add if forbidden else self.threads_forbidden.discard)(channel.id)

    def fail_requests(self, method: str, pattern: str, *, times: int = 1) -> None:
        """Answer the next ``times`` bot-token calls matching ``method`` and the fnmatch
        ``pattern`` (a path without ``/api/v10``) with 400, as a failed publication."""
        self._failures.append([method, pattern, times])

    def _injected(self, method: str, path: str) -> bool:
        for failure in self._failures:
            if failure[2] > 0 and failure[0] == method and fnmatch.fnmatch(path, failure[1]):
                failure[2] -= 1
                return True
        return False

    def requests_into(self, channel: EmuChannel | int) -> list[RequestRecord]:
        """The bot's REST calls addressed to a channel (its messages, threads, itself)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        prefix = f"/channels/{channel_id}"
        return [r for r in self.requests if r.path == prefix or r.path.startswith(prefix + "/")]

    def dm_channel(self, user: EmuUser) -> EmuChannel:
        """The bot<->user DM channel (created on demand, like POST /users/@me/channels)."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel = EmuChannel(self.snowflake(), DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self.messages[channel.id] = []
            self.dm_channels[user.id] = channel_id = channel.id
        return self.channels[channel_id]

    async def delete_message(self, message: StoredMessage) -> None:
        """Delete ``message`` as a moderator would (not through the bot): gone from the channel,
        and MESSAGE_DELETE sent to the sessions with the intent, as Discord does."""
        message.deleted = True
        self._notify()
        await self._dispatch_quiet(
            "MESSAGE_DELETE",
            {"id": str(message.id), "channel_id": str(message.channel_id)}
            | ({"guild_id": str(message.guild_id)} if message.guild_id else {}),
        )

    def forbid_dms(self, user: EmuUser, forbidden: bool = True) -> None:
        """Make the bot's DMs to ``user`` fail with 403 / code 50007 (closed DMs)."""
        (self.dm_forbidden.add if forbidden else self.dm_forbidden.discard)(user.id)

    # ------------------------------------------------------------------ queries

    def get_message(self, channel_id: int, message_id: int) -> StoredMessage:
        for message in self.messages.get(channel_id, []):
            if message.id == message_id:
                return message
        raise KeyError(f"no message {message_id} in channel {channel_id}")

    def channel_messages(
        self, channel: EmuChannel | int, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """Messages in a channel, oldest first (ephemeral ones included, flagged)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self.messages.get(channel_id, []) if include_deleted or not m.deleted]

    def dm_messages(self, user: EmuUser) -> list[StoredMessage]:
        """What the bot sent (and the user could read) in ``user``'s DM."""
        channel_id = self.dm_channels.get(user.id)
        return [] if channel_id is None else self.channel_messages(channel_id)

    def public_messages(self) -> list[StoredMessage]:
        """Every non-ephemeral, non-deleted guild-channel message: what *everyone* can see."""
        return [
            m
            for ch in self.channels.values()
            if not ch.is_dm
            for m in self.channel_messages(ch)
            if not m.ephemeral
        ]

    def synced_commands(self, guild: EmuGuild | None = None) -> list[dict[str, Any]]:
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    async def wait_until(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Wait until ``predicate()`` holds.

        Re-checked after every emulator state change, and at least every 20 ms for
        conditions on bot-side state the emulator cannot observe.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.02))

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # ------------------------------------------------------------------ interactions (test API)

    async def slash(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        /,
        *,
        require_synced: bool = True,
        **options: Any,
    ) -> InteractionHandle:
        """Invoke ``/command`` (e.g. ``"rummy new"``) as ``user`` in ``channel``.

        Option types and subcommand(-group) nesting come from the synced command
        definitions, so -- as on Discord -- an unsynced command fails the test
        unless ``require_synced=False`` (types are then inferred from values).
        ``EmuUser`` values become user options with ``resolved`` data.
        """
        path = command.split()
        root, guild_scoped = self._find_command(path[0], channel)
        if root is None:
            if require_synced:
                raise AssertionError(f"/{path[0]} was never synced (global or to this guild)")
            root = {"id": str(self.snowflake()), "name": path[0], "type": 1, "options": []}
        nesting, leaf = self._walk(root, path[1:], strict=require_synced)
        leaf_options, resolved = self._build_options(leaf, options, channel)
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": 1,
            "options": self._nest(nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        if guild_scoped:
            data["guild_id"] = str(channel.guild_id)
        return await self._inject(INTERACTION_APP_COMMAND, user, channel, data)

    async def autocomplete(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        option: str,
        value: str,
        /,
        **filled: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into an autocomplete option; return the choices the bot offered."""
        path = command.split()
        root, guild_scoped = self._find_command(path[0], channel)
        if root is None:
            raise AssertionError(f"/{path[0]} was never synced")
        nesting, leaf = self._walk(root, path[1:], strict=True)
        leaf_options, _ = self._build_options(leaf, filled, channel)
        declared = {o["name"]: o for o in leaf.get("options") or []}
        leaf_options.append(
            {"name": option, "type": declared[option]["type"], "value": value, "focused": True}
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": 1,
            "options": self._nest(nesting, leaf_options),
        }
        if guild_scoped:
            data["guild_id"] = str(channel.guild_id)
        handle = await self._inject(INTERACTION_AUTOCOMPLETE, user, channel, data)
        await handle.response()
        return handle.record.autocomplete_choices or []

    async def click(
        self, user: EmuUser, message: StoredMessage, custom_id: str
    ) -> InteractionHandle:
        """Click the button ``custom_id`` on ``message`` as ``user``."""
        component = self._component(message, custom_id, (2,))
        if component.get("disabled"):
            raise AssertionError(f"button {custom_id!r} is disabled; a user could not click it")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._inject(
            INTERACTION_COMPONENT, user, self.channels[message.channel_id], data, message
        )

    async def select(
        self, user: EmuUser, message: StoredMessage, custom_id: str, values: list[str]
    ) -> InteractionHandle:
        """Pick ``values`` in the string select ``custom_id`` on ``message`` as ``user``."""
        component = self._component(message, custom_id, (3,))
        allowed = {o["value"] for o in component.get("options", [])}
        if not set(values) <= allowed:
            raise AssertionError(f"values {values} not among select options {sorted(allowed)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._inject(
            INTERACTION_COMPONENT, user, self.channels[message.channel_id], data, message
        )

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a raw DISPATCH to every identified gateway session of the event's shard (as
        Discord does: a server's events go to the shard ``(guild_id >> 22) % count``, direct
        messages to shard 0)."""
        self.gateway_events.append((event, data))
        guild = data.get("guild_id") if isinstance(data, dict) else None
        await self._gateway_latency()
        live = [c for c in self._connections if c.identified and c.serves(guild)]
        waiting = [c for c in self._detached.values() if c.serves(guild)]
        for conn in waiting:  # replayed when it resumes
            conn.record(data, event)
        if not live and not waiting:
            if self.chaos is None:
                raise AssertionError(f"no identified gateway session to dispatch {event} to")
            self.undelivered.append((event, data))
        for conn in live:
            await conn.send(OP_DISPATCH, data, event)

    async def _gateway_latency(self) -> None:
        delay = self.chaos.gateway_delay() if self.chaos is not None else 0.0
        if delay:
            await asyncio.sleep(delay)

    # ------------------------------------------------------------------ gateway faults

    async def gateway_fault(self, fault: GatewayFault) -> int:
        """Do to every live gateway connection what Discord sometimes does; how many."""
        conns = [c for c in self._connections if c.identified]
        for conn in conns:
            if self.chaos is not None:
                self.chaos.injected[f"gateway {fault.value}"] += 1
            if fault is GatewayFault.DROP:
                transport = conn.transport
                if transport is not None:
                    transport.abort()
            elif fault in (GatewayFault.INVALID_RESUMABLE, GatewayFault.INVALID):
                conn.resumable = fault is GatewayFault.INVALID_RESUMABLE
                await conn.send(OP_INVALID_SESSION, conn.resumable)
            else:
                conn.resumable = fault is not GatewayFault.CLOSE_4009
                await conn.ws.close(code=int(fault.value.removeprefix("close ")))
        return len(conns)

    def _component(
        self, message: StoredMessage, custom_id: str, types: tuple[int, ...]
    ) -> dict[str, Any]:
        current = self.get_message(message.channel_id, message.id)  # use the latest edit
        for component in walk_components(current.components):
            if component.get("custom_id") == custom_id and component.get("type") in types:
                return component
        raise AssertionError(
            f"no component {custom_id!r} on message {message.id}; has {current.custom_ids()}"
        )

    def _find_command(self, name: str, channel: EmuChannel) -> tuple[dict[str, Any] | None, bool]:
        if channel.guild_id is not None:
            for cmd in self.guild_commands.get(channel.guild_id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, True
        for cmd in self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, False
        return None, False

    @staticmethod
    def _walk(
        root: dict[str, Any], parts: list[str], *, strict: bool
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        nesting: list[dict[str, Any]] = []
        node = root
        for part in parts:
            found = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == part and o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)
                ),
                None,
            )
            if found is None:
                if strict:
                    raise AssertionError(f"/{root['name']} has no subcommand path {parts}")
                found = {
                    "name": part,
                    "type": SUBCOMMAND_GROUP if part != parts[-1] else SUBCOMMAND,
                    "options": [],
                }
            nesting.append(found)
            node = found
        return nesting, node

    def _build_options(
        self, leaf: dict[str, Any], options: dict[str, Any], channel: EmuChannel
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in leaf.get("options") or []}
        built: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            opt_type = declared[name]["type"] if name in declared else _infer_type(value)
            if isinstance(value, EmuUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if channel.guild_id is not None:
                    member = self.guilds[channel.guild_id].member_payload(
                        value, with_permissions=True
                    )
                    member.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            built.append({"name": name, "type": opt_type, "value": value})
        return built, resolved

    @staticmethod
    def _nest(
        nesting: list[dict[str, Any]], leaf_options: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        options = leaf_options
        for node in reversed(nesting):
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        return options

    async def _inject(
        self,
        kind: int,
        user: EmuUser,
        channel: EmuChannel,
        data: dict[str, Any],
        message: StoredMessage | None = None,
    ) -> InteractionHandle:
        if self.step_check is not None:
            await self.step_check.check()  # what the last step left, before the next
        record = InteractionRecord(
            id=self.snowflake(),
            token=f"itk-{secrets.token_urlsafe(24)}",
            type=kind,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            data=data,
            source_message_id=message.id if message else None,
        )
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(self.users),
            "token": record.token,
            "version": 1,
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            if user.id not in guild.member_ids:
                raise AssertionError(f"{user.name} is not a member of guild {guild.name}")
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                member=guild.member_payload(user, with_permissions=True),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(), authorizing_integration_owners={"1": str(user.id)}, context=1
            )
        if message is not None:
            payload["message"] = self.get_message(message.channel_id, message.id).payload(
                self.users
            )
        await self.dispatch("INTERACTION_CREATE", payload)
        return InteractionHandle(self, record)

    # ------------------------------------------------------------------ HTTP plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        needs_auth = path.startswith(API_PREFIX) and not path.startswith(
            (f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/", f"{API_PREFIX}/gateway")
        )
        chaos = self.chaos
        if chaos is not None:
            delay = chaos.rest_delay()
            if delay:
                await asyncio.sleep(delay)
        started = time.monotonic()
        if chaos is not None and path.startswith(API_PREFIX):
            rule = chaos.pick(request.method, path[len(API_PREFIX) :], bot_token=needs_auth)
            if rule is not None:
                return await self._misbehave(request, handler, rule, started)
        over = self._over_global(started) if needs_auth else None
        if over is not None:
            return self._too_many(request, path, over, started, scope="global")
        # Discord limits each route of a bot token and each webhook's (an interaction token's
        # follow-ups and their edits) apart; the callback has no route limit of its own here.
        routed = needs_auth or path.startswith(f"{API_PREFIX}/webhooks/")
        limited = self.rate_limit(request.method, path) if routed and self.rate_limit else None
        if limited is not None:
            return self._too_many(request, path, limited, started)
        try:
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise EmulatorHTTPError(401, 0, "401: Unauthorized")
            if needs_auth and self._injected(request.method, path[len(API_PREFIX) :]):
                raise EmulatorHTTPError(400, 0, "emulated failure (fail_requests)")
            hooked = needs_auth or (
                self.hook_webhooks
                and path.startswith((f"{API_PREFIX}/webhooks/", f"{API_PREFIX}/interactions/"))
            )
            hook = self.request_hook if hooked else None
            if hook is not None:
                hook("before", request.method, path[len(API_PREFIX) :])
            response = await handler(request)
            if hook is not None:
                hook("after", request.method, path[len(API_PREFIX) :])
        except EmulatorHTTPError as exc:
            response = _json_response({"message": exc.message, "code": exc.code}, exc.status)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the client went away mid-request (a bot killed)
            return web.Response(status=400)
        except Exception:
            # 400, not 500: discord.py retries 5xx with multi-second sleeps.
            self.errors.append(f"{request.method} {path}\n{traceback.format_exc()}")
            log.exception("emulator handler crashed on %s %s", request.method, path)
            response = _json_response(
                {"message": "emulator handler crashed (see emulator.errors)", "code": 0}, 400
            )
        if path.startswith(API_PREFIX):
            self.requests.append(
                RequestRecord(
                    request.method,
                    path[len(API_PREFIX) :],
                    response.status,
                    json=self._payloads.pop(id(request), None),
                    started=started,
                    finished=time.monotonic(),
                )
            )
        return response

    async def _misbehave(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
        rule: Rule,
        started: float,
    ) -> web.StreamResponse:
        """Answer a call as the chaos ``rule`` says: carried out first if it says so (its own
        answer thrown away), then a 5xx, a 429, an expired token, or no answer at all."""
        path, fault = request.path, rule.fault
        if fault is Fault.ROUTE_429:
            return self._too_many(request, path, rule.retry_after, started)
        if fault is Fault.GLOBAL_429:
            return self._too_many(request, path, rule.retry_after, started, scope="global")
        carried_out = False
        if rule.carried_out:
            with contextlib.suppress(Exception):
                carried_out = (await handler(request)).status < 300
        status = fault.status or 401
        self.requests.append(
            RequestRecord(
                request.method,
                path[len(API_PREFIX) :],
                status,
                started=started,
                finished=time.monotonic(),
                fault=f"{fault.value} carried out" if carried_out else fault.value,
            )
        )
        if fault is Fault.TIMEOUT:
            await asyncio.sleep(rule.hang)
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError  # the connection is gone: nothing to answer on
        if fault is Fault.TOKEN_EXPIRED:
            return _json_response({"message": "Invalid Webhook Token", "code": 50027}, 401)
        body = {"message": f"{status}: emulated server error", "code": 0}
        return _json_response(body, status)

    def _over_global(self, now: float) -> float | None:
        """Seconds until the global bucket has room (None: it has, and this request takes it).
        A sliding window: no second ever holds more than ``global_limit`` requests let
        through, which is what a test can check from :attr:`requests`."""
        if self.global_limit is None:
            return None
        window = self._global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.global_limit:
            return max(window[0] + 1.0 - now, 0.001)
        window.append(now)
        return None

    def _too_many(
        self,
        request: web.Request,
        path: str,
        retry_after: float,
        started: float,
        *,
        scope: str = "route",
    ) -> web.Response:
        """Discord's 429: JSON ``retry_after`` (and ``global``) plus the ``Retry-After`` header,
        and ``X-RateLimit-Global`` / ``X-RateLimit-Scope`` on the global bucket's; nothing
        applied."""
        self.requests.append(
            RequestRecord(
                request.method,
                path[len(API_PREFIX) :],
                429,
                started=started,
                finished=started,
                limited=scope,
            )
        )
        over_global = scope == "global"
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": over_global,
        }
        headers = {
            "Content-Type": "application/json",
            "Retry-After": f"{retry_after:.3f}",
            # discord.py treats a 429 without ``Via`` as a Cloudflare ban, as Discord's does not.
            "Via": "1.1 google",
        }
        if over_global:
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

    def _add_routes(self, app: web.Application) -> None:
        p = API_PREFIX
        routes: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
            ("GET", "/ws/", self._gateway),
            ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment),
            ("GET", f"{p}/gateway", self._get_gateway),
            ("GET", f"{p}/gateway/bot", self._get_gateway),
            ("GET", f"{p}/users/@me", self._get_me),
            ("GET", f"{p}/users/{{user_id}}", self._get_user),
            ("POST", f"{p}/users/@me/channels", self._open_dm),
            ("GET", f"{p}/oauth2/applications/@me", self._get_application),
            ("GET", f"{p}/applications/@me", self._get_application),
            ("GET", f"{p}/applications/{{app_id}}/commands", self._get_commands),
            ("PUT", f"{p}/applications/{{app_id}}/commands", self._put_commands),
            ("POST", f"{p}/applications/{{app_id}}/commands", self._post_command),
            (
                "GET",
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands",
                self._get_commands,
            ),
            (
                "PUT",
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands",
                self._put_commands,
            ),
            (
                "POST",
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands",
                self._post_command,
            ),
            ("POST", f"{p}/interactions/{{interaction_id}}/{{token}}/callback", self._callback),
            ("POST", f"{p}/webhooks/{{app_id}}/{{token}}", self._followup),
            (
                "GET",
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self._webhook_message,
            ),
            (
                "PATCH",
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self._webhook_message,
            ),
            (
                "DELETE",
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self._webhook_message,
            ),
            ("GET", f"{p}/channels/{{channel_id}}", self._get_channel),
            ("PATCH", f"{p}/channels/{{channel_id}}", self._edit_channel),
            (
                "POST",
                f"{p}/channels/{{channel_id}}/messages/{{message_id}}/threads",
                self._open_thread,
            ),
            ("GET", f"{p}/channels/{{channel_id}}/messages", self._list_messages),
            ("POST", f"{p}/channels/{{channel_id}}/messages", self._post_message),
            ("GET", f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._channel_message),
            (
                "PATCH",
                f"{p}/channels/{{channel_id}}/messages/{{message_id}}",
                self._channel_message,
            ),
            (
                "DELETE",
                f"{p}/channels/{{channel_id}}/messages/{{message_id}}",
                self._channel_message,
            ),
            ("POST", f"{p}/channels/{{channel_id}}/typing", self._no_content),
            ("GET", f"{p}/guilds/{{guild_id}}", self._get_guild),
            ("GET", f"{p}/guilds/{{guild_id}}/channels", self._get_guild_channels),
            ("GET", f"{p}/guilds/{{guild_id}}/members/{{user_id}}", self._get_member),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        log.warning("discord emulator: no route for %s", route)
        return _json_response(
            {"message": f"404: Not Found (emulator has no route for {route})", "code": 0}, 404
        )

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
        # The raw header, not ``request.content_type``/``request.post()``: aiohttp parses those
        # with the email package, which cost the load benchmark more CPU than the bot's own
        # handling of a move.
        if request.headers.get(hdrs.CONTENT_TYPE, "").startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: list[UploadedFile] = []
            reader = await request.multipart()
            async for part in reader:
                assert isinstance(part, BodyPartReader), "Discord sends no nested multipart"
                key, data = part.name or "", await part.read()
                if key == "payload_json":
                    payload = json.loads(data)
                elif part.filename is not None:
                    index = (
                        int(key.removeprefix("files[").removesuffix("]"))
                        if key.startswith("files[")
                        else len(files)
                    )
                    kind = part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream")
                    files.append(UploadedFile(index, part.filename, kind, bytes(data)))
            self._keep(request, payload)
            return payload, files
        if request.can_read_body:
            body = await request.json()
            payload = body if isinstance(body, dict) else {"__list__": body}
            self._keep(request, payload)
            return payload, []
        return {}, []

    def _keep(self, request: web.Request, payload: dict[str, Any]) -> None:
        if self.keep_payloads:
            self._payloads[id(request)] = payload

    # ------------------------------------------------------------------ REST handlers

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": limit,
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json_response(self.bot_user.payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise EmulatorHTTPError(404, 10013, "Unknown User")
        return _json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = next((u for u in self.users.values() if not u.bot), self.bot_user)
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
            }
        )

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild_id = request.match_info.get("guild_id")
        cmds = (
            self.global_commands if guild_id is None else self.guild_commands.get(int(guild_id), [])
        )
        return _json_response(cmds)

    async def _put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite: all or nothing, as on Discord (one bad field refuses the whole list)."""
        raw = await request.json()
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        errors = command_limits.bulk_overwrite_errors(raw)
        if errors:
            return self._refuse_commands(guild_id, errors)
        stored = [self._stored_command(cmd, guild_id) for cmd in raw]
        self.sync_calls.append((guild_id, raw))
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self._notify()
        return _json_response(stored)

    async def _post_command(self, request: web.Request) -> web.Response:
        """Create one command, or overwrite the one of the same name and type (Discord's upsert)."""
        raw = await request.json()
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        errors = command_limits.command_errors(raw)
        if errors:
            return self._refuse_commands(guild_id, errors)
        stored = self._stored_command(raw, guild_id)
        scope = (
            self.global_commands
            if guild_id is None
            else self.guild_commands.setdefault(guild_id, [])
        )
        same = [c for c in scope if (c["name"], c["type"]) == (stored["name"], stored["type"])]
        for old in same:
            scope.remove(old)
        scope.append(stored)
        self._notify()
        return _json_response(stored, 200 if same else 201)

    def _refuse_commands(self, guild_id: int | None, errors: dict[str, Any]) -> web.Response:
        self.refused_commands.append((guild_id, errors))
        log.warning("discord emulator: refused commands: %s", command_limits.flatten(errors))
        return _json_response(command_limits.invalid_form_body(errors), 400)

    def _stored_command(self, raw: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        """A command as Discord stores and returns it: with its ids, version and defaults."""
        cmd = dict(raw)
        cmd.setdefault("type", 1)
        cmd.update(
            id=str(self.snowflake()),
            application_id=str(self.application_id),
            version=str(self.snowflake()),
        )
        cmd.setdefault("description", "")
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        return cmd

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise EmulatorHTTPError(400, 50033, "Invalid Recipient(s)")
        return _json_response(self.dm_channel(user).payload(self.users))

    def _channel(self, request: web.Request) -> EmuChannel:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise EmulatorHTTPError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json_response(self._channel(request).payload(self.users))

    async def _edit_channel(self, request: web.Request) -> web.Response:
        """PATCH a channel: a thread's name and archived flag (what the bot changes)."""
        channel = self._channel(request)
        body = await request.json()
        if "name" in body:
            channel.name = str(body["name"])
        if channel.is_thread and "archived" in body:
            channel.archived = bool(body["archived"])
        self._notify()
        payload = channel.payload(self.users)
        if channel.is_thread:
            await self._dispatch_thread("THREAD_UPDATE", payload)
        return _json_response(payload)

    async def _open_thread(self, request: web.Request) -> web.Response:
        """A public thread opened from a message: it has the message's id, as on Discord, so a
        second try is refused with 160004."""
        channel = self._channel(request)
        try:
            message = self.get_message(channel.id, int(request.match_info["message_id"]))
        except KeyError:
            raise EmulatorHTTPError(404, 10008, "Unknown Message") from None
        if channel.id in self.threads_forbidden:
            raise EmulatorHTTPError(403, 50013, "Missing Permissions")
        if channel.is_thread or channel.is_dm:
            raise EmulatorHTTPError(400, 50024, "Cannot execute action on this channel type")
        if message.id in self.channels or message.id in self.deleted_channels:
            raise EmulatorHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        body = await request.json()
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise EmulatorHTTPError(400, 50035, "Invalid Form Body (name: 1 to 100 characters)")
        duration = int(body.get("auto_archive_duration") or 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise EmulatorHTTPError(400, 50035, "Invalid Form Body (auto_archive_duration)")
        thread = EmuChannel(
            message.id,
            PUBLIC_THREAD,
            name=name,
            guild_id=channel.guild_id,
            parent_id=channel.id,
            auto_archive_duration=duration,
        )
        self.channels[thread.id] = thread
        self.messages[thread.id] = []
        self._notify()
        payload = thread.payload(self.users)
        await self._dispatch_thread("THREAD_CREATE", payload | {"newly_created": True})
        return _json_response(payload, 201)

    async def _dispatch_thread(self, event: str, payload: dict[str, Any]) -> None:
        """THREAD_* events go to every session of the thread's server (the GUILDS intent)."""
        self.gateway_events.append((event, payload))
        for conn in self._connections:
            if conn.identified and conn.serves(payload.get("guild_id")):
                await conn.send(OP_DISPATCH, payload, event)

    def _writable(self, channel: EmuChannel) -> None:
        """Discord refuses edits and deletions in an archived thread until it is unarchived."""
        if channel.archived:
            raise EmulatorHTTPError(400, 50083, "Thread is archived")

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", "50"))
        visible = [m for m in self.channel_messages(channel) if not m.ephemeral]
        return _json_response([m.payload(self.users) for m in reversed(visible)][:limit])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm and channel.recipient_id in self.dm_forbidden:
            raise EmulatorHTTPError(403, 50007, "Cannot send messages to this user")
        payload, files = await self._read_body(request)
        channel.archived = False  # as on Discord, a new message unarchives a thread
        payload["flags"] = (
            int(payload.get("flags") or 0) & ~FLAG_EPHEMERAL
        )  # only interactions can be ephemeral
        earlier = self._same_nonce(channel, payload)
        if earlier is not None:
            return _json_response(earlier.payload(self.users))
        message = await self._create_message(channel, payload, files)
        return _json_response(message.payload(self.users))

    def _same_nonce(self, channel: EmuChannel, payload: dict[str, Any]) -> StoredMessage | None:
        """Discord's ``enforce_nonce``: a second send with the nonce of a message the bot sent
        recently returns that message instead of creating another."""
        nonce = payload.get("nonce")
        if not nonce or not payload.get("enforce_nonce"):
            return None
        for message in self.channel_messages(channel):
            if message.nonce == str(nonce) and message.author_id == self.bot_user.id:
                return message
        return None

    async def _channel_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        try:
            message = self.get_message(channel.id, int(request.match_info["message_id"]))
        except KeyError:
            raise EmulatorHTTPError(404, 10008, "Unknown Message") from None
        if message.deleted or message.ephemeral:
            raise EmulatorHTTPError(404, 10008, "Unknown Message")
        if request.method != "GET":
            self._writable(channel)
        return await self._message_verb(request, message, bot_author_only=True)

    async def _message_verb(
        self, request: web.Request, message: StoredMessage, *, bot_author_only: bool
    ) -> web.Response:
        if request.method == "GET":
            return _json_response(message.payload(self.users))
        if request.method == "DELETE":
            if message.ephemeral:
                message.deleted = True
                self._notify()
            else:
                await self.delete_message(message)
            return web.Response(status=204)
        if bot_author_only and message.author_id != self.bot_user.id:
            raise EmulatorHTTPError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        await self._edit_message(message, payload, files)
        return _json_response(message.payload(self.users))

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json_response(self._guild_payload(guild, full=False))

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json_response([self.channels[c].payload(self.users) for c in guild.channel_ids])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user_id = int(request.match_info["user_id"])
        if user_id not in guild.member_ids:
            raise EmulatorHTTPError(404, 10007, "Unknown Member")
        return _json_response(guild.member_payload(self.users[user_id]))

    def _guild(self, request: web.Request) -> EmuGuild:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise EmulatorHTTPError(404, 10004, "Unknown Guild")
        return guild

    async def _get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.messages.get(int(request.match_info["channel_id"]), []):
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise EmulatorHTTPError(404, 0, "Unknown attachment")

    # ------------------------------------------------------------------ interaction responses

    def _record(self, request: web.Request) -> InteractionRecord:
        record = self._by_token.get(request.match_info["token"])
        if record is None:
            raise EmulatorHTTPError(
                404,
                10062 if "interaction_id" in request.match_info else 10015,
                "Unknown interaction",
            )
        return record

    async def _callback(self, request: web.Request) -> web.Response:
        record = self._record(request)
        if int(request.match_info["interaction_id"]) != record.id:
            raise EmulatorHTTPError(404, 10062, "Unknown interaction")
        if record.response_type is not None:
            raise EmulatorHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline is not None and snowflake_age(record.id) > self.ack_deadline:
            raise EmulatorHTTPError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        kind = int(body["type"])
        data: dict[str, Any] = body.get("data") or {}
        channel = self._interaction_channel(record)
        resource: dict[str, Any] = {"type": kind}
        if kind in (CB_MESSAGE, CB_DEFERRED):
            flags = int(data.get("flags") or 0)
            if kind == CB_DEFERRED:
                data = {"content": "", "flags": (flags & FLAG_EPHEMERAL) | FLAG_LOADING}
            message = await self._create_message(
                channel,
                data,
                files,
                interaction=record,
                msg_type=20 if record.type == INTERACTION_APP_COMMAND else 0,
            )
            record.response_message_id = message.id
            resource["message"] = message.payload(self.users)
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE):
            if record.source_message_id is None:
                raise EmulatorHTTPError(400, 40004, "Update callbacks need a component interaction")
            record.response_message_id = record.source_message_id
            if kind == CB_UPDATE:
                message = self.get_message(record.channel_id, record.source_message_id)
                await self._edit_message(message, data, files)
                resource["message"] = message.payload(self.users)
        elif kind == CB_AUTOCOMPLETE:
            record.autocomplete_choices = list(data.get("choices", []))
        elif kind == CB_MODAL:
            record.modal = data
        else:
            raise EmulatorHTTPError(400, 50035, f"Unsupported interaction callback type {kind}")
        record.response_type = kind
        record.responded.set()
        self._notify()
        original = (
            self.get_message(record.channel_id, record.response_message_id)
            if record.response_message_id
            else None
        )
        interaction_info: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": kind == CB_DEFERRED,
            "response_message_ephemeral": bool(original and original.ephemeral),
        }
        if original is not None:
            interaction_info["response_message_id"] = str(original.id)
        return _json_response({"interaction": interaction_info, "resource": resource})

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        """The interaction whose token a webhook call uses, if Discord still accepts it."""
        record = self._record(request)
        if snowflake_age(record.id) > self.token_life:
            raise EmulatorHTTPError(401, 50027, "Invalid Webhook Token")
        return record

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        if record.response_type is None:
            raise EmulatorHTTPError(
                404, 10015, "Unknown Webhook (interaction not acknowledged yet)"
            )
        payload, files = await self._read_body(request)
        channel = self._interaction_channel(record)
        channel.archived = False  # a new message unarchives a thread
        original = (
            self.get_message(record.channel_id, record.response_message_id)
            if record.response_type == CB_DEFERRED and record.response_message_id
            else None
        )
        if original is not None and original.loading:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message
            # (and inherits its ephemerality).
            payload["flags"] = original.flags & FLAG_EPHEMERAL
            await self._edit_message(original, payload, files)
            original.pinged = pinged_by(original.content, payload)  # its first words
            message = original
        else:
            message = await self._create_message(channel, payload, files, interaction=record)
        record.followup_ids.append(message.id)
        record.followed.set()
        record.followed = asyncio.Event()
        self._notify()
        return _json_response(message.payload(self.users))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        """An interaction token reaches only its own messages: its original response and its
        follow-ups (another interaction's message is unknown to it)."""
        record = self._webhook_record(request)
        raw_id = request.match_info["message_id"]
        message_id = record.response_message_id if raw_id == "@original" else int(raw_id)
        own = {record.response_message_id, *record.followup_ids}
        if message_id is None or message_id not in own:
            raise EmulatorHTTPError(404, 10008, "Unknown Message")
        try:
            message = self.get_message(record.channel_id, message_id)
        except KeyError:
            raise EmulatorHTTPError(404, 10008, "Unknown Message") from None
        if message.deleted:
            raise EmulatorHTTPError(404, 10008, "Unknown Message")
        if request.method != "GET":
            self._writable(self._interaction_channel(record))
        return await self._message_verb(request, message, bot_author_only=False)

    def _interaction_channel(self, record: InteractionRecord) -> EmuChannel:
        channel = self.channels.get(record.channel_id)
        if channel is None:
            raise EmulatorHTTPError(404, 10003, "Unknown Channel")
        return channel

    # ------------------------------------------------------------------ message model

    async def _create_message(
        self,
        channel: EmuChannel,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: InteractionRecord | None = None,
        msg_type: int = 0,
    ) -> StoredMessage:
        message = StoredMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.bot_user.id,
            type=msg_type,
            webhook_id=self.application_id if interaction else None,
            interaction_id=interaction.id if interaction else None,
            interaction_user_id=interaction.user_id if interaction else None,
            interaction_type=interaction.type if interaction else None,
        )
        self._apply(message, payload, files)
        message.pinged = pinged_by(message.content, payload)
        message.nonce = None if payload.get("nonce") is None else str(payload["nonce"])
        message.shown.append((time.monotonic(), message.content))
        if message.ephemeral and interaction is None:
            message.flags &= ~FLAG_EPHEMERAL
        self.messages.setdefault(channel.id, []).append(message)
        self._notify()
        if not message.ephemeral:
            await self._dispatch_quiet("MESSAGE_CREATE", message.payload(self.users))
        return message

    async def _edit_message(
        self, message: StoredMessage, payload: dict[str, Any], files: list[UploadedFile]
    ) -> None:
        self._apply(message, payload, files, editing=True)
        message.flags &= ~FLAG_LOADING
        message.edited_timestamp = now_iso()
        message.edit_count += 1
        message.shown.append((time.monotonic(), message.content))
        message.edited.set()
        message.edited = asyncio.Event()
        self._notify()
        if not message.ephemeral:
            await self._dispatch_quiet("MESSAGE_UPDATE", message.payload(self.users))

    def _apply(
        self,
        message: StoredMessage,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        editing: bool = False,
    ) -> None:
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        elif payload.get("embed"):
            message.embeds = [payload["embed"]]
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = (
                message.flags & FLAG_EPHEMERAL if editing else 0
            )  # ephemerality is fixed at creation
            message.flags = (
                int(payload["flags"]) & ~FLAG_EPHEMERAL if editing else int(payload["flags"])
            ) | keep
        by_index = {f.index: f for f in files}
        if "attachments" in payload or files:
            existing = {a.id: a for a in message.attachments}
            kept: list[StoredAttachment] = []
            entries = payload.get("attachments")
            if entries is None:
                entries = [{"id": f.index} for f in files]
                kept = list(message.attachments) if editing else []
            for entry in entries:
                raw_id = int(entry["id"])
                if raw_id in by_index:
                    upload = by_index[raw_id]
                    attachment_id = self.snowflake()
                    filename = entry.get("filename") or upload.filename
                    kept.append(
                        StoredAttachment(
                            id=attachment_id,
                            filename=filename,
                            content_type=upload.content_type,
                            data=upload.data,
                            url=f"{self.http_base}/attachments/{message.channel_id}/{attachment_id}/{filename}",
                            description=entry.get("description"),
                        )
                    )
                elif raw_id in existing:
                    kept.append(existing[raw_id])
            message.attachments = kept

    async def _dispatch_quiet(self, event: str, data: dict[str, Any]) -> None:
        """Mirror Discord's own MESSAGE_* gateway echoes to the sessions whose intents ask for
        them (GUILD_MESSAGES for a server's channels, DIRECT_MESSAGES for DMs)."""
        if not self.dispatch_message_events:
            return
        wanted = INTENT_GUILD_MESSAGES if data.get("guild_id") else INTENT_DIRECT_MESSAGES
        if self.chaos is not None and self.chaos.gateway.fixed + self.chaos.gateway.jitter:
            task = asyncio.create_task(self._echo_later(event, data, wanted))
            self._echoes.add(task)
            task.add_done_callback(self._echoes.discard)
            return
        await self._echo(event, data, wanted)

    async def _echo_later(self, event: str, data: dict[str, Any], wanted: int) -> None:
        await self._gateway_latency()
        await self._echo(event, data, wanted)

    async def _echo(self, event: str, data: dict[str, Any], wanted: int) -> None:
        for conn in self._connections:
            if conn.identified and conn.intents & wanted and conn.serves(data.get("guild_id")):
                self.gateway_events.append((event, data))
                await conn.send(OP_DISPATCH, data, event)

    # ------------------------------------------------------------------ gateway

    def _guild_payload(self, guild: EmuGuild, *, full: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "roles": guild.role_payloads(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
        }
        if full:
            data.update(
                unavailable=False,
                large=False,
                joined_at=now_iso(),
                member_count=len(guild.member_ids),
                members=[guild.member_payload(self.users[u]) for u in guild.member_ids],
                channels=[self.channels[c].payload(self.users) for c in guild.channel_ids],
                threads=[
                    c.payload(self.users)
                    for c in self.channels.values()
                    if c.is_thread and c.guild_id == guild.id and not c.archived
                ],
                voice_states=[],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return data

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json" or request.query.get("v") != "10":
            await ws.close(code=4012, message=b"emulator supports only v=10&encoding=json")
            return ws
        self.gateway_queries.append(dict(request.query))
        conn = _GatewayConnection(ws, request.query.get("compress"))
        conn.transport = request.transport
        self._connections.append(conn)
        try:
            await conn.send(OP_HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._on_gateway_message(conn, json.loads(msg.data))
        except Exception:
            self.errors.append(f"gateway\n{traceback.format_exc()}")
            log.exception("gateway handler crashed")
        finally:
            self._connections.remove(conn)
            if conn.identified and conn.resumable:
                self._detached[conn.session_id] = conn
            self._notify()
        return ws

    async def _resume(self, conn: _GatewayConnection, d: Any) -> None:
        """RESUME as Discord does it: a session still known gets the events it missed since
        its last sequence number, then RESUMED; any other is told to identify again
        (INVALID_SESSION, not resumable)."""
        old = self._detached.pop(str(d.get("session_id")), None) if isinstance(d, dict) else None
        if old is None or not _resume_payload_ok(d, self.token):
            await conn.send(OP_INVALID_SESSION, False)
            return
        conn.resume_from(old)
        seen = int(d.get("seq") or 0)
        for seq, event, data in list(conn.backlog):
            if seq > seen:
                await conn.send(OP_DISPATCH, data, event, seq=seq)
        await conn.send(OP_DISPATCH, {}, "RESUMED")
        self.resumes += 1
        self._notify()

    async def _on_gateway_message(self, conn: _GatewayConnection, msg: dict[str, Any]) -> None:
        op: Any = msg.get("op")
        d: Any = msg.get("d")
        if op == OP_HEARTBEAT:
            await conn.send(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            if d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            self.identify_payloads.append(d)
            conn.identified = True
            self._detached.pop(conn.session_id, None)
            conn.intents = int(d.get("intents") or 0)
            if "shard" in d:
                conn.shard = (int(d["shard"][0]), int(d["shard"][1]))
            guilds = [g for g in self.guilds.values() if conn.serves(g.id)]
            ready = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": conn.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
            }
            if "shard" in d:
                ready["shard"] = d["shard"]
            await conn.send(OP_DISPATCH, ready, "READY")
            for guild in guilds:
                await conn.send(OP_DISPATCH, self._guild_payload(guild), "GUILD_CREATE")
            self._notify()
        elif op == OP_RESUME:
            await self._resume(conn, d)
        elif op == OP_REQUEST_MEMBERS:
            requested = self.guilds.get(int(d["guild_id"]))
            members = (
                [requested.member_payload(self.users[u]) for u in requested.member_ids]
                if requested
                else []
            )
            chunk = {
                "guild_id": d["guild_id"],
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": d.get("nonce"),
            }
            await conn.send(OP_DISPATCH, chunk, "GUILD_MEMBERS_CHUNK")
        else:
            log.debug("gateway: ignoring op %s", op)


def pinged_by(content: str, payload: dict[str, Any]) -> list[int]:
    """The users a new message notifies, as Discord decides: those mentioned in its content
    that its ``allowed_mentions`` lets through (all of them when it has none). An edit
    notifies no one."""
    mentioned = [int(found) for found in USER_MENTION.findall(content)]
    allowed = payload.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or ()):
        return mentioned
    listed = {int(user) for user in allowed.get("users") or ()}
    return [user for user in mentioned if user in listed]


def _resume_payload_ok(d: Any, token: str) -> bool:
    return isinstance(d, dict) and d.get("token") == token and bool(d.get("session_id"))


def _infer_type(value: Any) -> int:
    """Option type for values given to an unsynced command (bool before int: bool is an int)."""
    if isinstance(value, EmuUser):
        return USER_OPTION
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3
