"""The kinds of lesson exercise: each holds only its question (cards in the notation players
type, or a :class:`~rummy_engine.Position`) and asks the engine for the rest.

Why the engine decides: a lesson that hard-codes "the answer is 60" drifts from the rules the
tables play by (an option's default changes, a variant's joker value), and then teaches a
wrong game. Here an exercise's answer, its check and its explanation come from
:func:`~rummy_engine.make_meld`, :func:`~rummy_engine.arrangements`,
:func:`~rummy_engine.opening_value`, :meth:`~rummy_engine.Game.verify`, the scoring functions
and the engine's hint: a wrong answer is explained by the engine's own refusal (a
:class:`~rummy_engine.RuleViolation`, worded in the player's language like any refusal at a
table).
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

from bot.features.play.selection import partition
from bot.services.refusal import Refusal
from rummy_engine import (
    Action,
    Card,
    Discard,
    Draw,
    Face,
    Game,
    Lay,
    Meld,
    MeldKind,
    Phase,
    Position,
    Rules,
    RuleViolation,
    Source,
    Swap,
    Variant,
    arrangements,
    format_cards,
    hand_penalty,
    make_meld,
    meld_opening_value,
    opening_value,
    parse_face,
    parse_faces,
    parse_meld_groups,
    player_view,
    round_points,
    sort_key,
)
from rummy_engine.ai import hint

R51 = Rules(Variant.R51, 2)
R71 = Rules(Variant.R71, 2)


class Control(Enum):
    """How an exercise is answered: cards picked in a menu then Check, Yes/No, or a value
    chosen in a menu."""

    PICK = "pick"
    YES_NO = "yesno"
    CHOOSE = "choose"


def cards_of(text: str) -> tuple[Card, ...]:
    """Physical cards for a notation, each repeat the next copy (``8h 8h``: both packs')."""
    seen: Counter[Face] = Counter()
    found = []
    for face in parse_faces(text):
        found.append(Card(face.rank, face.suit, seen[face]))
        seen[face] += 1
    return tuple(found)


def written(cards: Sequence[Card]) -> str:
    return format_cards(cards)


@dataclass(frozen=True)
class Verdict:
    """What the engine says of an answer: right, or why not (its refusal)."""

    right: bool
    why: RuleViolation | None = None


class Exercise(ABC):
    """One question of a chapter; the answer is computed, never written down."""

    control: Control
    rules: Rules

    @property
    @abstractmethod
    def cards(self) -> tuple[Card, ...]:
        """The cards the picture shows (numbered as the menu lists them, for a pick)."""

    @property
    def drawn(self) -> Card | None:
        """A card the picture marks (the one just drawn or taken)."""
        return None

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...] | None:
        """Melds the picture shows apart (None: the cards as a hand)."""
        return None

    def choices(self) -> tuple[int, ...]:
        """The values offered in the menu (``CHOOSE``)."""
        return ()

    @abstractmethod
    def check(self, answer: str) -> Verdict:
        """The engine's verdict on an answer: picked card indexes as a bitmask (``PICK``),
        ``yes``/``no`` (``YES_NO``), the value chosen (``CHOOSE``)."""

    @abstractmethod
    def solution(self) -> RuleViolation:
        """The right answer, as a sentence (a code and its parameters)."""


class Valued(Exercise):
    """An exercise answered by choosing a value in a menu, the engine's :meth:`value`."""

    #: The sentence for a wrong value (``{value}``: the one chosen).
    wrong: ClassVar[str]

    @abstractmethod
    def value(self) -> int:
        """The right value, computed by the engine."""

    def check(self, answer: str) -> Verdict:
        if answer.isdigit() and int(answer) == self.value():
            return Verdict(True)
        return Verdict(False, Refusal(self.wrong, value=answer[:6]))


class YesNo(Exercise):
    """An exercise answered Yes or No: yes is right when the engine refuses nothing, and a
    wrong answer is explained by its refusal (or, for a wrong No, by the solution)."""

    @abstractmethod
    def refusal(self) -> RuleViolation | None:
        """What the engine says against the cards or the move (None: nothing)."""

    def check(self, answer: str) -> Verdict:
        refusal = self.refusal()
        if (answer == "yes") == (refusal is None):
            return Verdict(True)
        return Verdict(False, refusal or self.solution())


def picked(cards: Sequence[Card], mask: str) -> list[Card]:
    """The cards a bitmask names (bit ``i``: the ``i``-th card); damaged text picks nothing."""
    bits = int(mask) if mask.isdigit() else 0
    return [card for i, card in enumerate(cards) if bits >> i & 1]


def mask_of(indexes: Sequence[int]) -> str:
    return str(sum(1 << i for i in set(indexes)))


