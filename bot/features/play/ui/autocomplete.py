"""Suggestions while a player types a card, a meld list or a meld number: only from their own
hand and the public table, never anyone else's cards."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.play.tables import Table, TableService
from bot.features.play.ui.panels import meld_label
from bot.text.safe import LABEL_LIMIT
from rummy_engine import Face, Phase, RuleViolation, parse_faces, sort_key

MAX_CHOICES = 25


class Suggestions:
    """Autocomplete answers for the ``/rummy`` commands."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def _table(self, interaction: discord.Interaction) -> Table | None:
        try:
            return await self.tables.here(interaction.guild_id, interaction.channel_id)
        except RuleViolation:
            return None

    async def _hand(self, interaction: discord.Interaction) -> list[Face]:
        table = await self._table(interaction)
        seat = None if table is None else table.seat_of(interaction.user.id)
        if table is None or table.game is None or seat is None:
            return []
        return [c.face for c in sorted(table.game.hands[seat], key=sort_key)]

    async def cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Complete the last card of a list being typed."""
        return card_suggestions(await self._hand(interaction), current)

    async def card(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """One card of the hand, by its name."""
        typed = current.strip().lower()
        unique = dict.fromkeys(await self._hand(interaction))
        return [
            app_commands.Choice(name=face.pretty, value=face.text)
            for face in unique
            if face.text.lower().startswith(typed)
        ][:MAX_CHOICES]

    async def meld(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """A table meld by its number, shown with its cards."""
        table = await self._table(interaction)
        if table is None or table.game is None or table.game.phase is Phase.GAME_OVER:
            return []
        choices = [
            app_commands.Choice(name=meld_label(i + 1, tm.meld), value=i + 1)
            for i, tm in enumerate(table.game.table)
        ]
        return [c for c in choices if current.strip() in c.name][:MAX_CHOICES]


def card_suggestions(hand: list[Face], current: str) -> list[app_commands.Choice[str]]:
    """Complete the last card being typed from the player's own hand."""
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
        app_commands.Choice(
            name=(prefix + f.text)[:LABEL_LIMIT], value=(prefix + f.text)[:LABEL_LIMIT]
        )
        for f in options
    ][:MAX_CHOICES]
