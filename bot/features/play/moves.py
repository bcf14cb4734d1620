"""What each typed command or click asks the engine to do, as action builders.

A builder receives the game and the caller's seat and returns the engine action (or a refusal);
the table service calls it under the table lock, so it always sees the current position.
Lay notation is the engine's own (:func:`rummy_engine.parse_lay`): the bot never reads it
itself, so ``/rummy lay``, ``/rummy-learn count`` and game logs agree on what a text means.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import product

from bot.features.play import selection
from bot.features.play.actions import Action
from bot.services.refusal import Refusal
from rummy_engine import Action as Move
from rummy_engine import (
    Discard,
    Draw,
    End,
    Face,
    Game,
    Lay,
    Source,
    Swap,
    UndoTake,
    extend_meld,
    layoff_ends,
    parse_face,
    parse_lay,
)
from rummy_engine.cards import take_matching

#: Builds the engine's move for (the current game, the caller's seat).
Builder = Callable[[Game, int], Move]

#: How many arrangements the panel offers at most (a Discord select holds 25 options).
MAX_CHOICES = 25


class Ask(Exception):
    """A click that needs one more answer from the player before it can be played.

    ``kind`` is ``"arrange"`` (``options`` are whole lay-downs, each a tuple of melds in table
    order) or ``"end"`` (``options`` are the ends a joker may take; ``meld`` is the 1-based
    table meld and ``cards`` the faces added). Nothing was changed when it is raised. (A plain
    exception, not a frozen dataclass: context managers set its traceback on the way out.)
    """

    def __init__(
        self,
        kind: str,
        options: tuple[object, ...],
        *,
        meld: int = 0,
        cards: tuple[Face, ...] = (),
    ) -> None:
        super().__init__(kind)
        self.kind, self.options, self.meld, self.cards = kind, options, meld, cards


def draw(source: Source = Source.STOCK) -> Builder:
    """``/rummy draw`` and the Draw / Take buttons."""
    return lambda game, seat: Draw(seat, source)


def lay(melds: str) -> Builder:
    """``/rummy lay``: the notation is parsed by the engine."""
    return lambda game, seat: parse_lay(seat, melds)


def add(meld: int, cards: str, end: End | None = None) -> Builder:
    """``/rummy add``: ``cards`` onto table meld ``meld`` (1-based), at ``end`` if named."""
    return lambda game, seat: named_ends(game, typed_add(seat, meld, cards, end))


def swap(meld: int, card: str) -> Builder:
    """``/rummy swap``: ``card`` frees the joker of table meld ``meld`` (1-based)."""
    return lambda game, seat: Swap(seat, meld - 1, parse_face(card))


def discard(card: str) -> Builder:
    """``/rummy discard``."""
    return lambda game, seat: Discard(seat, parse_face(card))


def undo() -> Builder:
    """``/rummy undo`` and the Undo button: give the taken discard back."""
    return lambda game, seat: UndoTake(seat)


def clicked(action: Action, arg: str, values: Sequence[str]) -> Builder:
    """The move a click asks for; ``arg`` carries the cards chosen in the panel (or, for
    :attr:`Action.ADD_END`, the meld and the cards), ``values`` what a select chose."""
    match action:
        case Action.DRAW:
            return draw(Source.STOCK)
        case Action.TAKE:
            return draw(Source.DISCARD)
        case Action.UNDO:
            return undo()
        case Action.ARRANGE:
            return lambda game, seat: Lay(seat, selection.decode_melds(values[0]))
        case Action.ADD_END:
            number, _, cards = arg.partition("_")
            added, end = tuple(selection.decode(cards)), End(values[0])
            return lambda game, seat: Lay(seat, (), ((int(number) - 1, added),), (end,))
    chosen = selection.decode(arg) if arg else []
    match action:
        case Action.DISCARD:
            return lambda game, seat: Discard(seat, _one(chosen, "discard"))
        case Action.ADD_TO:
            return lambda game, seat: add_chosen(game, seat, int(values[0]), chosen)
        case Action.SWAP_IN:
            return lambda game, seat: Swap(seat, int(values[0]) - 1, _one(chosen, "swap"))
        case Action.LAY:
            return lambda game, seat: lay_selection(game, seat, chosen)
    raise Refusal("button.unknown")


def typed_add(seat: int, meld: int, cards: str, end: End | None) -> Lay:
    """``/rummy add``: the engine reads ``+meld cards`` as lay notation, so the notation's own
    end word works (``JK low``) as well as the command's ``end`` option; not both at once."""
    lay = parse_lay(seat, f"+{meld} {cards}")
    if lay.melds or len(lay.layoffs) != 1:
        raise Refusal("add.one_meld")
    if end is None:
        return lay
    if lay.end_of(0) is not None:
        raise Refusal("notation.two_ends", group=f"{cards} end:{end.value}")
    return replace(lay, ends=(end,))


