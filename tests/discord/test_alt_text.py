"""Alt text on every picture, through SimCord: a round played by typed commands, each table,
hand and round-end picture checked after every step (its description names every card of every
meld shown, the discard's top, every hand card of a hand or a round's end, and nothing the
picture does not show); the table message's Melds line; a French table; twin games that differ
only in hidden cards tell the same table; and a huge Basic table within Discord's 1,024
characters, shortened with counts, never mid-word."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from dataclasses import replace

import pytest

from bot.features.play import presenter
from bot.features.play.tables import Table
from bot.features.play.ui.messages import table_draft
from bot.features.play.ui.reconciler import TABLE
from bot.render import TableScene
from bot.services import alt_text
from rummy_engine import Card, Game, Phase, Rules, Suit, Variant, player_view
from rummy_engine.game import TableMeld
from rummy_engine.melds import make_meld
from rummy_engine.strategy import choose_action
from tests.discord.conftest import World, play_step
from tests.discord.test_french import assert_french, open_table, play_round, speak
from tests.helpers import alt_checks
from tests.helpers.invariants import Shown, simcord_messages

#: Six display names of Discord's longest (32 characters).
LONG_NAMES = [f"{c}{c.lower() * 9} {c.lower() * 10}_{c.lower() * 10}" for c in "QVWXYZ"]


def all_shown(world: World) -> list[Shown]:
    channels, private = simcord_messages(world.env)
    return [m for messages in channels.values() for m in messages] + private


def pictures(world: World) -> dict[str, list[str]]:
    """Every description of every attachment shown now, by kind (table, hand, round)."""
    found: dict[str, list[str]] = {}
    for message in all_shown(world):
        for name, text in zip(message.filenames, message.descriptions, strict=True):
            found.setdefault(name.split("-")[0], []).append(text or "")
    return found


async def table_message(world: World, table: Table) -> Shown:
    refs = {r.kind: r for r in await world.bot.store.get_message_refs(table.id)}
    return next(m for m in all_shown(world) if m.id == refs[TABLE].message_id)


async def check_now(world: World) -> int:
    """The checks of the invariant, here and now; returns how many meld cards were checked."""
    table = await world.table()
    shown = await table_message(world, table)
    found = alt_checks.table_picture(table, shown)
    found += alt_checks.round_pictures(table, all_shown(world))
    found += alt_checks.hand_pictures(all_shown(world))
    found += [v for m in all_shown(world) for v in alt_checks.present(m)]
    assert not found, found
    return sum(len(tm.meld.cards) for tm in table.view(None).table)


async def test_every_picture_of_a_round_says_what_it_shows(world: World) -> None:
    table = await world.open_table("r51", "1v1", 2)
    hand = await world.member(table.user_at(table.require_game().current)).slash(
        world.channel, "rummy hand"
    )
    assert hand.ephemeral and hand.response.attachments[0].description  # type: ignore[union-attr]
    rng, checked, lines = random.Random(5), 0, 0
    for _ in range(600):
        table = await world.table()
        if table.require_game().results:
            break
        await play_step(world, rng)
        checked += await check_now(world)
        now = await world.table()
        if now.view(None).table:
            lines += 1
            content = (await table_message(world, now)).content
            assert "Melds (" in content or "Meld: " in content, content
    else:
        pytest.fail("the round did not end")
    assert checked > 0, "table pictures with melds were told"
    assert lines > 0, "the table text had a Melds line"
    kinds = pictures(world)
    assert {"table", "hand", "round"} <= set(kinds), kinds.keys()
    assert all(0 < len(text) <= alt_text.ALT_LIMIT for texts in kinds.values() for text in texts)
    (summary,) = kinds["round"]
    assert summary.startswith("Picture of the round's end: Round 1")


async def test_the_melds_line_names_every_meld_with_its_cards_and_layer(world: World) -> None:
    """The table message's text tells the melds for a screen reader: numbered, every card,
    who laid them, in the order the picture numbers them."""
    table = await world.open_table("r51", "1v1", 2)
    rng = random.Random(5)
    for _ in range(600):
        table = await world.table()
        if len(table.view(None).table) >= 2 or table.require_game().results:
            break
        await play_step(world, rng)
    view = table.view(None)
    assert len(view.table) >= 2, "two melds were laid"
    content = (await table_message(world, table)).content
    line = next(x for x in content.split("\n") if x.startswith("Melds ("))
    names = presenter.names_for(table)
    for number, tm in enumerate(view.table, start=1):
        told = f"{number}. {alt_text.meld_cards(tm.meld)}, by {names.name(tm.owner)}"
        assert told in line, (told, line)


async def test_a_french_table_is_told_in_french(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = world.players[:2]
    speak(monkeypatch, world.env, {alice.user.id: "fr", bob.user.id: "fr"}, {world.guild.id: "fr"})
    await open_table(world, host_says="Votre table est ouverte")
    await play_round(world)
    kinds = pictures(world)
    assert {"table", "hand", "round"} <= set(kinds), kinds.keys()
    for kind, texts in kinds.items():
        for text in texts:
            assert_french(text, f"{kind} picture's description")
    assert kinds["table"][0].startswith("Image de la table")
    assert any(text.startswith("Image de votre main") for text in kinds["hand"])
    await check_now(world)


def _game_with_melds(seed: int) -> Game:
    """An r51 1v1 game played by the simple player until at least two melds are down."""
    game = Game.new(Rules(Variant.R51, 2), seed=seed)
    rng = random.Random(seed)
    while len(game.table) < 2:
        assert game.phase in (Phase.DRAW, Phase.PLAY), "melds before the round's end"
        game.apply(choose_action(game, rng))
    return game


def _scene(game: Game, locale: str = "en") -> TableScene:
    from bot.features.play import scenes

    view = player_view(game, None)
    names = ["alice", "bob"]
    return scenes.table_scene(view, "Rummy 51 1v1 · table #1", names, names, locale)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twin_tables_that_differ_only_in_hidden_cards_are_told_alike(seed: int) -> None:
    """Swap every hand with cards from the stock (same counts): the public description does
    not change, and it names no card of a hand that is not also face up on the table."""
    game = _game_with_melds(seed)
    twin = copy.deepcopy(game)
    pool = [c for hand in twin.hands for c in hand] + list(twin.stock)
    random.Random(seed).shuffle(pool)
    for seat, hand in enumerate(twin.hands):
        twin.hands[seat] = [pool.pop() for _ in hand]
    twin.stock[:] = pool
    assert twin.hands != game.hands
    for locale in ("en", "fr"):
        told = alt_text.describe_table(_scene(game, locale), locale)
        assert told == alt_text.describe_table(_scene(twin, locale), locale)
    face_up = Counter(c.pretty for tm in game.table for c in tm.meld.cards)
    face_up += Counter(f.pretty for tm in game.table for f in tm.meld.stands_for)
    face_up.update(c.pretty for c in game.discard[-1:])
    assert not alt_checks.cards(told) - face_up, told


# -- a huge table ------------------------------------------------------------------------------


def _run(suit: Suit, low: int, high: int) -> list[Card]:
    return [Card(rank, suit) for rank in range(low, high + 1)]


def huge_melds(rules: Rules, layout: str) -> list[TableMeld]:
    """Every card of a pack on the table: 17 short melds, or 10 with two whole-suit runs."""
    if layout == "short":
        groups = [_run(s, low, low + 2) for s in Suit for low in (1, 4, 7, 10)]
        groups.append([Card(13, s) for s in Suit])
    else:
        groups = [_run(Suit.SPADES, 1, 13), _run(Suit.HEARTS, 1, 13)]
        groups += [_run(s, low, low + 2) for s in (Suit.CLUBS, Suit.DIAMONDS) for low in (1, 4, 7)]
        groups += [_run(s, 10, 13) for s in (Suit.CLUBS, Suit.DIAMONDS)]
    return [TableMeld(make_meld(cards, rules), i % 6) for i, cards in enumerate(groups)]


async def huge_table(world: World, layout: str) -> Table:
    """A Basic rummy table of six seats with the longest names Discord allows, the whole pack
    laid down (the game is changed in memory; the texts are pure functions of it)."""
    table = await world.open_table("basic", "basic", 6)
    game = copy.deepcopy(table.require_game())
    game.table[:] = huge_melds(game.rules, layout)
    seats = tuple(replace(s, name=LONG_NAMES[s.seat]) for s in table.seats)
    return replace(table, game=game, seats=seats)


def told_melds(text: str) -> tuple[list[int], int]:
    """The meld numbers a description tells (after its "melds on the table:"), and how many it
    says it left out."""
    melds = text.split(" on the table: ", 1)[-1]
    numbers = [int(n) for n in re.findall(r"(?:^|: |; |, )(\d+)\. ", melds)]
    more = re.search(r"and (\d+) more melds?", melds)
    return numbers, int(more[1]) if more else 0


def assert_told(told: str, scene: TableScene, limit: int) -> None:
    """Within ``limit``, shortened by counts and never mid-word, every meld told by its number
    or counted among those left out, every side's score, no card that is not face up."""
    assert len(told) <= limit, (len(told), told)
    assert told.endswith(".") and "…" not in told, told
    assert all(name in told for name in LONG_NAMES), f"every side's score is told: {told}"
    numbers, left_out = told_melds(told)
    assert len(set(numbers)) == len(numbers) and len(numbers) + left_out == len(scene.melds), told
    face_up = Counter(c.pretty for m in scene.melds for c in m.meld.cards)
    face_up.update(c.pretty for c in [scene.discard_top] if c is not None)
    assert not alt_checks.cards(told) - face_up, told


