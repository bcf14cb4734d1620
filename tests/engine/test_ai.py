"""The computer players, hints and the score calculator (issue 12).

Whole games are played through ``Game.apply``, which raises on any illegal action, so "never an
illegal move" is checked on every action; the hidden-card test plays the same decision on twin
games that differ only in what the seat cannot see.
"""

from __future__ import annotations

import random

import pytest

from rummy_engine import (
    CardNotAvailable,
    Discard,
    Draw,
    Game,
    InvalidMeld,
    Lay,
    NotationError,
    Outcome,
    Phase,
    Rules,
    Source,
    StartRound,
    Swap,
    Variant,
    player_view,
)
from rummy_engine.ai import Strength, count, decide, hint
from rummy_engine.rules import AceOpeningValue
from rummy_engine.strategy import choose_action
from tests.engine.helpers import position

R51 = Rules(Variant.R51, 2)
R71 = Rules(Variant.R71, 2)
TABLES = [Rules(v, n) for v in Variant for n in (2, 4)]
STRENGTHS = list(Strength)


def _play_rounds(game: Game, rng: random.Random, strengths: list[Strength], rounds: int) -> None:
    """Play until ``rounds`` rounds are over; every action must pass the rules."""
    while game.phase is not Phase.GAME_OVER and len(game.results) < rounds:
        if game.phase is Phase.ROUND_OVER:
            game.apply(StartRound())
            continue
        strength = strengths[game.current % len(strengths)]
        game.apply(choose_action(game, rng, strength))
        # No round of computers needs the engine's turn cap to end.
        assert game.round_turns < game.rules.options.max_turns_per_round


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.variant.value}-{r.players}")
def test_every_strength_plays_legally_and_every_round_ends_by_itself(rules: Rules) -> None:
    for k in range(3):
        strengths = STRENGTHS[k:] + STRENGTHS[:k]
        game = Game.new(rules, f"ai-{k}")
        _play_rounds(game, random.Random(k), strengths, rounds=2)
        assert len(game.results) >= 1


def test_the_simple_seed_that_stalled_now_ends_without_the_cap() -> None:
    game = Game.new(Rules(Variant.SIMPLE, 2), "simple2-41")
    _play_rounds(game, random.Random(41), [Strength.NORMAL], rounds=3)
    assert len(game.results) == 3 or game.phase is Phase.GAME_OVER
    assert all(r.winner is not None for r in game.results)


def test_the_engine_ends_a_round_that_reaches_the_turn_cap() -> None:
    rules = Rules(Variant.SIMPLE, 2).with_options(max_turns_per_round=6)
    game = Game.new(rules, 1)
    for _ in range(12):
        if game.phase is not Phase.PLAY and game.phase is not Phase.DRAW:
            break
        seat = game.current
        if game.phase is Phase.DRAW:
            game.apply(Draw(seat, Source.STOCK))
        game.apply(Discard(seat, game.hands[seat][0].face))
    assert game.phase is Phase.ROUND_OVER
    assert game.results[-1].outcome is Outcome.VOID
    assert game.round_turns == 7


def _twin_with_other_hidden_cards(game: Game, rng: random.Random) -> Game:
    """The same position, except the cards ``game.current`` cannot see are dealt anew."""
    twin = Game.from_json(game.to_json())
    seat = twin.current
    others = [s for s in range(twin.rules.players) if s != seat]
    hidden = [c for s in others for c in twin.hands[s]] + twin.stock
    rng.shuffle(hidden)
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s], hidden = hidden[:size], hidden[size:]
    twin.stock = hidden
    return twin


@pytest.mark.parametrize("strength", STRENGTHS, ids=lambda s: s.value)
def test_a_decision_never_depends_on_hidden_cards(strength: Strength) -> None:
    checked = differ = 0
    for rules in (R51, Rules(Variant.R71, 4), Rules(Variant.SIMPLE, 2), Rules(Variant.BASIC, 3)):
        game = Game.new(rules, f"hidden-{strength.value}")
        rng = random.Random(5)
        for _ in range(70):
            if game.phase not in (Phase.DRAW, Phase.PLAY):
                break
            twin = _twin_with_other_hidden_cards(game, random.Random(checked))
            differ += twin.hands != game.hands or twin.stock != game.stock
            mine = decide(player_view(game, game.current), rules, random.Random(checked), strength)
            theirs = decide(player_view(twin, twin.current), rules, random.Random(checked), strength)
            assert mine == theirs
            checked += 1
            game.apply(choose_action(game, rng, strength))
    assert checked > 150 and differ > checked // 2, (checked, differ)


