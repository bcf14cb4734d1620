"""The Discord client's own logic, with real discord.py objects and no network.

Only ``CommandTree.sync`` (the HTTP call to Discord) is replaced, by a recorder.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.app import (
    UNREAD_EVENTS,
    RummyBot,
    command_tree_hash,
    hear_deletions,
    invite_url,
    make_intents,
)
from bot.config import Settings
from bot.services.inflight import InFlight, ShuttingDown
from bot.storage import NewTable, SqliteStore

GUILD_ID = 987654321098765432
REPO_ROOT = Path(__file__).resolve().parents[2]


def make_bot(tmp_path: Path, **settings: Any) -> RummyBot:
    store = SqliteStore(tmp_path / "bot.db")
    bot = RummyBot(Settings(database=store.path, drawing_processes=0, **settings), store)
    bot._connection.application_id = 42  # normally learned at login
    return bot


def record_syncs(bot: RummyBot, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Replace the HTTP sync with a recorder of the scopes synced."""
    calls: list[int | None] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        calls.append(None if guild is None else guild.id)
        return []

    monkeypatch.setattr(bot.tree, "sync", fake_sync)
    return calls


def add_command(tree: app_commands.CommandTree[Any], name: str, description: str) -> None:
    async def callback(interaction: discord.Interaction) -> None:
        """Unused."""

    tree.add_command(app_commands.Command(name=name, description=description, callback=callback))


def test_intents_are_not_privileged() -> None:
    intents = make_intents()
    assert not intents.message_content
    assert not intents.members
    assert not intents.presences
    assert intents.guilds
    # the servers' message events, for a deleted table message; not the DMs'
    assert intents.guild_messages and not intents.dm_messages
    assert not intents.typing and not intents.reactions


def test_created_and_edited_messages_are_left_unparsed(tmp_path: Path) -> None:
    """With the servers' message events comes one for every message created or edited, in every
    channel: none is parsed (a fifth of a move's CPU under load), deletions are heard."""
    bot = make_bot(tmp_path)
    heard: list[int] = []
    bot.reconciler.deleted = heard.extend  # type: ignore[method-assign]
    hear_deletions(bot, bot.reconciler.deleted)
    parsers = bot._connection.parsers
    for event in UNREAD_EVENTS:
        parsers[event]({"id": "1", "channel_id": "2", "author": {}})  # nothing read from it
    parsers["MESSAGE_DELETE"]({"id": "5", "channel_id": "2", "guild_id": "3"})
    parsers["MESSAGE_DELETE_BULK"]({"ids": ["6", "7"], "channel_id": "2", "guild_id": "3"})
    assert heard == [5, 6, 7]


def test_invite_url_has_scopes_and_permissions() -> None:
    url = invite_url(42)
    assert "client_id=42" in url
    assert "scope=bot+applications.commands" in url
    permissions = discord.Permissions(int(url.split("permissions=")[1].split("&")[0]))
    assert permissions.send_messages and permissions.attach_files and permissions.embed_links
    assert permissions.create_public_threads  # issue 27: a table may open its own thread
    assert not permissions.administrator and not permissions.manage_messages


async def test_command_tree_hash_is_stable_and_sensitive(tmp_path: Path) -> None:
    first, second = make_bot(tmp_path), make_bot(tmp_path)
    add_command(first.tree, "play", "Open a table")
    add_command(first.tree, "rules", "Show the rules")
    add_command(second.tree, "rules", "Show the rules")
    add_command(second.tree, "play", "Open a table")
    digest = await command_tree_hash(first.tree)
    assert digest == await command_tree_hash(second.tree)  # order does not matter
    assert digest == await command_tree_hash(first.tree)

    add_command(second.tree, "stats", "Show statistics")
    assert await command_tree_hash(second.tree) != digest

    third = make_bot(tmp_path)
    add_command(third.tree, "play", "Open a table!")
    add_command(third.tree, "rules", "Show the rules")
    assert await command_tree_hash(third.tree) != digest


async def test_sync_only_when_changed_or_forced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot(tmp_path)
    calls = record_syncs(bot, monkeypatch)
    add_command(bot.tree, "play", "Open a table")
    await bot.store.open()
    try:
        assert await bot.sync_commands_if_changed() is True
        assert await bot.sync_commands_if_changed() is False
        add_command(bot.tree, "rules", "Show the rules")
        assert await bot.sync_commands_if_changed() is True
        assert await bot.sync_commands_if_changed(force=True) is True
        assert calls == [None, None, None]
    finally:
        await bot.store.close()

    # A restart with the same commands does not sync again: the hash is in the database.
    restarted = make_bot(tmp_path)
    restarted_calls = record_syncs(restarted, monkeypatch)
    add_command(restarted.tree, "rules", "Show the rules")
    add_command(restarted.tree, "play", "Open a table")
    await restarted.store.open()
    try:
        assert await restarted.sync_commands_if_changed() is False
        assert restarted_calls == []
    finally:
        await restarted.store.close()


