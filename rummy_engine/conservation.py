"""Every card exactly once: the check a stored snapshot and a built position must pass.

A position holds the whole deck of its variant (RULES.md §1.2) spread over named zones — hands,
table melds, the discard pile, the stock. A card missing, in two zones, or not of this deck at
all means the position was edited or corrupted, and playing on would hide the damage.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rummy_engine.cards import Card, make_deck, sort_key
from rummy_engine.errors import InvalidPosition
from rummy_engine.rules import Rules

Zone = tuple[str, Sequence[Card]]
"""A place cards lie in, named for the error message ("seat 1's hand"), and its cards."""


@functools.lru_cache(maxsize=16)
def _deck(packs: int, jokers: int) -> tuple[tuple[Card, ...], frozenset[Card]]:
    """The deck in order and as a set, built once per variant (checked at every game load)."""
    deck = tuple(make_deck(packs, jokers))
    return deck, frozenset(deck)


def check_conservation(zones: Sequence[Zone], rules: Rules) -> None:
    """Raise :class:`InvalidPosition` unless ``zones`` hold every card of the deck exactly once.

    Codes: ``position.foreign_card`` (not in this variant's deck), ``position.card_twice``
    (in two places, or twice in one), ``position.missing_cards`` (nowhere). The first problem
    found is reported, in that order.
    """
    deck, known = _deck(rules.spec.packs, rules.spec.jokers)
    where: dict[Card, list[str]] = {}
    for name, cards in zones:
        for card in cards:
            where.setdefault(card, []).append(name)
    for card, places in where.items():
        if card not in known:
            raise InvalidPosition(
                "position.foreign_card",
                card=card.key,
                place=places[0],
                variant=rules.variant.value,
                packs=rules.spec.packs,
                jokers=rules.spec.jokers,
            )
    for card, places in where.items():
        if len(places) > 1:
            raise InvalidPosition("position.card_twice", card=card.key, places=", ".join(places))
    missing = sorted((c for c in deck if c not in where), key=sort_key)
    if missing:
        raise InvalidPosition(
            "position.missing_cards",
            count=len(missing),
            cards=" ".join(c.key for c in missing),
        )
