"""No picture cuts what matters: every line of text fits its box, measured with the real font.

The scenes are built the way the bot builds them (:mod:`bot.features.play.scenes`) from real engine
games (dealt, one round played by the computer, or given up), with random display names (up
to Discord's 32 characters, wide letters included), every variant and seat count, both
languages. The property: each line drawn lies inside its box and its box inside the picture;
no two boxes overlap; the title keeps the variant, the table number and the round whole; a
name is shortened only when the whole name does not fit its box; nobody is named to move once
the round is over.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import offline
from bot.features.play import scenes
from bot.render import Renderer
from bot.render.fonts import Fonts
from bot.render.paint import ELLIPSIS, Text
from bot.render.round_end import WIDTH, image_height, round_end_texts
from bot.render.table import table_texts
from bot.text import t
from rummy_engine import Game, Phase, Resign, Rules, Variant, player_view
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action
from rummy_engine.values import basic_value

FONTS = Fonts()
CONFIGS = [
    *((variant, players) for variant in ("r51", "r71", "simple") for players in (2, 4)),
    *(("basic", players) for players in range(2, 7)),
]
PHASES = ("running", "round_over", "game_over")

#: Discord display names: up to 32 characters; wide capitals, accents, Greek and Cyrillic
#: (the shipped font has them), digits and punctuation; no emoji.
NAMES = st.text(
    alphabet=st.one_of(
        st.sampled_from("WMW@"),
        st.characters(max_codepoint=0x52F, categories=("Lu", "Ll", "Nd", "Po", "Zs")),
    ),
    min_size=1,
    max_size=32,
)


def play_round(game: Game, seed: int) -> None:
    """The computer plays every seat until the round is over."""
    rng = random.Random(seed)
    while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        game.apply(choose_action(game, rng, Strength.EASY))


@functools.cache
def game_in(variant: str, players: int, phase: str) -> Game:
    """A real game of the variant in ``phase`` (kept: each is played once per session)."""
    game = Game.new(Rules(Variant(variant), players), f"fit:{variant}:{players}")
    if phase == "round_over":
        play_round(game, players)
    elif phase == "game_over":  # a player gives up: the game ends at once
        game.apply(Resign(game.current))
    return game


def mode_of(variant: str, players: int) -> str:
    return "basic" if variant == "basic" else "2v2" if players == 4 else "1v1"


def inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def overlap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_fits(texts: list[Text], size: tuple[int, int]) -> None:
    """Every line's ink and advance inside its box; every box inside the picture; no two
    boxes overlapping (so no word is drawn over another)."""
    width, height = size
    for item in texts:
        assert inside(item.bbox(FONTS), item.box), f"{item.text!r} spills out of {item.box}"
        assert inside(item.box, (0, 0, width, height)), f"{item.text!r}'s box leaves the picture"
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert not overlap(a.box, b.box), f"{a.text!r} and {b.text!r} overlap"


def assert_shortened_only_without_room(texts: list[Text], names: list[str]) -> None:
    """A name drawn shortened is one that does not fit its box whole."""
    for name in names:
        drawn = [x for x in texts if x.text == name or _shortened(x.text, name)]
        assert drawn, f"{name!r} is not drawn"
        for item in drawn:
            if item.text != name:
                whole = dataclasses.replace(item, text=name)
                assert not inside(whole.bbox(FONTS), item.box), f"{name!r} cut with room left"


def _shortened(text: str, name: str) -> bool:
    return text.endswith(ELLIPSIS) and name.startswith(text[:-1]) and len(text) <= len(name)


def scene_names(draw: st.DrawFn, players: int) -> list[str]:
    return [draw(NAMES) for _ in range(players)]


@st.composite
def tables(draw: st.DrawFn) -> tuple[Game, list[str], str, int, int, str]:
    variant, players = draw(st.sampled_from(CONFIGS))
    phase = draw(st.sampled_from(PHASES))
    locale = draw(st.sampled_from(("en", "fr")))
    names = scene_names(draw, players)
    table_id = draw(st.integers(1, 99_999))
    round_no = draw(st.integers(1, 40))
    return game_in(variant, players, phase), names, locale, table_id, round_no, phase


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_every_text_of_a_table_fits_and_the_round_is_always_shown(
    case: tuple[Game, list[str], str, int, int, str],
) -> None:
    game, names, locale, table_id, round_no, phase = case
    rules = game.rules
    title = scenes.title(
        rules.variant.value,
        mode_of(rules.variant.value, rules.players),
        rules.players,
        table_id,
        locale,
    )
    scene = scenes.table_scene(
        player_view(game, None), title, names, scenes.side_names(rules, names, locale), locale
    )
    scene = dataclasses.replace(scene, round_no=round_no)
    texts, size = table_texts(scene, FONTS)
    assert_fits(texts, size)
    header = f"{title} · {t('render.round', locale, n=round_no)}"
    assert header in [x.text for x in texts], "the title or its round was shortened"
    assert str(table_id) in title and str(round_no) in header
    turn_prefix = t("render.turn", locale, name="")
    badges = [x for x in texts if x.text.startswith(turn_prefix.strip())]
    if phase == "running":
        assert len(badges) == 1 and sum(s.is_turn for s in scene.seats) == 1
    else:
        assert scene.turn_name is None and not badges
        assert not any(s.is_turn for s in scene.seats)
    assert_shortened_only_without_room(texts, names)


@st.composite
def round_ends(draw: st.DrawFn) -> tuple[Game, list[str], str, int]:
    variant, players = draw(st.sampled_from(CONFIGS))
    locale = draw(st.sampled_from(("en", "fr")))
    return (
        game_in(variant, players, "round_over"),
        scene_names(draw, players),
        locale,
        draw(st.integers(1, 99_999)),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_ends())
def test_every_text_of_a_round_end_fits_and_names_get_the_room(
    case: tuple[Game, list[str], str, int],
) -> None:
    game, names, locale, table_id = case
    rules, result = game.rules, game.results[-1]
    title = scenes.title(
        rules.variant.value,
        mode_of(rules.variant.value, rules.players),
        rules.players,
        table_id,
        locale,
    )
    sides = scenes.side_names(rules, names, locale)
    scene = scenes.round_end_scene(rules, result, title, names, sides, locale, note="")
    texts = round_end_texts(scene, FONTS)
    assert_fits(texts, (WIDTH, image_height(scene, FONTS)))
    assert texts[0].text == scene.title and str(result.round_no) in scene.title
    assert_shortened_only_without_room(texts, [*names, *sides])


def test_the_pictures_drawn_have_the_size_their_texts_were_placed_in() -> None:
    """The boxes above are the real picture's: same size as what the renderer draws."""
    renderer = Renderer()
    names = ["W" * 32, "Ada", "Émilie-Анна Ωmega", "Computer 1", "Bob", "Zoë"]
    for variant, players in CONFIGS:
        game = game_in(variant, players, "round_over")
        rules = game.rules
        title = scenes.title(variant, mode_of(variant, players), players, 12, "fr")
        seat_names = names[:players]
        sides = scenes.side_names(rules, seat_names, "fr")
        table = scenes.table_scene(player_view(game, None), title, seat_names, sides, "fr")
        assert renderer.image(table).size == table_texts(table, FONTS)[1]
        end = scenes.round_end_scene(rules, game.results[-1], title, seat_names, sides, "fr")
        assert renderer.image(end).size == (WIDTH, image_height(end, FONTS))


