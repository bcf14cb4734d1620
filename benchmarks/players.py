"""Benchmark opponents that are not part of the engine: the computer player as it was before
issue 12 (``baseline``) and a plain greedy player (``greedy``).

Why here and not in the engine: they exist only to measure the engine's strengths against, and
both read the :class:`Game` directly (they only look at their own hand, but nothing enforces it).
"""

from __future__ import annotations

import random

from rummy_engine.actions import Action, Discard, Draw, Lay, Source, StartRound, UndoTake
from rummy_engine.cards import Card
from rummy_engine.game import Game, Phase
from rummy_engine.melds import Meld
from rummy_engine.rules import Variant
from rummy_engine.solver import best_opening, extension_targets, find_melds, going_out
from rummy_engine.values import basic_value, penalty_value


def baseline(game: Game, rng: random.Random) -> Action:
    """A legal action for ``game.current`` (or the next round once a round is over)."""
    if game.phase is Phase.ROUND_OVER:
        return StartRound()
    if game.phase is Phase.DRAW:
        return _draw(game, rng)
    for plan in (_go_out, _open, _lay_more):
        action = plan(game)
        if action is not None and game.can(action):
            return action
    return _discard(game, rng)


def _taken_in_hand(game: Game) -> Card | None:
    """The discard taken this turn while it still waits to be laid (the solver's constraint)."""
    taken = game.taken
    return taken if taken is not None and taken in game.hands[game.current] else None


def _faces(melds: tuple[Meld, ...] | list[Meld]) -> tuple[tuple[object, ...], ...]:
    return tuple(tuple(c.face for c in m.cards) for m in melds)


def _draw(game: Game, rng: random.Random) -> Action:
    """Take the top discard when it makes a meld (and, where it must be used, when the turn
    can use it); otherwise draw blind."""
    seat = game.current
    take = Draw(seat, Source.DISCARD)
    if not game.discard or not game.can(take):
        return Draw(seat, Source.STOCK)
    top = game.discard[-1]
    hand = [*game.hands[seat], top]
    rules = game.rules
    if rules.must_use_discard and not game.opened[seat]:
        useful = (
            best_opening(
                hand, rules, game.threshold_for(seat), taken=top, freed=game.is_freed(seat)
            )
            is not None
        )
    else:
        useful = any(top in m.cards for m in find_melds(hand, rules))
        useful = useful or bool(extension_targets(top, [t.meld for t in game.table], rules))
    return (
        take
        if useful or (not rules.must_use_discard and rng.random() < 0.1)
        else Draw(seat, Source.STOCK)
    )


def _go_out(game: Game) -> Action | None:
    seat = game.current
    plan = going_out(
        game.hands[seat],
        game.rules,
        [t.meld for t in game.table],
        opened=game.opened[seat],
        freed=game.is_freed(seat),
        taken=_taken_in_hand(game),
        threshold=game.threshold_for(seat),
    )
    if plan is None:
        return None
    if plan.melds or plan.layoffs:
        layoffs = tuple((i, tuple(c.face for c in cards)) for i, cards in plan.layoffs)
        return Lay(seat, _faces(plan.melds), layoffs)  # type: ignore[arg-type]
    return Discard(seat, plan.discard.face) if plan.discard else None


def _open(game: Game) -> Action | None:
    seat = game.current
    if not game.rules.has_opening or game.opened[seat]:
        return None
    opening = best_opening(
        game.hands[seat],
        game.rules,
        game.threshold_for(seat),
        taken=_taken_in_hand(game),
        freed=game.is_freed(seat),
    )
    return Lay(seat, _faces(opening.melds)) if opening else None  # type: ignore[arg-type]


def _lay_more(game: Game) -> Action | None:
    """Once free to lay (opened, Basic), lay a meld or lay off a card, keeping one to discard."""
    seat = game.current
    rules = game.rules
    if rules.variant is Variant.SIMPLE or (rules.has_opening and not game.opened[seat]):
        if game.taken is not None and rules.must_use_discard and game.taken in game.hands[seat]:
            return UndoTake(seat)
        return None
    hand = game.hands[seat]
    keep = 1 if rules.is_atlas else 0
    for meld in find_melds(hand, rules):
        if len(hand) - len(meld.cards) >= keep:
            return Lay(seat, _faces([meld]))  # type: ignore[arg-type]
    table = [t.meld for t in game.table]
    if len(hand) > keep:
        for card in hand:
            targets = extension_targets(card, table, rules)
            if targets:
                return Lay(seat, (), ((targets[0], (card.face,)),))
    if game.taken is not None and rules.must_use_discard and game.taken in hand:
        return UndoTake(seat)
    return None


def _cost(card: Card, game: Game) -> int:
    return penalty_value(card) if game.rules.is_atlas else basic_value(card)


def _links(card: Card, hand: list[Card]) -> int:
    """How many cards of the hand could one day meld with ``card`` (same rank, or close in suit)."""
    if card.is_joker:
        return 99
    return sum(
        1
        for other in hand
        if other is not card
        and not other.is_joker
        and (
            (other.rank == card.rank and other.suit != card.suit)
            or (other.suit == card.suit and 0 < abs(other.rank - card.rank) <= 2)
        )
    )


def _discard(game: Game, rng: random.Random) -> Action:
    """Throw the loneliest card, the costliest among equals."""
    seat = game.current
    hand = game.hands[seat]
    ranked = sorted(hand, key=lambda c: (_links(c, hand), -_cost(c, game), rng.random()))
    for card in ranked:
        action = Discard(seat, card.face)
        if game.can(action):
            return action
    return UndoTake(seat)


def greedy(game: Game, rng: random.Random) -> Action:
    """Draw from the stock, lay what it can (go out, open, melds, lay-offs), then discard the
    highest card that is in no meld."""
    seat = game.current
    if game.phase is Phase.ROUND_OVER:
        return StartRound()
    if game.phase is Phase.DRAW:
        return Draw(seat, Source.STOCK)
    for plan in (_go_out, _open, _lay_more):
        action = plan(game)
        if action is not None and game.can(action):
            return action
    hand = game.hands[seat]
    melded = {c.face for m in find_melds(hand, game.rules) for c in m.cards}
    ranked = sorted(hand, key=lambda c: (c.face in melded, -_cost(c, game), rng.random()))
    for card in ranked:
        if game.can(Discard(seat, card.face)):
            return Discard(seat, card.face)
    return UndoTake(seat)
