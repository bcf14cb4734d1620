"""The seeds' table tips, checked on one turn that just ended: facts every player at the table
sees (the melds, the pile, how many cards each holds, who opened) and the mover's own hand.

Why apart from :mod:`rummy_engine.ai.review`: the review judges a turn against what the hand
could have done (go out, open, free a joker), which a computer's own search decides; these tips
are about the other players — the next player who can use a discard, a partner close to going
out, an opponent about to go out while a joker stays in hand — and need no search, so coaching
can tell them after every turn at no cost worth measuring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.actions import Discard
from rummy_engine.ai.review import Step
from rummy_engine.cards import Card, make_deck
from rummy_engine.game import Phase
from rummy_engine.melds import Meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.solver import extension_targets
from rummy_engine.view import PlayerView

#: Cards left at which a player is close to going out (the seeds: "two or three cards").
FEW_CARDS = 3
#: The variants where cards go on others' melds and each card in hand costs its value.
LAYOFF_VARIANTS = (Variant.R51, Variant.R71)


@dataclass(frozen=True)
class OpenDiscard:
    """The card just discarded goes on table meld ``meld`` (0-based), and ``taker``, the next
    player, an opponent who may lay off, can take it from the pile and lay it there now."""

    card: Card
    taker: int
    meld: int


@dataclass(frozen=True)
class ClosedForPartner:
    """This turn closed a way onto table meld ``meld`` (an end of a run, a set's last suit)
    while the partner, ``partner``, holds ``cards`` cards: the seeds' "keep the table open
    for a partner with two or three cards"."""

    partner: int
    cards: int
    meld: int


@dataclass(frozen=True)
class JokerKept:
    """The turn ended with ``card`` (a joker) in hand, which could have gone on table meld
    ``meld``, while ``opponent`` holds ``cards`` cards: if they go out it costs 20 (the seeds:
    empty your hand when the opponents get close, jokers and Aces first)."""

    card: Card
    opponent: int
    cards: int
    meld: int


Tip = OpenDiscard | ClosedForPartner | JokerKept


def turn_tip(steps: Sequence[Step], after: PlayerView, seat: int) -> Tip | None:
    """The first tip that applies to the turn of ``steps`` (the mover's views before each of
    their actions), ``after`` it ended with the round going on."""
    if not steps or after.phase is not Phase.DRAW:
        return None
    return (
        open_discard(steps[-1], after, seat)
        or joker_kept(after, seat)
        or closed_for_partner(steps[0].view, after, seat)
    )


def open_discard(step: Step, after: PlayerView, seat: int) -> OpenDiscard | None:
    """Whether the turn's last step, a discard, left the next player (an opponent) a card they
    can lay off on the table right now."""
    if not isinstance(step.action, Discard) or after.phase is not Phase.DRAW:
        return None
    rules, taker = after.rules, after.current
    card = after.discard_top
    if card is None or card.face != step.action.card or rules.side_of(taker) == rules.side_of(seat):
        return None
    if rules.has_opening and not after.opened[taker]:
        return None
    targets = extension_targets(card, [t.meld for t in after.table], rules)
    return OpenDiscard(card, taker, targets[0]) if targets else None


def joker_kept(after: PlayerView, seat: int) -> JokerKept | None:
    """A joker still in the mover's hand that the table could take, with an opponent close to
    going out. Only where a held card costs its value and the mover could lay off (opened)."""
    rules = after.rules
    if rules.variant not in LAYOFF_VARIANTS or not after.opened[seat]:
        return None
    close = _closest(
        after, [s for s in range(rules.players) if rules.side_of(s) != rules.side_of(seat)]
    )
    joker = next((c for c in after.hand if c.is_joker), None)
    if close is None or joker is None:
        return None
    targets = extension_targets(joker, [t.meld for t in after.table], rules)
    return JokerKept(joker, close, after.hand_sizes[close], targets[0]) if targets else None


def closed_for_partner(before: PlayerView, after: PlayerView, seat: int) -> ClosedForPartner | None:
    """A table meld that took fewer cards after the turn than before it (an end of a run
    reached, a set made four), while the partner is close to going out and may lay off."""
    rules = after.rules
    partner = rules.partner_of(seat)
    if (
        rules.variant not in LAYOFF_VARIANTS
        or partner is None
        or _closest(after, [partner]) is None
    ):
        return None
    if rules.variant is Variant.R71 and not after.opened[partner]:
        return None  # a freed partner's first lay-down there is a natural run, not a lay-off
    for index, old in enumerate(before.table):
        now = after.table[index].meld
        if now != old.meld and len(_ways_onto(now, rules)) < len(_ways_onto(old.meld, rules)):
            return ClosedForPartner(partner, after.hand_sizes[partner], index)
    return None


def _closest(view: PlayerView, seats: Sequence[int]) -> int | None:
    """Of ``seats``, the one holding the fewest cards, if that is few enough to go out soon."""
    close = [s for s in seats if 0 < view.hand_sizes[s] <= FEW_CARDS]
    return min(close, key=lambda s: view.hand_sizes[s]) if close else None


def _ways_onto(meld: Meld, rules: Rules) -> set[tuple[int, object]]:
    """The faces (jokers aside) that could still be laid off on ``meld``."""
    return {
        (card.rank, card.suit) for card in make_deck(1, 0) if extension_targets(card, [meld], rules)
    }
