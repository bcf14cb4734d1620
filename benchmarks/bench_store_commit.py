"""Measure how long one accepted move takes to commit: SQLite (with and without full fsync)
beside PostgreSQL.

Why: the SQLite store runs in WAL mode with ``synchronous=FULL`` so that an acknowledged move
survives a power cut; ``synchronous=NORMAL`` survives a crash of the process but may lose the
last commits on power loss. The PostgreSQL store commits with the server's default
``synchronous_commit = on`` (the WAL is flushed before the answer), over loopback TCP. Without ``--postgres`` the script starts a throw-away PostgreSQL server with its
default (durable) settings in a temporary folder next to ``--dir`` and removes it afterwards.

Run from the folder where the database will live (fsync cost depends on the
disk; a tmpfs such as some /tmp mounts makes fsync free and the numbers
meaningless):

    python benchmarks/bench_store_commit.py [--commits 2000] [--dir .] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import NewTable, PostgresStore, SqliteStore, Store
from bot.storage.sqlite import Synchronous
from tests.helpers import postgres

SNAPSHOT = '{"padding": "' + "x" * 4000 + '"}'  # about the size of a 4-player game snapshot


@dataclass
class Run:
    """Commit latencies (ms) of one configuration and how many commits per second it made."""

    latencies: list[float]
    per_second: float


async def table_commits(store: Store, commits: int, latencies: list[float]) -> None:
    """*commits* consecutive ``commit_move`` calls on a new table, each one timed."""
    table = await store.create_table(NewTable(1, 2, 3, "bench", "solo", status="active"))
    version = table.version
    for n in range(commits):
        started = time.perf_counter()
        version = await store.commit_move(
            table.id, version, 3, f'{{"n": {n}}}', f'[{{"n": {n}}}]', SNAPSHOT
        )
        latencies.append((time.perf_counter() - started) * 1000)


async def run_writers(store: Store, commits: int, writers: int) -> Run:
    """*writers* tables committing at once (as many games moving at the same moment)."""
    latencies: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(table_commits(store, commits // writers, latencies) for _ in range(writers))
    )
    return Run(latencies, len(latencies) / (time.perf_counter() - started))


async def measure_sqlite(folder: Path, synchronous: Synchronous, commits: int, writers: int) -> Run:
    with tempfile.TemporaryDirectory(dir=folder, prefix=".bench-store-") as tmp:
        async with SqliteStore(Path(tmp) / "bench.db", synchronous=synchronous) as store:
            return await run_writers(store, commits, writers)


async def measure_postgres(url: str, commits: int, writers: int) -> Run:
    """In a schema of its own, dropped afterwards. Extra ``key=value`` settings in *url*'s
    query (``synchronous_commit=off``) apply to the bot's connections."""
    schema = f"bench_{os.getpid()}"
    async with PostgresStore(url) as admin, admin._write() as conn:
        await conn.execute(f"CREATE SCHEMA {schema}")
    try:
        joiner = "&" if "?" in url else "?"
        async with PostgresStore(
            f"{url}{joiner}search_path={schema}", max_connections=max(10, writers)
        ) as store:
            return await run_writers(store, commits, writers)
    finally:
        async with PostgresStore(url) as admin, admin._write() as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")


def summarise(name: str, run: Run) -> str:
    ordered = sorted(run.latencies)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    return (
        f"{name:<34} median={statistics.median(ordered):6.2f} ms  p95={p95:6.2f} ms  "
        f"p99={p99:6.2f} ms  max={ordered[-1]:7.2f} ms  {run.per_second:6.0f} commits/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000, help="commits per configuration")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="folder for the test file")
    parser.add_argument(
        "--writers", type=int, default=16, help="tables committing at once in the second part"
    )
    parser.add_argument(
        "--postgres", metavar="URL", help="a PostgreSQL server to use (default: a throw-away one)"
    )
    args = parser.parse_args()
    print(f"Folder: {args.dir.resolve()}  CPUs: {os.cpu_count()}  Python: {sys.version.split()[0]}")
    print(f"snapshot ~4 KB; one transaction per commit_move; {args.commits} commits per line")
    server = None
    if args.postgres is None:
        parent = Path(tempfile.mkdtemp(dir=args.dir, prefix=".bench-pg-"))
        parent.chmod(0o755)  # the server runs as another user when this runs as root
        server = postgres.start(parent / "pg", durable=True)
    url = args.postgres if server is None else server.tcp_dsn
    joiner = "&" if "?" in url else "?"
    try:
        for writers in (1, args.writers):
            print(f"-- {writers} table(s) committing at once")
            for synchronous in ("FULL", "NORMAL"):
                run = asyncio.run(measure_sqlite(args.dir, synchronous, args.commits, writers))
                print(summarise(f"SQLite WAL synchronous={synchronous}", run))
            run = asyncio.run(measure_postgres(url, args.commits, writers))
            print(summarise("PostgreSQL synchronous_commit=on", run))
            relaxed = f"{url}{joiner}synchronous_commit=off"
            run = asyncio.run(measure_postgres(relaxed, args.commits, writers))
            print(summarise("PostgreSQL synchronous_commit=off", run))
    finally:
        if server is not None:
            server.stop()
            server.folder.parent.rmdir()


if __name__ == "__main__":
    main()
