"""What a command or a click does: one place serving slash commands and components alike.

Every entry point acknowledges the interaction first (Discord wants an answer within 3 s; we
defer at once, before any database or rendering work), runs the service call, answers the
player privately, then brings the public messages up to date. Refusals, from the rules or from
the table, become one ephemeral sentence in the player's language; nothing changes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.services import moves, presenter
from bot.services.refusal import Refusal
from bot.services.tables import Played, Table
from bot.views import panel_view, settings_view, value_view
from rummy_engine import (
    Face,
    Phase,
    RuleViolation,
    Variant,
    parse_face,
    player_view,
)
from rummy_engine.cards import take_matching
from rummy_engine.melds import can_extend, swap_target

if TYPE_CHECKING:
    from bot.client import RummyBot
    from bot.delivery import Delivery
    from bot.services.tables import TableService

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction) -> str:
    """The player's language for private answers (French once its catalogue lands)."""
    return "fr" if str(interaction.locale).startswith("fr") else "en"


class Controller:
    """Entry points for the ``/rummy`` commands and every button and select."""

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    @property
    def delivery(self) -> Delivery:
        return self.bot.delivery

    # -- plumbing -------------------------------------------------------------------------------

    async def guarded(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        work: Callable[[], Awaitable[None]],
    ) -> None:
        """Run ``work``; turn a refusal into a private sentence, and a bug into an apology."""
        try:
            async with self.bot.inflight:
                await work()
        except (RuleViolation, Refusal) as error:
            await self.whisper(interaction, await self._refusal(error, table_id, interaction))
        except Exception:
            log.exception("interaction failed (table %s)", table_id)
            await self.whisper(interaction, t("error.unexpected", locale_of(interaction)))

    async def _refusal(
        self, error: RuleViolation | Refusal, table_id: int | None, interaction: discord.Interaction
    ) -> str:
        """The refusal in words, with names ("It is Nadia's turn") when the table is known, and
        the way back when a taken discard cannot be used (RULES.md §2.4: undo, draw instead)."""
        locale = locale_of(interaction)
        try:
            table = (
                await self.tables.load(table_id)
                if table_id is not None
                else await self.table_here(interaction)
            )
        except Refusal:
            return presenter.refusal_text(error, None, locale)
        text = presenter.refusal_text(error, presenter.names_for(table), locale)
        game, seat = table.game, table.seat_of(interaction.user.id)
        stuck = game is not None and seat == game.current and game.taken in game.hands[seat]
        if (
            stuck
            and game is not None
            and game.rules.must_use_discard
            and error.code != "take.must_lay_taken"
        ):
            text += "\n" + t(
                "take.offer_undo", locale, card=game.taken.pretty if game.taken else ""
            )
        return text

    async def whisper(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer, whether or not the interaction was already deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    @staticmethod
    async def defer_private(interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def table_here(self, interaction: discord.Interaction) -> Table:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("table.none_here")
        table = await self.tables.in_channel(interaction.guild_id, interaction.channel_id)
        if table is None:
            raise Refusal("table.none_here")
        return table

    async def after_move(self, played: Played) -> None:
        """Everything public that follows a committed move, then what happens next by itself."""
        names = presenter.names_for(played.table)
        await self.delivery.publish(
            played, last_move=presenter.describe(played.events, names, self.delivery.locale)
        )
        self.schedule_next(played.table)

    def schedule_next(self, table: Table, *, waited: float = 0.0) -> None:
        """Arm the next-round timer after a round, or a computer's turn when one is to play."""
        game = table.game
        timers, tid = self.bot.timers, table.id
        if game is None or table.record.status != "active":
            return
        if game.phase is Phase.ROUND_OVER:
            delay = self.bot.settings.next_round_delay_seconds - waited
            timers.schedule(("next-round", tid), delay, lambda: self.auto_next_round(tid))
        elif table.is_computer(game.current):
            delay = self.bot.settings.computer_delay_seconds
            timers.schedule(("computer", tid), delay, lambda: self.computer_turn(tid))

    async def computer_turn(self, table_id: int) -> None:
        """A computer seat plays its whole turn, then the table is published once."""
        async with self.bot.inflight:
            played = await self.tables.play_computer_turn(table_id)
        if played is not None:
            await self.after_move(played)

    async def auto_next_round(self, table_id: int) -> None:
        """The timer's next round; a host who already started it leaves nothing to do."""
        try:
            async with self.bot.inflight:
                played = await self.tables.next_round(table_id, None)
        except (Refusal, RuleViolation):
            return
        await self.after_move(played)

    # -- lobby ----------------------------------------------------------------------------------

    async def new_table(
        self,
        interaction: discord.Interaction,
        variant: Variant,
        mode: str,
        options: dict[str, object],
    ) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            assert interaction.guild_id is not None and interaction.channel_id is not None
            table = await self.tables.open_table(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                variant,
                mode,
                options,
                host_name=interaction.user.display_name,
            )
            await self.delivery.post_lobby(table)
            await interaction.followup.send(
                t("lobby.joined", locale_of(interaction)), ephemeral=True
            )

        await self.guarded(interaction, None, work)

    async def lobby_action(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        action: str,
        *,
        team: int | None = None,
        target: discord.abc.User | None = None,
    ) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            tid = table_id if table_id is not None else (await self.table_here(interaction)).id
            user, locale = interaction.user, locale_of(interaction)
            if action in ("join", "join_a", "join_b"):
                chosen = {"join_a": 0, "join_b": 1}.get(action, team)
                table = await self.tables.join(tid, user.id, chosen, name=user.display_name)
                answer = t("lobby.joined", locale)
            elif action == "leave":
                table = await self._leave(interaction, tid)
                answer = t("lobby.left", locale)
            elif action == "kick":
                assert target is not None
                table = await self.tables.kick(tid, user.id, target.id)
                answer = t("lobby.kicked", locale, player=target.display_name)
            elif action == "addbot":
                table = await self.tables.load(tid)
                number = 1 + sum(s.is_computer for s in table.seats)
                name = t("seat.computer", self.delivery.locale, n=number)
                table = await self.tables.add_computer(tid, user.id, name, team)
                answer = t("lobby.computer_added", locale, name=name)
            elif action == "rmbot":
                table = await self.tables.remove_computer(tid, user.id)
                answer = t("lobby.computer_removed", locale)
            elif action == "cancel":
                table = await self.tables.cancel(
                    tid, user.id, can_manage_server=_can_manage(interaction)
                )
                answer = t("lobby.cancelled", locale)
            else:
                raise Refusal("error.unexpected")
            if table.game is None:
                await self.delivery.refresh_lobby(table)
            await interaction.followup.send(answer, ephemeral=True)

        await self.guarded(interaction, table_id, work)

    async def _leave(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = await self.tables.load(table_id)
        if table.is_lobby:
            return await self.tables.leave_lobby(table_id, interaction.user.id)
        played = await self.tables.resign(table_id, interaction.user.id)
        await self.after_move(played)
        return played.table

    async def start(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            tid = table_id if table_id is not None else (await self.table_here(interaction)).id
            played = await self.tables.start(tid, interaction.user.id)
            await interaction.followup.send(
                t("lobby.started", locale_of(interaction)), ephemeral=True
            )
            await self.after_move(played)

        await self.guarded(interaction, table_id, work)

    async def settings(self, interaction: discord.Interaction, table_id: int) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            table = await self.tables.load(table_id)
            if interaction.user.id != table.record.host_id:
                raise Refusal("table.host_only")
            if not table.is_lobby:
                raise Refusal("lobby.already_started")
            locale = locale_of(interaction)
            await interaction.followup.send(
                t("lobby.settings_pick", locale), view=settings_view(table, locale), ephemeral=True
            )

        await self.guarded(interaction, table_id, work)

    async def pick_option(self, interaction: discord.Interaction, table_id: int, key: str) -> None:
        async def work() -> None:
            await interaction.response.defer()
            table = await self.tables.load(table_id)
            locale = locale_of(interaction)
            await interaction.edit_original_response(
                content=t("lobby.settings_value", locale, option=t(f"option.{key}", locale)),
                view=value_view(table, key, locale),
            )

        await self.guarded(interaction, table_id, work)

    async def set_option(
        self, interaction: discord.Interaction, table_id: int, key: str, value: str
    ) -> None:
        async def work() -> None:
            await interaction.response.defer()
            table = await self.tables.set_option(table_id, interaction.user.id, key, value)
            locale = locale_of(interaction)
            await interaction.edit_original_response(
                content=t(
                    "lobby.option_set", locale, option=t(f"option.{key}", locale), value=value
                ),
                view=None,
            )
            await self.delivery.refresh_lobby(table)

        await self.guarded(interaction, table_id, work)

    # -- playing --------------------------------------------------------------------------------

    async def play(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        build: moves.Builder,
        *,
        turn: int | None = None,
        in_panel: bool = False,
    ) -> None:
        """Apply an action for the caller's seat, answer privately with the hand, publish."""

        async def work() -> None:
            if in_panel:
                await interaction.response.defer()
            else:
                await self.defer_private(interaction)
            tid = table_id if table_id is not None else (await self.table_here(interaction)).id
            played = await self.tables.act(tid, interaction.user.id, build, turn=turn)
            seat = played.actor_seat
            assert seat is not None
            await self.show_panel(interaction, played.table, seat, (), edit=in_panel)
            await self.after_move(played)

        await self.guarded(interaction, table_id, work)

    async def show_hand(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            table = (
                await self.tables.load(table_id)
                if table_id is not None
                else await self.table_here(interaction)
            )
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("table.not_seated")
            table.require_game()
            await self.show_panel(interaction, table, seat, ())

        await self.guarded(interaction, table_id, work)

    async def show_panel(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        chosen: Sequence[Face],
        *,
        edit: bool = False,
        note: str = "",
    ) -> None:
        """The player's private hand panel: text, image and the pick/lay/discard controls."""
        locale = locale_of(interaction)
        prefs = await self.bot.store.get_player_prefs(interaction.user.id)
        content, file = await self.delivery.hand_message(table, seat, prefs)
        if chosen:
            content += "\n" + t("hand.selected", locale, cards=" ".join(f.pretty for f in chosen))
        if note:
            content += "\n" + note
        view = panel_view(
            table,
            seat,
            player_view(table.require_game(), seat).hand,
            chosen,
            locale,
            **self._targets(table, seat, chosen),
        )
        if edit:
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        else:
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)

    @staticmethod
    def _targets(
        table: Table, seat: int, chosen: Sequence[Face]
    ) -> dict[str, list[tuple[int, object]]]:
        """Table melds the chosen cards can extend, and melds where one chosen card frees a joker."""
        game = table.require_game()
        if not chosen or game.phase is not Phase.PLAY or game.current != seat:
            return {}
        try:
            cards = take_matching(game.hands[seat], chosen)
        except RuleViolation:
            return {}
        melds = [tm.meld for tm in game.table]
        add = [(i + 1, m) for i, m in enumerate(melds) if can_extend(m, cards, game.rules)]
        swap = [
            (i + 1, m)
            for i, m in enumerate(melds)
            if len(cards) == 1 and swap_target(m, cards[0]) is not None
        ]
        return {"add_targets": add, "swap_targets": swap}  # type: ignore[dict-item]

    async def set_prefs(
        self, interaction: discord.Interaction, *, four_colour: bool | None, sort: str | None
    ) -> None:
        """A player's display settings; they apply to every private hand from now on."""

        async def work() -> None:
            await self.defer_private(interaction)
            store = self.bot.store
            prefs = await store.get_player_prefs(interaction.user.id)
            if four_colour is not None:
                prefs = replace(prefs, four_colour=four_colour)
            if sort is not None:
                prefs = replace(prefs, hand_sort=sort)
            await store.set_player_prefs(prefs)
            locale = locale_of(interaction)
            await interaction.followup.send(
                t(
                    "prefs.now",
                    locale,
                    colours=t("prefs.four" if prefs.four_colour else "prefs.two", locale),
                    order=t(f"prefs.sort.{prefs.hand_sort}", locale),
                ),
                ephemeral=True,
            )

        await self.guarded(interaction, None, work)

    # -- components -----------------------------------------------------------------------------

    async def component(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        action: str,
        arg: str,
        values: list[str],
    ) -> None:
        """Route a click or a selection (custom_id ``rummy:<table>:<turn>:<action>[:<arg>]``)."""
        in_panel = bool(interaction.message and interaction.message.flags.ephemeral)
        if action in ("join", "join_a", "join_b", "leave", "cancel", "addbot", "rmbot"):
            await self.lobby_action(interaction, table_id, action)
        elif action == "start":
            await self.start(interaction, table_id)
        elif action == "settings":
            await self.settings(interaction, table_id)
        elif action == "setopt":
            await self.pick_option(interaction, table_id, values[0])
        elif action == "setval":
            await self.set_option(interaction, table_id, arg, values[0])
        elif action == "hand":
            await self.show_hand(interaction, table_id)
        elif action == "next":
            await self.next_round(interaction, table_id)
        elif action == "pick":
            await self.pick_cards(interaction, table_id, turn, values)
        else:
            await self.play(
                interaction,
                table_id,
                moves.clicked(action, arg, values),
                turn=turn,
                in_panel=in_panel,
            )

    async def pick_cards(
        self, interaction: discord.Interaction, table_id: int, turn: int, values: list[str]
    ) -> None:
        async def work() -> None:
            await interaction.response.defer()
            table = await self.tables.load(table_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("table.not_seated")
            chosen = [parse_face(v.split(":", 1)[1]) for v in values]
            await self.show_panel(interaction, table, seat, chosen, edit=True)

        await self.guarded(interaction, table_id, work)

    async def next_round(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def work() -> None:
            await self.defer_private(interaction)
            tid = table_id if table_id is not None else (await self.table_here(interaction)).id
            played = await self.tables.next_round(tid, interaction.user.id)
            await interaction.followup.send(t("you.done", locale_of(interaction)), ephemeral=True)
            await self.after_move(played)

        await self.guarded(interaction, table_id, work)


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)
