"""In-memory model of the slice of Discord the emulator serves.

The emulator keeps its own, deliberately small, source of truth (users, guilds,
channels, messages with raw attachment bytes, interactions) so that tests can
assert on what *Discord* saw -- not on what discord.py cached -- e.g. "this
user's DM received a PNG" or "no public message contains the hand".

Payload builders live here too, so the REST handlers and the gateway emit the
exact same JSON shapes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

#: Discord's epoch (2015-01-01) in ms, so generated ids are valid snowflakes.
DISCORD_EPOCH_MS = 1_420_070_400_000
#: Every permission bit discord.py knows about; the emulator does not model permissions.
ALL_PERMISSIONS = str((1 << 53) - 1)
#: Message flags used by the model.
FLAG_EPHEMERAL = 64
FLAG_LOADING = 128

# Channel types (subset).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11


def snowflake_age(snowflake: int) -> float:
    """Seconds since the snowflake was made (its first 42 bits are milliseconds)."""
    made = ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000
    return datetime.now(UTC).timestamp() - made


class SnowflakeFactory:
    """Monotonic snowflake generator: unique, ordered, and parseable by discord.py. As on
    Discord, an id carries the time it was made (the bot reads an interaction's age from it)."""

    def __init__(self) -> None:
        self._last = 0

    @staticmethod
    def _now() -> int:
        return int(datetime.now(UTC).timestamp() * 1000) - DISCORD_EPOCH_MS

    def __call__(self) -> int:
        self._last = max(self._last + 1, self._now() << 22)
        return self._last

    def on_shard(self, shard: int, count: int) -> int:
        """A new id that Discord's formula ``(id >> 22) % count`` puts on ``shard``: the
        timestamp part moved forward by less than ``count`` milliseconds."""
        stamp = max(self._now(), (self._last >> 22) + 1)
        stamp += (shard - stamp) % count
        self._last = stamp << 22
        return self._last


def now_iso() -> str:
    """ISO-8601 timestamp as Discord sends it."""
    return datetime.now(UTC).isoformat()


@dataclass
class EmuUser:
    """A Discord user (human or bot)."""

    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class EmuChannel:
    """A guild text channel or a DM channel."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient_id: int | None = None  # DMs only: the non-bot side
    position: int = 0
    #: Threads only: the channel it was opened in, whether Discord archived it (edits then
    #: answer 400 / 50083 until it is unarchived), and its archive time in minutes.
    parent_id: int | None = None
    archived: bool = False
    auto_archive_duration: int = 1440

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self, users: dict[int, EmuUser]) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient_id is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [users[self.recipient_id].payload()],
            }
        if self.is_thread:
            return self.thread_payload(users)
        return {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }


    def thread_payload(self, users: dict[int, EmuUser]) -> dict[str, Any]:
        """A public thread as Discord sends it (owned by the bot, which opens them)."""
        owner = next((u for u in users.values() if u.bot), None)
        return {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(owner.id) if owner else None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": now_iso(),
                "locked": False,
            },
        }


@dataclass
class EmuGuild:
    """A guild with its channels and members (user ids)."""

    id: int
    name: str
    owner_id: int
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)

    def role_payloads(self) -> list[dict[str, Any]]:
        # Only @everyone (id == guild id), with every permission so the bot never
        # trips over its own permission checks; the emulator is not a permission model.
        return [
            {
                "id": str(self.id),
                "name": "@everyone",
                "color": 0,
                "hoist": False,
                "position": 0,
                "permissions": ALL_PERMISSIONS,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ]

    def member_payload(self, user: EmuUser, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": [],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }
        if with_permissions:
            data["permissions"] = ALL_PERMISSIONS
        return data


@dataclass
class StoredAttachment:
    """An uploaded file, with its raw bytes so tests can check e.g. a PNG signature."""

    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "description": self.description,
            "content_type": self.content_type,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }


@dataclass
class StoredMessage:
    """A message as Discord stores it (including ephemeral ones, flagged 64)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    edit_count: int = 0
    deleted: bool = False
    nonce: str | None = None
    #: (``time.monotonic()``, content) when posted and after each edit: what players saw when.
    shown: list[tuple[float, str]] = field(default_factory=list)
    #: The users its posting notified (mentioned and let through by ``allowed_mentions``).
    pinged: list[int] = field(default_factory=list)
    #: Set (and replaced) at each edit: waiting for one message's edit wakes only its waiters,
    #: not every waiter of a benchmark's hundreds of tables.
    edited: asyncio.Event = field(default_factory=asyncio.Event, repr=False, compare=False)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking") response has not been edited yet."""
        return bool(self.flags & FLAG_LOADING)

    def custom_ids(self, *, enabled_only: bool = False) -> list[str]:
        """Every custom_id in the message's components (buttons, selects); with
        ``enabled_only``, those a user could press."""
        return [
            c["custom_id"]
            for c in walk_components(self.components)
            if "custom_id" in c and not (enabled_only and c.get("disabled"))
        ]

    def text(self) -> str:
        """Content plus embed text, for "does anything public mention X" assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
            parts.append(str((embed.get("footer") or {}).get("text", "")))
        return "\n".join(p for p in parts if p)

    def payload(self, users: dict[int, EmuUser]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": users[self.author_id].payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user_id is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": users[self.interaction_user_id].payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass
class InteractionRecord:
    """One injected interaction and everything the bot answered to it.

    ``responded`` is set when the callback arrives; ``followup_ids`` grows with
    each webhook follow-up. Use :meth:`DiscordEmulator.wait_until` (or the helpers
    on :class:`~tests.discord_emulator.server.InteractionHandle`) to wait.
    """

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    source_message_id: int | None = None
    response_type: int | None = None
    response_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    autocomplete_choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    #: Set (and replaced) at each follow-up: waiting for one wakes only this interaction's
    #: waiters, not every waiter of a benchmark's hundreds of tables.
    followed: asyncio.Event = field(default_factory=asyncio.Event)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first walk over action rows / V2 containers."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory:
            yield from walk_components([accessory])