@pytest.mark.parametrize("layout", ["short", "long runs"])
async def test_a_huge_table_is_told_within_discords_limit(world: World, layout: str) -> None:
    table = await huge_table(world, layout)
    scene = presenter.table_scene(table, presenter.names_for(table), "en")
    full = alt_text.describe_table(scene, "en", limit=100_000)
    assert len(full) > alt_text.ALT_LIMIT or layout == "long runs", "the full text would not fit"
    told = alt_text.describe_table(scene, "en")
    assert_told(told, scene, alt_text.ALT_LIMIT)
    assert all(card in told for m in scene.melds for card in alt_text.meld_cards(m.meld).split())
    french = presenter.table_scene(table, presenter.names_for(table), "fr")
    assert_french(alt_text.describe_table(french, "fr"), "the huge table in French")
    # with less room (longer names, more melds): runs by their ends, then counts, then "more"
    shorter = {limit: alt_text.describe_table(scene, "en", limit) for limit in (800, 700, 600)}
    for limit, text in shorter.items():
        assert_told(text, scene, limit)
    if layout == "long runs":
        assert "A♥ to K♥, 13 cards" in shorter[800], shorter[800]  # the later run first
    assert "more melds" in shorter[600], shorter[600]


async def test_a_huge_tables_text_keeps_its_melds_line_and_its_turn(world: World) -> None:
    """The table message with the whole pack laid stays within Discord's 2,000 characters
    with room for the last move's line, tells every meld, and still ends with whose turn."""
    table = await huge_table(world, "short")
    text = table_draft(table, "en").content
    assert len(text) <= 2000 - presenter.LAST_MOVE_ROOM and "…" not in text, len(text)
    line = next(x for x in text.split("\n") if x.startswith("Melds ("))
    numbers, left_out = told_melds(line.split(": ", 1)[1])
    assert sorted(numbers) == list(range(1, 18)) and not left_out, line
    assert "to play: " in text.split("\n")[-1], "the turn is still told, after the melds"


