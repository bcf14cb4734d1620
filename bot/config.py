"""Settings for the bot, read from the environment and an optional ``.env`` file.

Why a frozen dataclass built by one function: every part of the bot receives the
settings explicitly (no module-level globals), tests can build one with any
values, and all validation happens in one place with sentences a person who
just copied ``.env.example`` can act on.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.storage.base import Shards, is_postgres_url, masked_url
from bot.text import t

DEFAULT_DATABASE = "rummy.db"
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_NEXT_ROUND_DELAY_SECONDS = 30
DEFAULT_COMPUTER_DELAY_SECONDS = 1
DEFAULT_TURN_TIMER_MINUTES = 5
#: Bot-token REST calls per second, for the whole bot: Discord allows 50 (see bot/ui/pacer.py).
DEFAULT_REQUESTS_PER_SECOND = 45
#: The turn timers a table can have, in minutes (0 = off); the default must be one of them.
TURN_TIMER_CHOICES = (0, 1, 2, 5, 10, 30)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

ENV_TOKEN = "DISCORD_TOKEN"
ENV_DATABASE = "RUMMY_DATABASE"
ENV_DEV_GUILD = "RUMMY_DEV_GUILD_ID"
ENV_LOG_LEVEL = "RUMMY_LOG_LEVEL"
ENV_NEXT_ROUND_DELAY = "RUMMY_NEXT_ROUND_DELAY_SECONDS"
ENV_COMPUTER_DELAY = "RUMMY_COMPUTER_DELAY_SECONDS"
ENV_TURN_TIMER = "RUMMY_TURN_TIMER_MINUTES"
ENV_SHARD_COUNT = "RUMMY_SHARD_COUNT"
ENV_SHARDS = "RUMMY_SHARDS"
ENV_DRAWING_PROCESSES = "RUMMY_DRAWING_PROCESSES"
ENV_REQUESTS_PER_SECOND = "RUMMY_REQUESTS_PER_SECOND"

#: Every setting the bot reads, in the order they are documented.
SETTING_NAMES = (
    ENV_TOKEN,
    ENV_DATABASE,
    ENV_DEV_GUILD,
    ENV_LOG_LEVEL,
    ENV_NEXT_ROUND_DELAY,
    ENV_COMPUTER_DELAY,
    ENV_TURN_TIMER,
    ENV_SHARD_COUNT,
    ENV_SHARDS,
    ENV_DRAWING_PROCESSES,
    ENV_REQUESTS_PER_SECOND,
)

# A bot token is base64url(user id) "." base64url(timestamp) "." HMAC.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
_SNOWFLAKE_RE = re.compile(r"^[0-9]{15,21}$")
_SHARD_PART_RE = re.compile(r"^([0-9]{1,5})(?:-([0-9]{1,5}))?$")


class ConfigError(ValueError):
    """The settings cannot be used; ``problems`` holds one sentence per issue."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated bot settings. ``discord_token`` may be ``None``: the CLI decides."""

    discord_token: str | None = None
    #: The SQLite file (used when ``database_url`` is ``None``).
    database: Path = Path(DEFAULT_DATABASE)
    #: A ``postgresql://`` URL from ``RUMMY_DATABASE``: the bot then uses PostgreSQL.
    database_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    next_round_delay_seconds: int = DEFAULT_NEXT_ROUND_DELAY_SECONDS
    computer_delay_seconds: int = DEFAULT_COMPUTER_DELAY_SECONDS
    #: The turn timer of a new table when /rummy new does not choose one (0 = off).
    turn_timer_minutes: int = DEFAULT_TURN_TIMER_MINUTES
    #: The shards this process runs (``RUMMY_SHARD_COUNT``/``RUMMY_SHARDS``); None: unsharded.
    shards: Shards | None = None
    #: Processes that draw the pictures (``RUMMY_DRAWING_PROCESSES``, by default one per core
    #: but one); 0 draws in threads of the bot's own process.
    drawing_processes: int = field(default_factory=lambda: default_drawing_processes())
    #: Bot-token REST calls per second for the whole bot, every process together
    #: (``RUMMY_REQUESTS_PER_SECOND``); 0 leaves them unpaced, to discord.py's 429 handling.
    requests_per_second: int = DEFAULT_REQUESTS_PER_SECOND

    @property
    def process_requests_per_second(self) -> float:
        """This process's share of ``requests_per_second``: the limit is the token's, so
        processes sharing it divide it by the shards each runs (all of it when unsharded)."""
        if self.shards is None:
            return float(self.requests_per_second)
        return self.requests_per_second * len(self.shards.ids) / self.shards.count

    @property
    def database_target(self) -> str | Path:
        """What the store factory opens: the PostgreSQL URL if one is set, else the file."""
        return self.database if self.database_url is None else self.database_url

    def __repr__(self) -> str:
        # Never let the token reach a log line or a traceback.
        token = "None" if self.discord_token is None else repr(mask_token(self.discord_token))
        return (
            f"Settings(discord_token={token}, database={str(self.database)!r}, "
            f"database_url={None if self.database_url is None else masked_url(self.database_url)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"next_round_delay_seconds={self.next_round_delay_seconds!r}, "
            f"computer_delay_seconds={self.computer_delay_seconds!r}, "
            f"turn_timer_minutes={self.turn_timer_minutes!r}, shards={self.shards!r}, "
            f"drawing_processes={self.drawing_processes!r}, "
            f"requests_per_second={self.requests_per_second!r})"
        )


