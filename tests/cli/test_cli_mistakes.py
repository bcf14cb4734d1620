"""An operator's mistakes, each answered by one sentence and no traceback: the real command in
a subprocess wherever the traceback was the bug, before any call to Discord.

Read-only files and folders are made with ``chattr +i`` (CI runs as root, for whom permission
bits do not apply); see :func:`tests.cli.test_cli.make_read_only`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.offline import DEMO_MOMENTS, pick_moments
from bot.text import t
from tests.cli.test_cli import clean_env, make_read_only, run_cli
from tests.cli.test_config import fake_token

#: The real command, pointed at a loopback port nobody listens on: had it got past the
#: checks, it would report a network error (nothing leaves this machine).
DEAD_DISCORD = {"EMULATOR_HTTP": "http://127.0.0.1:9", "EMULATOR_GATEWAY": "ws://127.0.0.1:9"}
LAUNCH = [sys.executable, "-m", "tests.discord_emulator.launch"]


def one_sentence(result: subprocess.CompletedProcess[str], code: int, says: str) -> None:
    """The command failed with ``code``, saying ``says`` on one line and nothing else."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode == code, output
    assert says in result.stderr, output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    make_read_only(path)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o755 if path.is_dir() else 0o644)


# --- the database -----------------------------------------------------------------------------


def test_run_refuses_a_read_only_database_before_logging_in(tmp_path: Path) -> None:
    db = tmp_path / "rummy.db"
    assert run_cli(tmp_path, "migrate", RUMMY_DATABASE=str(db)).returncode == 0
    before = sorted(p.name for p in tmp_path.iterdir())
    with immutable(db):
        result = run_cli(
            tmp_path, "run", command=LAUNCH, DISCORD_TOKEN=fake_token(),
            RUMMY_DATABASE=str(db), **DEAD_DISCORD,
        )
    one_sentence(result, 1, f"cannot write to the database file {db}")
    assert "cannot reach Discord" not in result.stderr  # refused before any call to Discord
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no -wal/-shm left behind


@pytest.mark.parametrize("verb", ["migrate", "copy-db"])
def test_a_folder_the_bot_cannot_write_is_one_sentence(tmp_path: Path, verb: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "rummy.db"
    source = tmp_path / "source.db"
    assert run_cli(tmp_path, "migrate", RUMMY_DATABASE=str(source)).returncode == 0
    args = ["copy-db", str(source), str(db)] if verb == "copy-db" else ["migrate"]
    with immutable(folder):
        result = run_cli(tmp_path, *args, RUMMY_DATABASE=str(db))
    one_sentence(result, 1, f"Cannot write in {folder}")
    assert not db.exists()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda db: db.mkdir(), "is not a SQLite database (it is a folder)"),
        (lambda db: db.write_text("my notes\n"), "does not start like a SQLite database"),
    ],
)
def test_migrate_makes_the_checks_run_and_doctor_make(
    tmp_path: Path, make: object, says: str
) -> None:
    db = tmp_path / "rummy.db"
    make(db)  # type: ignore[operator]
    migrate = run_cli(tmp_path, "migrate", RUMMY_DATABASE=str(db))
    one_sentence(migrate, 1, says)
    assert "left untouched" in migrate.stderr
    doctor = run_cli(tmp_path, "doctor", DISCORD_TOKEN=fake_token(), RUMMY_DATABASE=str(db))
    assert says in doctor.stdout  # the same check, the same words


# --- the command line ---------------------------------------------------------------------------

VERBS = {
    "run": ["run"],
    "sync": ["sync"],
    "migrate": ["migrate"],
    "doctor": ["doctor"],
    "copy-db": ["copy-db", "a.db", "b.db"],
    "simulate": ["simulate", "--games", "1"],
    "demo": ["demo", "--out", "pictures"],
}


def test_help_lists_every_verb(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--help")
    assert result.returncode == 0
    usage = re.search(r"\{([a-z,-]+)\}", result.stdout)
    assert usage is not None, result.stdout
    assert usage.group(1).split(",") == list(VERBS)


@pytest.mark.parametrize("verb", list(VERBS))
@pytest.mark.parametrize("where", ["before", "after"])
def test_a_named_settings_file_that_does_not_exist_is_refused(
    tmp_path: Path, verb: str, where: str
) -> None:
    option = ["--env-file", "prod.env"]
    args = [*option, *VERBS[verb]] if where == "before" else [*VERBS[verb], *option]
    result = run_cli(tmp_path, *args, DISCORD_TOKEN=fake_token())
    one_sentence(result, 2, f"the settings file {tmp_path / 'prod.env'} given with --env-file")
    assert not (tmp_path / "rummy.db").exists() and not (tmp_path / "pictures").exists()


@pytest.mark.parametrize("where", ["before", "after"])
def test_the_settings_file_is_read_before_or_after_the_verb(tmp_path: Path, where: str) -> None:
    (tmp_path / "prod.env").write_text("RUMMY_DATABASE=prod.db\n")
    option = ["--env-file", "prod.env"]
    args = [*option, "migrate"] if where == "before" else ["migrate", *option]
    result = run_cli(tmp_path, *args)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "prod.db").is_file() and not (tmp_path / "rummy.db").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--mode", "3v3"], "there is no mode '3v3'; choose 1v1 or 2v2"),
        (["--variant", "500"], "there is no variant '500'; choose one of 51, 71, simple, basic."),
        (["--variant", "51", "--mode", "3"], "Rummy 51 is played by 2 (1v1) or 4 (2v2) players,"),
        (["--players", "strong,easy,normal"], "--players names 3 strengths, but this game has 2 sides"),
        (["--players", "strong,godlike"], "there is no computer strength 'godlike'; choose from"),
        (["--games", "0"], "--games must be at least 1, not 0."),
    ],
)
def test_simulate_refuses_bad_values_with_the_valid_ones(
    tmp_path: Path, args: list[str], says: str
) -> None:
    result = run_cli(tmp_path, "simulate", "--games", "1", *args)
    one_sentence(result, 2, f"rummy-bot simulate: {says}")
    assert "won" not in result.stdout  # no game was played


