"""Play's slash commands: the table in this channel (open it, sit down, play), learning the rules,
and a player's own display.

Each function returns the leaves one top-level command holds (``cogs/surface.py`` says which);
the handlers they call serve typed commands and clicks alike, so nothing here decides anything.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play import moves
from bot.features.play.actions import Action
from bot.features.play.settings import Setting, Where, offered
from bot.features.play.ui.autocomplete import Suggestions
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.lobby import LobbyHandlers
from bot.features.play.ui.play import PlayHandlers
from bot.ui.commands import Leaf, choice, leaf, optional_choices, plain
from rummy_engine import End, Source, Variant
from rummy_engine.ai import Strength


def _choices(group: str, *values: str) -> list[app_commands.Choice[str]]:
    return [choice(f"{group}.{value}", value) for value in values]


def _setting_choices(setting: Setting) -> list[app_commands.Choice[str]]:
    """A table setting's values, from its declaration, named by the catalogue (numbers read
    the same in every language)."""
    found: list[app_commands.Choice[str]] = []
    for value in setting.choices:
        name = setting.value_key(value)
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
STRENGTHS = _choices("choice.strength", *(s.value for s in Strength))
ENDS = _choices("choice.end", End.LOW.value, End.HIGH.value)
#: The table settings ``new`` offers (bot/features/play/settings.py: ``Where.NEW``).
NEW_CHOICES = {s.key: _setting_choices(s) for s in offered(Where.NEW)}


def table_commands(ui: UiContext) -> list[Leaf]:
    """The table of this channel: open it, sit down, deal, then every move of a game."""
    return [*_lobby_commands(LobbyHandlers(ui)), *_move_commands(PlayHandlers(ui), ui)]


def _lobby_commands(lobby: LobbyHandlers) -> list[Leaf]:
    @leaf("new")
    @app_commands.choices(variant=VARIANTS, mode=MODES, **NEW_CHOICES)
    @optional_choices(*NEW_CHOICES)
    async def new(
        interaction: discord.Interaction,
        /,
        variant: app_commands.Choice[str] | None = None,
        mode: app_commands.Choice[str] | None = None,
        **chosen: app_commands.Choice[str] | None,
    ) -> None:
        options: dict[str, object] = {key: c.value for key, c in chosen.items() if c is not None}
        await lobby.new_table(
            interaction, variant.value if variant else None, mode.value if mode else None, options
        )

    @leaf("join")
    @app_commands.choices(team=TEAMS)
    async def join(
        interaction: discord.Interaction, team: app_commands.Choice[int] | None = None
    ) -> None:
        await lobby.seat(interaction, None, Action.JOIN, team=team.value if team else None)

    @leaf("leave")
    async def leave(interaction: discord.Interaction) -> None:
        await lobby.seat(interaction, None, Action.LEAVE)

    @leaf("start")
    async def start(interaction: discord.Interaction) -> None:
        await lobby.start(interaction, None)

    @leaf("cancel")
    async def cancel(interaction: discord.Interaction) -> None:
        await lobby.seat(interaction, None, Action.CANCEL)

    @leaf("kick")
    async def kick(interaction: discord.Interaction, player: discord.Member) -> None:
        await lobby.kick(interaction, player)

    @leaf("computer")
    @app_commands.choices(action=COMPUTER_ACTIONS, strength=STRENGTHS)
    @app_commands.choices(team=TEAMS)  # apart: one decorator's choices share one type
    async def computer(
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        team: app_commands.Choice[int] | None = None,
        strength: app_commands.Choice[str] | None = None,
    ) -> None:
        await lobby.seat(
            interaction,
            None,
            Action(action.value),
            team=team.value if team else None,
            strength=Strength(strength.value if strength else "normal"),
        )

    return [new, join, leave, start, cancel, kick, computer]


def _move_commands(play: PlayHandlers, ui: UiContext) -> list[Leaf]:
    suggest = Suggestions(ui.tables)

    @leaf("hand")
    async def hand(interaction: discord.Interaction) -> None:
        await play.show_hand(interaction, None)

    @leaf("draw")
    @app_commands.choices(source=SOURCES)
    async def draw(
        interaction: discord.Interaction, source: app_commands.Choice[str] | None = None
    ) -> None:
        build = moves.draw(Source(source.value) if source else Source.STOCK)
        await play.play(interaction, None, build)

    @leaf("lay")
    async def lay(interaction: discord.Interaction, melds: str) -> None:
        await play.play(interaction, None, moves.lay(melds))

    @leaf("add")
    @app_commands.choices(end=ENDS)
    async def add(
        interaction: discord.Interaction,
        meld: app_commands.Range[int, 1, 200],
        cards: str,
        end: app_commands.Choice[str] | None = None,
    ) -> None:
        build = moves.add(meld, cards, End(end.value) if end else None)
        await play.play(interaction, None, build)

    @leaf("swap")
    async def swap(
        interaction: discord.Interaction, meld: app_commands.Range[int, 1, 200], card: str
    ) -> None:
        await play.play(interaction, None, moves.swap(meld, card))

    @leaf("discard")
    async def discard(interaction: discord.Interaction, card: str) -> None:
        await play.play(interaction, None, moves.discard(card))

    @leaf("undo")
    async def undo(interaction: discord.Interaction) -> None:
        await play.play(interaction, None, moves.undo())

    @leaf("hint")
    async def hint(interaction: discord.Interaction) -> None:
        await play.hint(interaction)

    @leaf("table")
    async def table(interaction: discord.Interaction) -> None:
        await play.repost(interaction)

    @leaf("score")
    async def score(interaction: discord.Interaction) -> None:
        await play.score(interaction)

    @lay.autocomplete("melds")
    @add.autocomplete("cards")
    async def cards_typed(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await suggest.cards(interaction, current)

    @swap.autocomplete("card")
    @discard.autocomplete("card")
    async def card_typed(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await suggest.card(interaction, current)

    @add.autocomplete("meld")
    @swap.autocomplete("meld")
    async def meld_typed(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await suggest.meld(interaction, current)

    return [hand, draw, lay, add, swap, discard, undo, hint, table, score]


def learn_commands(ui: UiContext) -> list[Leaf]:
    """The rules of a variant and the score calculator, at a table or anywhere."""
    play = PlayHandlers(ui)

    @leaf("rules")
    @app_commands.choices(variant=VARIANTS)
    async def rules(
        interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        await play.rules(interaction, variant.value if variant else None)

    @leaf("count")
    @app_commands.choices(variant=VARIANTS)
    async def count(
        interaction: discord.Interaction,
        cards: str,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        await play.count(interaction, cards, variant.value if variant else None)

    return [rules, count]


def settings_commands(ui: UiContext) -> list[Leaf]:
    """A player's own display of their hands."""
    play = PlayHandlers(ui)

    @leaf("me")
    @app_commands.choices(sort=SORTS)
    async def me(
        interaction: discord.Interaction,
        four_colour: bool | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        await play.set_prefs(
            interaction, four_colour=four_colour, sort=sort.value if sort else None
        )

    return [me]
