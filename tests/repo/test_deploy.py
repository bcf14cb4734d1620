"""The deployment recipes in docs/deploy, checked as far as this machine can without Docker or
systemd running: hadolint lints the Dockerfile, the compose files are validated against the
Compose Specification's schema, docker's own .dockerignore matcher decides what enters the
build context, and ``systemd-analyze verify`` reads the units. Building and running the image
is not tested here (no Docker daemon); ``tests/repo/test_install.py`` and ``.ci/run`` test the wheel
install the image makes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from docker.utils.build import exclude_paths

REPO_ROOT = Path(__file__).resolve().parents[2]
DEPLOY = REPO_ROOT / "docs" / "deploy"
BIN = Path(sys.executable).parent
COMPOSE_FILES = [DEPLOY / "compose.yaml", DEPLOY / "compose.sqlite.yaml"]


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    text = dockerfile.read_text(encoding="utf-8").replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    result = subprocess.run(
        [str(BIN / "hadolint"), str(DEPLOY / "Dockerfile")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_would_find_the_old_recipe_wanting(tmp_path: Path) -> None:
    """The linter can fail: the recipe before issue 24 (COPY everything, run as a named user)."""
    old = tmp_path / "Dockerfile"
    old.write_text("FROM python:3.11-slim\nCOPY . .\nRUN pip install .\nUSER rummy\n")
    result = subprocess.run([str(BIN / "hadolint"), str(old)], capture_output=True, text=True)
    assert result.returncode != 0


def test_the_image_keeps_secrets_out_and_its_database_writable() -> None:
    steps = instructions(DEPLOY / "Dockerfile")
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM"):]
    words = dict(final)
    runs = " ".join(args for word, args in final if word == "RUN")
    assert not any(word == "COPY" and args.startswith(". ") for word, args in steps)
    assert "DISCORD_TOKEN" not in (DEPLOY / "Dockerfile").read_text().replace("# ", "")
    assert not any(word == "ARG" for word, _ in steps), "no build-time secrets"
    assert "RUMMY_DATABASE=/data/rummy.db" in words["ENV"]
    assert words["USER"] == "10001:10001"
    assert "chown 10001:10001 /data" in runs  # the user owns its volume
    assert words["VOLUME"] == '["/data"]'
    assert words["HEALTHCHECK"].endswith('CMD ["rummy-bot", "doctor"]')
    assert "pip install --no-cache-dir /wheels/*.whl" in runs  # the wheel, so package data


@pytest.mark.parametrize("compose", COMPOSE_FILES, ids=lambda p: p.name)
def test_compose_files_follow_the_compose_specification(compose: Path) -> None:
    result = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(compose)],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_can_fail(tmp_path: Path) -> None:
    broken = tmp_path / "compose.yaml"
    broken.write_text("services:\n  bot:\n    env_file: 5\n    restart: sometimes\n")
    result = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(broken)],
        capture_output=True, text=True,
    )
    assert result.returncode != 0


@pytest.mark.parametrize("compose", COMPOSE_FILES, ids=lambda p: p.name)
def test_compose_gives_the_token_at_run_time_only(compose: Path) -> None:
    services = yaml.safe_load(compose.read_text(encoding="utf-8"))["services"]
    bots = {name: s for name, s in services.items() if "build" in s}
    assert bots
    for name, service in bots.items():
        assert service["env_file"] == ".env", name
        assert "DISCORD_TOKEN" not in service.get("environment", {}), name
        assert service["build"]["context"] == "../.." and "args" not in service["build"]


def test_the_build_context_leaves_out_secrets_databases_and_local_files(tmp_path: Path) -> None:
    """Docker's own matcher (the docker SDK's) on a tree holding what an operator's checkout
    holds, with the repository's .dockerignore."""
    planted = [
        ".env", "docs/deploy/.env", "prod.env", "rummy.db", "rummy.db-wal", "rummy.db-shm",
        "data/bot.db", ".venv/bin/python", ".venv-ci/bin/python", ".git/config",
        ".pytest_cache/v", "bot/__pycache__/x.pyc", ".hypothesis/x", "build/lib/x.py",
        "rummy_discord.egg-info/PKG-INFO",
    ]
    needed = ["pyproject.toml", "README.md", "bot/cli.py", "bot/render/assets/font.ttf",
              "cogs/surface.py", "rummy_engine/game.py", ".env.example"]
    for name in planted + needed:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    patterns = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [p for p in patterns if p.strip() and not p.startswith("#")]
    sent = set(exclude_paths(str(tmp_path), patterns))
    assert not sent & set(planted), sorted(sent & set(planted))
    assert set(needed) <= sent, sorted(set(needed) - sent)


@pytest.mark.parametrize("unit", ["rummy-bot.service", "rummy-bot@.service"])
def test_systemd_reads_the_units(tmp_path: Path, unit: str) -> None:
    """``systemd-analyze verify`` (with ExecStart pointed at this venv's console script, since
    /opt/rummy-bot does not exist here): no unknown key, no bad value."""
    text = (DEPLOY / unit).read_text(encoding="utf-8")
    assert "ExecStart=/opt/rummy-bot/.venv/bin/rummy-bot run" in text
    copy = tmp_path / unit.replace("@.", "@0.")
    copy.write_text(text.replace("/opt/rummy-bot/.venv/bin/rummy-bot", str(BIN / "rummy-bot")))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_the_sqlite_unit_keeps_its_database_in_its_state_directory() -> None:
    text = (DEPLOY / "rummy-bot.service").read_text(encoding="utf-8")
    assert "StateDirectory=rummy-bot" in text
    assert "Environment=RUMMY_DATABASE=/var/lib/rummy-bot/rummy.db" in text
    assert "User=rummy" in text and "EnvironmentFile=/etc/rummy-bot/env" in text