def test_demo_refuses_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "pictures").write_text("not a folder")
    result = run_cli(tmp_path, "demo", "--out", "pictures")
    one_sentence(result, 2, "pictures is a file, not a folder; give --out a new or empty folder")


def test_demo_refuses_a_folder_it_cannot_write(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    with immutable(folder):
        result = run_cli(tmp_path, "demo", "--out", "locked")
        inside = run_cli(tmp_path, "demo", "--out", "locked/pictures")
    one_sentence(result, 2, "rummy-bot demo: cannot write pictures in locked")
    one_sentence(inside, 2, "rummy-bot demo: cannot write pictures in locked/pictures")


def test_demo_shows_the_whole_game_in_a_bounded_number_of_pictures(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "demo", "--out", "pictures", "--seed", "1")
    assert result.returncode == 0, result.stderr
    rounds = int(re.search(r": (\d+) rounds", result.stdout).group(1))  # type: ignore[union-attr]
    assert rounds >= 6, "a long game: 12 moments in a row would not reach its end"
    names = sorted(p.name for p in (tmp_path / "pictures").glob("*.png"))
    assert len(names) == 2 * DEMO_MOMENTS
    assert names[-1] == f"{DEMO_MOMENTS:02d}-round{rounds}-round-end-table.png"
    assert names[-2] == f"{DEMO_MOMENTS:02d}-round{rounds}-round-end-scores.png"
    shown = {int(m.group(1)) for n in names if (m := re.search(r"-round(\d+)-", n))}
    assert len(shown) >= rounds // 2, f"moments from across the game, not its start: {shown}"


@given(st.lists(st.sampled_from(["deal", "first-lay", "joker-swap", "round-end"]), min_size=1,
                max_size=300), st.integers(min_value=2, max_value=30))
def test_the_demo_picks_the_first_and_last_moments_within_the_budget(
    kinds: list[str], budget: int
) -> None:
    picked = pick_moments(kinds, budget)
    assert picked == sorted(set(picked))
    assert len(picked) == min(budget, len(kinds))
    assert picked[0] == 0 and picked[-1] == len(kinds) - 1
    # round ends take up to half the budget (the last moment counted with them)
    ends = {i for i, kind in enumerate(kinds) if kind == "round-end"}
    inner = ends - {0, len(kinds) - 1}
    assert len(ends & set(picked)) >= len(ends - inner) + min(len(inner), budget // 2 - 1)


def test_doctor_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """``rummy-bot doctor | head -1``: the reader has gone before the report is written."""
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "w") as closed:
        result = subprocess.run(
            [sys.executable, "-m", "bot.cli", "doctor"], cwd=tmp_path, stdout=closed,
            stderr=subprocess.PIPE, text=True, timeout=60,
            env=clean_env(tmp_path, DISCORD_TOKEN=fake_token()),
        )
    assert result.stderr == ""
    assert result.returncode == 0


# --- what doctor says --------------------------------------------------------------------------


def test_doctor_draws_a_hand_and_counts_problems_in_words(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "doctor", RUMMY_DATABASE=str(tmp_path / "rummy.db"))
    assert result.returncode == 1
    assert re.search(r"\[ok\] +Drew a hand of cards \(\d+×\d+ pixels\)\.", result.stdout)
    assert result.stdout.rstrip().endswith("1 problem found; see the line marked PROBLEM.")
    assert t("doctor.summary.problems", "fr", count=1).startswith("1 problème trouvé")
    assert t("doctor.summary.problems", "fr", count=2).startswith("2 problèmes trouvés")
    assert t("doctor.summary.problems", count=2).startswith("2 problems found")


def test_copy_db_counts_rows_in_words(tmp_path: Path) -> None:
    source = tmp_path / "source.db"
    assert run_cli(tmp_path, "migrate", RUMMY_DATABASE=str(source)).returncode == 0
    with contextlib.closing(sqlite3.connect(source)) as conn, conn:
        conn.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
    result = run_cli(tmp_path, "copy-db", str(source), str(tmp_path / "copy.db"))
    assert result.returncode == 0, result.stderr
    assert "Table meta: 1 row, the same in both databases." in result.stdout
    assert "Table moves: 0 rows, the same in both databases." in result.stdout


def test_the_bot_says_nothing_about_voice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py warns once per process that voice libraries are missing; this bot never
    speaks, so a start is silent about it (the flags are set again as in a fresh process)."""
    from bot.app import make_bot
    from bot.config import Settings
    from bot.storage import make_store

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        make_bot(Settings(database=tmp_path / "x.db"), make_store(tmp_path / "x.db"))
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
