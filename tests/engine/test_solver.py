"""The solver against the RULES.md vectors and against a brute-force reference on small hands.

Every opening and plan the solver returns is replayed through the engine's own checks
(``make_meld`` / ``extend_meld`` / ``check_first_laydown`` / ``check_go_out_at_once``), and on
hands of at most 9 cards the solver's answer is compared with an exhaustive search over physical
cards: every subset of cards in every joker placement, every disjoint combination of melds, every
assignment of the remaining cards to table melds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

from rummy_engine.cards import ACE, Card, Face, Suit, make_deck, parse_faces
from rummy_engine.errors import InvalidMeld, OpeningRefused
from rummy_engine.melds import Meld, MeldKind, extend_meld, make_meld
from rummy_engine.opening import LayContext, check_first_laydown, check_go_out_at_once
from rummy_engine.rules import AceMode, JokerLimit, Rules, Variant
from rummy_engine.solver import (
    GoOutPlan,
    Opening,
    _cannot_place,
    _face_counts,
    _go_out_options,
    _hopeless,
    _Items,
    _placements,
    _sorted_hand,
    best_opening,
    extension_targets,
    find_melds,
    going_out,
    swap_targets,
)
from rummy_engine.values import opening_value, penalty_value
from tests.engine.exact_opening import reference_opening_value

R51 = Rules(Variant.R51, 2)
R71 = Rules(Variant.R71, 2)
SIMPLE = Rules(Variant.SIMPLE, 2)
BASIC = Rules(Variant.BASIC, 3)
R51_TWO = R51.with_options(max_jokers_per_meld=JokerLimit.TWO)
R71_2V2 = Rules(Variant.R71, 4)


def cards(text: str, copy: int = 0) -> list[Card]:
    """Physical cards for a notation string; a repeated face gets the next copy, jokers numbers."""
    seen: dict[Face, int] = {}
    out = []
    for face in parse_faces(text):
        n = seen.get(face, copy)
        seen[face] = n + 1
        out.append(Card(face.rank, face.suit, n))
    return out


def meld(text: str, rules: Rules, copy: int = 0) -> Meld:
    return make_meld(cards(text, copy), rules)


# ---------------------------------------------------------------------------------------------
# Re-validation of answers with the engine's own checks


def assert_valid_opening(
    opening: Opening,
    hand: Sequence[Card],
    rules: Rules,
    threshold: int,
    taken: Card | None = None,
    freed: bool = False,
) -> None:
    laid = [c for m in opening.melds for c in m.cards]
    assert len(laid) == len(set(laid)), "a card is used twice"
    assert set(laid) <= set(hand), "a card is not in the hand"
    assert len(laid) < len(hand), "an Atlas lay-down must keep a card for the discard"
    assert opening.melds
    for m in opening.melds:
        again = make_meld(m.cards, rules)
        assert again == m
    ctx = LayContext(rules, opened=False, freed=freed, threshold=threshold, taken=taken)
    value = check_first_laydown(opening.melds, False, ctx)
    assert opening.value == opening_value(opening.melds, rules)
    if not freed:
        assert value == opening.value >= threshold
    if taken is not None and rules.must_use_discard:
        assert taken in laid


def assert_valid_plan(
    plan: GoOutPlan,
    hand: Sequence[Card],
    rules: Rules,
    table: Sequence[Meld],
    *,
    opened: bool,
    freed: bool = False,
    taken: Card | None = None,
) -> None:
    laid = [c for m in plan.melds for c in m.cards] + [c for _, group in plan.layoffs for c in group]
    held = laid + ([plan.discard] if plan.discard is not None else [])
    assert len(held) == len(set(held)), "a card is used twice"
    assert sorted(held) == sorted(hand), "the plan must account for every card exactly once"
    if rules.is_atlas:
        assert plan.discard is not None, "Atlas rounds end with a discard"
    assert plan.discard != taken or taken is None, "the taken card cannot be discarded"
    for m in plan.melds:
        assert make_meld(m.cards, rules) == m
    targets = [i for i, _ in plan.layoffs]
    assert len(targets) == len(set(targets))
    for i, group in plan.layoffs:
        extend_meld(table[i], group, rules)  # raises if the lay-off is not valid
    if rules.variant is Variant.SIMPLE:
        assert not plan.layoffs
    ctx = LayContext(rules, opened=opened, freed=freed, threshold=0, taken=taken)
    check_go_out_at_once(plan.melds, bool(plan.layoffs), ctx)


# ---------------------------------------------------------------------------------------------
# RULES.md vectors


def test_o01_r51_value_55() -> None:
    hand = cards("10s Js Qs Ks 5h 5d 5c 2c")
    opening = best_opening(hand, R51, 51)
    assert opening is not None and opening.value == 55
    assert_valid_opening(opening, hand, R51, 51)


def test_o01_needs_a_card_left() -> None:
    # The same seven cards alone cannot all be laid: something must stay for the discard.
    hand = cards("10s Js Qs Ks 5h 5d 5c")
    opening = best_opening(hand, R51, 51)
    assert opening is None or len([c for m in opening.melds for c in m.cards]) < 7
    assert best_opening(hand, R51, 55) is None


def test_o07_r71_jokers_count_zero() -> None:
    hand = cards("8s 9s 10s Ks Kh Kd 5c JK 7c 2d")
    assert best_opening(hand, R71, 71) is None
    at_69 = best_opening(hand, R71, 69)
    assert at_69 is not None and at_69.value == 69
    assert_valid_opening(at_69, hand, R71, 69)
    r51 = best_opening(hand, R51, 51)
    assert r51 is not None and r51.value == 75


def test_o09_r71_needs_a_set() -> None:
    assert best_opening(cards("Jd Qd Kd Ad 10c Jc Qc Kc 2s"), R71, 71) is None


def test_d04_d05_r71_run_without_taken_card() -> None:
    hand = cards("7d 8d 9d Ks Kh Kc Qs Qh Qc Js Jh Jc 2h")
    taken = hand[2]  # 9d
    assert best_opening(hand, R71, 71, taken=taken) is None
    hand += cards("2s 3s 4s")
    opening = best_opening(hand, R71, 71, taken=taken)
    assert opening is not None
    assert_valid_opening(opening, hand, R71, 71, taken=taken)


def test_d01_r51_taken_card_must_be_laid() -> None:
    hand = cards("7c 8c 9c Ks Kh Kd 2h 4s")
    opening = best_opening(hand, R51, 51, taken=hand[2])
    assert opening is not None and opening.value == 54
    assert_valid_opening(opening, hand, R51, 51, taken=hand[2])
    assert best_opening(hand, R51, 51, taken=hand[6]) is None  # 2h fits no meld


def test_b06_b07_freed_r71_partner() -> None:
    hand = cards("5h 6h 7h Ks Kh JK 2c")
    opening = best_opening(hand, R71_2V2, 81, freed=True)
    assert opening is not None
    assert_valid_opening(opening, hand, R71_2V2, 81, freed=True)
    assert best_opening(cards("5h JK 7h Qs Qh Qd 2c"), R71_2V2, 0, freed=True) is None


def test_g05_r71_going_out_at_once() -> None:
    hand = cards("3c 4c 5c 6s 6h 6c 2d 2s 2c Ah 2h 3h 4h 5h Ks")
    plan = going_out(hand, R71, [], opened=False)
    assert plan is not None and plan.discard == cards("Ks")[0]
    assert_valid_plan(plan, hand, R71, [], opened=False)


def test_g06_r71_needs_a_natural_set() -> None:
    # G05 with its sets broken up: 6s 7s 8s is a run, and 2d 2s JK the only set.
    hand = cards("3c 4c 5c 6s 7s 8s 2d 2s JK 3h 4h 5h 6h 7h Ks")
    assert going_out(hand, R71, [], opened=False) is None
    plan = going_out(hand, R51, [], opened=False)
    assert plan is not None
    assert_valid_plan(plan, hand, R51, [], opened=False)


def test_joker_stands_in_for_a_held_card() -> None:
    # With A-5h, the joker takes 2h's place in the run so that 2s 2h 2d is a natural set.
    hand = cards("3c 4c 5c 6s 7s 8s 2d 2s JK Ah 2h 3h 4h 5h Ks")
    plan = going_out(hand, R71, [], opened=False)
    assert plan is not None and plan.discard == cards("Ks")[0]
    assert_valid_plan(plan, hand, R71, [], opened=False)


def test_joker_stands_in_beside_a_doubled_card() -> None:
    """The best opening lays 9♠ JK J♠ Q♠ K♠ and 9♠ 10♠ JK Q♠ K♠: the joker stands for the 10♠
    that the second run holds, reached through the second 9♠ (found by comparing the solver
    with bench_solver's exact dynamic program on random dense hands)."""
    hand = cards("Js 10s Qd Qd 9s Qs Ks Ks Kd Qs 9s JK JK JK")
    opening = best_opening(hand, R51, 51)
    assert opening is not None and opening.value == 129
    assert_valid_opening(opening, hand, R51, 51)


def test_g07_simple_going_out() -> None:
    hand = cards("5h 6h 7h 4s 4h 4d 9c 9d 9s Jd Qd Kd Ad 8c")
    plan = going_out(hand, SIMPLE, [], opened=False)
    assert plan is not None and plan.discard == cards("8c")[0]
    assert_valid_plan(plan, hand, SIMPLE, [], opened=False)


def test_g08_simple_four_sets_no_run() -> None:
    hand = cards("2s 2h 2c 5s 5h 5c 9s 9h 9c Ks Kh Kc Kd 7d")
    assert going_out(hand, SIMPLE, [], opened=False) is None


def test_g10_r51_keeps_a_card_to_discard() -> None:
    table = [meld("6c 7c 8c", R51, copy=1)]
    hand = cards("9c 10c")
    plan = going_out(hand, R51, table, opened=True)
    assert plan is not None
    assert plan.discard == hand[1] and plan.layoffs == ((0, (hand[0],)),)
    assert_valid_plan(plan, hand, R51, table, opened=True)


def test_g11_r51_joker_as_last_discard() -> None:
    table = [meld("4d 5d 6d", R51, copy=1)]
    hand = cards("JK 3d")
    plan = going_out(hand, R51, table, opened=True)
    assert plan is not None and plan.discard is not None and plan.discard.is_joker
    assert_valid_plan(plan, hand, R51, table, opened=True)
    no_joker = R51.with_options(joker_final_discard_allowed=False)
    plan = going_out(hand, no_joker, table, opened=True)
    assert plan is not None and plan.discard == hand[1]  # the joker is laid off instead


def test_g12_basic_going_out() -> None:
    hand = cards("4h 5h 7h Qs Qh Qd 9s 6h")
    plan = going_out(hand, BASIC, [], opened=False)
    assert plan is not None and plan.discard == cards("9s")[0]
    assert_valid_plan(plan, hand, BASIC, [], opened=False)


def test_g14_basic_lays_off_everything() -> None:
    table = [meld("5d 6d 7d", BASIC)]
    hand = cards("8d 9d")
    plan = going_out(hand, BASIC, table, opened=True)
    assert plan == GoOutPlan((), ((0, (hand[0], hand[1])),), None)
    assert_valid_plan(plan, hand, BASIC, table, opened=True)


def test_taken_card_is_never_the_discard() -> None:
    table = [meld("6c 7c 8c", R51, copy=1)]
    hand = cards("9c 10c")
    plan = going_out(hand, R51, table, opened=True, taken=hand[1])
    assert plan is None  # 10c cannot be laid without 9c, and cannot be discarded
    plan = going_out(hand, R51, table, opened=True, taken=hand[0])
    assert plan is not None and plan.discard == hand[1]


def test_simple_never_lays_off() -> None:
    table = [meld("6c 7c 8c", R51, copy=1)]
    hand = cards("9c 4s 4h 4d 5h 6h 7h Kd")
    assert going_out(hand, SIMPLE, table, opened=False) is None
    assert going_out(hand, R51, table, opened=True) is not None


def test_discard_prefers_highest_penalty() -> None:
    hand = cards("5h 6h 7h 8h 9h 4s 4c 4d")
    plan = going_out(hand, R51, [], opened=True)
    assert plan is not None and plan.discard is not None
    assert plan.discard.rank == 9  # 5h-8h + 4s 4c 4d, not 6h-9h + the set with 5h left


def test_single_card_hints() -> None:
    table = [meld("6d JK 8d", R51, copy=1), meld("Qs Qh Qc", R51, copy=1), meld("2c 3c 4c", R51, copy=1)]
    assert extension_targets(cards("9d")[0], table, R51) == [0]
    assert extension_targets(cards("Qd")[0], table, R51) == [1]
    assert extension_targets(cards("JK")[0], table, R51) == [1, 2]
    assert swap_targets(cards("7d")[0], table) == [0]
    assert swap_targets(cards("Qd")[0], table) == []


def test_find_melds_examples() -> None:
    found = find_melds(cards("6d 8d JK"), R51)
    assert [m.stands_for for m in found] == [tuple(parse_faces("6d 7d 8d"))]
    found = find_melds(cards("5h 6h 7h 7s 7c"), R51)
    assert {tuple(c.text for c in m.cards) for m in found} == {("5h", "6h", "7h"), ("7s", "7h", "7c")}


def test_hand_checks() -> None:
    hand = cards("5h 6h 7h 2c")
    with pytest.raises(ValueError):
        best_opening(hand + hand[:1], R51, 51)
    with pytest.raises(ValueError):
        best_opening(hand, R51, 51, taken=cards("9c")[0])
    with pytest.raises(ValueError):
        best_opening(hand, BASIC, 0)


# ---------------------------------------------------------------------------------------------
# Brute-force reference


def reference_melds(hand: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every meld of physical cards: each subset, naturals in rank order (Ace first or last; in
    wrap mode every rotation), jokers inserted at every place; whatever ``make_meld`` accepts."""
    found: dict[tuple[tuple[Card, ...], tuple[Face, ...]], Meld] = {}
    naturals = [c for c in hand if not c.is_joker]
    jokers = [c for c in hand if c.is_joker]
    for size in range(2, min(len(naturals), 13) + 1):
        for group in itertools.combinations(naturals, size):
            low_first = sorted(group, key=lambda c: c.rank)
            high_first = sorted(group, key=lambda c: 14 if c.rank == ACE else c.rank)
            orders = {tuple(low_first), tuple(high_first)}
            if rules.ace_mode is AceMode.WRAP:  # K-A-2 and the like: every rotation
                orders = {tuple(low_first[k:] + low_first[:k]) for k in range(size)}
            for j in range(len(jokers) + 1):
                if size + j < 3:
                    continue
                for used in itertools.combinations(jokers, j):
                    for order in orders:
                        for at in itertools.combinations(range(size + j), j):
                            seq: list[Card] = []
                            rest = iter(order)
                            spare = iter(used)
                            for k in range(size + j):
                                seq.append(next(spare) if k in at else next(rest))
                            try:
                                m = make_meld(seq, rules)
                            except InvalidMeld:
                                continue
                            found[(m.cards, m.stands_for)] = m
    return list(found.values())


def disjoint_combinations(melds: Sequence[Meld]) -> list[tuple[Meld, ...]]:
    out: list[tuple[Meld, ...]] = []

    def walk(start: int, chosen: tuple[Meld, ...], used: frozenset[Card]) -> None:
        out.append(chosen)
        for i in range(start, len(melds)):
            if used.isdisjoint(melds[i].cards):
                walk(i + 1, (*chosen, melds[i]), used.union(melds[i].cards))

    walk(0, (), frozenset())
    return out


def reference_opening(
    hand: Sequence[Card], rules: Rules, threshold: int, taken: Card | None, freed: bool
) -> int | None:
    best: int | None = None
    for combo in disjoint_combinations(reference_melds(hand, rules)):
        laid = {c for m in combo for c in m.cards}
        if not combo or len(laid) == len(hand):
            continue
        if taken is not None and rules.must_use_discard and taken not in laid:
            continue
        ctx = LayContext(rules, opened=False, freed=freed, threshold=threshold, taken=taken)
        try:
            check_first_laydown(combo, False, ctx)
        except OpeningRefused:
            continue
        value = opening_value(combo, rules)
        best = value if best is None else max(best, value)
    return best


def reference_going_out(
    hand: Sequence[Card],
    rules: Rules,
    table: Sequence[Meld],
    opened: bool,
    freed: bool,
    taken: Card | None,
) -> list[Card | None]:
    """The discards of every way to go out (None: the whole hand laid, Basic only)."""
    discards: list[Card | None] = []
    ctx = LayContext(rules, opened=opened, freed=freed, threshold=0, taken=taken)
    for combo in disjoint_combinations(reference_melds(hand, rules)):
        laid = {c for m in combo for c in m.cards}
        rest = [c for c in hand if c not in laid]
        endings: list[Card | None] = [c for c in rest if c != taken]
        if not rules.is_atlas:
            endings.append(None)
        for discard in endings:
            if discard is not None and discard.is_joker and not rules.options.joker_final_discard_allowed:
                continue
            to_lay = [c for c in rest if c != discard]
            if to_lay and rules.variant is Variant.SIMPLE:
                continue
            if not any(_layoffs_fit(to_lay, choice, table, rules) for choice in _assignments(to_lay, table)):
                continue
            try:
                check_go_out_at_once(combo, bool(to_lay), ctx)
            except OpeningRefused:
                continue
            discards.append(discard)
    return discards


def _assignments(to_lay: Sequence[Card], table: Sequence[Meld]) -> itertools.product[tuple[int, ...]]:
    plausible = [
        [
            i
            for i, m in enumerate(table)
            if c.is_joker or (c.rank == m.rank if m.is_set else c.suit == m.suit)
        ]
        for c in to_lay
    ]
    return itertools.product(*plausible)


def _layoffs_fit(to_lay: Sequence[Card], choice: Sequence[int], table: Sequence[Meld], rules: Rules) -> bool:
    groups: dict[int, list[Card]] = {}
    for card, i in zip(to_lay, choice, strict=True):
        groups.setdefault(i, []).append(card)
    try:
        for i, group in groups.items():
            extend_meld(table[i], group, rules)
    except InvalidMeld:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Property tests


def _pool(rules: Rules, ranks: Sequence[int]) -> list[Card]:
    deck = make_deck(rules.spec.packs, rules.spec.jokers)
    return [c for c in deck if c.is_joker or c.rank in ranks]


RANKS = (1, 2, 3, 4, 5, 12, 13)
TABLES = {
    "atlas": ["3h 4h 5h", "5s 5h 5d", "Qc Kc Ac", "2d JK 4d"],
    "basic": ["3h 4h 5h", "5s 5h 5d", "Jc Qc Kc"],
}


@st.composite
def positions(draw: st.DrawFn, rules: Rules, max_cards: int) -> tuple[list[Card], list[Meld], Card | None]:
    """A small hand biased towards melds, an optional table (1-2 melds) and a taken card."""
    texts = TABLES["atlas" if rules.is_atlas else "basic"]
    chosen = draw(st.lists(st.sampled_from(texts), unique=True, max_size=2))
    copy = 1 if rules.is_atlas else 0
    table: list[Meld] = []
    on_table: set[Card] = set()
    for text in chosen:
        group = [c if not c.is_joker else Card(0, None, 3 if rules.variant is Variant.R51 else 1) for c in cards(text, copy)]
        if on_table.intersection(group):
            continue
        try:
            table.append(make_meld(group, rules))
        except InvalidMeld:  # Q-K-A under ace_mode=low_only
            continue
        on_table.update(group)
    pool = [c for c in _pool(rules, RANKS) if c not in on_table]
    hand = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=max_cards, unique=True))
    taken = draw(st.none() | st.sampled_from(hand))
    return hand, table, taken


_SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _key(m: Meld) -> tuple[object, ...]:
    if m.is_run:
        return (m.kind, m.stands_for, tuple(c.is_joker for c in m.cards))
    naturals = sorted(f.text for f, c in zip(m.stands_for, m.cards, strict=True) if not c.is_joker)
    jokers = sorted(f.text for f, c in zip(m.stands_for, m.cards, strict=True) if c.is_joker)
    return (m.kind, tuple(naturals), tuple(jokers))


@pytest.mark.parametrize("rules", [R51, R71, SIMPLE, BASIC, R51_TWO], ids=["r51", "r71", "simple", "basic", "r51_two_jokers"])
@_SETTINGS
@given(data=st.data())
def test_find_melds_matches_reference(rules: Rules, data: st.DataObject) -> None:
    hand, _, _ = data.draw(positions(rules, 9))
    found = find_melds(hand, rules)
    for m in found:
        assert set(m.cards) <= set(hand)
        assert make_meld(m.cards, rules) == m
    keys = [_key(m) for m in found]
    assert len(keys) == len(set(keys)), "a face combination is returned twice"
    assert set(keys) == {_key(m) for m in reference_melds(hand, rules)}


@pytest.mark.parametrize("rules", [R51, R71, R51_TWO, R71_2V2], ids=["r51", "r71", "r51_two_jokers", "r71_2v2"])
@_SETTINGS
@given(data=st.data())
def test_best_opening_matches_reference(rules: Rules, data: st.DataObject) -> None:
    hand, _, taken = data.draw(positions(rules, 9))
    threshold = data.draw(st.sampled_from([0, 12, 20, 30, 40]))
    freed = rules.teams and data.draw(st.booleans())
    opening = best_opening(hand, rules, threshold, taken=taken, freed=freed)
    expected = reference_opening(hand, rules, threshold, taken, freed)
    if expected is None or (not freed and expected < threshold):
        assert opening is None
        return
    assert opening is not None and opening.value == expected
    assert_valid_opening(opening, hand, rules, threshold, taken=taken, freed=freed)


@pytest.mark.parametrize("rules", [R51, R71, SIMPLE, BASIC, R71_2V2], ids=["r51", "r71", "simple", "basic", "r71_2v2"])
@_SETTINGS
@given(data=st.data())
def test_going_out_matches_reference(rules: Rules, data: st.DataObject) -> None:
    hand, table, taken = data.draw(positions(rules, 8))
    if rules.variant is Variant.SIMPLE:
        table = []
    opened = rules.has_opening and data.draw(st.booleans())
    freed = rules.teams and not opened and data.draw(st.booleans())
    plan = going_out(hand, rules, table, opened=opened, freed=freed, taken=taken)
    discards = reference_going_out(hand, rules, table, opened, freed, taken)
    if not discards:
        assert plan is None
        return
    assert plan is not None
    assert_valid_plan(plan, hand, rules, table, opened=opened, freed=freed, taken=taken)
    if rules.is_atlas:
        assert plan.discard is not None
        best = max(penalty_value(d) for d in discards if d is not None)
        assert penalty_value(plan.discard) == best
    elif None in discards:
        assert plan.discard is None


@pytest.mark.parametrize(
    "rules",
    [R51.with_options(ace_mode=AceMode.LOW_ONLY), R51.with_options(ace_mode=AceMode.WRAP)],
    ids=["low_only", "wrap"],
)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_ace_modes_match_reference(rules: Rules, data: st.DataObject) -> None:
    hand, _, _ = data.draw(positions(rules, 7))
    assert {_key(m) for m in find_melds(hand, rules)} == {_key(m) for m in reference_melds(hand, rules)}
    opening = best_opening(hand, rules, 10)
    expected = reference_opening(hand, rules, 10, None, False)
    assert (opening.value if opening else None) == (expected if expected is not None and expected >= 10 else None)


# ---------------------------------------------------------------------------------------------
# Larger hands: the exact dynamic program gives the opening; every answer must replay


HARD_HANDS = [
    "3h 4h 5h 6h 7h 5s 5c 5d 6s 6c JK JK 4s 4c 7s 7c",
    "3h 4h 5h 6h 7h 8h 9h 3h 4h 5h 6h 7h 8h 9h JK JK",
    "5s 5h 5c 5d 5s 5h 5c 5d 6s 6h 6c 6d 6s 6h JK JK",
    "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah 2s JK JK",
    "Ah 2h 3h Qh Kh Ah As Ac Ad Ks Kc Kd Qs Qc JK JK",
]
#: Whether each hand goes out at once (all but a discard laid) where that is not always so:
#: Rummy 71 before opening needs a natural run and a natural set, Simple a run and a set
#: (RULES.md). Hand 2 is all hearts (no set at all); hand 3 has no natural run (5♠ 6♠ JK is a
#: run for Simple only); hand 4 holds one card that is not a heart (no natural set). Every hand
#: goes out in Rummy 51 and, once opened, in Rummy 71.
GOES_OUT = {  # text: (Rummy 71 not opened, Simple)
    HARD_HANDS[0]: (True, True),
    HARD_HANDS[1]: (False, False),
    HARD_HANDS[2]: (False, True),
    HARD_HANDS[3]: (False, True),
    HARD_HANDS[4]: (True, True),
}


@pytest.mark.parametrize("text", HARD_HANDS)
def test_large_hands_replay(text: str) -> None:
    hand = cards(text)
    r71_closed, simple = GOES_OUT[text]
    for rules, threshold in ((R51, 51), (R71, 71)):
        opening = best_opening(hand, rules, threshold)
        expected = reference_opening_value(hand, rules, threshold)
        assert (opening.value if opening else None) == expected, rules.variant
        if opening is not None:
            assert_valid_opening(opening, hand, rules, threshold)
        for opened in (False, True):
            plan = going_out(hand, rules, [], opened=opened)
            wanted = opened or rules.variant is Variant.R51 or r71_closed
            assert (plan is not None) == wanted, (rules.variant, opened)
            if plan is not None:
                assert_valid_plan(plan, hand, rules, [], opened=opened)
    plan = going_out(hand, SIMPLE, [], opened=False)
    assert (plan is not None) == simple
    if plan is not None:
        assert_valid_plan(plan, hand, SIMPLE, [], opened=False)


def test_answers_are_deterministic() -> None:
    hand = cards(HARD_HANDS[0])
    first = best_opening(hand, R51, 51)
    assert best_opening(list(reversed(hand)), R51, 51) == first
    plan = going_out(hand, R51, [], opened=True)
    assert going_out(list(reversed(hand)), R51, [], opened=True) == plan


def test_suits_are_all_generated() -> None:
    # One run per suit and a set: find_melds covers every suit and both kinds.
    hand = cards("2s 3s 4s 2h 3h 4h 2c 3c 4c 2d 3d 4d")
    found = find_melds(hand, R51)
    assert {m.suit for m in found if m.is_run} == set(Suit)
    assert {m.kind for m in found} == {MeldKind.RUN, MeldKind.SET}


@st.composite
def dense_hands(draw: st.DrawFn) -> list[Card]:
    """Up to 15 cards (10 or more when the band allows) from one to three suits over a band of
    ranks, both copies in play, plus up to three jokers: the hands where runs overlap and a
    joker may stand in for a held card."""
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 10))
    high = min(13, low + draw(st.integers(3, 6)))
    pool = [Card(rank, suit, copy) for suit in suits for rank in range(low, high + 1) for copy in (0, 1)]
    size = draw(st.integers(min(10, len(pool)), min(15, len(pool))))
    naturals = draw(st.permutations(pool))[:size]
    jokers = draw(st.sampled_from([0, 1, 2, 3, 3]))
    return [*naturals, *(Card(0, None, n) for n in range(jokers))]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=dense_hands(), threshold=st.sampled_from([1, 51]))
def test_best_opening_matches_the_exact_program(hand: list[Card], threshold: int) -> None:
    """Large dense hands against the small exact dynamic program (R51, default options): the
    search's pruning (of joker placements, and by its bound on what is left) must never lose
    the best opening."""
    opening = best_opening(hand, R51, threshold)
    assert (opening.value if opening else None) == reference_opening_value(hand, R51, threshold)


@st.composite
def dealt_hands(draw: st.DrawFn) -> list[Card]:
    """16 cards as the benchmark deals them: 14 or 15 naturals from the two packs and one or
    two jokers, or a whole suit with up to three jokers (the benchmark's worst hands)."""
    if draw(st.integers(0, 4)) == 0:
        suit = draw(st.sampled_from(list(Suit)))
        extra = draw(st.lists(st.sampled_from([c for c in make_deck(2, 0) if c.copy]), max_size=1))
        suited = [Card(rank, suit, 0) for rank in range(1, 14)]
        return [*suited, *extra, *(Card(0, None, n) for n in range(draw(st.integers(1, 3))))]
    naturals = make_deck(2, 0)
    jokers = draw(st.integers(1, 2))
    picked = draw(st.lists(st.sampled_from(naturals), min_size=16 - jokers, max_size=16 - jokers, unique=True))
    return [*picked, *(Card(0, None, n) for n in range(jokers))]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=dealt_hands(), rules=st.sampled_from([R51, R71]))
def test_best_opening_of_dealt_hands_matches_the_exact_program(hand: list[Card], rules: Rules) -> None:
    """Random 16-card hands (and whole suits with jokers) at the real thresholds, R51 and R71,
    against the exact dynamic program: the value the solver finds is the best there is."""
    threshold = 71 if rules.variant is Variant.R71 else 51
    opening = best_opening(hand, rules, threshold)
    assert (opening.value if opening else None) == reference_opening_value(hand, rules, threshold)
    if opening is not None:
        assert_valid_opening(opening, hand, rules, threshold)


WIDE_TABLE = [
    "3h 4h 5h", "5s 5h 5d", "Qc Kc Ac", "2d JK 4d", "8s 9s 10s Js", "Kh Ks Kd", "6c 7c 8c", "9d 10d Jd Qd Kd"
]
R51_LOW_ONLY = R51.with_options(ace_mode=AceMode.LOW_ONLY)
R51_WRAP = R51.with_options(ace_mode=AceMode.WRAP)
R51_MANY = R51.with_options(max_jokers_per_meld=JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS)


def _table(rules: Rules, texts: Sequence[str]) -> list[Meld]:
    """Table melds of copy-1 cards (jokers numbered past the hand's), skipping those the Ace mode
    refuses."""
    table: list[Meld] = []
    for text in texts:
        group = [c if not c.is_joker else Card(0, None, 3) for c in cards(text, 1)]
        try:
            table.append(make_meld(group, rules))
        except InvalidMeld:  # Q-K-A under ace_mode=low_only
            continue
    return table


@st.composite
def sparse_positions(draw: st.DrawFn, rules: Rules) -> tuple[list[Card], list[Meld], Card | None]:
    """Up to 9 cards over every rank (two of them may be jokers) and up to three table melds: the
    hands where few cards fit a meld, so going out is mostly refused before any search."""
    texts = draw(st.lists(st.sampled_from(WIDE_TABLE), unique=True, max_size=3))
    table = [] if rules.variant is Variant.SIMPLE else _table(rules, texts)
    on_table = {c for m in table for c in m.cards}
    naturals = [c for c in make_deck(2, 0) if c not in on_table]
    picked = draw(st.lists(st.sampled_from(naturals), min_size=2, max_size=7, unique=True))
    hand = [*picked, *(Card(0, None, n) for n in range(draw(st.integers(0, 2))))]
    taken = draw(st.none() | st.sampled_from(hand))
    return hand, table, taken


@pytest.mark.parametrize(
    "rules",
    [R51, R71, SIMPLE, R51_TWO, R51_LOW_ONLY, R51_WRAP],
    ids=["r51", "r71", "simple", "r51_two_jokers", "low_only", "wrap"],
)
@_SETTINGS
@given(data=st.data())
def test_going_out_of_sparse_hands_matches_reference(rules: Rules, data: st.DataObject) -> None:
    """The quick refusals (two cards that fit nothing, too few jokers for the cards only jokers
    help place) against the brute-force reference, on hands where they decide most answers."""
    hand, table, taken = data.draw(sparse_positions(rules))
    opened = rules.has_opening and data.draw(st.booleans())
    plan = going_out(hand, rules, table, opened=opened, taken=taken)
    discards = reference_going_out(hand, rules, table, opened, False, taken)
    assert (plan is None) == (not discards)
    if plan is not None:
        assert_valid_plan(plan, hand, rules, table, opened=opened, taken=taken)
        best = max(penalty_value(d) for d in discards if d is not None)
        assert plan.discard is not None and penalty_value(plan.discard) == best


def test_wrap_lays_off_king_and_ace_below_a_run_on_the_lowest_lap() -> None:
    """The sparse test's failure (``K♦ A♦ cannot extend that run``): on ``2♦ JK 4♦`` (built at
    positions -11 .. -9) the solver lays off K♦ A♦ below, which ``K♦ A♦ 2♦ JK 4♦`` shows is a
    run in ``wrap`` mode, but ``extend_meld`` only looked for the King on three laps (0, 13, 26)
    and not at -13, so it refused the lay-off."""
    table = _table(R51_WRAP, ["2d JK 4d"])
    hand = cards("Kd Ad 9s")
    plan = going_out(hand, R51_WRAP, table, opened=True)
    assert plan is not None and plan.discard == hand[2]
    assert_valid_plan(plan, hand, R51_WRAP, table, opened=True)
    grown = extend_meld(table[0], hand[:2], R51_WRAP)
    assert grown.stands_for == make_meld([*hand[:2], *table[0].cards], R51_WRAP).stands_for
    # Further round: 10♦ J♦ Q♦ below the King (-16 .. -14), then 5♦ 6♦ 7♦ above (11 cards).
    grown = extend_meld(grown, cards("Qd Jd 10d"), R51_WRAP)
    assert [f.text for f in grown.stands_for][:4] == ["10d", "Jd", "Qd", "Kd"]
    assert extend_meld(grown, cards("5d 6d 7d"), R51_WRAP).stands_for[-1].text == "7d"


@st.composite
def run_and_ends(draw: st.DrawFn, rules: Rules) -> tuple[Meld, list[Card], list[Card]]:
    """A run of one suit as the table holds it (an optional joker inside) and the naturals that
    continue it below and above, by rank around the line (whatever the Ace mode allows)."""
    suit = draw(st.sampled_from(list(Suit)))
    size = draw(st.integers(3, 13))
    start = draw(st.integers(1, 13))
    ranks = [(start - 1 + k) % 13 + 1 for k in range(size)]
    below = draw(st.integers(0, size - 3))
    above = draw(st.integers(0, size - 3 - below))
    middle = [Card(r, suit, 1) for r in ranks[below : size - above]]
    if draw(st.booleans()):
        middle[1] = Card(0, None, 3)
    try:
        run = make_meld(middle, rules)
    except InvalidMeld:  # a run across the Ace where the mode does not allow it
        reject()
    low = [Card(r, suit, 0) for r in ranks[:below]]
    high = [Card(r, suit, 0) for r in ranks[size - above :]]
    return run, low, high


@pytest.mark.parametrize("rules", [R51, R51_LOW_ONLY, R51_WRAP], ids=["low_high", "low_only", "wrap"])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_extend_meld_accepts_every_run_make_meld_accepts(rules: Rules, data: st.DataObject) -> None:
    """Cards that continue a run at its ends into a longer run (``make_meld`` accepts the whole
    line) can be laid off on it, whichever lap (``wrap`` mode) the table run was built on, and
    what ``extend_meld`` makes is a run of those cards (a full circle may close at either end).
    Where the line is no run, a lay-off that is accepted is still a run."""
    run, low, high = data.draw(run_and_ends(rules))
    assume(low or high)
    line = [*low, *run.cards, *high]
    try:
        make_meld(line, rules)
    except InvalidMeld:
        fits = False
    else:
        fits = True
    try:
        grown = extend_meld(run, [*high, *low], rules)
    except InvalidMeld:
        assert not fits, "a lay-off that makes a run is refused"
        return
    assert sorted(grown.cards) == sorted(line)
    assert make_meld(grown.cards, rules).stands_for == grown.stands_for  # positions: another lap


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=dealt_hands(),
    size=st.integers(3, 16),
    texts=st.lists(st.sampled_from(WIDE_TABLE), unique=True, max_size=6),
    rules=st.sampled_from([R51, R71, SIMPLE, R51_TWO, R51_LOW_ONLY, R51_WRAP, R51_MANY]),
    data=st.data(),
)
def test_quick_refusal_only_where_the_options_refuse(
    hand: list[Card], size: int, texts: list[str], rules: Rules, data: st.DataObject
) -> None:
    """Before building options, going out refuses a hand from per-card bit tests
    (``_hopeless``); that must happen only where the exact tests on the options refuse it too,
    on dealt hands of any size. The bound it rests on is checked as well: an option places at
    most four cards per joker that no option without jokers places."""
    hand = hand[-size:]  # keeps the jokers, which come last
    taken = data.draw(st.none() | st.sampled_from(hand))
    lay_on = [] if rules.variant is Variant.SIMPLE else _table(rules, texts)
    items = _Items(_sorted_hand(hand), taken, rules)
    counts, jokers = _face_counts(hand)
    options, _ = _go_out_options(items, counts, jokers, lay_on, rules, 0)
    once, _, natural = _placements(options)
    for opt in options:
        assert (opt.mask & ~natural).bit_count() <= 4 * opt.jokers
    if _hopeless(items, lay_on, rules):
        assert _cannot_place(items, options, once, natural)
