"""The three value tables of RULES.md §1.4, kept apart so they are never mixed."""

from __future__ import annotations

from collections.abc import Iterable

from rummy_engine.cards import ACE, Card
from rummy_engine.melds import Meld
from rummy_engine.rules import AceOpeningValue, Rules, Variant

HIGH_ACE = 14
NEVER_LAID_PENALTY = 100
SIMPLE_PENALTY = 100


def penalty_value(card: Card) -> int:
    """Atlas penalty for a card left in a loser's hand: faces 10, Ace 11, joker 20."""
    if card.is_joker:
        return 20
    if card.rank == ACE:
        return 11
    return min(card.rank, 10)


def basic_value(card: Card) -> int:
    """Bicycle value of a card in an opponent's hand: Ace 1, faces 10."""
    return min(card.rank, 10)


def hand_penalty(hand: Iterable[Card], laid_any: bool, rules: Rules) -> int:
    """What ``hand`` costs its holder if another side goes out now (RULES.md §2.7, §7).

    Simple: 100 whatever the hand. Rummy 51 / 71: 100 when the player has laid nothing this
    round (``laid_any`` False), else the sum of :func:`penalty_value`. Basic: the Basic value
    of the cards (what the winner gains from this hand; ``laid_any`` changes nothing). Raises
    nothing.
    """
    if rules.variant is Variant.SIMPLE:
        return SIMPLE_PENALTY
    if not rules.is_atlas:
        return sum(basic_value(c) for c in hand)
    if not laid_any:
        return NEVER_LAID_PENALTY
    return sum(penalty_value(c) for c in hand)


def _ace_value(high: bool, rules: Rules) -> int:
    mode = rules.options.ace_opening_value
    if mode is AceOpeningValue.ALWAYS_11:
        return 11
    if mode is AceOpeningValue.ALWAYS_1:
        return 1
    return 11 if high else 1


def _position_value(rank: int, ace_high: bool, rules: Rules) -> int:
    if rank == ACE:
        return _ace_value(ace_high, rules)
    return min(rank, 10)


def meld_opening_value(meld: Meld, rules: Rules) -> int:
    """Value of one meld toward an opening or the +1 bar (RULES.md §1.4b).

    Jokers count as the card they stand for in Rummy 51 and 0 in Rummy 71; an Ace counts 1
    low in a run and 11 high or in a set (``ace_opening_value`` may fix it). A set's
    undetermined joker counts its rank (its suit does not matter). Raises nothing.
    """
    total = 0
    for i, (card, face) in enumerate(zip(meld.cards, meld.stands_for, strict=True)):
        if card.is_joker and rules.variant is Variant.R71:
            continue
        if meld.is_set:
            total += _position_value(face.rank, True, rules)
        else:
            high = meld.positions[i] == HIGH_ACE or (face.rank == ACE and i > 0)
            total += _position_value(face.rank, high, rules)
    return total


def opening_value(melds: Iterable[Meld], rules: Rules) -> int:
    """The value of ``melds`` laid together toward an opening or the +1 bar (RULES.md §1.4b):
    the sum of :func:`meld_opening_value`. Raises nothing."""
    return sum(meld_opening_value(m, rules) for m in melds)
