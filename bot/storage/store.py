"""Every store method, written once for SQLite and PostgreSQL: the one class that implements
each feature's store interface (``bot/features/*/store.py``) and the shared ones
(:mod:`bot.storage.base`).

Why one class over two drivers: the rules of the store (a move's version, closed-table and
deadline checks, the win streak, the leaderboard order) must be the same on both databases, and
a rule written twice drifts. Each method here builds its statements (``?`` placeholders) and,
for a transaction, a generator that yields them and decides on the rows it gets back
(:mod:`bot.storage.statements`). A subclass is the driver: it runs those on its database
(:meth:`SqlStore._run`, :meth:`SqlStore._load`), converts times (:meth:`SqlStore._time`,
:meth:`SqlStore._moment`), opens and closes, and spells the few words the dialects disagree on
(the class attributes below). Migrations stay per database: DDL history belongs to each.

Columns are never listed here: each record's table (:mod:`bot.storage.queries`, built with
:class:`bot.storage.records.Table`) gives its column list, its rows' records, its INSERT and
upsert, by field name.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, ClassVar, Self

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
    LessonProgress,
    LoadedTable,
    MessageRef,
    MoveRecord,
    NewTable,
    PlayerPrefs,
    PlayerStats,
    PuzzleAnswer,
    PuzzleRecord,
    PuzzleSchedule,
    Rater,
    RatingChange,
    RatingKey,
    SeasonRecord,
    SeatRecord,
    Shards,
    SkillRating,
    StaleVersion,
    StorageError,
    TableClosed,
    TableNotFound,
    TableRecord,
    TableSetting,
    TableStatus,
)
from bot.storage.outage import DatabaseUnavailable, Health
from bot.storage.queries import (
    DEADLINES,
    GAME_PLAYERS,
    GAME_ROUNDS,
    GAMES,
    LAST_HUMAN_MOVE_SQL,
    LOAD_TABLE_SQL,
    MESSAGE_REFS,
    MOVES,
    NEW_TABLES,
    PLAYER_STATS,
    PREFS,
    PUZZLE_ANSWERS,
    PUZZLES,
    RATING_HISTORY,
    SEASONS,
    SEATS,
    TABLES,
    ahead_conditions,
    check_setting,
    check_status,
    display,
    loaded_table,
    sort_spec,
    stats_keys,
    stats_rows,
)
from bot.storage.statements import Row, Stmt, T, Tx, marks, one

#: A move's INSERT, built once (every move runs it).
MOVE_INSERT = MOVES.insert_sql()


def _shard_filter(column: str, shards: Shards | None) -> tuple[str, list[int]]:
    """`` AND <column's shard> IN (...)`` for the servers on ``shards``; nothing for all."""
    if shards is None or shards.everything:
        return "", []
    return f" AND (({column} >> {SHARD_SHIFT}) % ?) IN ({marks(len(shards.ids))})", [
        shards.count,
        *shards.ids,
    ]


def _ref_upsert(refs: Sequence[MessageRef]) -> Stmt:
    return MESSAGE_REFS.upsert(
        refs,
        lambda moment: moment,
        key=("table_id", "kind"),
        update=dict.fromkeys(("channel_id", "message_id", "stamp", "revision")),
        one_statement=True,
    )


