"""Turning accepted moves into Discord messages: the table message, turn notices, private hands.

Why a class of its own: after a move is committed, several messages change (the public table,
the turn notice, one or more private hands, sometimes a round summary), and all of that must
follow the same privacy rules whichever command or button caused the move. Public messages are
built only from the spectator's view; hands go only to their owner (DM, or an ephemeral reply
when DMs are closed). Messages are edited with the bot token, never an interaction token, so
they keep working after the 15 minutes an interaction lives.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot import render
from bot.i18n import t
from bot.services import presenter
from bot.services.presenter import Names
from bot.services.tables import Played, Table
from bot.storage import MessageRef, PlayerPrefs
from bot.views import lobby_view, table_view
from rummy_engine import Phase

if TYPE_CHECKING:
    from bot.client import RummyBot

log = logging.getLogger(__name__)

TABLE_MESSAGE = "table"
TURN_NOTICE = "turn_notice"
DM_CLOSED = 50007


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


class Delivery:
    """Sends and edits the messages of every table, for one bot."""

    def __init__(self, bot: RummyBot, locale: str = "en") -> None:
        self.bot = bot
        self.store = bot.store
        self.locale = locale
        self._locks: dict[int, asyncio.Lock] = {}
        self._published: dict[int, int] = {}

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def _ref(self, table_id: int, kind: str) -> MessageRef | None:
        return next(
            (r for r in await self.store.get_message_refs(table_id) if r.kind == kind), None
        )

    # -- lobby ----------------------------------------------------------------------------------

    async def post_lobby(self, table: Table) -> discord.Message:
        message = await self.channel(table.record.channel_id).send(
            presenter.lobby_text(table, self.locale), view=lobby_view(table, self.locale)
        )
        await self.store.set_message_ref(
            MessageRef(table.id, TABLE_MESSAGE, message.channel.id, message.id)
        )
        return message

    async def refresh_lobby(self, table: Table) -> None:
        ref = await self._ref(table.id, TABLE_MESSAGE)
        if ref is None:
            await self.post_lobby(table)
            return
        view = lobby_view(table, self.locale) if table.is_lobby else None
        text = presenter.lobby_text(table, self.locale)
        if table.record.status == "cancelled":
            text += "\n" + t("lobby.cancelled", self.locale)
        await self._edit(ref, content=text, view=view)

    async def _edit(self, ref: MessageRef, **fields: object) -> bool:
        try:
            await self.channel(ref.channel_id).get_partial_message(ref.message_id).edit(**fields)  # type: ignore[arg-type]
        except discord.NotFound:
            await self.store.delete_message_ref(ref.table_id, ref.kind)
            return False
        return True

    # -- after a move ---------------------------------------------------------------------------

    async def publish(self, played: Played, *, last_move: str = "") -> None:
        """Bring every message of the table up to date with an accepted move.

        Publications can arrive out of order (each click is its own task): the table and the
        turn notice only ever move forward, while a round summary and the hands a move changed
        are always delivered (hands as they are now, so a late delivery is not out of date).
        """
        table = played.table
        async with self._lock(table.id):
            names = presenter.names_for(table)
            latest = self._published.get(table.id, -1) < table.record.version
            if latest:
                self._published[table.id] = table.record.version
                await self.show_table(table, names, last_move=last_move)
            if played.round_ended or played.game_ended:
                await self._post_round_end(table, names)
            current = played if latest else replace(played, table=await self.bot.tables.load(table.id))
            await self._deliver_hands(current, names)
            if latest:
                await self._turn_notice(table, names)

    async def show_table(
        self, table: Table, names: Names, *, last_move: str = "", repost: bool = False
    ) -> None:
        """Edit the table message in place (or post it anew when asked or when it is gone)."""
        text = presenter.table_text(table, names, self.locale)
        if last_move:
            text = f"{text}\n_{last_move}_"
        image = await render.render_table_async(presenter.table_scene(table, names, self.locale))
        fields = {
            "content": text,
            "attachments": [png(image, f"table-{table.id}.png")],
            "view": table_view(table, self.locale),
        }
        ref = await self._ref(table.id, TABLE_MESSAGE)
        if ref is not None and repost:
            await self._edit(ref, view=None)
        if ref is None or repost or not await self._edit(ref, **fields):
            message = await self.channel(table.record.channel_id).send(
                content=text,
                file=png(image, f"table-{table.id}.png"),
                view=table_view(table, self.locale),
            )
            await self.store.set_message_ref(
                MessageRef(table.id, TABLE_MESSAGE, message.channel.id, message.id)
            )

    async def _turn_notice(self, table: Table, names: Names) -> None:
        """One short notice mentioning the player to act, replacing the previous one."""
        game = table.require_game()
        old = await self._ref(table.id, TURN_NOTICE)
        if old is not None:
            try:
                await self.channel(old.channel_id).get_partial_message(old.message_id).delete()
            except discord.HTTPException:
                log.debug("turn notice %s already gone", old.message_id)
            await self.store.delete_message_ref(table.id, TURN_NOTICE)
        if game.phase not in (Phase.DRAW, Phase.PLAY) or table.is_computer(game.current):
            return
        message = await self.channel(table.record.channel_id).send(
            presenter.turn_notice(table, names, self.locale),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        await self.store.set_message_ref(
            MessageRef(table.id, TURN_NOTICE, message.channel.id, message.id)
        )

    async def _post_round_end(self, table: Table, names: Names) -> None:
        result = table.require_game().results[-1]
        image = await render.render_round_end_async(
            presenter.round_end_scene(table, result, names, self.locale)
        )
        await self.channel(table.record.channel_id).send(
            presenter.round_end_text(table, result, names, self.locale),
            file=png(image, f"round-{table.id}-{result.round_no}.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- private hands --------------------------------------------------------------------------

    async def _deliver_hands(self, played: Played, names: Names) -> None:
        game = played.table.require_game()
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            return
        for seat in sorted(played.changed_hands):
            await self.send_hand(played.table, seat, names, new_message=played.round_started)

    async def send_hand(self, table: Table, seat: int, names: Names, *, new_message: bool) -> bool:
        """DM a player's hand (a new DM on a deal, an edit of that DM afterwards).

        Closed DMs are remembered and announced once in the channel, without any card.
        """
        user_id = table.user_at(seat)
        if user_id is None:
            return False
        prefs = await self.store.get_player_prefs(user_id)
        if prefs.dm_closed and not new_message:
            return False
        kind = f"hand:{seat}"
        content, file = await self.hand_message(table, seat, prefs)
        ref = await self._ref(table.id, kind)
        try:
            if (
                ref is not None
                and not new_message
                and await self._edit(ref, content=content, attachments=[file])
            ):
                return True
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            message = await user.send(content, file=file)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await self._dms_closed(table, prefs, names, seat)
            return False
        await self.store.set_message_ref(MessageRef(table.id, kind, message.channel.id, message.id))
        if prefs.dm_closed:
            await self.store.set_player_prefs(replace(prefs, dm_closed=False))
        return True

    async def _dms_closed(self, table: Table, prefs: PlayerPrefs, names: Names, seat: int) -> None:
        if prefs.dm_closed:
            return
        await self.store.set_player_prefs(replace(prefs, dm_closed=True))
        await self.channel(table.record.channel_id).send(
            t("hand.dm_closed", self.locale, player=names.mention(seat)),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def hand_message(
        self, table: Table, seat: int, prefs: PlayerPrefs
    ) -> tuple[str, discord.File]:
        """The private hand: the same cards as text and as an image."""
        channel = f"<#{table.record.channel_id}>"
        content = presenter.hand_text(table, seat, channel, self.locale)
        groups = presenter.meld_groups(table, seat) if prefs.hand_sort == "melds" else None
        scene = presenter.hand_scene(
            table, seat, self.locale, four_colour=prefs.four_colour, groups=groups
        )
        image = await render.render_hand_async(scene)
        return content, png(image, f"hand-{table.id}.png")
