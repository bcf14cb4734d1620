"""The actions a player (or the table) can take, as frozen values with a JSON form.

Actions name cards by :class:`~rummy_engine.cards.Face` (what a player types); the state machine
picks the physical copies deterministically, so a game is replayable from its action log.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rummy_engine.cards import Face, parse_face


class Source(enum.Enum):
    STOCK = "stock"
    DISCARD = "discard"


@dataclass(frozen=True)
class Draw:
    """Draw the top of the stock, or take the top discard."""

    seat: int
    source: Source = Source.STOCK


@dataclass(frozen=True)
class Lay:
    """One lay-down: new melds from the hand and/or lay-offs onto table melds (by index)."""

    seat: int
    melds: tuple[tuple[Face, ...], ...] = ()
    layoffs: tuple[tuple[int, tuple[Face, ...]], ...] = ()


@dataclass(frozen=True)
class Swap:
    """Give ``card`` to table meld ``meld`` and take back the joker that stands for it."""

    seat: int
    meld: int
    card: Face


@dataclass(frozen=True)
class Discard:
    seat: int
    card: Face


@dataclass(frozen=True)
class UndoTake:
    """Put a taken discard back (RULES.md §2.4 ``discard_take_failure``)."""

    seat: int


@dataclass(frozen=True)
class StartRound:
    """Deal the next round once the previous one is over."""


@dataclass(frozen=True)
class Resign:
    """A player leaves the game: their side loses at once (a forfeit)."""

    seat: int


Action = Draw | Lay | Swap | Discard | UndoTake | StartRound | Resign


def _faces(faces: tuple[Face, ...]) -> list[str]:
    return [f.text for f in faces]


def _read_faces(texts: list[str]) -> tuple[Face, ...]:
    return tuple(parse_face(t) for t in texts)


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as a JSON-ready dict (``type`` plus its fields, cards in notation)."""
    match action:
        case Draw(seat, source):
            return {"type": "draw", "seat": seat, "source": source.value}
        case Lay(seat, melds, layoffs):
            return {
                "type": "lay",
                "seat": seat,
                "melds": [_faces(m) for m in melds],
                "layoffs": [[i, _faces(cards)] for i, cards in layoffs],
            }
        case Swap(seat, meld, card):
            return {"type": "swap", "seat": seat, "meld": meld, "card": card.text}
        case Discard(seat, card):
            return {"type": "discard", "seat": seat, "card": card.text}
        case UndoTake(seat):
            return {"type": "undo_take", "seat": seat}
        case StartRound():
            return {"type": "start_round"}
        case Resign(seat):
            return {"type": "resign", "seat": seat}
    raise TypeError(f"not an action: {action!r}")


def action_from_json(data: dict[str, Any]) -> Action:
    kind = data["type"]
    if kind == "draw":
        return Draw(data["seat"], Source(data["source"]))
    if kind == "lay":
        return Lay(
            data["seat"],
            tuple(_read_faces(m) for m in data["melds"]),
            tuple((int(i), _read_faces(c)) for i, c in data["layoffs"]),
        )
    if kind == "swap":
        return Swap(data["seat"], data["meld"], parse_face(data["card"]))
    if kind == "discard":
        return Discard(data["seat"], parse_face(data["card"]))
    if kind == "undo_take":
        return UndoTake(data["seat"])
    if kind == "start_round":
        return StartRound()
    if kind == "resign":
        return Resign(data["seat"])
    raise ValueError(f"unknown action type {kind!r}")
