"""Which table melds the cards a player has chosen can go on, for a user interface that offers
only the moves that fit (a hand panel's "add to meld" and "swap" menus).

Why in the engine: whether cards extend a meld, and which card frees which joker, are rules
(RULES.md §1.5-§1.6); a front end asking here shows exactly what :meth:`Game.apply` would judge
possible for those melds. Conditions of the turn that the engine refuses with their own
sentence (not opened yet, no lay-offs in Simple) are left to that refusal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.cards import Face, take_matching
from rummy_engine.errors import CardNotAvailable
from rummy_engine.game import Game, Phase
from rummy_engine.solver import layoff_targets, swap_targets


@dataclass(frozen=True)
class Targets:
    """0-based indexes of table melds: ``extend`` the chosen cards together can be laid off on,
    ``swap`` where the one chosen card frees a joker."""

    extend: tuple[int, ...] = ()
    swap: tuple[int, ...] = ()


def meld_targets(game: Game, seat: int, chosen: Sequence[Face]) -> Targets:
    """Where ``seat`` can put the ``chosen`` faces of its hand now: nothing unless it is the
    seat's turn to lay (phase ``play``) and the hand holds every chosen face."""
    if not chosen or game.phase is not Phase.PLAY or game.current != seat:
        return Targets()
    try:
        cards = take_matching(game.hands[seat], chosen, prefer=game.taken)
    except CardNotAvailable:
        return Targets()
    melds = [tm.meld for tm in game.table]
    swap = tuple(swap_targets(cards[0], melds)) if len(cards) == 1 else ()
    return Targets(tuple(layoff_targets(cards, melds, game.rules)), swap)
