"""``/rummy-settings server``: the private panel where a member with Manage Server sets the defaults of
new tables, for the whole server or for the channel it was opened in.

The panel is one ephemeral message that every press edits through its own interaction (no
bot-token call): two scope buttons, a select of every default (built from
:data:`bot.features.defaults.service.DEFAULT_SPECS`, so no option is listed twice), then a select of
that default's values with "Not set". Each press checks the permission again: a panel is only
ever seen by who opened it, but a member may lose Manage Server meanwhile.

Custom ids follow the table components' shape with table 0: the arg is the scope (``s`` the
server, ``c`` the channel the press comes from), then ``_`` and the key for a value select.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.features.defaults.service import (
    DEFAULT_SPECS,
    SERVER,
    Defaults,
    DefaultsService,
    default_spec,
    items_text,
    key_label,
    value_label,
)
from bot.features.play.actions import Action
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.widgets import Click, TableButton, TableSelect, component_view
from bot.services.refusal import Refusal
from bot.text import t
from bot.text.safe import LABEL_LIMIT, cut
from bot.ui.interaction import (
    can_manage_server,
    defer_private,
    defer_update,
    edit_panel,
    locale_of,
    reply,
)

#: The actions of the panel (the router hands them here).
DEFAULTS_ACTIONS = frozenset(
    {Action.DEFAULTS_SCOPE, Action.DEFAULTS_CLEAR, Action.DEFAULTS_KEY, Action.DEFAULTS_VALUE}
)
#: The value select's choice that removes a default.
UNSET = "unset"
SERVER_CODE, CHANNEL_CODE = "s", "c"


class DefaultsHandlers:
    """The command that opens the panel and the presses inside it."""

    def __init__(self, ui: UiContext) -> None:
        self.defaults = DefaultsService(ui.store)

    async def open_panel(self, interaction: discord.Interaction) -> None:
        """``/rummy-settings server``: the panel on the server's own defaults."""
        await defer_private(interaction)
        guild, channel = _place(interaction)
        content, view = await self._panel(interaction, guild, channel, SERVER_CODE)
        await reply(interaction, content, view=view)

    async def click(self, interaction: discord.Interaction, click: Click) -> None:
        """A press in the panel: the panel edited in place to what it leads to."""
        await defer_update(interaction)
        guild, channel = _place(interaction)
        code, _, key = click.arg.partition("_")
        code = CHANNEL_CODE if code == CHANNEL_CODE else SERVER_CODE
        scope = channel if code == CHANNEL_CODE else SERVER
        note = ""
        if click.action is Action.DEFAULTS_KEY and click.values:
            content, view = await self._values(interaction, guild, channel, code, click.values[0])
            await edit_panel(interaction, content, view=view)
            return
        locale = locale_of(interaction)
        if click.action is Action.DEFAULTS_VALUE and click.values:
            value = None if click.values[0] == UNSET else click.values[0]
            await self.defaults.set(guild, scope, key, value)
            note = _set_note(key, value, code, locale)
        elif click.action is Action.DEFAULTS_CLEAR:
            await self.defaults.clear(guild, scope)
            note = t(f"defaults.cleared.{code}", locale)
        content, view = await self._panel(interaction, guild, channel, code, note=note)
        await edit_panel(interaction, content, view=view)

    async def _panel(
        self,
        interaction: discord.Interaction,
        guild: int,
        channel: int,
        code: str,
        *,
        note: str = "",
    ) -> tuple[str, discord.ui.View]:
        locale = locale_of(interaction)
        defaults = await self.defaults.load(guild, channel)
        return panel_text(defaults, code, channel, locale, note), panel_view(defaults, code, locale)

    async def _values(
        self, interaction: discord.Interaction, guild: int, channel: int, code: str, key: str
    ) -> tuple[str, discord.ui.View]:
        locale = locale_of(interaction)
        defaults = await self.defaults.load(guild, channel)
        where = _where(code, channel, locale)
        content = t("defaults.pick_value", locale, option=key_label(key, locale), where=where)
        return content, values_view(defaults, code, key, locale)


