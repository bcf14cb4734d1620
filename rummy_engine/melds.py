"""Runs ("Suivi") and sets ("Tria"): building, extending and joker swaps (RULES.md §1.5, §1.6).

A :class:`Meld` is an ordered tuple of physical cards plus what each card stands for. Run cards
also carry a *position*: the rank in an unrolled line where 14 is a high Ace (and, in ``wrap``
mode, positions may run past 13), which is what fixes a joker's identity and an Ace's value.

The order a player submits is the meld (RULES.md §1.5: a joker's identity follows from its place
in the ordered list), so :func:`make_meld` never rearranges: a list that is not a meld as written
is refused with the reason and the orders that would be legal. :func:`arrangements` offers those
orders as data, for a UI that lets players pick cards without ordering them.
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


class End(enum.Enum):
    """The end of a run a laid-off joker goes to when it could go to either (RULES.md §1.5).

    The choice fixes which card the joker stands for, hence which natural card can later swap
    it out: a joker added low to ``5♣ 6♣ 7♣`` is ``4♣``, added high it is ``8♣``.
    """

    LOW = "low"
    HIGH = "high"


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
    return low >= 1 and high <= _top(mode)


def _top(mode: AceMode) -> int:
    """The highest position a run may reach: a high Ace, or the King where the Ace is only low."""
    return 14 if mode is AceMode.LOW_HIGH else KING


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


def _run_arrangements(
    fixed: Sequence[tuple[Card, int]],
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    suit: Suit,
    mode: AceMode,
    ends: Sequence[End] = (End.HIGH, End.LOW),
    beside: bool = False,
) -> list[Meld]:
    """Every contiguous run of ``fixed`` (cards already at positions) plus the loose cards.

    Jokers fill the gaps between naturals first; each spare joker goes to one of ``ends``.
    Every Ace reading (and every lap in ``wrap`` mode) is tried; the runs come back in the
    order of ``ends`` (all spares at the first end first), each distinct run once. With
    ``beside`` (``wrap`` mode, ``fixed`` not empty) the loose cards take every place near the
    fixed ones instead (:func:`_wrap_positions_beside`).
    """
    taken = {p for _, p in fixed}
    if beside:
        low, high = min(taken), max(taken)
        options = [_wrap_positions_beside(c.rank, low, high) for c in naturals]
    else:
        options = [_candidate_positions(c.rank, mode) for c in naturals]
    found: dict[tuple[Face, ...], Meld] = {}
    for choice in itertools.product(*options):
        if len(set(choice)) != len(choice) or taken.intersection(choice):
            continue
        occupied = taken.union(choice)
        low, high = min(occupied), max(occupied)
        gaps = [p for p in range(low, high + 1) if p not in occupied]
        spare = len(jokers) - len(gaps)
        if spare < 0:
            continue
        for extra in _spare_positions(low, high, spare, ends, mode):
            placed = [*fixed, *zip(naturals, choice, strict=True)]
            placed += list(zip(jokers, gaps + extra, strict=True))
            meld = _run_meld(placed, suit)
            found.setdefault(meld.stands_for, meld)
    return sorted(found.values(), key=lambda m: _end_rank(m, fixed, ends))


def _wrap_positions_beside(rank: int, low: int, high: int) -> tuple[int, ...]:
    """The positions (lowest first) a card of ``rank`` may take beside a ``wrap`` run at low..high:
    every position of that rank that keeps the whole run within MAX_RUN positions (at most two).

    A run keeps the lap it was built on (its first card on the lowest lap, so an Ace first sits
    at -12) and lay-offs move its ends further, so the three laps of :func:`_candidate_positions`
    do not reach every place beside it: K♦ A♦ below ``2♦ JK 4♦`` (-11 .. -9) need -13 and -12.
    """
    first = high - MAX_RUN + 1
    first += (rank - first) % 13  # the lowest position of that rank from there
    return tuple(range(first, low + MAX_RUN, 13))


def _extensions(
    fixed: Sequence[tuple[Card, int]],
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    suit: Suit,
    mode: AceMode,
    ends: Sequence[End] = (End.HIGH, End.LOW),
) -> list[Meld]:
    """The runs that laying off the loose cards on ``fixed`` makes, best first.

    In ``wrap`` mode, when the three laps give none, the cards are tried at every place beside
    the run: the laps missed places below a run on the lowest lap, so ``K♦ A♦`` could not be
    laid off on ``2♦ JK 4♦`` though ``K♦ A♦ 2♦ JK 4♦`` is a run (and the solver proposed it).
    The laps stay first so that every lay-off accepted before gives the same run: a full
    circle of 13 cards may close at either end, and old game logs must replay the same.
    """
    arranged = _run_arrangements(fixed, naturals, jokers, suit, mode, ends)
    if not arranged and fixed and mode is AceMode.WRAP:
        arranged = _run_arrangements(fixed, naturals, jokers, suit, mode, ends, beside=True)
    return arranged


def _spare_positions(
    low: int, high: int, spare: int, ends: Sequence[End], mode: AceMode
) -> list[list[int]]:
    """The ways to put ``spare`` jokers beyond the span low..high at the allowed ends."""
    ways = []
    for below in range(spare + 1):
        above = spare - below
        if (below and End.LOW not in ends) or (above and End.HIGH not in ends):
            continue
        if _span_ok(low - below, high + above, mode):
            ways.append([*range(low - below, low), *range(high + 1, high + above + 1)])
    return ways


def _end_rank(meld: Meld, fixed: Sequence[tuple[Card, int]], ends: Sequence[End]) -> int:
    """Sort key: runs whose spare jokers sit at the preferred end (``ends[0]``) come first."""
    anchor = min((p for _, p in fixed), default=None)
    if anchor is None:
        anchor = next(p for c, p in zip(meld.cards, meld.positions, strict=True) if not c.is_joker)
    below = sum(c.is_joker and p < anchor for c, p in zip(meld.cards, meld.positions, strict=True))
    return below if ends[0] is End.HIGH else -below


def _check_run_cards(cards: Sequence[Card], suit: Suit) -> None:
    """Refusals that no order can cure: another suit, a repeated rank, more than 13 cards."""
    naturals = [c for c in cards if not c.is_joker]
    odd = next((c for c in naturals if c.suit != suit), None)
    if odd is not None:
        raise InvalidMeld("meld.run_mixed_suits", card=odd.pretty, suit=suit.symbol)
    ranks = [c.rank for c in naturals]
    twice = next((c for i, c in enumerate(naturals) if c.rank in ranks[:i]), None)
    if twice is not None:
        raise InvalidMeld("meld.run_repeated_rank", card=twice.pretty)
    if len(cards) > MAX_RUN:
        raise InvalidMeld("meld.run_too_long", count=len(cards))


def _build_run(cards: Sequence[Card], rules: Rules) -> Meld:
    naturals = [c for c in cards if not c.is_joker]
    suit = naturals[0].suit
    assert suit is not None
    _check_run_cards(cards, suit)
    meld = _run_in_given_order(cards, suit, rules.ace_mode)
    if meld is not None:
        return meld
    jokers = [c for c in cards if c.is_joker]
    legal = _run_arrangements((), naturals, jokers, suit, rules.ace_mode)
    code, params = _why_not_in_order(cards, rules.ace_mode)
    if legal:
        params["did_you_mean"] = " or ".join(_written(m.cards) for m in legal)
    raise InvalidMeld(code, **params)


def _written(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _why_not_in_order(cards: Sequence[Card], mode: AceMode) -> tuple[str, dict[str, Any]]:
    """The refusal code and its parameters for a run that fails in the order submitted.

    First a pair of neighbouring naturals that cannot be that far apart; else a joker pushed past
    an end of the line (before a low Ace, after a high Ace, or after the King where the Ace is
    only low); else an Ace read low and high at once.
    """
    naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
    for (i, before), (j, after) in itertools.pairwise(naturals):
        if any(
            b - a == j - i
            for a in _candidate_positions(before.rank, mode)
            for b in _candidate_positions(after.rank, mode)
        ):
            continue
        if mode is AceMode.LOW_ONLY and after.rank == ACE and before.rank == KING:
            return "meld.run_ace_low_only", {"cards": _written(cards)}
        if j == i + 1:
            return "meld.run_order_next", {"card": after.pretty, "previous": before.pretty}
        return "meld.run_order_gap", {
            "card": after.pretty,
            "previous": before.pretty,
            "places": j - i,
        }
    first, card = naturals[0]
    for start in _candidate_positions(card.rank, mode):
        positions = [start - first + k for k in range(len(cards))]
        fits = all(
            c.is_joker or _rank_of_position(p) == c.rank
            for c, p in zip(cards, positions, strict=True)
        )
        if not fits:
            continue
        outside = [c for c, p in zip(cards, positions, strict=True) if not 1 <= p <= _top(mode)]
        if any(not c.is_joker for c in outside):
            break  # a natural Ace both after the King and before the 2
        if positions[0] < 1:
            after = next(c for c in cards if not c.is_joker)
            return "meld.run_joker_below", {"card": after.pretty}
        last = next(c for c in reversed(cards) if not c.is_joker)
        code = "meld.run_joker_above" if mode is AceMode.LOW_HIGH else "meld.run_joker_above_king"
        return code, {"card": last.pretty}
    return "meld.run_no_wrap", {"cards": _written(cards)}


# ---------------------------------------------------------------------------------------------
# Public API


def make_meld(cards: Sequence[Card], rules: Rules) -> Meld:
    """The run or set that ``cards`` form *in the order given*, with what each joker stands for.

    The order is the player's (RULES.md §1.5): ``6♦ JK 8♦`` makes the joker 7♦, ``JK 6♥ 7♥``
    makes it 5♥, and nothing is rearranged. Raises :class:`InvalidMeld` when the cards are no
    meld as written; when another order would be one, the refusal's ``did_you_mean`` parameter
    (and its sentence) names it — :func:`arrangements` gives those orders as melds.
    """
    if len(cards) < 3:
        raise InvalidMeld("meld.too_short", count=len(cards))
    naturals = [c for c in cards if not c.is_joker]
    _check_joker_limit(len(naturals), len(cards) - len(naturals), rules)
    if len({c.rank for c in naturals}) == 1:
        return _build_set(cards, rules)
    return _build_run(cards, rules)


def arrangements(cards: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every legal meld made of exactly ``cards`` in some order (an unordered selection).

    A set has one arrangement (the order of a set changes nothing); a run has one per place its
    spare jokers can take (a joker beside ``Q♥ K♥`` is J♥ low or A♥ high), the all-high one
    first. Empty when the cards form no meld in any order (it raises nothing). A UI lays the
    only arrangement directly and asks the player when there are several.
    """
    try:
        if len(cards) < 3:
            return []
        naturals = [c for c in cards if not c.is_joker]
        _check_joker_limit(len(naturals), len(cards) - len(naturals), rules)
        if len({c.rank for c in naturals}) == 1:
            return [_build_set(cards, rules)]
        suit = naturals[0].suit
        assert suit is not None
        _check_run_cards(cards, suit)
    except InvalidMeld:
        return []
    jokers = [c for c in cards if c.is_joker]
    return _run_arrangements((), naturals, jokers, suit, rules.ace_mode)


