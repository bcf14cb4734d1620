"""The ``/rummy`` command group: each command declares its options and calls one handler.

Kept thin on purpose: no logic here. The handlers (``bot/ui``) serve typed commands and clicks
alike; refusals and errors raised by them reach the tree's one error handler. ``setup`` builds
the handlers from what start-up prepared and registers this cog's persistent components.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import moves
from bot.services.turn_timer import TIMER_CHOICES, TIMER_KEY
from bot.text import t
from bot.ui import leaderboard as boards
from bot.ui.autocomplete import Suggestions
from bot.ui.context import UiContext
from bot.ui.lobby import LobbyHandlers
from bot.ui.play import PlayHandlers
from bot.ui.routes import make_router
from bot.ui.widgets import Action, bound_items
from rummy_engine import Variant, option_spec


def _choices(*pairs: tuple[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=value) for name, value in pairs]


def _option_choices(key: str) -> list[app_commands.Choice[str]]:
    """A table option's values, from the engine's description of it."""
    return _choices(*((v, v) for v in option_spec(key).choices))


VARIANTS = _choices(*((t(f"variant.{v.value}"), v.value) for v in Variant))
MODES = _choices(
    ("1v1", "1v1"), ("2v2 (partners opposite)", "2v2"), ("2–6 players (Basic rummy)", "basic")
)
SORTS = _choices(("by suit and rank", "suit"), ("by the melds it holds", "melds"))
COMPUTER_ACTIONS = _choices(("add", Action.ADD_COMPUTER.value), ("remove", Action.REMOVE_COMPUTER.value))
TEAMS = [app_commands.Choice(name="Team A", value=0), app_commands.Choice(name="Team B", value=1)]
SOURCES = _choices(("stock", "stock"), ("discard pile", "discard"))
NEW_OPTIONS = (
    "ace_mode",
    "discard_take",
    "bar_in_1v1",
    "max_jokers_per_meld",
    "basic_rounds",
    TIMER_KEY,
)


class RummyCog(commands.GroupCog, group_name="rummy", group_description="Play rummy at this table"):
    """Every ``/rummy`` command."""

    def __init__(self, ui: UiContext, lobby: LobbyHandlers, play: PlayHandlers) -> None:
        self.ui, self.lobby, self.play_ = ui, lobby, play
        self.suggest = Suggestions(ui.tables)

    # -- tables ---------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a rummy table in this channel")
    @app_commands.describe(
        variant="Which rummy",
        mode="1v1 or 2v2 (Basic rummy seats 2–6 players)",
        ace_mode="Where the Ace goes in runs (Atlas)",
        discard_take="Taking the top discard (Rummy 51/71)",
        bar_in_1v1="The +1 bar in 1v1 (Rummy 51/71)",
        max_jokers_per_meld="Jokers allowed in one meld (Atlas)",
        basic_rounds="Rounds to play (Basic rummy)",
        turn_timer="Minutes per turn before the turn is played for the player (default: the bot's)",
    )
    @app_commands.choices(
        variant=VARIANTS,
        mode=MODES,
        ace_mode=_option_choices("ace_mode"),
        discard_take=_option_choices("discard_take"),
        bar_in_1v1=_option_choices("bar_in_1v1"),
        max_jokers_per_meld=_option_choices("max_jokers_per_meld"),
        basic_rounds=_option_choices("basic_rounds"),
        turn_timer=_choices(*((v, v) for v in TIMER_CHOICES)),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str],
        mode: app_commands.Choice[str] | None = None,
        ace_mode: app_commands.Choice[str] | None = None,
        discard_take: app_commands.Choice[str] | None = None,
        bar_in_1v1: app_commands.Choice[str] | None = None,
        max_jokers_per_meld: app_commands.Choice[str] | None = None,
        basic_rounds: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[str] | None = None,
    ) -> None:
        given = (ace_mode, discard_take, bar_in_1v1, max_jokers_per_meld, basic_rounds, turn_timer)
        options: dict[str, object] = {
            key: choice.value for key, choice in zip(NEW_OPTIONS, given, strict=True) if choice
        }
        await self.lobby.new_table(
            interaction, Variant(variant.value), mode.value if mode else "1v1", options
        )

    @app_commands.command(name="join", description="Sit down at this channel's table")
    @app_commands.choices(team=TEAMS)
    async def join(
        self, interaction: discord.Interaction, team: app_commands.Choice[int] | None = None
    ) -> None:
        await self.lobby.seat(interaction, None, Action.JOIN, team=team.value if team else None)

    @app_commands.command(
        name="leave", description="Leave the lobby, or leave a running game (a forfeit)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby.seat(interaction, None, Action.LEAVE)

    @app_commands.command(name="start", description="Deal the first round (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby.start(interaction, None)

    @app_commands.command(
        name="cancel",
        description="Close this channel's table without a result (host or Manage Server)",
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.lobby.seat(interaction, None, Action.CANCEL)

    @app_commands.command(name="kick", description="Remove a player from the lobby (host)")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.lobby.kick(interaction, player)

    @app_commands.command(
        name="computer", description="Add or remove a computer player in the lobby (host)"
    )
    @app_commands.choices(action=COMPUTER_ACTIONS, team=TEAMS)
    async def computer(
        self,
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        team: app_commands.Choice[int] | None = None,
    ) -> None:
        await self.lobby.seat(
            interaction, None, Action(action.value), team=team.value if team else None
        )

    # -- playing --------------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your hand (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.play_.show_hand(interaction, None)

    @app_commands.command(name="draw", description="Draw from the stock or take the top discard")
    @app_commands.choices(source=SOURCES)
    async def draw(
        self, interaction: discord.Interaction, source: app_commands.Choice[str] | None = None
    ) -> None:
        build = moves.typed("draw", source=source.value if source else "stock")
        await self.play_.play(interaction, None, build)

    @app_commands.command(
        name="lay", description='Lay melds, e.g. "7h 8h 9h | Qs Qd Qc" ("| +3 10h" adds to meld 3)'
    )
    @app_commands.describe(
        melds="Cards of each meld separated by |; JK for a joker in its place; +N cards adds to meld N"
    )
    async def lay(self, interaction: discord.Interaction, melds: str) -> None:
        await self.play_.play(interaction, None, moves.typed("lay", melds=melds))

    @app_commands.command(name="add", description="Add cards to a meld on the table")
    @app_commands.describe(meld="The meld's number (see the table)", cards="Cards to add, e.g. 10h")
    async def add(
        self, interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], cards: str
    ) -> None:
        await self.play_.play(interaction, None, moves.typed("add", meld=meld, cards=cards))

    @app_commands.command(
        name="swap", description="Give the card a joker stands for and take the joker"
    )
    async def swap(
        self, interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], card: str
    ) -> None:
        await self.play_.play(interaction, None, moves.typed("swap", meld=meld, card=card))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play_.play(interaction, None, moves.typed("discard", card=card))

    @app_commands.command(
        name="undo", description="Put back the discard you took and draw from the stock"
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.play_.play(interaction, None, moves.typed("undo"))

    @app_commands.command(
        name="table", description="Post the table again at the bottom of the channel"
    )
    async def table(self, interaction: discord.Interaction) -> None:
        await self.play_.repost(interaction)

    @app_commands.command(
        name="score", description="Scores and round results of this channel's game"
    )
    async def score(self, interaction: discord.Interaction) -> None:
        await self.play_.score(interaction)

    @app_commands.command(
        name="rules", description="The rules of a variant and of this table's options"
    )
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        await self.play_.rules(interaction, variant.value if variant else None)

    @app_commands.command(
        name="prefs", description="Your display settings: four-colour deck, hand order"
    )
    @app_commands.describe(
        four_colour="♦ blue and ♣ green, for colour-blind players", sort="Order of your hand"
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

    # -- leaderboards -----------------------------------------------------------------------------

    @app_commands.command(
        name="leaderboard", description="The best players, by rating, wins or win rate"
    )
    @app_commands.choices(
        variant=boards.VARIANT_CHOICES,
        scope=boards.SCOPE_CHOICES,
        sort=boards.SORT_CHOICES,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        await boards.leaderboard_command(
            interaction,
            self.ui.stats,
            variant=variant.value if variant else None,
            scope=scope.value if scope else "server",
            sort=sort.value if sort else "rating",
        )

    @app_commands.command(name="stats", description="A player's games, wins, rating and records")
    @app_commands.choices(scope=boards.SCOPE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await boards.stats_command(
            interaction, self.ui.stats, player=player, scope=scope.value if scope else "server"
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
        *bound_items(make_router(lobby, play)), boards.bound_page_button(ui.stats)
    )
    await bot.add_cog(RummyCog(ui, lobby, play))
