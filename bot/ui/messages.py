"""What each message the bot owns should show, computed from a stored table: pure, no sending.

Each builder returns a :class:`Draft`: the text, the components, the picture's scene (rendered
only if the message must change) and a ``stamp`` that identifies the whole content. The
reconciler compares stamps with what a message last showed, so an unchanged message costs no
Discord call and no rendering.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import discord

from bot import render
from bot.services import presenter
from bot.services.presenter import Names
from bot.services.tables import Table
from bot.storage import PlayerPrefs
from bot.text import t
from bot.text.safe import fit
from bot.ui.panels import lobby_view, table_view
from bot.ui.widgets import view_signature
from rummy_engine import Event, Phase, RoundResult

Painter = Callable[[], Awaitable[bytes]]


@dataclass(frozen=True)
class Draft:
    """A message as it should be: content, components, and the picture to paint if needed."""

    content: str
    view: discord.ui.View | None
    painter: Painter | None
    filename: str
    stamp: str

    async def file(self) -> discord.File | None:
        if self.painter is None:
            return None
        return discord.File(io.BytesIO(await self.painter()), filename=self.filename)


def stamp_of(*parts: object) -> str:
    """A short, stable digest of what a message shows."""
    text = json.dumps([repr(p) for p in parts], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _draft(
    content: str,
    view: discord.ui.View | None,
    scene: object | None,
    painter: Painter | None,
    filename: str,
    prefix: str = "",
) -> Draft:
    content = fit(content)
    stamp = prefix + stamp_of(content, view_signature(view), scene)
    return Draft(content, view, painter, filename, stamp)


def table_draft(
    table: Table,
    locale: str,
    *,
    last_events: Sequence[Event] = (),
    deadlines: Mapping[str, datetime] | None = None,
) -> Draft:
    """The table message: the lobby while seating, then the game with its picture.
    ``deadlines`` (kind -> due time) are the stored deadlines the message announces."""
    names = presenter.names_for(table)
    due = deadlines or {}
    if table.game is None:
        text = presenter.lobby_text(table, locale)
        if table.record.status == "cancelled":
            text += "\n" + (presenter.closed_line(table, locale) or t("lobby.cancelled", locale))
        return _draft(text, lobby_view(table, locale), None, None, "")
    text = presenter.table_text(
        table,
        names,
        locale,
        next_round_at=due.get("next_round"),
        turn_ends_at=due.get("turn"),
        replace_at=due.get("absent"),
    )
    last_move = presenter.describe(last_events, names, locale)
    if last_move:
        text = f"{text}\n_{last_move}_"
    scene = presenter.table_scene(table, names, locale)
    return _draft(
        text,
        table_view(table, locale),
        scene,
        lambda: render.render_table_async(scene),
        f"table-{table.id}.png",
    )


def hand_draft(table: Table, seat: int, prefs: PlayerPrefs, locale: str) -> Draft:
    """A player's private hand: the same cards as text and as a picture. The stamp starts with
    the round, so a new deal is told apart from a change within the round."""
    channel = f"<#{table.record.channel_id}>"
    content = presenter.hand_text(table, seat, channel, locale)
    groups = presenter.meld_groups(table, seat) if prefs.hand_sort == "melds" else None
    scene = presenter.hand_scene(
        table, seat, locale, four_colour=prefs.four_colour, groups=groups
    )
    return _draft(
        content,
        None,
        scene,
        lambda: render.render_hand_async(scene),
        f"hand-{table.id}.png",
        prefix=hand_round(table),
    )


def hand_round(table: Table) -> str:
    """The prefix of every hand stamp of the current round."""
    return f"r{table.require_game().round_no}:"


def round_draft(table: Table, result: RoundResult, locale: str) -> Draft:
    """The summary of one finished round, with everyone's remaining cards."""
    names = presenter.names_for(table)
    scene = presenter.round_end_scene(table, result, names, locale)
    return _draft(
        presenter.round_end_text(table, result, names, locale),
        None,
        scene,
        lambda: render.render_round_end_async(scene),
        f"round-{table.id}-{result.round_no}.png",
    )


def turn_key(table: Table) -> str | None:
    """Which turn calls for a notice: a human to act in a running game; else None."""
    game = table.game
    if game is None or table.record.status != "active":
        return None
    if game.phase not in (Phase.DRAW, Phase.PLAY) or table.is_computer(game.current):
        return None
    return f"{game.round_no}:{game.turn}"


def turn_text(table: Table, locale: str) -> str:
    return presenter.turn_notice(table, presenter.names_for(table), locale)


def mention_of(names: Names, seat: int) -> int | None:
    user = names.users.get(seat)
    return int(user) if user else None
