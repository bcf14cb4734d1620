"""Rummy puzzles made from real positions: what one player sees at the start of a turn's play,
and a question about it whose right answers the solver finds.

Why from a view: a puzzle shows the mover's hand, the table, the discard pile's top and how many
cards everyone holds, nothing more, so two games that differ only in cards the mover could not see
give the same puzzle (the same :attr:`Puzzle.key`, the same picture). Every answer is judged by
the rules on a stand-in game built from that view (:func:`~rummy_engine.ai.shadow.shadow_game`):
a wrong answer gets the engine's own refusal when the rules refuse it.

The kinds, each asked only where it has a right answer and a tempting wrong one:

* ``GO_OUT`` — the hand can go out this turn: which card is the last discard? (every discard
  that ends a go-out is right);
* ``OPENING`` — the bar was raised by the other side's opening and the hand can still open:
  which cards make the best opening (the most points)? (any lay-down worth the most is right);
* ``SAFE_DISCARD`` — which discard gives nothing away? A card that fits a meld on the table is
  one the next player can take and lay off; the right answers are the cards that fit none,
  costliest first (the most points out of the hand), where the costliest card of all does fit;
* ``FREE_JOKER`` — a card in hand frees a table joker, and with that joker the hand goes out
  (and not without it): which card frees it?
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rummy_engine.actions import Action, Discard, Lay, Swap
from rummy_engine.ai.player import Strength, decide
from rummy_engine.ai.shadow import shadow_game
from rummy_engine.cards import Card, Face
from rummy_engine.errors import RuleViolation
from rummy_engine.game import Game, Phase
from rummy_engine.melds import Meld
from rummy_engine.rules import Rules
from rummy_engine.solver import (
    GoOutPlan,
    Opening,
    best_opening,
    extension_targets,
    find_melds,
    going_out,
    swap_targets,
)
from rummy_engine.values import opening_value, penalty_value
from rummy_engine.view import PlayerView, player_view


class PuzzleKind(enum.Enum):
    GO_OUT = "go_out"
    OPENING = "opening"
    SAFE_DISCARD = "safe_discard"
    FREE_JOKER = "free_joker"


#: Fewer cards than this in hand make no puzzle worth a day (a go-out is found near a round's
#: end, where hands are short).
MIN_HAND = 5
MIN_GO_OUT_HAND = 4
#: The most melds an opening answer is split into when it is judged (a hand of 15 holds 5).
MAX_MELDS = 5


@dataclass(frozen=True)
class Puzzle:
    """A question about ``view`` (the mover's, after their draw), with its solution.

    ``answers``: the right cards, for the kinds answered with one card. ``best``: what the
    solution shows (the go-out with a right discard, the best opening, the go-out after the
    swap). ``value``: the best opening's points (OPENING)."""

    kind: PuzzleKind
    view: PlayerView
    answers: frozenset[Face]
    best: GoOutPlan | Opening | None
    value: int
    key: str

    @property
    def seat(self) -> int:
        assert self.view.seat is not None
        return self.view.seat


@dataclass(frozen=True)
class Verdict:
    """An answer judged: ``right``, else ``refusal`` (the rules' own) or ``reason`` (a code
    the bot words: ``puzzle.not_melds``, ``puzzle.smaller``, ``puzzle.no_go_out``,
    ``puzzle.fits``, ``puzzle.cheaper``, ``puzzle.frees_nothing``)."""

    right: bool
    refusal: RuleViolation | None = None
    reason: str = ""
    value: int = 0


# -- where puzzles come from ----------------------------------------------------------------------


def play_starts(game: Game, actions: Iterable[Action]) -> Iterator[PlayerView]:
    """The mover's view each time a turn's play starts (after the draw, or at the dealer's
    first turn), while ``actions`` are applied to ``game`` (a logged game replayed)."""
    seen: tuple[int, int] | None = None
    for action in actions:
        here = (game.round_no, game.turn)
        if game.phase is Phase.PLAY and here != seen:
            seen = here
            yield player_view(game, game.current)
        game.apply(action)


def simulated_starts(rules: Rules, seed: str, strength: Strength = Strength.STRONG) -> Iterator[PlayerView]:
    """The same for a game computers play from ``seed`` (a day's puzzle when a server has no
    finished games of its own)."""
    game = Game.new(rules, seed)
    rng = random.Random(f"{seed}:players")
    seen: tuple[int, int] | None = None
    while game.phase is not Phase.GAME_OVER:
        here = (game.round_no, game.turn)
        if game.phase is Phase.PLAY and here != seen:
            seen = here
            yield player_view(game, game.current)
        view = player_view(game, game.current)
        game.apply(decide(view, rules, rng, strength))


def find_puzzle(views: Iterable[PlayerView], kind: PuzzleKind, seen: frozenset[str] = frozenset()) -> Puzzle | None:
    """The first puzzle of ``kind`` among ``views`` whose key is not in ``seen``."""
    for view in views:
        puzzle = puzzle_at(view, kind)
        if puzzle is not None and puzzle.key not in seen:
            return puzzle
    return None


def puzzle_at(view: PlayerView, kind: PuzzleKind) -> Puzzle | None:
    """The puzzle of ``kind`` this view makes, or None."""
    least = MIN_GO_OUT_HAND if kind is PuzzleKind.GO_OUT else MIN_HAND
    if view.seat is None or view.phase is not Phase.PLAY or len(view.hand) < least:
        return None
    if not view.rules.is_atlas:
        return None
    return _MAKERS[kind](view)


def position_key(view: PlayerView, kind: PuzzleKind) -> str:
    """A digest of everything the puzzle shows: equal for twin positions."""
    rules = view.rules
    parts = [
        kind.value,
        rules.variant.value,
        str(rules.players),
        repr(sorted(f.text for f in (c.face for c in view.hand))),
        repr([tuple(c.face.text for c in t.meld.cards) for t in view.table]),
        view.discard_top.face.text if view.discard_top else "-",
        view.taken.face.text if view.taken else "-",
        repr(view.hand_sizes),
        repr(view.opened),
        str(view.threshold),
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


# -- the kinds --------------------------------------------------------------------------------------


def _context(view: PlayerView) -> tuple[bool, bool]:
    """(opened, freed) for the mover."""
    seat = view.seat
    assert seat is not None
    partner = view.rules.partner_of(seat)
    opened = view.opened[seat]
    return opened, partner is not None and view.opened[partner] and not opened


def _go_out(view: PlayerView, hand: Sequence[Card], discards: Iterable[Face] | None = None) -> GoOutPlan | None:
    opened, freed = _context(view)
    table = [t.meld for t in view.table]
    return going_out(
        hand,
        view.rules,
        table,
        opened=opened,
        freed=freed,
        taken=view.taken if view.taken in hand else None,
        threshold=view.threshold,
        discards=None if discards is None else frozenset(discards),
    )


def _candidates(view: PlayerView) -> list[Face]:
    """The faces the mover may discard now (the rules' say, on the stand-in game)."""
    assert view.seat is not None
    game = shadow_game(view)
    faces = sorted({c.face for c in view.hand}, key=lambda f: f.text)
    return [f for f in faces if game.can(Discard(view.seat, f))]


def _go_out_puzzle(view: PlayerView) -> Puzzle | None:
    if _go_out(view, view.hand) is None:
        return None
    right = {f for f in _candidates(view) if _go_out(view, view.hand, [f]) is not None}
    if not right or len(right) == len(_candidates(view)):
        return None
    best = _go_out(view, view.hand, right)
    return Puzzle(PuzzleKind.GO_OUT, view, frozenset(right), best, 0, position_key(view, PuzzleKind.GO_OUT))


def _opening_puzzle(view: PlayerView) -> Puzzle | None:
    rules = view.rules
    opened, freed = _context(view)
    if not rules.has_opening or opened or freed or view.threshold <= rules.opening_threshold:
        return None
    found = best_opening(view.hand, rules, view.threshold, taken=view.taken)
    if found is None or _go_out(view, view.hand) is not None:
        return None  # (a hand that goes out at once asks another question)
    key = position_key(view, PuzzleKind.OPENING)
    return Puzzle(PuzzleKind.OPENING, view, frozenset(), found, found.value, key)


def _fits(view: PlayerView, face: Face) -> bool:
    """Whether a card of ``face`` could be laid off on a table meld (by anyone opened)."""
    card = next(c for c in view.hand if c.face == face)
    return bool(extension_targets(card, [t.meld for t in view.table], view.rules))


def _price(view: PlayerView, face: Face) -> int:
    return penalty_value(next(c for c in view.hand if c.face == face))


def _safe_discard_puzzle(view: PlayerView) -> Puzzle | None:
    seat = view.seat
    assert seat is not None
    nxt = (seat + 1) % view.rules.players
    if not view.table or not view.opened[nxt] or view.rules.side_of(nxt) == view.rules.side_of(seat):
        return None
    options = _candidates(view)
    safe = [f for f in options if not _fits(view, f)]
    unsafe = [f for f in options if _fits(view, f)]
    if not safe or len(unsafe) < 2:
        return None
    costliest = max(_price(view, f) for f in options)
    if all(_price(view, f) < costliest for f in unsafe):
        return None  # throwing the costliest card would be safe anyway: no question
    top = max(_price(view, f) for f in safe)
    right = frozenset(f for f in safe if _price(view, f) == top)
    key = position_key(view, PuzzleKind.SAFE_DISCARD)
    return Puzzle(PuzzleKind.SAFE_DISCARD, view, right, None, top, key)


def _free_joker_puzzle(view: PlayerView) -> Puzzle | None:
    seat = view.seat
    assert seat is not None
    opened, _ = _context(view)
    if not view.rules.has_opening or not opened or _go_out(view, view.hand) is not None:
        return None
    table = [t.meld for t in view.table]
    right: set[Face] = set()
    best: GoOutPlan | None = None
    for card in view.hand:
        if card.is_joker or card.face in right:
            continue
        for target in swap_targets(card, table):
            plan = _after_swap(view, card.face, target)
            if plan is not None:
                right.add(card.face)
                best = best or plan
    if not right:
        return None
    return Puzzle(PuzzleKind.FREE_JOKER, view, frozenset(right), best, 0, position_key(view, PuzzleKind.FREE_JOKER))


def _after_swap(view: PlayerView, face: Face, target: int) -> GoOutPlan | None:
    """The go-out after giving ``face`` to table meld ``target`` for its joker, if the rules
    allow the swap and a go-out follows."""
    assert view.seat is not None
    game = shadow_game(view)
    swap = Swap(view.seat, target, face)
    if not game.can(swap):
        return None
    game.apply(swap)
    after = player_view(game, view.seat)
    return _go_out(after, after.hand)


_MAKERS = {
    PuzzleKind.GO_OUT: _go_out_puzzle,
    PuzzleKind.OPENING: _opening_puzzle,
    PuzzleKind.SAFE_DISCARD: _safe_discard_puzzle,
    PuzzleKind.FREE_JOKER: _free_joker_puzzle,
}


# -- judging answers --------------------------------------------------------------------------------


def judge(puzzle: Puzzle, answer: Sequence[Face]) -> Verdict:
    """Whether ``answer`` (one face, or an opening's faces) is right, and why not."""
    if puzzle.kind is PuzzleKind.OPENING:
        return _judge_opening(puzzle, answer)
    if len(answer) != 1:
        raise ValueError("this puzzle is answered with one card")
    (face,) = answer
    if face in puzzle.answers:
        return Verdict(True)
    refusal = _refusal(puzzle, face)
    if refusal is not None:
        return Verdict(False, refusal=refusal)
    reason = {
        PuzzleKind.GO_OUT: "puzzle.no_go_out",
        PuzzleKind.SAFE_DISCARD: "puzzle.fits" if _fits(puzzle.view, face) else "puzzle.cheaper",
        PuzzleKind.FREE_JOKER: "puzzle.frees_nothing",
    }[puzzle.kind]
    return Verdict(False, reason=reason, value=_price(puzzle.view, face))


def _refusal(puzzle: Puzzle, face: Face) -> RuleViolation | None:
    """The rules' own objection to the answer's action, if they have one."""
    view, seat = puzzle.view, puzzle.seat
    if face not in {c.face for c in view.hand}:
        raise ValueError(f"{face.text} is not in the hand")
    if puzzle.kind is PuzzleKind.FREE_JOKER:
        targets = swap_targets(next(c for c in view.hand if c.face == face), [t.meld for t in view.table])
        action: Action = Swap(seat, targets[0] if targets else 0, face)
    else:
        action = Discard(seat, face)
    try:
        shadow_game(view).verify(action)
    except RuleViolation as refused:
        return refused
    return None


def _judge_opening(puzzle: Puzzle, answer: Sequence[Face]) -> Verdict:
    """An opening is right when the rules accept it as a lay-down worth the best value."""
    view, seat = puzzle.view, puzzle.seat
    game = shadow_game(view)
    refusal: RuleViolation | None = None
    value = -1
    for melds in split_into_melds(view.hand, answer, view.rules):
        lay = Lay(seat, tuple(tuple(c.face for c in m.cards) for m in melds), ())
        try:
            game.verify(lay)
        except RuleViolation as refused:
            refusal = refusal or refused
            continue
        value = max(value, opening_value(melds, view.rules))
    if value == puzzle.value:
        return Verdict(True, value=value)
    if value >= 0:
        return Verdict(False, reason="puzzle.smaller", value=value)
    if refusal is not None:
        return Verdict(False, refusal=refusal)
    return Verdict(False, reason="puzzle.not_melds")


def split_into_melds(hand: Sequence[Card], faces: Sequence[Face], rules: Rules) -> Iterator[list[Meld]]:
    """Every way to split the cards of ``faces`` (taken from ``hand``) into melds, each once."""
    wanted = Counter(faces)
    held = Counter(c.face for c in hand)
    if any(held[f] < n for f, n in wanted.items()):
        return
    cards: list[Card] = []
    for face, n in wanted.items():
        cards.extend([c for c in hand if c.face == face][:n])
    candidates = find_melds(cards, rules)
    yield from _covers(Counter(c.face for c in cards), candidates, 0, [])


def _covers(left: Counter[Face], candidates: Sequence[Meld], start: int, chosen: list[Meld]) -> Iterator[list[Meld]]:
    if not +left:
        yield list(chosen)
        return
    if len(chosen) == MAX_MELDS:
        return
    for i in range(start, len(candidates)):
        meld = candidates[i]
        need = Counter(c.face for c in meld.cards)
        if all(left[f] >= n for f, n in need.items()):
            chosen.append(meld)
            yield from _covers(left - need, candidates, i, chosen)
            chosen.pop()


# -- keeping a puzzle -------------------------------------------------------------------------------


def puzzle_snapshot(puzzle: Puzzle) -> dict[str, object]:
    """What to store to judge the puzzle later: a stand-in game with only what the mover saw
    (other hands and the stock are dealt from the unseen cards in a fixed order)."""
    return shadow_game(puzzle.view).to_json()


def puzzle_from_snapshot(kind: PuzzleKind, seat: int, snapshot: dict[str, object]) -> Puzzle:
    """The puzzle again, from :func:`puzzle_snapshot`'s JSON (its key and answers unchanged)."""
    view = player_view(Game.from_json(snapshot), seat)
    puzzle = puzzle_at(view, kind)
    if puzzle is None:
        raise ValueError(f"the stored position makes no {kind.value} puzzle")
    return puzzle
