"""A thread per game, the Discord side: what the parent channel shows, and which of Discord's
errors say a table's thread or channel is archived, deleted or refused.

Why the parent keeps two messages: a game posts a table, a notice per turn and a summary per
round; in a busy channel that buries everything else. With ``/rummy new thread:yes`` the lobby
message (where people joined) becomes one line that links to the thread opened from it at the
start, and one result line with a link is posted at the end; everything else lives in the
thread. A thread opened from a message has that message's id (Discord's rule), which makes
opening it idempotent: a second try after a crash is answered 160004 and the id is known.
"""

from __future__ import annotations

from typing import Final

import discord

from bot.features.play.presenter import names_for, variant_title, winners_text
from bot.features.play.tables import Table
from bot.features.play.threads import CHANNEL_GONE
from bot.features.play.ui.messages import Draft, stamp_of
from bot.text import t
from bot.text.safe import cut

#: Message kinds of a threaded table in its parent channel (see the reconciler).
LOBBY, RESULT = "lobby", "result"
#: Discord's codes: a thread archived (edits refused until it is unarchived), an unknown
#: channel (deleted), a thread already opened from this message, and the refusals.
THREAD_ARCHIVED = 50083
UNKNOWN_CHANNEL = 10003
ALREADY_THREADED = 160004
REFUSED = (50001, 50013)
#: A thread cannot be opened here: the table is in a thread already (or a forum's post).
WRONG_CHANNEL_TYPE = 50024
#: Discord's longest channel name; a day of inactivity before Discord archives the thread.
NAME_LIMIT = 100
ARCHIVE_MINUTES: Final = 1440


def archived(error: discord.HTTPException) -> bool:
    return error.code == THREAD_ARCHIVED


def unknown_channel(error: discord.HTTPException) -> bool:
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL


def refused(error: discord.HTTPException) -> bool:
    return isinstance(error, discord.Forbidden) and error.code in REFUSED


def no_thread_here(error: discord.HTTPException) -> bool:
    """The lobby is in a thread already: the game is played there."""
    return error.code == WRONG_CHANNEL_TYPE


def thread_name(table: Table, locale: str) -> str:
    """The game and its players, within Discord's 100 characters."""
    names = names_for(table)
    players = ", ".join(names.name(s.seat) for s in sorted(table.seats, key=lambda s: s.seat))
    text = t("threads.name", locale, title=variant_title(table, locale), players=players)
    return cut(text, NAME_LIMIT)


def thread_link(table: Table) -> str:
    return f"https://discord.com/channels/{table.record.guild_id}/{table.record.thread_id}"


def lobby_line(table: Table, locale: str) -> Draft:
    """What the lobby message becomes once the game moved to its thread (no buttons)."""
    text = t(
        "threads.lobby_line",
        locale,
        title=variant_title(table, locale),
        thread=table.record.thread_id,
    )
    return Draft(text, None, None, "", "l" + stamp_of(text, size=16))


def result_line(table: Table, locale: str) -> Draft:
    """The one line the parent channel gets at the end, with a link to the game."""
    title = variant_title(table, locale)
    if table.record.closed_reason == CHANNEL_GONE:
        text = t("threads.result_gone", locale, title=title)
    elif table.record.status == "finished" and table.game is not None and not table.game.winners:
        text = t("threads.result_nobody", locale, title=title, link=thread_link(table))
    elif table.record.status == "finished" and table.game is not None:
        winners = winners_text(table, names_for(table), locale)
        text = t("threads.result_over", locale, title=title, winners=winners, link=thread_link(table))
    else:
        text = t("threads.result_cancelled", locale, title=title, link=thread_link(table))
    return Draft(text, None, None, "", "r" + stamp_of(text, size=16))


def refused_line(locale: str) -> Draft:
    text = t("threads.refused", locale)
    return Draft(text, None, None, "", "x" + stamp_of(text, size=16))