class SqlStore(ABC):
    """The store's rules over a driver; see the module docstring for what a driver adds."""

    #: The two-argument maximum (SQLite's scalar ``MAX``, PostgreSQL's ``GREATEST``).
    GREATEST: ClassVar[str] = "MAX"
    #: After the SELECT of a row a transaction then changes: lock it (PostgreSQL), or nothing
    #: where the transaction already holds the write lock (SQLite's ``BEGIN IMMEDIATE``).
    FOR_UPDATE: ClassVar[str] = ""
    #: Where NULL ratings go in a DESC order (SQLite puts NULLs last there already).
    NULLS_LAST: ClassVar[str] = ""
    #: How a flag column is compared (0/1 in SQLite, where the partial index says ``= 0``).
    FALSE: ClassVar[str] = "0"
    TRUE: ClassVar[str] = "1"

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        #: Whether the database serves calls; what to do when it comes back (see outage.py).
        self.health = Health()
        self._recovering: set[asyncio.Task[None]] = set()

    # --- lifecycle: ``async with SqliteStore(path) as store:`` ---------------------------

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema to the newest version (a second call does nothing)."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending work and release the connections. Safe to call twice."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- the driver --------------------------------------------------------------------

    async def _run(
        self, tx: Tx[T], *, write: bool = False, durable: bool = True, isolated: bool = True
    ) -> T:
        """Run transaction *tx* and return what it returns.

        ``write``: it changes rows, committed before this returns (rolled back on any error).
        ``durable=False``: the commit need not wait for the disk (a cache of what Discord
        shows, or what start-up rebuilds). ``isolated=False``: each step is atomic on its own
        and need not share a transaction with the others (a driver may skip BEGIN/COMMIT).
        Raises :class:`DatabaseUnavailable` when the database cannot serve it.
        """
        try:
            result = await self._transact(tx, write=write, durable=durable, isolated=isolated)
        except DatabaseUnavailable as error:
            self.health.failed(error.outage, error.__cause__ or error)
            raise
        if self.health.down:
            self._back(write)
        return result

    def _back(self, write: bool) -> None:
        """A call worked while the database was down: the episode ends, and what waited for
        it runs (off this call, which has its own caller to answer)."""
        recovery = self.health.on_recovery
        if self.health.worked(write=write) and recovery is not None:
            task = asyncio.get_running_loop().create_task(recovery(), name="database-back")
            self._recovering.add(task)
            task.add_done_callback(self._recovering.discard)

    @abstractmethod
    async def _transact(self, tx: Tx[T], *, write: bool, durable: bool, isolated: bool) -> T:
        """The driver's half of :meth:`_run`: run *tx* on the database, raising
        :class:`DatabaseUnavailable` (from the driver's error) for an outage."""

    async def _load(self, stmt: Stmt) -> list[Row]:
        """A short indexed read a move starts with; a driver may run it where it is cheapest."""
        return await self._run(one(stmt))

    @abstractmethod
    def _time(self, moment: datetime) -> Any:
        """A timezone-aware moment as the database stores it."""

    @abstractmethod
    def _moment(self, value: Any) -> datetime:
        """A stored time as a timezone-aware moment."""

    async def _rows(self, sql: str, *params: Any) -> list[Row]:
        return await self._run(one(Stmt(sql, params)))

    async def _first(self, sql: str, *params: Any) -> Row | None:
        rows = await self._rows(sql, *params)
        return rows[0] if rows else None

    async def _change(self, sql: str, *params: Any) -> list[Row]:
        """A write of one statement (its own transaction)."""
        return await self._run(one(Stmt(sql, params)), write=True, isolated=False)

    def _now(self) -> Any:
        return self._time(self._clock())

    # --- rows ----------------------------------------------------------------------------

    def _table(self, row: Row) -> TableRecord:
        return TABLES.from_row(row, self._moment)

    def _deadline(self, row: Row) -> Deadline:
        return DEADLINES.from_row(row, self._moment)

    # --- tables ----------------------------------------------------------------------------

    async def create_table(self, new: NewTable) -> TableRecord:
        check_status(new.status)
        now = self._now()
        insert = NEW_TABLES.insert(
            [new],
            self._time,
            extra={"version": 0, "created_at": now, "updated_at": now, "revision": 1},
            then=f"RETURNING {TABLES.columns()}",
        )
        rows = await self._run(one(insert), write=True, isolated=False)
        return self._table(rows[0])

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._first(f"SELECT {TABLES.columns()} FROM tables WHERE id = ?", table_id)
        return None if row is None else self._table(row)

    async def list_active_tables(
        self, guild_id: int | None = None, shards: Shards | None = None
    ) -> list[TableRecord]:
        sql = f"SELECT {TABLES.columns()} FROM tables WHERE status IN ({marks(len(OPEN_STATUSES))})"
        params: list[Any] = list(OPEN_STATUSES)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        shard_sql, shard_params = _shard_filter("guild_id", shards)
        rows = await self._rows(f"{sql}{shard_sql} ORDER BY id", *params, *shard_params)
        return [self._table(row) for row in rows]

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

        def tx() -> Tx[Row]:
            if claim is not None:
                yield from self._claim(claim)
            rows = yield Stmt(
                "UPDATE tables SET status = ?, updated_at = ?, revision = revision + 1, "
                "finished_at = COALESCE(finished_at, ?), "
                f"closed_reason = COALESCE(?, closed_reason) WHERE id = ? RETURNING {TABLES.columns()}",
                (status, now, finished, reason, table_id),
            )
            if not rows:
                raise TableNotFound(table_id)
            return rows[0]

        return self._table(await self._run(tx(), write=True, isolated=claim is not None))

    async def set_table_setting(
        self, table_id: int, setting: TableSetting, value: str | None
    ) -> TableRecord:
        column = check_setting(setting)
        rows = await self._change(
            f"UPDATE tables SET {column} = ?, updated_at = ?, revision = revision + 1 "
            f"WHERE id = ? RETURNING {TABLES.columns()}",
            value, self._now(), table_id,
        )  # fmt: skip
        if not rows:
            raise TableNotFound(table_id)
        return self._table(rows[0])

    async def set_table_thread(self, table_id: int, thread_id: int) -> None:
        rows = await self._change(
            "UPDATE tables SET thread_id = ? WHERE id = ? RETURNING id", thread_id, table_id
        )
        if not rows:
            raise TableNotFound(table_id)

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        def tx() -> Tx[None]:
            bumped = yield Stmt(
                "UPDATE tables SET revision = revision + 1 WHERE id = ? RETURNING id", (table_id,)
            )
            if not bumped:
                raise TableNotFound(table_id)
            yield Stmt("DELETE FROM seats WHERE table_id = ?", (table_id,))
            if seats:
                yield SEATS.insert(seats, self._time, extra={"table_id": table_id})

        await self._run(tx(), write=True)

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        rows = await self._rows(
            f"SELECT {SEATS.columns()} FROM seats WHERE table_id = ? ORDER BY seat", table_id
        )
        return [SEATS.from_row(r, self._moment) for r in rows]

    async def load_table(self, table_id: int) -> LoadedTable | None:
        rows = await self._load(Stmt(LOAD_TABLE_SQL, (table_id,)))
        if not rows:
            return None
        return loaded_table(self._table(rows[0]), rows, self._moment)

    # --- moves -------------------------------------------------------------------------------

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
        new_status = None if status is None else check_status(status)
        moment = self._clock()
        now = self._time(moment)
        finished = now if new_status in CLOSED_STATUSES else None

        def tx() -> Tx[int]:
            rows = yield Stmt(
                f"SELECT version, status FROM tables WHERE id = ?{self.FOR_UPDATE}", (table_id,)
            )
            if not rows:
                raise TableNotFound(table_id)
            current, current_status = int(rows[0][0]), str(rows[0][1])
            if current_status in CLOSED_STATUSES:
                raise TableClosed(table_id, current_status)
            if current != expected_version:
                raise StaleVersion(table_id, expected_version, current)
            if claim is not None:
                yield from self._claim(claim)
            seat = () if timeouts is None else (
                Stmt(
                    "UPDATE seats SET timeouts = ? WHERE table_id = ? AND seat = ?",
                    (timeouts[1], table_id, timeouts[0]),
                ),
            )  # fmt: skip
            move = MoveRecord(table_id, current + 1, actor_id, action_json, events_json, moment)
            yield (
                *seat,
                Stmt(MOVE_INSERT, MOVES.params(move, self._time)),
                Stmt(
                    "UPDATE tables SET snapshot = ?, version = ?, updated_at = ?, "
                    "revision = revision + 1, status = COALESCE(?, status), "
                    "finished_at = COALESCE(finished_at, ?) WHERE id = ? AND version = ?",
                    (snapshot_json, current + 1, now, new_status, finished, table_id, current),
                ),
            )
            return current + 1

        # Shielded: once a move starts writing it runs to COMMIT or ROLLBACK even if the caller
        # is cancelled, so "cancelled" never hides "committed".
        return await asyncio.shield(self._run(tx(), write=True))

    async def list_moves(self, table_id: int, after_seq: int = 0) -> list[MoveRecord]:
        rows = await self._rows(
            f"SELECT {MOVES.columns()} FROM moves WHERE table_id = ? AND seq > ? ORDER BY seq",
            table_id, after_seq,
        )  # fmt: skip
        return [MOVES.from_row(r, self._moment) for r in rows]

    async def last_human_move_at(self, table_id: int) -> datetime | None:
        row = await self._first(LAST_HUMAN_MOVE_SQL, table_id)
        return None if row is None else self._moment(row[0])

    # --- deadlines -------------------------------------------------------------------------

    def _claim(self, deadline: Deadline) -> Tx[None]:
        """Inside a write: mark ``deadline`` fired, or raise DeadlineGone (rolls back)."""
        claimed = yield Stmt(
            f"UPDATE deadlines SET fired = {self.TRUE} WHERE table_id = ? AND kind = ? "
            f"AND generation = ? AND fired = {self.FALSE} RETURNING kind",
            (deadline.table_id, deadline.kind, deadline.generation),
        )
        if not claimed:
            raise DeadlineGone(deadline.table_id, deadline.kind, deadline.generation)

    async def arm_deadlines(self, table_id: int, wanted: Sequence[Deadline]) -> list[Deadline]:
        # Without waiting for the fsync: a kill never loses it, the next move's commit syncs it,
        # and a power cut before that only makes the start-up arm the table's deadlines again.
        # The DELETE removes only kinds not wanted and the upsert touches only wanted kinds, so
        # the two never meet on a row and may go as one statement.
        kinds = [d.kind for d in wanted]
        gone = Stmt(
            "DELETE FROM deadlines WHERE table_id = ?"
            + (f" AND kind NOT IN ({marks(len(kinds))})" if kinds else ""),
            (table_id, *kinds),
        )
        armed = DEADLINES.upsert(
            [replace(d, table_id=table_id, fired=False) for d in wanted],
            self._time,
            key=("table_id", "kind"),
            update={"due_at": None, "generation": None, "seat": None, "fired": self.FALSE},
            alias="d",
            where="excluded.generation <> '' AND d.generation <> excluded.generation",
            one_statement=True,
        )

        def tx() -> Tx[list[Row]]:
            yield (gone, armed) if wanted else gone
            return (yield self._deadlines_sql(table_id))

        rows = await self._run(tx(), write=True, durable=False, isolated=False)
        return [self._deadline(r) for r in rows]

    @staticmethod
    def _deadlines_sql(table_id: int) -> Stmt:
        return Stmt(
            f"SELECT {DEADLINES.columns()} FROM deadlines WHERE table_id = ? ORDER BY kind",
            (table_id,),
        )

    async def get_deadlines(self, table_id: int) -> list[Deadline]:
        rows = await self._run(one(self._deadlines_sql(table_id)))
        return [self._deadline(r) for r in rows]

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        shard_sql, shard_params = _shard_filter("t.guild_id", shards)
        rows = await self._rows(
            f"SELECT {DEADLINES.columns('d')} FROM deadlines d "
            f"JOIN tables t ON t.id = d.table_id WHERE d.fired = {self.FALSE} "
            f"AND t.status IN ({marks(len(OPEN_STATUSES))}){shard_sql} "
            "ORDER BY d.due_at, d.table_id, d.kind LIMIT ?",
            *OPEN_STATUSES, *shard_params, int(limit),
        )  # fmt: skip
        return [self._deadline(r) for r in rows]

    async def claim_deadline(self, deadline: Deadline) -> bool:
        try:
            await self._run(self._claim(deadline), write=True, isolated=False)
        except DeadlineGone:
            return False
        return True

    # --- messages -----------------------------------------------------------------------------

    async def set_message_ref(self, ref: MessageRef) -> None:
        await self._run(one(_ref_upsert([ref])), write=True, isolated=False)

    async def get_message_refs(self, table_id: int) -> list[MessageRef]:
        rows = await self._rows(
            f"SELECT {MESSAGE_REFS.columns()} FROM message_refs WHERE table_id = ? ORDER BY kind",
            table_id,
        )
        return [MESSAGE_REFS.from_row(r, self._moment) for r in rows]

    async def delete_message_ref(self, table_id: int, kind: str) -> None:
        await self._change(
            "DELETE FROM message_refs WHERE table_id = ? AND kind = ?", table_id, kind
        )

    async def mark_published(
        self, table_id: int, revision: int, refs: Sequence[MessageRef] = ()
    ) -> None:
        published = Stmt(
            f"UPDATE tables SET published = {self.GREATEST}(published, ?) WHERE id = ?",
            (revision, table_id),
        )
        step = (_ref_upsert(refs), published) if refs else published
        await self._run(one(step), write=True, durable=False, isolated=False)

    async def list_unpublished_tables(self, shards: Shards | None = None) -> list[TableRecord]:
        shard_sql, shard_params = _shard_filter("guild_id", shards)
        rows = await self._rows(
            f"SELECT {TABLES.columns()} FROM tables WHERE published < revision{shard_sql} "
            "ORDER BY id",
            *shard_params,
        )
        return [self._table(row) for row in rows]

    # --- settings, preferences and meta ------------------------------------------------------

    async def get_guild_setting(self, guild_id: int, key: str) -> str | None:
        row = await self._first(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", guild_id, key
        )
        return None if row is None else str(row[0])

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._change(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", guild_id, key
            )
            return
        await self._change(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            guild_id, key, value,
        )  # fmt: skip

    async def get_table_defaults(self, guild_id: int, channel_id: int) -> dict[int, dict[str, str]]:
        rows = await self._rows(
            "SELECT channel_id, key, value FROM table_defaults "
            "WHERE guild_id = ? AND channel_id IN (0, ?) ORDER BY channel_id, key",
            guild_id, channel_id,
        )  # fmt: skip
        found: dict[int, dict[str, str]] = {0: {}, channel_id: {}}
        for row in rows:
            found[int(row[0])][str(row[1])] = str(row[2])
        return found

    async def set_table_default(
        self, guild_id: int, channel_id: int, key: str, value: str | None
    ) -> None:
        if value is None:
            await self._change(
                "DELETE FROM table_defaults WHERE guild_id = ? AND channel_id = ? AND key = ?",
                guild_id, channel_id, key,
            )  # fmt: skip
            return
        await self._change(
            "INSERT INTO table_defaults (guild_id, channel_id, key, value) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, channel_id, key) DO UPDATE SET value = excluded.value",
            guild_id, channel_id, key, value,
        )  # fmt: skip

    async def clear_table_defaults(self, guild_id: int, channel_id: int) -> None:
        await self._change(
            "DELETE FROM table_defaults WHERE guild_id = ? AND channel_id = ?",
            guild_id, channel_id,
        )  # fmt: skip

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        return (await self.get_players_prefs([user_id]))[user_id]

    async def get_players_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._rows(
            f"SELECT {PREFS.columns()} FROM player_prefs WHERE user_id IN ({marks(len(wanted))})",
            *wanted,
        )
        found = {p.user_id: p for p in (PREFS.from_row(r, self._moment) for r in rows)}
        return {u: found.get(u) or PlayerPrefs(u) for u in wanted}

    async def set_player_prefs(self, prefs: PlayerPrefs) -> None:
        # Every preference but the DM channel, which the bot alone sets (set_dm_channel).
        kept = ("user_id", "dm_channel_id")
        upsert = PREFS.upsert(
            [prefs],
            self._time,
            key=("user_id",),
            update=dict.fromkeys(f for f in PREFS.fields if f not in kept),
        )
        await self._run(one(upsert), write=True, isolated=False)

    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        await self._change(
            "INSERT INTO player_prefs (user_id, dm_channel_id) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_channel_id = excluded.dm_channel_id",
            user_id, channel_id,
        )  # fmt: skip

    async def get_lesson_progress(self, user_id: int) -> LessonProgress | None:
        row = await self._first(
            "SELECT chapter, item, misses, answered, finished, step FROM lesson_progress "
            "WHERE user_id = ?",
            user_id,
        )
        if row is None:
            return None
        chapter, item, misses, answered, finished, step = row
        return LessonProgress(
            user_id,
            str(chapter),
            int(item),
            int(misses),
            int(answered),
            tuple(str(finished).split()),
            int(step),
        )

    async def save_lesson_progress(self, progress: LessonProgress, seen_step: int) -> bool:
        # One statement: a row at another step than the one the change was read at is left
        # alone (two quick presses, or a press on an older lesson message, apply once).
        rows = await self._change(
            "INSERT INTO lesson_progress "
            "(user_id, chapter, item, misses, answered, finished, step) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET chapter = excluded.chapter, "
            "item = excluded.item, misses = excluded.misses, answered = excluded.answered, "
            "finished = excluded.finished, step = excluded.step "
            "WHERE lesson_progress.step = ? RETURNING user_id",
            progress.user_id, progress.chapter, progress.item, progress.misses,
            progress.answered, " ".join(progress.finished), progress.step, seen_step,
        )  # fmt: skip
        return bool(rows)

    async def get_meta(self, key: str) -> str | None:
        row = await self._first("SELECT value FROM meta WHERE key = ?", key)
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._change(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key, value,
        )  # fmt: skip

    # --- recorded games, ratings and the leaderboard -----------------------------------------

    async def record_game(self, game: GameRecord, rater: Rater | None = None) -> int | None:
        return await self._run(self._record(game, rater), write=True)

    def _record(self, game: GameRecord, rater: Rater | None) -> Tx[int | None]:
        inserted = yield GAMES.insert(
            [game],
            self._time,
            omit=("id",),
            extra={"players": len(game.players)},
            then="ON CONFLICT (table_id) DO NOTHING RETURNING id",
        )
        if not inserted:
            return None  # already recorded: a retried callback must not count twice
        game_id = int(inserted[0][0])
        yield GAME_PLAYERS.insert(game.players, self._time, extra={"game_id": game_id})
        yield GAME_ROUNDS.insert(game.rounds, self._time, extra={"game_id": game_id})
        # Sorted keys: every process locks player_stats rows in the same order, so two games
        # with the same players recorded at once queue instead of deadlocking; the upsert's row
        # locks then keep the rater's read-modify-write to itself.
        keys = sorted(stats_keys(game), key=lambda item: item[0])
        yield Stmt(PLAYER_STATS.game_upsert(self.GREATEST), many=stats_rows(keys))
        if rater is None or not keys:
            return game_id
        current: dict[RatingKey, SkillRating | None] = {}
        for key, _ in keys:
            row = yield Stmt(
                f"SELECT {PLAYER_STATS.columns()} FROM player_stats "
                "WHERE scope = ? AND family = ? AND user_id = ?",
                key,
            )
            stored = PLAYER_STATS.from_row(row[0], self._moment) if row else None
            current[key] = (
                None
                if stored is None or stored.mu is None or stored.sigma is None
                or stored.rating is None
                else SkillRating(stored.mu, stored.sigma, stored.rating)
            )  # fmt: skip
        updated = rater(current)
        unknown = set(updated) - set(current)
        if unknown:
            raise StorageError(f"the rater returned keys that were not asked for: {unknown}")
        yield Stmt(
            "UPDATE player_stats SET mu = ?, sigma = ?, rating = ?, rated_games = rated_games + 1 "
            "WHERE scope = ? AND family = ? AND user_id = ?",
            many=[(new.mu, new.sigma, new.rating, *key) for key, new in updated.items()],
        )
        yield RATING_HISTORY.insert(
            [RatingChange(game_id, display(current[key]), updated[key].rating) for key in updated],
            self._time,
            extra=[dict(zip(PLAYER_STATS.key, key, strict=True)) for key in updated],
        )
        return game_id

    def _games(self, where: str, params: Sequence[Any], *, rounds: bool) -> Tx[list[GameRecord]]:
        """The recorded games ``WHERE <where>`` in the order they were recorded, with their
        players (and, with ``rounds``, their rounds): one statement for the games, one for all
        their players, one for all their rounds."""
        games = yield Stmt(f"SELECT {GAMES.columns()} FROM games WHERE {where} ORDER BY id", params)
        if not games:
            return []
        found = [GAMES.from_row(g, self._moment, players=(), rounds=()) for g in games]
        ids = tuple(g.id for g in found)
        players = yield Stmt(
            f"SELECT game_id, {GAME_PLAYERS.columns()} FROM game_players "
            f"WHERE game_id IN ({marks(len(ids))}) ORDER BY game_id, seat",
            ids,
        )
        played: dict[int, list[GamePlayerRecord]] = {}
        for row in players:
            played.setdefault(int(row[0]), []).append(GAME_PLAYERS.from_row(row, self._moment, 1))
        ended: dict[int, list[GameRoundRecord]] = {}
        if rounds:
            stored = yield Stmt(
                f"SELECT game_id, {GAME_ROUNDS.columns()} FROM game_rounds "
                f"WHERE game_id IN ({marks(len(ids))}) ORDER BY game_id, round_no",
                ids,
            )
            for row in stored:
                ended.setdefault(int(row[0]), []).append(GAME_ROUNDS.from_row(row, self._moment, 1))
        return [
            replace(
                g, players=tuple(played.get(g.id or 0, ())), rounds=tuple(ended.get(g.id or 0, ()))
            )
            for g in found
        ]

    async def get_game_record(self, table_id: int) -> GameRecord | None:
        games = await self._run(self._games("table_id = ?", (table_id,), rounds=True))
        return games[0] if games else None

    def _order(self, sort: LeaderboardSort, alias: str = "") -> str:
        return ", ".join(
            f"{alias}{column} {direction}{self.NULLS_LAST if column == 'rating' else ''}"
            for column, direction in (*sort_spec(sort), ("user_id", "ASC"))
        )

    async def leaderboard_page(
        self, scope: int, family: str, sort: LeaderboardSort, offset: int, limit: int
    ) -> list[PlayerStats]:
        # Deferred join: the OFFSET walk reads only the sort's covering index; whole rows are
        # fetched by primary key for the page's users alone (a deep page would otherwise look
        # up every skipped row). CROSS JOIN keeps SQLite from driving the join the other way.
        rows = await self._rows(
            "WITH page (user_id) AS (SELECT user_id FROM player_stats WHERE scope = ? "
            f"AND family = ? ORDER BY {self._order(sort)} LIMIT ? OFFSET ?) "
            f"SELECT {PLAYER_STATS.columns('s')} FROM page CROSS JOIN player_stats AS s "
            "WHERE s.scope = ? AND s.family = ? AND s.user_id = page.user_id "
            f"ORDER BY {self._order(sort, 's.')}",
            scope, family, max(0, limit), max(0, offset), scope, family,
        )  # fmt: skip
        return [PLAYER_STATS.from_row(r, self._moment) for r in rows]

    async def leaderboard_size(self, scope: int, family: str) -> int:
        row = await self._first(
            "SELECT COUNT(*) FROM player_stats WHERE scope = ? AND family = ?", scope, family
        )
        return 0 if row is None else int(row[0])

    async def leaderboard_position(
        self, scope: int, family: str, sort: LeaderboardSort, user_id: int
    ) -> tuple[int, PlayerStats] | None:
        def tx() -> Tx[tuple[int, PlayerStats] | None]:
            rows = yield Stmt(
                f"SELECT {PLAYER_STATS.columns()} FROM player_stats "
                "WHERE scope = ? AND family = ? AND user_id = ?",
                (scope, family, user_id),
            )
            if not rows:
                return None
            stats = PLAYER_STATS.from_row(rows[0], self._moment)
            ahead = 0
            for condition, params in ahead_conditions(sort, stats):
                counted = yield Stmt(
                    f"SELECT COUNT(*) FROM player_stats WHERE scope = ? AND family = ? "
                    f"AND {condition}",
                    (scope, family, *params),
                )
                ahead += int(counted[0][0])
            return ahead + 1, stats

        return await self._run(tx())

    async def get_player_stats(self, scope: int, user_id: int) -> list[PlayerStats]:
        rows = await self._rows(
            f"SELECT {PLAYER_STATS.columns()} FROM player_stats WHERE scope = ? AND user_id = ? "
            "ORDER BY family",
            scope, user_id,
        )  # fmt: skip
        return [PLAYER_STATS.from_row(r, self._moment) for r in rows]

    async def rating_history(
        self, scope: int, family: str, user_id: int, limit: int
    ) -> list[RatingChange]:
        rows = await self._rows(
            f"SELECT {RATING_HISTORY.columns()} FROM rating_history "
            "WHERE scope = ? AND family = ? AND user_id = ? ORDER BY game_id DESC LIMIT ?",
            scope, family, user_id, max(0, limit),
        )  # fmt: skip
        return [RATING_HISTORY.from_row(r, self._moment) for r in rows]

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
        row = await self._first(sql, *params)
        return None if row is None else (int(row[0]), int(row[1]))

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._rows(
            "SELECT gp.user_id, gp.name FROM game_players AS gp "
            f"WHERE gp.user_id IN ({marks(len(wanted))}) AND gp.name IS NOT NULL "
            "AND gp.game_id = (SELECT MAX(game_id) FROM game_players "
            "WHERE user_id = gp.user_id AND name IS NOT NULL)",
            *wanted,
        )
        return {int(r[0]): str(r[1]) for r in rows}

    # --- seasons -------------------------------------------------------------------------------

    def _season(self, row: Row) -> SeasonRecord:
        return SEASONS.from_row(row, self._moment)

    async def season_rows(self, guild_id: int) -> list[SeasonRecord]:
        rows = await self._rows(
            f"SELECT {SEASONS.columns()} FROM seasons WHERE guild_id = ? ORDER BY starts_at",
            guild_id,
        )
        return [self._season(r) for r in rows]

    async def add_season(self, season: SeasonRecord) -> None:
        upsert = SEASONS.upsert(
            [season],
            self._time,
            key=("guild_id", "starts_at"),
            update={"channel_id": "COALESCE(excluded.channel_id, s.channel_id)"},
            alias="s",
        )
        await self._run(one(upsert), write=True, isolated=False)

    async def set_season_schedule(
        self, guild_id: int, starts_at: datetime, ends_at: datetime, length: str
    ) -> None:
        await self._change(
            "UPDATE seasons SET ends_at = ?, length = ? WHERE guild_id = ? AND starts_at = ?",
            self._time(ends_at), length, guild_id, self._time(starts_at),
        )  # fmt: skip

    async def rated_games_between(
        self, guild_id: int, start: datetime, end: datetime
    ) -> list[GameRecord]:
        return await self._run(
            self._games(
                f"guild_id = ? AND ended_at >= ? AND ended_at < ? AND rated = {self.TRUE}",
                (guild_id, self._time(start), self._time(end)),
                rounds=False,
            )
        )

    async def pending_season_ends(
        self, limit: int = 16, shards: Shards | None = None
    ) -> list[SeasonRecord]:
        shard_sql, shard_params = _shard_filter("guild_id", shards)
        rows = await self._rows(
            f"SELECT {SEASONS.columns()} FROM seasons WHERE posted = {self.FALSE}{shard_sql} "
            "ORDER BY ends_at, guild_id LIMIT ?",
            *shard_params, int(limit),
        )  # fmt: skip
        return [self._season(r) for r in rows]

    async def claim_season_end(self, guild_id: int, starts_at: datetime) -> bool:
        rows = await self._change(
            f"UPDATE seasons SET posted = {self.TRUE} WHERE guild_id = ? AND starts_at = ? "
            f"AND posted = {self.FALSE} RETURNING guild_id",
            guild_id, self._time(starts_at),
        )  # fmt: skip
        return bool(rows)


    # --- the puzzle of the day -----------------------------------------------------------------

    async def puzzle_guilds(self, shards: Shards | None = None) -> list[PuzzleSchedule]:
        where, params = _shard_filter("c.guild_id", shards)
        rows = await self._rows(
            "SELECT c.guild_id, c.value, h.value, s.value FROM guild_settings AS c "
            "JOIN guild_settings AS h ON h.guild_id = c.guild_id AND h.key = 'puzzle.hour' "
            "JOIN guild_settings AS s ON s.guild_id = c.guild_id AND s.key = 'puzzle.since' "
            f"WHERE c.key = 'puzzle.channel'{where}",
            *params,
        )
        return [
            PuzzleSchedule(int(r[0]), int(r[1]), int(r[2]), datetime.fromisoformat(str(r[3])))
            for r in rows
        ]

    async def add_puzzle(self, puzzle: PuzzleRecord) -> bool:
        insert = PUZZLES.insert(
            [puzzle], self._time, then="ON CONFLICT (guild_id, day) DO NOTHING RETURNING day"
        )
        return bool(await self._run(one(insert), write=True, isolated=False))

    async def set_puzzle_message(
        self, guild_id: int, day: str, channel_id: int, message_id: int
    ) -> None:
        await self._change(
            "UPDATE puzzles SET channel_id = ?, message_id = ? WHERE guild_id = ? AND day = ?",
            channel_id, message_id, guild_id, day,
        )  # fmt: skip

    async def get_puzzle(self, guild_id: int, day: str) -> PuzzleRecord | None:
        row = await self._first(
            f"SELECT {PUZZLES.columns()} FROM puzzles WHERE guild_id = ? AND day = ?",
            guild_id, day,
        )  # fmt: skip
        return None if row is None else PUZZLES.from_row(row, self._moment)

    async def puzzle_days(self, guild_id: int, limit: int) -> list[tuple[str, str, str]]:
        rows = await self._rows(
            "SELECT day, kind, puzzle_key FROM puzzles WHERE guild_id = ? "
            "ORDER BY day DESC LIMIT ?",
            guild_id, limit,
        )  # fmt: skip
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def add_puzzle_answer(self, answer: PuzzleAnswer) -> bool:
        insert = PUZZLE_ANSWERS.insert(
            [answer],
            self._time,
            then="ON CONFLICT (guild_id, day, user_id) DO NOTHING RETURNING day",
        )
        return bool(await self._run(one(insert), write=True, isolated=False))

    async def puzzle_answers(self, guild_id: int, day: str) -> tuple[int, int]:
        row = await self._first(
            f"SELECT COUNT(*), SUM(CASE WHEN solved = {self.TRUE} THEN 1 ELSE 0 END) "
            "FROM puzzle_answers WHERE guild_id = ? AND day = ?",
            guild_id, day,
        )  # fmt: skip
        return (int(row[1] or 0), int(row[0] or 0)) if row else (0, 0)

    async def player_puzzle_days(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[tuple[str, bool]]:
        rows = await self._rows(
            "SELECT day, solved FROM puzzle_answers WHERE guild_id = ? AND user_id = ? "
            "ORDER BY day DESC LIMIT ?",
            guild_id, user_id, limit,
        )  # fmt: skip
        return [(str(r[0]), bool(r[1])) for r in rows]

    async def finished_tables(self, guild_id: int, limit: int) -> list[TableRecord]:
        rows = await self._rows(
            f"SELECT {TABLES.columns()} FROM tables WHERE guild_id = ? AND status = 'finished' "
            "ORDER BY finished_at DESC LIMIT ?",
            guild_id, limit,
        )  # fmt: skip
        return [self._table(r) for r in rows]


#: Everything the bot persists: the one store class over both drivers, which implements every
#: feature's narrow interface (``bot/features/*/store.py``) and the shared ones of
#: :mod:`bot.storage.base`. Only start-up, the command line and tools hold it whole.
Store = SqlStore
