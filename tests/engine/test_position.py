"""Position: a round in play written in notation, checked, built into a Game that plays on; and
the game snapshot's card conservation check."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rummy_engine import (
    Discard,
    Draw,
    Game,
    InvalidPosition,
    Phase,
    Position,
    Rules,
    Source,
    Variant,
    format_cards,
    parse_face,
)
from rummy_engine.replay import replay
from rummy_engine.strategy import choose_action
from tests.engine.helpers import conserved

R51 = Rules(Variant.R51, 2)
R71_2V2 = Rules(Variant.R71, 4)

# Seat 0 to draw; seat 1 opened with two melds and holds 8 cards.
MID_ROUND = Position(
    R51,
    hands=("2s 3s 9s Jd Qd 4c 5c 7h 9h Kh 10c 2d 6d 8c", "3d 5d 7d 9d Jh Qh 3h 4h"),
    table=(("10s Js Qs Ks", 1), ("5h 5s 5c", 1)),
    discard="8d 4s",
    current=0,
    opened=(1,),
    bar=56,
    bar_side=1,
    scores=(120, 35),
)


def test_mid_round_position_plays_on() -> None:
    game = MID_ROUND.to_game()
    assert conserved(game)
    assert format_cards(game.table[0].meld.cards) == "10♠ J♠ Q♠ K♠"
    assert len(game.stock) == 108 - 14 - 8 - 7 - 2
    assert game.threshold_for(0) == 56 and game.flags(0).opened is False
    game.apply(Draw(0, Source.DISCARD))
    assert game.taken is not None and game.taken.face == parse_face("4s")
    assert game.phase is Phase.PLAY


def test_round_trip_through_json() -> None:
    data = json.loads(json.dumps(MID_ROUND.to_json()))
    assert data["schema"] == 1
    assert Position.from_json(data) == MID_ROUND
    game = MID_ROUND.to_game()
    assert Position.of(game) == Position.of(Position.of(game).to_game())
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert Position.of(again) == Position.of(game)
    assert replay(game.genesis(), []).to_json() == game.to_json()


def test_stock_given_card_by_card_is_drawn_in_that_order() -> None:
    first = Position.of(MID_ROUND.to_game())
    assert isinstance(first.stock, str)
    top = first.stock.split()[0]
    game = first.to_game()
    game.apply(Draw(0, Source.STOCK))
    assert game.drawn is not None and game.drawn.text == top


def missing(position: Position) -> Position:
    """The same position with the stock spelt out and its top card dropped."""
    spelt = Position.of(position.to_game())
    assert isinstance(spelt.stock, str)
    return Position.from_json({**spelt.to_json(), "stock": spelt.stock.split(" ", 1)[1]})


def test_a_missing_card_is_named() -> None:
    spelt = Position.of(MID_ROUND.to_game())
    assert isinstance(spelt.stock, str)
    top = parse_face(spelt.stock.split()[0])
    with pytest.raises(InvalidPosition) as refused:
        missing(MID_ROUND).to_game()
    assert refused.value.code == "position.missing_cards"
    assert refused.value.params["count"] == 1 and top.text in refused.value.params["cards"]


def test_a_card_named_too_often_is_refused_with_its_places() -> None:
    third = Position(
        R51,
        hands=(
            "7h 7h 2s 3s 9s Jd Qd 4c 5c 9h Kh 10c 2d 6d 8c",
            "7h 5d 7d 9d Jh Qh 3h 4h 3d 6h 8h Ad Ac 9c",
        ),
        phase=Phase.PLAY,
    )
    with pytest.raises(InvalidPosition) as refused:
        third.to_game()
    assert refused.value.code == "position.too_many_copies"
    assert str(refused.value) == (
        "7♥ is named 3 times (seat 0's hand, seat 0's hand, seat 1's hand), but the deck has 2 of it."
    )


def test_a_duplicated_card_in_a_snapshot_is_refused() -> None:
    data = MID_ROUND.to_game().to_json()
    data["stock"][0] = data["hands"][0][0]
    with pytest.raises(InvalidPosition) as refused:
        Game.from_json(data)
    assert refused.value.code == "position.card_twice"
    assert "seat 0's hand" in str(refused.value) and "the stock" in str(refused.value)


def test_a_snapshot_with_a_card_gone_is_refused() -> None:
    data = MID_ROUND.to_game().to_json()
    gone = data["stock"].pop()
    with pytest.raises(InvalidPosition, match=re.escape(gone)):
        Game.from_json(data)


def test_a_card_of_another_deck_is_refused() -> None:
    three_jokers = Position(Rules(Variant.R71, 2), hands=("JK JK JK", ""))
    with pytest.raises(InvalidPosition) as refused:
        three_jokers.to_game()
    assert refused.value.code == "position.too_many_copies"
    basic = Position(Rules(Variant.BASIC, 2), hands=("JK 2s", "3s"))
    with pytest.raises(InvalidPosition) as refused:
        basic.to_game()
    assert refused.value.code == "position.foreign_card"


def edited(**changes: Any) -> Position:
    data = copy.deepcopy(MID_ROUND.to_json())
    data.update(changes)
    return Position.from_json(data)


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"hands": MID_ROUND.hands[:1]}, "position.hand_count"),
        ({"current": 2}, "position.no_such_seat"),
        ({"phase": "round_over"}, "position.phase"),
        ({"stock": 3}, "position.stock_count"),
        ({"hands": ["2s 3s 9s", MID_ROUND.hands[1]]}, "position.hand_size_unlaid"),
        ({"opened": [0, 1], "hands": [MID_ROUND.hands[0], ""]}, "position.hand_size_laid"),
        ({"table": [{"cards": "Qh Kh Ah JK", "owner": 1}]}, "position.table_melds"),
        ({"opened": []}, "position.owner_not_opened"),
        ({"taken": "4s"}, "position.turn_card_in_draw"),
        ({"laid_at_turn_start": True}, "position.laid_at_start_unlaid"),
        ({"bar": 40}, "position.bar_low"),
        ({"bar_side": 0}, "position.bar_unopened"),
        ({"bar_side": None}, "position.bar_half"),
        ({"scores": [251, 0]}, "position.score_over_limit"),
        ({"scores": [1, 2, 3]}, "position.score_count"),
        ({"turn": 0}, "position.round_or_turn"),
        ({"schema": 2}, "position.schema"),
    ],
)
def test_contradictions_are_named(changes: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidPosition) as refused:
        edited(**changes).to_game()
    assert refused.value.code == code
    assert "{" not in str(refused.value)  # a whole sentence, every parameter filled in


def test_table_meld_refusal_quotes_the_meld_rule() -> None:
    with pytest.raises(InvalidPosition) as refused:
        edited(table=[{"cards": "Qh Kh Ah JK", "owner": 1}]).to_game()
    assert str(refused.value) == (
        "Table meld 1 (Q♥ K♥ A♥ JK): As written the joker would follow A♥: a run cannot wrap. "
        "Did you mean JK Q♥ K♥ A♥?"
    )


def test_freed_follows_the_partner_even_once_opened() -> None:
    game = Position(
        R71_2V2,
        hands=(
            "2s 3s",
            "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah 2d",
            "4s 5s",
            "3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad 2c 3c",
        ),
        table=(("8c 9c 10c", 0), ("Jc Qc Kc", 2), ("9s 9h 9d", 0)),
        opened=(0, 2),
        current=1,
    ).to_game()
    assert game.flags(0) == (True, True, True) and game.is_freed(2)
    assert game.flags(1) == (False, False, False)


TABLES = [(Variant.R51, 2), (Variant.R71, 4), (Variant.SIMPLE, 2), (Variant.BASIC, 3)]


def faces_only(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot with the copy numbers of cards dropped (a position names faces only) and the
    parts a position does not carry (how the game began, past rounds) left out. Hands are
    sorted: which of two equal copies leaves a hand moves the others, and a hand's order is
    not something the rules see."""
    text = re.sub(r'"(JK|[0-9AJQK]+[shcd?])\.\d+"', r'"\1"', json.dumps(snapshot))
    data = json.loads(text)
    for key in ("genesis", "results", "winners"):
        data.pop(key)
    data["hands"] = [sorted(hand) for hand in data["hands"]]
    return dict(data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32), st.integers(0, 400))
