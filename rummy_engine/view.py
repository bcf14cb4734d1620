"""What one seat may know: the only picture of the game the bot ever shows a player."""

from __future__ import annotations

from dataclasses import dataclass

from rummy_engine.cards import Card, sort_key
from rummy_engine.game import Game, Phase, RoundResult, TableMeld
from rummy_engine.rules import Rules


@dataclass(frozen=True)
class PlayerView:
    """A seat's knowledge: its own hand, and only counts for everybody else's.

    ``seat`` is None for a spectator view (no hand at all). After a round ends, the round's
    result (with every hand) is public, and is in ``results``.

    ``pile`` (bottom first) and ``pile_moves`` (this round's takes and discards, as
    ``(seat, took, card)``) are what every player at a real table has seen happen, so a computer
    seat may remember them too; ``laid_at_turn_start`` and ``bar_side`` are public facts the
    rules depend on.
    """

    rules: Rules
    seat: int | None
    phase: Phase
    round_no: int
    turn: int
    dealer: int
    current: int
    hand: tuple[Card, ...]
    drawn: Card | None
    taken: Card | None
    table: tuple[TableMeld, ...]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    hand_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    laid_any: tuple[bool, ...]
    scores: tuple[int, ...]
    threshold: int
    bar: int | None
    results: tuple[RoundResult, ...]
    winners: tuple[int, ...]
    pile: tuple[Card, ...] = ()
    pile_moves: tuple[tuple[int, bool, Card], ...] = ()
    laid_at_turn_start: bool = False
    bar_side: int | None = None

    @property
    def my_turn(self) -> bool:
        return (
            self.seat is not None
            and self.seat == self.current
            and self.phase in (Phase.DRAW, Phase.PLAY)
        )


def player_view(game: Game, seat: int | None) -> PlayerView:
    """Build the view of ``seat`` (None: a spectator's view, no hand)."""
    own = seat is not None
    return PlayerView(
        rules=game.rules,
        seat=seat,
        phase=game.phase,
        round_no=game.round_no,
        turn=game.turn,
        dealer=game.dealer,
        current=game.current,
        hand=tuple(sorted(game.hands[seat], key=sort_key)) if seat is not None else (),
        drawn=game.drawn if own and game.current == seat else None,
        taken=game.taken,
        table=tuple(game.table),
        discard_top=game.discard[-1] if game.discard else None,
        discard_size=len(game.discard),
        stock_size=len(game.stock),
        hand_sizes=tuple(len(h) for h in game.hands),
        opened=tuple(game.opened),
        laid_any=tuple(game.laid_any),
        scores=tuple(game.scores),
        threshold=game.threshold_for(seat) if seat is not None else game.rules.opening_threshold,
        bar=game.bar,
        results=tuple(game.results),
        winners=tuple(game.winners),
        pile=tuple(game.discard),
        pile_moves=tuple(game.pile_moves),
        laid_at_turn_start=game.laid_at_turn_start,
        bar_side=game.bar_side,
    )
