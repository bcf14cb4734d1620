"""The bot's slash commands as Discord receives them, and how much room each top-level command
has left: ``python -m tests.discord.command_surface`` prints, for each top-level command, its
children and its size in its longest locale against the lines the project keeps
(:data:`CHILDREN_MAX`, :data:`SIZE_MAX`), then its heaviest leaves.

Why from the registration payload: that is what Discord measures. It is built exactly as
``CommandTree.sync`` builds it (``_get_all_commands`` and ``get_translated_payload`` with the
bot's own translator, asked for every Discord locale), from the real bot with its real
extensions loaded.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.app import EXTENSIONS, RummyBot
from bot.config import Settings
from bot.storage import SqliteStore
from bot.ui.commands import CatalogueTranslator
from tests.discord_emulator.command_limits import command_size, option_size

#: The project's own lines, below Discord's (25 children, 4,000 characters), so that the next
#: feature finds room and a command near a limit is noticed before it is reached.
CHILDREN_MAX = 20
SIZE_MAX = 3400
#: Top-level commands, so that the bot does not flood a server's ``/`` menu.
TOP_LEVEL_MAX = 5


async def registered_payload(folder: Path) -> list[dict[str, Any]]:
    """What the bot's start-up sync would send Discord: its tree with every localisation."""
    store = SqliteStore(folder / "rummy.db")
    bot = RummyBot(Settings(database=store.path, drawing_processes=0), store)
    await bot.tree.set_translator(CatalogueTranslator())  # as setup_hook does
    for name in EXTENSIONS:
        await bot.load_extension(name)
    translator = bot.tree.translator
    assert translator is not None
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree._get_all_commands()
    ]


def heaviest(command: Mapping[str, Any], count: int = 3) -> list[tuple[str, int]]:
    """The children that weigh most (name, characters in their longest locale)."""
    sizes = [(child["name"], option_size(child)) for child in command.get("options") or ()]
    return sorted(sizes, key=lambda pair: -pair[1])[:count]


def report(payload: list[dict[str, Any]]) -> str:
    """One line per top-level command, with its room left, then its heaviest children."""
    lines = [f"{len(payload)} top-level commands (at most {TOP_LEVEL_MAX})"]
    for command in payload:
        children = command.get("options") or ()
        size = command_size(command)
        parts = ", ".join(f"{name} {weight}" for name, weight in heaviest(command))
        lines.append(
            f"/{command['name']}: {len(children)} children (at most {CHILDREN_MAX}), "
            f"{size} characters (at most {SIZE_MAX}); heaviest: {parts}"
        )
        lines.append("    " + " ".join(child["name"] for child in children))
    return "\n".join(lines)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        payload = asyncio.run(registered_payload(Path(folder)))
    print(report(payload))
    return 0


if __name__ == "__main__":
    sys.exit(main())
