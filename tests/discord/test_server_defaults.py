"""Server defaults through SimCord: ``/rummy-settings server`` is for Manage Server only; an admin sets the
server's defaults, then a channel's override; ``/rummy new`` in each channel inherits the right
ones (variant may be left out) and its lobby says so; the lobby's Settings change that table
only; the defaults survive a restart. Runs on both stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import RummyBot
from bot.features.defaults.service import DEFAULT_SPECS
from bot.text import t
from rummy_engine import OPTION_SPECS
from tests.discord.conftest import World, make_bot
from tests.discord.test_french import speak
from tests.discord.test_truth import crash_at

REFUSED = "Only members with the Manage Server permission can set the defaults of new tables."


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


def admin_of(world: World) -> simcord.MemberActor:  # type: ignore[name-defined]
    """A member whose role grants Manage Server (and nothing else of note)."""
    return world.guild.add_member(world.env.create_user("mod"), roles=[mods_role(world)])


def mods_role(world: World) -> Any:
    found = world.guild.roles.get("mods")
    if found is not None:
        return found
    return world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))


def select_options(message: Any, index: int = 0) -> list[dict[str, Any]]:
    """The options of the ``index``-th select of a panel (raw component dicts)."""
    selects = [c for row in message.components for c in row["components"] if c["type"] == 3]
    return list(selects[index]["options"])


async def set_default(admin: Any, panel: Any, key: str, value: str) -> None:
    """In an open panel: pick ``key``, then ``value``; the panel is edited in place."""
    picked = await admin.select(panel, values=[key])
    assert picked.acknowledged and not picked.followups, picked
    chosen = await admin.select(panel, values=[value])
    assert chosen.acknowledged and not chosen.followups, chosen


def lobby_message(world: World, channel: Any) -> discord.Message:
    return next(m for m in reversed(channel.history()) if not m.flags.ephemeral and m.components)


async def test_only_manage_server_opens_the_panel_and_presses(world: World) -> None:
    alice = world.players[0]
    refused = await alice.slash(world.channel, "rummy-settings server")
    assert refused.ephemeral and refused.response.content == REFUSED
    admin = admin_of(world)
    panel = await admin.slash(world.channel, "rummy-settings server")
    assert panel.ephemeral and "Defaults of new tables on this server" in panel.response.content
    # the panel lists every default, built from the data (every engine option included)
    listed = [o["value"] for o in select_options(panel.response)]
    assert listed == [spec.key for spec in DEFAULT_SPECS]
    assert {spec.key for spec in OPTION_SPECS} <= set(listed)
    assert {"variant", "mode", "turn_timer", "language", "thread"} <= set(listed)
    # a press from someone who lost the permission since is refused in one sentence (SimCord
    # lets nobody else press a private panel; the role's stored permissions are changed here,
    # as Discord sends them with each interaction)
    mods_role(world)._role.permissions = 0
    pressed = await admin.select(panel.response, values=["variant"])
    assert pressed.response.content == REFUSED or (
        pressed.followups and pressed.followups[-1].content == REFUSED
    ), pressed
    assert "Choose its value" not in str(panel.response.components)
    assert await world.bot.store.get_table_defaults(world.guild.id, world.channel.id) == {
        0: {},
        world.channel.id: {},
    }


async def test_server_then_channel_defaults_are_inherited_shown_and_kept(
    world: World, store_url: str | Path
) -> None:
    alice, bob = world.players[:2]
    admin = admin_of(world)
    other = world.guild.create_text_channel("rummy-71")

    calls = crash_at(world.bot, None)  # bot-token REST calls, counted (none made to fail)
    panel = await admin.slash(world.channel, "rummy-settings server")
    await set_default(admin, panel.response, "variant", "r51")
    await set_default(admin, panel.response, "ace_mode", "wrap")
    await set_default(admin, panel.response, "turn_timer", "5")
    await set_default(admin, panel.response, "thread", "yes")
    assert calls == [], "the panel is answered and edited through its interactions only"
    assert [m for m in world.channel.history() if not m.flags.ephemeral] == []
    content = panel.response.content
    assert "Thread per game is now yes for new tables on this server." in content
    assert "Set here: Variant: Rummy 51, Turn timer (minutes): 5" in content
    assert "Thread per game: yes, Ace: wraps round" in content

    # the channel's own: another variant and timer, the server's ace kept
    in_other = await admin.slash(other, "rummy-settings server")
    await admin.click(in_other.response, label="This channel")
    assert f"Defaults of new tables in <#{other.id}>" in in_other.response.content
    await admin.select(in_other.response, values=["turn_timer"])
    unset = select_options(in_other.response)[0]
    assert (unset["label"], unset["value"]) == ("Not set (follow the server: 5)", "unset")
    await admin.click(in_other.response, label="Back")
    await set_default(admin, in_other.response, "variant", "r71")
    await set_default(admin, in_other.response, "turn_timer", "off")
    await set_default(admin, in_other.response, "language", "fr")
    shown = in_other.response.content
    assert "Set here: Variant: Rummy 71, Turn timer (minutes): off, Language: Français" in shown
    assert "From the server: Thread per game: yes, Ace: wraps round" in shown
    stored = await world.bot.store.get_table_defaults(world.guild.id, other.id)
    assert stored == {
        0: {"variant": "r51", "ace_mode": "wrap", "turn_timer": "5", "thread": "yes"},
        other.id: {"variant": "r71", "turn_timer": "off", "language": "fr"},
    }

    # a restart keeps them
    old_bot = world.env.bot
    await world.env.restart_bot(make_bot(store_url))
    await old_bot.close()

    # the server's channel: /rummy new without a variant takes the server's defaults
    opened = await alice.slash(world.channel, "rummy new")
    assert opened.acknowledged and opened.ephemeral
    here = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert here is not None
    assert (here.record.variant, here.turn_timer) == ("r51", 5)
    assert json.loads(here.record.options_json) == {
        "ace_mode": "wrap",
        "turn_timer": 5,
        "thread": "yes",
    }
    lobby = lobby_message(world, world.channel)
    assert (
        "Server defaults: Variant: Rummy 51, Turn timer (minutes): 5, Thread per game: yes, "
        "Ace: wraps round"
    ) in lobby.content
    assert "channel's defaults" not in lobby.content

    # the overriding channel: the channel's variant, timer and language, the server's ace
    opened = await bob.slash(other, "rummy new", mode="2v2")
    there = await world.bot.tables.in_channel(world.guild.id, other.id)
    assert there is not None
    assert (there.record.variant, there.record.mode, there.turn_timer) == ("r71", "2v2", 0)
    assert there.record.locale == "fr"
    assert json.loads(there.record.options_json) == {
        "ace_mode": "wrap",
        "turn_timer": 0,
        "thread": "yes",
    }
    french = lobby_message(world, other).content
    assert (
        "\nRéglages par défaut du serveur : Un fil par partie : oui, As : fait le tour\n" in french
    )
    assert (
        "\nRéglages par défaut de ce salon : Variante : Rami 71, Minuteur (minutes par tour) : "
        "non, Langue : Français\n"
    ) in french  # mode 2v2 was the host's choice, not inherited

    # the host's own options come first: nothing inherited for what they chose
    await alice.slash(world.channel, "rummy cancel")
    chosen = await alice.slash(world.channel, "rummy new", variant="simple", ace_mode="low_only")
    assert chosen.acknowledged
    own = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert own is not None and own.record.variant == "simple"
    assert json.loads(own.record.options_json) == {
        "ace_mode": "low_only",
        "turn_timer": 5,
        "thread": "yes",
    }
    line = lobby_message(world, world.channel).content
    assert "Server defaults: Turn timer (minutes): 5, Thread per game: yes" in line
    assert "Variant: Rummy 51" not in line and "wraps round" not in line


async def test_lobby_settings_change_only_that_table(world: World) -> None:
    alice = world.players[0]
    admin = admin_of(world)
    panel = await admin.slash(world.channel, "rummy-settings server")
    await set_default(admin, panel.response, "variant", "r51")
    await set_default(admin, panel.response, "ace_mode", "wrap")
    await set_default(admin, panel.response, "discard_take", "free")
    await alice.slash(world.channel, "rummy new")
    lobby = lobby_message(world, world.channel)
    assert "Server defaults: Variant: Rummy 51, Ace: wraps round, Taking the discard: free" in (
        lobby.content
    )

    menu = await alice.click(lobby, label=t("button.settings", "en"))
    picked = await alice.select(menu.response, values=["ace_mode"])
    chosen = await alice.select(picked.response or menu.response, values=["low_high"])
    assert chosen.acknowledged
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    assert json.loads(table.record.options_json) == {"discard_take": "free", "turn_timer": 0}
    # the defaults are untouched, and the line no longer claims the ace it lost
    stored = await world.bot.store.get_table_defaults(world.guild.id, world.channel.id)
    assert stored[0] == {"variant": "r51", "ace_mode": "wrap", "discard_take": "free"}
    content = lobby_message(world, world.channel).content
    assert "Server defaults: Variant: Rummy 51, Taking the discard: free" in content
    assert "wraps round" not in content


async def test_without_a_default_variant_new_asks_for_one_and_unset_clears(world: World) -> None:
    alice = world.players[0]
    asked = await alice.slash(world.channel, "rummy new")
    assert asked.response.content == (
        "Choose a variant: no default variant is set for this channel or server."
    )
    assert await world.bot.tables.in_channel(world.guild.id, world.channel.id) is None
    admin = admin_of(world)
    panel = await admin.slash(world.channel, "rummy-settings server")
    await set_default(admin, panel.response, "variant", "basic")
    await set_default(admin, panel.response, "mode", "2v2")
    await set_default(admin, panel.response, "variant", "unset")
    assert "Variant no longer has a server default." in panel.response.content
    await admin.click(panel.response, label="Clear these defaults")
    assert "The server's defaults are cleared." in panel.response.content
    assert "Nothing is set here yet." in panel.response.content
    assert (await world.bot.store.get_table_defaults(world.guild.id, 1))[0] == {}


async def test_the_panel_and_its_refusal_speak_french(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = world.players[0]
    admin = admin_of(world)
    users = {alice.user.id: "fr", admin.user.id: "fr"}
    speak(monkeypatch, world.env, users, {world.guild.id: "fr"})
    refused = await alice.slash(world.channel, "rummy-settings server")
    assert refused.response.content == (
        "Seuls les membres ayant la permission Gérer le serveur peuvent choisir les réglages par "
        "défaut des nouvelles tables."
    )
    panel = await admin.slash(world.channel, "rummy-settings server")
    await admin.click(panel.response, label="Ce salon")
    await set_default(admin, panel.response, "thread", "yes")
    content = panel.response.content
    assert content.startswith("✅ Un fil par partie vaut désormais oui pour les nouvelles tables")
    assert f"**Réglages par défaut des nouvelles tables dans <#{world.channel.id}>**" in content
    assert "Réglé ici : Un fil par partie : oui" in content
    labels = {o["value"]: o for o in select_options(panel.response)}
    assert labels["thread"]["label"] == "Un fil par partie"
    assert labels["thread"]["description"] == "oui (ce salon)"
    assert labels["variant"]["description"] == "non réglé"
