"""A stand-in game built from one seat's view, so a computer seat can ask the real rules whether
an action is legal without ever touching the real game's hidden cards.

The cards the seat cannot see (other hands, the stock) are dealt from what is left of the deck in
a fixed order: the rules never look at them when judging the seat's own lay-downs and discards,
and two games that differ only in hidden cards give the same stand-in.
"""

from __future__ import annotations

from rummy_engine.cards import make_deck, sort_key
from rummy_engine.game import Game
from rummy_engine.view import PlayerView


def shadow_game(view: PlayerView) -> Game:
    """A game that agrees with ``view`` on everything ``view``'s seat can see."""
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to play")
    rules = view.rules
    seen = [*view.hand, *view.pile, *(c for t in view.table for c in t.meld.cards)]
    deck = set(make_deck(rules.spec.packs, rules.spec.jokers))
    unseen = sorted(deck - set(seen), key=lambda c: (sort_key(c), c.copy))
    hands = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[:size])
            unseen = unseen[size:]
    game = Game.__new__(Game)
    game.__dict__.update(
        rules=rules,
        seed="shadow",
        first_dealer=view.dealer,
        first_deal=None,
        origin=None,
        phase=view.phase,
        round_no=view.round_no,
        dealer=view.dealer,
        current=view.current,
        turn=view.turn,
        hands=hands,
        stock=unseen,
        discard=list(view.pile),
        table=list(view.table),
        opened=list(view.opened),
        laid_any=list(view.laid_any),
        laid_at_turn_start=view.laid_at_turn_start,
        drawn=view.drawn,
        taken=view.taken,
        bar=view.bar,
        bar_side=view.bar_side,
        bar_from=None if view.bar is None else view.bar - 1,
        reshuffles=0,
        round_turns=0,
        pile_moves=list(view.pile_moves),
        scores=list(view.scores),
        results=list(view.results),
        winners=list(view.winners),
    )
    return game

