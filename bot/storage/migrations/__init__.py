"""Schema migrations of both stores, numbered 1, 2, 3… and kept as history.

Why history: an operator may upgrade from any release, so migration *n* must do to a database
at schema *n − 1* exactly what it did when it was released, whatever the bot has become since.
A migration therefore never imports today's column lists, queries, record types or rules
(``bot.storage.queries``, ``bot.storage.base``, ``bot.features.stats.ratings``…): those describe
today's schema, and a Python step that read them once failed on every old database with a
column a later migration was to add. Each module here imports only libraries and this package
(``tests/storage/test_migrations_are_history.py`` parses them), and a Python step carries a
frozen copy of what it reads and computes, as of the day it was written.

* :mod:`.sqlite`: SQLite's list (``PRAGMA user_version``) and how it is applied;
* :mod:`.postgres`: PostgreSQL's mirror, number for number (a ``schema_version`` table);
* ``mNN_*.py``: the Python step of migration *NN*, for both stores (:mod:`.m09_ratings`: every
  rating replayed with Bradley-Terry-Full; :mod:`.m13_seasons`: the seasons of older games);
* :mod:`.base`: what a migration is, and PostgreSQL's placeholders for a step's statements.

``tests/storage/test_upgrade_every_version.py`` upgrades a database of every past version, on
both stores, and checks it against a fresh one. The SQLite names are re-exported here, where
the store and the tests have always imported them.
"""

from __future__ import annotations

from bot.storage.migrations.base import Migration
from bot.storage.migrations.sqlite import (
    LATEST_VERSION,
    MIGRATIONS,
    apply_migrations,
    get_user_version,
    rollback_quietly,
)

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "Migration",
    "apply_migrations",
    "get_user_version",
    "rollback_quietly",
]
