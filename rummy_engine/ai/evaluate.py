"""How much a hand is worth keeping, and how dangerous a discard is: the one evaluation that the
computer players (every strength) and the hints share.

A hand's worth is the best arrangement of its cards into melds, with loose cards costing their
penalty and earning a little when they half-make a meld whose missing cards are still live. The
meld search runs once per decision over the largest hand in question; its memo depends only on the
cards still unplaced, so "this hand minus one card" costs almost nothing afterwards, which is what
keeps a computer turn within a few milliseconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummy_engine.cards import ACE, Card, Face, Suit
from rummy_engine.melds import Meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.solver import extension_targets, find_melds
from rummy_engine.values import basic_value, penalty_value

NATURAL = 100  # a natural card placed in a meld
LOOSE_JOKER = 90  # a joker in hand will almost surely place a card or two later
LINK = 30  # a loose card that half-makes a meld with another loose card


@dataclass(frozen=True)
class Weights:
    """What a strength cares about: ``penalty`` scales the price of loose cards, ``joker_cost``
    is what putting a joker in a meld gives up, ``live`` whether dead draws are noticed."""

    penalty: float
    joker_cost: int
    live: bool


@dataclass(frozen=True)
class Arrangement:
    """The melds a hand is best split into, and the cards left over."""

    melds: tuple[Meld, ...]
    loose: tuple[Card, ...]
    score: float


@dataclass(frozen=True)
class _Candidate:
    items: tuple[int, ...]
    jokers: int
    value: float
    meld: Meld


def price(card: Card, rules: Rules) -> int:
    """What the card costs if a round ends with it in hand (Simple's flat 100 does not count)."""
    if rules.variant is Variant.SIMPLE:
        return 0
    return penalty_value(card) if rules.is_atlas else basic_value(card)


class HandModel:
    """Meld candidates of ``cards`` and a memoised best split of any sub-multiset of them."""

    def __init__(
        self, cards: Sequence[Card], rules: Rules, weights: Weights, seen: Counter[Face]
    ) -> None:
        self.rules = rules
        self.weights = weights
        self.seen = seen
        self.faces = sorted({c.face for c in cards if not c.is_joker})
        self.index = {face: i for i, face in enumerate(self.faces)}
        self.by_low: list[list[_Candidate]] = [[] for _ in self.faces]
        self.memo: dict[tuple[tuple[int, ...], int], tuple[float, _Candidate | None]] = {}
        self.loose_cost = [
            weights.penalty * price(Card(f.rank, f.suit), rules) for f in self.faces
        ]
        keys: set[tuple[tuple[int, ...], int]] = set()
        for meld in find_melds(cards, rules):
            items = tuple(sorted(self.index[c.face] for c in meld.cards if not c.is_joker))
            if (items, meld.jokers) in keys:
                continue
            keys.add((items, meld.jokers))
            value = NATURAL * len(items) + (NATURAL - weights.joker_cost) * meld.jokers
            self.by_low[items[0]].append(_Candidate(items, meld.jokers, value, meld))
        for row in self.by_low:
            row.sort(key=lambda c: -c.value)

    def counts(self, cards: Iterable[Card]) -> tuple[tuple[int, ...], int]:
        counts = [0] * len(self.faces)
        jokers = 0
        for card in cards:
            if card.is_joker:
                jokers += 1
            else:
                counts[self.index[card.face]] += 1
        return tuple(counts), jokers

    def _best(self, counts: tuple[int, ...], jokers: int) -> float:
        key = (counts, jokers)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        low = next((i for i, n in enumerate(counts) if n), -1)
        if low < 0:
            self.memo[key] = (jokers * (LOOSE_JOKER - 20 * self.weights.penalty), None)
            return self.memo[key][0]
        rest = list(counts)
        rest[low] -= 1
        best = self._best(tuple(rest), jokers) - self.loose_cost[low]
        choice = None
        for cand in self.by_low[low]:
            if cand.jokers > jokers or any(counts[i] == 0 for i in cand.items):
                continue
            left = list(counts)
            for i in cand.items:
                left[i] -= 1
            value = cand.value + self._best(tuple(left), jokers - cand.jokers)
            if value > best:
                best, choice = value, cand
        self.memo[key] = (best, choice)
        return best

    def arrange(self, cards: Sequence[Card]) -> Arrangement:
        """The best split of ``cards`` (a sub-multiset of the model's cards) and its worth."""
        counts, jokers = self.counts(cards)
        score = self._best(counts, jokers)
        melds: list[Meld] = []
        while True:
            choice = self.memo[(counts, jokers)][1]
            low = next((i for i, n in enumerate(counts) if n), -1)
            if low < 0:
                break
            left = list(counts)
            used = choice.items if choice is not None else (low,)
            for i in used:
                left[i] -= 1
            if choice is not None:
                melds.append(choice.meld)
                jokers -= choice.jokers
            counts = tuple(left)
        loose = _loose(cards, melds)
        return Arrangement(tuple(melds), loose, score + self._links(loose))

    def _links(self, loose: Sequence[Card]) -> float:
        naturals = [c for c in loose if not c.is_joker]
        return sum(LINK for c in naturals if any(self._linked(c, o) for o in naturals if o != c))

    def _linked(self, card: Card, other: Card) -> bool:
        """Two loose cards that a third card would turn into a meld, if that card is live."""
        if card.face == other.face:
            return False
        if card.rank == other.rank:
            wanted = [Face(card.rank, s) for s in Suit if s not in (card.suit, other.suit)]
        elif card.suit == other.suit and abs(_pos(card, other) - _pos(other, card)) <= 2:
            wanted = _run_fillers(card, other)
        else:
            return False
        if not self.weights.live:
            return True
        return any(self.seen[f] < 2 for f in wanted)


def _pos(card: Card, other: Card) -> int:
    """A rank on the run line, an Ace counting high next to a King or Queen."""
    return 14 if card.rank == ACE and other.rank >= 12 else card.rank


def _run_fillers(card: Card, other: Card) -> list[Face]:
    low, high = sorted((_pos(card, other), _pos(other, card)))
    suit = card.suit
    ranks = [low + 1] if high - low == 2 else [low - 1, high + 1]
    return [Face(ACE if r == 14 else r, suit) for r in ranks if 1 <= r <= 14]


def _loose(cards: Sequence[Card], melds: Sequence[Meld]) -> tuple[Card, ...]:
    """The cards of ``cards`` not used by ``melds`` (melds name faces; copies are alike)."""
    used = Counter(c.face for m in melds for c in m.cards)
    loose = []
    for card in cards:
        if used[card.face]:
            used[card.face] -= 1
        else:
            loose.append(card)
    return tuple(loose)


def near(card: Card, other: Card) -> bool:
    """Whether the two cards could sit in one meld (same rank, or close in one suit)."""
    if card.is_joker or other.is_joker:
        return True
    if card.rank == other.rank:
        return card.suit != other.suit
    return card.suit == other.suit and abs(_pos(card, other) - _pos(other, card)) <= 2


def feeds(card: Card, table: Sequence[Meld], rules: Rules, taken: Sequence[Card]) -> int:
    """How badly discarding ``card`` helps the player after: 2 if it lays off on a table meld
    (``table`` holds only what they may extend), 1 if it joins a card they took from the pile."""
    if table and extension_targets(card, table, rules):
        return 2
    return 1 if any(near(card, t) for t in taken) else 0