def test_strong_lays_the_natural_run_and_keeps_the_joker() -> None:
    game = position(R51, ["3h 5h 6h 7h JK 9c Kd", "2s 3s 4s 9d 10d Jd Kc"], opened=[0, 1])
    action = decide(player_view(game, 0), R51, random.Random(1), Strength.STRONG)
    assert isinstance(action, Lay)
    assert [f.text for f in action.melds[0]] == ["5h", "6h", "7h"]


def test_strong_frees_a_table_joker() -> None:
    game = position(
        R51, ["7d 2s 9c Kh", "2c 3c 4c 9d 10h"], table=[("6d JK 8d", 1)], opened=[0, 1]
    )
    action = decide(player_view(game, 0), R51, random.Random(1), Strength.STRONG)
    assert isinstance(action, Swap) and (action.meld, action.card.text) == (0, "7d")


def test_strong_never_feeds_the_next_players_lay_off() -> None:
    hands = ["9c 2d 3s 5h 7d", "2h 3h 5s 9d 10h Kd"]
    game = position(R51, hands, table=[("6c 7c 8c", 1)], opened=[1])
    action = decide(player_view(game, 0), R51, random.Random(1), Strength.STRONG)
    assert isinstance(action, Discard) and action.card.text != "9c"
    game.opened[1] = False  # an unopened next player cannot lay it off: the 9 may go
    action = decide(player_view(game, 0), R51, random.Random(1), Strength.STRONG)
    assert isinstance(action, Discard) and action.card.text == "9c"


def test_strong_dumps_its_joker_when_an_opponent_is_about_to_go_out() -> None:
    table = [("6c 7c 8c", 1), ("2h 3h 4h", 1)]
    calm = position(R51, ["JK 2d 9s Kh Qd", "5s 9d 10h 3d 4s Kc Kd 2c"], table=table, opened=[0, 1])
    close = position(R51, ["JK 2d 9s Kh Qd", "5s 9d"], table=table, opened=[0, 1])
    calm_action = decide(player_view(calm, 0), R51, random.Random(1), Strength.STRONG)
    close_action = decide(player_view(close, 0), R51, random.Random(1), Strength.STRONG)
    assert not (isinstance(calm_action, Lay) and calm_action.layoffs)
    assert isinstance(close_action, Lay) and close_action.layoffs[0][1][0].text == "JK"


def test_strong_holds_its_basic_melds_for_a_rummy_until_an_opponent_is_close() -> None:
    """Basic rummy: strong keeps a made meld (and a lay-off) in hand while the opponent holds
    many cards, lays them once the opponent is down to 3; normal lays at once."""
    basic = Rules(Variant.BASIC, 2)
    table = [("2c 3c 4c", 1)]
    calm = position(basic, ["7h 8h 9h 5c Kd Qs", "2s 4d 6d 8s 10s Jd Kc 9c"], table=table)
    close = position(basic, ["7h 8h 9h 5c Kd Qs", "2s 4d 6d"], table=table)
    held = decide(player_view(calm, 0), basic, random.Random(1), Strength.STRONG)
    assert isinstance(held, Discard) and held.card.text not in ("7h", "8h", "9h", "5c")
    for game, strength in ((close, Strength.STRONG), (calm, Strength.NORMAL)):
        laid = decide(player_view(game, 0), basic, random.Random(1), strength)
        assert isinstance(laid, Lay), (strength, laid)


def test_a_computer_never_takes_back_its_own_discard() -> None:
    rules = Rules(Variant.SIMPLE, 2)
    hands = ["7h 8h 2s 2d 4c 9c Jd Qs Kd 5s 6d 3c 10s", "2c 3d 4d 5c 6c 8c 10c Jc Qc Kc Ac 2h 3h"]
    game = position(rules, hands, discard="9h", phase=Phase.DRAW)
    assert decide(player_view(game, 0), rules, random.Random(1), Strength.NORMAL) == Draw(
        0, Source.DISCARD
    )
    game.pile_moves.append((0, False, game.discard[-1]))
    for strength in Strength:
        assert decide(player_view(game, 0), rules, random.Random(1), strength) == Draw(0)


def _positions(rules: Rules, seed: str, moves: int) -> list[Game]:
    """Snapshots of a computer game at every turn of its first round."""
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    out = []
    while game.phase in (Phase.DRAW, Phase.PLAY) and len(out) < moves:
        out.append(Game.from_json(game.to_json()))
        game.apply(choose_action(game, rng, Strength.STRONG))
    return out


