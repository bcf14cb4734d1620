"""Numbered SQLite schema migrations, tracked with ``PRAGMA user_version``.

Why numbered SQL lists instead of a migration framework: the schema is small,
SQLite's ``user_version`` is a free, atomic version counter, and each step runs
in its own transaction (``BEGIN IMMEDIATE`` … ``PRAGMA user_version = n`` …
``COMMIT``), so a crash mid-migration leaves the database at the previous
version, never in between. Never edit a released migration: append a new one (and its
mirror in :mod:`bot.storage.migrations.postgres`); see the package docstring for what a
migration may import.
"""

from __future__ import annotations

import aiosqlite

import bot.storage.migrations.m09_ratings as m09_ratings
import bot.storage.migrations.m13_seasons as m13_seasons
from bot.storage.migrations.base import Migration

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "tables, seats, move log, message references, meta",
        (
            """
            CREATE TABLE tables (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id      INTEGER NOT NULL,
                channel_id    INTEGER NOT NULL,
                host_id       INTEGER NOT NULL,
                status        TEXT    NOT NULL
                              CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
                variant       TEXT    NOT NULL,
                mode          TEXT    NOT NULL,
                options       TEXT    NOT NULL DEFAULT '{}',
                seed          INTEGER,
                snapshot      TEXT,
                version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
                created_at    TEXT    NOT NULL,
                updated_at    TEXT    NOT NULL,
                finished_at   TEXT
            )
            """,
            "CREATE INDEX tables_status ON tables (status, guild_id)",
            "CREATE INDEX tables_channel ON tables (channel_id)",
            """
            CREATE TABLE seats (
                table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                seat         INTEGER NOT NULL CHECK (seat >= 0),
                user_id      INTEGER,
                is_computer  INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
                team         INTEGER,
                PRIMARY KEY (table_id, seat),
                CHECK (is_computer = 1 OR user_id IS NOT NULL)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX seats_user ON seats (user_id)",
            """
            CREATE TABLE moves (
                table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                seq         INTEGER NOT NULL CHECK (seq >= 1),
                actor_id    INTEGER,
                action      TEXT    NOT NULL,
                events      TEXT    NOT NULL,
                created_at  TEXT    NOT NULL,
                PRIMARY KEY (table_id, seq)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE message_refs (
                table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                kind        TEXT    NOT NULL,
                channel_id  INTEGER NOT NULL,
                message_id  INTEGER NOT NULL,
                PRIMARY KEY (table_id, kind)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE meta (
                key    TEXT PRIMARY KEY,
                value  TEXT NOT NULL
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        2,
        "guild settings and player preferences",
        (
            """
            CREATE TABLE guild_settings (
                guild_id  INTEGER NOT NULL,
                key       TEXT    NOT NULL,
                value     TEXT    NOT NULL,
                PRIMARY KEY (guild_id, key)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE player_prefs (
                user_id      INTEGER PRIMARY KEY,
                dm_closed    INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
                four_colour  INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
                hand_sort    TEXT    NOT NULL DEFAULT 'suit',
                locale       TEXT
            )
            """,
        ),
    ),
    Migration(
        3,
        "display names on seats (shown in images without member look-ups)",
        ("ALTER TABLE seats ADD COLUMN name TEXT",),
    ),
    Migration(
        4,
        "recorded games, per-player results, ratings and leaderboard indexes",
        (
            # No foreign key to ``tables``: a recorded game is history and must outlive any
            # clean-up of old tables. ``table_id`` is unique so recording is idempotent.
            """
            CREATE TABLE games (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                table_id      INTEGER NOT NULL,
                guild_id      INTEGER NOT NULL,
                channel_id    INTEGER NOT NULL,
                variant       TEXT    NOT NULL,
                mode          TEXT    NOT NULL,
                options       TEXT    NOT NULL DEFAULT '{}',
                players       INTEGER NOT NULL CHECK (players >= 2),
                winner_sides  TEXT    NOT NULL,
                scores        TEXT    NOT NULL,
                rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
                started_at    TEXT    NOT NULL,
                ended_at      TEXT    NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX games_table ON games (table_id)",
            "CREATE INDEX games_guild ON games (guild_id, variant, ended_at)",
            """
            CREATE TABLE game_players (
                game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat           INTEGER NOT NULL CHECK (seat >= 0),
                user_id        INTEGER,
                is_computer    INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
                name           TEXT,
                side           INTEGER NOT NULL,
                partner_id     INTEGER,
                place          INTEGER NOT NULL CHECK (place >= 1),
                won            INTEGER NOT NULL CHECK (won IN (0, 1)),
                forfeited      INTEGER NOT NULL CHECK (forfeited IN (0, 1)),
                score          INTEGER NOT NULL,
                rounds         INTEGER NOT NULL,
                rounds_won     INTEGER NOT NULL,
                penalty_total  INTEGER NOT NULL,
                rami_sec       INTEGER NOT NULL,
                best_opening   INTEGER NOT NULL,
                PRIMARY KEY (game_id, seat),
                CHECK (is_computer = 1 OR user_id IS NOT NULL)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX game_players_user ON game_players (user_id, game_id)",
            """
            CREATE TABLE game_rounds (
                game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                round_no    INTEGER NOT NULL,
                winner      INTEGER,
                outcome     TEXT    NOT NULL,
                penalties   TEXT    NOT NULL,
                points      TEXT    NOT NULL,
                totals      TEXT    NOT NULL,
                PRIMARY KEY (game_id, round_no)
            ) WITHOUT ROWID
            """,
            # One row per (scope, family, user): scope is a guild id or 0 for global, family a
            # variant or 'all'. The leaderboard reads only this table, through the indexes
            # below (one per sort order, each ending in user_id for a stable tie order).
            """
            CREATE TABLE player_stats (
                scope          INTEGER NOT NULL,
                family         TEXT    NOT NULL,
                user_id        INTEGER NOT NULL,
                games          INTEGER NOT NULL DEFAULT 0,
                wins           INTEGER NOT NULL DEFAULT 0,
                win_rate       REAL    NOT NULL DEFAULT 0,
                rated_games    INTEGER NOT NULL DEFAULT 0,
                mu             REAL,
                sigma          REAL,
                rating         REAL,
                rounds         INTEGER NOT NULL DEFAULT 0,
                rounds_won     INTEGER NOT NULL DEFAULT 0,
                penalty_total  INTEGER NOT NULL DEFAULT 0,
                rami_sec       INTEGER NOT NULL DEFAULT 0,
                best_opening   INTEGER NOT NULL DEFAULT 0,
                streak         INTEGER NOT NULL DEFAULT 0,
                best_streak    INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (scope, family, user_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX player_stats_rating "
            "ON player_stats (scope, family, rating DESC, user_id)",
            "CREATE INDEX player_stats_wins "
            "ON player_stats (scope, family, wins DESC, games, user_id)",
            "CREATE INDEX player_stats_win_rate "
            "ON player_stats (scope, family, win_rate DESC, games DESC, user_id)",
            """
            CREATE TABLE rating_history (
                scope    INTEGER NOT NULL,
                family   TEXT    NOT NULL,
                user_id  INTEGER NOT NULL,
                game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                before   REAL,
                after    REAL    NOT NULL,
                PRIMARY KEY (scope, family, user_id, game_id)
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        5,
        "what Discord shows: table revisions and the revision each message shows",
        (
            # Every change to a table (move, seats, options, status) bumps ``revision``; the
            # reconciler records in ``published`` the revision every message was brought to,
            # so start-up knows which tables still need publishing.
            "ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN published INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX tables_unpublished ON tables (id) WHERE published < revision",
            "ALTER TABLE message_refs ADD COLUMN stamp TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE message_refs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        6,
        "a computer seat's strength (easy, normal, strong); NULL for people and older seats",
        ("ALTER TABLE seats ADD COLUMN strength TEXT",),
    ),
    Migration(
        7,
        "the language of a table's public messages and pictures",
        (
            # NULL: the table follows its server's preferred language (a guild setting); a
            # value ('en', 'fr') is the host's choice in /rummy new or the lobby's settings.
            "ALTER TABLE tables ADD COLUMN locale TEXT",
        ),
    ),
    Migration(
        8,
        "turn timers and housekeeping: durable deadlines, timed-out turns, why a table closed",
        (
            # One row per (table, kind): the dispatcher sleeps until the nearest pending one.
            # ``generation`` says what it belongs to (a turn, a round...); ``fired`` is set in
            # the same transaction as the move the deadline causes, so it acts exactly once.
            """
            CREATE TABLE deadlines (
                table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                kind        TEXT    NOT NULL,
                due_at      TEXT    NOT NULL,
                generation  TEXT    NOT NULL,
                seat        INTEGER,
                fired       INTEGER NOT NULL DEFAULT 0 CHECK (fired IN (0, 1)),
                PRIMARY KEY (table_id, kind)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX deadlines_pending ON deadlines (due_at) WHERE fired = 0",
            "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN closed_reason TEXT",
        ),
    ),
    Migration(
        9,
        "ratings rebuilt from the stored games with Bradley-Terry-Full, which never ranks a "
        "shared place above a player who beat it",
        (),
        m09_ratings.sqlite_step,
    ),
    Migration(
        10,
        "the bot's DM channel with each player, so a hand DM needs no user lookup",
        ("ALTER TABLE player_prefs ADD COLUMN dm_channel_id INTEGER",),
    ),
    Migration(
        11,
        "server and channel defaults of new tables",
        (
            # One row per (server, channel, key): channel_id 0 holds the server's defaults, a
            # channel's own rows override them. Keys are those of bot/services/defaults.py
            # (variant, mode, language, turn_timer, thread, every table option), values the
            # text of the choice ('51', '2v2', 'fr', '5', 'yes', 'wrap').
            """
            CREATE TABLE table_defaults (
                guild_id    INTEGER NOT NULL,
                channel_id  INTEGER NOT NULL DEFAULT 0,
                key         TEXT    NOT NULL,
                value       TEXT    NOT NULL,
                PRIMARY KEY (guild_id, channel_id, key)
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        12,
        "the thread a table's game is played in (a thread per game)",
        (
            # NULL: no thread (the game is in the table's channel); 0: the bot was refused a
            # thread and the game stays in the channel; else the thread opened from the lobby.
            "ALTER TABLE tables ADD COLUMN thread_id INTEGER",
        ),
    ),
    Migration(
        13,
        "seasons: per server date ranges whose boards are computed from the rated games they hold",
        (
            # One row per season of a server that had a rated game (or an admin's restart);
            # ``length`` is what the seasons after it last ("month": calendar months in UTC,
            # "<n>d": n days). ``posted`` is claimed once, in the transaction that decides to
            # post the final standings, so a season's end is announced once across restarts.
            """
            CREATE TABLE seasons (
                guild_id    INTEGER NOT NULL,
                starts_at   TEXT    NOT NULL,
                ends_at     TEXT    NOT NULL,
                length      TEXT    NOT NULL,
                channel_id  INTEGER,
                posted      INTEGER NOT NULL DEFAULT 0 CHECK (posted IN (0, 1)),
                PRIMARY KEY (guild_id, starts_at)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX seasons_pending ON seasons (ends_at) WHERE posted = 0",
            # A season board reads a server's rated games of a date range.
            "CREATE INDEX games_guild_ended ON games (guild_id, ended_at)",
        ),
        m13_seasons.sqlite_step,
    ),
    Migration(
        14,
        "lessons: each player's place in the course of /rummy-learn lessons",
        (
            # One row per player who opened the course. ``chapter`` and ``item`` are where they
            # are (item 0: the chapter's page, then its exercises; chapter 'end': the course is
            # over); ``misses`` the wrong answers to the current exercise; ``answered`` 0 while
            # it is open, 1 answered right, 2 its answer shown after the second miss;
            # ``finished`` the chapters done, space-separated; ``step`` grows at every change,
            # so a press on an older lesson message is told apart and changes nothing.
            """
            CREATE TABLE lesson_progress (
                user_id     INTEGER PRIMARY KEY,
                chapter     TEXT    NOT NULL,
                item        INTEGER NOT NULL DEFAULT 0,
                misses      INTEGER NOT NULL DEFAULT 0,
                answered    INTEGER NOT NULL DEFAULT 0 CHECK (answered IN (0, 1, 2)),
                finished    TEXT    NOT NULL DEFAULT '',
                step        INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        15,
        "the puzzle of the day: each server's puzzles and its players' answers",
        (
            # One row per server and day (``day``: YYYY-MM-DD, UTC), inserted when the day's
            # puzzle is made, so it is made once; ``snapshot`` is a stand-in game with only what
            # the mover saw (the puzzle is judged on it), ``message_id`` the post once sent.
            """
            CREATE TABLE puzzles (
                guild_id    INTEGER NOT NULL,
                day         TEXT    NOT NULL,
                kind        TEXT    NOT NULL,
                puzzle_key  TEXT    NOT NULL,
                seat        INTEGER NOT NULL,
                snapshot    TEXT    NOT NULL,
                credit      TEXT,
                channel_id  INTEGER,
                message_id  INTEGER,
                PRIMARY KEY (guild_id, day)
            ) WITHOUT ROWID
            """,
            # One answer per player and puzzle: the first counts.
            """
            CREATE TABLE puzzle_answers (
                guild_id    INTEGER NOT NULL,
                day         TEXT    NOT NULL,
                user_id     INTEGER NOT NULL,
                answer      TEXT    NOT NULL,
                solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
                answered_at TEXT    NOT NULL,
                PRIMARY KEY (guild_id, day, user_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX puzzle_answers_player ON puzzle_answers (guild_id, user_id, day)",
        ),
    ),
)

LATEST_VERSION: int = MIGRATIONS[-1].version


def _check_numbering() -> None:
    """Fail at import if someone breaks the 1, 2, 3… numbering."""
    for index, migration in enumerate(MIGRATIONS, start=1):
        if migration.version != index:
            raise RuntimeError(f"migration #{index} is numbered {migration.version}")


_check_numbering()


async def get_user_version(conn: aiosqlite.Connection) -> int:
    """The schema version stored in the database header (0 for a new file)."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def rollback_quietly(conn: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open; SQLite may already have rolled back on error."""
    if conn.in_transaction:
        await conn.execute("ROLLBACK")


async def apply_migrations(
    conn: aiosqlite.Connection,
    target: int = LATEST_VERSION,
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> tuple[int, int]:
    """Bring *conn* to schema *target*, one transaction per step; return (before, after).

    The connection must be in autocommit mode (``isolation_level=None``) so the
    explicit ``BEGIN IMMEDIATE`` is the only transaction. ``BEGIN IMMEDIATE``
    takes the write lock before reading the version, so two processes starting
    at once cannot both apply the same step.
    """
    before = await get_user_version(conn)
    current = before
    for migration in migrations:
        if migration.version > target:
            break
        if migration.version <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read under the lock: another process may have migrated meanwhile.
            if await get_user_version(conn) >= migration.version:
                await conn.execute("ROLLBACK")
                current = await get_user_version(conn)
                continue
            for statement in migration.statements:
                await conn.execute(statement)
            if migration.step is not None:
                await migration.step(conn)
            # PRAGMA values cannot be bound as parameters; version is an int we own.
            await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            await conn.execute("COMMIT")
        except BaseException:
            await rollback_quietly(conn)
            raise
        current = migration.version
    return before, current
