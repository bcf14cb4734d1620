"""The ``/rummy`` command group: parse the options, hand over to the controller.

Kept thin on purpose: each command names its options (with choices and autocomplete) and calls
one controller method; the same controller serves the buttons, so typing and clicking behave
alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import Controller, locale_of
from bot.i18n import t
from bot.services import moves, presenter
from bot.services.refusal import Refusal
from cogs import stats as stats_cog
from rummy_engine import Face, Phase, Variant, parse_faces, sort_key
from rummy_engine.errors import RuleViolation

if TYPE_CHECKING:
    from bot.client import RummyBot

VARIANTS = [
    app_commands.Choice(name="Simple", value="simple"),
    app_commands.Choice(name="Rummy 51", value="r51"),
    app_commands.Choice(name="Rummy 71", value="r71"),
    app_commands.Choice(name="Basic rummy (2–6 players)", value="basic"),
]
MODES = [
    app_commands.Choice(name="1v1", value="1v1"),
    app_commands.Choice(name="2v2 (partners opposite)", value="2v2"),
    app_commands.Choice(name="2–6 players (Basic rummy)", value="basic"),
]
SORTS = [
    app_commands.Choice(name="by suit and rank", value="suit"),
    app_commands.Choice(name="by the melds it holds", value="melds"),
]
COMPUTER_ACTIONS = [
    app_commands.Choice(name="add", value="addbot"),
    app_commands.Choice(name="remove", value="rmbot"),
]
TEAMS = [app_commands.Choice(name="Team A", value=0), app_commands.Choice(name="Team B", value=1)]
SOURCES = [
    app_commands.Choice(name="stock", value="stock"),
    app_commands.Choice(name="discard pile", value="discard"),
]
ACE_MODES = [app_commands.Choice(name=v, value=v) for v in ("low_high", "low_only", "wrap")]
TAKES = [app_commands.Choice(name=v, value=v) for v in ("must_use", "free")]
JOKER_LIMITS = [
    app_commands.Choice(name=v, value=v) for v in ("1", "2", "unlimited_if_naturals_gt_jokers")
]


class RummyCog(commands.GroupCog, group_name="rummy", group_description="Play rummy at this table"):
    """Every ``/rummy`` command."""

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @property
    def controller(self) -> Controller:
        return self.bot.controller

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
    )
    @app_commands.choices(
        variant=VARIANTS,
        mode=MODES,
        ace_mode=ACE_MODES,
        discard_take=TAKES,
        max_jokers_per_meld=JOKER_LIMITS,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str],
        mode: app_commands.Choice[str] | None = None,
        ace_mode: app_commands.Choice[str] | None = None,
        discard_take: app_commands.Choice[str] | None = None,
        bar_in_1v1: bool | None = None,
        max_jokers_per_meld: app_commands.Choice[str] | None = None,
        basic_rounds: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        chosen = {
            "ace_mode": ace_mode.value if ace_mode else None,
            "discard_take": discard_take.value if discard_take else None,
            "bar_in_1v1": bar_in_1v1,
            "max_jokers_per_meld": max_jokers_per_meld.value if max_jokers_per_meld else None,
            "basic_rounds": basic_rounds,
        }
        options: dict[str, object] = {k: v for k, v in chosen.items() if v is not None}
        await self.controller.new_table(
            interaction, Variant(variant.value), mode.value if mode else "1v1", options
        )

    @app_commands.command(name="join", description="Sit down at this channel's table")
    @app_commands.choices(team=TEAMS)
    async def join(
        self, interaction: discord.Interaction, team: app_commands.Choice[int] | None = None
    ) -> None:
        await self.controller.lobby_action(
            interaction, None, "join", team=team.value if team else None
        )

    @app_commands.command(
        name="leave", description="Leave the lobby, or leave a running game (a forfeit)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.controller.lobby_action(interaction, None, "leave")

    @app_commands.command(name="start", description="Deal the first round (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.controller.start(interaction, None)

    @app_commands.command(
        name="cancel",
        description="Close this channel's table without a result (host or Manage Server)",
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.controller.lobby_action(interaction, None, "cancel")

    @app_commands.command(name="kick", description="Remove a player from the lobby (host)")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.controller.lobby_action(interaction, None, "kick", target=player)

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
        await self.controller.lobby_action(
            interaction, None, action.value, team=team.value if team else None
        )

    # -- playing --------------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your hand (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction, None)

    @app_commands.command(name="draw", description="Draw from the stock or take the top discard")
    @app_commands.choices(source=SOURCES)
    async def draw(
        self, interaction: discord.Interaction, source: app_commands.Choice[str] | None = None
    ) -> None:
        await self.controller.play(
            interaction, None, moves.typed("draw", source=source.value if source else "stock")
        )

    @app_commands.command(
        name="lay", description='Lay melds, e.g. "7h 8h 9h | Qs Qd Qc" ("| +3 10h" adds to meld 3)'
    )
    @app_commands.describe(
        melds="Cards of each meld separated by |; JK for a joker in its place; +N cards adds to meld N"
    )
    async def lay(self, interaction: discord.Interaction, melds: str) -> None:
        await self.controller.play(interaction, None, moves.typed("lay", melds=melds))

    @app_commands.command(name="add", description="Add cards to a meld on the table")
    @app_commands.describe(meld="The meld's number (see the table)", cards="Cards to add, e.g. 10h")
    async def add(
        self, interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], cards: str
    ) -> None:
        await self.controller.play(interaction, None, moves.typed("add", meld=meld, cards=cards))

    @app_commands.command(
        name="swap", description="Give the card a joker stands for and take the joker"
    )
    async def swap(
        self, interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], card: str
    ) -> None:
        await self.controller.play(interaction, None, moves.typed("swap", meld=meld, card=card))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.controller.play(interaction, None, moves.typed("discard", card=card))

    @app_commands.command(
        name="undo", description="Put back the discard you took and draw from the stock"
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.controller.play(interaction, None, moves.typed("undo"))

    @app_commands.command(
        name="table", description="Post the table again at the bottom of the channel"
    )
    async def table(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await self.controller.defer_private(interaction)
            table = await self.controller.table_here(interaction)
            if table.game is None:
                await self.bot.delivery.post_lobby(table)
            else:
                await self.bot.delivery.show_table(table, presenter.names_for(table), repost=True)
            await interaction.followup.send(
                t("table.reposted", locale_of(interaction)), ephemeral=True
            )

        await self.controller.guarded(interaction, None, work)

    @app_commands.command(
        name="score", description="Scores and round results of this channel's game"
    )
    async def score(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await self.controller.defer_private(interaction)
            table = await self.controller.table_here(interaction)
            await interaction.followup.send(
                presenter.score_text(table, locale_of(interaction)), ephemeral=True
            )

        await self.controller.guarded(interaction, None, work)

    @app_commands.command(
        name="rules", description="The rules of a variant and of this table's options"
    )
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        async def work() -> None:
            await self.controller.defer_private(interaction)
            table = None
            if interaction.guild_id is not None and interaction.channel_id is not None:
                table = await self.bot.tables.in_channel(
                    interaction.guild_id, interaction.channel_id
                )
            text = presenter.rules_text(
                variant.value if variant else None, table, locale_of(interaction)
            )
            await interaction.followup.send(text, ephemeral=True)

        await self.controller.guarded(interaction, None, work)

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
        await self.controller.set_prefs(
            interaction, four_colour=four_colour, sort=sort.value if sort else None
        )

    # -- leaderboards -----------------------------------------------------------------------------

    @app_commands.command(
        name="leaderboard", description="The best players, by rating, wins or win rate"
    )
    @app_commands.choices(
        variant=stats_cog.VARIANT_CHOICES,
        scope=stats_cog.SCOPE_CHOICES,
        sort=stats_cog.SORT_CHOICES,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        await stats_cog.leaderboard_command(
            interaction,
            self.bot.stats,
            variant=variant.value if variant else None,
            scope=scope.value if scope else "server",
            sort=sort.value if sort else "rating",
        )

    @app_commands.command(name="stats", description="A player's games, wins, rating and records")
    @app_commands.choices(scope=stats_cog.SCOPE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await stats_cog.stats_command(
            interaction, self.bot.stats, player=player, scope=scope.value if scope else "server"
        )

    # -- autocomplete ---------------------------------------------------------------------------

    async def _my_hand(self, interaction: discord.Interaction) -> list[Face]:
        try:
            table = await self.controller.table_here(interaction)
        except Refusal:
            return []
        seat = table.seat_of(interaction.user.id)
        if table.game is None or seat is None:
            return []
        return [c.face for c in sorted(table.game.hands[seat], key=sort_key)]

    @lay.autocomplete("melds")
    @add.autocomplete("cards")
    async def _cards_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return card_suggestions(await self._my_hand(interaction), current)

    @swap.autocomplete("card")
    @discard.autocomplete("card")
    async def _card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        hand = await self._my_hand(interaction)
        typed = current.strip().lower()
        unique = list(dict.fromkeys(f.text for f in hand))
        return [
            app_commands.Choice(name=parse_faces(x)[0].pretty, value=x)
            for x in unique
            if x.lower().startswith(typed)
        ][:25]

    @add.autocomplete("meld")
    @swap.autocomplete("meld")
    async def _meld_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            table = await self.controller.table_here(interaction)
        except Refusal:
            return []
        if table.game is None or table.game.phase is Phase.GAME_OVER:
            return []
        choices = [
            app_commands.Choice(name=presenter.meld_label(i + 1, tm.meld)[:100], value=i + 1)
            for i, tm in enumerate(table.game.table)
        ]
        return [c for c in choices if current.strip() in c.name][:25]


def card_suggestions(hand: list[Face], current: str) -> list[app_commands.Choice[str]]:
    """Complete the last card being typed from the player's own hand (never anyone else's)."""
    head, _, last = current.rpartition(" ")
    try:
        typed = parse_faces(head.replace("|", " ")) if head.strip(" |") else []
    except RuleViolation:
        typed = []
    left = list(hand)
    for face in typed:
        if face in left:
            left.remove(face)
    options = [f for f in dict.fromkeys(left) if f.text.lower().startswith(last.lower())]
    prefix = f"{head} " if head else ""
    return [
        app_commands.Choice(name=(prefix + f.text)[:100], value=(prefix + f.text)[:100])
        for f in options
    ][:25]


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(RummyCog(bot))
