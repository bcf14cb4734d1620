"""The ``/rummy`` command group: each command declares its options and calls one handler.

Kept thin on purpose: no logic here. The handlers (``bot/ui``) serve typed commands and clicks
alike; refusals and errors raised by them reach the tree's one error handler. ``setup`` builds
the handlers from what start-up prepared and registers this cog's persistent components.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.features.defaults.ui.panel import DefaultsHandlers
from bot.features.play import moves
from bot.features.play.actions import Action
from bot.features.play.threads import THREAD_CHOICES, THREAD_KEY
from bot.features.play.turn_timer import TIMER_CHOICES, TIMER_KEY
from bot.features.play.ui.autocomplete import Suggestions
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.lobby import LobbyHandlers
from bot.features.play.ui.play import PlayHandlers
from bot.features.play.ui.routes import make_router
from bot.features.play.ui.widgets import bound_items
from bot.features.replays.ui.replay import ReplayHandlers
from bot.features.seasons.ui import answers as seasons
from bot.features.stats.ui import leaderboard as boards
from bot.text import SUPPORTED_LOCALES, option_value_key
from bot.ui.commands import choice, describe_all, optional_choices, plain, text
from rummy_engine import OPTION_SPECS, End, Source, Variant, option_spec
from rummy_engine.ai import Strength


def _choices(group: str, *values: str) -> list[app_commands.Choice[str]]:
    return [choice(f"{group}.{value}", value) for value in values]


def _option_choices(key: str) -> list[app_commands.Choice[str]]:
    """A table option's values, from the engine's description of it, named by the catalogue."""
    found: list[app_commands.Choice[str]] = []
    for value in option_spec(key).choices:
        name = option_value_key(key, value)
        found.append(plain(value, value) if name is None else choice(name, value))
    return found


VARIANTS = _choices("variant", *(v.value for v in Variant))
MODES = _choices("choice.mode", "1v1", "2v2", "basic")
SORTS = _choices("choice.sort", "suit", "melds")
COMPUTER_ACTIONS: list[app_commands.Choice[str]] = [
    choice("choice.computer.add", Action.ADD_COMPUTER.value),
    choice("choice.computer.remove", Action.REMOVE_COMPUTER.value),
]
TEAMS: list[app_commands.Choice[int]] = [choice("choice.team.0", 0), choice("choice.team.1", 1)]
SOURCES = _choices("choice.source", *(s.value for s in Source))
LANGUAGES = _choices("choice.language", *SUPPORTED_LOCALES)
STRENGTHS = _choices("choice.strength", *(s.value for s in Strength))
ENDS = _choices("choice.end", End.LOW.value, End.HIGH.value)
# minutes read the same in every language; "off" is named by the catalogue
TIMERS = [plain(v, v) if v.isdigit() else choice(f"option.{v}", v) for v in TIMER_CHOICES]
THREADS = _choices("option.thread", *THREAD_CHOICES)
#: The table options ``/rummy new`` offers: the engine's common ones, the turn timer, and
#: whether the game gets a thread of its own.
NEW_OPTIONS = (*(spec.key for spec in OPTION_SPECS if spec.common), TIMER_KEY, THREAD_KEY)
NEW_CHOICES = {
    key: TIMERS if key == TIMER_KEY else THREADS if key == THREAD_KEY else _option_choices(key)
    for key in NEW_OPTIONS
}


class RummyCog(commands.GroupCog, group_name="rummy", group_description=text("command.rummy")):
    """Every ``/rummy`` command."""

    def __init__(self, ui: UiContext, lobby: LobbyHandlers, play: PlayHandlers) -> None:
        self.ui, self.lobby, self.play_ = ui, lobby, play
        self.replays = ReplayHandlers(ui)
        self.suggest = Suggestions(ui.tables)
        self.defaults = DefaultsHandlers(ui)

    # -- tables ---------------------------------------------------------------------------------

    @app_commands.command(name="new", description=text("command.new"))
    @describe_all("new", "variant", "mode", *NEW_OPTIONS, "language")
    @app_commands.choices(variant=VARIANTS, mode=MODES, language=LANGUAGES, **NEW_CHOICES)
    @optional_choices(*NEW_OPTIONS)
    async def new(
        self,
        interaction: discord.Interaction,
        /,
        variant: app_commands.Choice[str] | None = None,
        mode: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
        **chosen: app_commands.Choice[str] | None,
    ) -> None:
        options: dict[str, object] = {key: c.value for key, c in chosen.items() if c is not None}
        await self.lobby.new_table(
            interaction,
            variant.value if variant else None,
            mode.value if mode else None,
            options,
            locale=language.value if language else None,
        )

    @app_commands.command(name="server", description=text("defaults.command"))
    async def server(self, interaction: discord.Interaction) -> None:
        await self.defaults.open_panel(interaction)

    @app_commands.command(name="join", description=text("command.join"))
    @describe_all("join", "team")
    @app_commands.choices(team=TEAMS)
    async def join(
        self, interaction: discord.Interaction, team: app_commands.Choice[int] | None = None
    ) -> None:
        await self.lobby.seat(interaction, None, Action.JOIN, team=team.value if team else None)

    @app_commands.command(name="leave", description=text("command.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby.seat(interaction, None, Action.LEAVE)

    @app_commands.command(name="start", description=text("command.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby.start(interaction, None)

    @app_commands.command(name="cancel", description=text("command.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.lobby.seat(interaction, None, Action.CANCEL)

    @app_commands.command(name="kick", description=text("command.kick"))
    @describe_all("kick", "player")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.lobby.kick(interaction, player)

    @app_commands.command(name="computer", description=text("command.computer"))
    @describe_all("computer", "action", "team", "strength")
    @app_commands.choices(action=COMPUTER_ACTIONS, strength=STRENGTHS)
    @app_commands.choices(team=TEAMS)  # apart: one decorator's choices share one type
    async def computer(
        self,
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        team: app_commands.Choice[int] | None = None,
        strength: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.lobby.seat(
            interaction,
            None,
            Action(action.value),
            team=team.value if team else None,
            strength=Strength(strength.value if strength else "normal"),
        )

    # -- playing --------------------------------------------------------------------------------

    @app_commands.command(name="hand", description=text("command.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.play_.show_hand(interaction, None)

    @app_commands.command(name="draw", description=text("command.draw"))
    @describe_all("draw", "source")
    @app_commands.choices(source=SOURCES)
    async def draw(
        self, interaction: discord.Interaction, source: app_commands.Choice[str] | None = None
    ) -> None:
        build = moves.draw(Source(source.value) if source else Source.STOCK)
        await self.play_.play(interaction, None, build)

    @app_commands.command(name="lay", description=text("command.lay"))
    @app_commands.describe(melds=text("command.lay.melds"))
    async def lay(self, interaction: discord.Interaction, melds: str) -> None:
        await self.play_.play(interaction, None, moves.lay(melds))

    @app_commands.command(name="add", description=text("command.add"))
    @describe_all("add", "meld", "cards", "end")
    @app_commands.choices(end=ENDS)
    async def add(
        self,
        interaction: discord.Interaction,
        meld: app_commands.Range[int, 1, 200],
        cards: str,
        end: app_commands.Choice[str] | None = None,
    ) -> None:
        build = moves.add(meld, cards, End(end.value) if end else None)
        await self.play_.play(interaction, None, build)

    @app_commands.command(name="swap", description=text("command.swap"))
    @describe_all("swap", "meld", "card")
    async def swap(
        self, interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], card: str
    ) -> None:
        await self.play_.play(interaction, None, moves.swap(meld, card))

    @app_commands.command(name="discard", description=text("command.discard"))
    @describe_all("discard", "card")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play_.play(interaction, None, moves.discard(card))

    @app_commands.command(name="undo", description=text("command.undo"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.play_.play(interaction, None, moves.undo())

    @app_commands.command(name="hint", description=text("command.hint"))
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.play_.hint(interaction)

    @app_commands.command(name="count", description=text("command.count"))
    @describe_all("count", "cards", "variant")
    @app_commands.choices(variant=VARIANTS)
    async def count(
        self,
        interaction: discord.Interaction,
        cards: str,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.play_.count(interaction, cards, variant.value if variant else None)

    @app_commands.command(name="table", description=text("command.table"))
    async def table(self, interaction: discord.Interaction) -> None:
        await self.play_.repost(interaction)

    @app_commands.command(name="score", description=text("command.score"))
    async def score(self, interaction: discord.Interaction) -> None:
        await self.play_.score(interaction)

    @app_commands.command(name="rules", description=text("command.rules"))
    @describe_all("rules", "variant")
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        await self.play_.rules(interaction, variant.value if variant else None)

    @app_commands.command(name="prefs", description=text("command.prefs"))
    @app_commands.describe(
        four_colour=text("command.prefs.four_colour"), sort=text("command.prefs.sort")
    )
    @app_commands.choices(sort=SORTS)
    async def prefs(
        self,
        interaction: discord.Interaction,
        four_colour: bool | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.play_.set_prefs(
            interaction, four_colour=four_colour, sort=sort.value if sort else None
        )

    @app_commands.command(name="replay", description=text("command.replay"))
    @describe_all("replay", "table", "round")
    async def replay(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1] | None = None,
        round: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        await self.replays.command(interaction, table, round)

    # -- leaderboards -----------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description=text("command.leaderboard"))
    @describe_all("leaderboard", "variant", "scope", "sort")
    @app_commands.describe(season=text("seasons.command.board"))
    @app_commands.choices(
        variant=boards.VARIANT_CHOICES,
        scope=boards.SCOPE_CHOICES,
        sort=boards.SORT_CHOICES,
        season=seasons.BOARD_CHOICES,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        await seasons.leaderboard_command(
            interaction,
            self.ui.stats,
            self.ui.seasons,
            variant=variant.value if variant else None,
            scope=scope.value if scope else "server",
            sort=sort.value if sort else "rating",
            season=season.value if season else seasons.ALL_TIME,
        )

    @app_commands.command(name="season", description=text("seasons.command"))
    @app_commands.describe(
        length=text("seasons.command.length"), restart=text("seasons.command.restart")
    )
    @app_commands.choices(length=seasons.LENGTH_CHOICES)
    async def season(
        self,
        interaction: discord.Interaction,
        length: app_commands.Choice[str] | None = None,
        restart: bool = False,
    ) -> None:
        await seasons.season_command(
            interaction, self.ui.seasons, length=length.value if length else None, restart=restart
        )

    @app_commands.command(name="stats", description=text("command.stats"))
    @describe_all("stats", "player", "scope")
    @app_commands.choices(scope=boards.SCOPE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await boards.stats_command(
            interaction,
            self.ui.stats,
            player=player,
            scope=scope.value if scope else "server",
            drawer=self.ui.reconciler.pictures.drawer,
        )

    # -- autocomplete ---------------------------------------------------------------------------

    @lay.autocomplete("melds")
    @add.autocomplete("cards")
    async def _cards_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest.cards(interaction, current)

    @swap.autocomplete("card")
    @discard.autocomplete("card")
    async def _card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.suggest.card(interaction, current)

    @add.autocomplete("meld")
    @swap.autocomplete("meld")
    async def _meld_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.suggest.meld(interaction, current)


async def setup(bot: commands.Bot) -> None:
    """Build the handlers from the bot's :class:`UiContext` and register the components."""
    ui: UiContext = getattr(bot, "ui")  # noqa: B009 - set by start-up before loading cogs
    lobby, play = LobbyHandlers(ui), PlayHandlers(ui)
    bot.add_dynamic_items(
        *bound_items(make_router(lobby, play)),
        boards.bound_page_button(ui.stats),
        seasons.bound_season_button(ui.seasons),
    )
    await bot.add_cog(RummyCog(ui, lobby, play))
