"""doctor names the permissions of the invite link it prints, Create Public Threads among them
(a table may open a thread of its own, issue 27), and the link asks for that very bit."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from tests.cli.test_cli import run_cli
from tests.cli.test_config import fake_token


def test_doctor_lists_create_public_threads_with_the_invite_link(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    result = run_cli(tmp_path, "doctor", DISCORD_TOKEN=fake_token(), RUMMY_DATABASE=str(db))
    output = result.stdout + result.stderr
    (line,) = [x for x in output.splitlines() if "Permissions the invite link asks for" in x]
    for name in ("View Channels", "Send Messages in Threads", "Create Public Threads"):
        assert name in line, line
    (bits,) = re.findall(r"permissions=(\d+)", output)
    asked = discord.Permissions(int(bits))
    assert asked.create_public_threads and asked.send_messages_in_threads
    assert len(line.split(": ", 1)[1].split(", ")) == sum(1 for _, on in asked if on)