# The K♦ taken from the pile was laid and its twin stays in hand: discarding the twin is legal.
@example(table=(Variant.R51, 2), seed=3008, moves=274)
def test_position_of_any_legal_game_equals_that_game(
    table: tuple[Variant, int], seed: int, moves: int
) -> None:
    variant, players = table
    game = Game.new(Rules(variant, players), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(choose_action(game, rng))
    if game.phase not in (Phase.DRAW, Phase.PLAY):
        return
    snapshot = Game.from_json(json.loads(json.dumps(game.to_json())))
    position = Position.from_json(json.loads(json.dumps(Position.of(snapshot).to_json())))
    built = position.to_game()
    assert Position.of(built) == Position.of(game)  # hands in their order, stock card by card
    assert faces_only(built.to_json()) == faces_only(game.to_json())
    assert conserved(built)
    # ...and both play on alike: the same next action is legal and leads to the same state.
    action = choose_action(game, random.Random(seed))
    game.apply(action)
    built.apply(action)
    assert faces_only(built.to_json()) == faces_only(game.to_json())


def test_a_built_game_passes_the_turn() -> None:
    game = MID_ROUND.to_game()
    game.apply(Draw(0, Source.STOCK))
    card = game.hands[0][0]
    game.apply(Discard(0, card.face))
    assert game.current == 1 and game.phase is Phase.DRAW
