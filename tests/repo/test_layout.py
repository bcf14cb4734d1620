"""The architecture as rules on the import graph (TYPE_CHECKING imports included): the engine is
a pure library; the shared parts (storage, text, render, services, ui) never import a feature;
inside each feature, services and stores never speak Discord (only its ``ui/`` and its
``commands`` do); nothing points back up to the cogs or start-up; and there is no import circle
anywhere in the bot."""

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


SHARED = ("bot.services", "bot.storage", "bot.render", "bot.text", "bot.ui")


def discord_side(module: str) -> bool:
    """A feature's Discord side: its ``ui`` package and its ``commands`` module."""
    parts = module.split(".")
    return parts[:2] == ["bot", "features"] and len(parts) > 3 and parts[3] in ("ui", "commands")


#: Below Discord: the shared parts that never speak it, and every feature's services and store.
SILENT = [
    *(m for prefix in SHARED if prefix != "bot.ui" for m in modules(prefix)),
    *(m for m in modules("bot.features") if not discord_side(m)),
]


@pytest.mark.parametrize("module", SILENT)
def test_below_the_discord_layer_nothing_speaks_discord(module: str) -> None:
    above = ["discord", "bot.ui", "cogs", "bot.app"]
    above += [m for m in GRAPH if discord_side(m)]
    found = [i for prefix in above for i in imports(module, prefix)]
    assert not found, f"{module} imports {found}"


@pytest.mark.parametrize("module", [m for prefix in SHARED for m in modules(prefix)])
def test_the_shared_parts_never_import_a_feature(module: str) -> None:
    found = imports(module, "bot.features")
    assert not found, f"{module} imports {found}"


@pytest.mark.parametrize("module", modules("bot.render"))
def test_the_renderer_imports_nothing_above_it(module: str) -> None:
    found = [i for i in imports(module, "bot") if not i.startswith(("bot.render", "bot.memory"))]
    assert not found, f"{module} imports {found}"


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
