"""The architecture as rules on the import graph (TYPE_CHECKING imports included): the engine is
a pure library, services and storage never speak Discord, nothing points back up to the Discord
layer or the cogs, and there is no import circle anywhere in the bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rummy_engine", "bot", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (functions, TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


GRAPH = {
    module_name(path): imports_of(path)
    for package in PACKAGES
    for path in (ROOT / package).rglob("*.py")
}


def imports(module: str, prefix: str) -> list[str]:
    return sorted(i for i in GRAPH[module] if i == prefix or i.startswith(prefix + "."))


def modules(prefix: str) -> list[str]:
    return sorted(m for m in GRAPH if m == prefix or m.startswith(prefix + "."))


@pytest.mark.parametrize("module", modules("rummy_engine"))
def test_the_engine_is_a_pure_library(module: str) -> None:
    for outside in ("bot", "cogs", "discord", "aiosqlite", "PIL", "asyncio", "time"):
        assert not imports(module, outside), f"{module} imports {imports(module, outside)}"


@pytest.mark.parametrize("module", [*modules("bot.services"), *modules("bot.storage"), *modules("bot.render"), *modules("bot.text")])
def test_below_the_discord_layer_nothing_speaks_discord(module: str) -> None:
    for above in ("discord", "bot.ui", "cogs", "bot.app"):
        assert not imports(module, above), f"{module} imports {imports(module, above)}"


@pytest.mark.parametrize("module", [m for m in GRAPH if not m.startswith("cogs")])
def test_nothing_imports_the_cogs(module: str) -> None:
    assert not imports(module, "cogs"), f"{module} imports {imports(module, 'cogs')}"


@pytest.mark.parametrize("module", modules("bot.ui"))
def test_the_discord_layer_never_needs_the_bot(module: str) -> None:
    assert not imports(module, "bot.app"), f"{module} imports the start-up module"


def test_no_import_circle() -> None:
    internal = {
        m: {i for i in deps if i in GRAPH and i != m} for m, deps in GRAPH.items()
    }
    state: dict[str, int] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for dep in sorted(internal[module]):
            if state.get(dep) == 1:
                cycle = [*trail[trail.index(dep) :], dep] if dep in trail else [module, dep]
                raise AssertionError(" -> ".join(cycle))
            if dep not in state:
                visit(dep, [*trail, dep])
        state[module] = 2

    for module in sorted(internal):
        if module not in state:
            visit(module, [module])
