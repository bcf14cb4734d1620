"""English sentences of server defaults (the panel and the lobby's inherited line).

Keys are prefixed by what they belong to, so they cannot collide with another feature's.
:func:`bot.text.t` serves them (every feature's ``words.WORDS`` joins the catalogue).
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    "command.server": "Defaults of new tables (Manage Server)",
    "defaults.manage_only": "Only members with the Manage Server permission can set the defaults of new tables.",
    "defaults.no_variant": "Choose a variant: no default variant is set for this channel or server.",
    "defaults.bad_key": "There is no default called {key}.",
    "defaults.key.variant": "Variant",
    "defaults.key.mode": "Mode",
    "defaults.title.s": "**Defaults of new tables on this server**",
    "defaults.title.c": "**Defaults of new tables in {channel}** (they override the server's)",
    "defaults.set_here": "Set here: {items}",
    "defaults.none_here": "Nothing is set here yet.",
    "defaults.from_server": "From the server: {items}",
    "defaults.how": "/rummy new uses them unless its own options say otherwise; a lobby's Settings change that one table only.",
    "defaults.where.s": "this server",
    "defaults.pick_value": "Default {option} for {where}:",
    "defaults.set.s": "{option} is now {value} for new tables on this server.",
    "defaults.set.c": "{option} is now {value} for new tables in this channel.",
    "defaults.unset.s": "{option} no longer has a server default.",
    "defaults.unset.c": "{option} in this channel now follows the server.",
    "defaults.cleared.s": "The server's defaults are cleared.",
    "defaults.cleared.c": "This channel's defaults are cleared; it follows the server.",
    "defaults.button.s": "This server",
    "defaults.button.c": "This channel",
    "defaults.button.clear": "Clear these defaults",
    "defaults.button.back": "Back",
    "defaults.select.key": "Choose a default to set",
    "defaults.select.value": "Choose its value",
    "defaults.not_set": "not set",
    "defaults.origin.server": "{value} (server)",
    "defaults.origin.channel": "{value} (this channel)",
    "defaults.unset_choice.s": "Not set (the bot's usual)",
    "defaults.unset_choice.c": "Not set (follow the server)",
    "defaults.unset_choice.c_value": "Not set (follow the server: {value})",
    "defaults.lobby.server": "Server defaults: {items}",
    "defaults.lobby.channel": "This channel's defaults: {items}",
    # -- Slash commands: ``command.<name>`` describes one, ``command.<name>.<option>`` an option

}