def _one(chosen: Sequence[Face], what: str) -> Face:
    if len(chosen) != 1:
        raise Refusal(f"hand.one_card.{what}")  # one sentence per action: "what" is not a word
    return chosen[0]


def _ambiguous(game: Game, meld: int, faces: Sequence[Face], seat: int) -> list[End]:
    """The ends a spare joker of ``faces`` could take on table meld ``meld`` (0-based)."""
    if not 0 <= meld < len(game.table) or not any(f.is_joker for f in faces):
        return []
    try:
        added = take_matching(game.hands[seat], faces)
    except ValueError:
        return []  # the engine refuses the missing card in its own words
    return layoff_ends(game.table[meld].meld, added, game.rules)


def named_ends(game: Game, lay: Lay) -> Lay:
    """``lay`` when every lay-off of a joker that could go to either end names one.

    ``/rummy add`` asks instead of letting the engine put an unnamed joker high, because the end
    decides which natural card may later swap the joker out (RULES.md §1.5). ``/rummy lay``
    keeps the notation's own meaning (``+N JK`` is high unless ``low`` is written), so text
    typed before ends existed still means what it meant.
    """
    for k, (meld, faces) in enumerate(lay.layoffs):
        if lay.end_of(k) is None and len(_ambiguous(game, meld, faces, lay.seat)) == 2:
            low, high = (_joker_as(game, lay.seat, meld, faces, e) for e in (End.LOW, End.HIGH))
            raise Refusal("add.which_end", meld=meld + 1, low=low, high=high)
    return lay


def _joker_as(game: Game, seat: int, meld: int, faces: Sequence[Face], end: End) -> str:
    """What the spare joker stands for at ``end`` (``4♣``), for the question and the choice."""
    added = take_matching(game.hands[seat], faces)
    grown = extend_meld(game.table[meld].meld, added, game.rules, end)
    index = 0 if end is End.LOW else len(grown.cards) - 1
    return grown.stands_for[index].pretty


def end_labels(game: Game, seat: int, meld: int, faces: Sequence[Face]) -> dict[End, str]:
    """Each legal end of a joker lay-off with the card the joker would stand for there."""
    ends = _ambiguous(game, meld - 1, faces, seat)
    return {end: _joker_as(game, seat, meld - 1, faces, end) for end in ends}


def add_chosen(game: Game, seat: int, meld: int, chosen: Sequence[Face]) -> Lay:
    """Add the chosen cards to table meld ``meld`` (1-based); ask for the end when a joker
    could go to either."""
    ends = _ambiguous(game, meld - 1, chosen, seat)
    if len(ends) == 2:
        raise Ask("end", tuple(ends), meld=meld, cards=tuple(chosen))
    return Lay(seat, (), ((meld - 1, tuple(chosen)),))


def lay_selection(game: Game, seat: int, chosen: Sequence[Face]) -> Lay:
    """Lay the chosen cards as new melds, split automatically when they form several.

    A selection has no order, so each meld takes its legal arrangement; when some meld has
    several (a joker low or high), the player is asked which one (:class:`Ask`).
    """
    if not chosen:
        raise Refusal("hand.select_first")
    cards = take_matching(game.hands[seat], chosen)
    groups = selection.partition(cards, game.rules)
    if groups is None:
        raise Refusal("hand.no_partition", cards=" ".join(f.pretty for f in chosen))
    each = [[tuple(c.face for c in m.cards) for m in group] for group in groups]
    lays = [tuple(melds) for melds in product(*each)]
    if len(lays) == 1:
        return Lay(seat, lays[0])
    raise Ask("arrange", tuple(lays[:MAX_CHOICES]))


def picked_face(value: str) -> Face:
    """The card of a card-menu value (``<index>:<card>``)."""
    return parse_face(value.split(":", 1)[-1])
