"""Migrations are history: no module of ``bot.storage.migrations`` imports the bot outside it.

Why a lint: a migration runs on a database of its own day's schema, so anything of today's code
it leans on (the column lists of ``bot.storage.queries``, the records of ``bot.storage.base``,
the rule of ``bot.features.stats.ratings``) can change under it and break every old database on open;
migration 9 once read ``PLAYER_COLUMNS`` and failed on a column a later migration was to add.
The upgrade test catches such a break only once it happens; this catches the import that makes
it possible. Libraries (openskill, aiosqlite) are fine: they are pinned, not edited with the bot.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "bot.storage.migrations"
FOLDER = ROOT.joinpath(*PACKAGE.split("."))
MODULES = sorted(FOLDER.glob("*.py"))


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from … import`` names, with a relative one resolved against *package*."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _dynamic(node: ast.Call) -> str | None:
    """The module of ``importlib.import_module("…")`` or ``__import__("…")``, if literal."""
    called = node.func
    name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", None)
    if name in ("import_module", "__import__") and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def imported(node: ast.AST, package: str = PACKAGE) -> list[str]:
    """The modules an import statement (or a literal dynamic import) names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        module = _absolute(node, package)
        # ``from bot.storage import queries`` imports the module ``bot.storage.queries``.
        return [module, *(f"{module}.{alias.name}" for alias in node.names)]
    if isinstance(node, ast.Call) and (module := _dynamic(node)) is not None:
        return [module]
    return []


def _outside(module: str) -> bool:
    return (module == "bot" or module.startswith("bot.")) and not (
        module == PACKAGE or module.startswith(PACKAGE + ".")
    )


def outside_imports(source: str) -> list[str]:
    """``line N: <statement>`` for each import, at any depth of *source* (functions,
    TYPE_CHECKING), of a bot module outside the migrations package."""
    return [
        f"line {node.lineno}: {ast.get_source_segment(source, node)}"
        for node in ast.walk(ast.parse(source))
        if any(_outside(module) for module in imported(node))
    ]


def test_the_package_holds_both_lists_and_the_python_steps() -> None:
    names = {path.stem for path in MODULES}
    assert {"__init__", "sqlite", "postgres", "m09_ratings", "m13_seasons"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_a_migration_module_imports_nothing_of_todays_bot(path: Path) -> None:
    offending = outside_imports(path.read_text(encoding="utf-8"))
    assert not offending, (
        f"{path.relative_to(ROOT)} imports today's code, which a migration must not lean on "
        f"(copy what it needs into the migration, frozen): {', '.join(offending)}"
    )


@pytest.mark.parametrize(
    "line",
    [
        "from bot.storage.queries import PLAYER_COLUMNS",
        "from ..queries import PLAYER_COLUMNS",
        "from bot.storage import ratings",
        "import bot.storage.base",
        "def step() -> None:\n    from bot.services.seasons import next_end",
        "import importlib\nimportlib.import_module('bot.storage.queries')",
    ],
)
def test_the_check_names_an_import_of_todays_code(line: str) -> None:
    assert outside_imports(line), line


@pytest.mark.parametrize(
    "line",
    [
        "from bot.storage.migrations.base import Migration",
        "import bot.storage.migrations.m09_ratings as m09_ratings",
        "from . import base",
        "from .base import numbered",
        "from openskill.models import BradleyTerryFull",
    ],
)
def test_the_check_lets_the_package_and_libraries_through(line: str) -> None:
    assert not outside_imports(line), line
