"""Tests of both stores on real databases (a SQLite file, a PostgreSQL schema): migrations, the
version check, round trips. Tests taking ``store`` or ``store_url`` run once per store."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import (
    LATEST_VERSION,
    MIGRATIONS,
    LoadedTable,
    MessageRef,
    Migration,
    NewTable,
    NotADatabase,
    PlayerPrefs,
    SchemaTooNew,
    SeatRecord,
    SqliteStore,
    StaleVersion,
    Store,
    TableClosed,
    TableNotFound,
    TableStatus,
    make_store,
)
from bot.storage.migrations import apply_migrations, get_user_version
from bot.storage.migrations.postgres import (
    PG_MIGRATIONS,
    apply_pg_migrations,
    get_schema_version,
)
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import unless_busy

#: What a refused constraint raises, per driver.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

START = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


def ticking_clock(start: datetime = START) -> Callable[[], datetime]:
    """A deterministic clock that advances one second per call."""
    state = {"now": start}

    def now() -> datetime:
        state["now"] += timedelta(seconds=1)
        return state["now"]

    return now


@pytest.fixture
async def store(store_url: str | Path) -> AsyncIterator[Store]:
    async with make_store(store_url, clock=ticking_clock()) as opened:
        yield opened


def new_table(**overrides: object) -> NewTable:
    values: dict[str, object] = {
        "guild_id": 10,
        "channel_id": 20,
        "host_id": 30,
        "variant": "rummy51",
        "mode": "solo",
        "options_json": '{"rounds": 3}',
        "seed": 1234,
    }
    values.update(overrides)
    return NewTable(**values)  # type: ignore[arg-type]


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    """Every schema object of a database, normalised for comparison."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    return [(kind, name, " ".join((sql or "").split())) for kind, name, sql in rows]


# --- migrations ------------------------------------------------------------------------


def test_migrations_are_numbered_from_one() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert len(MIGRATIONS) == LATEST_VERSION


async def test_missing_file_is_created_at_newest(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with SqliteStore(path) as opened:
        assert await opened.schema_version() == LATEST_VERSION
    names = {name for _, name, _ in schema_of(path)}
    expected = {"tables", "seats", "moves", "message_refs", "meta", "guild_settings"}
    expected |= {"player_prefs"}
    assert expected <= names


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"", "empty"), (b"hello, this is a text file\n", "does not start like")],
)
async def test_a_file_that_is_not_a_database_is_refused_and_left_alone(
    tmp_path: Path, content: bytes, why: str
) -> None:
    path = tmp_path / "rummy.db"
    path.write_bytes(content)
    with pytest.raises(NotADatabase, match=why):
        await SqliteStore(path).open()
    assert path.read_bytes() == content
    assert not (tmp_path / "rummy.db-wal").exists()


@pytest.mark.parametrize("old_version", range(1, LATEST_VERSION))
async def test_every_older_schema_migrates_to_newest(tmp_path: Path, old_version: int) -> None:
    old = tmp_path / f"v{old_version}.db"
    async with aiosqlite.connect(old, isolation_level=None) as conn:
        before, after = await apply_migrations(conn, target=old_version)
        assert (before, after) == (0, old_version)
        assert await get_user_version(conn) == old_version
        if old_version >= 1:
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, variant, mode, "
                "created_at, updated_at) VALUES (1, 2, 3, 'active', 'v', 'm', ?, ?)",
                (START.isoformat(), START.isoformat()),
            )
            await conn.execute(
                "INSERT INTO moves (table_id, seq, action, events, created_at) "
                "VALUES (1, 1, '{}', '[]', ?)",
                (START.isoformat(),),
            )

    async with SqliteStore(old) as migrated:
        assert await migrated.schema_version() == LATEST_VERSION
        if old_version >= 1:
            tables = await migrated.list_active_tables()
            assert [t.id for t in tables] == [1]
            assert [m.seq for m in await migrated.list_moves(1)] == [1]
        # Tables added by later migrations are usable.
        await migrated.set_meta("k", "v")
        assert await migrated.get_meta("k") == "v"

    fresh = tmp_path / "fresh.db"
    async with SqliteStore(fresh):
        pass
    assert schema_of(old) == schema_of(fresh)


