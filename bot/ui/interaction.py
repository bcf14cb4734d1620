"""Answering an interaction: at once, privately, within Discord's limits, never left thinking.

Discord wants a first answer within 3 seconds. Most handlers defer before any database or
rendering work, then send one private answer. A move typed as a command is answered in one
call instead (its answer is usually ready in tens of milliseconds, and a deferral then costs a
second REST call): :func:`defer_unless_answered` defers only if the answer is not sent by
:data:`ANSWER_WITHIN`. These helpers work whatever was already sent, and never answer twice: the
first answer and a late deferral share a lock.

How each interaction was acknowledged is recorded on it (:func:`updated_message`,
:func:`may_follow_up_publicly`): the reconciler edits the table message through a press only
when the press was acknowledged as an update of that very message; after a private
"thinking…", the interaction's original response is the presser's private answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
from discord.enums import InteractionResponseType
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.text import normalise
from bot.text.safe import fit

log = logging.getLogger(__name__)

#: What a call to Discord may end with besides its answer: an HTTP error, a connection
#: dropped or refused, no answer in time.
DISCORD_FAILURES: tuple[type[Exception], ...] = (
    discord.HTTPException,
    aiohttp.ClientError,
    TimeoutError,
    OSError,
)
#: Discord's answer to a second acknowledgement of one interaction.
ALREADY_ACKNOWLEDGED = 40060

#: Private answers never ping anyone: a player is not notified about their own action.
NO_PINGS = discord.AllowedMentions.none()
EPHEMERAL = discord.MessageFlags(ephemeral=True)


#: A move's answer not sent by then (seconds after Discord created the interaction) is
#: deferred: well within Discord's 3 seconds, with room for a slow network and a busy loop
#: (at 1.5 s, under 300 saturating tables, the slowest acknowledgement reached Discord's
#: emulator 2.8-3.1 s after the interaction: the timer fires behind the loop's backlog).
ANSWER_WITHIN = 1.0
#: An interaction this old (seconds) when its handler starts means the event loop is behind.
LAGGING = 0.5
_LOCK = "answer-lock"
_LATE = "answer-deferral"
#: The message an acknowledgement "update" refers to (its id), set by :func:`defer_update`.
_UPDATED = "answer-updated"
#: Set once the interaction's first private answer is sent (not just "thinking…").
_ANSWERED = "answer-sent"
#: Set once what the interaction asked for is committed: a failure after that is no refusal.
_SAVED = "change-saved"


def locale_of(interaction: discord.Interaction) -> str:
    """The player's language for private answers: their Discord client's, if we speak it."""
    return normalise(interaction.locale.value)


def public_locale_of(interaction: discord.Interaction) -> str:
    """The language of a public answer that belongs to no table (statistics, leaderboards):
    the server's, as Discord tells it; in direct messages, the reader's."""
    if interaction.guild_id is not None and interaction.guild_locale is not None:
        return normalise(interaction.guild_locale.value)
    return locale_of(interaction)


def age_of(interaction: discord.Interaction) -> float:
    """Seconds since Discord made the interaction."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


@contextlib.asynccontextmanager
async def _answering(interaction: discord.Interaction) -> AsyncIterator[None]:
    """One first answer at a time (the handler's and a late deferral)."""
    lock = interaction.extras.setdefault(_LOCK, asyncio.Lock())
    async with lock:
        yield


async def defer_unless_answered(
    interaction: discord.Interaction, *, lagging: bool = False
) -> None:
    """Defer privately if no answer is sent within :data:`ANSWER_WITHIN` of the interaction's
    creation (a busy bot, a slow database); a handler then answers in one call.

    An interaction that reaches its handler :data:`LAGGING` old, or while the event loop is
    seen behind (``lagging``, bot/ui/loop_lag.py), would meet a timer armed now behind that
    same backlog, maybe after Discord's 3 seconds: it is acknowledged at once instead (one
    more interaction call, outside the bot-token budget)."""
    age = age_of(interaction)
    if lagging or age >= LAGGING:
        await defer_private(interaction)
        return
    delay = min(ANSWER_WITHIN, max(0.0, ANSWER_WITHIN - age))
    late = asyncio.get_running_loop().call_later(
        delay, lambda: asyncio.ensure_future(defer_private(interaction))
    )
    interaction.extras[_LATE] = late


