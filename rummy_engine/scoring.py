"""What a finished round is worth (RULES.md §2.7, §7), as a pure function of the hands.

The state machine scores a round with it when a player goes out, and a score calculator or a
hint asks it "what if seat 2 went out now?" with the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.cards import Card
from rummy_engine.rules import Rules
from rummy_engine.values import basic_value, hand_penalty


@dataclass(frozen=True)
class RoundPoints:
    """``penalties[seat]``: what each Atlas seat pays (0 for the winner's side, and in Basic,
    where nobody pays); ``points[side]``: what each side's total gains this round."""

    penalties: tuple[int, ...]
    points: tuple[int, ...]


def round_points(
    hands: Sequence[Sequence[Card]],
    laid_any: Sequence[bool],
    winner: int,
    rules: Rules,
    *,
    rummy: bool = False,
) -> RoundPoints:
    """The points of a round that ``winner`` ends by going out, with the others holding
    ``hands`` (the winner's own hand is ignored).

    Atlas: every seat of the other side pays :func:`~rummy_engine.values.hand_penalty`, summed
    per side. Basic: the winner gains the Basic value of every other hand, doubled when the
    win is a ``rummy`` (everything laid in one turn). Raises :class:`ValueError` when the
    hands or flags do not match the seat count or ``winner`` is not a seat.
    """
    n = rules.players
    if len(hands) != n or len(laid_any) != n or not 0 <= winner < n:
        raise ValueError(f"{n} hands and laid flags and a winner among seats 0 to {n - 1} needed")
    penalties = [0] * n
    points = [0] * rules.sides
    if rules.is_atlas:
        for seat in range(n):
            if rules.side_of(seat) != rules.side_of(winner):
                penalties[seat] = hand_penalty(hands[seat], laid_any[seat], rules)
                points[rules.side_of(seat)] += penalties[seat]
    else:
        gain = sum(basic_value(c) for s in range(n) if s != winner for c in hands[s])
        points[winner] = gain * (2 if rummy else 1)
    return RoundPoints(tuple(penalties), tuple(points))
