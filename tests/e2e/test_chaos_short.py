"""A short run of the chaos benchmark (benchmarks/bench_chaos.py) as part of the suite: four
tables (1v1, 2v2, Basic, against a computer) for half a minute while Discord fails calls at a
high rate, the gateway drops, and the bot process is killed once. Nothing acknowledged may be
lost, every channel must show its stored table, no hand DM may be behind, nothing may be shown
twice, the bot must stop with no task left running, and its log must hold no ERROR. (Late acknowledgements are timing: the
benchmark reports them, the test does not judge them.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_short_chaos_run_loses_nothing() -> None:
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_chaos.py"), "--tables", "4",
         "--minutes", "0.5", "--pace", "2", "--latency", "0.02", "--jitter", "0.01",
         "--fault-share", "0.03", "--kill-every", "18", "--gateway-every", "11",
         "--settle", "60", "--seed", "7"],
        capture_output=True, text=True, timeout=300, cwd=REPO, check=False,
    )
    report = run.stdout
    assert run.returncode == 0, report + run.stderr[-3000:]
    injected = re.search(r"faults injected: (.*)", report)
    assert injected and "gateway" in injected.group(1) and "killed" in report, report
    acked = re.search(r"acknowledged with a hand (\d+), lost \(acknowledged, not stored\) (\d+)", report)
    assert acked and int(acked.group(1)) >= 10 and acked.group(2) == "0", report
    assert "does not show the stored table: 0" in report, report
    assert "behind their stored hand once settled: 0" in report, report
    assert "errors in the bot's log: none" in report, report
