"""Persistence for tables, moves and settings behind a small, swappable interface.

Import from here (``from bot.storage import Store, SqliteStore``) rather than the
submodules, so a future PostgreSQL store only has to be added in this package.
"""

from bot.storage.base import (
    CLOSED_STATUSES,
    OPEN_STATUSES,
    TABLE_STATUSES,
    Clock,
    Deadline,
    DeadlineGone,
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
    Store,
    TableClosed,
    TableNotFound,
    TableRecord,
    TableStatus,
    utc_now,
)
from bot.storage.migrations import LATEST_VERSION, MIGRATIONS, Migration
from bot.storage.sqlite import SqliteStore

__all__ = [
    "CLOSED_STATUSES",
    "LATEST_VERSION",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "TABLE_STATUSES",
    "Clock",
    "Deadline",
    "DeadlineGone",
    "MessageRef",
    "Migration",
    "MoveRecord",
    "NewTable",
    "NotADatabase",
    "PlayerPrefs",
    "SchemaTooNew",
    "SeatRecord",
    "Shards",
    "SqliteStore",
    "StaleVersion",
    "StorageError",
    "Store",
    "TableClosed",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "utc_now",
]
