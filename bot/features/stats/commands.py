"""Statistics' slash commands: the leaderboard (all-time or a season's) and a player's numbers."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play.ui.context import UiContext
from bot.features.seasons.ui import answers as seasons
from bot.features.stats.ui import answers as boards
from bot.ui.commands import Leaf, leaf


def commands(ui: UiContext) -> list[Leaf]:
    """``leaderboard`` and ``player``."""

    @leaf("leaderboard")
    @app_commands.choices(
        variant=boards.VARIANT_CHOICES,
        scope=boards.SCOPE_CHOICES,
        sort=boards.SORT_CHOICES,
        season=seasons.BOARD_CHOICES,
    )
    async def leaderboard(
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        await seasons.leaderboard_command(
            interaction,
            ui.stats,
            ui.seasons,
            variant=variant.value if variant else None,
            scope=scope.value if scope else "server",
            sort=sort.value if sort else "rating",
            season=season.value if season else seasons.ALL_TIME,
        )

    @leaf("player")
    @app_commands.choices(scope=boards.SCOPE_CHOICES)
    async def player(
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await boards.stats_command(
            interaction,
            ui.stats,
            player=player,
            scope=scope.value if scope else "server",
            drawer=ui.reconciler.pictures.drawer,
        )

    return [leaderboard, player]
