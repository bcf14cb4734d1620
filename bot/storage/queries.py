"""Store-independent pieces of the SQLite and PostgreSQL stores: each stored record's table
(:class:`~bot.storage.records.Table`), the leaderboard orders and the rows a finished game adds
to the statistics.

Why one module: both stores must rank, count and record exactly alike (the copy between them and
the tests on both depend on it), so the logic that does not depend on the SQL dialect lives here
once. Conditions use ``?`` placeholders; the PostgreSQL driver numbers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from bot.storage.base import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    LEADERBOARD_SORTS,
    TABLE_SETTINGS,
    TABLE_STATUSES,
    Deadline,
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
    PuzzleAnswer,
    PuzzleRecord,
    RatingChange,
    RatingKey,
    SeasonRecord,
    SeatRecord,
    SkillRating,
    TableRecord,
    TableSetting,
    TableStatus,
)
from bot.storage.records import StatsTable, Table, ToMoment
from bot.storage.statements import Row


def check_status(status: str) -> TableStatus:
    for known in TABLE_STATUSES:
        if status == known:
            return known
    raise ValueError(f"unknown table status {status!r}; expected one of {TABLE_STATUSES}")


def check_setting(setting: str) -> TableSetting:
    """The column to write, only from the known list (it is spelled into the SQL)."""
    for known in TABLE_SETTINGS:
        if setting == known:
            return known
    raise ValueError(f"unknown table setting {setting!r}; expected one of {TABLE_SETTINGS}")


#: A table (a lobby or a game).
TABLES = Table(
    "tables",
    TableRecord,
    columns={"options_json": "options", "snapshot_json": "snapshot"},
    times=("created_at", "updated_at", "finished_at"),
    checks={"status": check_status},
)
#: What a new table is inserted from.
NEW_TABLES = Table("tables", NewTable, columns={"options_json": "options"})
#: A seat (its ``table_id`` is the table's, no field of the seat).
SEATS = Table("seats", SeatRecord, flags=("is_computer",))
#: A player's preferences (no row: the defaults).
PREFS = Table("player_prefs", PlayerPrefs, flags=("dm_closed", "four_colour"))
MOVES = Table(
    "moves",
    MoveRecord,
    columns={"action_json": "action", "events_json": "events"},
    times=("created_at",),
)
DEADLINES = Table("deadlines", Deadline, times=("due_at",), flags=("fired",))
MESSAGE_REFS = Table("message_refs", MessageRef)
#: A recorded game (its players and rounds are rows of their own).
GAMES = Table(
    "games",
    GameRecord,
    columns={
        "options_json": "options",
        "winner_sides_json": "winner_sides",
        "scores_json": "scores",
    },
    flags=("rated",),
    times=("started_at", "ended_at"),
    skip=("players", "rounds"),
)
#: A recorded game's seat (its ``game_id`` is the game's).
GAME_PLAYERS = Table("game_players", GamePlayerRecord, flags=("is_computer", "won", "forfeited"))
GAME_ROUNDS = Table(
    "game_rounds",
    GameRoundRecord,
    columns={"penalties_json": "penalties", "points_json": "points", "totals_json": "totals"},
)
#: A player's counters and rating in a scope and family; the counters are declared on
#: :class:`PlayerStats` and the upsert a game makes is built from them.
PLAYER_STATS = StatsTable("player_stats", PlayerStats, key=("scope", "family", "user_id"))
#: One rated game's rating change (its scope, family and user are the key's).
RATING_HISTORY = Table("rating_history", RatingChange)
SEASONS = Table("seasons", SeasonRecord, times=("starts_at", "ends_at"), flags=("posted",))
PUZZLES = Table("puzzles", PuzzleRecord)
PUZZLE_ANSWERS = Table("puzzle_answers", PuzzleAnswer, times=("answered_at",), flags=("solved",))


#: When a person (not a computer, not a timer) last made a move at table ?.
LAST_HUMAN_MOVE_SQL = (
    "SELECT created_at FROM moves WHERE table_id = ? AND actor_id IS NOT NULL "
    "ORDER BY seq DESC LIMIT 1"
)


def loaded_table(record: TableRecord, rows: Sequence[Row], moment: ToMoment) -> LoadedTable:
    """The table of ``LOAD_TABLE_SQL``'s ``rows``: each row's seat and its player's
    preferences; a seatless table has one row of NULL seat columns, a player without
    preferences NULL ones (the defaults)."""
    seats: list[SeatRecord] = []
    prefs: dict[int, PlayerPrefs] = {}
    for row in rows:
        if row[SEAT_AT + SEAT_NUMBER] is None:
            continue
        seat = SEATS.from_row(row, moment, SEAT_AT)
        seats.append(seat)
        if seat.user_id is not None:
            stored = row[PREFS_AT + PREFS_USER] is not None
            prefs[seat.user_id] = (
                PREFS.from_row(row, moment, PREFS_AT) if stored else PlayerPrefs(seat.user_id)
            )
    return LoadedTable(record, tuple(seats), prefs)


#: A move's one read: the table's columns repeated on each of its seats (once if seatless),
#: each seat followed by its player's preferences (NULLs when they have none).
LOAD_TABLE_SQL = (
    f"SELECT {TABLES.columns('t')}, {SEATS.columns('s')}, {PREFS.columns('p')} "
    "FROM tables t LEFT JOIN seats s ON s.table_id = t.id "
    "LEFT JOIN player_prefs p ON p.user_id = s.user_id WHERE t.id = ? ORDER BY s.seat"
)
#: Where the seat's and the preferences' columns start in a row of ``LOAD_TABLE_SQL``, and
#: the column that is NULL when there is none.
SEAT_AT = TABLES.width
PREFS_AT = SEAT_AT + SEATS.width
SEAT_NUMBER = SEATS.fields.index("seat")
PREFS_USER = PREFS.fields.index("user_id")


#: Columns of each leaderboard order before the final ``user_id`` tie-break; they match the
#: ``player_stats_*`` indexes of migration 5 so a page is an index walk.
SORT_SPECS: dict[LeaderboardSort, tuple[tuple[str, Literal["ASC", "DESC"]], ...]] = {
    "rating": (("rating", "DESC"),),
    "wins": (("wins", "DESC"), ("games", "ASC")),
    "win_rate": (("win_rate", "DESC"), ("games", "DESC")),
}


def sort_spec(sort: str) -> tuple[tuple[str, Literal["ASC", "DESC"]], ...]:
    for known in LEADERBOARD_SORTS:
        if sort == known:
            return SORT_SPECS[known]
    raise ValueError(f"unknown leaderboard sort {sort!r}; expected one of {LEADERBOARD_SORTS}")


def ahead_conditions(sort: LeaderboardSort, me: PlayerStats) -> list[tuple[str, tuple[Any, ...]]]:
    """Disjoint conditions that together select the rows ranked before *me*.

    One COUNT per condition lets SQLite answer each with a range of the sort's index instead
    of evaluating an OR over the whole scope. A NULL rating sorts last (unrated players).
    """
    conditions: list[tuple[str, tuple[Any, ...]]] = []
    equal: list[str] = []
    equal_params: list[Any] = []
    for column, direction in (*sort_spec(sort), ("user_id", "ASC")):
        value = getattr(me, column)
        prefix = "".join(f"{e} AND " for e in equal)
        if value is None:  # only the rating can be NULL, and it sorts DESC
            conditions.append((f"{prefix}{column} IS NOT NULL", tuple(equal_params)))
            equal.append(f"{column} IS NULL")
            continue
        operator = ">" if direction == "DESC" else "<"
        conditions.append((f"{prefix}{column} {operator} ?", (*equal_params, value)))
        equal.append(f"{column} = ?")
        equal_params.append(value)
    return conditions


def stats_keys(game: GameRecord) -> list[tuple[RatingKey, GamePlayerRecord]]:
    """Every (scope, family, user) row a game updates: guild and global, variant and all."""
    scopes = dict.fromkeys((game.guild_id, GLOBAL_SCOPE))
    families = dict.fromkeys((game.variant, ALL_VARIANTS))
    return [
        ((scope, family, player.user_id), player)
        for player in game.players
        if player.user_id is not None and not player.is_computer
        for scope in scopes
        for family in families
    ]


def stats_rows(keys: list[tuple[RatingKey, GamePlayerRecord]]) -> list[tuple[Any, ...]]:
    """The parameters of the statistics upsert, one row per key (see ``PLAYER_STATS``)."""
    return [PLAYER_STATS.game_row(key, player) for key, player in keys]


def display(rating: SkillRating | None) -> float | None:
    return None if rating is None else rating.rating
