"""Handlers of play: moves typed or clicked, the private hand panel, the next round, and the
table's read-only commands (repost, scores, rules, display preferences).

A move: acknowledge, let the table service verify, apply and commit it, answer the mover
privately with their new hand, then let the reconciler show everyone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.features.play import advice, coaching, moves, presenter
from bot.features.play.presenter import names_for
from bot.features.play.tables import Table
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.messages import hand_draft
from bot.features.play.ui.panels import (
    arrangement_select,
    end_select,
    go_out_buttons,
    panel_view,
)
from bot.features.play.ui.widgets import TableButton, TableSelect
from bot.services.refusal import Refusal
from bot.storage import PlayerPrefs
from bot.text import t
from bot.ui.interaction import (
    DISCORD_FAILURES,
    age_of,
    defer_private,
    defer_unless_answered,
    defer_update,
    edit_panel,
    locale_of,
    mark_saved,
    reply,
)
from rummy_engine import Face, Meld, Rules, Variant, meld_targets

#: The calculator's table size: what a hand costs does not depend on it.
COUNT_PLAYERS = 2


class PlayHandlers:
    """Entry points for moves, hands and the table's information commands."""

    def __init__(self, ui: UiContext) -> None:
        self.ui = ui

    async def _table(self, interaction: discord.Interaction, table_id: int | None) -> Table:
        if table_id is not None:
            return await self.ui.tables.load(table_id)
        return await self.ui.tables.here(interaction.guild_id, interaction.channel_id)

    async def play(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        build: moves.Builder,
        *,
        turn: int | None = None,
        in_panel: bool = False,
    ) -> None:
        """Apply an action for the caller's seat, answer with the new hand, publish.

        A press on the table message's own buttons is acknowledged as an update of that message:
        the table is then edited through the interaction (not the bot token), and the new hand
        goes to the mover as a private follow-up. A typed move is answered with the new hand in
        one call, once it is committed (deferred only if that takes long)."""
        if in_panel or on_table_message(interaction):
            await defer_update(interaction)
        else:
            lag = self.ui.lag
            if lag is not None:
                lag.saw(age_of(interaction))
            await defer_unless_answered(interaction, lagging=lag is not None and lag.behind())
        async with self.ui.moves:  # acknowledged (or its timer armed): it may wait its turn
            await self._carry(interaction, table_id, build, turn, in_panel)

    async def _carry(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        build: moves.Builder,
        turn: int | None,
        in_panel: bool,
    ) -> None:
        tid = await self.ui.table_id(interaction, table_id)
        try:
            played = await self.ui.tables.act(tid, interaction.user.id, build, turn=turn)
        except moves.Ask as ask:
            await self._ask(interaction, tid, ask, edit=in_panel)
            return
        seat = played.actor_seat
        assert seat is not None
        mark_saved(interaction)
        note = ""
        if played.note is not None:  # coached practice: the turn's note rides on this answer
            by_seat = names_for(played.table).by_seat
            note = coaching.note_text(played.note, by_seat, locale_of(interaction))
        try:
            picture = await self.show_panel(
                interaction, played.table, seat, (), edit=in_panel, note=note
            )
        except DISCORD_FAILURES:
            # Discord failed the answer (a follow-up dropped, say): the move is stored, so the
            # table shows it first, then the mover's hand is sent once more.
            await self.ui.committed(played, interaction.user.id, interaction=interaction)
            await self.show_panel(interaction, played.table, seat, (), edit=in_panel, note=note)
            return
        # The mover's DM shows the same hand at the end of the turn: kept until it is edited.
        with self.ui.reconciler.pictures.pinned(picture):
            await self.ui.committed(played, interaction.user.id, interaction=interaction)

    async def _ask(
        self, interaction: discord.Interaction, table_id: int, ask: moves.Ask, *, edit: bool
    ) -> None:
        """Show the panel again with the question a click raised (nothing was played)."""
        table = await self.ui.tables.load(table_id)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None, "only a seated player's click can raise a question"
        locale = locale_of(interaction)
        question: TableSelect | list[TableButton]
        if ask.kind == coaching.GO_OUT:
            (card,) = [face for face in ask.options if isinstance(face, Face)]
            question = go_out_buttons(table, card, locale)
            chosen: Sequence[Face] = ()  # the question's button alone carries the discard
            sentence = t("coach.go_out_ask", locale, card=card.pretty)
        elif ask.kind == "end":
            labels = moves.end_labels(table.require_game(), seat, ask.meld, ask.cards)
            question = end_select(table, ask.meld, ask.cards, labels, locale)
            chosen = ask.cards
            sentence = t("hand.ask_end", locale, meld=ask.meld)
        else:
            lays = [lay for lay in ask.options if isinstance(lay, tuple)]
            question = arrangement_select(table, lays, locale)
            chosen = [f for meld in lays[0] for f in meld]
            sentence = t("hand.ask_arrangement", locale, count=len(lays))
        await self.show_panel(
            interaction, table, seat, chosen, edit=edit, question=question, note=sentence
        )

    async def show_hand(self, interaction: discord.Interaction, table_id: int | None) -> None:
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        table = await self._table(interaction, table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        table.require_game()
        await self.show_panel(interaction, table, seat, ())

    async def pick_cards(
        self, interaction: discord.Interaction, table_id: int, values: Sequence[str]
    ) -> None:
        await defer_update(interaction)
        table = await self.ui.tables.load(table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        chosen = [moves.picked_face(v) for v in values]
        await self.show_panel(interaction, table, seat, chosen, edit=True)

    async def show_panel(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        chosen: Sequence[Face],
        *,
        edit: bool = False,
        question: TableSelect | list[TableButton] | None = None,
        note: str = "",
    ) -> str:
        """The player's private hand panel: text, image and the pick/lay/discard controls,
        with ``question`` (a follow-up select) and its ``note`` when a click needs an answer.
        The picture is the one the player's DM shows for the same hand, drawn once for both;
        its key is returned."""
        locale = locale_of(interaction)
        prefs = (await self.ui.tables.players_prefs(table))[interaction.user.id]
        draft = hand_draft(table, seat, prefs, locale)
        content = draft.content
        if chosen:
            content += "\n" + t("hand.selected", locale, cards=" ".join(f.pretty for f in chosen))
        if note:
            content += "\n" + note
        hand = table.view(seat).hand
        targets = _targets(table, seat, chosen)
        view = panel_view(table, seat, hand, chosen, locale, question=question, **targets)
        file = await draft.file(self.ui.reconciler.pictures)
        assert file is not None
        if edit:
            await edit_panel(interaction, content, attachments=[file], view=view)
        else:
            await reply(interaction, content, file=file, view=view)
        return draft.picture

    async def next_round(self, interaction: discord.Interaction, table_id: int | None) -> None:
        """Next round, pressed on the table: the table itself shows the new deal (edited or
        posted through the press), so the presser gets no private word of their own."""
        await defer_update(interaction)
        tid = await self.ui.table_id(interaction, table_id)
        played = await self.ui.tables.next_round(tid, interaction.user.id)
        mark_saved(interaction)
        await self.ui.committed(played, interaction.user.id, interaction=interaction)

    # -- information ------------------------------------------------------------------------------

    async def repost(self, interaction: discord.Interaction) -> None:
        """``/rummy table``: the table message again, at the bottom of the channel."""
        await defer_private(interaction)
        table = await self._table(interaction, None)
        await self.ui.reconciler.repost(table)
        await reply(interaction, t("table.reposted", locale_of(interaction)))

    async def score(self, interaction: discord.Interaction) -> None:
        await defer_private(interaction)
        table = await self._table(interaction, None)
        table.require_game()
        await reply(interaction, presenter.score_text(table, locale_of(interaction)))

    async def rules(self, interaction: discord.Interaction, variant: str | None) -> None:
        await defer_private(interaction)
        table = None
        if interaction.guild_id is not None and interaction.channel_id is not None:
            table = await self.ui.tables.in_channel(interaction.guild_id, interaction.channel_id)
        await reply(interaction, presenter.rules_text(variant, table, locale_of(interaction)))

    async def hint(self, interaction: discord.Interaction) -> None:
        """``/rummy hint``: the engine's suggestion for the caller's turn, only to the caller."""
        await defer_private(interaction)
        table = await self._table(interaction, None)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        game = table.require_game()
        suggestion = advice.hint_for(game, seat)
        top = game.discard[-1] if game.discard else None
        await reply(interaction, advice.hint_text(suggestion, top, locale_of(interaction)))

    async def count(
        self, interaction: discord.Interaction, cards: str, variant: str | None
    ) -> None:
        """``/rummy-learn count``: the calculator, under this channel's table rules unless a variant
        is named (Rummy 51 where there is neither)."""
        await defer_private(interaction)
        table = None
        if interaction.guild_id is not None and interaction.channel_id is not None:
            table = await self.ui.tables.in_channel(interaction.guild_id, interaction.channel_id)
        rules = _count_rules(table, variant)
        await reply(interaction, advice.count_text(cards, rules, locale_of(interaction)))

    async def set_prefs(
        self, interaction: discord.Interaction, *, four_colour: bool | None, sort: str | None
    ) -> None:
        """A player's display settings; they apply to every private hand from now on."""
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        store = self.ui.store
        prefs = await store.get_player_prefs(interaction.user.id)
        if four_colour is not None:
            prefs = replace(prefs, four_colour=four_colour)
        if sort is not None:
            prefs = replace(prefs, hand_sort=sort)
        await store.set_player_prefs(prefs)
        await reply(interaction, _prefs_sentence(prefs, locale_of(interaction)))


def on_table_message(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a press on a public message's component (the table's)."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral


def _count_rules(table: Table | None, variant: str | None) -> Rules:
    if table is not None and variant in (None, table.variant.value):
        return Rules(table.variant, COUNT_PLAYERS, table.options)
    return Rules(Variant(variant or Variant.R51.value), COUNT_PLAYERS)


def _prefs_sentence(prefs: PlayerPrefs, locale: str) -> str:
    return t(
        "prefs.now",
        locale,
        colours=t("prefs.four" if prefs.four_colour else "prefs.two", locale),
        order=t(f"prefs.sort.{prefs.hand_sort}", locale),
    )


def _targets(table: Table, seat: int, chosen: Sequence[Face]) -> dict[str, list[tuple[int, Meld]]]:
    """The engine's table melds for the chosen cards, numbered from 1 as the panel shows them."""
    game = table.require_game()
    found = meld_targets(game, seat, chosen)
    return {
        "add_targets": [(i + 1, game.table[i].meld) for i in found.extend],
        "swap_targets": [(i + 1, game.table[i].meld) for i in found.swap],
    }
