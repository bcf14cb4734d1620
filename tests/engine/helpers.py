"""Building game positions for the RULES.md vectors: hands, table and piles named in notation."""

from __future__ import annotations

from collections.abc import Sequence

from rummy_engine import (
    Card,
    Deal,
    Game,
    Phase,
    Rules,
    TableMeld,
    make_deck,
    make_meld,
    parse_faces,
)
from rummy_engine.melds import Meld


class CardPool:
    """The deck of a variant, from which named cards are pulled (lowest copy first)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cards = make_deck(rules.spec.packs, rules.spec.jokers)

    def pull(self, text: str) -> list[Card]:
        out = []
        for face in parse_faces(text):
            card = next((c for c in self.cards if c.face == face), None)
            if card is None:
                raise ValueError(f"no {face.text} left in the deck for this position")
            self.cards.remove(card)
            out.append(card)
        return out


def cards(text: str) -> list[Card]:
    """Physical cards for a notation string; repeated faces get the second copy."""
    seen: dict[object, int] = {}
    out = []
    for face in parse_faces(text):
        copy = seen.get(face, 0)
        seen[face] = copy + 1
        out.append(Card(face.rank, face.suit, copy))
    return out


def meld(text: str, rules: Rules) -> Meld:
    return make_meld(cards(text), rules)


def position(
    rules: Rules,
    hands: Sequence[str],
    *,
    table: Sequence[tuple[str, int]] = (),
    discard: str = "",
    stock_top: str = "",
    current: int = 0,
    phase: Phase = Phase.PLAY,
    opened: Sequence[int] = (),
    laid_any: Sequence[int] = (),
    dealer: int | None = None,
) -> Game:
    """A legal mid-round position: every card of the deck is somewhere exactly once."""
    pool = CardPool(rules)
    hand_cards = [pool.pull(h) if h else [] for h in hands]
    table_cards = [(pool.pull(t), owner) for t, owner in table]
    discard_cards = pool.pull(discard) if discard else []
    top = pool.pull(stock_top) if stock_top else []
    stock = pool.cards + top[::-1]
    for meld_cards, _ in table_cards:
        stock = meld_cards + stock
    deal = Deal(tuple(tuple(h) for h in hand_cards), tuple(stock), tuple(discard_cards))
    game = Game.new(rules, "vector", dealer=current if dealer is None else dealer, deal=deal)
    for meld_cards, owner in table_cards:
        for card in meld_cards:
            game.stock.remove(card)
        game.table.append(TableMeld(make_meld(meld_cards, rules), owner))
    game.current, game.phase = current, phase
    game.drawn = game.taken = None
    for seat in opened:
        game.opened[seat] = game.laid_any[seat] = True
    for seat in laid_any:
        game.laid_any[seat] = True
    game.laid_at_turn_start = game.laid_any[current]
    return game


def conserved(game: Game) -> bool:
    deck = make_deck(game.rules.spec.packs, game.rules.spec.jokers)
    return sorted(game.all_cards()) == sorted(deck)
