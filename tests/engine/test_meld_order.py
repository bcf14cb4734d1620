"""RULES.md §1.5: the order a player submits is the meld — kept as given, refused with the reason
and the legal orders when it is no meld as written; arrangements() offers those orders."""

from __future__ import annotations

import pytest

from rummy_engine import (
    InvalidMeld,
    Lay,
    Phase,
    Position,
    Rules,
    Variant,
    arrangements,
    format_cards,
    make_meld,
    parse_faces,
)
from tests.engine.helpers import cards

R51 = Rules(Variant.R51, 2)
BASIC = Rules(Variant.BASIC, 3)
R51_TWO = R51.with_options(max_jokers_per_meld="2")


def shown(text: str, rules: Rules = R51) -> tuple[str, str]:
    """The meld's cards and what they stand for, as printed."""
    meld = make_meld(cards(text), rules)
    return format_cards(meld.cards), format_cards(meld.stands_for)


@pytest.mark.parametrize(
    ("text", "table", "stands_for"),
    [
        ("JK 6h 7h", "JK 6♥ 7♥", "5♥ 6♥ 7♥"),
        ("5h 6h JK", "5♥ 6♥ JK", "5♥ 6♥ 7♥"),
        ("6d JK 8d", "6♦ JK 8♦", "6♦ 7♦ 8♦"),
        ("JK Qh Kh Ah", "JK Q♥ K♥ A♥", "J♥ Q♥ K♥ A♥"),
        ("Qh Kh JK", "Q♥ K♥ JK", "Q♥ K♥ A♥"),
        ("JK Qh Kh", "JK Q♥ K♥", "J♥ Q♥ K♥"),
        ("JK 2h 3h", "JK 2♥ 3♥", "A♥ 2♥ 3♥"),
        ("6c 6s JK 6d", "6♣ 6♠ JK 6♦", "6♣ 6♠ 6♥ 6♦"),
    ],
)
def test_submitted_order_is_kept(text: str, table: str, stands_for: str) -> None:
    assert shown(text) == (table, stands_for)


@pytest.mark.parametrize(
    ("text", "code", "sentence"),
    [
        (
            "Qh Kh Ah JK",
            "meld.run_joker_above",
            "As written the joker would follow A♥: a run cannot wrap. Did you mean JK Q♥ K♥ A♥?",
        ),
        (
            "JK Ah 2h",
            "meld.run_joker_below",
            "As written the joker would come before A♥: a run cannot wrap. Did you mean A♥ 2♥ JK?",
        ),
        (
            "JK 5h 7h",
            "meld.run_order_next",
            "As written, 7♥ cannot follow 5♥: each card of a run is one rank above the card "
            "before it. Did you mean 5♥ JK 7♥?",
        ),
        (
            "7h 5h 6h",
            "meld.run_order_next",
            "As written, 5♥ cannot follow 7♥: each card of a run is one rank above the card "
            "before it. Did you mean 5♥ 6♥ 7♥?",
        ),
        (
            "5h JK 8h",
            "meld.run_order_gap",
            "As written, 8♥ comes 2 places after 5♥, which its rank does not: each card of a "
            "run is one rank above the card before it, a joker taking one card's place.",
        ),
        (
            "Kh Ah 2h",
            "meld.run_no_wrap",
            "K♥ A♥ 2♥ is not a run: the Ace is low (A-2-3) or high (Q-K-A), never both.",
        ),
    ],
)
def test_refusal_says_why_and_suggests(text: str, code: str, sentence: str) -> None:
    with pytest.raises(InvalidMeld) as refused:
        make_meld(cards(text), R51)
    assert refused.value.code == code
    assert str(refused.value) == sentence


def test_several_legal_orders_are_all_suggested() -> None:
    with pytest.raises(InvalidMeld) as refused:
        make_meld(cards("Kh JK Qh"), R51)
    assert refused.value.params["did_you_mean"] == "Q♥ K♥ JK or JK Q♥ K♥"


def test_ace_only_low_table_refuses_a_joker_after_the_king() -> None:
    low_only = R51.with_options(ace_mode="low_only")
    with pytest.raises(InvalidMeld) as refused:
        make_meld(cards("Jh Qh Kh JK"), low_only)
    assert refused.value.code == "meld.run_joker_above_king"
    assert refused.value.params["did_you_mean"] == "JK J♥ Q♥ K♥"


@pytest.mark.parametrize(
    ("text", "rules", "orders"),
    [
        ("7h 5h 6h", R51, ["5♥ 6♥ 7♥"]),
        ("Kh Qh JK", R51, ["Q♥ K♥ JK", "JK Q♥ K♥"]),  # the joker low or high: ask
        ("Ah Kh JK", R51, ["JK K♥ A♥"]),  # Q♥ between, nothing else
        ("JK 7h 5h", R51, ["5♥ JK 7♥"]),
        ("2h JK Ah", R51, ["A♥ 2♥ JK"]),  # below the low Ace there is nothing
        ("9s 9h JK", R51, ["9♠ 9♥ JK"]),  # a set: order changes nothing
        ("5h 6h JK JK", R51_TWO, ["5♥ 6♥ JK JK", "JK 5♥ 6♥ JK", "JK JK 5♥ 6♥"]),
        ("Kh Ah 2h", R51, []),
        ("5h 6d 7h", R51, []),
        ("Qh Kh Ah", BASIC, []),
    ],
)
def test_arrangements_of_a_selection(text: str, rules: Rules, orders: list[str]) -> None:
    found = arrangements(cards(text), rules)
    assert [format_cards(m.cards) for m in found] == orders
    for meld in found:  # each one is a meld as written
        assert make_meld(meld.cards, rules) == meld


def test_game_lays_the_meld_in_the_order_given_and_refuses_another() -> None:
    position = Position(
        R51,
        hands=(
            "Qh Kh Ah JK 10s Js Qs Ks 2c 4d 6d 8c 9c 3s 10h",
            "2s 4s 5s 6s 7s 8s 9s 2h 3h 4h 5h 6h 7h 8h",
        ),
        phase=Phase.PLAY,
        current=0,
    )
    game = position.to_game()
    wrapped = Lay(0, (tuple(parse_faces("Qh Kh Ah JK")), tuple(parse_faces("10s Js Qs Ks"))))
    with pytest.raises(InvalidMeld, match="Did you mean JK Q♥ K♥ A♥"):
        game.apply(wrapped)
    events = game.apply(
        Lay(0, (tuple(parse_faces("JK Qh Kh Ah")), tuple(parse_faces("10s Js Qs Ks"))))
    )
    laid = game.table[0].meld
    assert format_cards(laid.cards) == "JK Q♥ K♥ A♥"
    assert format_cards(laid.stands_for) == "J♥ Q♥ K♥ A♥"
    assert events[0].data["melds"][0] == ["JK", "Qh", "Kh", "Ah"]
    assert events[0].data["opening_value"] == 41 + 40 and events[0].data["opened"] is True