@pytest.mark.parametrize("rules", [R51, R71, Rules(Variant.SIMPLE, 4), Rules(Variant.BASIC, 2)])
def test_hints_name_real_cards_and_legal_moves(rules: Rules) -> None:
    seen_layoff = seen_opening = 0
    for game in _positions(rules, f"hint-{rules.variant.value}", 160):
        seat = game.current
        hand = game.hands[seat]
        advice = hint(player_view(game, seat), rules)
        named = [c for m in advice.lay for c in m.cards] + [c for c, _ in advice.layoffs]
        named += [c for c, _ in advice.swaps] + ([advice.discard] if advice.discard else [])
        if advice.opening:
            named += [c for m in advice.opening.melds for c in m.cards]
        assert all(c in hand for c in named)
        if game.phase is Phase.DRAW:
            assert advice.take_discard is not None and advice.go_out is None
            continue
        if advice.discard is not None:
            assert game.can(Discard(seat, advice.discard.face))
        if advice.opening and advice.opening.enough:
            lay = Lay(seat, tuple(tuple(c.face for c in m.cards) for m in advice.opening.melds))
            seen_opening += game.can(lay)
        for card, target in advice.swaps:
            assert not game.opened[seat] or game.can(Swap(seat, target, card.face))
        if (game.opened[seat] or not rules.has_opening) and len(hand) > 2:
            for card, target in advice.layoffs:
                assert game.can(Lay(seat, (), ((target, (card.face,)),)))
                seen_layoff += 1
    if rules.has_opening:
        assert seen_opening + seen_layoff > 0


def test_a_hint_refuses_a_seat_that_is_not_playing() -> None:
    game = Game.new(R51, 3)
    with pytest.raises(ValueError):
        hint(player_view(game, (game.current + 1) % 2), R51)


# RULES.md §9.2 (opening values) and §9.6 (penalties), copied here.
OPENINGS = [
    ("O01", R51, "10s Js Qs Ks | 5h 5d 5c", 55, True),
    ("O02", R51, "Ac 2c 3c | Ks Kh Kd | 9d 10d Jd", 65, True),
    ("O03", R51, "Qh Kh Ah | 7s 7h 7c", 52, True),
    ("O04", R51, "8d JK 10d | Qs Qh Qc", 57, True),
    ("O05", R51, "4s 5s 6s | 7d 7h 7c", 36, False),
    ("O06", R71, "8s 9s 10s | 9s 9h 9d | Jc Qc Kc", 84, True),
    ("O07", R71, "8s 9s 10s | Ks Kh Kd | 5c JK 7c", 69, False),
    ("O07-R51", R51, "8s 9s 10s | Ks Kh Kd | 5c JK 7c", 75, True),
    ("O08", R71, "Jd Qd Kd Ad | 10s 10h 10c", 71, True),
    ("O11", R71, "8s 9s 10s | 9s 9h 9d | Jc Qc Kc | 2c JK 4c", 90, True),
]


@pytest.mark.parametrize("vector", OPENINGS, ids=lambda v: v[0])
def test_count_matches_the_opening_vectors(vector: tuple[str, Rules, str, int, bool]) -> None:
    _, rules, text, value, opens = vector
    result = count(text, rules)
    assert result.opening_value == value
    assert result.opens is opens


def test_count_ace_always_1_option_changes_o03() -> None:
    rules = R51.with_options(ace_opening_value=AceOpeningValue.ALWAYS_1)
    assert count("Qh Kh Ah | 7s 7h 7c", rules).opening_value == 42


@pytest.mark.parametrize(
    ("rules", "text", "penalty", "never_laid"),
    [
        (R51, "As JK", 31, 100),  # G03 / G04
        (R51, "Kd 4s", 14, 100),  # G01's X
        (Rules(Variant.SIMPLE, 2), "As JK", 100, 100),  # G02: flat 100
        (Rules(Variant.BASIC, 3), "Ac | 7d Ks", 18, 18),  # G15
    ],
)
def test_count_matches_the_penalty_vectors(
    rules: Rules, text: str, penalty: int, never_laid: int
) -> None:
    result = count(text, rules)
    assert (result.penalty, result.never_laid) == (penalty, never_laid)
    assert result.melds == () and len(result.loose) == len(text.replace("|", " ").split())


def test_count_refuses_like_laying() -> None:
    with pytest.raises(InvalidMeld):
        count("4h 5d 6h", R51)  # M02
    with pytest.raises(InvalidMeld):
        count("5h JK JK", R51)  # M12
    with pytest.raises(NotationError):
        count("7x 8h 9h", R51)
    with pytest.raises(CardNotAvailable):
        count("7h 8h 9h | 7h 7s 7d | 7h 7c 7s", R51)