def test_a_long_hand_and_a_long_round_end_are_shortened_by_counts() -> None:
    """The pieces other pictures use: the last rows lose their cards first, for a count."""
    rows = [[f"row {i}: " + "10♠ " * 20, f"row {i}: 20 cards"] for i in range(6)]
    told = alt_text.choose(rows, 300, lambda n: f"and {n} more")
    assert len(told) <= 300 and told.startswith("row 0: 10♠") and told.endswith("20 cards"), told
    assert alt_text.choose(rows, 60, lambda n: f"and {n} more").endswith("more")
    assert alt_text.shorten("word " * 300, 1024).endswith("word…")


def test_a_huge_round_end_is_told_within_discords_limit() -> None:
    """Six of Discord's longest names, each with a hand left: told whole within 1,024
    characters; with less room, the last rows lose their cards for a count first, then are
    only counted; every player is still named (in the totals) and no card is named that no
    hand held."""
    from bot import render

    pack = [Card(rank, suit) for suit in Suit for rank in range(1, 14)]
    rows = tuple(
        render.PlayerResult(LONG_NAMES[i], i, tuple(pack[i * 8 : i * 8 + 8]), 40 + i)
        for i in range(6)
    )
    totals = tuple(render.SideScore(LONG_NAMES[i], 100 + i, None, i) for i in range(6))
    scene = render.RoundEndScene(
        "Round 3 · Basic rummy 6 players · table #4", rows, totals, (0,) * 6, "gain"
    )
    held = Counter(c.pretty for row in rows for c in row.cards)
    for locale, limit in (("en", 1024), ("fr", 1024), ("en", 700), ("fr", 700), ("en", 500)):
        told = alt_text.describe_round_end(scene, locale, limit)
        assert len(told) <= limit and "…" not in told and told.endswith("."), (len(told), told)
        assert all(name in told for name in LONG_NAMES), told
        assert not alt_checks.cards(told) - held, told
        if limit == 1024:
            assert alt_checks.cards(told) == held, told
    assert "8 cards" in alt_text.describe_round_end(scene, "en", 700)
    assert "more player" in alt_text.describe_round_end(scene, "en", 500)
