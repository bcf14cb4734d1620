"""An interaction's token, kept to carry a table's public messages outside the bot's budget.

Why: Discord allows a bot token 50 requests per second across every server, while an
interaction's own token is limited apart, and may post public follow-ups in the interaction's
channel, then edit and delete them, for 15 minutes. So the table message and its turn notice
travel with the token of the last move made in their channel: posted as its follow-ups, edited
and deleted through it while it lives. A token Discord no longer accepts raises
:class:`TokenGone`, and the caller uses the bot token instead.

The calls go through discord.py's own webhook adapter without making Discord's answer a
message object: nothing reads more than its id, and the components are dynamic items routed by
their custom ids (nothing to store per message).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.ui.interaction import may_follow_up_publicly

#: An interaction token lives 15 minutes; past this age it is not used any more.
TOKEN_LIFE = timedelta(minutes=14)
#: Discord's answers for a token past its life: 401 / 50027 "Invalid Webhook Token", or
#: 404 / 10015 "Unknown Webhook".
INVALID_TOKEN, UNKNOWN_WEBHOOK = 50027, 10015
NO_PINGS = discord.AllowedMentions.none()


class TokenGone(Exception):
    """Discord no longer accepts the token (expired, or the interaction is unknown)."""


class Unsure(Exception):
    """A follow-up whose fate is unknown: Discord answered a 5xx, or the connection dropped,
    after it may have made the message. A follow-up carries no nonce, so sending it again
    could make a second one: the caller looks in the channel instead."""


@dataclass(frozen=True)
class Courier:
    """What is kept of an interaction to use its token: a few fields, not the interaction
    (its message, member and resolved data would be kept for 15 minutes per table)."""

    application_id: int
    token: str
    channel_id: int
    created_at: datetime
    session: aiohttp.ClientSession
    proxy: str | None
    proxy_auth: aiohttp.BasicAuth | None
    previous_mentions: discord.AllowedMentions | None

    @classmethod
    def of(cls, interaction: discord.Interaction | None) -> Courier | None:
        """The courier of an answered interaction whose follow-ups would be public messages
        in its channel (None otherwise)."""
        if interaction is None or interaction.channel_id is None:
            return None
        if not interaction.response.is_done() or not may_follow_up_publicly(interaction):
            return None
        http = interaction.client.http
        return cls(
            interaction.application_id,
            interaction.token,
            interaction.channel_id,
            interaction.created_at,
            interaction._session,
            http.proxy,
            http.proxy_auth,
            interaction.client.allowed_mentions,
        )

    def live(self, now: datetime | None = None) -> bool:
        return (now or discord.utils.utcnow()) - self.created_at < TOKEN_LIFE

    async def post(
        self,
        content: str,
        *,
        view: discord.ui.View | None = None,
        files: Sequence[discord.File] = (),
        mentions: discord.AllowedMentions = NO_PINGS,
    ) -> int:
        """Post a public follow-up; returns its message id."""
        fields = {"files": list(files)} if files else {}
        try:
            with self._params(content, view, mentions, **fields) as params:
                data = await self._call(
                    async_context.get().execute_webhook,
                    payload=params.payload,
                    multipart=params.multipart,
                    files=params.files,
                    wait=True,
                    session=_SentOnce(self.session),
                )
        except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as error:
            raise Unsure(str(error)) from error
        return int(str(data["id"]))

    async def edit(
        self,
        message_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        attachments: Sequence[discord.File] | None = None,
    ) -> None:
        """Edit a message this token posted (its attachments replaced, when given)."""
        fields = {} if attachments is None else {"attachments": list(attachments)}
        with self._params(content, view, NO_PINGS, **fields) as params:
            await self._call(
                async_context.get().edit_webhook_message,
                message_id,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )

    async def delete(self, message_id: int) -> None:
        await self._call(async_context.get().delete_webhook_message, message_id)

    def _params(
        self,
        content: str,
        view: discord.ui.View | None,
        mentions: discord.AllowedMentions,
        **fields: object,
    ) -> discord.http.MultipartParameters:
        return handle_message_parameters(
            content=content,
            view=view,  # None: no components (a closed table's)
            allowed_mentions=mentions,
            previous_allowed_mentions=self.previous_mentions,
            **fields,  # type: ignore[arg-type]
        )

    async def _call(self, verb: object, *args: object, **fields: object) -> dict[str, object]:
        """One webhook call with this token; a token Discord refuses raises TokenGone."""
        fields.setdefault("session", self.session)
        try:
            data = await verb(  # type: ignore[operator]
                self.application_id,
                self.token,
                *args,
                proxy=self.proxy,
                proxy_auth=self.proxy_auth,
                **fields,
            )
        except discord.HTTPException as error:
            if error.status == 401 or error.code in (INVALID_TOKEN, UNKNOWN_WEBHOOK):
                raise TokenGone(str(error)) from error
            raise
        return data if isinstance(data, dict) else {}


class _SentOnce:
    """The session a follow-up is posted through: a 5xx answer ends the call at once, where
    discord.py's webhook adapter would send the same message again (a second table message
    with live buttons when Discord had made the first). Only ``request`` is used."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _FailOn5xx:
        return _FailOn5xx(self._session.request(*args, **kwargs))


class _FailOn5xx:
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aenter__(self) -> aiohttp.ClientResponse:
        response: aiohttp.ClientResponse = await self._inner.__aenter__()
        if response.status >= 500:
            text = await response.text()
            await self._inner.__aexit__(None, None, None)
            raise discord.DiscordServerError(response, text)
        return response

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self._inner.__aexit__(kind, error, trace)
