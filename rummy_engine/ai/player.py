"""The computer players: one action at a time, computed from the seat's own view and nothing else.

Every strength shares one evaluation (:mod:`rummy_engine.ai.evaluate`) and asks a stand-in game
built from the view (:mod:`rummy_engine.ai.shadow`) whether an action is legal, so a computer move
passes the same rules as a human's and cannot depend on cards its seat has not seen.

Why the strengths differ where they do:

* easy takes the discard only for a natural meld, throws a random loose card most of the time,
  never swaps a joker and never thinks about the other players;
* normal weighs every take and discard with the evaluation, frees table jokers by swapping, avoids
  discarding what the next player can lay off, and sheds costly cards (Aces, jokers) when an
  opponent who laid down holds four cards or fewer;
* strong also keeps its jokers working: it lays natural melds first and spends a joker only to get
  close to going out or when an opponent is; it treats feeding the next player's lay-offs as a
  last resort, avoids cards that build on what that player took from the pile, and knows which
  half-made melds are dead because their missing cards are all in sight. In Basic rummy it keeps
  its melds in hand for a rummy until an opponent is down to a few cards.

No cycles: a discard is taken only if it raises the hand's worth by a clear margin, and never a
card this seat threw away earlier in the round, so two computers cannot pass cards back and forth.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence

from rummy_engine.actions import Action, Discard, Draw, Lay, Source, StartRound, Swap, UndoTake
from rummy_engine.ai.evaluate import HandModel, Weights, feeds
from rummy_engine.ai.shadow import shadow_game
from rummy_engine.cards import Card, Face
from rummy_engine.game import Phase
from rummy_engine.melds import Meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.solver import (
    GoOutPlan,
    best_opening,
    extension_targets,
    find_melds,
    going_out,
    swap_targets,
)
from rummy_engine.view import PlayerView

TAKE_MARGIN = 70  # a take must improve the hand by more than a blind draw is likely to

DANGER_CARDS = 4  # an opponent who laid down and holds this few cards may go out any turn
EASY_SLIP = 0.7  # how often an easy player throws a random loose card
KEEP_JOKERS_ABOVE = 5  # with more cards than this in hand, strong does not spend a joker
NO_JOKERS = 200  # a joker cost that keeps jokers out of melds
#: In Basic rummy strong keeps its melds in hand until an opponent holds this few cards: 3 against
#: one opponent, 1 against several (measured with benchmarks/bench_strength.py; see `_holds`).
HOLD_UNTIL_HEADS_UP = 3
HOLD_UNTIL = 1


class Strength(enum.Enum):
    """How well a computer seat plays."""

    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"


def decide(
    view: PlayerView, rules: Rules, rng: random.Random, strength: Strength = Strength.NORMAL
) -> Action:
    """The next action of ``view``'s seat (or the next round once a round is over)."""
    if view.phase is Phase.ROUND_OVER:
        return StartRound()
    if not view.my_turn:
        raise ValueError("it is not this seat's turn")
    turn = Turn(view, rules, strength, rng)
    return turn.draw() if view.phase is Phase.DRAW else turn.play()


def lay_action(seat: int, melds: Sequence[Meld], layoffs: Sequence[tuple[int, Sequence[Card]]]) -> Lay:
    """A Lay naming the cards in the order the melds hold them (so jokers stay where planned)."""
    return Lay(
        seat,
        tuple(tuple(c.face for c in m.cards) for m in melds),
        tuple((i, tuple(c.face for c in cards)) for i, cards in layoffs),
    )