@pytest.mark.parametrize("players", range(2, 7))
def test_a_basic_title_says_how_many_sit(players: int) -> None:
    english = scenes.title("basic", "basic", players, 2, "en")
    french = scenes.title("basic", "basic", players, 2, "fr")
    assert f"{players} players" in english and "2–6" not in english
    assert f"{players} joueurs" in french and "2 à 6" not in french


@pytest.mark.parametrize("players", range(2, 7))
def test_basic_round_end_rows_score_as_basic(players: int) -> None:
    """The winner's row shows what the winner collects (the total's jump); every other row
    what its cards are worth to the winner; the totals' "this round" is each total's gain."""
    game = Game.new(Rules(Variant.BASIC, players), f"basic-rows:{players}")
    play_round(game, players)
    result = game.results[-1]
    assert result.winner is not None
    names = [f"P{s}" for s in range(players)]
    scene = scenes.round_end_scene(game.rules, result, "Basic", names, names, "en")
    winner = scene.players[result.winner]
    assert winner.went_out and winner.points == result.points[result.winner] > 0
    others = [p for s, p in enumerate(scene.players) if s != result.winner]
    worth = [sum(basic_value(c) for c in result.hands[s]) for s in range(players)]
    assert [p.points for p in others] == [w for s, w in enumerate(worth) if s != result.winner]
    assert winner.points in (sum(p.points for p in others), 2 * sum(p.points for p in others))
    assert scene.round_points == result.points and scene.scoring == "gain"
    texts = [x.text for x in round_end_texts(scene, FONTS)]
    assert f"+{winner.points}" in texts and "collected" in texts


@pytest.mark.parametrize("players", (2, 4))
def test_atlas_round_end_rows_show_penalties(players: int) -> None:
    game = Game.new(Rules(Variant.R51, players), f"atlas-rows:{players}")
    play_round(game, players)
    result = game.results[-1]
    names = [f"P{s}" for s in range(players)]
    sides = scenes.side_names(game.rules, names, "fr")
    scene = scenes.round_end_scene(game.rules, result, "Rami 51", names, sides, "fr")
    assert [p.points for p in scene.players] == list(result.penalties)
    assert scene.round_points == result.points and scene.scoring == "penalty"
    texts = [x.text for x in round_end_texts(scene, FONTS)]
    assert texts.count("pénalité") == players
    assert any(x == f"+{max(result.points)}" for x in texts)


def test_the_demo_pictures_show_no_raw_ids() -> None:
    """The demo's captions are sentences: no outcome id, no "1 cards"."""
    rules = Rules(Variant.R51, 2)
    game = Game.new(rules, "demo-words")
    play_round(game, 3)
    names = ["strong 1", "normal 2"]
    end = offline._round_end_scene(game, names)
    words = [x.text for x in round_end_texts(end, FONTS)]
    outcome = game.results[-1].outcome.value
    assert not any(w == outcome or w.endswith(f": {outcome}") for w in words), words
    assert end.title == t("round.image_title", round=1, title=offline._demo_title(rules))
    winner = game.results[-1].winner
    assert winner is not None
    assert end.note == t(f"round.won.{outcome}", player=names[winner], round=1)
    # a one-card hand reads "1 card"
    for seat in range(2):
        hand = offline._hand_scene(game, seat, names[seat])
        count = len(player_view(game, seat).hand)
        assert hand.title == t("demo.hand_title", name=names[seat], count=count)
    one = t("demo.hand_title", name="Ada", count=1)
    assert one.endswith("1 card") and t("demo.hand_title", "fr", name="Ada", count=1).endswith(
        "1 carte"
    )
