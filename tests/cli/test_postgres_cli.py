"""The command line on PostgreSQL: ``migrate`` and ``doctor`` against a real server, and
``copy-db`` moving a real SQLite database (games played by the table service, a finished and
rated one included) into PostgreSQL and back, checked row by row."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from bot.cli import main
from bot.config import SETTING_NAMES
from bot.features.play.tables import TableService
from bot.features.stats.service import StatsService
from bot.storage import (
    LATEST_VERSION,
    Deadline,
    MessageRef,
    PlayerPrefs,
    Store,
    make_store,
    utc_now,
)
from bot.storage.base import SeasonRecord
from rummy_engine import Phase, Variant
from rummy_engine.strategy import choose_action
from tests.cli.test_config import fake_token

GUILD = 5
HOST, GUEST = 101, 102


@pytest.fixture
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- migrate and doctor -------------------------------------------------------------------


async def server_version(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SHOW server_version")).split(" ", 1)[0]
    finally:
        await conn.close()



def test_migrate_on_postgres_reports_the_versions(
    no_settings: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("RUMMY_DATABASE", postgres_url)
    assert main(["migrate"]) == 0
    assert f"0 -> {LATEST_VERSION}" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert "already at the newest" in capsys.readouterr().out
    assert not (no_settings / "rummy.db").exists(), "no SQLite file when a URL is given"


def test_doctor_on_postgres_connects_and_tries_a_write(
    no_settings: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    monkeypatch.setenv("RUMMY_DATABASE", postgres_url)
    assert main(["migrate"]) == 0
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    reported = asyncio.run(server_version(postgres_url))  # "15.18", asyncpg's tuple read "15.0"
    assert f"Connected to PostgreSQL {reported}." in out
    assert "rolled back" in out
    assert f"Schema version {LATEST_VERSION}" in out
    assert "Everything looks fine." in out


def test_doctor_names_an_unreachable_server_without_its_password(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    monkeypatch.setenv("RUMMY_DATABASE", "postgresql://bot:s3cret@127.0.0.1:9/rummy")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "Cannot connect to PostgreSQL" in out
    assert "s3cret" not in out and "bot:***@127.0.0.1:9" in out


# --- copy-db --------------------------------------------------------------------------------


async def play(tables: TableService, table_id: int, rng: random.Random, moves: int) -> None:
    """Play up to *moves* actions chosen by the engine's simple player (rounds included)."""
    for _ in range(moves):
        table = await tables.load(table_id)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return
        if game.phase is Phase.ROUND_OVER:
            await tables.next_round(table_id, HOST)
            continue
        user = table.user_at(game.current)
        assert user is not None
        await tables.act(table_id, user, lambda g, _seat: choose_action(g, rng))


