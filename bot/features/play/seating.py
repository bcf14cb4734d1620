"""Who sits where: the lobby's seating rules, as pure functions over seat records.

Seats are numbered in turn order. In 2v2 partners sit opposite, so team A holds seats 0 and 2
and team B seats 1 and 3 (RULES.md §1.3); Basic rummy seats players in the order they joined.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import replace

from bot.services.refusal import Refusal
from bot.storage import SeatRecord
from rummy_engine import Variant
from rummy_engine.ai import Strength


class Mode(enum.Enum):
    ONE_V_ONE = "1v1"
    TWO_V_TWO = "2v2"
    FREE_FOR_ALL = "basic"

    @classmethod
    def for_variant(cls, variant: Variant, requested: str) -> Mode:
        """The mode a table of ``variant`` plays; Basic is always every player for themself."""
        if variant is Variant.BASIC:
            return cls.FREE_FOR_ALL
        try:
            mode = cls(requested)
        except ValueError:
            raise Refusal("lobby.bad_mode", mode=requested) from None
        if mode is cls.FREE_FOR_ALL:
            raise Refusal("lobby.bad_mode", mode=requested)
        return mode

    @property
    def capacity(self) -> int:
        return {Mode.ONE_V_ONE: 2, Mode.TWO_V_TWO: 4, Mode.FREE_FOR_ALL: 6}[self]

    @property
    def minimum(self) -> int:
        return 2 if self is Mode.FREE_FOR_ALL else self.capacity


TEAM_SEATS = {0: (0, 2), 1: (1, 3)}


def seat_of(seats: Sequence[SeatRecord], user_id: int) -> SeatRecord | None:
    return next((s for s in seats if s.user_id == user_id), None)


def join(
    seats: Sequence[SeatRecord],
    user_id: int,
    mode: Mode,
    team: int | None = None,
    *,
    name: str | None = None,
) -> list[SeatRecord]:
    """Seat ``user_id``; in 2v2 on ``team`` (0 = A, 1 = B) or on the team with a free seat."""
    if seat_of(seats, user_id) is not None:
        raise Refusal("lobby.already_seated")
    taken = {s.seat for s in seats}
    if len(taken) >= mode.capacity:
        raise Refusal("lobby.full", capacity=mode.capacity)
    if mode is Mode.TWO_V_TWO:
        teams = (
            [team]
            if team is not None
            else sorted((0, 1), key=lambda t: sum(s in taken for s in TEAM_SEATS[t]))
        )
        for wanted in teams:
            free = [s for s in TEAM_SEATS[wanted] if s not in taken]
            if free:
                return [*seats, SeatRecord(free[0], user_id, team=wanted, name=name)]
        raise Refusal("lobby.team_full", team="AB"[team or 0])
    if team is not None:
        raise Refusal("lobby.no_teams")
    seat = min(set(range(mode.capacity)) - taken)
    return [*seats, SeatRecord(seat, user_id, name=name)]


def add_computer(
    seats: Sequence[SeatRecord],
    mode: Mode,
    name: str,
    team: int | None = None,
    strength: Strength = Strength.NORMAL,
) -> list[SeatRecord]:
    """Seat a computer player of ``strength`` in the first free seat (of ``team`` in 2v2)."""
    marker = -1 - len(seats)  # a placeholder id so join() finds no one already seated
    joined = join(seats, marker, mode, team, name=name)
    computer = replace(joined[-1], user_id=None, is_computer=True, strength=strength.value)
    return [*seats, computer]


def strength_of(seat: SeatRecord) -> Strength:
    """How a computer seat plays; seats stored before strengths existed play normal."""
    return Strength(seat.strength) if seat.strength else Strength.NORMAL


def remove_computer(seats: Sequence[SeatRecord]) -> list[SeatRecord]:
    computers = [s for s in seats if s.is_computer]
    if not computers:
        raise Refusal("lobby.no_computer")
    last = max(computers, key=lambda s: s.seat)
    return [s for s in seats if s is not last]


def leave(seats: Sequence[SeatRecord], user_id: int) -> list[SeatRecord]:
    if seat_of(seats, user_id) is None:
        raise Refusal("lobby.not_seated")
    return [s for s in seats if s.user_id != user_id]


def ready(seats: Sequence[SeatRecord], mode: Mode) -> None:
    """Refuse to start a table that lacks players."""
    if len(seats) < mode.minimum:
        raise Refusal("lobby.not_enough_players", needed=mode.minimum, count=len(seats))


def compact(seats: Sequence[SeatRecord], mode: Mode) -> list[SeatRecord]:
    """Turn order at the start: 2v2 keeps its fixed seats, others close the gaps in join order."""
    ordered = sorted(seats, key=lambda s: s.seat)
    if mode is Mode.TWO_V_TWO:
        return ordered
    return [replace(s, seat=i) for i, s in enumerate(ordered)]
