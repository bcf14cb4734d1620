"""RULES.md §9.1 (meld validity) and §9.2 (opening values), one test per vector."""

from __future__ import annotations

import pytest

from rummy_engine import InvalidMeld, OpeningRefused, Rules, Variant, extend_meld, opening_value
from rummy_engine.opening import LayContext, check_first_laydown
from rummy_engine.rules import AceOpeningValue, R71JokerInOpening
from tests.engine.helpers import cards, meld

R51 = Rules(Variant.R51, 2)
R71 = Rules(Variant.R71, 2)
BASIC = Rules(Variant.BASIC, 3)
ATLAS = (Rules(Variant.SIMPLE, 2), R51, R71)


def stands_for(text: str, rules: Rules) -> str:
    return " ".join(f.text for f in meld(text, rules).stands_for)


@pytest.mark.parametrize(
    ("vector", "text", "rules_list", "valid", "kind"),
    [
        ("M01", "5c 6c 7c", (*ATLAS, BASIC), True, "run"),
        ("M02", "4h 5d 6h", (*ATLAS, BASIC), False, None),
        ("M03", "Ks As 2s", (*ATLAS, BASIC), False, None),
        ("M04", "Qh Kh Ah", ATLAS, True, "run"),
        ("M05", "Qh Kh Ah", (BASIC,), False, None),
        ("M06", "Ad 2d 3d", (*ATLAS, BASIC), True, "run"),
        ("M07", "Js Jh Jd", ATLAS, True, "set"),
        ("M08", "9s 9s 9h", ATLAS, False, None),
        ("M09", "8s 8h 8d 8c", ATLAS, True, "set"),
        ("M10", "6d JK 8d", ATLAS, True, "run"),
        ("M11", "6s 6h 6d JK", ATLAS, True, "set"),
        ("M12", "5h JK JK", ATLAS, False, None),
        ("M13", "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah", ATLAS, False, None),
        ("M15", "Jh Qh Kh JK", ATLAS, True, "run"),
    ],
    ids=lambda v: v if isinstance(v, str) and v[:1] == "M" and v[1:].isdigit() else "",
)
def test_meld_validity(
    vector: str, text: str, rules_list: tuple[Rules, ...], valid: bool, kind: str | None
) -> None:
    for rules in rules_list:
        if valid:
            assert meld(text, rules).kind.value == kind, (vector, rules.variant)
        else:
            with pytest.raises(InvalidMeld):
                meld(text, rules)


def test_M09_fifth_eight_is_refused() -> None:
    four = meld("8s 8h 8d 8c", R51)
    for extra in ("8s", "8h", "8d", "8c"):
        with pytest.raises(InvalidMeld, match="already has four cards"):
            extend_meld(four, cards(extra), R51)


def test_M10_M11_M15_joker_identity() -> None:
    assert stands_for("6d JK 8d", R51) == "6d 7d 8d"
    assert stands_for("6s 6h 6d JK", R51) == "6s 6h 6d 6c"
    assert stands_for("Jh Qh Kh JK", R51) == "Jh Qh Kh Ah"
    assert stands_for("JK 6h 7h", R51) == "5h 6h 7h"
    assert stands_for("5h 6h JK", R51) == "5h 6h 7h"


def test_M14_two_copies_of_nine_in_run_and_set() -> None:
    pool = cards("8s 9s 10s 9s 9h 9d")
    run, the_set = pool[:3], pool[3:]
    assert run[1] != the_set[0] and run[1].face == the_set[0].face
    from rummy_engine import make_meld

    assert make_meld(run, R51).is_run and make_meld(the_set, R51).is_set


def test_refusals_name_the_problem() -> None:
    with pytest.raises(InvalidMeld, match="5♦ is not ♥"):
        meld("4h 5d 6h", R51)
    with pytest.raises(InvalidMeld, match="never both"):
        meld("Ks As 2s", R51)
    with pytest.raises(InvalidMeld, match="9♠ is there twice"):
        meld("9s 9s 9h", R51)


def _value(texts: list[str], rules: Rules) -> int:
    return opening_value([meld(t, rules) for t in texts], rules)


def _opening(texts: list[str], rules: Rules, threshold: int) -> int:
    ctx = LayContext(rules, opened=False, freed=False, threshold=threshold)
    return check_first_laydown([meld(t, rules) for t in texts], False, ctx)


@pytest.mark.parametrize(
    ("vector", "variant", "texts", "value", "valid"),
    [
        ("O01", Variant.R51, ["10s Js Qs Ks", "5h 5d 5c"], 55, True),
        ("O02", Variant.R51, ["Ac 2c 3c", "Ks Kh Kd", "9d 10d Jd"], 65, True),
        ("O03", Variant.R51, ["Qh Kh Ah", "7s 7h 7c"], 52, True),
        ("O04", Variant.R51, ["8d JK 10d", "Qs Qh Qc"], 57, True),
        ("O05", Variant.R51, ["4s 5s 6s", "7d 7h 7c"], 36, False),
        ("O06", Variant.R71, ["8s 9s 10s", "9s 9h 9d", "Jc Qc Kc"], 84, True),
        ("O07", Variant.R71, ["8s 9s 10s", "Ks Kh Kd", "5c JK 7c"], 69, False),
        ("O08", Variant.R71, ["Jd Qd Kd Ad", "10s 10h 10c"], 71, True),
        ("O09", Variant.R71, ["Jd Qd Kd Ad", "10c Jc Qc Kc"], 81, False),
        ("O10", Variant.R71, ["4h JK 6h", "8s 8h 8d", "Kc Kd Kh", "Qs Qh Qc"], 94, False),
    ],
    ids=lambda v: v if isinstance(v, str) and v[:1] == "O" else "",
)
def test_opening_vectors(
    vector: str, variant: Variant, texts: list[str], value: int, valid: bool
) -> None:
    rules = Rules(variant, 2)
    threshold = rules.opening_threshold
    assert _value(texts, rules) == value
    if valid:
        assert _opening(texts, rules, threshold) == value
    else:
        with pytest.raises(OpeningRefused):
            _opening(texts, rules, threshold)


def test_O03_always_1_makes_42() -> None:
    rules = R51.with_options(ace_opening_value=AceOpeningValue.ALWAYS_1)
    assert _value(["Qh Kh Ah", "7s 7h 7c"], rules) == 42
    with pytest.raises(OpeningRefused, match="needs 51 points; these melds make 42"):
        _opening(["Qh Kh Ah", "7s 7h 7c"], rules, 51)


def test_O07_same_cards_in_rummy_51_make_75() -> None:
    assert _opening(["8s 9s 10s", "Ks Kh Kd", "5c JK 7c"], R51, 51) == 75


def test_O09_refusal_says_set_missing() -> None:
    with pytest.raises(OpeningRefused, match="natural set"):
        _opening(["Jd Qd Kd Ad", "10c Jc Qc Kc"], R71, 71)


def test_O10_refusal_says_run_not_natural() -> None:
    with pytest.raises(OpeningRefused, match="natural run"):
        _opening(["4h JK 6h", "8s 8h 8d", "Kc Kd Kh", "Qs Qh Qc"], R71, 71)


def test_O11_joker_meld_in_r71_opening() -> None:
    texts = ["8s 9s 10s", "9s 9h 9d", "Jc Qc Kc", "2c JK 4c"]
    assert _opening(texts, R71, 71) == 90
    forbidden = R71.with_options(r71_joker_in_opening=R71JokerInOpening.FORBIDDEN)
    with pytest.raises(OpeningRefused, match="may not contain a joker"):
        _opening(texts, forbidden, 71)
