"""The bot speaks French, through SimCord: a French player's whole round, a mixed table (French
server, English player), a table whose host chose English, and the command tree Discord gets.

SimCord 3.2 sends every interaction with ``locale`` and ``guild_locale`` "en-US"; a real French
client sends "fr". :func:`speak` rewrites those two fields of the INTERACTION_CREATE payloads
SimCord emits, per user and per server — the bot under test is untouched.

What "in French" means here: a text shows no word that only the English catalogue uses (words of
both catalogues, player names and card codes are neutral) and at least one French-only word.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

import discord
import pytest
import simcord

from bot.text import ENGLISH, TRANSLATIONS
from rummy_engine import StartRound, action_to_json
from rummy_engine.strategy import choose_action
from tests.discord.conftest import World, command_for

WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)*", re.UNICODE)
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def _words(texts: Any) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


FRENCH = TRANSLATIONS["fr"]
FRENCH_WORDS = _words([*FRENCH.singular.values(), *(f for fs in FRENCH.plural.values() for f in fs)])
ENGLISH_WORDS = _words(ENGLISH.values())
#: Words only English sentences use ("your", "draw", "stock"…); names and card codes excluded.
ENGLISH_ONLY = ENGLISH_WORDS - FRENCH_WORDS - {"alice", "bob", "carol", "dave", "jk"}
FRENCH_ONLY = FRENCH_WORDS - ENGLISH_WORDS


def english_words(text: str) -> set[str]:
    return _words([text]) & ENGLISH_ONLY


def assert_french(text: str, where: str) -> None:
    assert not english_words(text), f"{where}: English words {english_words(text)} in {text!r}"
    assert _words([text]) & FRENCH_ONLY, f"{where}: no French word in {text!r}"


def assert_english(text: str, where: str) -> None:
    assert _words([text]) & ENGLISH_ONLY, f"{where}: no English word in {text!r}"
    assert not (_words([text]) & FRENCH_ONLY), f"{where}: French words in {text!r}"


def texts_of(message: discord.Message) -> list[str]:
    """What a reader sees of a message: its content and its buttons' and menus' words."""
    texts = [message.content] if message.content else []
    for row in message.components:
        for item in getattr(row, "children", []):
            label = getattr(item, "label", None) or getattr(item, "placeholder", None)
            if label and WORD.search(label) and not re.fullmatch(r"[\w♠♥♦♣ ]{1,6}", label):
                texts.append(label)
    return texts


def speak(
    monkeypatch: pytest.MonkeyPatch,
    env: simcord.Env,
    users: Mapping[int, str],
    guilds: Mapping[int, str],
) -> None:
    """Interactions from ``users`` carry their client's locale, from ``guilds`` the server's."""
    backend = env.backend
    emit = backend.emit

    def localised(event: str, payload: Mapping[str, Any]) -> None:
        if event == "INTERACTION_CREATE":
            changed = dict(payload)
            user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
            changed["locale"] = users.get(int(user.get("id", 0)), payload.get("locale"))
            if "guild_id" in payload:
                changed["guild_locale"] = guilds.get(int(payload["guild_id"]), "en-US")
            payload = changed
        emit(event, payload)

    monkeypatch.setattr(backend, "emit", localised)


async def open_table(world: World, *, host_says: str, **options: object) -> list[str]:
    """alice opens an r51 1v1 table, bob joins, alice starts; the private answers, in order."""
    alice, bob = world.players[:2]
    answers = []
    for actor, command, kwargs in (
        (alice, "rummy new", {"variant": "r51", "mode": "1v1", **options}),
        (bob, "rummy join", {}),
        (alice, "rummy start", {}),
    ):
        result = await actor.slash(world.channel, command, **kwargs)
        assert result.acknowledged and result.ephemeral, (command, result)
        answers.append(result.response.content)
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    assert host_says in answers[0], answers
    return answers


async def play_round(world: World) -> dict[int, list[str]]:
    """Both players type their moves until the round is over; each one's private answers."""
    rng = random.Random(3)
    answers: dict[int, list[str]] = {p.user.id: [] for p in world.players[:2]}
    for _ in range(600):
        table = await world.table()
        game = table.require_game()
        if game.results:
            return answers
        action = choose_action(game, rng)
        assert not isinstance(action, StartRound)
        name, options = command_for(action)
        member = world.member(table.user_at(action.seat))
        result = await member.slash(world.channel, name, **options)
        assert result.acknowledged and result.ephemeral, (name, options)
        answers[member.user.id].append(result.response.content)
        moves = await world.bot.store.list_moves(table.id, after_seq=table.record.version)
        assert moves and json.loads(moves[0].action_json) == action_to_json(action), action
    pytest.fail("the round did not end")


def dms_of(member: Any) -> list[discord.Message]:
    channel = member.user.dm_channel
    return [] if channel is None else list(channel.history())