def _place(interaction: discord.Interaction) -> tuple[int, int]:
    """(server, channel) of a press, once the presser is known to manage the server."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise discord.app_commands.NoPrivateMessage()
    if not can_manage_server(interaction):
        raise Refusal("defaults.manage_only")
    return interaction.guild_id, interaction.channel_id


def _where(code: str, channel: int, locale: str) -> str:
    return t("defaults.where.s", locale) if code == SERVER_CODE else f"<#{channel}>"


def _set_note(key: str, value: str | None, code: str, locale: str) -> str:
    option = key_label(key, locale)
    if value is None:
        return t(f"defaults.unset.{code}", locale, option=option)
    shown = value_label(key, value, locale)
    return t(f"defaults.set.{code}", locale, option=option, value=shown)


def panel_text(defaults: Defaults, code: str, channel: int, locale: str, note: str = "") -> str:
    """What is set in the scope shown (and, for a channel, what it takes from the server)."""
    lines = [f"✅ {note}"] if note else []
    lines.append(t(f"defaults.title.{code}", locale, channel=f"<#{channel}>"))
    own = defaults.of(SERVER if code == SERVER_CODE else channel)
    if own:
        lines.append(t("defaults.set_here", locale, items=items_text(own, locale)))
    else:
        lines.append(t("defaults.none_here", locale))
    if code == CHANNEL_CODE:
        inherited = {k: v for k, v in defaults.server.items() if k not in defaults.channel}
        if inherited:
            lines.append(t("defaults.from_server", locale, items=items_text(inherited, locale)))
    lines.append(t("defaults.how", locale))
    return "\n".join(lines)


def panel_view(defaults: Defaults, code: str, locale: str) -> discord.ui.View:
    """Scope buttons, Clear, and the select of every default with what applies now."""
    own = defaults.server if code == SERVER_CODE else defaults.channel
    primary, secondary = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
    options = [
        discord.SelectOption(
            label=cut(t(spec.label_key, locale), LABEL_LIMIT),
            value=spec.key,
            description=cut(_applies(defaults, code, spec.key, locale), LABEL_LIMIT),
        )
        for spec in DEFAULT_SPECS
    ]
    return component_view(
        TableButton(
            0,
            0,
            Action.DEFAULTS_SCOPE,
            t("defaults.button.s", locale),
            arg=SERVER_CODE,
            style=primary if code == SERVER_CODE else secondary,
        ),
        TableButton(
            0,
            0,
            Action.DEFAULTS_SCOPE,
            t("defaults.button.c", locale),
            arg=CHANNEL_CODE,
            style=primary if code == CHANNEL_CODE else secondary,
        ),
        TableButton(
            0,
            0,
            Action.DEFAULTS_CLEAR,
            t("defaults.button.clear", locale),
            arg=code,
            style=discord.ButtonStyle.danger,
            disabled=not own,
        ),
        TableSelect(
            0, 0, Action.DEFAULTS_KEY, options, t("defaults.select.key", locale), arg=code, row=1
        ),
    )


def _applies(defaults: Defaults, code: str, key: str, locale: str) -> str:
    """What a new table in this scope gets for ``key``, and from where."""
    found = (
        defaults.value(key)
        if code == CHANNEL_CODE
        else (None if key not in defaults.server else (defaults.server[key], "server"))
    )
    if found is None:
        return t("defaults.not_set", locale)
    value, origin = found
    return t(f"defaults.origin.{origin}", locale, value=value_label(key, value, locale))


def values_view(defaults: Defaults, code: str, key: str, locale: str) -> discord.ui.View:
    """Every value of ``key`` (the scope's current one selected) and "Not set"; Back."""
    spec = default_spec(key)
    current: Mapping[str, str] = defaults.server if code == SERVER_CODE else defaults.channel
    chosen = current.get(key)
    unset = t(f"defaults.unset_choice.{code}", locale)
    if code == CHANNEL_CODE and key in defaults.server:
        shown = value_label(key, defaults.server[key], locale)
        unset = t("defaults.unset_choice.c_value", locale, value=shown)
    options = [
        discord.SelectOption(label=cut(unset, LABEL_LIMIT), value=UNSET, default=chosen is None)
    ]
    options += [
        discord.SelectOption(
            label=cut(value_label(key, value, locale), LABEL_LIMIT),
            value=value,
            default=value == chosen,
        )
        for value in spec.choices[:24]
    ]
    return component_view(
        TableSelect(
            0,
            0,
            Action.DEFAULTS_VALUE,
            options,
            t("defaults.select.value", locale),
            arg=f"{code}_{key}",
        ),
        TableButton(
            0, 0, Action.DEFAULTS_SCOPE, t("defaults.button.back", locale), arg=code, row=1
        ),
    )
