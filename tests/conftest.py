"""Fixtures shared by the whole suite: a fresh database on each store.

``store_url`` is parametrized over both stores, so a test that takes it runs once on a SQLite
file and once on PostgreSQL. PostgreSQL comes from ``RUMMY_TEST_POSTGRES`` (``.ci/run`` starts a
throw-away server and sets it); without it the session starts its own throw-away server the
first time a test needs one, and stops it at the end. Each test gets its own schema (cheap to
create and drop), named in the URL's ``search_path``, so it starts from an empty database.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import postgres

STORES = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """A PostgreSQL server for the session: the one CI started, or a throw-away one."""
    given = os.environ.get(postgres.ENV_TEST_POSTGRES)
    if given:
        yield given
        return
    server = postgres.start()
    try:
        yield server.dsn
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database (a schema of its own) as a ``postgresql://`` URL."""
    dsn: str = request.getfixturevalue("postgres_dsn")
    schema = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield f"{dsn}{'&' if '?' in dsn else '?'}search_path={schema}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


@pytest.fixture(params=STORES)
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store a test runs on (the test runs once per store)."""
    return str(request.param)


@pytest.fixture
def store_url(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """A new empty database on the store of this run: a SQLite path or a PostgreSQL URL."""
    if store_kind == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return tmp_path / "rummy.db"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than there are cores. Many tests spend their time waiting
    on a real bot process, a real PostgreSQL server or real seconds (the turn timer's test
    waits a minute), and a worker more keeps the cores busy while one waits."""
    return (os.cpu_count() or 1) + 1


@pytest.fixture
def own_postgres() -> Iterator[postgres.Server]:
    """A throw-away PostgreSQL server of the test's own, to stop, restart or replace (the
    session's shared one must not be)."""
    started = postgres.start()
    try:
        yield started
    finally:
        started.stop()

