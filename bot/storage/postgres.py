"""PostgreSQL implementation of :class:`bot.storage.base.Store` on asyncpg.

Why these choices:

* The same guarantees as the SQLite store: every write is one transaction committed (with
  PostgreSQL's default ``synchronous_commit = on``: flushed to the WAL on disk) before the
  method returns; the optimistic version check reads the table row ``FOR UPDATE`` so two
  processes writing the same table queue on that row and the second sees the first's version.
* A pool of connections instead of one locked connection: several bot processes (shards) and
  several tables of one process write at once; PostgreSQL's row locks, not a process-wide
  lock, keep them apart.
* Deadline claims are ``UPDATE … WHERE fired = FALSE RETURNING``: under READ COMMITTED a
  second process claiming the same row waits for the first and then finds it fired, so a
  deadline's work happens once across every process.
* ``mark_published`` commits with a transaction-local ``synchronous_commit = off`` (the
  analogue of the SQLite store's ``synchronous=NORMAL`` for that write): it is only a cache of
  what Discord shows.
* Writes that are one statement run without BEGIN/COMMIT (a statement is its own transaction);
  round trips, not SQL, are most of a call's cost.
* The schema mirrors the SQLite one number for number (:mod:`bot.storage.pg_migrations`);
  Discord ids are BIGINT, flags BOOLEAN, times TIMESTAMPTZ.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Literal

import asyncpg

from bot.storage.base import (
    ALL_VARIANTS,
    CLOSED_STATUSES,
    GLOBAL_SCOPE,
    OPEN_STATUSES,
    SHARD_SHIFT,
    Clock,
    Deadline,
    DeadlineGone,
    GamePlayerRecord,
    GameRecord,
    GameRoundRecord,
    LeaderboardSort,
    LoadedTable,
    MessageRef,
    MoveRecord,
    NewTable,
    PlayerPrefs,
    PlayerStats,
    Rater,
    RatingChange,
    RatingKey,
    SchemaTooNew,
    SeatRecord,
    Shards,
    SkillRating,
    StaleVersion,
    StorageError,
    TableClosed,
    TableNotFound,
    TableRecord,
    TableStatus,
    masked_url,
    utc_now,
)
from bot.storage.pg_migrations import PG_LATEST_VERSION, apply_pg_migrations, get_schema_version
from bot.storage.queries import (
    LAST_HUMAN_MOVE_SQL,
    LOAD_TABLE_SQL,
    PLAYER_COLUMNS,
    PREFS_COLUMNS,
    SEAT_COLUMNS,
    STATS_COLUMNS,
    TABLE_COLUMNS,
    ahead_conditions,
    check_status,
    display,
    loaded_table,
    prefs_from_row,
    sort_spec,
    stats_keys,
    stats_rows,
)

_STATS_UPSERT = """
INSERT INTO player_stats AS s (scope, family, user_id, games, wins, win_rate, rounds, rounds_won,
                               penalty_total, rami_sec, best_opening, streak, best_streak)
VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (scope, family, user_id) DO UPDATE SET
    games = s.games + 1,
    wins = s.wins + excluded.wins,
    win_rate = CAST(s.wins + excluded.wins AS DOUBLE PRECISION) / (s.games + 1),
    rounds = s.rounds + excluded.rounds,
    rounds_won = s.rounds_won + excluded.rounds_won,
    penalty_total = s.penalty_total + excluded.penalty_total,
    rami_sec = s.rami_sec + excluded.rami_sec,
    best_opening = GREATEST(s.best_opening, excluded.best_opening),
    streak = CASE WHEN excluded.wins = 1 THEN s.streak + 1 ELSE 0 END,
    best_streak = GREATEST(s.best_streak, CASE WHEN excluded.wins = 1 THEN s.streak + 1 ELSE 0 END)