def _why_not_a_meld(cards: Sequence[Card], rules: Rules) -> RuleViolation:
    """The engine's refusal of cards that form no meld in any order (tried in the menu's
    order, which is the picture's)."""
    try:
        make_meld(cards, rules)
    except RuleViolation as error:
        return error
    return Refusal("learn.not_a_meld", cards=written(cards))  # pragma: no cover - guarded


class OnPosition(Exercise):
    """An exercise about seat 0 of ``position``: the rules and the hand come from it."""

    position: Position

    @property
    def rules(self) -> Rules:  # type: ignore[override]
        return self.position.rules

    def game(self) -> Game:
        return self.position.to_game()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(sorted(self.game().hands[0], key=sort_key))


@dataclass(frozen=True)
class PickMeld(Exercise):
    """Pick, among ``offered``, cards that make a meld (of ``want``'s kind, when given)."""

    offered: str
    want: MeldKind | None = None
    rules: Rules = R51
    control: Control = field(default=Control.PICK, init=False)

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.offered)

    def _meld(self, chosen: Sequence[Card]) -> Meld | None:
        found = arrangements(list(chosen), self.rules)
        return next((m for m in found if self.want in (None, m.kind)), None)

    def check(self, answer: str) -> Verdict:
        chosen = picked(self.cards, answer)
        if self._meld(chosen) is not None:
            return Verdict(True)
        found = arrangements(chosen, self.rules)
        if found:  # a meld, of the other kind
            return Verdict(False, Refusal(f"learn.not_a_{self.want_word}", cards=written(chosen)))
        return Verdict(False, _why_not_a_meld(chosen, self.rules))

    @property
    def want_word(self) -> str:
        return "meld" if self.want is None else self.want.value

    def solution(self) -> RuleViolation:
        """The largest choice the engine accepts (the first found among equals)."""
        cards = self.cards
        for size in range(len(cards), 2, -1):
            for chosen in itertools.combinations(cards, size):
                meld = self._meld(chosen)
                if meld is not None:
                    return Refusal("learn.answer.cards", cards=written(meld.cards))
        raise AssertionError(f"no answer among {self.offered}")  # a lesson without an answer


@dataclass(frozen=True)
class IsMeld(YesNo):
    """Yes or no: do these cards, as laid, make a meld?"""

    laid: str
    rules: Rules = R51
    control: Control = field(default=Control.YES_NO, init=False)

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.laid)

    def refusal(self) -> RuleViolation | None:
        try:
            make_meld(self.cards, self.rules)
        except RuleViolation as error:
            return error
        return None

    def solution(self) -> RuleViolation:
        refusal = self.refusal()
        if refusal is not None:
            return refusal
        meld = make_meld(self.cards, self.rules)
        return Refusal(f"learn.answer.is_{meld.kind.value}", cards=written(meld.cards))


@dataclass(frozen=True)
class OpeningValue(Valued):
    """Choose what these melds are worth toward an opening (``rules``' counting)."""

    melds: str
    rules: Rules = R51
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.count.wrong"

    def _melds(self) -> list[Meld]:
        return [
            make_meld(cards_of(" ".join(f.text for f in group)), self.rules)
            for group in parse_meld_groups(self.melds)
        ]

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        made, seen = [], Counter[Face]()
        for group in parse_meld_groups(self.melds):  # copies counted across melds
            cards = []
            for face in group:
                cards.append(Card(face.rank, face.suit, seen[face]))
                seen[face] += 1
            made.append(tuple(cards))
        return tuple(made)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.groups for c in group)

    def value(self) -> int:
        return opening_value((make_meld(g, self.rules) for g in self.groups), self.rules)

    def choices(self) -> tuple[int, ...]:
        """The value and near misses: an Ace or a joker counted the other way, a card off."""
        right = self.value()
        return tuple(sorted({right, right - 10, right + 10, right - 1, right + 1} - {0}))

    def solution(self) -> RuleViolation:
        parts = [
            f"{written(g)} = {meld_opening_value(make_meld(g, self.rules), self.rules)}"
            for g in self.groups
        ]
        return Refusal("learn.answer.count", parts="; ".join(parts), value=self.value())


@dataclass(frozen=True)
class Opens(OnPosition):
    """Pick, from a hand just drawn to (seat 0 of ``position``), the melds of an opening."""

    position: Position
    control: Control = field(default=Control.PICK, init=False)

    @property
    def drawn(self) -> Card | None:
        return self.game().drawn

    def check(self, answer: str) -> Verdict:
        chosen = picked(self.cards, answer)
        if not chosen:
            return Verdict(False, RuleViolation("opening.no_melds"))
        melds = partition(chosen, self.rules)
        if melds is None:
            return Verdict(False, _why_not_a_meld(chosen, self.rules))
        lay = Lay(0, melds=tuple(tuple(c.face for c in found[0].cards) for found in melds))
        try:
            self.game().verify(lay)
        except RuleViolation as error:
            return Verdict(False, error)
        return Verdict(True)

    def solution(self) -> RuleViolation:
        game = self.game()
        opening = hint(player_view(game, 0), self.rules).opening
        assert opening is not None and opening.enough, "a lesson hand that cannot open"
        melds = " | ".join(written(m.cards) for m in opening.melds)
        return Refusal("learn.answer.opening", melds=melds, value=opening.value)


