"""The one error path: any exception from a command or a click becomes one private sentence.

Refusals (the engine's :class:`~rummy_engine.RuleViolation` and the services'
:class:`~bot.services.refusal.Refusal`, which shares its base) carry a code and parameters; the
catalogue words them in the player's language. Discord's own argument errors get sentences too.
Anything else is a bug: the player gets a polite sentence with a short reference, the operator a
log line with the same reference and the traceback. Echoed input is cleaned and cut short.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.storage.outage import DatabaseUnavailable
from bot.text import t
from bot.text.safe import excerpt
from bot.ui.interaction import DISCORD_FAILURES, locale_of, reply, was_saved
from rummy_engine import RuleViolation

log = logging.getLogger(__name__)

#: How much of a string parameter (often the player's own input) a refusal quotes.
PARAM_LIMIT = 80
MISSING_PERMISSIONS = 50013


def _unwrap(error: BaseException) -> BaseException:
    """The exception that really happened, under discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | discord.app_commands.AppCommandError):
        inner = getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def _params(params: dict[str, Any]) -> dict[str, Any]:
    return {k: excerpt(v, PARAM_LIMIT) if isinstance(v, str) else v for k, v in params.items()}


def refusal_sentence(error: RuleViolation, locale: str) -> str:
    """A refusal in the player's words, with the engine's suggested orders (``did_you_mean``)
    and its follow-up sentence if it has them."""
    params = _params(error.params)
    text = t(error.code, locale, **params)
    if params.get("did_you_mean"):
        text += " " + t("meld.did_you_mean", locale, did_you_mean=params["did_you_mean"])
    then = getattr(error, "then", None)
    if then:
        code, params = then
        text += "\n" + t(code, locale, **_params(params))
    return text


def sentence(error: BaseException, locale: str, *, where: str = "", saved: bool = False) -> str:
    """The private sentence for ``error``; an unexpected one is logged with a reference.
    ``saved``: what the player asked for was committed before the failure (answering it,
    usually Discord failing), so the sentence must not say that nothing changed."""
    error = _unwrap(error)
    if isinstance(error, RuleViolation):
        return refusal_sentence(error, locale)
    if isinstance(error, app_commands.TransformerError):
        return _transformer_sentence(error, locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.dm_only", locale)
    if isinstance(error, app_commands.BotMissingPermissions):
        return t("error.no_permission", locale, permissions=", ".join(error.missing_permissions))
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", locale, seconds=round(error.retry_after))
    if isinstance(error, DatabaseUnavailable):
        # the store's weather, logged once per episode by the store (bot/storage/outage.py)
        return t(_DATABASE[saved, error.maybe_done], locale)
    if isinstance(error, discord.Forbidden) and error.code == MISSING_PERMISSIONS:
        return t("error.no_permission", locale, permissions=excerpt(error.text, PARAM_LIMIT))
    ref = secrets.token_hex(4)
    if saved and isinstance(error, DISCORD_FAILURES):
        # Discord failing the answer to what is stored: its weather, not our bug
        log.warning("ref=%s in %s: Discord failed the answer (%s)", ref, where, error)
    else:
        log.error("unexpected error ref=%s in %s", ref, where or "an interaction", exc_info=error)
    return t("error.saved" if saved else "error.unexpected", locale, ref=ref)


#: The sentence of a database outage by (committed before it, maybe committed by the call).
_DATABASE = {
    (False, False): "error.database",
    (False, True): "error.database_unsure",
    (True, False): "error.database_saved",
    (True, True): "error.database_saved",
}


def _transformer_sentence(error: app_commands.TransformerError, locale: str) -> str:
    value = excerpt(str(error.value), PARAM_LIMIT)
    kind = error.type
    if kind in (
        discord.AppCommandOptionType.user,
        discord.AppCommandOptionType.mentionable,
    ):
        return t("error.member_not_found", locale, value=value)
    return t("error.bad_option", locale, value=value, option=kind.name)


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    data: Mapping[str, Any] = interaction.data or {}
    custom = data.get("custom_id")
    return f"/{command}" if command else f"component {custom}"


async def answer(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``error`` privately, whether the interaction was deferred or not."""
    locale, where = locale_of(interaction), _where(interaction)
    text = sentence(error, locale, where=where, saved=was_saved(interaction))
    try:
        await reply(interaction, text)
    except DISCORD_FAILURES:
        log.warning("could not answer an interaction with its error (%s)", _where(interaction))
