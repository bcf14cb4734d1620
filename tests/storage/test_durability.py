"""Kill a real process that writes moves, restart, and check nothing acknowledged is lost
(on both stores).

Why a subprocess and SIGKILL: an in-process test cannot show what survives an
abrupt death. The writer (``tests/helpers/move_writer.py``) prints a move's seq only
after ``commit_move`` returned, i.e. when the bot would have replied to the player.
After each kill the database must contain every acknowledged move, the move log
must be contiguous, the snapshot must match the last move, and SQLite's integrity
check must pass. (Power-cut safety comes from ``synchronous=FULL`` on SQLite, checked in
``test_storage.py``, and PostgreSQL's default ``synchronous_commit``; a power cut itself cannot
be simulated here, and the test server runs with fsync off.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage import LATEST_VERSION, make_store
from bot.storage.migrations.postgres import get_schema_version
from tests.helpers.move_writer import action_for, events_for, snapshot_for

REPO_ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 6

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL semantics are POSIX-only")


def _start_writer(db: str | Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.move_writer", str(db), *extra],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill_after(proc: subprocess.Popen[str], lines_to_read: int, delay: float) -> list[int]:
    """Read *lines_to_read* acknowledgements, wait *delay*, SIGKILL; return all acks seen."""
    assert proc.stdout is not None
    acked: list[int] = []
    deadline = time.monotonic() + 60
    while len(acked) < lines_to_read and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(int(line))
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, f"writer ended on its own: {err}"
    # Lines already in the pipe were printed after a commit returned: acknowledged too.
    acked.extend(int(line) for line in out.split())
    return acked


async def _started(db: str | Path) -> bool:
    """Whether the writer got far enough to create the database (or its schema)."""
    if isinstance(db, Path):
        return db.exists()
    conn = await asyncpg.connect(db)
    try:
        return await get_schema_version(conn) > 0
    finally:
        await conn.close()


async def _check_database(db: str | Path, acknowledged: set[int]) -> int:
    """Assert the database is consistent and holds every acknowledged move; return last seq.

    Opening the store is what a restart does: it finishes a migration the kill interrupted.
    """
    if isinstance(db, Path):
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    async with make_store(db) as store:
        assert await store.schema_version() == LATEST_VERSION
        tables = await store.list_active_tables()
        assert len(tables) <= 1, tables
        if not tables:
            assert not acknowledged
            return 0
        (table,) = tables
        moves = await store.list_moves(table.id)
    seqs = [m.seq for m in moves]
    assert seqs == list(range(1, len(seqs) + 1)), "move log has gaps"
    assert table.version == len(seqs), "table version differs from the number of moves"
    missing = acknowledged - set(seqs)
    assert not missing, f"acknowledged moves lost: {sorted(missing)[:10]}"
    if seqs:
        assert json.loads(table.snapshot_json or "{}")["seq"] == seqs[-1], "snapshot is stale"
        assert table.snapshot_json == snapshot_for(seqs[-1])
    else:
        assert table.snapshot_json is None
    for move in moves:
        assert move.action_json == action_for(move.seq)
        assert move.events_json == events_for(move.seq)
    # At most one move can be committed without its acknowledgement being printed.
    assert len(seqs) - max(acknowledged, default=0) <= 1
    return len(seqs)


async def test_sigkill_never_loses_an_acknowledged_move(store_url: str | Path) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    db = store_url
    acknowledged: set[int] = set()
    for round_number in range(ROUNDS):
        # Sometimes kill during start-up (possibly mid-migration), usually mid-stream.
        lines = rng.choice([0, 1, rng.randint(2, 150), rng.randint(2, 150)])
        delay = rng.uniform(0.0, 0.02)
        acked = _kill_after(_start_writer(db), lines, delay)
        assert len(acked) == len(set(acked)), f"seed={seed}: a seq was acknowledged twice"
        acknowledged.update(acked)
        if await _started(db):
            try:
                await _check_database(db, acknowledged)
            except AssertionError as error:
                raise AssertionError(f"seed={seed} round={round_number}: {error}") from error

    # A clean restart continues the same game from the stored version.
    before = await _check_database(db, acknowledged) if await _started(db) else 0
    proc = _start_writer(db, "--max-moves", "5")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [int(x) for x in out.split()] == list(range(before + 1, before + 6))
    acknowledged.update(int(x) for x in out.split())
    last = await _check_database(db, acknowledged)
    assert last == before + 5
