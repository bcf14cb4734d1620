"""Each stored record is declared once (``bot/storage/records.py``): its table's columns are the
schema's, and the statistics counters build the upsert and a game's row by name."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import SqliteStore
from bot.storage import queries as q
from bot.storage.base import GamePlayerRecord, PlayerStats
from bot.storage.records import Kind, StatsTable, Table, counter, counters

TABLES = [value for value in vars(q).values() if isinstance(value, Table)]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.name}:{t.record.__name__}")
async def test_every_declared_column_is_in_the_schema(tmp_path: Path, table: Table[object]) -> None:
    async with SqliteStore(tmp_path / "x.db"):
        pass
    conn = sqlite3.connect(tmp_path / "x.db")
    try:
        schema = {row[1] for row in conn.execute(f"PRAGMA table_info({table.name})")}
    finally:
        conn.close()
    assert schema, table.name
    assert set(table.names) <= schema, set(table.names) - schema


def test_every_player_stats_column_is_read() -> None:
    """A ``player_stats`` column the record does not declare would never be read back."""
    assert set(q.PLAYER_STATS.names) == {f.name for f in fields(PlayerStats)}


def test_a_row_is_read_by_name_in_the_order_the_table_lists() -> None:
    @dataclass(frozen=True)
    class Thing:
        id: int
        text_json: str
        done: bool
        at: datetime | None

    things = Table("things", Thing, columns={"text_json": "text"}, flags=("done",), times=("at",))
    assert things.columns("t") == "t.id, t.text, t.done, t.at"
    moment = datetime(2026, 1, 2, tzinfo=UTC)
    row = (7, "{}", 1, moment.isoformat())
    assert things.from_row(("x", *row), datetime.fromisoformat, 1) == Thing(7, "{}", True, moment)
    insert = things.insert([Thing(7, "{}", True, None)], lambda m: m.isoformat(), extra={"k": 3})
    assert insert.sql == "INSERT INTO things (k, id, text, done, at) VALUES (?, ?, ?, ?, ?)"
    assert tuple(insert.params) == (3, 7, "{}", True, None)
    upsert = things.upsert(
        [Thing(7, "{}", True, moment), Thing(8, "[]", False, None)],
        lambda m: m.isoformat(),
        key=("id",),
        update={"text_json": None, "done": "FALSE"},
        one_statement=True,
    )
    assert upsert.sql == (
        "INSERT INTO things (id, text, done, at) VALUES (?, ?, ?, ?), (?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET text = excluded.text, done = FALSE"
    )
    with pytest.raises(TypeError, match="no such field"):
        Table("things", Thing, flags=("missing",))


def test_the_statistics_upsert_is_built_from_the_counters() -> None:
    sql = q.PLAYER_STATS.game_upsert("GREATEST")
    names = ", ".join(["scope", "family", "user_id", *(n for n, _ in q.PLAYER_STATS.counters)])
    assert sql.startswith(f"INSERT INTO player_stats AS s ({names}) VALUES (")
    assert "games = s.games + excluded.games" in sql
    assert "best_opening = GREATEST(s.best_opening, excluded.best_opening)" in sql
    assert (
        "best_streak = GREATEST(s.best_streak, "
        "CASE WHEN excluded.streak = 1 THEN s.streak + 1 ELSE 0 END)"
    ) in sql
    assert "rated_games" not in sql and "mu" not in sql  # the rater sets those


def test_a_new_counter_is_one_declaration() -> None:
    """What adding a counter takes in today's code: its field, made with ``counter``."""

    @dataclass(frozen=True, slots=True)
    class More(PlayerStats):
        forfeits: int = counter(Kind.SUM, "forfeited")
        longest: int = counter(Kind.MAX, "score")

    table = StatsTable("player_stats", More, key=("scope", "family", "user_id"))
    assert [name for name, _ in counters(More)][-2:] == ["forfeits", "longest"]
    sql = table.game_upsert("MAX")
    assert "forfeits = s.forfeits + excluded.forfeits" in sql
    assert "longest = MAX(s.longest, excluded.longest)" in sql
    player = GamePlayerRecord(
        seat=0, user_id=5, is_computer=False, name="A", side=0, partner_id=None, place=1,
        won=True, forfeited=False, score=120, rounds=3, rounds_won=2, penalty_total=40,
        rami_sec=1, best_opening=51,
    )  # fmt: skip
    values = table.game_row((1, "all", 5), player)[3:]
    assert dict(zip([n for n, _ in counters(More)], values, strict=True)) == {
        "games": 1, "wins": 1, "win_rate": 1.0, "rounds": 3, "rounds_won": 2,
        "penalty_total": 40, "rami_sec": 1, "best_opening": 51, "streak": 1, "best_streak": 1,
        "forfeits": 0, "longest": 120,
    }  # fmt: skip