def extend_meld(meld: Meld, added: Sequence[Card], rules: Rules, end: End | None = None) -> Meld:
    """Lay off ``added`` on ``meld``: runs grow at their ends, sets up to four different suits.

    On a run, jokers first fill the places between the run and the added naturals; a spare joker
    goes to ``end``. With ``end=None`` it goes high when it can and low otherwise (what every
    lay-off did before ends could be named, so old game logs replay the same). Raises
    :class:`InvalidMeld` when the cards do not extend the meld, or not at the end named.
    """
    if not added:
        raise InvalidMeld("meld.nothing_added")
    naturals = [c for c in added if not c.is_joker]
    jokers = [c for c in added if c.is_joker]
    _check_joker_limit(
        sum(not c.is_joker for c in meld.cards) + len(naturals), meld.jokers + len(jokers), rules
    )
    if meld.is_set:
        return _extend_set(meld, added, rules)
    return _extend_run(meld, naturals, jokers, rules, end)


def layoff_ends(meld: Meld, added: Sequence[Card], rules: Rules) -> list[End]:
    """The ends a spare joker of ``added`` may take on run ``meld`` (low first).

    Two ends mean the player must choose (the choice decides which card can swap the joker
    later); one or none mean there is nothing to ask. Sets and lay-offs without a spare joker
    give none. Raises nothing (cards that cannot extend the meld give no end).
    """
    if meld.is_set or not any(c.is_joker for c in added):
        return []
    results = {}
    for end in (End.LOW, End.HIGH):
        try:
            results[end] = extend_meld(meld, added, rules, end)
        except InvalidMeld:
            continue
    if len(results) == 2 and results[End.LOW] == results[End.HIGH]:
        return []  # no spare joker: it fills a gap, wherever the player would put it
    return list(results)


