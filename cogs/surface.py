"""The bot's slash commands: its top-level commands and what each holds, in one table.

Why top-level commands by what people do: Discord allows 25 children and 4,000 characters per
top-level command (its longest localisation counts), and one ``/rummy`` holding everything had
reached both, leaving no room for the next feature. What players type during a game stays
``/rummy draw``; the rest is grouped where a player would look for it. Each feature declares
its own leaves (its ``commands.py``); this table only says which top-level command holds them.
``tests/discord/test_command_limits.py`` keeps every top-level command under 20 children and
3,400 characters, and ``python -m tests.discord.command_surface`` prints their sizes.
"""

from __future__ import annotations

from collections.abc import Callable

from discord.ext import commands

from bot.features.defaults import commands as defaults
from bot.features.learn import commands as learn
from bot.features.learn.ui.lessons import bound_lesson_items, lesson_handlers
from bot.features.play import commands as play
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.lobby import LobbyHandlers
from bot.features.play.ui.play import PlayHandlers
from bot.features.play.ui.routes import make_router
from bot.features.play.ui.widgets import bound_items
from bot.features.puzzles import commands as puzzles
from bot.features.puzzles.ui.answers import bound_puzzle_items
from bot.features.replays import commands as replays
from bot.features.seasons import commands as seasons
from bot.features.seasons.ui.answers import bound_season_button
from bot.features.stats import commands as stats
from bot.features.stats.ui.answers import bound_page_button
from bot.ui.commands import Leaf, group

Leaves = Callable[[UiContext], list[Leaf]]

#: Each top-level command's name and the features' leaves it holds, in the order shown.
SURFACE: tuple[tuple[str, tuple[Leaves, ...]], ...] = (
    ("rummy", (play.table_commands,)),
    ("rummy-stats", (stats.commands, seasons.commands, replays.commands)),
    ("rummy-learn", (play.learn_commands, learn.commands)),
    ("rummy-settings", (play.settings_commands, defaults.commands, puzzles.commands)),
)


async def setup(bot: commands.Bot) -> None:
    """Register the top-level commands and the persistent components of every feature."""
    ui: UiContext = getattr(bot, "ui")  # noqa: B009 - set by start-up before loading cogs
    for name, parts in SURFACE:
        bot.tree.add_command(group(name, (leaf for part in parts for leaf in part(ui))))
    bot.add_dynamic_items(
        *bound_items(make_router(LobbyHandlers(ui), PlayHandlers(ui))),
        bound_page_button(ui.stats),
        bound_season_button(ui.seasons),
        *(bound_puzzle_items(ui.puzzles) if ui.puzzles is not None else ()),
        *bound_lesson_items(lesson_handlers(ui)),
    )


async def teardown(bot: commands.Bot) -> None:
    """Unregister what :func:`setup` registered (reloading the extension registers it anew)."""
    for name, _ in SURFACE:
        bot.tree.remove_command(name)
