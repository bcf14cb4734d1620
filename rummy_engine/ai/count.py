"""The score calculator (``/rummy-learn count``): what some melds are worth toward an opening, and what
the same cards would cost left in hand at the end of a round.

It reads the notation of ``/rummy lay`` and refuses what laying would refuse, so a player can
check an opening before trying it. Groups of one or two cards are not melds but loose cards
(counted for the penalty only), so ``As JK`` answers "what would these cost me?".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.cards import Card, Face, parse_meld_groups
from rummy_engine.errors import CardNotAvailable
from rummy_engine.melds import Meld, make_meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.values import (
    NEVER_LAID_PENALTY,
    SIMPLE_PENALTY,
    basic_value,
    opening_value,
    penalty_value,
)

MIN_MELD = 3


@dataclass(frozen=True)
class Count:
    """Opening value of the melds (R51/R71 rules; 0 where there is no opening) against the
    base ``threshold``, and what all the cards would cost in a loser's hand: ``penalty`` after
    laying something, ``never_laid`` for a player who laid nothing (Atlas flat 100), and in Simple
    the flat 100 whatever the cards."""

    melds: tuple[Meld, ...]
    loose: tuple[Card, ...]
    opening_value: int
    threshold: int
    penalty: int
    never_laid: int

    @property
    def opens(self) -> bool:
        return bool(self.melds) and self.opening_value >= self.threshold


def count(cards: str | Sequence[Sequence[Face]], rules: Rules) -> Count:
    """Count ``cards``: text like ``10s Js Qs Ks | 5h 5d 5c | As`` or groups of faces."""
    groups = parse_meld_groups(cards) if isinstance(cards, str) else [list(g) for g in cards]
    physical = _physical(groups, rules)
    melds = tuple(make_meld(g, rules) for g in physical if len(g) >= MIN_MELD)
    loose = tuple(c for g in physical if len(g) < MIN_MELD for c in g)
    every = [c for g in physical for c in g]
    value = opening_value(melds, rules) if rules.has_opening else 0
    penalty = _penalty(every, rules)
    never_laid = NEVER_LAID_PENALTY if rules.has_opening else penalty
    return Count(melds, loose, value, rules.opening_threshold, penalty, never_laid)


def _penalty(cards: Sequence[Card], rules: Rules) -> int:
    if rules.variant is Variant.SIMPLE:
        return SIMPLE_PENALTY
    price = penalty_value if rules.is_atlas else basic_value
    return sum(price(c) for c in cards)


def _physical(groups: Sequence[Sequence[Face]], rules: Rules) -> list[list[Card]]:
    """Real cards for the faces named, each copy once, refused past what the deck holds."""
    used: Counter[Face] = Counter()
    out = []
    for group in groups:
        cards = []
        for face in group:
            limit = rules.spec.jokers if face.is_joker else rules.spec.packs
            if used[face] >= limit:
                raise CardNotAvailable("count.too_many", card=face.pretty, limit=limit)
            cards.append(Card(face.rank, face.suit, used[face]))
            used[face] += 1
        out.append(cards)
    return out