def joker_candidates(meld: Meld, index: int) -> list[Face]:
    """The cards the joker at ``meld.cards[index]`` may stand for (RULES.md §1.5).

    One card for a run's joker and a four-card set's; for a three-card set, every missing suit
    (the joker is "one of the missing suits" until the fourth card decides). Raises
    :class:`ValueError` when that card is not a joker.
    """
    if not meld.cards[index].is_joker:
        raise ValueError(f"{meld.cards[index].pretty} at place {index + 1} is not a joker")
    face = meld.stands_for[index]
    if face.suit is not None:
        return [face]
    held = {f.suit for f in meld.stands_for}
    return [Face(face.rank, s) for s in Suit if s not in held]


def _extend_set(meld: Meld, added: Sequence[Card], rules: Rules) -> Meld:
    wrong = next((c for c in added if not c.is_joker and c.rank != meld.rank), None)
    if wrong is not None:
        raise InvalidMeld(
            "meld.set_wrong_rank", card=wrong.pretty, rank=Face(meld.rank, Suit.SPADES).text[:-1]
        )
    if len(meld.cards) + len(added) > 4:
        raise InvalidMeld("meld.set_full")
    return _build_set(meld.cards + tuple(added), rules)


def _extend_run(
    meld: Meld,
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    rules: Rules,
    end: End | None,
) -> Meld:
    suit = meld.suit
    assert suit is not None
    odd = next((c for c in naturals if c.suit != suit), None)
    if odd is not None:
        raise InvalidMeld("meld.run_mixed_suits", card=odd.pretty, suit=suit.symbol)
    fixed = list(zip(meld.cards, meld.positions, strict=True))
    ends = (End.HIGH, End.LOW) if end is None else (end,)
    arranged = _extensions(fixed, naturals, jokers, suit, rules.ace_mode, ends)
    if not arranged:
        added = _written((*naturals, *jokers))
        if end is not None and _extensions(fixed, naturals, jokers, suit, rules.ace_mode):
            raise InvalidMeld("meld.run_cannot_extend_at", cards=added, end=end.value)
        raise InvalidMeld("meld.run_cannot_extend", cards=added)
    return arranged[0]


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
