"""Store-independent pieces of the SQLite and PostgreSQL stores: column lists, the leaderboard
orders and the rows a finished game adds to the statistics.

Why one module: both stores must rank, count and record exactly alike (the copy between them and
the tests on both depend on it), so the logic that does not depend on the SQL dialect lives here
once. Conditions use ``?`` placeholders; the PostgreSQL driver numbers them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from bot.storage.base import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    LEADERBOARD_SORTS,
    TABLE_SETTINGS,
    TABLE_STATUSES,
    GamePlayerRecord,
    GameRecord,
    GameRoundRecord,
    LeaderboardSort,
    LoadedTable,
    PlayerPrefs,
    PlayerStats,
    RatingKey,
    SeatRecord,
    SkillRating,
    TableRecord,
    TableSetting,
    TableStatus,
)


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


TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, variant, mode, options, seed, snapshot, "
    "version, created_at, updated_at, finished_at, revision, published, locale, closed_reason, "
    "thread_id"
)
#: How many columns a table row has (where a seat's columns follow them in a join).
TABLE_WIDTH = len(TABLE_COLUMNS.split(","))
SEAT_COLUMNS = "seat, user_id, is_computer, team, name, strength, timeouts"
SEAT_WIDTH = len(SEAT_COLUMNS.split(","))
#: A seated player's preferences, as the table load reads them (after the seat's columns).
PREFS_COLUMNS = "dm_closed, four_colour, hand_sort, locale, dm_channel_id"


#: When a person (not a computer, not a timer) last made a move at table ?.
LAST_HUMAN_MOVE_SQL = (
    "SELECT created_at FROM moves WHERE table_id = ? AND actor_id IS NOT NULL "
    "ORDER BY seq DESC LIMIT 1"
)


def prefs_from_row(user_id: int, row: Sequence[Any] | None) -> PlayerPrefs:
    """A user's stored preferences (``PREFS_COLUMNS``), or the defaults when there is no row
    (or, in an outer join, a row of NULLs)."""
    if row is None or row[0] is None:
        return PlayerPrefs(user_id=user_id)
    return PlayerPrefs(user_id, bool(row[0]), bool(row[1]), row[2], row[3], row[4])


def seat_from_row(r: Sequence[Any]) -> SeatRecord:
    """A seat of ``SEAT_COLUMNS`` (flags are 0/1 in SQLite, booleans in PostgreSQL)."""
    return SeatRecord(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6])


def player_from_row(row: Sequence[Any]) -> GamePlayerRecord:
    """A recorded player of ``PLAYER_COLUMNS``."""
    seat, user_id, is_computer, name, side, partner_id, place, won, forfeited, *counts = row
    score, rounds, rounds_won, penalty_total, rami_sec, best_opening = counts
    return GamePlayerRecord(
        seat,
        user_id,
        bool(is_computer),
        name,
        side,
        partner_id,
        place,
        bool(won),
        bool(forfeited),
        score,
        rounds,
        rounds_won,
        penalty_total,
        rami_sec,
        best_opening,
    )


def game_from_row(
    row: Sequence[Any],
    moment: Callable[[Any], datetime],
    players: tuple[GamePlayerRecord, ...],
    rounds: tuple[GameRoundRecord, ...] = (),
) -> GameRecord:
    """A recorded game of ``id, GAME_COLUMNS``; *moment* reads the store's time column."""
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
        rated=bool(row[9]),
        started_at=moment(row[10]),
        ended_at=moment(row[11]),
        players=players,
        rounds=rounds,
    )


def loaded_table(record: TableRecord, rows: Sequence[Sequence[Any]]) -> LoadedTable:
    """The table of ``LOAD_TABLE_SQL``'s ``rows``: each row's seat (``SEAT_COLUMNS``) and its
    player's preferences; a seatless table has one row of NULL seat columns."""
    seated = [row[TABLE_WIDTH:] for row in rows if row[TABLE_WIDTH] is not None]
    seats = tuple(seat_from_row(r[:SEAT_WIDTH]) for r in seated)
    prefs = {
        seat.user_id: prefs_from_row(seat.user_id, r[SEAT_WIDTH:])
        for seat, r in zip(seats, seated, strict=True)
        if seat.user_id is not None
    }
    return LoadedTable(record, seats, prefs)


def qualified(columns: str, alias: str) -> str:
    """``columns`` each prefixed with a table alias, for a join."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


#: A move's one read: the table's columns repeated on each of its seats (once if seatless),
#: each seat followed by its player's preferences (NULLs when they have none).
LOAD_TABLE_SQL = (
    f"SELECT {qualified(TABLE_COLUMNS, 't')}, {qualified(SEAT_COLUMNS, 's')}, "
    f"{qualified(PREFS_COLUMNS, 'p')} FROM tables t LEFT JOIN seats s ON s.table_id = t.id "
    "LEFT JOIN player_prefs p ON p.user_id = s.user_id WHERE t.id = ? ORDER BY s.seat"
)


#: Columns of a stored game, in :class:`GameRecord` order (after ``id``).
GAME_COLUMNS = (
    "table_id, guild_id, channel_id, variant, mode, options, winner_sides, scores, rated, "
    "started_at, ended_at"
)
PLAYER_COLUMNS = (
    "seat, user_id, is_computer, name, side, partner_id, place, won, forfeited, score, rounds, "
    "rounds_won, penalty_total, rami_sec, best_opening"
)
STATS_COLUMNS = (
    "scope, family, user_id, games, wins, win_rate, rated_games, mu, sigma, rating, rounds, "
    "rounds_won, penalty_total, rami_sec, best_opening, streak, best_streak"
)
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


def stats_rows(
    game: GameRecord, keys: list[tuple[RatingKey, GamePlayerRecord]]
) -> list[tuple[Any, ...]]:
    del game  # the keys already carry what the counters need
    return [
        (
            *key,
            int(p.won),
            float(p.won),
            p.rounds,
            p.rounds_won,
            p.penalty_total,
            p.rami_sec,
            p.best_opening,
            int(p.won),
            int(p.won),
        )
        for key, p in keys
    ]


def display(rating: SkillRating | None) -> float | None:
    return None if rating is None else rating.rating
