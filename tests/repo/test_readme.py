"""The README and the pages of docs/ say what is true: their examples run as written.

Every fenced block of README.md and docs/*.md is either run here or marked as not run:

- ``sh`` blocks are run line by line, as written, in a fresh folder that looks like the README's
  set-up (``.venv`` is this test's own environment, ``.env.example`` is the repository's, a
  database made by ``rummy-bot migrate``), without any token or ``RUMMY_*`` setting in the
  environment: a command that needs Discord must then stop with its instructions. The set-up
  commands themselves (``python3 -m venv .venv && .venv/bin/pip install …``) are checked against
  the project (the extra exists, CI runs the same test command) and their last part is run.
  Benchmarks run with small sizes; a PostgreSQL URL is replaced by a test server's.
- ``python`` blocks are executed, and what they print is checked where the page says it.
- ``json`` blocks are parsed (the position of docs/engine-snapshot.md is built into a game).
- ``console``, ``text`` and ``yaml`` blocks are not run: commands that need root, systemd,
  Docker or a whole CI run, pictures of messages (checked against the real bot by
  ``tests/discord/test_readme_screens.py``), file listings.

Links between the pages must lead to files (and headings) that exist.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

RUN = {"sh", "python", "json"}
NOT_RUN = {"console", "text", "yaml"}
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```$", re.M | re.S
)
MARKER = re.compile(r"<!-- (?P<kind>run|screen): (?P<name>[\w-]+) -->\s*$")
NO_TOKEN = "no Discord bot token is configured"
#: The URL the PostgreSQL page shows; the tests put a real server's in its place.
DOCUMENTED_PG = "postgresql://rummy:change-me@127.0.0.1:5432/rummy"


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    body: str
    marker: str | None  # "run: setup", "screen: lobby", ...

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def lines(self) -> list[str]:
        return [
            ln for ln in self.body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
        ]


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").splitlines()
        marker = MARKER.search(before[-1]) if before else None
        indent = len(match.group("indent"))
        body = "\n".join(ln[indent:] for ln in match.group("body").splitlines()) + "\n"
        found.append(
            Block(
                page,
                line,
                match.group("lang"),
                body,
                f"{marker.group('kind')}: {marker.group('name')}" if marker else None,
            )
        )
    return found


ALL_BLOCKS = [b for page in PAGES for b in blocks(page)]


def of(page: Path, lang: str) -> list[Block]:
    return [b for b in blocks(page) if b.lang == lang]


def test_every_block_says_whether_it_runs() -> None:
    assert len(ALL_BLOCKS) > 10, "the pages show examples"
    unknown = [b.where for b in ALL_BLOCKS if b.lang not in RUN | NOT_RUN]
    assert not unknown, (
        f"blocks without sh/python/json (run) or console/text/yaml (not run): {unknown}"
    )


# --- shell blocks ---------------------------------------------------------------------------


def venv_bin() -> Path:
    """This test's environment: where the README's set-up puts ``rummy-bot``."""
    bindir = Path(sys.prefix) / "bin"
    assert (bindir / "rummy-bot").exists(), f"run the tests from the README's set-up ({bindir})"
    return bindir


def clean_env() -> dict[str, str]:
    """The environment of a new operator: no token, no RUMMY_* setting, no activated venv."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "DISCORD_TOKEN" and not k.startswith("RUMMY_") and k != "VIRTUAL_ENV"
    }
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != venv_bin()
    )
    return env


