"""The game state machine: rounds, turns, scoring and game end for every variant.

Design: one :class:`Game` object holds the whole state; ``apply`` runs an action on a private
copy and adopts it only if every rule passed, so an illegal action can never leave the state half
changed. ``verify`` is the same run thrown away, ``can`` its boolean. All randomness comes from
the game's seed (per round and per reshuffle), so the seed plus the action log rebuild the state.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rummy_engine.actions import (
    Action,
    Discard,
    Draw,
    Lay,
    Resign,
    Source,
    StartRound,
    Swap,
    UndoTake,
)
from rummy_engine.cards import Card, Face, make_deck, sort_key, take_matching
from rummy_engine.conservation import Zone, check_conservation
from rummy_engine.errors import (
    DiscardRefused,
    LayDownRefused,
    OpeningRefused,
    OutOfTurn,
    RuleViolation,
)
from rummy_engine.melds import End, Meld, extend_meld, make_meld, swap_joker, swap_target
from rummy_engine.opening import LayContext, check_first_laydown, check_go_out_at_once
from rummy_engine.rules import DiscardTakeFailure, Rules, Variant
from rummy_engine.scoring import round_points
from rummy_engine.values import opening_value

SCHEMA_VERSION = 1


class Phase(enum.Enum):
    DRAW = "draw"
    PLAY = "play"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Event:
    """Something that happened. ``private`` events reveal cards of ``seat``'s hand only."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": self.data, "private": self.private}


class Flags(NamedTuple):
    """A seat's flags for the round, exactly as RULES.md §6.1 defines them."""

    opened: bool  # made a qualifying first lay-down (own opening, or first lay-down when freed)
    laid_any: bool  # placed at least one card on the table (else the 100 penalty)
    freed: bool  # 2v2 only: the partner has opened


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table and the seat that laid it."""

    meld: Meld
    owner: int

    def to_json(self) -> dict[str, Any]:
        return {"owner": self.owner, **self.meld.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableMeld:
        return cls(Meld.from_json(data), int(data["owner"]))


class Outcome(enum.Enum):
    """How a round ended."""

    VOID = "void"
    OUT = "out"  # Atlas: went out after laying down on earlier turns
    RAMI_SEC = "rami_sec"  # Atlas: everything laid in the winning turn (not doubled)
    SIMPLE = "simple"
    BASIC = "basic"
    BASIC_RUMMY = "basic_rummy"  # Basic: everything in one turn, gain doubled
    RESIGN = "resign"


@dataclass(frozen=True)
class RoundResult:
    """The record of one finished round; ``points`` and ``totals`` are per side."""

    round_no: int
    winner: int | None
    outcome: Outcome
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round_no": self.round_no,
            "winner": self.winner,
            "outcome": self.outcome.value,
            "hands": [[c.key for c in h] for h in self.hands],
            "penalties": list(self.penalties),
            "points": list(self.points),
            "totals": list(self.totals),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            data["round_no"],
            data["winner"],
            Outcome(data["outcome"]),
            tuple(tuple(Card.from_key(k) for k in h) for h in data["hands"]),
            tuple(data["penalties"]),
            tuple(data["points"]),
            tuple(data["totals"]),
        )


@dataclass(frozen=True)
class Deal:
    """An explicit first deal (scripted games and tests): hands, stock (top last), discard pile."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[c.key for c in h] for h in self.hands],
            "stock": [c.key for c in self.stock],
            "discard": [c.key for c in self.discard],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        return cls(
            tuple(tuple(Card.from_key(k) for k in h) for h in data["hands"]),
            tuple(Card.from_key(k) for k in data["stock"]),
            tuple(Card.from_key(k) for k in data["discard"]),
        )


def _keys(cards: Iterable[Card]) -> list[str]:
    return [c.key for c in cards]


def _cards(keys: Iterable[str]) -> list[Card]:
    return [Card.from_key(k) for k in keys]