async def test_dev_guild_gets_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = make_bot(tmp_path, dev_guild_id=GUILD_ID)
    calls = record_syncs(bot, monkeypatch)
    add_command(bot.tree, "play", "Open a table")
    await bot.store.open()
    try:
        assert await bot.sync_commands_if_changed() is True
        assert calls == [GUILD_ID]
        assert [c.name for c in bot.tree.get_commands(guild=discord.Object(GUILD_ID))] == ["play"]
        assert await bot.sync_commands_if_changed() is False
    finally:
        await bot.store.close()


async def test_setup_hook_opens_store_and_restores_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with SqliteStore(tmp_path / "bot.db") as store:
        await store.create_table(NewTable(1, 2, 3, "r51", "1v1", status="active"))
        await store.create_table(NewTable(1, 2, 3, "r51", "1v1"))
    (tmp_path / "fake_cog.py").write_text(
        "async def setup(bot):\n    bot.store_was_open_for_cog = bot.store.is_open\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    store = SqliteStore(tmp_path / "bot.db")
    bot = RummyBot(Settings(database=store.path), store, extensions=("fake_cog",))
    bot._connection.application_id = 42
    record_syncs(bot, monkeypatch)
    restored: list[int] = []
    original = bot.restore_active_tables

    async def spy() -> Any:
        tables = await original()
        restored.extend(t.id for t in tables)
        return tables

    monkeypatch.setattr(bot, "restore_active_tables", spy)
    await bot.setup_hook()
    assert restored == [1, 2]
    assert "fake_cog" in bot.extensions
    assert bot.store_was_open_for_cog is True  # type: ignore[attr-defined]
    await bot.close()
    assert not bot.store.is_open  # type: ignore[attr-defined]


async def test_inflight_refuses_new_work_after_close() -> None:
    inflight = InFlight()
    async with inflight:
        assert inflight.active == 1
        inflight.close()
        assert not await inflight.wait_idle(timeout=0.01)
    assert inflight.active == 0
    assert await inflight.wait_idle(timeout=0.01)
    with pytest.raises(ShuttingDown):
        async with inflight:
            pass


async def test_close_waits_for_moves_in_progress(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    store = bot.store
    await store.open()
    table = await store.create_table(NewTable(1, 2, 3, "r51", "1v1", status="active"))
    entered = asyncio.Event()

    async def slow_move() -> int:
        async with bot.inflight:
            entered.set()
            await asyncio.sleep(0.2)
            return await store.commit_move(table.id, 0, 3, "{}", "[]", '"after"')

    move = asyncio.create_task(slow_move())
    await entered.wait()
    await bot.close()
    assert move.done() and move.result() == 1
    assert not store.is_open  # type: ignore[attr-defined]
    async with SqliteStore(tmp_path / "bot.db") as reopened:
        assert [m.seq for m in await reopened.list_moves(table.id)] == [1]


SERVE_SCRIPT = """
import asyncio, sys
from pathlib import Path
from bot.app import RummyBot
from bot.config import Settings
from bot.storage import NewTable, SqliteStore

async def main(db: Path) -> None:
    store = SqliteStore(db)
    bot = RummyBot(Settings(database=db), store)
    await store.open()
    table = await store.create_table(NewTable(1, 2, 3, "r51", "1v1", status="active"))

    async def slow_move() -> None:
        async with bot.inflight:
            print("move started", flush=True)
            await asyncio.sleep(0.5)
            await store.commit_move(table.id, 0, 3, "{}", "[]", '"after"')
            print("move committed", flush=True)

    async def fake_start(token: str) -> None:  # stands in for the gateway connection
        task = asyncio.get_running_loop().create_task(slow_move())
        while not bot.is_closed():  # like discord.py's connect loop
            await asyncio.sleep(0.02)
        assert task.done()

    bot.start = fake_start
    await bot.serve("unused")
    print("store open after serve:", store.is_open, flush=True)

asyncio.run(main(Path(sys.argv[1])))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_finishes_the_move_in_progress_then_exits(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE_SCRIPT, str(db)],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "move started"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out.split("\n")[:2] == ["move committed", "store open after serve: False"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 1