def lay(melds: str) -> Lay:
    """Seat 0 lays ``melds`` (``/rummy lay`` notation)."""
    return Lay(0, melds=tuple(tuple(group) for group in parse_meld_groups(melds)))


def discard(card: str) -> Discard:
    return Discard(0, parse_face(card))


def swap(meld: int, card: str) -> Swap:
    """Seat 0 gives ``card`` to table meld ``meld`` (numbered from 1) for its joker."""
    return Swap(0, meld - 1, parse_face(card))


TAKE = Draw(0, Source.DISCARD)


@dataclass(frozen=True)
class Allowed(OnPosition, YesNo):
    """Yes or no: may seat 0 of ``position`` make ``move`` now? (``Game.verify``; ``said``: the
    sentence that explains a yes)."""

    position: Position
    move: Action
    said: str = "learn.answer.allowed"
    control: Control = field(default=Control.YES_NO, init=False)

    @property
    def drawn(self) -> Card | None:
        game = self.position.to_game()
        return game.drawn if game.phase is Phase.PLAY else None

    def refusal(self) -> RuleViolation | None:
        try:
            self.position.to_game().verify(self.move)
        except RuleViolation as error:
            return error
        return None

    def solution(self) -> RuleViolation:
        return self.refusal() or Refusal(self.said)


@dataclass(frozen=True)
class Extends(OnPosition):
    """Pick, from seat 0's hand in ``position`` (opened, in its play), cards that extend table
    meld ``meld`` (numbered from 1, as at a table)."""

    position: Position
    meld: int
    control: Control = field(default=Control.PICK, init=False)

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...] | None:
        return None

    def _refusal(self, game: Game, chosen: Sequence[Card]) -> RuleViolation | None:
        lay = Lay(0, layoffs=((self.meld - 1, tuple(c.face for c in chosen)),))
        try:
            game.verify(lay)
        except RuleViolation as error:
            return error
        return None

    def check(self, answer: str) -> Verdict:
        chosen = picked(self.cards, answer)
        if not chosen:
            return Verdict(False, RuleViolation("meld.nothing_added"))
        refusal = self._refusal(self.position.to_game(), chosen)
        return Verdict(refusal is None, refusal)

    def solution(self) -> RuleViolation:
        """The most cards the engine lets go on the meld (the first found among equals)."""
        game, cards = self.position.to_game(), self.cards
        for size in range(len(cards) - 1, 0, -1):
            for chosen in itertools.combinations(cards, size):
                if self._refusal(game, chosen) is None:
                    return Refusal("learn.answer.cards", cards=written(chosen))
        raise AssertionError("nothing extends the lesson's meld")


@dataclass(frozen=True)
class Frees(OnPosition):
    """Pick the one card of seat 0's hand that frees the joker of table meld ``meld``."""

    position: Position
    meld: int
    control: Control = field(default=Control.PICK, init=False)

    def _refusal(self, game: Game, card: Card) -> RuleViolation | None:
        try:
            game.verify(Swap(0, self.meld - 1, card.face))
        except RuleViolation as error:
            return error
        return None

    def check(self, answer: str) -> Verdict:
        chosen = picked(self.cards, answer)
        if len(chosen) != 1:
            return Verdict(False, Refusal("learn.pick_one", count=len(chosen)))
        refusal = self._refusal(self.position.to_game(), chosen[0])
        return Verdict(refusal is None, refusal)

    def solution(self) -> RuleViolation:
        game = self.position.to_game()
        freeing = [c for c in self.cards if self._refusal(game, c) is None]
        assert freeing, "no card frees the lesson's joker"
        return Refusal("learn.answer.frees", card=freeing[0].pretty)


@dataclass(frozen=True)
class Penalty(Valued):
    """Choose what ``hand`` costs its holder when another side goes out (``rules``' count;
    ``laid``: the holder laid cards this round)."""

    hand: str
    rules: Rules = R51
    laid: bool = True
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.penalty.wrong"

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.hand)

    def value(self) -> int:
        return hand_penalty(self.cards, self.laid, self.rules)

    def choices(self) -> tuple[int, ...]:
        """The value, the other case's (laid or not) and near misses."""
        right = self.value()
        other = hand_penalty(self.cards, not self.laid, self.rules)
        return tuple(sorted({right, other, right - 10, right + 10, right + 1} - {0}))

    def solution(self) -> RuleViolation:
        return Refusal("learn.answer.penalty", cards=written(self.cards), value=self.value())


