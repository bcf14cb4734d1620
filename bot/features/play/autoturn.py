"""The turn played for a player whose time ran out: the safest moves the rules allow.

Why these moves: a timed-out turn must not help or hurt the absent player beyond what any
player could have done, and must never reveal their hand. So: draw from the stock (never the
discard), lay nothing, discard the card just drawn, else the card costing the most penalty
points. A taken discard that must be used is put back first (RULES.md §2.4), which draws from
the stock in its place. Every step is an ordinary engine action, verified and logged like any
other move.
"""

from __future__ import annotations

from bot.services.refusal import Refusal
from rummy_engine import (
    Action,
    Card,
    Discard,
    Draw,
    Game,
    Phase,
    RuleViolation,
    UndoTake,
    basic_value,
    penalty_value,
)


def timeout_action(game: Game, seat: int) -> Action:
    """The next action of a timed-out turn for ``seat`` (the game must be at its turn)."""
    if game.phase is Phase.DRAW:
        return Draw(seat)
    if game.phase is not Phase.PLAY:
        raise RuleViolation("turn.round_over")
    hand = game.hands[seat]
    if game.rules.must_use_discard and game.taken is not None and game.taken in hand:
        return UndoTake(seat)
    for card in discard_order(game, seat):
        action = Discard(seat, card.face)
        if game.can(action):
            return action
    raise Refusal("timer.stuck")


def discard_order(game: Game, seat: int) -> list[Card]:
    """The cards to try discarding: the one just drawn, then the costliest first."""
    value = penalty_value if game.rules.is_atlas else basic_value
    hand = list(game.hands[seat])
    ordered = sorted(hand, key=lambda c: (-value(c), c.text))
    drawn = game.drawn
    if drawn is not None and drawn in hand:
        ordered.remove(drawn)
        ordered.insert(0, drawn)
    return ordered
