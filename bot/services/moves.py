"""What each typed command or click asks the engine to do, as action builders.

A builder receives the game and the caller's seat and returns the engine action (or a refusal);
the table service calls it under the table lock, so it always sees the current position.
Parsing lives here, away from Discord, so commands and buttons share it and tests can call it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.services import selection
from bot.services.refusal import Refusal
from rummy_engine import (
    Action,
    Discard,
    Draw,
    Face,
    Game,
    Lay,
    Source,
    Swap,
    UndoTake,
    parse_face,
    parse_faces,
)
from rummy_engine.cards import take_matching

Builder = Callable[[Game, int], Action]


def typed(
    action: str,
    *,
    source: str = "stock",
    melds: str = "",
    meld: int = 0,
    cards: str = "",
    card: str = "",
) -> Builder:
    """Builders for the typed commands; the notation is parsed inside the engine's rules."""
    if action == "draw":
        return lambda game, seat: Draw(seat, Source(source))
    if action == "lay":
        return lambda game, seat: parse_lay(seat, melds)
    if action == "undo":
        return lambda game, seat: UndoTake(seat)
    if action == "add":
        return lambda game, seat: Lay(seat, (), ((meld - 1, tuple(parse_faces(cards))),))
    if action == "swap":
        return lambda game, seat: Swap(seat, meld - 1, parse_face(card))
    if action == "discard":
        return lambda game, seat: Discard(seat, parse_face(card))
    raise Refusal("button.unknown")


def clicked(action: str, arg: str, values: list[str]) -> Builder:
    """The action a click asks for; ``arg`` carries the cards chosen in the panel."""
    chosen = selection.decode(arg) if arg else []
    if action == "draw":
        return lambda game, seat: Draw(seat, Source.STOCK)
    if action == "take":
        return lambda game, seat: Draw(seat, Source.DISCARD)
    if action == "undo":
        return lambda game, seat: UndoTake(seat)
    if action == "discard":
        return lambda game, seat: Discard(seat, _one(chosen, "discard"))
    if action == "addto":
        return lambda game, seat: Lay(seat, (), ((int(values[0]) - 1, tuple(chosen)),))
    if action == "swapin":
        return lambda game, seat: Swap(seat, int(values[0]) - 1, _one(chosen, "swap"))
    if action == "lay":
        return lambda game, seat: lay_selection(game, seat, chosen)
    raise Refusal("button.unknown")


def parse_lay(seat: int, text: str) -> Lay:
    """``/rummy lay``: melds separated by ``|``; a group starting ``+N`` adds to table meld N
    (``7h 8h 9h | +3 10h``), so a whole going-out turn fits in one lay-down."""
    melds: list[tuple[Face, ...]] = []
    layoffs: list[tuple[int, tuple[Face, ...]]] = []
    for group in text.replace("/", "|").split("|"):
        first, _, rest = group.strip().partition(" ")
        if first.startswith("+") and first[1:].isdigit():
            layoffs.append((int(first[1:]) - 1, tuple(parse_faces(rest))))
        elif group.strip():
            melds.append(tuple(parse_faces(group)))
    if not melds and not layoffs:
        raise Refusal("notation.no_cards")
    return Lay(seat, tuple(melds), tuple(layoffs))


def _one(chosen: Sequence[Face], what: str) -> Face:
    if len(chosen) != 1:
        raise Refusal(f"hand.one_card.{what}")  # one sentence per action: "what" is not a word
    return chosen[0]


def lay_selection(game: Game, seat: int, chosen: Sequence[Face]) -> Lay:
    """Lay the chosen cards as new melds, split automatically when they form several."""
    if not chosen:
        raise Refusal("hand.select_first")
    cards = take_matching(game.hands[seat], chosen)
    melds = selection.partition(cards, game.rules)
    if melds is None:
        raise Refusal("hand.no_partition", cards=" ".join(f.pretty for f in chosen))
    return Lay(seat, tuple(tuple(c.face for c in m.cards) for m in melds))


def picked_face(value: str) -> Face:
    """The card of a card-menu value (``<index>:<card>``)."""
    return parse_face(value.split(":", 1)[-1])