def load_settings(
    environ: Mapping[str, str] | None = None,
    env_file: Path | None = Path(".env"),
    *,
    cwd: Path | None = None,
) -> Settings:
    """Build :class:`Settings` from *environ* (default: ``os.environ``) and *env_file*.

    Real environment variables win over the file, so a deployment can override
    one value without editing ``.env``. A relative database path is resolved
    against *cwd* (default: the current directory) once, here, so later
    ``chdir`` calls cannot move the database.
    """
    base = cwd if cwd is not None else Path.cwd()
    merged: dict[str, str] = {}
    if env_file is not None:
        path = env_file if env_file.is_absolute() else base / env_file
        if path.is_file():
            merged.update({k: v for k, v in dotenv_values(path).items() if v is not None})
    merged.update(os.environ if environ is None else environ)
    return settings_from_mapping(merged, cwd=base)


def settings_from_mapping(values: Mapping[str, str], *, cwd: Path) -> Settings:
    """Validate raw strings into :class:`Settings`, collecting every problem at once."""
    problems: list[str] = []

    def text(name: str) -> str | None:
        raw = values.get(name)
        if raw is None:
            return None
        raw = raw.strip()
        return raw or None

    def non_negative_int(name: str, default: int) -> int:
        raw = text(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            problems.append(t("config.invalid_int", name=name, value=raw))
            return default
        if value < 0:
            problems.append(t("config.negative", name=name, value=value))
            return default
        return value

    token = text(ENV_TOKEN)

    db_raw = text(ENV_DATABASE) or DEFAULT_DATABASE
    database_url = db_raw if is_postgres_url(db_raw) else None
    database = Path(DEFAULT_DATABASE if database_url else db_raw).expanduser()
    if not database.is_absolute():
        database = cwd / database

    dev_guild_id: int | None = None
    guild_raw = text(ENV_DEV_GUILD)
    if guild_raw is not None:
        if _SNOWFLAKE_RE.match(guild_raw):
            dev_guild_id = int(guild_raw)
        else:
            problems.append(t("config.invalid_snowflake", name=ENV_DEV_GUILD, value=guild_raw))

    log_level = (text(ENV_LOG_LEVEL) or DEFAULT_LOG_LEVEL).upper()
    if log_level not in LOG_LEVELS:
        problems.append(
            t(
                "config.invalid_log_level",
                name=ENV_LOG_LEVEL,
                value=log_level,
                choices=", ".join(LOG_LEVELS),
            )
        )
        log_level = DEFAULT_LOG_LEVEL

    next_round = non_negative_int(ENV_NEXT_ROUND_DELAY, DEFAULT_NEXT_ROUND_DELAY_SECONDS)
    computer_delay = non_negative_int(ENV_COMPUTER_DELAY, DEFAULT_COMPUTER_DELAY_SECONDS)
    turn_timer = non_negative_int(ENV_TURN_TIMER, DEFAULT_TURN_TIMER_MINUTES)
    if turn_timer not in TURN_TIMER_CHOICES:
        problems.append(
            t(
                "config.invalid_turn_timer",
                name=ENV_TURN_TIMER,
                value=turn_timer,
                choices=", ".join(str(c) for c in TURN_TIMER_CHOICES),
            )
        )
        turn_timer = DEFAULT_TURN_TIMER_MINUTES

    shards = _shards(text(ENV_SHARD_COUNT), text(ENV_SHARDS), problems)
    drawing = non_negative_int(ENV_DRAWING_PROCESSES, default_drawing_processes())
    requests = non_negative_int(ENV_REQUESTS_PER_SECOND, DEFAULT_REQUESTS_PER_SECOND)

    if problems:
        raise ConfigError(problems)
    return Settings(
        discord_token=token,
        database=database,
        database_url=database_url,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        next_round_delay_seconds=next_round,
        computer_delay_seconds=computer_delay,
        turn_timer_minutes=turn_timer,
        shards=shards,
        drawing_processes=drawing,
        requests_per_second=requests,
    )


#: At most this many drawing processes by default, whatever the core count.
MAX_DRAWING_PROCESSES = 4


def default_drawing_processes(cores: int | None = None) -> int:
    """One core is left to the event loop and the others draw; a one-core machine draws in
    threads (a second process would only add memory). See :mod:`bot.render.drawing`."""
    cores = cores if cores is not None else (os.cpu_count() or 1)
    return 0 if cores < 2 else min(MAX_DRAWING_PROCESSES, cores - 1)


def _shards(count_raw: str | None, ids_raw: str | None, problems: list[str]) -> Shards | None:
    """``RUMMY_SHARD_COUNT`` (all processes) and ``RUMMY_SHARDS`` (this one's, e.g. ``0-3``).

    Without a count the bot is not sharded. A count alone runs every shard in this process.
    """
    if count_raw is None:
        if ids_raw is not None:
            problems.append(
                t("config.shards_without_count", name=ENV_SHARDS, count_name=ENV_SHARD_COUNT)
            )
        return None
    if not count_raw.isdigit() or int(count_raw) < 1:
        problems.append(t("config.invalid_shard_count", name=ENV_SHARD_COUNT, value=count_raw))
        return None
    count = int(count_raw)
    ids = parse_shard_ids(ids_raw) if ids_raw is not None else tuple(range(count))
    if ids is None:
        problems.append(t("config.invalid_shards", name=ENV_SHARDS, value=ids_raw))
        return None
    for shard in ids:
        if shard >= count:
            problems.append(
                t(
                    "config.shard_out_of_range",
                    name=ENV_SHARDS,
                    shard=shard,
                    count_name=ENV_SHARD_COUNT,
                    count=count,
                    last=count - 1,
                )
            )
            return None
    return Shards(count=count, ids=ids)


def parse_shard_ids(raw: str) -> tuple[int, ...] | None:
    """``"0-3"``, ``"0,2,5-7"`` → sorted shard ids; None when it does not read as a list."""
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        match = _SHARD_PART_RE.match(part)
        if match is None:
            return None
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first:
            return None
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def token_is_well_formed(token: str) -> bool:
    """Whether *token* has the shape of a Discord bot token (three base64url parts).

    This catches the common mistakes (pasting the client secret, the public key,
    or a token with quotes or spaces) without contacting Discord.
    """
    return bool(_TOKEN_RE.match(token)) and application_id_from_token(token) is not None


def application_id_from_token(token: str) -> int | None:
    """Decode the application (bot user) id from the first part of a token, if any.

    The first part is just the base64 of the bot's public id, so reading it is
    harmless and lets ``doctor`` print a ready-to-use invite link.
    """
    first = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if _SNOWFLAKE_RE.match(decoded) else None


def mask_token(token: str) -> str:
    """A form of *token* that is safe to print: a short prefix and the length."""
    if len(token) <= 8:
        return f"***({len(token)} characters)"
    return f"{token[:4]}…***({len(token)} characters)"
