"""Measure the review of a round (the round summary's Review my round button).

Why: a press replays the table's whole stored move log and then checks each of the presser's
turns of that round with the solver (going out, the best opening, joker swaps). Issue 26 asks
for ≤ 1 s for a 400-move game. Three cases, timed in CPU seconds (``time.process_time``: on a
shared machine the wall clock charges other processes' time to whoever runs):

* ``press``: one press on the last round's summary of computer games of Rummy 51 1v1 (mixed
  strengths) of about 400 moves or more, from the stored JSON log, as the bot runs it;
* ``whole game``: every round of such a game reviewed for one seat (each review replays the
  log again), the most a player can ask of one game;
* ``one long round``: a single round of 400 moves (both seats draw and throw the card back, so
  nobody goes out and every one of the reviewer's 100 turns is checked in full): the worst press.

Run:

    python benchmarks/bench_review.py [--games 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy_engine import (
    Action,
    Discard,
    Draw,
    Game,
    Options,
    Phase,
    Rules,
    Source,
    Variant,
    action_to_json,
)
from rummy_engine.ai import Strength
from rummy_engine.ai.review import review_round
from rummy_engine.strategy import choose_action

LONG_GAME = 380  # moves: games at least this long are measured
STRENGTHS = (Strength.EASY, Strength.NORMAL, Strength.STRONG)


def computer_game(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """A whole computer game of Rummy 51 1v1: its genesis, its JSON log, its rounds."""
    game = Game.new(Rules(Variant.R51, 2), seed=seed)
    genesis = game.genesis()
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    while game.phase is not Phase.GAME_OVER:
        action = choose_action(game, rng, STRENGTHS[(seed + game.current) % 3])
        game.apply(action)
        log.append(action_to_json(action))
    return genesis, log, game.round_no


def passive(game: Game) -> Action:
    """Draw from the stock and throw the drawn card back (a joker stays: another card goes)."""
    seat = game.current
    if game.phase is Phase.DRAW:
        return Draw(seat, Source.STOCK)
    drawn = game.drawn
    card = drawn if drawn is not None and not drawn.is_joker else None
    card = card or next(c for c in game.hands[seat] if not c.is_joker)
    return Discard(seat, card.face)


def long_round(moves: int = 400) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One round of ``moves`` moves in which nobody lays anything."""
    options = Options(max_turns_per_round=moves // 2, atlas_max_reshuffles=None)
    game = Game.new(Rules(Variant.R51, 2, options), seed=400)
    genesis = game.genesis()
    log: list[dict[str, Any]] = []
    while game.phase in (Phase.DRAW, Phase.PLAY) and len(log) < moves:
        action = passive(game)
        game.apply(action)
        log.append(action_to_json(action))
    return genesis, log


def cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def long_games(count: int) -> list[tuple[dict[str, Any], list[dict[str, Any]], int]]:
    found = []
    seed = 0
    while len(found) < count:
        genesis, log, rounds = computer_game(seed)
        seed += 1
        if len(log) >= LONG_GAME:
            found.append((genesis, log, rounds))
    return found


def main(games: int) -> None:
    measured = long_games(games)
    sizes = [len(log) for _, log, _ in measured]
    press = [cpu(lambda g=g, log=log, r=r: review_round(g, log, 0, r)) for g, log, r in measured]
    whole = [
        cpu(lambda g=g, log=log, r=r: [review_round(g, log, 0, n) for n in range(1, r + 1)])
        for g, log, r in measured
    ]
    genesis, log = long_round()
    turns = [cpu(lambda: review_round(genesis, log, 0, 1)) for _ in range(3)]
    review = review_round(genesis, log, 0, 1)
    print(f"{games} computer games of {min(sizes)}-{max(sizes)} moves (median {statistics.median(sizes):.0f})")
    print(f"press (last round): median {statistics.median(press) * 1000:.0f} ms, max {max(press) * 1000:.0f} ms CPU")
    print(f"whole game, every round: median {statistics.median(whole) * 1000:.0f} ms, max {max(whole) * 1000:.0f} ms CPU")
    print(
        f"one long round ({len(log)} moves, {review.turns} turns reviewed): "
        f"median {statistics.median(turns) * 1000:.0f} ms, max {max(turns) * 1000:.0f} ms CPU"
    )
    worst = max(max(press), max(whole), max(turns))
    print(f"worst: {worst * 1000:.0f} ms CPU ({'within' if worst <= 1.0 else 'OVER'} the 1 s budget)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="computer games measured")
    main(parser.parse_args().games)
