"""A French table from the lobby to the leaderboard, through SimCord and the real bot, with
every text it produces read for English left in it.

What is read: every request the bot sends to Discord (message contents; embeds' titles,
descriptions, fields and footers; button labels; select placeholders, options and their
descriptions; autocomplete choices) and every picture's words (the scene handed to the real
renderer: its title, its labels, its note). Only the command tree the bot registers is left
out: its default names are English by design, with French in its localisations.

What "English left" means is built from the catalogue itself: a piece of an English sentence
whose French translation differs (the text between its placeholders) must not show, unless
French uses the same words somewhere; plus a short list of common English words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.app import RummyBot
from bot.render.scene import HandScene, RoundEndScene, TableScene
from bot.text import ENGLISH, TRANSLATIONS, t
from rummy_engine import Phase
from tests.discord.conftest import World, has_table_buttons, make_bot, play_step
from tests.discord.test_french import speak

FRENCH = TRANSLATIONS["fr"]
PLACEHOLDER = re.compile(r"\{[^}]*\}")
PLURAL = re.compile(r"\[[a-z]+\]$")
#: Markup that is no language: mentions, channel links, timestamps, links, slash commands
#: and their options (``/rummy draw``, ``end:low``), which keep their English names.
NEUTRAL = re.compile(
    r"<[@#][!&]?\d+>|<t:\d+:\w>|https?://\S+|/rummy(?: \w+)?|\b\w+:(?:low|high|stock|discard)\b"
)
#: Common English words no French sentence of ours uses.
ENGLISH_WORDS = (
    "the", "your", "you", "and", "with", "off", "easy", "strong", "computer", "for", "is",
    "are", "seated", "players", "turn", "draw", "stock", "discard", "round", "cards", "card",
    "points", "wins", "games", "rating", "previous", "next", "statistics", "leaderboard",
    "below", "ran out", "has", "no", "yet",
)


def _french_texts() -> list[str]:
    return [*FRENCH.singular.values(), *(f for forms in FRENCH.plural.values() for f in forms)]


def _french_of(key: str) -> tuple[str, ...]:
    base = PLURAL.sub("", key)
    if base in FRENCH.plural:
        return FRENCH.plural[base]
    return (FRENCH.singular[base],) if base in FRENCH.singular else ()


def _phrase(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w']){re.escape(text)}(?![\w'])")


def english_pieces() -> dict[str, re.Pattern[str]]:
    """Each piece of English text (between placeholders) that French says otherwise, by the
    key it comes from: a piece French also uses somewhere ("Rami 51", "· table #") is not."""
    french = "\n".join(_french_texts())
    pieces: dict[str, re.Pattern[str]] = {}
    for key, english in ENGLISH.items():
        translated = _french_of(key)
        if not translated or english in translated:
            continue
        for raw in PLACEHOLDER.split(english):
            piece = raw.strip(" \n.,;:·—()!?*_`'\"•+-–→|/[]")
            if not re.search(r"[A-Za-z]{3,}", piece) or piece in pieces:
                continue
            if _phrase(piece).search(french):
                continue
            pieces[piece] = _phrase(piece)
    return pieces


PIECES = english_pieces()
WORDS = {word: re.compile(rf"(?<![\w']){word}(?![\w'])", re.IGNORECASE) for word in ENGLISH_WORDS}


def english_left(text: str) -> list[str]:
    """The English pieces and words found in ``text`` once its neutral markup is removed."""
    plain = NEUTRAL.sub(" ", PLACEHOLDER.sub(" ", text))
    found = [piece for piece, pattern in PIECES.items() if pattern.search(plain)]
    found += [word for word, pattern in WORDS.items() if pattern.search(plain)]
    return found


# -- what the bot produced ---------------------------------------------------------------------


def message_texts(message: Any) -> Iterator[str]:
    """The words a reader sees of a message payload: content, embeds, components."""
    if not isinstance(message, dict):
        return
    if message.get("content"):
        yield str(message["content"])
    for embed in message.get("embeds") or []:
        for part in ("title", "description"):
            if embed.get(part):
                yield str(embed[part])
        for item in embed.get("fields") or []:
            yield str(item.get("name", ""))
            yield str(item.get("value", ""))
        for part in ("footer", "author"):
            if (embed.get(part) or {}).get("text" if part == "footer" else "name"):
                yield str(embed[part].get("text") or embed[part].get("name"))
    yield from component_texts(message.get("components") or [])
    for choice in message.get("choices") or []:  # autocomplete
        yield str(choice.get("name", ""))


def component_texts(components: list[Any]) -> Iterator[str]:
    for component in components:
        for part in ("label", "placeholder", "title"):
            if component.get(part):
                yield str(component[part])
        for option in component.get("options") or []:
            yield str(option.get("label", ""))
            if option.get("description"):
                yield str(option["description"])
        yield from component_texts(component.get("components") or [])


def scene_texts(scene: Any) -> Iterator[str]:
    """A picture's words: its title, its labels (templates) and its note."""
    if getattr(scene, "title", ""):
        yield str(scene.title)
    yield from (str(v) for v in getattr(scene, "labels", {}).values())
    if getattr(scene, "note", ""):
        yield str(scene.note)


