"""Every [DEFAULT] of RULES.md is a table option (§8): each alternative changes the game the way
its name says, and bad option values are refused by name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummy_engine import (
    OPTION_SPECS,
    Discard,
    DiscardRefused,
    Draw,
    InvalidMeld,
    Lay,
    OpeningRefused,
    Options,
    Outcome,
    Phase,
    RoundResult,
    Rules,
    RuleViolation,
    Source,
    StartRound,
    UndoTake,
    Variant,
    defaults_for,
    opening_value,
    option_spec,
    parse_face,
    parse_faces,
)
from rummy_engine.rules import AceMode, AceOpeningValue, DiscardTake, DiscardTakeFailure, JokerLimit
from tests.engine.helpers import meld, position

R51 = Rules(Variant.R51, 2)


def lay(seat: int, *melds: str) -> Lay:
    return Lay(seat, tuple(tuple(parse_faces(m)) for m in melds))


def test_ace_mode_wrap_and_low_only() -> None:
    with pytest.raises(InvalidMeld):
        meld("Ks As 2s", R51)
    assert meld("Ks As 2s", R51.with_options(ace_mode=AceMode.WRAP)).is_run
    with pytest.raises(InvalidMeld, match="only low"):
        meld("Qs Ks As", R51.with_options(ace_mode=AceMode.LOW_ONLY))


@pytest.mark.parametrize(
    ("limit", "text", "valid"),
    [
        (JokerLimit.ONE, "5h JK JK 8h", False),
        (JokerLimit.TWO, "5h JK JK 8h", True),
        (JokerLimit.TWO, "5h 6h JK JK JK", False),
        (JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS, "5h 6h 7h JK JK", True),
        (JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS, "5h 6h JK JK", False),
    ],
)
def test_max_jokers_per_meld(limit: JokerLimit, text: str, valid: bool) -> None:
    rules = Rules(Variant.R51, 2).with_options(max_jokers_per_meld=limit)
    if valid:
        assert meld(text, rules).jokers == text.count("JK")
    else:
        with pytest.raises(InvalidMeld):
            meld(text, rules)


@pytest.mark.parametrize(
    "hand", ["Ks Kh Kd Qs Qh Qd 2c 9d", "Ks Kh Kd Qs Qh Qd 2c"], ids=["opening", "at-once"]
)
def test_r51_require_natural_run(hand: str) -> None:
    hands = [hand, "2h 3h"]
    plain = position(R51, hands)
    plain.apply(lay(0, "Ks Kh Kd", "Qs Qh Qd"))
    strict = position(R51.with_options(r51_require_natural_run=True), hands)
    with pytest.raises(OpeningRefused, match="natural run"):
        strict.apply(lay(0, "Ks Kh Kd", "Qs Qh Qd"))


def test_discard_take_free_lets_the_card_stay_in_hand() -> None:
    rules = R51.with_options(discard_take=DiscardTake.FREE)
    game = position(rules, ["3s 9h 10h", "2c 4c"], discard="Qd", phase=Phase.DRAW)
    game.apply(Draw(0, Source.DISCARD))
    game.apply(Discard(0, parse_face("3s")))
    assert any(c.text == "Qd" for c in game.hands[0])


def test_discard_take_failure_penalty_skips_the_turn() -> None:
    rules = R51.with_options(discard_take_failure=DiscardTakeFailure.PENALTY)
    game = position(rules, ["3s 9h 10h", "2c 4c"], discard="Qd", phase=Phase.DRAW)
    stock = len(game.stock)
    game.apply(Draw(0, Source.DISCARD))
    game.apply(UndoTake(0))
    assert game.current == 1 and len(game.hands[0]) == 3 and len(game.stock) == stock
    assert game.discard[-1].text == "Qd"


def test_forbid_take_with_one_card() -> None:
    rules = R51.with_options(forbid_take_with_one_card=True)
    game = position(rules, ["3s", "2c 4c"], discard="Qd", phase=Phase.DRAW, opened=[0])
    with pytest.raises(RuleViolation, match="single card"):
        game.apply(Draw(0, Source.DISCARD))
    position(R51, ["3s", "2c 4c"], discard="Qd", phase=Phase.DRAW, opened=[0]).apply(
        Draw(0, Source.DISCARD)
    )


def test_joker_discard_allowed_off() -> None:
    rules = R51.with_options(joker_discard_allowed=False)
    game = position(rules, ["JK 3s 9h", "2c 4c"])
    with pytest.raises(DiscardRefused, match="may not be discarded"):
        game.apply(Discard(0, parse_face("JK")))


def test_atlas_max_reshuffles_unlimited_and_two() -> None:
    for cap, voids in ((None, False), (2, False), (1, True)):
        rules = R51.with_options(atlas_max_reshuffles=cap)
        game = position(rules, ["2c 3c", "4h 5h"], discard="9s 10s")
        game.hands[0] += game.stock
        game.stock.clear()
        game.reshuffles = 1
        game.apply(Discard(0, parse_face("2c")))
        assert (game.phase is Phase.ROUND_OVER) is voids, cap


def test_basic_max_restocks() -> None:
    rules = Rules(Variant.BASIC, 2).with_options(basic_max_restocks=1)
    game = position(rules, ["2c 3c", "4h 5h"], discard="9s 10s")
    game.hands[1] += game.stock
    game.stock.clear()
    game.reshuffles = 1
    game.apply(Discard(0, parse_face("2c")))
    assert game.results[-1].outcome is Outcome.VOID


def test_basic_rounds_and_two_player_deal_rotation() -> None:
    rules = Rules(Variant.BASIC, 2).with_options(basic_rounds=2)
    game = position(rules, ["9s", "Ac 7d Ks"], laid_any=[0], dealer=1)
    game.apply(Discard(0, parse_face("9s")))
    assert game.phase is Phase.ROUND_OVER
    game.apply(StartRound())
    assert game.dealer == 0, "with two players the winner deals the next hand"
    three = position(Rules(Variant.BASIC, 3), ["9s", "Ac 7d Ks", "2c"], laid_any=[0], dealer=1)
    three.apply(Discard(0, parse_face("9s")))
    three.apply(StartRound())
    assert three.dealer == 2, "with three or more the deal passes on"


def test_ace_opening_value_always_11() -> None:
    rules = R51.with_options(ace_opening_value=AceOpeningValue.ALWAYS_11)
    assert opening_value([meld("As 2s 3s", rules)], rules) == 16
    assert opening_value([meld("As 2s 3s", R51)], R51) == 6


def test_options_from_json_refuse_bad_input() -> None:
    with pytest.raises(RuleViolation, match="no table option 'aces'"):
        Options.from_json({"aces": "low"})
    with pytest.raises(RuleViolation, match="'sometimes' is not a valid value for ace_mode"):
        Options.from_json({"ace_mode": "sometimes"})
    assert Options.from_json(
        {"bar_in_1v1": "off", "atlas_max_reshuffles": "unlimited"}
    ).changed() == {
        "bar_in_1v1": False,
        "atlas_max_reshuffles": None,
    }


def test_void_rounds_rotate_the_deal_and_pay_nothing() -> None:
    game = position(R51, ["2c 3c", "4h 5h"], dealer=0)
    game.phase = Phase.ROUND_OVER
    game.results.append(RoundResult(1, None, Outcome.VOID, ((), ()), (0, 0), (0, 0), (0, 0)))
    game.apply(StartRound())
    assert game.dealer == 1 and game.scores == [0, 0]


def test_every_option_is_described_by_its_type() -> None:
    for spec in OPTION_SPECS:
        # the choices are the type's values: each reads back as itself, the default among them
        for choice in spec.choices:
            assert spec.shown(spec.coerce(choice)) == choice, (spec.key, choice)
        assert spec.shown(spec.default) in spec.choices, spec.key
    assert option_spec("atlas_max_reshuffles").coerce("unlimited") is None
    with pytest.raises(RuleViolation):
        option_spec("basic_rounds").coerce(0)  # its minimum is 1 (its field, rules.number)
    with pytest.raises(RuleViolation):
        option_spec("basic_rounds").coerce("unlimited")  # a limit is required
    assert option_spec("max_turns_per_round").coerce("50") == 50  # never offered, still checked
    # a default may depend on the variant
    spec = replace(option_spec("basic_rounds"), variant_defaults={Variant.BASIC: 5})
    assert (spec.default_for(Variant.BASIC), spec.default_for(Variant.R51)) == (5, 3)
    assert defaults_for(Variant.R51) == Options()


def test_a_game_nobody_won_a_round_of_has_no_winner() -> None:
    """Basic, one round, voided (no winner, nobody pays): every total is 0, and the game is
    played by all and won by none, not a win shared by all (ties are shared between winners of
    rounds; here nobody won anything)."""
    rules = Rules(Variant.BASIC, 2).with_options(basic_rounds=1, max_turns_per_round=1)
    game = position(rules, ["2c 3c 9d", "5h 6h Ks"])
    game.round_turns = 1
    events = game.apply(Discard(0, parse_face("9d")))
    assert game.results[-1].outcome is Outcome.VOID and game.phase is Phase.GAME_OVER
    assert game.winners == []
    assert events[-1].data["winners"] == []


def test_a_tie_of_round_winners_is_still_shared() -> None:
    """Two rounds, each won by another player for the same gain, then a void one: both win."""
    rules = Rules(Variant.BASIC, 2).with_options(basic_rounds=3, max_turns_per_round=1)
    game = position(rules, ["2c 3c 9d", "5h 6h Ks"])
    game.round_no = 3
    game.results += [
        RoundResult(1, 0, Outcome.BASIC, ((), ()), (0, 0), (5, 0), (5, 0)),
        RoundResult(2, 1, Outcome.BASIC, ((), ()), (0, 0), (0, 5), (5, 5)),
    ]
    game.scores = [5, 5]
    game.round_turns = 1
    game.apply(Discard(0, parse_face("9d")))
    assert game.phase is Phase.GAME_OVER and sorted(game.winners) == [0, 1]
