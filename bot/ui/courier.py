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
        with self._params(content, view, mentions, **fields) as params:
            data = await self._call(
                async_context.get().execute_webhook,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
                wait=True,
            )
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
        try:
            data = await verb(  # type: ignore[operator]
                self.application_id,
                self.token,
                *args,
                session=self.session,
                proxy=self.proxy,
                proxy_auth=self.proxy_auth,
                **fields,
            )
        except discord.HTTPException as error:
            if error.status == 401 or error.code in (INVALID_TOKEN, UNKNOWN_WEBHOOK):
                raise TokenGone(str(error)) from error
            raise
        return data if isinstance(data, dict) else {}