@dataclass
class Reader:
    """Reads every text of the bot's requests and pictures, and what kinds it saw."""

    scenes: list[Any] = field(default_factory=list)

    def watch(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        drawer = world.bot.reconciler.pictures.drawer
        draw = drawer.png

        async def png(scene: Any) -> bytes:
            self.scenes.append(scene)
            return await draw(scene)

        monkeypatch.setattr(drawer, "png", png)

    def texts(self, world: World) -> list[tuple[str, str]]:
        found = []
        for request in world.env.http_requests:
            if "/applications/" in request.path and "/commands" in request.path:
                continue  # the command tree: English defaults with French localisations
            body = request.json if isinstance(request.json, dict) else {}
            for payload in (body, body.get("data")):
                for text in message_texts(payload):
                    found.append((f"{request.method} {request.path}", text))
        for scene in self.scenes:
            for text in scene_texts(scene):
                found.append((type(scene).__name__, text))
        return found

    def leaks(self, world: World) -> list[str]:
        """Each English piece found, once, with the first text that showed it."""
        first: dict[str, str] = {}
        for where, text in self.texts(world):
            for piece in english_left(text):
                first.setdefault(piece, f"{piece!r} in {where}: {text[:160]!r}")
        return sorted(first.values())


# -- the game ------------------------------------------------------------------------------------


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    return make_bot(db_path)


def lobby(world: World) -> Any:
    return next(m for m in reversed(world.public_messages()) if has_table_buttons(m))


def table_message(world: World) -> Any:
    return next(
        m
        for m in reversed(world.public_messages())
        if any(a.filename.startswith("table-") for a in m.attachments)
    )


async def set_option(world: World, key: str, value: str) -> None:
    """The host changes one option through the lobby's Settings menus."""
    alice = world.players[0]
    menu = await alice.click(lobby(world), label=t("button.settings", "fr"))
    assert menu.ephemeral, menu
    picked = await alice.select(menu.response, values=[key])
    chosen = await alice.select(picked.response or menu.response, values=[value])
    assert chosen.acknowledged


async def open_french_table(world: World) -> None:
    """alice opens a Basic table, is refused a start alone, bob joins, a computer sits down,
    the host sets the timer and the rounds in the settings, and starts."""
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy-learn rules", variant="basic")
    await alice.slash(world.channel, "rummy new", variant="basic", mode="basic")
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    alone = await alice.slash(world.channel, "rummy start")
    assert alone.ephemeral and alone.response.content.startswith("La partie demande 2 joueurs")
    await bob.slash(world.channel, "rummy join")
    refused = await bob.slash(world.channel, "rummy start")
    assert refused.ephemeral and "hôte" in refused.response.content
    asked = await alice.click(lobby(world), label=t("button.add_computer", "fr"))
    added = await alice.select(asked.response, values=["easy"])
    assert added.acknowledged
    await set_option(world, "turn_timer", "1")
    await set_option(world, "basic_rounds", "2")
    await alice.slash(world.channel, "rummy-learn rules")
    await alice.slash(world.channel, "rummy-stats player")
    started = await alice.slash(world.channel, "rummy start")
    assert started.acknowledged


async def play_french_game(world: World) -> None:
    """alice plays her turns by typing them, with a refusal and a look at her hand panel; bob
    lets his run out until the host replaces him by a computer; computers play themselves."""
    alice, bob = world.players[:2]
    rng = random.Random(4)
    looked = replaced = False
    for _ in range(1500):
        table = await world.table()
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return
        if game.phase is Phase.ROUND_OVER:
            pressed = await alice.click(table_message(world), label=t("button.next_round", "fr"))
            assert pressed.acknowledged
            continue
        user = table.user_at(game.current)
        if user == alice.user.id:
            if not looked and game.phase is Phase.PLAY:
                await alice.click(table_message(world), label=t("button.hand", "fr"))
                await alice.slash(world.channel, "rummy discard", card="ZZ")
                await alice.slash(world.channel, "rummy hint")
                await bob.slash(world.channel, "rummy draw")
                looked = True
            await play_step(world, rng)
        elif user == bob.user.id:
            await world.env.advance_time(61)  # the reminder, then the turn played for him
        elif table.absent_seat() is not None and not replaced:
            answer = await alice.click(table_message(world), label=t("button.absent_replace", "fr"))
            assert answer.acknowledged
            replaced = True
        else:
            await world.env.advance_time(2)
    pytest.fail("the game did not end")


async def test_a_french_table_speaks_french_in_every_text(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol = world.players[:3]
    speak(
        monkeypatch,
        world.env,
        {p.user.id: "fr" for p in world.players},
        {world.guild.id: "fr"},
    )
    reader = Reader()
    reader.watch(world, monkeypatch)
    await open_french_table(world)
    await play_french_game(world)
    await alice.slash(world.channel, "rummy score")
    for who in (alice, carol):
        await alice.slash(world.channel, "rummy-stats player", player=who)
    board = await bob.slash(world.channel, "rummy-stats leaderboard")
    await bob.slash(world.channel, "rummy-stats leaderboard", scope="global", sort="wins")

    leaks = reader.leaks(world)
    assert not leaks, "English in a French table's texts:\n" + "\n".join(leaks)
    kinds = {type(s) for s in reader.scenes}
    assert {TableScene, HandScene, RoundEndScene} <= kinds, kinds
    table = await world.table()
    assert table.record.status == "finished" and any(s.is_computer for s in table.seats)
    assert any(s.name == "🤖 Ordinateur (pour bob)" for s in table.seats), table.seats
    texts = [text for _, text in reader.texts(world)]
    for expected in ("Classement", "Statistiques", "Précédent", "facile", "temps de", "⏰"):
        assert any(expected in text for text in texts), f"{expected!r} was never shown"
    assert board.response is not None and not board.ephemeral


def test_the_check_finds_english_and_leaves_french_alone() -> None:
    """The scan can fail: the sentences reported in issue 23 are caught, their French is not."""
    for english in (
        "Statistics · Anne has no recorded games here yet.",
        "Leaderboard · All variants · This server",
        "Ordinateur 1 s’installe à la table (easy).",
        "⏰ 🤖 Computer (for Ada)'s time ran out.",
        "Previous",
        "off",
    ):
        assert english_left(english), english
    for french in (
        "Statistiques · Anne n’a encore aucune partie enregistrée ici.",
        "Classement · Toutes les variantes · Ce serveur",
        "Ordinateur 1 s’installe à la table (facile).",
        "Précédent",
        "Rami 51 1v1 · table #3 · manche 2",
        "Votre table est ouverte dans ce salon ; vos amis la rejoignent avec ses boutons ou "
        "/rummy join.",
    ):
        assert not english_left(french), (french, english_left(french))