"""


_NULLS_LAST = " NULLS" + " LAST"

#: Upsert message references of table $1 given as arrays $2..$6 (kinds, channels, messages,
#: stamps, revisions): a WITH clause, so callers append the statement that follows it.
_UPSERT_REFS = """
WITH refs AS (
    INSERT INTO message_refs (table_id, kind, channel_id, message_id, stamp, revision)
    SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::integer[])
    ON CONFLICT (table_id, kind)
    DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id,
                  stamp = excluded.stamp, revision = excluded.revision
)"""


def _shard_test(column: str, first: int) -> str:
    """A condition on parameters ``$first`` (the shard count, NULL for every shard) and
    ``$first+1`` (the shard ids) keeping the tables of servers on those shards."""
    count, ids = f"${first}::int", f"${first + 1}::int[]"
    return f"({count} IS NULL OR (({column} >> {SHARD_SHIFT}) % {count}) = ANY({ids}))"


def _shard_args(shards: Shards | None) -> tuple[int | None, list[int]]:
    if shards is None or shards.everything:
        return None, []
    return shards.count, list(shards.ids)


def _ref_arrays(refs: Sequence[MessageRef]) -> tuple[list[Any], ...]:
    """The columns of *refs* as arrays, for :data:`_UPSERT_REFS`."""
    return (
        [r.kind for r in refs],
        [r.channel_id for r in refs],
        [r.message_id for r in refs],
        [r.stamp for r in refs],
        [r.revision for r in refs],
    )


def dollar_params(sql: str) -> str:
    """Turn SQLite's ``?`` placeholders into ``$1, $2…`` (for SQL shared with that store)."""
    pieces = sql.split("?")
    return "".join(f"{p}${i}" for i, p in enumerate(pieces[:-1], start=1)) + pieces[-1]


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("the clock must return timezone-aware datetimes")
    return moment.astimezone(UTC)


def _table_from_row(row: asyncpg.Record) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=check_status(row[4]),
        variant=row[5],
        mode=row[6],
        options_json=row[7],
        seed=row[8],
        snapshot_json=row[9],
        version=row[10],
        created_at=row[11],
        updated_at=row[12],
        finished_at=row[13],
        revision=row[14],
        published=row[15],
        locale=row[16],
        closed_reason=row[17],
    )


def _deadline_from_row(row: asyncpg.Record) -> Deadline:
    return Deadline(
        table_id=row[0], kind=row[1], due_at=row[2], generation=row[3], seat=row[4], fired=row[5]
    )