async def test_a_french_player_plays_a_whole_round_in_french(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = world.players[:2]
    speak(monkeypatch, world.env, {alice.user.id: "fr", bob.user.id: "fr"}, {world.guild.id: "fr"})
    answers = await open_table(world, host_says="Votre table est ouverte")
    played = await play_round(world)
    table = await world.table()
    assert table.require_game().results, "a round was played to its end"
    for text in answers + played[alice.user.id] + played[bob.user.id]:
        assert_french(text, "private answer")
    public = world.public_messages()
    assert len(public) >= 2
    for message in public:
        for text in texts_of(message):
            assert_french(text, "public message")
    for member in (alice, bob):
        dms = dms_of(member)
        assert dms, "each player got their hand by DM"
        for message in dms:
            for text in texts_of(message):
                assert_french(text, f"DM of {member.user.name}")
    summary = [m for m in public if "Manche 1" in m.content or "manche 1" in m.content]
    assert summary, "the round summary is posted, in French"
    assert any(a.filename.endswith(".png") for m in public for a in m.attachments)
    assert await world.bot.store.get_guild_setting(world.guild.id, "locale") == "fr"
    assert (await world.bot.store.get_player_prefs(alice.user.id)).locale == "fr"


async def test_a_mixed_table_speaks_each_language_where_it_belongs(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """French server and host, English guest: the table is French, the guest's answers and hand
    are English, the host's are French."""
    alice, bob = world.players[:2]
    speak(monkeypatch, world.env, {alice.user.id: "fr", bob.user.id: "en-GB"}, {world.guild.id: "fr"})
    answers = await open_table(world, host_says="Votre table est ouverte")
    assert_french(answers[0], "host's answer")
    assert_english(answers[1], "guest's answer")
    assert_french(answers[2], "host's start answer")
    played = await play_round(world)
    for text in played[alice.user.id]:
        assert_french(text, "host's private answer")
    for text in played[bob.user.id]:
        assert_english(text, "guest's private answer")
    for message in world.public_messages():
        for text in texts_of(message):
            assert_french(text, "public message")
    for message in dms_of(alice):
        assert_french(message.content, "host's hand DM")
    guest_dms = dms_of(bob)
    assert guest_dms
    for message in guest_dms:
        assert_english(message.content, "guest's hand DM")


async def test_the_host_chooses_the_table_language_over_the_servers(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a French server, /rummy new language:English makes the table's public messages
    English; a French player's own answers and hand stay French."""
    alice, bob = world.players[:2]
    speak(monkeypatch, world.env, {alice.user.id: "fr", bob.user.id: "fr"}, {world.guild.id: "fr"})
    await open_table(world, host_says="Votre table est ouverte", language="en")
    table = await world.table()
    assert table.record.locale == "en"
    for message in world.public_messages():
        assert_english(message.content, "public message")
    for message in dms_of(alice):
        assert_french(message.content, "hand DM")


async def test_the_lobby_settings_switch_the_table_language(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An English server; the host picks Language → Français in the lobby's settings and the
    lobby message turns French."""
    alice = world.players[0]
    speak(monkeypatch, world.env, {alice.user.id: "en-US"}, {world.guild.id: "en-US"})
    result = await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    assert result.acknowledged
    lobby = next(m for m in world.public_messages() if m.components)
    assert_english(lobby.content, "lobby before")
    menu = await alice.click(lobby, label="Settings")
    panel = menu.response
    picked = await alice.select(panel, values=["language"])
    chosen = await alice.select(picked.response if picked.response else panel, values=["fr"])
    assert chosen.acknowledged
    lobby = next(m for m in world.public_messages() if m.components)
    assert_french(lobby.content, "lobby after")
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None and opened.record.locale == "fr"


async def test_the_synced_command_tree_carries_french_everywhere(world: World) -> None:
    """What Discord stored from the bot's sync: a ``fr`` description for every top-level
    command, every subcommand and every option, and a ``fr`` name for every choice (numbers
    excepted)."""
    roots = [
        world.env.backend.find_command(name, None, type=1)
        for name in ("rummy", "rummy-stats", "rummy-learn", "rummy-settings")
    ]
    checked = {"commands": 0, "options": 0, "choices": 0}

    def french(entry: Mapping[str, Any], field: str) -> str:
        localised = entry.get(f"{field}_localizations") or {}
        assert localised.get("fr"), f"{entry.get('name')}: no fr {field}"
        return str(localised["fr"])

    for root in roots:
        assert root is not None, "the bot synced every top-level command"
        french(root, "description")
        for command in root["options"]:
            french(command, "description")
            checked["commands"] += 1
            for option in command.get("options", []):
                french(option, "description")
                checked["options"] += 1
                for choice in option.get("choices", []):
                    if str(choice["name"]).isdigit():
                        continue
                    french(choice, "name")
                    checked["choices"] += 1
    assert checked["commands"] >= 25 and checked["options"] >= 20 and checked["choices"] >= 20
    rummy = roots[0]
    assert rummy is not None
    new = next(c for c in rummy["options"] if c["name"] == "new")
    variant = next(o for o in new["options"] if o["name"] == "variant")
    names = {c["value"]: c["name_localizations"]["fr"] for c in variant["choices"]}
    assert names["r51"] == "Rami 51" and names["basic"] == "Rami classique"
    assert new["description_localizations"]["fr"] == "Ouvrir une table de rami dans ce salon"