@dataclass(frozen=True)
class RoundScore(Valued):
    """Choose what the winner (seat 0) of a Basic round scores from the others' ``hands``
    (``|`` between hands); ``rummy``: they went out all at once."""

    hands: str
    rules: Rules
    rummy: bool = False
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.score.wrong"

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        return OpeningValue(self.hands, self.rules).groups

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.groups for c in group)

    def _points(self, rummy: bool) -> int:
        hands = [(), *self.groups]
        laid = [True] * len(hands)
        return round_points(hands, laid, 0, self.rules, rummy=rummy).points[0]

    def value(self) -> int:
        return self._points(self.rummy)

    def choices(self) -> tuple[int, ...]:
        """The value, the other kind of win's, and near misses."""
        right = self.value()
        return tuple(
            sorted({right, self._points(not self.rummy), right - 10, right + 10, right + 1})
        )

    def solution(self) -> RuleViolation:
        key = "learn.answer.rummy" if self.rummy else "learn.answer.gain"
        return Refusal(key, gain=self._points(False), value=self.value())


@dataclass(frozen=True)
class Limit(Valued):
    """Choose the score that ends a game of ``rules`` (its variant and number of players)."""

    rules: Rules
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.limit.wrong"

    @property
    def cards(self) -> tuple[Card, ...]:
        return ()

    def value(self) -> int:
        spec = self.rules.spec
        return spec.limit_2v2 if self.rules.teams else spec.limit_1v1

    def choices(self) -> tuple[int, ...]:
        """Every limit of the Atlas variants, 1v1 and 2v2."""
        specs = [Rules(v, 2).spec for v in Variant if v.is_atlas]
        return tuple(sorted({s.limit_1v1 for s in specs} | {s.limit_2v2 for s in specs}))

    def solution(self) -> RuleViolation:
        return Refusal("learn.answer.limit", value=self.value())


@dataclass(frozen=True)
class Bar(OnPosition, Valued):
    """Choose what the other side's first opening needs once seat 0 of ``position`` opens with
    ``melds`` (the +1 bar of the first opening)."""

    position: Position
    melds: str
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.bar.wrong"

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        return OpeningValue(self.melds, self.rules).groups

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.groups for c in group)

    def opening(self) -> int:
        return OpeningValue(self.melds, self.rules).value()

    def value(self) -> int:
        game = self.game()
        game.apply(lay(self.melds))
        return game.threshold_for(1)

    def choices(self) -> tuple[int, ...]:
        """The bar, the opening itself, the variant's base and near misses."""
        right, base = self.value(), self.rules.opening_threshold
        return tuple(sorted({right, self.opening(), base, base + 1, right + 1}))

    def solution(self) -> RuleViolation:
        return Refusal("learn.answer.bar", opening=self.opening(), value=self.value())


@dataclass(frozen=True)
class SidePenalty(Valued):
    """Choose what the losing side pays when seat 0 goes out: ``hands`` are seats 1, 2, 3's
    (``|`` between them; seat 2 is the winner's partner), ``laid`` whether each laid cards."""

    hands: str
    laid: tuple[bool, bool, bool]
    rules: Rules
    control: Control = field(default=Control.CHOOSE, init=False)
    wrong: ClassVar[str] = "learn.side.wrong"

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        """The partner's hand first, then the two opponents' (how the question names them)."""
        opponent, partner, other = OpeningValue(self.hands, self.rules).groups
        return partner, opponent, other

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.groups for c in group)

    def _points(self, rules: Rules, partner_pays: bool = False) -> int:
        opponent, partner, other = OpeningValue(self.hands, self.rules).groups
        hands = [(), opponent, partner, other]
        laid = [True, *self.laid]
        points = round_points(hands, laid, 0, rules).points[rules.side_of(1)]
        if partner_pays:
            points += hand_penalty(partner, self.laid[1], rules)
        return points

    def value(self) -> int:
        return self._points(self.rules)

    def choices(self) -> tuple[int, ...]:
        """The value, with the partner paying too, in the other scale, and a near miss."""
        other = Rules(
            Variant.SIMPLE if self.rules.variant is not Variant.SIMPLE else Variant.R51, 4
        )
        right = self.value()
        return tuple(
            sorted({right, self._points(self.rules, True), self._points(other), right + 10})
        )

    def solution(self) -> RuleViolation:
        opponent, _, other = OpeningValue(self.hands, self.rules).groups
        first = hand_penalty(opponent, self.laid[0], self.rules)
        second = hand_penalty(other, self.laid[2], self.rules)
        return Refusal("learn.answer.side", first=first, second=second, value=self.value())
