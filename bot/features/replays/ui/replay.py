"""Replays in Discord: the Replay button, ``/rummy-stats replay`` and the step-through.

Every answer is private (an ephemeral message), so a replay never adds to the channel; the
GIF shows only what the table showed (see :mod:`bot.features.replays.replay`). The step-through is one
ephemeral message whose ◀ ▶ presses edit it through their own interaction (acknowledged as an
update, then the original response edited with the interaction's token: no bot-token call).
Each press asks again who pressed: a player of the game reads their own hand of that moment
in the text, anyone else the spectator's view only.
"""

from __future__ import annotations

from collections import OrderedDict

import discord

from bot.features.play.actions import Action
from bot.features.play.tables import Table
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.widgets import TableButton, component_view
from bot.features.replays import replay as replays
from bot.render.scene import ReplayScene
from bot.services.refusal import Refusal
from bot.text import t
from bot.ui.files import BytesFile
from bot.ui.interaction import defer_private, defer_update, edit_panel, locale_of, reply

#: Discord's attachment limit for a bot without a boosted server (10 MiB).
ATTACHMENT_LIMIT = 10 * 1024 * 1024
#: The round argument of a whole game's replay (the final table's button).
WHOLE_GAME = 0
#: Replays whose moments are kept for the step-through's presses (a round's ~60 KB, a long
#: game's ~0.7 MB: about 3 KB a moment).
MOMENTS_KEPT = 8


def step_view(table_id: int, round_no: int, index: int, count: int, locale: str) -> discord.ui.View:
    """◀ ▶ of the step-through at frame ``index`` (the turn field carries the target frame;
    the two ids differ by their argument even when both ends are disabled)."""
    return component_view(
        TableButton(
            table_id,
            max(index - 1, 0),
            Action.REPLAY_MOVE,
            t("replay.prev", locale),
            arg=f"{round_no}_b",
            disabled=index == 0,
        ),
        TableButton(
            table_id,
            min(index + 1, count - 1),
            Action.REPLAY_MOVE,
            t("replay.next", locale),
            arg=str(round_no),
            disabled=index >= count - 1,
        ),
    )


def open_step_view(table_id: int, round_no: int, locale: str) -> discord.ui.View:
    """The GIF answer's one button: open the step-through at the first frame."""
    return component_view(
        TableButton(
            table_id,
            0,
            Action.REPLAY_STEP,
            t("replay.step_button", locale),
            arg=str(round_no),
            style=discord.ButtonStyle.primary,
        )
    )


def round_of(arg: str) -> int:
    """The round a replay component names (0: the whole game)."""
    digits = arg.split("_", 1)[0]
    return int(digits) if digits.isdigit() else WHOLE_GAME


class ReplayHandlers:
    """The Replay button, the command and the step-through's presses."""

    def __init__(self, ui: UiContext) -> None:
        self.ui = ui
        self._kept: OrderedDict[tuple[int, int], list[replays.Moment]] = OrderedDict()

    async def _moments(self, table: Table, round_no: int) -> list[replays.Moment]:
        """The moments of a finished round (or game), kept for the next presses: a round over
        never changes, and each ◀ ▶ would otherwise read and replay the whole log again (30 ms
        of the event loop for a long game)."""
        key = (table.id, round_no)
        found = self._kept.get(key)
        if found is None:
            moves = await self.ui.store.list_moves(table.id)
            wanted = None if round_no == WHOLE_GAME else round_no
            found = replays.round_moments(table, moves, wanted)
            self._kept[key] = found
            while len(self._kept) > MOMENTS_KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return found

    async def _draw(self, scene: ReplayScene) -> bytes:
        drawer = self.ui.replay_drawer or self.ui.reconciler.pictures.drawer
        return await drawer.png(scene)

    async def command(
        self, interaction: discord.Interaction, table_id: int | None, round_no: int | None
    ) -> None:
        """``/rummy-stats replay [table] [round]``: this channel's table unless one is named; the
        last round over unless one is named."""
        await defer_private(interaction)
        if table_id is None:
            try:
                table_id = await self.ui.table_id(interaction, None)
            except Refusal:
                raise Refusal("replay.which_table") from None
        table = await self.ui.tables.load(table_id)
        if table.record.guild_id != interaction.guild_id:  # another server's table is not told
            raise Refusal("table.not_found", table=table_id)
        await self._send(interaction, table, replays.chosen_round(table, round_no))

    async def pressed(self, interaction: discord.Interaction, table_id: int, arg: str) -> None:
        """A Replay button: a round summary's (its round) or the final table's (the game)."""
        await defer_private(interaction)
        table = await self.ui.tables.load(table_id)
        round_no = self._chosen(table, arg)
        await self._send(interaction, table, round_no)

    @staticmethod
    def _chosen(table: Table, arg: str) -> int:
        """The round a component names, once it is over (0: the whole game, once over)."""
        round_no = round_of(arg)
        if round_no == WHOLE_GAME:
            replays.chosen_game(table)
            return WHOLE_GAME
        return replays.chosen_round(table, round_no)

    async def _send(self, interaction: discord.Interaction, table: Table, round_no: int) -> None:
        locale = await self.ui.tables.public_locale(table)
        found = await self._moments(table, round_no)
        whole = round_no == WHOLE_GAME
        gif = await self._draw(replays.replay_scene(table, found, locale))
        if len(gif) > ATTACHMENT_LIMIT:
            raise Refusal("replay.too_big")
        reader = locale_of(interaction)
        alt = replays.alt_text(table, found, reader, whole=whole)
        name = f"replay-{table.id}-{'game' if whole else round_no}.gif"
        file = BytesFile(gif, filename=name, description=alt)
        if whole:
            rounds = len({m.round_no for m in found})
            text = t("replay.ready.game", reader, table=table.id, rounds=rounds, count=len(found))
        else:
            text = t("replay.ready.round", reader, table=table.id, round=round_no, count=len(found))
        view = open_step_view(table.id, round_no, reader)
        await reply(interaction, text, file=file, view=view)

    async def step(
        self, interaction: discord.Interaction, table_id: int, index: int, arg: str, *, edit: bool
    ) -> None:
        """The step-through at frame ``index``: opened as a new private message (``edit``
        False), or the pressed message edited in place through this press."""
        if edit:
            await defer_update(interaction)
        else:
            await defer_private(interaction)
        table = await self.ui.tables.load(table_id)
        round_no = self._chosen(table, arg)
        found = await self._moments(table, round_no)
        index = min(max(index, 0), len(found) - 1)
        locale = await self.ui.tables.public_locale(table)
        reader = locale_of(interaction)
        seat = replays.seat_of_viewer(table, interaction.user.id)
        png = await self._draw(replays.step_scene(table, found, index, locale))
        file = BytesFile(
            png,
            filename=f"replay-{table.id}-{round_no}-{index + 1}.png",
            description=replays.step_alt(table, found, index, reader),
        )
        text = replays.step_text(table, found, index, seat, reader)
        view = step_view(table.id, round_no, index, len(found), reader)
        if edit:
            await edit_panel(interaction, text, attachments=[file], view=view)
        else:
            await reply(interaction, text, file=file, view=view)
