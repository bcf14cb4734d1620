"""Measure how long one accepted move takes to commit, with and without full fsync.

Why: the store runs SQLite in WAL mode with ``synchronous=FULL`` so that an
acknowledged move survives a power cut. This script shows what that costs per
commit compared with ``synchronous=NORMAL`` (which survives a crash of the
process but may lose the last commits on power loss).

Run from the folder where the database will live (fsync cost depends on the
disk; a tmpfs such as some /tmp mounts makes fsync free and the numbers
meaningless):

    python benchmarks/bench_store_commit.py [--commits 2000] [--dir .]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import NewTable, SqliteStore
from bot.storage.sqlite import Synchronous

SNAPSHOT = '{"padding": "' + "x" * 4000 + '"}'  # about the size of a 4-player game snapshot


async def measure(folder: Path, synchronous: Synchronous, commits: int) -> list[float]:
    """Latencies in milliseconds of *commits* consecutive ``commit_move`` calls."""
    with tempfile.TemporaryDirectory(dir=folder, prefix=".bench-store-") as tmp:
        async with SqliteStore(Path(tmp) / "bench.db", synchronous=synchronous) as store:
            table = await store.create_table(NewTable(1, 2, 3, "bench", "solo", status="active"))
            version = table.version
            latencies: list[float] = []
            for n in range(commits):
                started = time.perf_counter()
                version = await store.commit_move(
                    table.id, version, 3, f'{{"n": {n}}}', f'[{{"n": {n}}}]', SNAPSHOT
                )
                latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def summarise(name: str, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return (
        f"{name:<19} n={len(ordered):<6} median={statistics.median(ordered):7.3f} ms  "
        f"p95={p95:7.3f} ms  max={ordered[-1]:8.3f} ms  mean={statistics.fmean(ordered):7.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="folder for the test file")
    args = parser.parse_args()
    print(f"Folder: {args.dir.resolve()}  CPUs: {os.cpu_count()}  Python: {sys.version.split()[0]}")
    print("Journal mode: WAL; snapshot ~4 KB; one transaction per commit_move")
    for synchronous in ("FULL", "NORMAL"):
        latencies = asyncio.run(measure(args.dir, synchronous, args.commits))
        print(summarise(f"synchronous={synchronous}", latencies))


if __name__ == "__main__":
    main()
