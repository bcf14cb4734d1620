"""The actions a player (or the table) can take, as frozen values with a JSON form.

Actions name cards by :class:`~rummy_engine.cards.Face` (what a player types); the state machine
picks the physical copies deterministically, so a game is replayable from its action log.
:func:`parse_lay` / :func:`format_lay` are the text form of a lay-down (``7h 8h 9h | +3 JK low``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rummy_engine.cards import Face, parse_face, parse_faces
from rummy_engine.errors import NotationError
from rummy_engine.melds import End


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
    """One lay-down: new melds from the hand and/or lay-offs onto table melds (by index).

    Each meld's faces are in the order the player wants them on the table (a joker's place
    decides what it stands for). ``ends[i]`` is where a spare joker of ``layoffs[i]`` goes on a
    run when it could go to either end; a missing or None entry means the high end when both
    are legal (how lay-offs were read before ends existed, so old logs replay unchanged).
    """

    seat: int
    melds: tuple[tuple[Face, ...], ...] = ()
    layoffs: tuple[tuple[int, tuple[Face, ...]], ...] = ()
    ends: tuple[End | None, ...] = ()

    def end_of(self, layoff: int) -> End | None:
        """The end named for lay-off number ``layoff`` (None when not named)."""
        return self.ends[layoff] if layoff < len(self.ends) else None


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
        case Lay(seat, melds, layoffs, ends):
            data: dict[str, Any] = {
                "type": "lay",
                "seat": seat,
                "melds": [_faces(m) for m in melds],
                "layoffs": [[i, _faces(cards)] for i, cards in layoffs],
            }
            if any(ends):  # absent unless named, so older readers and logs see the same JSON
                data["ends"] = [e.value if e else None for e in ends]
            return data
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
            tuple(End(e) if e else None for e in data.get("ends", ())),
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


_END_WORDS = {"low": End.LOW, "high": End.HIGH}


def parse_lay(seat: int, text: str) -> Lay:
    """Read a lay-down as players type it: melds separated by ``|`` (or ``/``), each in the order
    it goes on the table; a group starting ``+N`` adds to table meld N (numbered from 1), and
    the word ``low`` or ``high`` in it names the end a spare joker takes
    (``7h 8h 9h | +3 JK low``).

    Raises :class:`NotationError` for an unreadable card, an end word outside a ``+N`` group,
    or nothing to lay.
    """
    melds: list[tuple[Face, ...]] = []
    layoffs: list[tuple[int, tuple[Face, ...]]] = []
    ends: list[End | None] = []
    for group in text.replace("/", "|").split("|"):
        words = group.split()
        if not words:
            continue
        if words[0].startswith("+") and words[0][1:].isdigit():
            named = [_END_WORDS[w.lower()] for w in words[1:] if w.lower() in _END_WORDS]
            cards = [w for w in words[1:] if w.lower() not in _END_WORDS]
            if len(named) > 1:
                raise NotationError("notation.two_ends", group=group.strip())
            layoffs.append((int(words[0][1:]) - 1, tuple(parse_faces(" ".join(cards)))))
            ends.append(named[0] if named else None)
        elif any(w.lower() in _END_WORDS for w in words):
            raise NotationError("notation.end_outside_layoff", group=group.strip())
        else:
            melds.append(tuple(parse_faces(group)))
    if not melds and not layoffs:
        raise NotationError("notation.no_cards")
    return Lay(seat, tuple(melds), tuple(layoffs), tuple(ends) if any(ends) else ())


def format_lay(lay: Lay) -> str:
    """The text :func:`parse_lay` reads back into ``lay`` (seat aside). Raises nothing."""
    groups = [" ".join(_faces(m)) for m in lay.melds]
    for k, (index, faces) in enumerate(lay.layoffs):
        end = lay.end_of(k)
        groups.append(f"+{index + 1} " + " ".join(_faces(faces)) + (f" {end.value}" if end else ""))
    return " | ".join(groups)
