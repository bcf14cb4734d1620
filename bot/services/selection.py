"""Cards chosen in a select, carried inside a button's custom_id between two clicks.

Discord keeps no state between a select and the button pressed after it, so the chosen cards
ride in the custom_id, two characters a card (``7h``, ``Th`` for 10, ``JK``): a full 25-card
choice fits Discord's 100-character limit with room for the table, turn and action.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy_engine import Card, Face, NotationError, Rules, parse_face
from rummy_engine.melds import Meld, make_meld
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


def partition(cards: Sequence[Card], rules: Rules) -> list[Meld] | None:
    """Split chosen cards into valid melds (so "Lay" works for a whole opening at once).

    One meld in the order chosen is tried first; otherwise an exact cover by the melds the
    solver finds, always covering the lowest remaining card first.
    """
    try:
        return [make_meld(list(cards), rules)]
    except NotationError:
        raise
    except ValueError:
        pass
    candidates = find_melds(cards, rules)

    def cover(rest: list[Card]) -> list[Meld] | None:
        if not rest:
            return []
        first = rest[0]
        for meld in candidates:
            if first in meld.cards and all(c in rest for c in meld.cards):
                tail = cover([c for c in rest if c not in meld.cards])
                if tail is not None:
                    return [meld, *tail]
        return None

    return cover(list(cards))