async def fill(store: Store) -> None:
    """A finished rated game, a game in progress, a lobby, and the odd rows around them."""
    stats = StatsService(store)
    tables = TableService(store, on_game_finished=stats.on_game_finished)
    rng = random.Random(3)
    for channel, moves in ((1, 100_000), (2, 40)):
        table = await tables.open_table(GUILD, channel, HOST, Variant.SIMPLE, "1v1")
        await tables.join(table.id, GUEST)
        await tables.start(table.id, HOST)
        await play(tables, table.id, rng, moves)
    lobby = await tables.open_table(GUILD, 3, HOST, Variant.R51, "1v1")
    await store.set_message_ref(MessageRef(lobby.id, "table", 3, 999, "stamp", 1))
    await store.arm_deadlines(lobby.id, [Deadline(lobby.id, "lobby_idle", utc_now(), "v1")])
    await store.set_guild_setting(GUILD, "locale", "fr")
    await store.set_player_prefs(PlayerPrefs(HOST, dm_closed=True, hand_sort="rank", locale="fr"))
    await store.set_meta("command_tree_hash", "abc")
    for posted, start in (
        (True, datetime(2026, 1, 1, tzinfo=UTC)),
        (False, datetime(2026, 2, 1, 5, 30, 0, 250, tzinfo=UTC)),  # a restart's start
    ):
        week = SeasonRecord(GUILD, start, start + timedelta(days=7), "7d", 1, posted)
        await store.add_season(week)


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of a SQLite file, in a stable order."""
    with sqlite3.connect(path) as conn:
        names = [n for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )]
        return {n: sorted(conn.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr) for n in names}


async def test_copy_db_moves_sqlite_into_postgres_and_back(
    no_settings: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    original = no_settings / "original.db"
    async with make_store(original) as store:
        await fill(store)
        assert len(await store.list_active_tables()) == 2, "a game in progress and a lobby"
        assert await store.get_game_record(1) is not None, "the first game finished and counted"

    assert await run_main(["copy-db", str(original), postgres_url]) == 0
    out = capsys.readouterr().out
    assert "Table moves:" in out and "the same in both databases" in out
    assert "Open games replayed move by move through the rules on the copy: 1" in out
    assert "every count and every replay agrees" in out

    async with make_store(original) as before, make_store(postgres_url) as after:
        for table_id in (1, 2, 3):
            assert await after.get_table(table_id) == await before.get_table(table_id)
            assert await after.get_seats(table_id) == await before.get_seats(table_id)
            assert await after.list_moves(table_id) == await before.list_moves(table_id)
            assert await after.get_deadlines(table_id) == await before.get_deadlines(table_id)
            assert await after.get_message_refs(table_id) == await before.get_message_refs(
                table_id
            )
        assert await after.get_game_record(1) == await before.get_game_record(1)
        for sort in ("rating", "wins", "win_rate"):
            assert await after.leaderboard_page(GUILD, "all", sort, 0, 10) == (
                await before.leaderboard_page(GUILD, "all", sort, 0, 10)
            )
        assert await after.get_player_prefs(HOST) == await before.get_player_prefs(HOST)
        assert await after.get_guild_setting(GUILD, "locale") == "fr"
        assert await after.season_rows(GUILD) == await before.season_rows(GUILD)
        assert len(await before.season_rows(GUILD)) == 2
        fresh = await after.list_active_tables()
        assert [t.id for t in fresh] == [2, 3]

    back = no_settings / "back.db"
    assert await run_main(["copy-db", postgres_url, str(back)]) == 0
    assert dump(back) == dump(original), "SQLite -> PostgreSQL -> SQLite changes no value"


async def test_new_rows_continue_after_the_copied_ids(
    no_settings: Path, postgres_url: str
) -> None:
    original = no_settings / "original.db"
    async with make_store(original) as store:
        await fill(store)
    assert await run_main(["copy-db", str(original), postgres_url]) == 0
    async with make_store(postgres_url) as copied:
        tables = TableService(copied)
        table = await tables.open_table(GUILD, 4, HOST, Variant.R51, "1v1")
        assert table.id == 4


async def test_copy_db_refuses_a_target_that_holds_data(
    no_settings: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    original = no_settings / "original.db"
    async with make_store(original) as store:
        await fill(store)
    async with make_store(postgres_url) as target:
        await target.set_meta("something", "here")
    assert await run_main(["copy-db", str(original), postgres_url]) == 1
    err = capsys.readouterr().err
    assert "is not empty (the table meta has 1 row), so nothing was copied" in err
    async with make_store(postgres_url) as target:
        assert await target.list_active_tables() == []


async def test_copy_db_refuses_a_missing_source(
    no_settings: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_main(["copy-db", str(no_settings / "nope.db"), postgres_url]) == 1
    assert "does not exist; nothing was copied" in capsys.readouterr().err
    assert not (no_settings / "nope.db").exists()


async def test_copy_db_finds_a_game_whose_log_does_not_lead_to_its_position(
    no_settings: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    original = no_settings / "original.db"
    async with make_store(original) as store:
        await fill(store)
    with sqlite3.connect(original) as conn:  # the open game's last move goes missing
        conn.execute("DELETE FROM moves WHERE table_id = 2 AND seq = (SELECT MAX(seq) "
                     "FROM moves WHERE table_id = 2)")
    assert await run_main(["copy-db", str(original), postgres_url]) == 1
    out = capsys.readouterr().out
    assert "Table moves:" in out and "Table #2: its moves replayed on the copy" in out
    assert "do not switch to it" in out


async def run_main(argv: list[str]) -> int:
    """``main`` runs its own event loop; run it in a thread, away from the test's loop."""
    return await asyncio.to_thread(main, argv)


def test_copy_db_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "copy-db" in capsys.readouterr().out


async def test_copied_postgres_schema_is_the_newest(postgres_url: str, no_settings: Path) -> None:
    original = no_settings / "original.db"
    async with make_store(original):
        pass
    assert await run_main(["copy-db", str(original), postgres_url]) == 0
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == LATEST_VERSION
    finally:
        await conn.close()
