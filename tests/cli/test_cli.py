"""The ``rummy-bot`` command as a user meets it: real subprocesses in an empty folder."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main, run_event_loop
from bot.config import SETTING_NAMES
from bot.storage import LATEST_VERSION
from tests.cli.test_config import APP_ID, fake_token

REPO_ROOT = Path(__file__).resolve().parents[2]
CONSOLE_SCRIPT = Path(sys.executable).with_name("rummy-bot")


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """An environment with no bot settings, as on a fresh machine."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONPATH": str(REPO_ROOT),
        "LANG": "C.UTF-8",
    }
    env.update(extra)
    return env


def run_cli(
    tmp_path: Path, *args: str, command: list[str] | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*(command or [sys.executable, "-m", "bot.cli"]), *args],
        cwd=tmp_path,
        env=clean_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """For in-process calls: no bot settings in the environment, cwd in a tmp folder."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_token_prints_what_to_do_and_fails(tmp_path: Path) -> None:
    result = run_cli(tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert "DISCORD_TOKEN" in result.stderr
    assert "cp .env.example .env" in result.stderr
    assert "README" in result.stderr
    assert not (tmp_path / "rummy.db").exists()  # nothing created before configuring


@pytest.mark.skipif(not CONSOLE_SCRIPT.exists(), reason="package not installed in this venv")
def test_console_script_without_token(tmp_path: Path) -> None:
    result = run_cli(tmp_path, command=[str(CONSOLE_SCRIPT)])
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "DISCORD_TOKEN" in result.stderr


def test_python_dash_m_bot_works(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "run", command=[sys.executable, "-m", "bot"])
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr


def test_help_lists_sub_commands(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--help")
    assert result.returncode == 0
    for name in ("run", "sync", "migrate", "doctor"):
        assert f"\n    {name} " in result.stdout, name


def test_invalid_setting_is_explained_without_traceback(tmp_path: Path) -> None:
    result = run_cli(tmp_path, RUMMY_DEV_GUILD_ID="my-server", DISCORD_TOKEN=fake_token())
    assert result.returncode == 2
    assert "RUMMY_DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


def test_unusable_database_is_reported_before_logging_in(tmp_path: Path) -> None:
    db = tmp_path / "no-such-folder" / "bot.db"
    result = run_cli(tmp_path, "run", DISCORD_TOKEN=fake_token(), RUMMY_DATABASE=str(db))
    assert result.returncode == 1
    assert "cannot be used" in result.stderr
    assert "Traceback" not in result.stderr
    assert "logging in" not in result.stderr  # failed before contacting Discord


def test_doctor_with_good_token_and_database(tmp_path: Path) -> None:
    token = fake_token()
    db = tmp_path / "data" / "bot.db"
    db.parent.mkdir()
    migrated = run_cli(tmp_path, "migrate", RUMMY_DATABASE=str(db))
    assert migrated.returncode == 0, migrated.stderr
    assert f"0 -> {LATEST_VERSION}" in migrated.stdout

    result = run_cli(tmp_path, "doctor", DISCORD_TOKEN=token, RUMMY_DATABASE=str(db))
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert token not in output
    assert token.split(".")[2] not in output
    assert "well formed" in output
    assert str(APP_ID) in output
    assert "scope=bot+applications.commands" in output
    assert str(db) in output
    assert f"Schema version {LATEST_VERSION} (newest: {LATEST_VERSION})" in output
    assert "Integrity check passed" in output
    assert "PROBLEM" not in output


@pytest.mark.parametrize(
    ("shards", "says"),
    [
        ({}, "Shards: none (one process serves every server)."),
        ({"RUMMY_SHARD_COUNT": "4"}, "Shards: this process runs 0, 1, 2, 3 of 4."),
        ({"RUMMY_SHARD_COUNT": "4", "RUMMY_SHARDS": "2-3"}, "the other processes must run on"),
        ({"RUMMY_SHARD_COUNT": "4", "RUMMY_SHARDS": "4"}, "[PROBLEM] RUMMY_SHARDS names shard 4"),
    ],
)
def test_doctor_tells_which_shards_run_here(
    tmp_path: Path, shards: dict[str, str], says: str
) -> None:
    db = tmp_path / "bot.db"
    result = run_cli(
        tmp_path, "doctor", DISCORD_TOKEN=fake_token(), RUMMY_DATABASE=str(db), **shards
    )
    assert says in result.stdout
    assert "Traceback" not in result.stderr


def test_doctor_reports_bad_token_without_printing_it(tmp_path: Path) -> None:
    token = "this-is-the-client-secret-not-a-token"
    result = run_cli(tmp_path, "doctor", DISCORD_TOKEN=token)
    assert result.returncode == 1
    assert "[PROBLEM] DISCORD_TOKEN" in result.stdout
    assert token not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_doctor_reads_dot_env(no_settings: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (no_settings / ".env").write_text(f"DISCORD_TOKEN={fake_token()}\n")
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "(found)" in out
    assert "does not exist yet" in out


def test_doctor_reports_missing_token(
    no_settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor"]) == 1
    assert "[PROBLEM] DISCORD_TOKEN is not set" in capsys.readouterr().out


def test_doctor_reports_missing_folder(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    monkeypatch.setenv("RUMMY_DATABASE", str(no_settings / "missing" / "bot.db"))
    assert main(["doctor"]) == 1
    assert "does not exist; create it" in capsys.readouterr().out


def test_doctor_reports_old_and_future_schemas(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    db = no_settings / "rummy.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 0")
        conn.execute("CREATE TABLE unrelated (x)")
    assert main(["doctor"]) == 0  # behind is fine: start-up migrates
    assert "it is upgraded on the next start" in capsys.readouterr().out

    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    assert main(["doctor"]) == 1
    assert "newer than this program knows" in capsys.readouterr().out


def test_doctor_reports_a_file_that_is_not_a_database(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    (no_settings / "rummy.db").write_bytes(b"this is not sqlite" * 100)
    assert main(["doctor"]) == 1
    assert "is not a SQLite database" in capsys.readouterr().out


def test_migrate_is_idempotent(no_settings: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 0
    assert f"0 -> {LATEST_VERSION}" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert "already at the newest" in capsys.readouterr().out
    with sqlite3.connect(no_settings / "rummy.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION


def test_migrate_friendly_error_for_bad_file(
    no_settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (no_settings / "rummy.db").write_bytes(b"this is not sqlite" * 100)
    assert main(["migrate"]) == 1
    assert "cannot be used" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"", b"notes\n"])
def test_run_refuses_a_file_that_is_not_a_database_and_keeps_it(
    tmp_path: Path, content: bytes
) -> None:
    db = tmp_path / "rummy.db"
    db.write_bytes(content)
    result = run_cli(tmp_path, "run", DISCORD_TOKEN=fake_token(), RUMMY_DATABASE=str(db))
    assert result.returncode == 1
    assert "is not a SQLite database" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.stderr
    assert db.read_bytes() == content


def make_read_only(path: Path) -> None:
    """Read-only even for root (CI runs as root, for whom permission bits do not apply)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return
    subprocess.run(["chattr", "+i", str(path)], check=True)


def test_doctor_reports_a_database_file_it_cannot_write(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    assert main(["migrate"]) == 0
    db = no_settings / "rummy.db"
    make_read_only(db)
    try:
        assert main(["doctor"]) == 1
        out = capsys.readouterr().out
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    assert "cannot write to the database file" in out


def test_a_network_failure_is_named_as_such(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    # A loopback port nobody listens on: the connection is refused, as when offline.
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach Discord" in err and "database" not in err


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    """The faster event loop is a dependency (not on Windows): the bot's loop is uvloop's."""
    import uvloop

    async def which() -> type:
        return type(asyncio.get_running_loop())

    assert issubclass(run_event_loop(which()), uvloop.Loop)
