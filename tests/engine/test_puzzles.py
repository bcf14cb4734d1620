"""Puzzles from real positions (rummy_engine.ai.puzzles): each has answers the rules and the
solver verify, shows only what the mover saw, and judges every answer with a reason."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy_engine import Game, Phase, Rules, Variant
from rummy_engine.ai.player import Strength, decide
from rummy_engine.ai.puzzles import (
    Puzzle,
    PuzzleKind,
    find_puzzle,
    judge,
    play_starts,
    puzzle_at,
    simulated_starts,
)
from rummy_engine.view import player_view

RULES = Rules(Variant.R51, 4)


def games_with_positions(seed: str) -> Iterator[tuple[Game, Puzzle]]:
    """Every puzzle of a computers' game, with the game as it stood (to make twins from)."""
    game = Game.new(RULES, seed)
    rng = random.Random(seed)
    seen: tuple[int, int] | None = None
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLAY and (game.round_no, game.turn) != seen:
            seen = (game.round_no, game.turn)
            view = player_view(game, game.current)
            for kind in PuzzleKind:
                puzzle = puzzle_at(view, kind)
                if puzzle is not None:
                    yield game.copy(), puzzle
        game.apply(decide(player_view(game, game.current), RULES, rng, Strength.EASY))


def first(kind: PuzzleKind, games: int = 30) -> tuple[Game, Puzzle]:
    for n in range(games):
        for game, puzzle in games_with_positions(f"puzzle-{n}"):
            if puzzle.kind is kind:
                return game, puzzle
    raise AssertionError(f"no {kind} puzzle in {games} games")


def hidden_swapped(game: Game, seat: int) -> Game:
    """The same game but for two cards the mover cannot see: an opponent's and the stock's."""
    twin = game.copy()
    other = next(s for s in range(RULES.players) if s != seat and twin.hands[s])
    i = next(i for i, c in enumerate(twin.hands[other]) if c.face != twin.stock[0].face)
    twin.hands[other][i], twin.stock[0] = twin.stock[0], twin.hands[other][i]
    return twin


@pytest.mark.parametrize("kind", list(PuzzleKind))
def test_twin_positions_that_differ_only_in_hidden_cards_give_the_same_puzzle(
    kind: PuzzleKind,
) -> None:
    game, puzzle = first(kind)
    twin = hidden_swapped(game, puzzle.seat)
    assert twin.hands != game.hands, "the twin must differ in hidden cards"
    again = puzzle_at(player_view(twin, puzzle.seat), kind)
    assert again is not None
    assert (again.key, again.answers, again.value) == (puzzle.key, puzzle.answers, puzzle.value)


@pytest.mark.parametrize("kind", [k for k in PuzzleKind if k is not PuzzleKind.OPENING])
def test_the_answers_are_right_and_every_other_card_is_wrong_with_a_reason(
    kind: PuzzleKind,
) -> None:
    _, puzzle = first(kind)
    assert puzzle.answers
    for card in {c.face for c in puzzle.view.hand}:
        verdict = judge(puzzle, [card])
        assert verdict.right == (card in puzzle.answers), card
        if not verdict.right:
            assert verdict.refusal is not None or verdict.reason.startswith("puzzle."), card


def test_the_best_opening_is_right_a_smaller_one_is_not_and_loose_cards_are_refused() -> None:
    _, puzzle = first(PuzzleKind.OPENING)
    best = puzzle.best
    assert best is not None and hasattr(best, "melds")
    faces = [c.face for m in best.melds for c in m.cards]  # type: ignore[union-attr]
    assert judge(puzzle, faces).right
    assert puzzle.value >= puzzle.view.threshold > RULES.opening_threshold
    if len(best.melds) > 1:  # type: ignore[union-attr]
        smaller = [c.face for c in best.melds[0].cards]  # type: ignore[union-attr]
        verdict = judge(puzzle, smaller)
        assert not verdict.right and (verdict.refusal is not None or verdict.reason)
    loose = [c.face for c in puzzle.view.hand][:2]
    assert not judge(puzzle, loose).right


def test_a_logged_game_replayed_gives_the_puzzles_its_live_play_gave() -> None:
    """Puzzles from a server's finished game (its move log) are the same as from live play."""
    seed = "puzzle-log"
    game = Game.new(RULES, seed)
    start = game.copy()
    rng = random.Random(seed)
    actions = []
    while game.phase is not Phase.GAME_OVER and len(actions) < 400:
        action = decide(player_view(game, game.current), RULES, rng, Strength.EASY)
        actions.append(action)
        game.apply(action)
    live = {p.key for _, p in games_with_positions(seed) if p}
    logged = {
        p.key
        for view in play_starts(start, actions)
        for kind in PuzzleKind
        if (p := puzzle_at(view, kind)) is not None
    }
    assert live and logged <= live


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(list(PuzzleKind)))
def test_any_found_puzzle_judges_its_own_solution_right(seed: int, kind: PuzzleKind) -> None:
    puzzle = find_puzzle(simulated_starts(RULES, f"h{seed}", Strength.EASY), kind)
    if puzzle is None:
        return
    if kind is PuzzleKind.OPENING:
        best = puzzle.best
        assert best is not None
        faces = [c.face for m in best.melds for c in m.cards]  # type: ignore[union-attr]
        assert judge(puzzle, faces).right
    else:
        assert puzzle.answers and all(judge(puzzle, [f]).right for f in puzzle.answers)
        assert len(puzzle.answers) < len({c.face for c in puzzle.view.hand})

