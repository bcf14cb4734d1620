"""Run the real ``rummy-bot`` command in this process, pointed at a loopback Discord emulator.

For tests that need the bot as a separate process (to kill it at an exact step):
``python -m tests.discord_emulator.launch run`` with ``EMULATOR_HTTP`` and
``EMULATOR_GATEWAY`` set to the emulator's loopback addresses. Nothing else differs from
``rummy-bot run``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import discord
import yarl

from bot.cli import main

LOOPBACK = ("127.0.0.1", "localhost", "::1")
REPO_ROOT = Path(__file__).resolve().parents[2]


def process_env(
    http_base: str, gateway_url: str, token: str, db: Path | str, home: Path | None = None
) -> dict[str, str]:
    """The environment of a bot process started with this module: a clean one, as on a fresh
    machine, with the emulator's addresses and token and the database ``db`` (a SQLite file,
    whose folder is the home unless ``home`` is given, or a ``postgresql://`` URL)."""
    if home is None:
        assert isinstance(db, Path), "a PostgreSQL URL needs a home folder"
        home = db.parent
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "PYTHONPATH": str(REPO_ROOT),
        "DISCORD_TOKEN": token,
        "RUMMY_DATABASE": str(db),
        "EMULATOR_HTTP": http_base,
        "EMULATOR_GATEWAY": gateway_url,
    }


def point_at_emulator() -> None:
    http, gateway = yarl.URL(os.environ["EMULATOR_HTTP"]), yarl.URL(os.environ["EMULATOR_GATEWAY"])
    if http.host not in LOOPBACK or gateway.host not in LOOPBACK:
        raise SystemExit("the emulator must be on a loopback address")
    discord.http.Route.BASE = str(http) + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


if __name__ == "__main__":
    point_at_emulator()
    sys.exit(main(sys.argv[1:]))