@contextlib.asynccontextmanager
async def _acknowledging(
    interaction: discord.Interaction, kind: InteractionResponseType
) -> AsyncIterator[None]:
    """The interaction's first answer, of ``kind``. Discord sometimes carries an answer out
    and then fails it (a 5xx); discord.py sends it again and hears "already acknowledged":
    the answer is there, and the handler goes on as if the first call had succeeded."""
    try:
        yield
    except discord.HTTPException as error:
        if error.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info("an interaction's answer failed after Discord had made it; going on")
        interaction.response._response_type = kind


async def defer_private(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking…" that the answer replaces."""
    async with _answering(interaction):
        if not interaction.response.is_done():
            async with _acknowledging(
                interaction, InteractionResponseType.deferred_channel_message
            ):
                await interaction.response.defer(ephemeral=True, thinking=True)


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a click as an update of the message it came from (a private panel edited
    in place, or the table message, edited through the click)."""
    if not interaction.response.is_done():
        async with _acknowledging(interaction, InteractionResponseType.deferred_message_update):
            await interaction.response.defer()
        if interaction.message is not None:
            interaction.extras[_UPDATED] = interaction.message.id


def mark_saved(interaction: discord.Interaction) -> None:
    """What the interaction asked for is committed: from now on a failure to answer it must
    not say that nothing changed (see bot/ui/errors.py)."""
    interaction.extras[_SAVED] = True


def was_saved(interaction: discord.Interaction) -> bool:
    return bool(interaction.extras.get(_SAVED))


def updated_message(interaction: discord.Interaction) -> int | None:
    """The message this interaction was acknowledged as an update of: its original response
    is then that message (None: a command, or a click answered privately)."""
    found = interaction.extras.get(_UPDATED)
    return found if isinstance(found, int) else None


def may_follow_up_publicly(interaction: discord.Interaction) -> bool:
    """Whether a follow-up of this interaction would be a new public message. After a
    private "thinking…" not yet answered, Discord makes the first follow-up the private answer
    itself (whatever its flags say)."""
    return updated_message(interaction) is not None or bool(interaction.extras.get(_ANSWERED))


async def reply(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    """A private answer (content within Discord's limit), deferred or not."""
    content = fit(content)
    late = interaction.extras.pop(_LATE, None)
    if late is not None:
        late.cancel()
    async with _answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(
                content, ephemeral=True, allowed_mentions=NO_PINGS, **fields
            )
        else:
            await _respond_privately(interaction, content, **fields)
        interaction.extras[_ANSWERED] = True


async def _respond_privately(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    """``interaction.response.send_message(content, ephemeral=True, ...)``, without making
    Discord's answer a message object: nothing reads it, and parsing it (a panel's every
    select option again) was a few percent of a move's event-loop work. The same calls as
    discord.py's own method (its webhook adapter, then marking the response done), so every
    test that answers a move covers it; a view still running (discord.py keeps it) goes
    through discord.py itself."""
    async with _acknowledging(interaction, InteractionResponseType.channel_message):
        await _send_privately(interaction, content, **fields)


async def _send_privately(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    view = fields.get("view")
    if view is not None and not view.is_finished():
        await interaction.response.send_message(
            content, ephemeral=True, allowed_mentions=NO_PINGS, **fields
        )
        return
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value,
        content=content,
        flags=EPHEMERAL,
        allowed_mentions=NO_PINGS,
        previous_allowed_mentions=interaction.client.allowed_mentions,
        **fields,
    )
    http = interaction.client.http
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=params,
    )
    interaction.response._response_type = InteractionResponseType.channel_message


async def edit_panel(interaction: discord.Interaction, content: str, **fields: Any) -> None:
    """Replace the private panel the click came from."""
    await interaction.edit_original_response(
        content=fit(content), allowed_mentions=NO_PINGS, **fields
    )


def can_manage_server(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)
