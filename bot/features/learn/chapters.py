"""The course, as data: each chapter is one declaration (its picture's cards, its sentence keys,
its exercises, see :mod:`bot.features.learn.exercises`), in order.

A chapter's words are keys ``learn.<chapter>.title`` and ``learn.<chapter>.page``; an
exercise's question ``learn.<chapter>.<n>`` (``n`` from 1), all in this feature's ``words.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.features.learn.exercises import (
    R51,
    R71,
    TAKE,
    Allowed,
    Bar,
    Exercise,
    Extends,
    Frees,
    IsMeld,
    Limit,
    OpeningValue,
    Opens,
    Penalty,
    PickMeld,
    RoundScore,
    SidePenalty,
    discard,
    lay,
    swap,
)
from rummy_engine import Card, MeldKind, Phase, Position, Rules, Variant


@dataclass(frozen=True)
class Chapter:
    """One chapter: its key (its words are ``learn.<key>.*``), the melds its picture shows,
    the rules they follow, and its exercises in order."""

    key: str
    picture: str  # melds in /rummy lay notation, "5h 6h 7h | 9s 9d 9c"
    exercises: tuple[Exercise, ...]
    rules: Rules = R51

    def picture_groups(self) -> tuple[tuple[Card, ...], ...]:
        return OpeningValue(self.picture, self.rules).groups


# The hands of the turn and opening chapters: seat 1's is never shown.
_OTHER = "2c 3c 4d 6s 8s 9s Jc Qd 3h 5h Kc 4s 9h 10d"
_DRAW = Position(
    R51,
    hands=("5h 6h 7h 9c Jd Qd Kd 2s 3s 8c 10h Ac 4d 6c", _OTHER),
    discard="8d 7s",
    dealer=1,
)


def _playing(hand: str, rules: Rules = R51, **facts: Any) -> Position:
    """Seat 0 holding ``hand`` in its play phase, against ``_OTHER``, 8♦ on the pile."""
    return Position(rules, hands=(hand, _OTHER), discard="8d", phase=Phase.PLAY, dealer=1, **facts)


_TAKEN = _playing(
    "9c Jd Qd Kd 2s 3s 8c 10h Ac 4d 6c 7s",
    table=(("5h 6h 7h 8h 9h 10h Jh", 0),),
    opened=(0,),
    taken="7s",
)
_DREW = _playing("5h 6h 7h 9c Jd Qd Kd 2s 3s 8c 10h Ac 4d 6c 4s", drawn="4s")
_OPEN_71 = _playing("5h 6h 7h 8h Jd Qd Kd JK 9s 9c 9d 2h Ac 4s 6c", R71, drawn="4s")

_BAR = Position(
    R51,
    hands=("5h 6h 7h 9c Jd Qd Kd 2s 3s 8c 10h Ac 4d 6c 4s", "3d 5d 7d 9d Jh Qh 3h 4h"),
    table=(("Jc Qc Kc", 1), ("10s 10h 10d", 1)),
    discard="8d",
    phase=Phase.PLAY,
    drawn="4s",
    opened=(1,),
    bar=61,
    bar_side=1,
    dealer=1,
)
_TABLE = Position(
    R51,
    hands=("4h 8h 9h 6d 9s Qh Kc 2c 3s", "2d 3c 4d 6s 8s 9d Jc Qd"),
    table=(("5h 6h 7h", 1), ("5d JK 7d", 1), ("JK 9d 9c", 1), ("JK Qs Qd Qc", 1)),
    opened=(0, 1),
    discard="8d",
    phase=Phase.PLAY,
    drawn="3s",
    dealer=1,
)
_FREED = Position(
    Rules(Variant.R51, 4),
    hands=(
        "5h 6h 7h 9c Jd Qd Kd 2s 3s 8c 10h Ac 4d 6c 4s",
        "2c 3c 4d 6s 8s 9s Jc Qd 3h 5h Kc 4s 9h 10d",
        "3d 5d 7d 9d Jh Qh 3h 4h",
        "2h 2d 5c 5s 6h 6s 7c 7s 8d 8h 9d Jc Js Kh",
    ),
    table=(("10s Js Qs Ks", 2), ("5c 5s 5d", 2)),
    opened=(2,),
    bar=56,
    bar_side=0,
    discard="8d",
    phase=Phase.PLAY,
    drawn="4s",
    dealer=3,
)
_OPENS_66 = Position(
    Rules(Variant.R51, 4),
    hands=(
        "7h 8h 9h Qs Qd Qc 3d 4d 5d Kc 2s 6c 10h Ac 8d",
        "2c 3c 4d 6s 8s 9s Jc Qd 3h 5h Kc 4s 9h 10d",
        "3d 5d 7d 9d Jh Qh 3h 4h 2h Kd 10s 9c 6d Jd",
        "2h 2d 5c 5s 6h 6s 7c 7s 8d 8h 9d Jc Js Kh",
    ),
    discard="10c",
    phase=Phase.PLAY,
    drawn="Ac",
    dealer=3,
)
_ALL_BUT_ONE = _playing("Ac 2c 3c 4c 5c 2h 2d 2s 3h 3d 3s 4h 5h 6h 9d", drawn="6h")
#: The seeds' 2-against-2 example: an opponent who laid and holds a King and a 4, the partner
#: with 8 cards, the other opponent who laid nothing.
_SIDES = "Ks 4d | 2h 2d 5c 5s 6h 6s 7c 7s | 3d 9d Jh"
BASIC = Rules(Variant.BASIC, 2)

#: The course, in order. A variant is ready once every chapter that names it is done.
CHAPTERS: tuple[Chapter, ...] = (
    Chapter(
        "melds",
        "5h 6h 7h | 9s 9d 9c | Qh Kh Ah | 5d JK 7d",
        (
            PickMeld("4c 5c 6s 7c 6c 9d", MeldKind.RUN),
            PickMeld("8s 8h 8h 8d 5c Kd", MeldKind.SET),
            IsMeld("Kh Ah 2h"),
            IsMeld("Qs Ks As"),
            IsMeld("7c JK 9c"),
            IsMeld("JK JK 4d"),
        ),
    ),
    Chapter(
        "opening",
        "10h Jh Qh | Ks Kh Kd",
        (
            OpeningValue("10h Jh Qh | Ks Kh Kd"),
            OpeningValue("Ah 2h 3h | Qs Ks As"),
            OpeningValue("5h JK 7h | 9s 9d 9c", R71),
            Opens(_DREW),
            Opens(_OPEN_71),
            Allowed(_BAR, lay("2s 3s 4s | 5h 6h 7h | Jd Qd Kd")),
            Allowed(_FREED, lay("5h 6h 7h")),
            Bar(_OPENS_66, "7h 8h 9h | Qs Qd Qc | 3d 4d 5d"),
        ),
    ),
    Chapter(
        "turn",
        "5h 6h 7h",
        (
            Allowed(_DRAW, discard("9c")),
            Allowed(_DRAW, TAKE),
            Allowed(_DREW, lay("5h 6h 7h")),
            Allowed(_TAKEN, discard("7s")),
            Allowed(_TAKEN, discard("9c")),
        ),
    ),
    Chapter(
        "add",
        "5h 6h 7h | 5d JK 7d | JK 9d 9c | JK Qs Qd Qc",
        (
            Extends(_TABLE, 1),
            Frees(_TABLE, 2),
            Allowed(_TABLE, swap(3, "9s")),
            Allowed(_TABLE, swap(4, "Qh")),
        ),
    ),
    Chapter(
        "score",
        "Ah Ks JK",
        (
            Penalty("Ah Ks JK"),
            Penalty("Ah Ks JK", laid=False),
            SidePenalty(_SIDES, (True, False, False), Rules(Variant.R51, 4)),
            SidePenalty(_SIDES, (True, False, False), Rules(Variant.SIMPLE, 4)),
            Limit(Rules(Variant.R71, 4)),
            Limit(Rules(Variant.SIMPLE, 2)),
            Allowed(
                _ALL_BUT_ONE,
                lay("Ac 2c 3c 4c 5c | 2h 2d 2s | 3h 3d 3s | 4h 5h 6h"),
                "learn.answer.rami_sec",
            ),
        ),
    ),
    Chapter(
        "basic",
        "Ah 2h 3h | 7s 7d 7c",
        (
            IsMeld("Qh Kh Ah", BASIC),
            IsMeld("Ah 2h 3h", BASIC),
            Penalty("Ah Ks 7d", BASIC),
            RoundScore("Ks 8d | Qh 10c 5s", Rules(Variant.BASIC, 3), rummy=True),
        ),
        BASIC,
    ),
)

#: The chapters each variant needs (the rest of the course is for later chapters).
NEEDS: dict[Variant, tuple[str, ...]] = {
    Variant.R51: ("melds", "opening", "turn", "add", "score"),
    Variant.R71: ("melds", "opening", "turn", "add", "score"),
    Variant.SIMPLE: ("melds", "turn", "score"),
    Variant.BASIC: ("melds", "turn", "basic"),
}
#: The chapter key of the course's end.
END = "end"


def chapter(key: str) -> Chapter | None:
    return next((c for c in CHAPTERS if c.key == key), None)


def ready_for(finished: Sequence[str]) -> list[Variant]:
    """The variants whose chapters are all done."""
    done = set(finished)
    return [v for v, needed in NEEDS.items() if done.issuperset(needed)]
