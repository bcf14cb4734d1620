"""Runs ("Suivi") and sets ("Tria"): building, extending and joker swaps (RULES.md §1.5, §1.6).

A :class:`Meld` is an ordered tuple of physical cards plus what each card stands for. Run cards
also carry a *position*: the rank in an unrolled line where 14 is a high Ace (and, in ``wrap``
mode, positions may run past 13), which is what fixes a joker's identity and an Ace's value.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rummy_engine.cards import ACE, KING, Card, Face, Suit
from rummy_engine.errors import InvalidMeld
from rummy_engine.rules import AceMode, JokerLimit, Rules

MAX_RUN = 13


class MeldKind(enum.Enum):
    RUN = "run"
    SET = "set"


@dataclass(frozen=True)
class Meld:
    """Cards on the table, in table order; ``stands_for[i]`` is what ``cards[i]`` counts as.

    ``positions`` (runs only) are unrolled ranks: 1 is a low Ace, 14 a high Ace.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    stands_for: tuple[Face, ...]
    positions: tuple[int, ...] = ()

    @property
    def is_run(self) -> bool:
        return self.kind is MeldKind.RUN

    @property
    def is_set(self) -> bool:
        return self.kind is MeldKind.SET

    @property
    def jokers(self) -> int:
        return sum(c.is_joker for c in self.cards)

    @property
    def is_natural(self) -> bool:
        return self.jokers == 0

    @property
    def rank(self) -> int:
        """The set's rank (sets only)."""
        return next(c.rank for c in self.cards if not c.is_joker)

    @property
    def suit(self) -> Suit | None:
        """The run's suit (runs only)."""
        return next(c.suit for c in self.cards if not c.is_joker)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "cards": [c.key for c in self.cards],
            "stands_for": [_face_key(f) for f in self.stands_for],
            "positions": list(self.positions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meld:
        return cls(
            MeldKind(data["kind"]),
            tuple(Card.from_key(k) for k in data["cards"]),
            tuple(_face_from_key(k) for k in data["stands_for"]),
            tuple(data["positions"]),
        )


def _face_key(face: Face) -> str:
    return face.text


def _face_from_key(key: str) -> Face:
    from rummy_engine.cards import parse_face

    if key.endswith("?"):
        return Face(parse_face(key[:-1] + "s").rank, None)
    return parse_face(key)


def _rank_of_position(position: int) -> int:
    return (position - 1) % 13 + 1


# ---------------------------------------------------------------------------------------------
# Joker limits


def _check_joker_limit(naturals: int, jokers: int, rules: Rules) -> None:
    if naturals < 2:
        raise InvalidMeld("meld.too_few_naturals", naturals=naturals)
    limit = rules.options.max_jokers_per_meld
    if limit is JokerLimit.ONE and jokers > 1:
        raise InvalidMeld("meld.too_many_jokers", jokers=jokers, limit=1)
    if limit is JokerLimit.TWO and jokers > 2:
        raise InvalidMeld("meld.too_many_jokers", jokers=jokers, limit=2)
    if limit is JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS and jokers >= naturals:
        raise InvalidMeld("meld.jokers_not_fewer", jokers=jokers, naturals=naturals)


# ---------------------------------------------------------------------------------------------
# Sets


def _build_set(cards: Sequence[Card], rules: Rules) -> Meld:
    naturals = [c for c in cards if not c.is_joker]
    rank = naturals[0].rank
    if len(cards) > 4:
        raise InvalidMeld("meld.set_too_big", count=len(cards))
    suits = [c.suit for c in naturals]
    repeated = next((c for i, c in enumerate(naturals) if c.suit in suits[:i]), None)
    if repeated is not None:
        raise InvalidMeld("meld.set_repeated_suit", card=repeated.pretty)
    missing = [s for s in Suit if s not in suits]
    jokers = len(cards) - len(naturals)
    joker_face = Face(rank, missing[0]) if len(missing) == 1 and jokers == 1 else Face(rank, None)
    stands_for = tuple(joker_face if c.is_joker else c.face for c in cards)
    return Meld(MeldKind.SET, tuple(cards), stands_for)


# ---------------------------------------------------------------------------------------------
# Runs


def _candidate_positions(rank: int, mode: AceMode) -> tuple[int, ...]:
    if mode is AceMode.WRAP:
        return (rank - 13, rank, rank + 13)
    if rank == ACE and mode is AceMode.LOW_HIGH:
        return (1, 14)
    return (rank,)


def _span_ok(low: int, high: int, mode: AceMode) -> bool:
    if high - low + 1 > MAX_RUN:
        return False
    if mode is AceMode.WRAP:
        return True
    top = 14 if mode is AceMode.LOW_HIGH else KING
    return low >= 1 and high <= top


def _run_meld(placed: Sequence[tuple[Card, int]], suit: Suit) -> Meld:
    ordered = sorted(placed, key=lambda cp: cp[1])
    cards = tuple(c for c, _ in ordered)
    positions = tuple(p for _, p in ordered)
    stands_for = tuple(Face(_rank_of_position(p), suit) for p in positions)
    return Meld(MeldKind.RUN, cards, stands_for, positions)


def _run_in_given_order(cards: Sequence[Card], suit: Suit, mode: AceMode) -> Meld | None:
    """The run exactly as submitted: each card one rank above the previous one."""
    first = next(i for i, c in enumerate(cards) if not c.is_joker)
    for start in _candidate_positions(cards[first].rank, mode):
        positions = [start - first + i for i in range(len(cards))]
        if not _span_ok(positions[0], positions[-1], mode):
            continue
        if all(
            c.is_joker or _rank_of_position(p) == c.rank
            for c, p in zip(cards, positions, strict=True)
        ):
            return _run_meld(list(zip(cards, positions, strict=True)), suit)
    return None


def _arrange_run(
    fixed: Sequence[tuple[Card, int]],
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    suit: Suit,
    mode: AceMode,
) -> Meld | None:
    """Place loose cards around ``fixed`` (cards already at positions) as one contiguous run.

    Jokers fill gaps first; a spare joker goes to the high end, else the low end. Tries every
    Ace reading (and every lap in ``wrap`` mode) and keeps the first that fits.
    """
    taken = {p for _, p in fixed}
    options = [_candidate_positions(c.rank, mode) for c in naturals]
    for choice in itertools.product(*options):
        if len(set(choice)) != len(choice) or taken.intersection(choice):
            continue
        occupied = taken.union(choice)
        low, high = min(occupied), max(occupied)
        gaps = [p for p in range(low, high + 1) if p not in occupied]
        spare = len(jokers) - len(gaps)
        if spare < 0:
            continue
        extra = _extend_span(low, high, spare, mode)
        if extra is None:
            continue
        joker_positions = gaps + extra
        placed = list(fixed) + list(zip(naturals, choice, strict=True))
        placed += list(zip(jokers, joker_positions, strict=True))
        return _run_meld(placed, suit)
    return None


def _extend_span(low: int, high: int, spare: int, mode: AceMode) -> list[int] | None:
    extra: list[int] = []
    for _ in range(spare):
        if _span_ok(low, high + 1, mode):
            high += 1
            extra.append(high)
        elif _span_ok(low - 1, high, mode):
            low -= 1
            extra.append(low)
        else:
            return None
    return extra


def _build_run(cards: Sequence[Card], rules: Rules) -> Meld:
    naturals = [c for c in cards if not c.is_joker]
    suit = naturals[0].suit
    assert suit is not None
    odd = next((c for c in naturals if c.suit != suit), None)
    if odd is not None:
        raise InvalidMeld("meld.run_mixed_suits", card=odd.pretty, suit=suit.symbol)
    ranks = [c.rank for c in naturals]
    twice = next((c for i, c in enumerate(naturals) if c.rank in ranks[:i]), None)
    if twice is not None:
        raise InvalidMeld("meld.run_repeated_rank", card=twice.pretty)
    if len(cards) > MAX_RUN:
        raise InvalidMeld("meld.run_too_long", count=len(cards))
    mode = rules.ace_mode
    meld = _run_in_given_order(cards, suit, mode)
    if meld is None:
        jokers = [c for c in cards if c.is_joker]
        meld = _arrange_run((), naturals, jokers, suit, mode)
    if meld is None:
        raise InvalidMeld(_run_failure_code(ranks, mode), cards=" ".join(c.pretty for c in cards))
    return meld


def _run_failure_code(ranks: Sequence[int], mode: AceMode) -> str:
    if ACE in ranks and mode is AceMode.LOW_ONLY and KING in ranks:
        return "meld.run_ace_low_only"
    if ACE in ranks and mode is AceMode.LOW_HIGH and KING in ranks and 2 in ranks:
        return "meld.run_no_wrap"
    return "meld.run_not_consecutive"


# ---------------------------------------------------------------------------------------------
# Public API


def make_meld(cards: Sequence[Card], rules: Rules) -> Meld:
    """Check that ``cards`` form one run or set and fix what each joker stands for.

    Natural runs may be typed in any order; with a joker, the submitted order decides where it
    stands (``6♦ JK 8♦``: 7♦; ``JK 6♥ 7♥``: 5♥), and an order that is not a run is rearranged
    with the joker filling the gap or extending the high end.
    """
    if len(cards) < 3:
        raise InvalidMeld("meld.too_short", count=len(cards))
    naturals = [c for c in cards if not c.is_joker]
    _check_joker_limit(len(naturals), len(cards) - len(naturals), rules)
    if len({c.rank for c in naturals}) == 1:
        return _build_set(cards, rules)
    return _build_run(cards, rules)


def extend_meld(meld: Meld, added: Sequence[Card], rules: Rules) -> Meld:
    """Lay off ``added`` on ``meld``: runs grow at their ends, sets up to four different suits."""
    if not added:
        raise InvalidMeld("meld.nothing_added")
    naturals = [c for c in added if not c.is_joker]
    jokers = [c for c in added if c.is_joker]
    _check_joker_limit(
        sum(not c.is_joker for c in meld.cards) + len(naturals), meld.jokers + len(jokers), rules
    )
    if meld.is_set:
        return _extend_set(meld, added, rules)
    return _extend_run(meld, naturals, jokers, rules)


def _extend_set(meld: Meld, added: Sequence[Card], rules: Rules) -> Meld:
    wrong = next((c for c in added if not c.is_joker and c.rank != meld.rank), None)
    if wrong is not None:
        raise InvalidMeld(
            "meld.set_wrong_rank", card=wrong.pretty, rank=Face(meld.rank, Suit.SPADES).text[:-1]
        )
    if len(meld.cards) + len(added) > 4:
        raise InvalidMeld("meld.set_full")
    return _build_set(meld.cards + tuple(added), rules)


def _extend_run(meld: Meld, naturals: Sequence[Card], jokers: Sequence[Card], rules: Rules) -> Meld:
    suit = meld.suit
    assert suit is not None
    odd = next((c for c in naturals if c.suit != suit), None)
    if odd is not None:
        raise InvalidMeld("meld.run_mixed_suits", card=odd.pretty, suit=suit.symbol)
    fixed = list(zip(meld.cards, meld.positions, strict=True))
    arranged = _arrange_run(fixed, naturals, jokers, suit, rules.ace_mode)
    if arranged is None:
        added = " ".join(c.pretty for c in (*naturals, *jokers))
        raise InvalidMeld("meld.run_cannot_extend", cards=added)
    return arranged


def swap_target(meld: Meld, card: Card) -> int | None:
    """Index of the joker that ``card`` frees from ``meld``, or None when it frees none.

    A set's joker is freed only when it is the fourth card (its missing suit is known).
    """
    for i, (held, face) in enumerate(zip(meld.cards, meld.stands_for, strict=True)):
        if held.is_joker and face == card.face and face.suit is not None:
            if meld.is_set and len(meld.cards) < 4:
                return None
            return i
    return None


def swap_joker(meld: Meld, card: Card) -> tuple[Meld, Card]:
    """Replace the joker that stands for ``card`` by it; returns the new meld and the joker."""
    index = swap_target(meld, card)
    if index is None:
        raise InvalidMeld("swap.no_joker_for_card", card=card.pretty)
    joker = meld.cards[index]
    cards = (*meld.cards[:index], card, *meld.cards[index + 1 :])
    return Meld(meld.kind, cards, meld.stands_for, meld.positions), joker


def can_extend(meld: Meld, added: Sequence[Card], rules: Rules) -> bool:
    try:
        extend_meld(meld, added, rules)
    except InvalidMeld:
        return False
    return True


def all_cards(melds: Iterable[Meld]) -> list[Card]:
    return [c for m in melds for c in m.cards]