def _player_from_row(row: asyncpg.Record) -> GamePlayerRecord:
    return GamePlayerRecord(*row)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Return a connection to the pool as it is, without asyncpg's default ``RESET ALL`` round
    trip after every call: the store changes no session state (its one setting is
    transaction-local, ``set_config(…, true)``; the migration lock is released explicitly)."""
    del conn


class PostgresStore:
    """A :class:`~bot.storage.base.Store` on a PostgreSQL database (``postgresql://`` URL).

    Several processes may use one database at once. Opening applies pending migrations.
    """

    def __init__(
        self, url: str, *, clock: Clock = utc_now, min_connections: int = 1,
        max_connections: int = 10,
    ) -> None:
        self.url = url
        self._clock = clock
        self._min = min_connections
        self._max = max_connections
        self._pool: asyncpg.Pool | None = None

    def __repr__(self) -> str:
        return f"PostgresStore({masked_url(self.url)!r})"

    # --- lifecycle -------------------------------------------------------------

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=self._min,
                max_size=self._max,
                command_timeout=60,
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(
                f"cannot connect to PostgreSQL at {masked_url(self.url)}: {error}"
            ) from error
        try:
            async with pool.acquire() as conn:
                found = await get_schema_version(conn)
                if found > PG_LATEST_VERSION:
                    raise SchemaTooNew(found, PG_LATEST_VERSION)
                await apply_pg_migrations(conn)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    def _connection_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("the store is not open")
        return self._pool

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection outside any explicit transaction: for reads, and for writes that are
        one statement (PostgreSQL commits each statement atomically, before it answers), which
        saves the BEGIN and COMMIT round trips."""
        async with self._connection_pool().acquire() as conn:
            yield conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction: committed on success, rolled back on any error."""
        async with self._connection_pool().acquire() as conn, conn.transaction():
            yield conn

    def _now(self) -> datetime:
        return _aware(self._clock())

    async def schema_version(self) -> int:
        async with self._autocommit() as conn:
            return await get_schema_version(conn)

    # --- tables ----------------------------------------------------------------

    async def create_table(self, new: NewTable) -> TableRecord:
        status = check_status(new.status)
        now = self._now()
        async with self._autocommit() as conn:
            row = await conn.fetchrow(
                f"""
                INSERT INTO tables (guild_id, channel_id, host_id, status, variant, mode,
                                    options, seed, snapshot, version, created_at, updated_at,
                                    revision, locale)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, 0, $9, $9, 1, $10)
                RETURNING {TABLE_COLUMNS}
                """,
                new.guild_id, new.channel_id, new.host_id, status, new.variant, new.mode,
                new.options_json, new.seed, now, new.locale,
            )
        return _table_from_row(row)

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self._autocommit() as conn:
            row = await conn.fetchrow(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = $1", table_id
            )
        return None if row is None else _table_from_row(row)

    async def list_active_tables(
        self, guild_id: int | None = None, shards: Shards | None = None
    ) -> list[TableRecord]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE status = ANY($1::text[]) "
                f"AND ($2::bigint IS NULL OR guild_id = $2) AND {_shard_test('guild_id', 3)} "
                "ORDER BY id",
                list(OPEN_STATUSES), guild_id, *_shard_args(shards),
            )
        return [_table_from_row(row) for row in rows]

    async def update_table_status(
        self,
        table_id: int,
        status: TableStatus,
        *,
        reason: str | None = None,
        claim: Deadline | None = None,
    ) -> TableRecord:
        status = check_status(status)
        now = self._now()
        finished = now if status in CLOSED_STATUSES else None
        async with self._write() if claim else self._autocommit() as conn:
            if claim is not None:
                await self._claim(conn, claim)
            row = await conn.fetchrow(
                f"""
                UPDATE tables SET status = $1, updated_at = $2, revision = revision + 1,
                                  finished_at = COALESCE(finished_at, $3),
                                  closed_reason = COALESCE($4, closed_reason)
                WHERE id = $5
                RETURNING {TABLE_COLUMNS}
                """,
                status, now, finished, reason, table_id,
            )
            if row is None:
                raise TableNotFound(table_id)
        return _table_from_row(row)

    async def update_table_options(self, table_id: int, options_json: str) -> TableRecord:
        return await self._set_table_column(table_id, "options", options_json)

    async def set_table_locale(self, table_id: int, locale: str | None) -> TableRecord:
        return await self._set_table_column(table_id, "locale", locale)

    async def _set_table_column(
        self, table_id: int, column: Literal["options", "locale"], value: str | None
    ) -> TableRecord:
        async with self._autocommit() as conn:
            row = await conn.fetchrow(
                f"""
                UPDATE tables SET {column} = $1, updated_at = $2, revision = revision + 1
                WHERE id = $3
                RETURNING {TABLE_COLUMNS}
                """,
                value, self._now(), table_id,
            )
            if row is None:
                raise TableNotFound(table_id)
        return _table_from_row(row)

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        async with self._write() as conn:
            bumped = await conn.fetchval(
                "UPDATE tables SET revision = revision + 1 WHERE id = $1 RETURNING id", table_id
            )
            if bumped is None:
                raise TableNotFound(table_id)
            await conn.execute("DELETE FROM seats WHERE table_id = $1", table_id)
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, is_computer, team, name, strength, "
                "timeouts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    (table_id, s.seat, s.user_id, s.is_computer, s.team, s.name, s.strength,
                     s.timeouts)
                    for s in seats
                ],
            )

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        async with self._autocommit() as conn:
            return await self._seats(conn, table_id)

    async def load_table(self, table_id: int) -> LoadedTable | None:
        # One round trip (see LOAD_TABLE_SQL).
        async with self._autocommit() as conn:
            rows = await conn.fetch(dollar_params(LOAD_TABLE_SQL), table_id)
        if not rows:
            return None
        return loaded_table(
            _table_from_row(rows[0]), [tuple(row) for row in rows], lambda r: SeatRecord(*r)
        )

    @staticmethod
    async def _seats(conn: asyncpg.Connection, table_id: int) -> list[SeatRecord]:
        rows = await conn.fetch(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = $1 ORDER BY seat",
            table_id,
        )
        return [SeatRecord(*r) for r in rows]

    # --- moves -----------------------------------------------------------------

    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        actor_id: int | None,
        action_json: str,
        events_json: str,
        snapshot_json: str,
        *,
        status: TableStatus | None = None,
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
    ) -> int:
        # Shielded for the same reason as the SQLite store: "cancelled" never hides "committed".
        return await asyncio.shield(
            self._commit_move(
                table_id, expected_version, actor_id, action_json, events_json, snapshot_json,
                status, claim, timeouts,
            )
        )

    async def _commit_move(
        self,
        table_id: int,
        expected_version: int,
        actor_id: int | None,
        action_json: str,
        events_json: str,
        snapshot_json: str,
        status: TableStatus | None,
        claim: Deadline | None,
        timeouts: tuple[int, int] | None,
    ) -> int:
        new_status = None if status is None else check_status(status)
        now = self._now()
        async with self._write() as conn:
            # FOR UPDATE: a concurrent move of this table (any process) waits here, then reads
            # the version the first one committed.
            row = await conn.fetchrow(
                "SELECT version, status FROM tables WHERE id = $1 FOR UPDATE", table_id
            )
            if row is None:
                raise TableNotFound(table_id)
            current, current_status = int(row[0]), str(row[1])
            if current_status in CLOSED_STATUSES:
                raise TableClosed(table_id, current_status)
            if current != expected_version:
                raise StaleVersion(table_id, expected_version, current)
            if claim is not None:
                await self._claim(conn, claim)
            if timeouts is not None:
                await conn.execute(
                    "UPDATE seats SET timeouts = $1 WHERE table_id = $2 AND seat = $3",
                    timeouts[1], table_id, timeouts[0],
                )
            new_version = current + 1
            finished = now if new_status in CLOSED_STATUSES else None
            await conn.execute(
                """
                WITH logged AS (
                    INSERT INTO moves (table_id, seq, actor_id, action, events, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6)
                )
                UPDATE tables
                SET snapshot = $7, version = $2, updated_at = $6, revision = revision + 1,
                    status = COALESCE($8, status), finished_at = COALESCE(finished_at, $9)
                WHERE id = $1
                """,
                table_id, new_version, actor_id, action_json, events_json, now, snapshot_json,
                new_status, finished,
            )
        return new_version

    async def list_moves(self, table_id: int, after_seq: int = 0) -> list[MoveRecord]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT table_id, seq, actor_id, action, events, created_at FROM moves "
                "WHERE table_id = $1 AND seq > $2 ORDER BY seq",
                table_id, after_seq,
            )
        return [MoveRecord(*r) for r in rows]

    async def last_human_move_at(self, table_id: int) -> datetime | None:
        async with self._autocommit() as conn:
            found: datetime | None = await conn.fetchval(
                dollar_params(LAST_HUMAN_MOVE_SQL), table_id
            )
        return found

    # --- deadlines ------------------------------------------------------------------

    @staticmethod
    async def _claim(conn: asyncpg.Connection, deadline: Deadline) -> None:
        """Inside a write: mark ``deadline`` fired, or raise DeadlineGone (rolls back)."""
        claimed = await conn.fetchval(
            "UPDATE deadlines SET fired = TRUE "
            "WHERE table_id = $1 AND kind = $2 AND generation = $3 AND NOT fired RETURNING kind",
            deadline.table_id, deadline.kind, deadline.generation,
        )
        if claimed is None:
            raise DeadlineGone(deadline.table_id, deadline.kind, deadline.generation)

    async def arm_deadlines(self, table_id: int, wanted: Sequence[Deadline]) -> list[Deadline]:
        # One statement: the DELETE removes only kinds not wanted and the upsert touches only
        # wanted kinds, so the two never meet on a row. The rows it wrote come back through
        # RETURNING; the wanted rows it left alone are read from the statement's snapshot,
        # which is their current state.
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                """
                WITH gone AS (
                    DELETE FROM deadlines WHERE table_id = $1 AND kind <> ALL($2::text[])
                ), armed AS (
                    INSERT INTO deadlines AS d (table_id, kind, due_at, generation, seat, fired)
                    SELECT $1, w.*, FALSE
                    FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::integer[]) AS w
                    ON CONFLICT (table_id, kind) DO UPDATE
                    SET due_at = excluded.due_at, generation = excluded.generation,
                        seat = excluded.seat, fired = FALSE
                    WHERE excluded.generation <> '' AND d.generation <> excluded.generation
                    RETURNING d.table_id, d.kind, d.due_at, d.generation, d.seat, d.fired
                )
                SELECT * FROM armed
                UNION ALL
                SELECT table_id, kind, due_at, generation, seat, fired FROM deadlines
                WHERE table_id = $1 AND kind = ANY($2::text[])
                  AND kind NOT IN (SELECT kind FROM armed)
                ORDER BY kind
                """,
                table_id,
                [d.kind for d in wanted],
                [_aware(d.due_at) for d in wanted],
                [d.generation for d in wanted],
                [d.seat for d in wanted],
            )
        return [_deadline_from_row(r) for r in rows]

    async def get_deadlines(self, table_id: int) -> list[Deadline]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT table_id, kind, due_at, generation, seat, fired FROM deadlines "
                "WHERE table_id = $1 ORDER BY kind",
                table_id,
            )
        return [_deadline_from_row(r) for r in rows]

    async def next_deadlines(
        self, limit: int = 16, shards: Shards | None = None
    ) -> list[Deadline]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT d.table_id, d.kind, d.due_at, d.generation, d.seat, d.fired "
                "FROM deadlines d JOIN tables t ON t.id = d.table_id "
                f"WHERE NOT d.fired AND t.status = ANY($1::text[]) AND {_shard_test('t.guild_id', 3)} "
                "ORDER BY d.due_at, d.table_id, d.kind LIMIT $2",
                list(OPEN_STATUSES), int(limit), *_shard_args(shards),
            )
        return [_deadline_from_row(r) for r in rows]

    async def claim_deadline(self, deadline: Deadline) -> bool:
        try:
            async with self._autocommit() as conn:
                await self._claim(conn, deadline)
        except DeadlineGone:
            return False
        return True

    # --- messages ----------------------------------------------------------------

    async def set_message_ref(self, ref: MessageRef) -> None:
        async with self._autocommit() as conn:
            await conn.execute(f"{_UPSERT_REFS} SELECT 1", ref.table_id, *_ref_arrays([ref]))

    async def get_message_refs(self, table_id: int) -> list[MessageRef]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT table_id, kind, channel_id, message_id, stamp, revision "
                "FROM message_refs WHERE table_id = $1 ORDER BY kind",
                table_id,
            )
        return [MessageRef(*r) for r in rows]

    async def mark_published(
        self, table_id: int, revision: int, refs: Sequence[MessageRef] = ()
    ) -> None:
        # One statement (its own transaction): the references and the published revision. Its
        # set_config makes that transaction's commit skip the wait for the WAL flush.
        async with self._autocommit() as conn:
            await conn.execute(
                f"""
                {_UPSERT_REFS},
                relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
                UPDATE tables SET published = GREATEST(published, $7)
                FROM relaxed WHERE id = $1
                """,
                table_id, *_ref_arrays(refs), revision,
            )

    async def list_unpublished_tables(self, shards: Shards | None = None) -> list[TableRecord]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                f"SELECT {TABLE_COLUMNS} FROM tables "
                f"WHERE published < revision AND {_shard_test('guild_id', 1)} ORDER BY id",
                *_shard_args(shards),
            )
        return [_table_from_row(row) for row in rows]

    async def delete_message_ref(self, table_id: int, kind: str) -> None:
        async with self._autocommit() as conn:
            await conn.execute(
                "DELETE FROM message_refs WHERE table_id = $1 AND kind = $2", table_id, kind
            )

    # --- settings and preferences --------------------------------------------------

    async def get_guild_setting(self, guild_id: int, key: str) -> str | None:
        async with self._autocommit() as conn:
            value = await conn.fetchval(
                "SELECT value FROM guild_settings WHERE guild_id = $1 AND key = $2", guild_id, key
            )
        return None if value is None else str(value)

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        async with self._autocommit() as conn:
            if value is None:
                await conn.execute(
                    "DELETE FROM guild_settings WHERE guild_id = $1 AND key = $2", guild_id, key
                )
            else:
                await conn.execute(
                    "INSERT INTO guild_settings (guild_id, key, value) VALUES ($1, $2, $3) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                    guild_id, key, value,
                )

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        return (await self.get_players_prefs([user_id]))[user_id]

    async def get_players_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        wanted = list(dict.fromkeys(user_ids))
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                f"SELECT user_id, {PREFS_COLUMNS} FROM player_prefs "
                "WHERE user_id = ANY($1::bigint[])",
                wanted,
            )
        found = {r[0]: tuple(r)[1:] for r in rows}
        return {u: prefs_from_row(u, found.get(u)) for u in wanted}

    async def set_player_prefs(self, prefs: PlayerPrefs) -> None:
        async with self._autocommit() as conn:
            await conn.execute(
                """
                INSERT INTO player_prefs (user_id, dm_closed, four_colour, hand_sort, locale)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (user_id) DO UPDATE SET
                    dm_closed = excluded.dm_closed, four_colour = excluded.four_colour,
                    hand_sort = excluded.hand_sort, locale = excluded.locale
                """,
                prefs.user_id, prefs.dm_closed, prefs.four_colour, prefs.hand_sort, prefs.locale,
            )

    # --- meta --------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._autocommit() as conn:
            value = await conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._autocommit() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    # --- recorded games, ratings and the leaderboard -----------------------------------------

    async def record_game(self, game: GameRecord, rater: Rater | None = None) -> int | None:
        async with self._write() as conn:
            game_id = await self._insert_game(conn, game)
            if game_id is None:
                return None  # already recorded (by this or another process)
            await self._insert_players_and_rounds(conn, game_id, game)
            # Sorted keys: every process locks player_stats rows in the same order, so two
            # games with the same players recorded at once queue instead of deadlocking; the
            # upsert's row locks then keep the rater's read-modify-write to itself.
            keys = sorted(stats_keys(game), key=lambda item: item[0])
            await conn.executemany(_STATS_UPSERT, stats_rows(game, keys))
            if rater is not None and keys:
                current = await self._current_ratings(conn, [key for key, _ in keys])
                await self._store_ratings(conn, game_id, current, rater(current))
            return game_id

    async def _insert_game(self, conn: asyncpg.Connection, game: GameRecord) -> int | None:
        game_id = await conn.fetchval(
            """
            INSERT INTO games (table_id, guild_id, channel_id, variant, mode, options, players,
                               winner_sides, scores, rated, started_at, ended_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            ON CONFLICT (table_id) DO NOTHING
            RETURNING id
            """,
            game.table_id, game.guild_id, game.channel_id, game.variant, game.mode,
            game.options_json, len(game.players), game.winner_sides_json, game.scores_json,
            game.rated, _aware(game.started_at), _aware(game.ended_at),
        )
        return None if game_id is None else int(game_id)

    async def _insert_players_and_rounds(
        self, conn: asyncpg.Connection, game_id: int, game: GameRecord
    ) -> None:
        await conn.executemany(
            f"INSERT INTO game_players (game_id, {PLAYER_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
            [
                (game_id, p.seat, p.user_id, p.is_computer, p.name, p.side, p.partner_id,
                 p.place, p.won, p.forfeited, p.score, p.rounds, p.rounds_won, p.penalty_total,
                 p.rami_sec, p.best_opening)
                for p in game.players
            ],
        )
        await conn.executemany(
            "INSERT INTO game_rounds (game_id, round_no, winner, outcome, penalties, points, "
            "totals) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (game_id, r.round_no, r.winner, r.outcome, r.penalties_json, r.points_json,
                 r.totals_json)
                for r in game.rounds
            ],
        )

    @staticmethod
    async def _current_ratings(
        conn: asyncpg.Connection, keys: Sequence[RatingKey]
    ) -> dict[RatingKey, SkillRating | None]:
        current: dict[RatingKey, SkillRating | None] = {}
        for key in keys:
            row = await conn.fetchrow(
                "SELECT mu, sigma, rating FROM player_stats "
                "WHERE scope = $1 AND family = $2 AND user_id = $3",
                *key,
            )
            rated = row is not None and row[0] is not None
            current[key] = SkillRating(row[0], row[1], row[2]) if row and rated else None
        return current

    @staticmethod
    async def _store_ratings(
        conn: asyncpg.Connection,
        game_id: int,
        current: dict[RatingKey, SkillRating | None],
        updated: Mapping[RatingKey, SkillRating],
    ) -> None:
        unknown = set(updated) - set(current)
        if unknown:
            raise StorageError(f"the rater returned keys that were not asked for: {unknown}")
        await conn.executemany(
            "UPDATE player_stats SET mu = $1, sigma = $2, rating = $3, "
            "rated_games = rated_games + 1 WHERE scope = $4 AND family = $5 AND user_id = $6",
            [(new.mu, new.sigma, new.rating, *key) for key, new in updated.items()],
        )
        await conn.executemany(
            "INSERT INTO rating_history (scope, family, user_id, game_id, before, after) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(*key, game_id, display(current[key]), new.rating) for key, new in updated.items()],
        )

    async def get_game_record(self, table_id: int) -> GameRecord | None:
        async with self._autocommit() as conn:
            row = await conn.fetchrow(
                "SELECT id, table_id, guild_id, channel_id, variant, mode, options, winner_sides, "
                "scores, rated, started_at, ended_at FROM games WHERE table_id = $1",
                table_id,
            )
            if row is None:
                return None
            players = await conn.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM game_players WHERE game_id = $1 ORDER BY seat",
                row[0],
            )
            rounds = await conn.fetch(
                "SELECT round_no, winner, outcome, penalties, points, totals FROM game_rounds "
                "WHERE game_id = $1 ORDER BY round_no",
                row[0],
            )
        return GameRecord(
            id=row[0],
            table_id=row[1],
            guild_id=row[2],
            channel_id=row[3],
            variant=row[4],
            mode=row[5],
            options_json=row[6],
            winner_sides_json=row[7],
            scores_json=row[8],
            rated=row[9],
            started_at=row[10],
            ended_at=row[11],
            players=tuple(_player_from_row(p) for p in players),
            rounds=tuple(GameRoundRecord(*r) for r in rounds),
        )

    async def leaderboard_page(
        self, scope: int, family: str, sort: LeaderboardSort, offset: int, limit: int
    ) -> list[PlayerStats]:
        # A NULL (unrated) rating sorts last, as in SQLite and the rating index.
        order = ", ".join(
            f"{column} {direction}{_NULLS_LAST if column == 'rating' else ''}"
            for column, direction in sort_spec(sort)
        )
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                f"SELECT {STATS_COLUMNS} FROM player_stats WHERE scope = $1 AND family = $2 "
                f"ORDER BY {order}, user_id LIMIT $3 OFFSET $4",
                scope, family, max(0, limit), max(0, offset),
            )
        return [PlayerStats(*r) for r in rows]

    async def leaderboard_size(self, scope: int, family: str) -> int:
        async with self._autocommit() as conn:
            count = await conn.fetchval(
                "SELECT COUNT(*) FROM player_stats WHERE scope = $1 AND family = $2",
                scope, family,
            )
        return int(count or 0)

    async def leaderboard_position(
        self, scope: int, family: str, sort: LeaderboardSort, user_id: int
    ) -> tuple[int, PlayerStats] | None:
        async with self._autocommit() as conn:
            row = await conn.fetchrow(
                f"SELECT {STATS_COLUMNS} FROM player_stats "
                "WHERE scope = $1 AND family = $2 AND user_id = $3",
                scope, family, user_id,
            )
            if row is None:
                return None
            stats = PlayerStats(*row)
            ahead = 0
            for condition, params in ahead_conditions(sort, stats):
                counted = await conn.fetchval(
                    dollar_params(
                        "SELECT COUNT(*) FROM player_stats WHERE scope = ? AND family = ? "
                        f"AND {condition}"
                    ),
                    scope, family, *params,
                )
                ahead += int(counted or 0)
        return ahead + 1, stats

    async def get_player_stats(self, scope: int, user_id: int) -> list[PlayerStats]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                f"SELECT {STATS_COLUMNS} FROM player_stats WHERE scope = $1 AND user_id = $2 "
                "ORDER BY family",
                scope, user_id,
            )
        return [PlayerStats(*r) for r in rows]

    async def rating_history(
        self, scope: int, family: str, user_id: int, limit: int
    ) -> list[RatingChange]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT game_id, before, after FROM rating_history "
                "WHERE scope = $1 AND family = $2 AND user_id = $3 "
                "ORDER BY game_id DESC LIMIT $4",
                scope, family, user_id, max(0, limit),
            )
        return [RatingChange(game_id=r[0], before=r[1], after=r[2]) for r in rows]

    async def favourite_partner(
        self, scope: int, family: str, user_id: int
    ) -> tuple[int, int] | None:
        sql = (
            "SELECT gp.partner_id, COUNT(*) AS together FROM game_players AS gp "
            "JOIN games AS g ON g.id = gp.game_id "
            "WHERE gp.user_id = ? AND gp.partner_id IS NOT NULL"
        )
        params: list[Any] = [user_id]
        if scope != GLOBAL_SCOPE:
            sql += " AND g.guild_id = ?"
            params.append(scope)
        if family != ALL_VARIANTS:
            sql += " AND g.variant = ?"
            params.append(family)
        sql += " GROUP BY gp.partner_id ORDER BY together DESC, gp.partner_id LIMIT 1"
        async with self._autocommit() as conn:
            row = await conn.fetchrow(dollar_params(sql), *params)
        return None if row is None else (int(row[0]), int(row[1]))

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        async with self._autocommit() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT ON (user_id) user_id, name FROM game_players "
                "WHERE user_id = ANY($1::bigint[]) AND name IS NOT NULL "
                "ORDER BY user_id, game_id DESC",
                list(dict.fromkeys(user_ids)),
            )
        return {int(r[0]): str(r[1]) for r in rows}