def sandbox(folder: Path) -> Path:
    """A start folder as after the README's set-up: the venv, .env.example, a database."""
    folder.mkdir(exist_ok=True)
    (folder / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    (folder / "benchmarks").symlink_to(ROOT / "benchmarks", target_is_directory=True)
    shutil.copy(ROOT / ".env.example", folder / ".env.example")
    made = subprocess.run(
        [str(folder / ".venv/bin/rummy-bot"), "migrate"],
        cwd=folder,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    return folder


def expected(line: str) -> tuple[int, str | None]:
    """What a documented command does without a token: (exit code, a sentence it prints)."""
    words = [w for w in shlex.split(line, comments=True) if not re.match(r"^[A-Z_]+=", w)]
    if words[:1] == [".venv/bin/rummy-bot"]:
        verb = next((w for w in words[1:] if not w.startswith("-")), "run")
        if verb in ("run", "sync"):
            return 2, NO_TOKEN
        if verb == "doctor":
            return 1, "DISCORD_TOKEN is not set"
    return 0, None


#: Benchmarks run with small sizes: option -> the value run here (added when the page leaves
#: the option at its default).
SMALL = {
    "bench_load.py": {
        "--tables": "2",
        "--seconds": "2",
        "--settle": "1",
        "--idle": "2",
        "--sample": "1",
        "--learners": "2",  # the lessons' and the puzzle's path runs too
    },
    "bench_leaderboard.py": {"--players": "2000", "--games": "5000", "--runs": "3"},
    "bench_store_commit.py": {"--commits": "20"},
    "bench_replay.py": {"--games": "1"},
    "bench_rating_models.py": {"--fields": "50", "--replay": "200"},
    "bench_seasons.py": {"--games": "200", "--players": "20", "--runs": "2"},
    "bench_review.py": {"--games": "1"},
    "bench_puzzles.py": {"--days": "2"},
    "bench_coaching.py": {"--games": "1"},
}
#: Scripts without a size to make small: what runs instead of the documented arguments.
SMALL_ARGS = {"bench_strength.py": ["1", "1", "basic"], "bench_deterministic.py": ["0", "1", "3"]}
#: Scripts that only run at full size (about 10 s of CPU each): loaded, not timed; the chaos
#: benchmark's short run is a test of its own (tests/e2e/test_chaos_short.py).
LOADED_ONLY = ("bench_render.py", "bench_solver.py", "bench_chaos.py")


def shrink(line: str, tmp: Path) -> str:
    """A benchmark command with small sizes and its options otherwise unchanged, so that a
    renamed or removed option fails; a script that cannot be made small is loaded (imports
    and definitions) without running its measurement."""
    words = shlex.split(line, comments=True)
    script = Path(words[1]).name
    if script in LOADED_ONLY:
        assert len(words) == 2, f"{line}: the test does not know these arguments"
        return shlex.join(
            [words[0], "-c", f"import runpy; runpy.run_path({words[1]!r}, run_name='loaded')"]
        )
    if script in SMALL_ARGS:
        return shlex.join([*words[:2], *SMALL_ARGS[script]])
    small = dict(SMALL.get(script, {}))
    out = words[:2]
    rest = iter(words[2:])
    for word in rest:
        out.append(word)
        if word in small:
            next(rest)
            out.append(small.pop(word))
        elif word == "--dir":
            next(rest)
            out.append(str(tmp))
    for option, value in small.items():
        out += [option, value]
    return shlex.join(out)


def run_line(line: str, folder: Path, env: dict[str, str], where: str) -> None:
    exported = re.match(r"^export ([A-Z_]+)=(.*)$", line.strip())
    if exported:
        env[exported.group(1)] = shlex.split(exported.group(2))[0]
        return
    code, sentence = expected(line)
    done = subprocess.run(
        ["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    shown = done.stdout + done.stderr
    assert done.returncode == code, f"{where}: `{line}` exited {done.returncode}:\n{shown}"
    if sentence is not None:
        assert sentence in shown, f"{where}: `{line}` did not say {sentence!r}:\n{shown}"
    assert "Traceback" not in shown, f"{where}: `{line}` printed a traceback:\n{shown}"


def run_shell_blocks(page: Path, folder: Path, *, postgres: str | None = None) -> int:
    """Run a page's sh blocks in order, in one start folder; the number of commands run."""
    env = clean_env()
    ran = 0
    for block in of(page, "sh"):
        if block.marker == "run: setup":
            continue  # test_setup_commands_are_true
        if block.marker == "run: benchmark":
            continue  # test_benchmark_commands_run
        for line in block.lines():
            if postgres is not None:
                line = line.replace(DOCUMENTED_PG, shlex.quote(postgres))
            run_line(line, folder, env, block.where)
            ran += 1
    return ran


def test_readme_commands_run_as_written(tmp_path: Path) -> None:
    folder = sandbox(tmp_path)
    assert run_shell_blocks(README, folder) >= 6
    pictures = list((folder / "demo-pictures").glob("*.png"))
    assert pictures and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    assert (folder / ".env").read_text() == (ROOT / ".env.example").read_text()
    for copy in ("backup.db", "copy.db"):
        assert (folder / copy).read_bytes()[:16] == b"SQLite format 3\x00", copy


def test_postgresql_page_commands_run(tmp_path: Path, postgres_url: str) -> None:
    page = ROOT / "docs" / "postgresql.md"
    folder = sandbox(tmp_path)
    assert run_shell_blocks(page, folder, postgres=postgres_url) >= 5


def test_postgresql_page_shows_what_migrate_prints() -> None:
    """The page's URL is the one the test replaces, and the sentence it quotes is migrate's."""
    from bot.storage import LATEST_VERSION, describe_target
    from bot.text import t

    page = ROOT / "docs" / "postgresql.md"
    shown = {u for b in of(page, "sh") for u in re.findall(r"postgresql://\S+", b.body)}
    assert shown == {DOCUMENTED_PG}, shown
    said = t(
        "cli.migrate.done",
        path=describe_target(DOCUMENTED_PG),
        before=0,
        after=LATEST_VERSION,
        target=LATEST_VERSION,
    )
    assert f"`{said}`" in " ".join(page.read_text(encoding="utf-8").split())


BENCHMARKS = [
    (block.where, line)
    for block in of(ROOT / "docs" / "performance.md", "sh")
    for line in block.lines()
]


def test_performance_page_shows_benchmark_commands() -> None:
    scripts = {shlex.split(line)[1] for _, line in BENCHMARKS}
    on_disk = {f"benchmarks/{p.name}" for p in (ROOT / "benchmarks").glob("bench_*.py")}
    assert scripts == on_disk, "every benchmark is documented with the command that runs it"


def first_of_each_script() -> list[tuple[str, str]]:
    seen: dict[str, tuple[str, str]] = {}
    for where, line in BENCHMARKS:
        seen.setdefault(shlex.split(line)[1], (where, line))
    return list(seen.values())


RUN_BENCHMARKS = first_of_each_script()
OTHER_BENCHMARKS = [b for b in BENCHMARKS if b not in RUN_BENCHMARKS]


@pytest.mark.parametrize(
    ("where", "line"), RUN_BENCHMARKS, ids=[ln.split()[1] for _, ln in RUN_BENCHMARKS]
)
def test_benchmark_commands_run(
    where: str, line: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Each benchmark script runs, small, as its first command on the page shows it."""
    env = clean_env()
    if "bench_store_commit" in line or "--store postgres" in line:
        env["RUMMY_TEST_POSTGRES"] = str(request.getfixturevalue("postgres_dsn"))
    small = shrink(line, tmp_path)
    if "bench_store_commit" in line:
        small += " --postgres " + shlex.quote(env["RUMMY_TEST_POSTGRES"])
    run_line(small, sandbox(tmp_path / "start"), env, where)


def test_other_benchmark_commands_take_their_options() -> None:
    """The page's other commands of a script already run: every option they give is one the
    script takes (its --help, run for real, names it) with a value of the right shape."""
    assert OTHER_BENCHMARKS, "the load benchmark is shown at several sizes"
    for script in sorted({shlex.split(line)[1] for _, line in OTHER_BENCHMARKS}):
        done = subprocess.run(
            [str(venv_bin() / "python"), script, "--help"],
            cwd=ROOT,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        for where, line in OTHER_BENCHMARKS:
            words = shlex.split(line, comments=True)
            if words[1] != script:
                continue
            unknown = [w for w in words[2:] if w.startswith("--") and w not in done.stdout]
            assert not unknown, f"{where}: {line} gives options {script} does not take: {unknown}"
            values = [w for w in words[2:] if not w.startswith("--")]
            assert all(re.fullmatch(r"[\w.]+", v) for v in values), values


def test_setup_commands_are_true() -> None:
    """The two set-up commands: venv, pip install of the project (or with its test extra),
    then the bot or the tests; CI runs the same test command."""
    setups = [b for b in of(README, "sh") if b.marker == "run: setup"]
    commands = [b.body.strip() for b in setups]
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/rummy-bot",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest",
    ]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["rummy-bot"] == "bot.cli:main"
    assert "test" in project["optional-dependencies"]
    assert project["requires-python"] == ">=3.11" and "Python 3.11 or newer" in README.read_text()
    assert '"$VENV/bin/python" -m pytest' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_setup_run_command_ends_with_the_instructions(tmp_path: Path) -> None:
    folder = sandbox(tmp_path)
    run_line(".venv/bin/rummy-bot", folder, clean_env(), "README set-up")


def test_setup_test_command_collects_the_suite() -> None:
    done = subprocess.run(
        [
            str(venv_bin() / "python"),
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tests/repo/test_readme.py: " in done.stdout and "tests/discord/" in done.stdout


# --- python and json blocks -------------------------------------------------------------------


def run_python(block: Block) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.body, block.where, "exec"), {})
    return out.getvalue().splitlines()


PYTHON = [b for b in ALL_BLOCKS if b.lang == "python"]


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_python_blocks_run(block: Block) -> None:
    run_python(block)


ENGINE = ROOT / "docs" / "engine.md"


def test_engine_example_plays_a_whole_game() -> None:
    printed = run_python(of(ENGINE, "python")[0])
    assert printed[0] == "As the dealer you start without drawing: lay melds or discard a card."
    assert printed[1].startswith("scores [") and "winning side [" in printed[1]


def test_position_example_builds_and_scores() -> None:
    assert run_python(of(ENGINE, "python")[1]) == [
        "table worth 45",
        "As written the joker would follow A♥: a run cannot wrap. Did you mean JK Q♥ K♥ A♥?",
        "opening value 81",
        "seat 1 would pay 51",
        "if seat 0 went out now (0, 51)",
    ]


def test_computer_example_counts() -> None:
    assert run_python(of(ENGINE, "python")[2]) == ["55 True 55"]


def test_snapshot_page_position_builds_a_game() -> None:
    from rummy_engine import Position

    (block,) = of(ROOT / "docs" / "engine-snapshot.md", "json")
    game = Position.from_json(json.loads(block.body)).to_game()
    assert game.rules.variant.value == "r51" and len(game.hands) == 2 and game.scores == [120, 35]


# --- what the README states -----------------------------------------------------------------


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def permission_flag(name: str) -> str:
    """The portal's name of a permission as discord.py's flag (View Channels -> view_channel)."""
    flag = name.strip().lower().replace(" ", "_")
    aliases = {"view_channels": "view_channel"}
    return aliases.get(flag, flag)


def test_permissions_integer_is_the_listed_permissions_and_what_the_bot_asks() -> None:
    from bot.app import required_permissions

    text = " ".join(section("Create the Discord application").split())
    listed = re.search(r"\*\*Bot permissions\*\*: (.*?) \(permissions integer `(\d+)`\)", text)
    assert listed, "the README lists the bot's permissions and their integer"
    names = [n.strip() for n in listed.group(1).split(",")]
    flags = [permission_flag(n) for n in names]
    assert all(f in discord.Permissions.VALID_FLAGS for f in flags), flags
    value = discord.Permissions(**dict.fromkeys(flags, True)).value
    assert int(listed.group(2)) == value, "the integer is the permissions listed"
    assert value == required_permissions().value, "the README lists what the invite link asks"


def test_every_setting_is_documented() -> None:
    from bot.config import SETTING_NAMES

    table = section("Configuration")
    assert [s for s in SETTING_NAMES if f"`{s}`" not in table] == []
    shown = set(re.findall(r"`((?:RUMMY|DISCORD)_[A-Z_]+)`", README.read_text(encoding="utf-8")))
    assert shown <= set(SETTING_NAMES), shown - set(SETTING_NAMES)


async def test_cheat_sheet_lists_every_command_and_button(tmp_path: Path) -> None:
    from bot.features.play.words import WORDS as GAME_EN
    from tests.discord.command_surface import registered_payload

    sheet = section("Playing: the cheat-sheet")
    payload = await registered_payload(tmp_path)
    commands = {f"/{c['name']} {child['name']}" for c in payload for child in c["options"]}
    assert len(commands) > 20
    missing = sorted(c for c in commands if c not in sheet)
    assert not missing, f"commands missing from the cheat-sheet: {missing}"
    typed = set(re.findall(r"/rummy(?:-[a-z]+)? \w+", sheet))
    assert typed <= commands, typed - commands
    labels = [
        re.sub(r"\s*\{\w+\}", "", text)
        for key, text in GAME_EN.items()
        if key.startswith("button.")
        and not key.startswith(
            ("button.stale", "button.not_", "button.unknown", "button.lobby_started")
        )
    ]
    labels.append(GAME_EN["select.cards"])
    absent = [label for label in labels if f"**{label}**" not in sheet]
    assert not absent, f"buttons missing from the cheat-sheet: {absent}"


#: Every sentence doctor and the settings check print as a PROBLEM.
PROBLEMS = (
    "doctor.token.missing",
    "doctor.token.bad_format",
    "doctor.db.dir_missing",
    "doctor.db.not_writable",
    "doctor.db.unreadable",
    "doctor.db.not_a_database",
    "doctor.db.file_read_only",
    "doctor.db.integrity",
    "doctor.db.version_ahead",
    "doctor.db.pg_unreachable",
    "doctor.db.pg_read_only",
    "doctor.drawing.failed",
    "config.invalid_int",
)


def test_troubleshooting_quotes_every_problem_doctor_reports() -> None:
    from bot.text.catalog_cli import CLI_EN

    rows = re.findall(r"^\| (.+?) \| .+ \|$", section("Troubleshooting"), flags=re.M)[1:]
    fragments = [
        piece.strip(" .`")
        for row in rows
        for part in row.split(" / ")
        for piece in part.split("…")
        if len(piece.strip(" .`")) > 6
    ]
    sentences = list(CLI_EN.values())
    invented = [f for f in fragments if not any(f in s for s in sentences)]
    assert not invented, f"the table quotes sentences doctor never prints: {invented}"
    uncovered = [k for k in PROBLEMS if not any(f in CLI_EN[k] for f in fragments)]
    assert not uncovered, f"doctor problems the table does not explain: {uncovered}"


# --- links ------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_links_lead_to_files_and_headings(page: Path) -> None:
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, f"{page.name}: links to nothing: {broken}"


def test_readme_is_for_running_and_playing() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 380  # a page, not a manual: the rest lives in docs/
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text), (
        "no commit hashes"
    )
    for block in of(README, "sh"):
        for line in block.lines():
            if block.marker != "run: setup":
                assert line.startswith((".venv/bin/", "cp ")), f"{block.where}: {line}"
