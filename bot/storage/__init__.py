"""Persistence for tables, moves and settings behind a small, swappable interface.

Import from here (``from bot.storage import Store, open_store``) rather than the submodules.
:func:`make_store` is the one place that picks the store from ``RUMMY_DATABASE``: a
``postgresql://`` URL selects :class:`PostgresStore`, anything else is a SQLite file path.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.storage.base import (
    CLOSED_STATUSES,
    OPEN_STATUSES,
    TABLE_STATUSES,
    Clock,
    Deadline,
    DeadlineGone,
    LoadedTable,
    MessageRef,
    MoveRecord,
    NewTable,
    NotADatabase,
    PlayerPrefs,
    SchemaTooNew,
    SeatRecord,
    Shards,
    StaleVersion,
    StorageError,
    TableClosed,
    TableNotFound,
    TableRecord,
    TableStatus,
    driver_errors,
    is_postgres_url,
    masked_url,
    utc_now,
)
from bot.storage.migrations import LATEST_VERSION, MIGRATIONS, Migration
from bot.storage.sqlite import SqliteStore
from bot.storage.store import SqlStore, Store

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresStore


def __getattr__(name: str) -> object:
    """``PostgresStore`` on first use: asyncpg (4 MB of a process's memory) is loaded only by
    a bot, or a command, that uses PostgreSQL."""
    if name == "PostgresStore":
        from bot.storage.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_store(target: str | Path, *, clock: Clock = utc_now) -> SqliteStore | PostgresStore:
    """The store for a ``RUMMY_DATABASE`` value (not opened yet): PostgreSQL for a
    ``postgresql://`` URL, SQLite for a file path."""
    if isinstance(target, str) and is_postgres_url(target):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(target, clock=clock)
    return SqliteStore(target, clock=clock)


def describe_target(target: str | Path) -> str:
    """How messages name a database: the file path, or the URL without its password."""
    return masked_url(target) if isinstance(target, str) else str(target)


__all__ = [
    "CLOSED_STATUSES",
    "LATEST_VERSION",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "TABLE_STATUSES",
    "Clock",
    "Deadline",
    "DeadlineGone",
    "LoadedTable",
    "MessageRef",
    "Migration",
    "MoveRecord",
    "NewTable",
    "NotADatabase",
    "PlayerPrefs",
    "PostgresStore",
    "SchemaTooNew",
    "SeatRecord",
    "Shards",
    "SqlStore",
    "SqliteStore",
    "StaleVersion",
    "StorageError",
    "Store",
    "TableClosed",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "describe_target",
    "driver_errors",
    "is_postgres_url",
    "make_store",
    "masked_url",
    "utc_now",
]
