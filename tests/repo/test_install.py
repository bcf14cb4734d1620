"""A wheel, installed outside the checkout, draws cards: the fonts and every file read at run time
are package data. (An editable install reads them from the checkout, so it hides a file that
``pip install .`` would leave out; that is how the font went missing.)

Why the new venv borrows this one's dependencies (a ``.pth`` line, not ``--system-site-packages``):
installing them again costs ~40 s per run and tests pip, not the package. Only the wheel's own
files are the package there (asserted below); ``.ci/run`` also installs the same wheel into a
venv with its dependencies from the index and runs the same commands.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.cli.test_config import fake_token

REPO_ROOT = Path(__file__).resolve().parents[2]
#: What a build reads from the checkout; anything else stays out of the copy it builds from.
LEFT_OUT = (".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".*cache",
            ".hypothesis", "tests", "benchmarks", "docs", "*.db*", ".env")


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8", **env}
    return subprocess.run(args, cwd=cwd, env=clean, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv holding the wheel built from a copy of the source."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    shutil.copytree(REPO_ROOT, source, ignore=shutil.ignore_patterns(*LEFT_OUT))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"),
         str(source)], check=True, capture_output=True,
    )
    (wheel,) = (root / "dist").glob("rummy_discord-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    target = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    here = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (target / "borrowed-dependencies.pth").write_text("\n".join(sorted(here)) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
         "--no-deps", str(wheel)], check=True, capture_output=True,
    )
    return venv / "bin"


def test_the_installed_package_is_the_wheel(installed: Path, tmp_path: Path) -> None:
    found = run([str(installed / "python"), "-c", "import bot; print(bot.__file__)"], tmp_path)
    assert found.stdout.strip().startswith(str(installed.parent)), found.stdout + found.stderr


def test_a_wheel_install_draws_a_hand_and_checks_itself(installed: Path, tmp_path: Path) -> None:
    demo = run([str(installed / "rummy-bot"), "demo", "--out", "pictures"], tmp_path)
    assert demo.returncode == 0, demo.stderr
    pictures = sorted((tmp_path / "pictures").glob("*-hand-*.png"))
    assert pictures and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)

    settings = {"DISCORD_TOKEN": fake_token(), "RUMMY_DATABASE": str(tmp_path / "rummy.db")}
    migrate = run([str(installed / "rummy-bot"), "migrate"], tmp_path, **settings)
    assert migrate.returncode == 0, migrate.stderr
    doctor = run([str(installed / "rummy-bot"), "doctor"], tmp_path, **settings)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "Drew a hand of cards" in doctor.stdout


def test_an_install_that_lost_its_font_says_so_before_logging_in(
    installed: Path, tmp_path: Path
) -> None:
    """What ``pip install .`` did before the font was package data: doctor finds it, and run
    refuses before contacting Discord (pointed at a dead loopback port all the same)."""
    locate = "import bot.render.fonts as f; print(f.FONT_PATH)"
    font = Path(run([str(installed / "python"), "-c", locate], tmp_path).stdout.strip())
    kept = tmp_path / font.name
    shutil.move(font, kept)
    try:
        settings = {"DISCORD_TOKEN": fake_token(), "RUMMY_DATABASE": str(tmp_path / "rummy.db")}
        doctor = run([str(installed / "rummy-bot"), "doctor"], tmp_path, **settings)
        dead_discord = (
            "import sys, discord; discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'; "
            "from bot.cli import main; sys.exit(main(['run']))"
        )
        start = run([str(installed / "python"), "-c", dead_discord], tmp_path, **settings)
    finally:
        shutil.move(kept, font)
    assert doctor.returncode == 1
    assert "[PROBLEM] Cannot draw a hand of cards" in doctor.stdout
    assert start.returncode == 1 and "Traceback" not in start.stderr
    assert "the bot cannot start. Cannot draw a hand of cards" in start.stderr
    assert "cannot reach Discord" not in start.stderr