class Turn:
    """One decision: what the seat knows, and the plans tried in order."""

    def __init__(
        self, view: PlayerView, rules: Rules, strength: Strength, rng: random.Random
    ) -> None:
        assert view.seat is not None
        self.view, self.rules, self.strength, self.rng = view, rules, strength, rng
        self.seat = view.seat
        self.game = shadow_game(view)
        self.hand = list(view.hand)
        self.table = [t.meld for t in view.table]
        self.taken = view.taken if view.taken in self.hand else None
        self.opened = view.opened[self.seat]
        partner = rules.partner_of(self.seat)
        self.freed = partner is not None and view.opened[partner] and not self.opened
        self.danger = self._danger()
        table_cards = [c for m in self.table for c in m.cards]
        self.seen = Counter(c.face for c in (*self.hand, *view.pile, *table_cards))

    # -- what the seat knows ----------------------------------------------------------------

    def _danger(self) -> bool:
        """An opponent may go out soon, so cards in hand are about to be paid for."""
        if self.rules.variant is Variant.SIMPLE or self.strength is Strength.EASY:
            return False
        view, rules = self.view, self.rules
        return any(
            view.hand_sizes[s] <= DANGER_CARDS and (view.opened[s] or not rules.has_opening)
            for s in range(rules.players)
            if rules.side_of(s) != rules.side_of(self.seat)
        )

    def weights(self, joker_cost: int = 20) -> Weights:
        """Loose cards cost little before laying anything (the flat 100 is owed anyway), a lot
        once an opponent is close to going out."""
        never_laid = self.rules.has_opening and not self.view.laid_any[self.seat]
        penalty = 0.5 if never_laid else 3.0
        if self.danger:
            penalty *= 3
        return Weights(penalty, joker_cost, self.strength is Strength.STRONG)

    def model(self, cards: Sequence[Card], joker_cost: int = 20) -> HandModel:
        return HandModel(cards, self.rules, self.weights(joker_cost), self.seen)

    def legal(self, action: Action | None) -> bool:
        return action is not None and self.game.can(action)

    # -- drawing ------------------------------------------------------------------------------

    def draw(self) -> Action:
        seat, view, rules = self.seat, self.view, self.rules
        stock = Draw(seat, Source.STOCK)
        top = view.discard_top
        take = Draw(seat, Source.DISCARD)
        if top is None or (seat, False, top) in view.pile_moves or not self.legal(take):
            return stock
        if rules.must_use_discard and not self.opened:
            return take if self._opens_with(top) else stock
        if rules.must_use_discard and not self._layable(top):
            return stock
        if self.strength is Strength.EASY:
            return take if self._natural_meld_with(top) else stock
        return take if self._gain_from(top) > TAKE_MARGIN else stock

    def _opens_with(self, top: Card) -> bool:
        cards = [*self.hand, top]
        threshold = self.view.threshold
        if best_opening(cards, self.rules, threshold, taken=top, freed=self.freed):
            return True
        plan = going_out(
            cards, self.rules, self.table, opened=False, freed=self.freed, taken=top
        )
        return plan is not None

    def _layable(self, top: Card) -> bool:
        melds = find_melds([*self.hand, top], self.rules)
        return any(top.face in (c.face for c in m.cards) for m in melds) or bool(
            extension_targets(top, self.table, self.rules)
        )

    def _natural_meld_with(self, top: Card) -> bool:
        melds = find_melds([*self.hand, top], self.rules)
        return any(m.is_natural and top.face in (c.face for c in m.cards) for m in melds)

    def _gain_from(self, top: Card) -> float:
        """How much the best hand after taking ``top`` (and discarding) beats the hand now."""
        model = self.model([*self.hand, top])
        now = model.arrange(self.hand).score
        after = max(model.arrange(_without([*self.hand, top], c)).score for c in self.hand)
        return after - now

    # -- playing ------------------------------------------------------------------------------

    def play(self) -> Action:
        plans = (self._go_out, self._open, self._lay_taken, self._swap, self._lay_meld, self._lay_off)
        for plan in plans:
            action = plan()
            if self.legal(action):
                assert action is not None
                return action
        if self.taken is not None and self.rules.must_use_discard:
            return UndoTake(self.seat)
        return self._discard()

    def may_lay(self) -> bool:
        rules = self.rules
        return rules.variant is not Variant.SIMPLE and (not rules.has_opening or self.opened)

    def _go_out(self) -> Action | None:
        plan = self.go_out_plan()
        if plan is None:
            return None
        if plan.melds or plan.layoffs:
            return lay_action(self.seat, plan.melds, plan.layoffs)
        return Discard(self.seat, plan.discard.face) if plan.discard else None

    def go_out_plan(self) -> GoOutPlan | None:
        return going_out(
            self.hand,
            self.rules,
            self.table,
            opened=self.opened,
            freed=self.freed,
            taken=self.taken,
            threshold=self.view.threshold,
        )

    def _open(self) -> Action | None:
        """Open as soon as the rules allow, as big as possible: in 2v2 it frees the partner,
        and the bigger it is the higher the bar both opponents must clear."""
        if not self.rules.has_opening or self.opened:
            return None
        opening = best_opening(
            self.hand, self.rules, self.view.threshold, taken=self.taken, freed=self.freed
        )
        return lay_action(self.seat, opening.melds, ()) if opening else None

    def _lay_taken(self) -> Action | None:
        """The discard taken under "use it now" goes down first, in its longest meld."""
        if self.taken is None or not self.rules.must_use_discard or not self.may_lay():
            return None
        face = self.taken.face
        melds = [m for m in find_melds(self.hand, self.rules) if face in (c.face for c in m.cards)]
        for meld in sorted(melds, key=lambda m: (m.jokers, -len(m.cards))):
            action = lay_action(self.seat, [meld], ())
            if self.legal(action):
                return action
        targets = extension_targets(self.taken, self.table, self.rules)
        return lay_action(self.seat, [], [(targets[0], [self.taken])]) if targets else None

    def _swap(self) -> Action | None:
        """Free a table joker with the card it stands for: a joker in hand fits anywhere."""
        if self.strength is Strength.EASY or not self.rules.has_opening or not self.opened:
            return None
        for card in self.hand:
            if card.is_joker:
                continue
            for target in swap_targets(card, self.table):
                action = Swap(self.seat, target, card.face)
                if self.legal(action):
                    return action
        return None

    def _keeps_jokers(self) -> bool:
        """Strong keeps its jokers out of melds until they help it go out or must be dumped."""
        return self.strength is Strength.STRONG and not self.danger and len(self.hand) > KEEP_JOKERS_ABOVE

    def melds_to_lay(self) -> tuple[Meld, ...]:
        """The melds of the best split of the hand, longest first, without jokers while the
        strength keeps them back."""
        keep = self._keeps_jokers()
        melds = self.model(self.hand, NO_JOKERS if keep else 20).arrange(self.hand).melds
        return tuple(sorted((m for m in melds if not (keep and m.jokers)), key=lambda m: -len(m.cards)))

    def _holds(self) -> bool:
        """Strong, in Basic rummy, keeps its melds and lay-offs in hand: going out in one turn
        pays double, and a meld on the table is a lay-off target for every opponent. It lets go
        once an opponent is down to a few cards, when being caught with them costs most. (Against
        the pre-issue player this took the Basic win rates from about 50% to about 70-78%.)"""
        rules = self.rules
        if self.strength is not Strength.STRONG or rules.variant is not Variant.BASIC:
            return False
        close = HOLD_UNTIL_HEADS_UP if rules.players == 2 else HOLD_UNTIL
        sizes = self.view.hand_sizes
        return all(sizes[s] > close for s in range(rules.players) if s != self.seat)

    def _lay_meld(self) -> Action | None:
        if not self.may_lay() or self._holds():
            return None
        for meld in self.melds_to_lay():
            action = lay_action(self.seat, [meld], ())
            if self.legal(action):
                return action
        return None

    def _lay_off(self) -> Action | None:
        if not self.may_lay() or not self.table or self._holds():
            return None
        spend_jokers = self.danger or (self.strength is not Strength.STRONG and len(self.hand) <= 3)
        for card in self.hand:
            if card.is_joker and not spend_jokers:
                continue
            for target in extension_targets(card, self.table, self.rules):
                action = lay_action(self.seat, [], [(target, [card])])
                if self.legal(action):
                    return action
        return None

    # -- discarding ---------------------------------------------------------------------------

    def _discard(self) -> Action:
        options = self.discard_options()
        if not options:
            raise ValueError("no legal discard")  # the rules always leave one
        if self.strength is Strength.EASY and self.rng.random() < EASY_SLIP:
            loose = set(self.model(self.hand).arrange(self.hand).loose)
            pool = [c for c in options if c in loose] or options
            return Discard(self.seat, self.rng.choice(pool).face)
        return Discard(self.seat, self.best_discard(options).face)

    def best_discard(self, options: Sequence[Card]) -> Card:
        """The card whose loss leaves the best hand, after what it would give the next player."""
        model = self.model(self.hand)
        scored = [
            (model.arrange(_without(self.hand, c)).score - self.risk(c), self.rng.random(), c)
            for c in options
        ]
        return max(scored)[2]

    def discard_options(self) -> list[Card]:
        """One card per face (copies are alike) that may be discarded now, or, before the draw,
        that the rules would let go."""
        seen: set[Face] = set()
        options = []
        jokers_ok = self.rules.options.joker_discard_allowed
        for card in self.hand:
            if card.face in seen or card == self.taken:
                continue
            seen.add(card.face)
            if self.view.phase is Phase.DRAW:
                if jokers_ok or not card.is_joker:
                    options.append(card)
            elif self.legal(Discard(self.seat, card.face)):
                options.append(card)
        return options

    def risk(self, card: Card) -> float:
        """What feeding the next player (always an opponent at an Atlas table) costs."""
        if self.strength is Strength.EASY:
            return 0
        view, rules = self.view, self.rules
        nxt = (self.seat + 1) % rules.players
        if rules.side_of(nxt) == rules.side_of(self.seat):
            return 0
        can_lay_off = rules.variant is not Variant.SIMPLE and (
            not rules.has_opening or view.opened[nxt]
        )
        table = self.table if can_lay_off else []
        if self.strength is Strength.NORMAL:
            return 150 if feeds(card, table, rules, []) else 0
        on_table = {c for m in self.table for c in m.cards}
        took = [c for s, t, c in view.pile_moves if t and s == nxt and c not in on_table]
        return (0, 80, 400)[feeds(card, table, rules, took)]


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest

