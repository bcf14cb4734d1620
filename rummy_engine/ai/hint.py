"""A private suggestion for the player whose turn it is (``/rummy hint``), from the strong
player's own evaluation, so a hint never recommends what the strong computer would not do.

Everything is computed from the player's view: a hint cannot leak other hands or the stock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummy_engine.actions import Draw, Source
from rummy_engine.ai.player import Strength, Turn
from rummy_engine.cards import Card
from rummy_engine.game import Phase
from rummy_engine.melds import Meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.solver import GoOutPlan, best_opening, extension_targets, swap_targets
from rummy_engine.view import PlayerView


@dataclass(frozen=True)
class OpeningHint:
    """The most valuable first lay-down in hand, against what this seat needs.

    ``value`` may be below ``threshold`` (then ``enough`` is False: keep collecting);
    ``sets_bar`` is what both opponents would need afterwards (None where no bar applies).
    """

    melds: tuple[Meld, ...]
    value: int
    threshold: int
    enough: bool
    sets_bar: int | None


@dataclass(frozen=True)
class Hint:
    """What the strong player would weigh now. Card lists name real cards of the hand and
    table meld indexes (0-based, as in :class:`~rummy_engine.actions.Lay`).

    ``take_discard`` is only set before the draw. ``lay`` holds the melds worth laying now
    (jokers kept back unless they bring the player close to going out). ``discard`` is the card
    to throw, and ``discard_safe`` whether it gives the next player nothing to lay off or build on.
    """

    take_discard: bool | None
    go_out: GoOutPlan | None
    opening: OpeningHint | None
    lay: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    swaps: tuple[tuple[Card, int], ...]
    discard: Card | None
    discard_safe: bool


def hint(view: PlayerView, rules: Rules) -> Hint:
    """Suggestions for ``view``'s seat, which must be the seat to play."""
    if not view.my_turn:
        raise ValueError("a hint is for the player whose turn it is")
    turn = Turn(view, rules, Strength.STRONG, random.Random(0))
    drawing = view.phase is Phase.DRAW
    take = turn.draw() if drawing else None
    options = turn.discard_options()
    discard = turn.best_discard(options) if options else None
    return Hint(
        take_discard=None if take is None else take == Draw(view.current, Source.DISCARD),
        go_out=None if drawing else turn.go_out_plan(),
        opening=_opening(turn),
        lay=_lay(turn),
        layoffs=_layoffs(turn),
        swaps=_swaps(turn),
        discard=discard,
        discard_safe=discard is not None and turn.risk(discard) == 0,
    )


def _opening(turn: Turn) -> OpeningHint | None:
    rules, view = turn.rules, turn.view
    if not rules.has_opening or turn.opened:
        return None
    best = best_opening(turn.hand, rules, 0, taken=turn.taken, freed=True)
    if best is None:
        return None
    threshold = 0 if turn.freed else view.threshold
    bar = best.value + 1 if rules.bar_applies and view.bar is None and not turn.freed else None
    return OpeningHint(best.melds, best.value, threshold, best.value >= threshold, bar)


def _lay(turn: Turn) -> tuple[Meld, ...]:
    if not turn.may_lay():
        return ()
    return turn.melds_to_lay()


def _layoffs(turn: Turn) -> tuple[tuple[Card, int], ...]:
    if turn.rules.variant is Variant.SIMPLE:
        return ()
    return tuple(
        (card, target)
        for card in turn.hand
        for target in extension_targets(card, turn.table, turn.rules)
    )


def _swaps(turn: Turn) -> tuple[tuple[Card, int], ...]:
    if not turn.rules.has_opening:
        return ()
    return tuple(
        (card, target)
        for card in turn.hand
        if not card.is_joker
        for target in swap_targets(card, turn.table)
    )
