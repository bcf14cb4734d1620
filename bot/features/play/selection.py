"""Cards chosen in a select, carried inside a button's custom_id between two clicks.

Discord keeps no state between a select and the button pressed after it, so the chosen cards
ride in the custom_id, two characters a card (``7h``, ``Th`` for 10, ``JK``): a full 25-card
choice fits Discord's 100-character limit with room for the table, turn and action.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy_engine import Card, Face, NotationError, Rules, parse_face
from rummy_engine.melds import Meld, arrangements
from rummy_engine.solver import find_melds


def encode(faces: Sequence[Face]) -> str:
    return "".join(
        "JK" if f.is_joker else f.text.replace("10", "T")[:1] + f.text[-1] for f in faces
    )


def decode(text: str) -> list[Face]:
    """The faces of an encoded choice; a damaged custom_id raises a NotationError."""
    if len(text) % 2:
        raise NotationError("notation.bad_card", token=text)
    return [parse_face(text[i : i + 2]) for i in range(0, len(text), 2)]


def encode_melds(melds: Sequence[Sequence[Face]]) -> str:
    """A whole lay-down (melds in order) as one select value: encoded melds joined by ``_``."""
    return "_".join(encode(m) for m in melds)


def decode_melds(text: str) -> tuple[tuple[Face, ...], ...]:
    """The melds of :func:`encode_melds`; a damaged value raises a NotationError."""
    return tuple(tuple(decode(part)) for part in text.split("_"))


def partition(cards: Sequence[Card], rules: Rules) -> list[list[Meld]] | None:
    """Split chosen cards into melds (so "Lay" works for a whole opening at once), each given
    as its legal arrangements (:func:`rummy_engine.arrangements`): a selection has no order.

    The whole selection as one meld is tried first; otherwise an exact cover by the melds the
    solver finds, always covering the lowest remaining card first. None when there is none.
    """
    whole = arrangements(list(cards), rules)
    if whole:
        return [whole]
    shapes = list({frozenset(m.cards): m.cards for m in find_melds(cards, rules)}.values())

    def cover(rest: list[Card]) -> list[tuple[Card, ...]] | None:
        if not rest:
            return []
        first = rest[0]
        for shape in shapes:
            if first in shape and all(c in rest for c in shape):
                tail = cover([c for c in rest if c not in shape])
                if tail is not None:
                    return [shape, *tail]
        return None

    groups = cover(list(cards))
    return None if groups is None else [arrangements(list(g), rules) for g in groups]