class Game:
    """A whole game: a sequence of rounds until a side reaches the limit (Atlas) or the agreed
    number of rounds is played (Basic).

    Create with :meth:`new`; play with :meth:`apply`; query with :meth:`view`,
    :meth:`legal_draws` and friends; store with :meth:`to_json`.
    """

    rules: Rules
    seed: str
    first_dealer: int
    first_deal: Deal | None
    origin: dict[str, Any] | None  # the Position (JSON) the game was built from, if any
    phase: Phase
    round_no: int
    dealer: int
    current: int
    turn: int
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    table: list[TableMeld]
    opened: list[bool]
    laid_any: list[bool]
    laid_at_turn_start: bool
    drawn: Card | None
    taken: Card | None
    bar: int | None
    bar_side: int | None
    bar_from: int | None
    reshuffles: int
    round_turns: int
    pile_moves: list[tuple[int, bool, Card]]
    scores: list[int]
    results: list[RoundResult]
    winners: list[int]

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(
        cls, rules: Rules, seed: str | int, *, dealer: int | None = None, deal: Deal | None = None
    ) -> Game:
        """Start a game and deal the first round. ``dealer`` defaults to a seeded random seat."""
        game = cls.__new__(cls)
        game.rules = rules
        game.seed = str(seed)
        if dealer is None:
            dealer = random.Random(f"{game.seed}:first-dealer").randrange(rules.players)
        game.first_dealer = dealer
        game.first_deal = deal
        game.origin = None
        game.scores = [0] * rules.sides
        game.results = []
        game.winners = []
        game.round_no = 0
        game.turn = 0
        game.dealer = dealer
        game._deal(deal)
        return game

    def copy(self) -> Game:
        """An independent game in the same state: applying a move to one leaves the other as it
        was (cards and melds are immutable and shared; every list is new)."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin.hands = [list(h) for h in self.hands]
        for name in (
            "stock",
            "discard",
            "table",
            "opened",
            "laid_any",
            "scores",
            "results",
            "winners",
            "pile_moves",
        ):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def _deal(self, deal: Deal | None) -> list[Event]:
        rules, n = self.rules, self.rules.players
        self.round_no += 1
        if deal is None:
            deck = make_deck(rules.spec.packs, rules.spec.jokers)
            random.Random(f"{self.seed}:round:{self.round_no}:deal").shuffle(deck)
            hands: list[list[Card]] = [[] for _ in range(n)]
            for _ in range(rules.hand_size):
                for step in range(1, n + 1):
                    hands[(self.dealer + step) % n].append(deck.pop())
            if rules.is_atlas:
                hands[self.dealer].append(deck.pop())
            discard = [] if rules.is_atlas else [deck.pop()]
            self.hands, self.stock, self.discard = hands, deck, discard
        else:
            self._check_deal(deal)
            self.hands = [list(h) for h in deal.hands]
            self.stock, self.discard = list(deal.stock), list(deal.discard)
        self.table = []
        self.opened = [False] * n
        self.laid_any = [False] * n
        self.bar = self.bar_side = self.bar_from = None
        self.reshuffles = 0
        self.round_turns = 0
        self.pile_moves = []
        event = Event("round_started", None, {"round": self.round_no, "dealer": self.dealer})
        if rules.is_atlas:
            return [event, *self._begin_turn(self.dealer, draw=False)]
        return [event, *self._begin_turn((self.dealer + 1) % n, draw=True)]

    def _check_deal(self, deal: Deal) -> None:
        cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
        deck = make_deck(self.rules.spec.packs, self.rules.spec.jokers)
        if sorted(cards) != sorted(deck) or len(deal.hands) != self.rules.players:
            raise ValueError("a scripted deal must hold every card of the deck exactly once")

    # -- the action triad -----------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action``; returns the events it caused. Raises :class:`RuleViolation` (and then
        nothing has changed)."""
        twin = self.copy()
        events = twin._run(action)
        self.__dict__.update(twin.__dict__)
        return events

    def verify(self, action: Action) -> None:
        """Raise the :class:`RuleViolation` that ``apply`` would raise; change nothing."""
        self.copy()._run(action)

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except RuleViolation:
            return False
        return True

    def _run(self, action: Action) -> list[Event]:
        match action:
            case StartRound():
                return self._start_round()
            case Resign(seat):
                return self._resign(seat)
        self._require_turn(action.seat)
        match action:
            case Draw(seat, source):
                return self._draw(seat, source)
            case Lay(seat, melds, layoffs, ends):
                return self._lay(seat, melds, layoffs, ends)
            case Swap(seat, meld, card):
                return self._swap(seat, meld, card)
            case Discard(seat, card):
                return self._discard(seat, card)
            case UndoTake(seat):
                return self._undo_take(seat)
        raise TypeError(f"not an action: {action!r}")

    # -- turn structure -------------------------------------------------------------------------

    def _require_turn(self, seat: int) -> None:
        if not 0 <= seat < self.rules.players:
            raise OutOfTurn("turn.no_such_seat", seat=seat)
        if self.phase is Phase.ROUND_OVER:
            raise OutOfTurn("turn.round_over")
        if self.phase is Phase.GAME_OVER:
            raise OutOfTurn("turn.game_over")
        if seat != self.current:
            raise OutOfTurn("turn.not_yours", seat=seat, current=self.current)

    def _require_phase(self, phase: Phase) -> None:
        if self.phase is not phase:
            if phase is Phase.PLAY:
                raise OutOfTurn("turn.draw_first")
            # The dealer's first turn starts in PLAY with nothing drawn (RULES.md §2.2).
            raise OutOfTurn("turn.already_drawn" if self.drawn else "turn.dealer_no_draw")

    def _begin_turn(self, seat: int, draw: bool = True) -> list[Event]:
        self.round_turns += 1
        if self.round_turns > self.rules.options.max_turns_per_round:
            return self._end_round(None, Outcome.VOID)
        self.current = seat
        self.turn += 1
        self.phase = Phase.DRAW if draw else Phase.PLAY
        self.drawn = self.taken = None
        self.laid_at_turn_start = self.laid_any[seat]
        events = [Event("turn_started", seat, {"turn": self.turn, "draw": draw})]
        if draw and not self.stock:
            events += self._stock_empty()
        return events

    def _stock_empty(self) -> list[Event]:
        """Atlas: reshuffle under the top discard (capped) or void the round (RULES.md §2.5).
        Basic: void only when nothing can be turned over (the flip happens on the draw)."""
        cap = (
            self.rules.options.atlas_max_reshuffles
            if self.rules.is_atlas
            else self.rules.options.basic_max_restocks
        )
        capped = cap is not None and self.reshuffles >= cap
        if self.rules.is_atlas:
            if capped or len(self.discard) <= 1:
                return self._end_round(None, Outcome.VOID)
            top = self.discard.pop()
            self.stock, self.discard = self.discard, [top]
            random.Random(f"{self.seed}:round:{self.round_no}:reshuffle:{self.reshuffles}").shuffle(
                self.stock
            )
            self.reshuffles += 1
            return [Event("stock_reshuffled", None, {"stock": len(self.stock)})]
        if capped or not self.discard:
            return self._end_round(None, Outcome.VOID)
        return []

    def _draw(self, seat: int, source: Source) -> list[Event]:
        self._require_phase(Phase.DRAW)
        hand = self.hands[seat]
        if source is Source.DISCARD:
            if not self.discard:
                raise OutOfTurn("draw.discard_empty")
            if (
                self.rules.is_atlas
                and self.rules.options.forbid_take_with_one_card
                and len(hand) == 1
            ):
                raise OutOfTurn("draw.take_with_one_card")
            card = self.discard.pop()
            self.taken = card
            self.pile_moves.append((seat, True, card))
            events = [Event("discard_taken", seat, {"card": card.text})]
        else:
            events = []
            if not self.stock:
                self.stock = self.discard[::-1]
                self.discard = []
                self.reshuffles += 1
                events.append(Event("discard_turned_over", None, {"stock": len(self.stock)}))
            card = self.stock.pop()
            events.append(Event("drew_stock", seat, {"card": card.text}, private=True))
        hand.append(card)
        self.drawn = card
        self.phase = Phase.PLAY
        return events

    def _undo_take(self, seat: int) -> list[Event]:
        self._require_phase(Phase.PLAY)
        taken = self.taken
        if not self.rules.must_use_discard or taken is None or taken not in self.hands[seat]:
            raise OutOfTurn("take.nothing_to_undo")
        hand = self.hands[seat]
        hand.remove(taken)
        self.discard.append(taken)
        self.taken = None
        self.pile_moves.pop()
        events = [Event("take_undone", seat, {"card": taken.text})]
        if self.rules.options.discard_take_failure is DiscardTakeFailure.PENALTY and hand:
            return events + self._begin_turn(self._next_seat(seat))
        card = self.stock.pop()
        hand.append(card)
        self.drawn = card
        return [*events, Event("drew_stock", seat, {"card": card.text}, private=True)]

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    # -- laying down ----------------------------------------------------------------------------

    def threshold_for(self, seat: int) -> int:
        """The points a first opening by ``seat`` needs now: base threshold or the +1 bar."""
        base = self.rules.opening_threshold
        if self.bar is not None and self.bar_side != self.rules.side_of(seat):
            return max(base, self.bar)
        return base

    def is_freed(self, seat: int) -> bool:
        """RULES.md §6.1 ``freed``: 2v2 only, the partner has opened (and stays so all round).

        What it changes only matters while ``seat`` has not opened: its first lay-down then
        needs no threshold (Rummy 71: only a natural run). An opened player may be freed too.
        Raises nothing; false in 1v1 and Basic, which have no partners.
        """
        partner = self.rules.partner_of(seat)
        return partner is not None and self.opened[partner]

    def flags(self, seat: int) -> Flags:
        """RULES.md §6.1's flags of ``seat`` this round. Raises :class:`IndexError` for a seat
        the table does not have."""
        return Flags(self.opened[seat], self.laid_any[seat], self.is_freed(seat))

    def _lay_context(self, seat: int) -> LayContext:
        return LayContext(
            self.rules,
            opened=self.opened[seat],
            freed=self.is_freed(seat),
            threshold=self.threshold_for(seat),
            bar_from=self.bar_from
            if self.threshold_for(seat) > self.rules.opening_threshold
            else None,
            taken=self.taken if self.rules.must_use_discard else None,
        )

    def _lay(
        self,
        seat: int,
        meld_faces: tuple[tuple[Face, ...], ...],
        layoffs: tuple[tuple[int, tuple[Face, ...]], ...],
        ends: tuple[End | None, ...],
    ) -> list[Event]:
        self._require_phase(Phase.PLAY)
        if not meld_faces and not layoffs:
            raise LayDownRefused("lay.nothing")
        if len(ends) > len(layoffs):
            raise LayDownRefused("lay.too_many_ends", ends=len(ends), layoffs=len(layoffs))
        hand = self.hands[seat]
        faces = [f for m in meld_faces for f in m] + [f for _, fs in layoffs for f in fs]
        picked = take_matching(hand, faces, prefer=self.taken)
        remaining = list(hand)
        for card in picked:
            remaining.remove(card)
        new_melds = [
            make_meld(picked_slice, self.rules) for picked_slice in self._split(picked, meld_faces)
        ]
        extended = self._extend_table(picked[sum(len(m) for m in meld_faces) :], layoffs, ends)
        if self.rules.is_atlas and not remaining:
            raise LayDownRefused("lay.keep_one", variant=self.rules.variant.value)
        if self.taken is not None and remaining == [self.taken]:
            raise LayDownRefused("lay.keep_discardable", card=self.taken.pretty)
        was_opened = self.opened[seat]
        self._check_lay_rules(seat, new_melds, bool(layoffs), picked, remaining)
        self.hands[seat] = remaining
        self.table = [*extended, *(TableMeld(m, seat) for m in new_melds)]
        self.laid_any[seat] = True
        data: dict[str, Any] = {
            "melds": [[c.text for c in m.cards] for m in new_melds],
            "layoffs": [[i, [f.text for f in fs]] for i, fs in layoffs],
            "opening_value": opening_value(new_melds, self.rules) if self.rules.is_atlas else 0,
            "opened": self.opened[seat] and not was_opened,
        }
        if any(ends):
            data["ends"] = [e.value if e else None for e in ends]
        events = [Event("laid", seat, data)]
        if not remaining:
            events += self._win(seat)
        return events

    @staticmethod
    def _split(picked: Sequence[Card], groups: Sequence[Sequence[Face]]) -> list[list[Card]]:
        out, start = [], 0
        for group in groups:
            out.append(list(picked[start : start + len(group)]))
            start += len(group)
        return out

    def _extend_table(
        self,
        cards: Sequence[Card],
        layoffs: tuple[tuple[int, tuple[Face, ...]], ...],
        ends: tuple[End | None, ...],
    ) -> list[TableMeld]:
        table = list(self.table)
        if layoffs and self.rules.variant is Variant.SIMPLE:
            raise LayDownRefused("simple.no_layoffs")
        start = 0
        for k, (index, faces) in enumerate(layoffs):
            if not 0 <= index < len(table):
                raise _no_such_meld(index, len(table))
            added = cards[start : start + len(faces)]
            start += len(faces)
            end = ends[k] if k < len(ends) else None
            table[index] = TableMeld(
                extend_meld(table[index].meld, added, self.rules, end), table[index].owner
            )
        return table

    def _check_lay_rules(
        self,
        seat: int,
        melds: list[Meld],
        has_layoffs: bool,
        picked: list[Card],
        remaining: list[Card],
    ) -> None:
        """The variant's conditions on this lay-down; marks the player opened and sets the bar."""
        rules = self.rules
        at_once = len(remaining) == 1 and not self.laid_at_turn_start
        ctx = self._lay_context(seat)
        if rules.variant is Variant.SIMPLE:
            if not (len(remaining) == 1 and not self.laid_any[seat]):
                raise LayDownRefused("simple.all_at_once")
            check_go_out_at_once(melds, has_layoffs, ctx)
            return
        if not rules.has_opening or self.opened[seat]:
            return
        if ctx.taken is not None and ctx.taken not in picked:
            raise OpeningRefused("take.opening_must_use", card=ctx.taken.pretty)
        try:
            value = check_first_laydown(melds, has_layoffs, ctx)
        except OpeningRefused:
            if not at_once:
                raise
            check_go_out_at_once(melds, has_layoffs, ctx)
            value = 0
        self.opened[seat] = True
        if value and self.bar is None and rules.bar_applies:
            self.bar, self.bar_from, self.bar_side = value + 1, value, rules.side_of(seat)

    def _swap(self, seat: int, meld_index: int, face: Face) -> list[Event]:
        self._require_phase(Phase.PLAY)
        if not self.rules.has_opening:
            raise LayDownRefused("swap.not_in_variant", variant=self.rules.variant.value)
        if not self.opened[seat]:
            raise LayDownRefused("swap.not_opened")
        if not 0 <= meld_index < len(self.table):
            raise _no_such_meld(meld_index, len(self.table))
        (card,) = take_matching(self.hands[seat], [face], prefer=self.taken)
        target = self.table[meld_index]
        if swap_target(target.meld, card) is None and target.meld.is_set and target.meld.jokers:
            raise LayDownRefused("swap.undetermined_set")
        meld, joker = swap_joker(target.meld, card)
        self.table[meld_index] = TableMeld(meld, target.owner)
        hand = self.hands[seat]
        hand.remove(card)
        hand.append(joker)
        self.laid_any[seat] = True
        return [Event("joker_swapped", seat, {"meld": meld_index, "card": card.text})]

    # -- discarding and winning ---------------------------------------------------------------

    def _discard(self, seat: int, face: Face) -> list[Event]:
        self._require_phase(Phase.PLAY)
        hand = self.hands[seat]
        (card,) = take_matching(hand, [face], avoid=self.taken)
        if card == self.taken:
            raise DiscardRefused("discard.just_taken", card=card.pretty)
        if self.taken is not None and self.rules.must_use_discard and self.taken in hand:
            raise DiscardRefused("take.must_lay_taken", card=self.taken.pretty)
        if card.is_joker and self.rules.is_atlas:
            last = len(hand) == 1
            if last and not self.rules.options.joker_final_discard_allowed:
                raise DiscardRefused("discard.joker_final")
            if not last and not self.rules.options.joker_discard_allowed:
                raise DiscardRefused("discard.joker")
        hand.remove(card)
        self.discard.append(card)
        self.pile_moves.append((seat, False, card))
        events = [Event("discarded", seat, {"card": card.text})]
        if not hand:
            return events + self._win(seat)
        return events + self._begin_turn(self._next_seat(seat))

    def _win(self, seat: int) -> list[Event]:
        rules = self.rules
        if rules.variant is Variant.SIMPLE:
            outcome = Outcome.SIMPLE
        elif not rules.is_atlas:
            outcome = Outcome.BASIC if self.laid_at_turn_start else Outcome.BASIC_RUMMY
        else:
            outcome = Outcome.OUT if self.laid_at_turn_start else Outcome.RAMI_SEC
        return self._end_round(seat, outcome)

    def _end_round(self, winner: int | None, outcome: Outcome) -> list[Event]:
        rules, n = self.rules, self.rules.players
        penalties, points = (0,) * n, (0,) * rules.sides
        if winner is not None:
            rummy = outcome is Outcome.BASIC_RUMMY
            scored = round_points(self.hands, self.laid_any, winner, rules, rummy=rummy)
            penalties, points = scored.penalties, scored.points
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        result = RoundResult(
            self.round_no,
            winner,
            outcome,
            tuple(tuple(sorted(h, key=sort_key)) for h in self.hands),
            tuple(penalties),
            tuple(points),
            tuple(self.scores),
        )
        self.results.append(result)
        self.phase = Phase.ROUND_OVER
        self.drawn = self.taken = None
        events = [Event("round_ended", winner, result.to_json())]
        if self._game_decided():
            events.append(self._finish())
        return events

    def _game_decided(self) -> bool:
        if self.rules.is_atlas:
            return any(score >= self.rules.limit for score in self.scores)
        # The round number, not the results kept, so a game built from a Position mid-game
        # (which carries no round history) still ends after the agreed rounds.
        return self.round_no >= self.rules.options.basic_rounds

    def _finish(self, excluded: int | None = None) -> Event:
        """Decide the winners: the side under the limit (Atlas), the highest totals (Basic),
        nobody when nobody won a round (Basic's rounds all void)."""
        self.phase = Phase.GAME_OVER
        if self.rules.is_atlas:
            self.winners = [s for s in range(2) if self.scores[s] < self.rules.limit]
        elif excluded is None and not any(self.scores):
            # every round void (a won round always scores: every card is worth a point or more;
            # the scores, not the results, since a game built from a Position has none): a game
            # played by all and won by none, not a tie of winners
            self.winners = []
        else:
            contenders = [s for s in range(self.rules.players) if s != excluded]
            best = max(self.scores[s] for s in contenders)
            self.winners = [s for s in contenders if self.scores[s] == best]
        return Event(
            "game_ended", None, {"winners": list(self.winners), "scores": list(self.scores)}
        )

    def _start_round(self) -> list[Event]:
        if self.phase is not Phase.ROUND_OVER:
            raise OutOfTurn("round.not_over")
        last = self.results[-1]
        if self.rules.is_atlas or self.rules.players > 2 or last.winner is None:
            self.dealer = self._next_seat(self.dealer)
        else:
            self.dealer = last.winner
        return self._deal(None)

    def _resign(self, seat: int) -> list[Event]:
        if self.phase is Phase.GAME_OVER:
            raise OutOfTurn("turn.game_over")
        if not 0 <= seat < self.rules.players:
            raise OutOfTurn("turn.no_such_seat", seat=seat)
        event = Event("resigned", seat, {})
        if self.rules.is_atlas:
            self.phase = Phase.GAME_OVER
            self.winners = [1 - self.rules.side_of(seat)]
            return [
                event,
                Event(
                    "game_ended", None, {"winners": list(self.winners), "scores": list(self.scores)}
                ),
            ]
        return [event, self._finish(excluded=seat)]

    # -- queries --------------------------------------------------------------------------------

    @property
    def side_to_play(self) -> int:
        return self.rules.side_of(self.current)

    def zones(self) -> list[Zone]:
        """Where every card lies, by name: each hand, the stock, the discard pile, each meld."""
        zones: list[Zone] = [(f"seat {s}'s hand", h) for s, h in enumerate(self.hands)]
        zones += [("the stock", self.stock), ("the discard pile", self.discard)]
        zones += [(f"table meld {i + 1}", t.meld.cards) for i, t in enumerate(self.table)]
        return zones

    def all_cards(self) -> list[Card]:
        """Every physical card somewhere: hands, stock, discard pile, table."""
        return (
            [c for h in self.hands for c in h]
            + self.stock
            + self.discard
            + [c for t in self.table for c in t.meld.cards]
        )

    # -- JSON -----------------------------------------------------------------------------------

    def genesis(self) -> dict[str, Any]:
        """What, with the action log, determines the game: rules, seed, first dealer and either
        the scripted first deal or (for a game built from a Position) that position."""
        genesis = {
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "dealer": self.first_dealer,
            "deal": self.first_deal.to_json() if self.first_deal else None,
        }
        if self.origin is not None:
            genesis["position"] = self.origin
        return genesis

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "genesis": self.genesis(),
            "phase": self.phase.value,
            "round_no": self.round_no,
            "dealer": self.dealer,
            "current": self.current,
            "turn": self.turn,
            "hands": [_keys(h) for h in self.hands],
            "stock": _keys(self.stock),
            "discard": _keys(self.discard),
            "table": [t.to_json() for t in self.table],
            "opened": list(self.opened),
            "laid_any": list(self.laid_any),
            "laid_at_turn_start": self.laid_at_turn_start,
            "drawn": self.drawn.key if self.drawn else None,
            "taken": self.taken.key if self.taken else None,
            "bar": self.bar,
            "bar_side": self.bar_side,
            "bar_from": self.bar_from,
            "reshuffles": self.reshuffles,
            "round_turns": self.round_turns,
            "pile_moves": [[seat, took, card.key] for seat, took, card in self.pile_moves],
            "scores": list(self.scores),
            "results": [r.to_json() for r in self.results],
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Read :meth:`to_json`'s snapshot (``docs/engine-snapshot.md``).

        Raises :class:`ValueError` for another schema and
        :class:`~rummy_engine.errors.InvalidPosition` when a card is missing, in two places or
        not of the variant's deck.
        """
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(
                f"unsupported game schema {data.get('schema')!r} (this engine reads {SCHEMA_VERSION})"
            )
        genesis = data["genesis"]
        game = cls.__new__(cls)
        game.rules = Rules.from_json(genesis["rules"])
        game.seed = genesis["seed"]
        game.first_dealer = genesis["dealer"]
        game.first_deal = Deal.from_json(genesis["deal"]) if genesis["deal"] else None
        game.origin = genesis.get("position")
        game.phase = Phase(data["phase"])
        for name in (
            "round_no",
            "dealer",
            "current",
            "turn",
            "bar",
            "bar_side",
            "bar_from",
            "reshuffles",
            "laid_at_turn_start",
        ):
            setattr(game, name, data[name])
        game.hands = [_cards(h) for h in data["hands"]]
        game.stock = _cards(data["stock"])
        game.discard = _cards(data["discard"])
        game.table = [TableMeld.from_json(t) for t in data["table"]]
        game.opened = list(data["opened"])
        game.laid_any = list(data["laid_any"])
        game.round_turns = data.get("round_turns", 0)
        game.pile_moves = [(s, t, Card.from_key(k)) for s, t, k in data.get("pile_moves", [])]
        game.drawn = Card.from_key(data["drawn"]) if data["drawn"] else None
        game.taken = Card.from_key(data["taken"]) if data["taken"] else None
        game.scores = list(data["scores"])
        game.results = [RoundResult.from_json(r) for r in data["results"]]
        game.winners = list(data["winners"])
        check_conservation(game.zones(), game.rules)
        return game


def _no_such_meld(index: int, count: int) -> LayDownRefused:
    """The refusal for a meld number that names nothing on the table."""
    if count == 0:
        return LayDownRefused("lay.no_melds_yet", meld=index + 1)
    return LayDownRefused("lay.no_such_meld", meld=index + 1, count=count)