async def test_failed_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    broken = (
        *MIGRATIONS,
        Migration(
            LATEST_VERSION + 1,
            "half-broken",
            ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL"),
        ),
    )
    path = tmp_path / "broken.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError):
            await apply_migrations(conn, target=LATEST_VERSION + 1, migrations=broken)
        assert await get_user_version(conn) == LATEST_VERSION
        assert not conn.in_transaction
    assert "half_done" not in {name for _, name, _ in schema_of(path)}


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(SchemaTooNew):
        await SqliteStore(path).open()


def test_postgres_migrations_mirror_the_sqlite_ones() -> None:
    """Migration n means the same on both stores: a new SQLite migration needs its mirror."""
    assert [(m.version, m.description) for m in PG_MIGRATIONS] == [
        (m.version, m.description) for m in MIGRATIONS
    ]


async def pg_columns(url: str) -> dict[str, list[str]]:
    async with PostgresStore(url) as opened, opened._autocommit() as conn:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name <> 'schema_version' "
            "ORDER BY table_name, ordinal_position"
        )
    columns: dict[str, list[str]] = {}
    for table, column in rows:
        columns.setdefault(table, []).append(column)
    return columns


async def test_a_fresh_postgres_database_has_the_sqlite_tables_and_columns(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "fresh.db"
    async with SqliteStore(path):
        pass
    with sqlite3.connect(path) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        sqlite_columns = {
            table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }
    assert await pg_columns(postgres_url) == sqlite_columns


@pytest.mark.parametrize("old_version", range(1, LATEST_VERSION))
async def test_every_older_postgres_schema_migrates_to_newest(
    postgres_url: str, old_version: int
) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await apply_pg_migrations(conn, target=old_version) == (0, old_version)
        await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, status, variant, mode, "
            "created_at, updated_at) VALUES (1, 2, 3, 'active', 'v', 'm', $1, $1)",
            START,
        )
        await conn.execute(
            "INSERT INTO moves (table_id, seq, action, events, created_at) "
            "VALUES (1, 1, '{}', '[]', $1)",
            START,
        )
    finally:
        await conn.close()
    async with PostgresStore(postgres_url) as migrated:
        assert await migrated.schema_version() == LATEST_VERSION
        assert [t.id for t in await migrated.list_active_tables()] == [1]
        assert [m.seq for m in await migrated.list_moves(1)] == [1]
        created = await migrated.create_table(new_table())
        assert created.id == 2, "the identity continues after rows inserted by id"


async def test_a_failed_postgres_migration_leaves_the_previous_version(postgres_url: str) -> None:
    broken = (
        *PG_MIGRATIONS,
        Migration(
            LATEST_VERSION + 1,
            "half-broken",
            ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL"),
        ),
    )
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.PostgresSyntaxError):
            await apply_pg_migrations(conn, target=LATEST_VERSION + 1, migrations=broken)
        assert await get_schema_version(conn) == LATEST_VERSION
        assert not conn.is_in_transaction()
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
    finally:
        await conn.close()


async def test_a_newer_postgres_schema_is_refused(postgres_url: str) -> None:
    async with PostgresStore(postgres_url) as opened, opened._write() as conn:
        await conn.execute("UPDATE schema_version SET version = $1", LATEST_VERSION + 1)
    with pytest.raises(SchemaTooNew):
        await PostgresStore(postgres_url).open()


async def test_two_processes_migrating_at_once_apply_each_step_once(postgres_url: str) -> None:
    stores = [PostgresStore(postgres_url) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [await s.schema_version() for s in stores] == [LATEST_VERSION] * 3
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_connection_pragmas(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "rummy.db") as store:
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("synchronous") == "2"  # FULL
        assert await store.pragma("foreign_keys") == "1"
        assert int(await store.pragma("busy_timeout")) == 5000


def test_both_stores_satisfy_the_protocol(tmp_path: Path) -> None:
    assert isinstance(SqliteStore(tmp_path / "x.db"), Store)
    assert isinstance(PostgresStore("postgresql://127.0.0.1/x"), Store)


# --- tables and moves ---------------------------------------------------------------------


async def test_create_and_get_table(store: Store) -> None:
    created = await store.create_table(new_table())
    assert created.version == 0
    assert created.snapshot_json is None
    assert created.status == "lobby"
    assert created.created_at.tzinfo is not None
    assert await store.get_table(created.id) == created
    assert await store.get_table(created.id + 1) is None


async def test_move_log_round_trip(store: Store) -> None:
    table = await store.create_table(new_table())
    version = table.version
    for n in range(1, 6):
        status: TableStatus | None = "active" if n == 1 else None
        version = await store.commit_move(
            table.id,
            version,
            30 + n,
            f'{{"a": {n}}}',
            f'[{{"e": {n}}}]',
            f'{{"s": {n}}}',
            status=status,
        )
        assert version == n
    moves = await store.list_moves(table.id)
    assert [m.seq for m in moves] == [1, 2, 3, 4, 5]
    assert [m.actor_id for m in moves] == [31, 32, 33, 34, 35]
    assert moves[2].action_json == '{"a": 3}'
    assert moves[2].events_json == '[{"e": 3}]'
    assert moves[0].created_at < moves[-1].created_at
    assert [m.seq for m in await store.list_moves(table.id, after_seq=3)] == [4, 5]
    stored = await store.get_table(table.id)
    assert stored is not None
    assert stored.version == 5
    assert stored.snapshot_json == '{"s": 5}'
    assert stored.status == "active"
    assert stored.updated_at > table.updated_at


async def test_the_last_human_move_is_the_last_one_a_person_made(store: Store) -> None:
    table = await store.create_table(new_table())
    assert await store.last_human_move_at(table.id) is None
    version = table.version
    for actor in (31, 32, None, None):  # two people, then a computer and a timer
        version = await store.commit_move(table.id, version, actor, "{}", "[]", "{}")
    moves = await store.list_moves(table.id)
    assert await store.last_human_move_at(table.id) == moves[1].created_at
    assert moves[1].created_at < moves[3].created_at
    assert await store.last_human_move_at(table.id + 1) is None


async def test_stale_version_is_refused_and_writes_nothing(store: Store) -> None:
    table = await store.create_table(new_table())
    assert await store.commit_move(table.id, 0, 1, '"first"', "[]", '"after first"') == 1
    with pytest.raises(StaleVersion) as caught:
        await store.commit_move(table.id, 0, 2, '"second"', "[]", '"after second"')
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    with pytest.raises(StaleVersion):
        await store.commit_move(table.id, 5, 2, '"ahead"', "[]", '"ahead"')
    stored = await store.get_table(table.id)
    assert stored is not None
    assert (stored.version, stored.snapshot_json) == (1, '"after first"')
    assert [m.action_json for m in await store.list_moves(table.id)] == ['"first"']


async def test_racing_moves_on_one_version_only_one_wins(store: Store) -> None:
    table = await store.create_table(new_table())
    results = await asyncio.gather(
        *(store.commit_move(table.id, 0, n, f'"m{n}"', "[]", f'"s{n}"') for n in range(20)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if r == 1) == 1
    assert sum(1 for r in results if isinstance(r, StaleVersion)) == 19
    assert len(await store.list_moves(table.id)) == 1


async def test_version_check_holds_across_connections(store_url: str | Path) -> None:
    async with make_store(store_url) as first, make_store(store_url) as second:
        table = await first.create_table(new_table())
        assert await second.commit_move(table.id, 0, 1, "1", "[]", '"second"') == 1
        with pytest.raises(StaleVersion):
            await first.commit_move(table.id, 0, 2, "2", "[]", '"first"')
        reloaded = await first.get_table(table.id)
        assert reloaded is not None
        assert reloaded.snapshot_json == '"second"'


async def test_finishing_move_closes_the_table(store: Store) -> None:
    table = await store.create_table(new_table(status="active"))
    await store.commit_move(table.id, 0, 1, "1", "[]", '"end"', status="finished")
    finished = await store.get_table(table.id)
    assert finished is not None
    assert finished.status == "finished"
    assert finished.finished_at is not None
    with pytest.raises(TableClosed):
        await store.commit_move(table.id, 1, 1, "2", "[]", '"more"')
    assert await store.list_active_tables() == []


async def test_unknown_table(store: Store) -> None:
    with pytest.raises(TableNotFound):
        await store.commit_move(404, 0, 1, "1", "[]", "{}")
    with pytest.raises(TableNotFound):
        await store.update_table_status(404, "cancelled")
    with pytest.raises(TableNotFound):
        await store.set_seats(404, [SeatRecord(0, 1)])


async def test_status_and_active_listing(store: Store) -> None:
    lobby = await store.create_table(new_table())
    active = await store.create_table(new_table(guild_id=11, status="active"))
    done = await store.create_table(new_table())
    cancelled = await store.update_table_status(done.id, "cancelled")
    assert cancelled.status == "cancelled"
    assert cancelled.finished_at is not None
    assert [t.id for t in await store.list_active_tables()] == [lobby.id, active.id]
    assert [t.id for t in await store.list_active_tables(guild_id=11)] == [active.id]
    with pytest.raises(ValueError):
        await store.update_table_status(lobby.id, "paused")  # type: ignore[arg-type]
    options = await store.set_table_setting(lobby.id, "options", '{"rounds": 5}')
    assert options.options_json == '{"rounds": 5}'


async def test_lobby_settings_are_one_column_each(store: Store) -> None:
    lobby = await store.create_table(new_table())
    french = await store.set_table_setting(lobby.id, "locale", "fr")
    assert (french.locale, french.options_json) == ("fr", lobby.options_json)
    assert french.revision == lobby.revision + 1
    back = await store.set_table_setting(lobby.id, "locale", None)
    assert back.locale is None and back.revision == lobby.revision + 2
    # The setting is spelled into the SQL, so only a known column is accepted.
    with pytest.raises(ValueError, match="unknown table setting"):
        await store.set_table_setting(lobby.id, "status", "finished")  # type: ignore[arg-type]
    assert (await store.get_table(lobby.id)) == back
    with pytest.raises(TableNotFound):
        await store.set_table_setting(404, "locale", "fr")


async def test_seats_are_replaced_as_a_whole(store: Store) -> None:
    table = await store.create_table(new_table())
    await store.set_seats(table.id, [SeatRecord(0, 100), SeatRecord(1, 200, team=1)])
    await store.set_seats(
        table.id, [SeatRecord(1, 200, team=0), SeatRecord(0, None, is_computer=True, team=1)]
    )
    assert await store.get_seats(table.id) == [
        SeatRecord(0, None, is_computer=True, team=1),
        SeatRecord(1, 200, team=0),
    ]
    with pytest.raises(INTEGRITY_ERRORS):
        await store.set_seats(table.id, [SeatRecord(0, None, is_computer=False)])
    # The failed replacement was rolled back: the previous seats are intact.
    assert len(await store.get_seats(table.id)) == 2


async def test_loading_a_table_reads_its_seats_and_their_players_preferences(
    store: Store,
) -> None:
    table = await store.create_table(new_table())
    assert await store.load_table(table.id) == LoadedTable(table, (), {})
    picky = PlayerPrefs(user_id=200, four_colour=True, hand_sort="melds", locale="fr")
    await store.set_player_prefs(picky)
    await store.set_player_prefs(PlayerPrefs(user_id=999, dm_closed=True))  # not seated
    seats = [SeatRecord(0, 100), SeatRecord(1, None, is_computer=True), SeatRecord(2, 200)]
    await store.set_seats(table.id, seats)
    loaded = await store.load_table(table.id)
    assert loaded is not None
    assert loaded.record == await store.get_table(table.id)
    assert loaded.seats == tuple(await store.get_seats(table.id))
    assert loaded.prefs == {100: PlayerPrefs(user_id=100), 200: picky}
    assert await store.load_table(table.id + 1) is None


async def test_the_dm_channel_and_the_preferences_are_set_apart(store: Store) -> None:
    """The bot stores a player's DM channel while the player may be changing a preference:
    neither write undoes the other, and a new player's row keeps the defaults."""
    await store.set_dm_channel(300, 555)
    assert await store.get_player_prefs(300) == PlayerPrefs(user_id=300, dm_channel_id=555)
    await store.set_player_prefs(PlayerPrefs(user_id=300, four_colour=True))
    assert await store.get_player_prefs(300) == PlayerPrefs(
        300, four_colour=True, dm_channel_id=555
    )
    await store.set_dm_channel(300, None)
    assert await store.get_player_prefs(300) == PlayerPrefs(user_id=300, four_colour=True)
    await store.set_dm_channel(301, 2**62)  # Discord ids need 64 bits
    table = await store.create_table(new_table())
    await store.set_seats(table.id, [SeatRecord(0, 301), SeatRecord(1, 300)])
    loaded = await store.load_table(table.id)
    assert loaded is not None
    assert loaded.prefs[301].dm_channel_id == 2**62


def test_a_read_that_finds_the_file_locked_gives_way_instead_of_waiting(tmp_path: Path) -> None:
    """A move's load reads on the event loop's own connection, which must never wait for a
    lock (that would stop the loop): a locked file makes it give way (the load then goes
    through the database thread, which waits its turn), and any other error still raises."""
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("PRAGMA busy_timeout = 0")
    holder.execute("BEGIN EXCLUSIVE")
    assert unless_busy(lambda: reader.execute("SELECT x FROM t").fetchall()) == (False, None)
    holder.execute("COMMIT")
    assert unless_busy(lambda: reader.execute("SELECT x FROM t").fetchall()) == (True, [])
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        unless_busy(lambda: reader.execute("SELECT x FROM missing").fetchall())
    holder.close()
    reader.close()


# --- messages, settings, preferences, stats, meta ---------------------------------------


async def test_message_refs_upsert_and_delete(store: Store) -> None:
    table = await store.create_table(new_table())
    await store.set_message_ref(MessageRef(table.id, "table", 20, 1))
    await store.set_message_ref(MessageRef(table.id, "turn_notice", 20, 2))
    await store.set_message_ref(MessageRef(table.id, "table", 21, 3))
    assert await store.get_message_refs(table.id) == [
        MessageRef(table.id, "table", 21, 3),
        MessageRef(table.id, "turn_notice", 20, 2),
    ]
    await store.delete_message_ref(table.id, "turn_notice")
    assert await store.get_message_refs(table.id) == [MessageRef(table.id, "table", 21, 3)]


async def test_guild_settings(store: Store) -> None:
    assert await store.get_guild_setting(1, "locale") is None
    await store.set_guild_setting(1, "locale", "fr")
    await store.set_guild_setting(1, "locale", "en")
    await store.set_guild_setting(2, "locale", "fr")
    assert await store.get_guild_setting(1, "locale") == "en"
    await store.set_guild_setting(1, "locale", None)
    assert await store.get_guild_setting(1, "locale") is None
    assert await store.get_guild_setting(2, "locale") == "fr"


async def test_player_prefs(store: Store) -> None:
    assert await store.get_player_prefs(7) == PlayerPrefs(user_id=7)
    prefs = PlayerPrefs(user_id=7, dm_closed=True, four_colour=True, hand_sort="rank", locale="fr")
    await store.set_player_prefs(prefs)
    assert await store.get_player_prefs(7) == prefs
    await store.set_player_prefs(PlayerPrefs(user_id=7))
    assert await store.get_player_prefs(7) == PlayerPrefs(user_id=7)


async def test_meta(store: Store) -> None:
    assert await store.get_meta("command_tree_hash") is None
    await store.set_meta("command_tree_hash", "abc")
    await store.set_meta("command_tree_hash", "def")
    assert await store.get_meta("command_tree_hash") == "def"


async def test_data_survives_reopening(store_url: str | Path) -> None:
    async with make_store(store_url) as first:
        table = await first.create_table(new_table())
        await first.commit_move(table.id, 0, 1, "1", "[]", '"s1"')
    async with make_store(store_url) as second:
        reopened = await second.get_table(table.id)
        assert reopened is not None
        assert reopened.version == 1


async def test_naive_clock_is_rejected(store_url: str | Path) -> None:
    async with make_store(store_url, clock=lambda: datetime(2025, 1, 1)) as naive:
        with pytest.raises(ValueError):
            await naive.create_table(new_table())


async def test_closed_store_refuses_work(store_url: str | Path) -> None:
    closed = make_store(store_url)
    await closed.open()
    await closed.close()
    await closed.close()  # closing twice is harmless
    assert not closed.is_open
    with pytest.raises(Exception, match="not open"):
        await closed.get_meta("x")


async def test_mark_published_stores_refs_and_never_goes_back(store: Store) -> None:
    table = await store.create_table(new_table())
    await store.commit_move(table.id, 0, 1, "1", "[]", '"s1"')
    assert [t.id for t in await store.list_unpublished_tables()] == [table.id]
    refs = [MessageRef(table.id, "table", 20, 1, "a", 2), MessageRef(table.id, "hand:1", 5, 2)]
    await store.mark_published(table.id, 2, refs)
    assert await store.list_unpublished_tables() == []
    await store.mark_published(table.id, 1, [MessageRef(table.id, "table", 20, 7, "b", 1)])
    stored = await store.get_table(table.id)
    assert stored is not None and stored.published == 2, "an older publication never wins"
    assert await store.get_message_refs(table.id) == [
        MessageRef(table.id, "hand:1", 5, 2),
        MessageRef(table.id, "table", 20, 7, "b", 1),
    ]
    await store.mark_published(table.id, 2)  # no references: only the revision
