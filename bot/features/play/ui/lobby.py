"""Handlers of the lobby: opening a table, seats, computer players, settings, start, cancel.

Each handler acknowledges first, asks a service, answers privately, then lets the reconciler
show the table. A refusal is raised, not answered here: the one error path words it.
"""

from __future__ import annotations

import discord

from bot.features.defaults.service import DefaultsService
from bot.features.play.actions import Action
from bot.features.play.seating import Mode
from bot.features.play.settings import setting
from bot.features.play.tables import Played, Table
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.panels import settings_view, strength_view, value_view
from bot.services.refusal import Refusal
from bot.text import t
from bot.ui.interaction import (
    can_manage_server,
    defer_private,
    defer_update,
    edit_panel,
    locale_of,
    reply,
)
from rummy_engine import Variant
from rummy_engine.ai import Strength

#: The seats of a practice table, by mode: the player and computers.
PRACTICE_SEATS = {Mode.ONE_V_ONE: 2, Mode.TWO_V_TWO: 4, Mode.FREE_FOR_ALL: 3}


class LobbyHandlers:
    """Entry points for the lobby's commands and buttons."""

    def __init__(self, ui: UiContext) -> None:
        self.ui = ui

    async def new_table(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        mode: str | None,
        options: dict[str, object],
    ) -> None:
        """Open a table; what the host left out comes from the channel's or server's defaults
        (``/rummy-settings server``), and the server's preferred language is remembered for its public
        messages unless the host (``options["language"]``) or a default chose one."""
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            raise discord.app_commands.NoPrivateMessage()
        table = await self._open(interaction, variant, mode, options)
        async with self.ui.saved(interaction, table):
            await reply(interaction, t("lobby.opened", locale_of(interaction)))

    async def practice(self, interaction: discord.Interaction, variant: Variant, mode: Mode) -> None:
        """A coached practice table (the lessons' end page): opened in this channel with the
        channel's defaults, coaching on, its other seats computers of normal strength, and
        dealt at once; the presser is told privately."""
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("practice.in_server")
        table = await self._open(interaction, variant.value, mode.value, {"coaching": "on"})
        tables, user = self.ui.tables, interaction.user
        public = await tables.public_locale(table)
        for number in range(1, PRACTICE_SEATS[mode]):
            name = t("seat.computer", public, n=number)
            table = await tables.add_computer(table.id, user.id, name)
        played = await tables.start(table.id, user.id)
        async with self.ui.saved(interaction, played):
            await reply(interaction, t("practice.opened", locale_of(interaction)))

    async def _open(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        mode: str | None,
        options: dict[str, object],
    ) -> Table:
        """A new lobby in the interaction's channel, hosted by its user; what is left out comes
        from the channel's or server's defaults."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if interaction.guild_locale is not None:
            await self.ui.tables.remember_server_locale(
                interaction.guild_id, interaction.guild_locale.value
            )
        chosen = await DefaultsService(self.ui.store).for_new_table(
            interaction.guild_id,
            interaction.channel_id,
            variant=variant,
            mode=mode,
            options=options,
            locale=None,
        )
        return await self.ui.tables.open_table(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            chosen.variant,
            chosen.mode,
            chosen.options,
            host_name=interaction.user.display_name,
            locale=chosen.locale,
            inherited=chosen.inherited,
        )

    async def play_again(self, interaction: discord.Interaction, table_id: int) -> None:
        """The final table's Play again: the next lobby, posted once (its message names the
        other players, who join by pressing Join); the presser is told privately."""
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        user = interaction.user
        table = await self.ui.tables.play_again(table_id, user.id, name=user.display_name)
        async with self.ui.saved(interaction, table):
            await reply(interaction, t("again.opened", locale_of(interaction)))

    async def seat(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        action: Action,
        *,
        team: int | None = None,
        target: discord.abc.User | None = None,
        strength: Strength = Strength.NORMAL,
        lobby_only: bool = False,
    ) -> None:
        """Join, leave, sit out, add or remove a computer, cancel: one answer, one
        publication. ``lobby_only`` (a lobby's button): Leave and Cancel never forfeit or stop
        a game that has started since the lobby was drawn."""
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        tid = await self.ui.table_id(interaction, table_id)
        user, locale = interaction.user, locale_of(interaction)
        tables = self.ui.tables
        table: Table | Played
        if action in (Action.JOIN, Action.JOIN_A, Action.JOIN_B):
            chosen = {Action.JOIN_A: 0, Action.JOIN_B: 1}.get(action, team)
            table = await tables.join(tid, user.id, chosen, name=user.display_name)
            answer = t("lobby.joined", locale)
        elif action is Action.LEAVE:
            table, answer = await self._leave(tid, user.id, locale, lobby_only=lobby_only)
        elif action is Action.SIT_OUT:
            table, answer = await tables.sit_out(tid, user.id), t("lobby.sat_out", locale)
        elif action is Action.ADD_COMPUTER:
            current = await tables.load(tid)
            number = 1 + sum(s.is_computer for s in current.seats)
            # a seat's name is public: the table's language names it
            name = t("seat.computer", await tables.public_locale(current), n=number)
            table = await tables.add_computer(tid, user.id, name, team, strength)
            shown = t(f"strength.{strength.value}", locale)
            answer = t("lobby.computer_added", locale, name=name, strength=shown)
        elif action is Action.REMOVE_COMPUTER:
            table = await tables.remove_computer(tid, user.id)
            answer = t("lobby.computer_removed", locale)
        else:
            table = await tables.cancel(
                tid, user.id, can_manage_server=can_manage_server(interaction), lobby_only=lobby_only
            )
            answer = t("lobby.cancelled", locale)
        async with self.ui.saved(interaction, table):
            await reply(interaction, answer)

    async def ask_strength(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Add computer button: the host picks the new seat's strength in a private select."""
        await defer_private(interaction)
        table = await self._host_lobby(interaction, table_id)
        locale = locale_of(interaction)
        await reply(interaction, t("lobby.pick_strength", locale), view=strength_view(table, locale))

    async def _host_lobby(self, interaction: discord.Interaction, table_id: int) -> Table:
        """The table, if it is still a lobby and the caller is its host (else the refusal)."""
        table = await self.ui.tables.load(table_id)
        if interaction.user.id != table.record.host_id:
            raise Refusal("table.host_only")
        if not table.is_lobby:
            raise Refusal("lobby.already_started")
        return table

    async def kick(self, interaction: discord.Interaction, target: discord.abc.User) -> None:
        await defer_private(interaction)
        tid = await self.ui.table_id(interaction, None)
        table = await self.ui.tables.kick(
            tid, interaction.user.id, target.id, name=target.display_name
        )
        async with self.ui.saved(interaction, table):
            await reply(interaction, t("lobby.kicked", locale_of(interaction), player=target.display_name))

    async def _leave(
        self, table_id: int, user_id: int, locale: str, *, lobby_only: bool = False
    ) -> tuple[Table | Played, str]:
        """Leave the lobby (the host only stands up and keeps the table), or forfeit a running
        game unless ``lobby_only``; with the answer that says which."""
        table = await self.ui.tables.load(table_id)
        if not table.is_lobby and not lobby_only:
            return await self.ui.tables.resign(table_id, user_id), t("lobby.left", locale)
        left = await self.ui.tables.leave_lobby(table_id, user_id)
        host = user_id == table.record.host_id
        return left, t("lobby.sat_out" if host else "lobby.left", locale)

    async def start(self, interaction: discord.Interaction, table_id: int | None) -> None:
        await defer_private(interaction)
        await self.ui.remember_player(interaction)
        tid = await self.ui.table_id(interaction, table_id)
        played = await self.ui.tables.start(tid, interaction.user.id)
        async with self.ui.saved(interaction, played):
            await reply(interaction, t("lobby.started", locale_of(interaction)))

    async def settings(self, interaction: discord.Interaction, table_id: int) -> None:
        await defer_private(interaction)
        table = await self._host_lobby(interaction, table_id)
        locale = locale_of(interaction)
        table_locale = await self.ui.tables.public_locale(table)
        await reply(
            interaction,
            t("lobby.settings_pick", locale),
            view=settings_view(table, locale, table_locale),
        )

    async def pick_option(self, interaction: discord.Interaction, table_id: int, key: str) -> None:
        await defer_update(interaction)
        table = await self.ui.tables.load(table_id)
        locale = locale_of(interaction)
        await edit_panel(
            interaction,
            t("lobby.settings_value", locale, option=setting(key).label(locale)),
            view=value_view(table, key, locale, await self.ui.tables.public_locale(table)),
        )

    async def set_option(
        self, interaction: discord.Interaction, table_id: int, key: str, value: str
    ) -> None:
        await defer_update(interaction)
        locale = locale_of(interaction)
        table = await self.ui.tables.set_option(table_id, interaction.user.id, key, value)
        found = setting(key)
        answer = t(
            "lobby.option_set",
            locale,
            option=found.label(locale),
            value=found.value_label(value, locale),
        )
        async with self.ui.saved(interaction, table):
            await edit_panel(interaction, answer, view=None)

    async def decide_absent(
        self, interaction: discord.Interaction, table_id: int, seat: int, choice: str
    ) -> None:
        """The host's answer about a player who let the timer run out too often."""
        await defer_private(interaction)
        change = await self.ui.tables.decide_absent(table_id, seat, choice, interaction.user.id)
        async with self.ui.saved(interaction, change):
            await reply(interaction, t(f"absent.{choice}_done", locale_of(interaction)))
