"""Run the real ``rummy-bot`` command in this process, pointed at a loopback Discord emulator.

For tests that need the bot as a separate process (to kill it at an exact step):
``python -m tests.discord_emulator.launch run`` with ``EMULATOR_HTTP`` and
``EMULATOR_GATEWAY`` set to the emulator's loopback addresses. Nothing else differs from
``rummy-bot run``, but for two things a test may ask for, as the in-process tests do:

* ``EMULATOR_SEED``: every new table's seed (its deal and its computers' play), as
  ``tests/discord/conftest.make_bot`` sets it, so a scripted game is the same at each run;
* ``EMULATOR_CLOCK``: a file holding a number of seconds added to the bot's clock
  (``bot.app.BOT_CLOCK``: its deadlines, its puzzles' days and hours, its store's times),
  read again whenever the file changes. Why: a daily puzzle is due at an hour of the day,
  which no test can wait for; a test sets the process's clock a few seconds before the hour
  (or past it, for a process that was down) and lets real seconds pass from there. Discord's
  own times (an interaction's age, read from its id) stay the machine's.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

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


class ShiftedClock:
    """``discord.utils.utcnow`` plus the seconds the file ``path`` holds (0 while it is absent),
    read again when the file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: int | None = None
        self._shift = timedelta(0)

    def __call__(self) -> datetime:
        try:
            stamp = self.path.stat().st_mtime_ns
        except FileNotFoundError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            text = self.path.read_text().strip() if stamp is not None else ""
            self._shift = timedelta(seconds=float(text or 0))
        return discord.utils.utcnow() + self._shift


def write_clock(path: Path, shift: float) -> None:
    """Set the clock of a process started with ``EMULATOR_CLOCK=path``: ``shift`` seconds
    ahead of the machine's (written whole: the process never reads half a number)."""
    temporary = path.with_suffix(".new")
    temporary.write_text(repr(shift))
    temporary.replace(path)


def install_requested() -> None:
    """What a test asked for in the environment (see the module's docstring)."""
    import bot.app

    clock = os.environ.get("EMULATOR_CLOCK")
    if clock:
        bot.app.BOT_CLOCK = ShiftedClock(Path(clock))
    seed = os.environ.get("EMULATOR_SEED")
    if seed:
        made = bot.app.make_bot

        def seeded(*args: Any, **kwargs: Any) -> Any:
            rummy = made(*args, **kwargs)
            rummy.tables._seed_source = lambda: int(seed)
            return rummy

        bot.app.make_bot = seeded


def point_at_emulator() -> None:
    http, gateway = yarl.URL(os.environ["EMULATOR_HTTP"]), yarl.URL(os.environ["EMULATOR_GATEWAY"])
    if http.host not in LOOPBACK or gateway.host not in LOOPBACK:
        raise SystemExit("the emulator must be on a loopback address")
    discord.http.Route.BASE = str(http) + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


if __name__ == "__main__":
    point_at_emulator()
    install_requested()
    sys.exit(main(sys.argv[1:]))
