"""Measure coached practice's CPU per person's turn (issue 40, item 2: ≤ 5 ms at the median).

What a coached turn costs the bot beyond the move itself, as the table service runs it
(:class:`bot.features.play.coaching.Coach`): the mover's view before each of their actions, the
go-out check before a discard (the review's own check, with the solver), and at the turn's end
the review's checks on that turn and the table tips (:func:`turn_note`). Seat 0 stands
for the person, played by an easy computer (it misses things, so notes are found); the other
seats by computers of mixed strength. A discard the guard questions is counted, then asked
again (answered "discard anyway"), as a player's second press would be. Timed in CPU seconds
(``time.process_time``), one turn at a time.

Run:

    python benchmarks/bench_coaching.py [--games 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.features.play.coaching import Coach
from rummy_engine import Game, Phase, Rules, Variant, player_view
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action

TABLES = (("Rummy 51 1v1", Variant.R51, 2), ("Rummy 51 2v2", Variant.R51, 4), ("Basic", Variant.BASIC, 2))
STRENGTHS = (Strength.EASY, Strength.NORMAL, Strength.STRONG)
PERSON = 0


def coached_game(variant: Variant, players: int, seed: int) -> tuple[list[float], Counter[str]]:
    """One game; the coaching CPU of each of seat 0's turns, and the notes' kinds."""
    game = Game.new(Rules(variant, players), seed=seed)
    rng = random.Random(seed)
    coach = Coach()
    turns: list[float] = []
    notes: Counter[str] = Counter()
    spent = 0.0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.ROUND_OVER:
            game.apply(choose_action(game, rng))
            continue
        seat = game.current
        strength = Strength.EASY if seat == PERSON else STRENGTHS[(seed + seat) % 3]
        action = choose_action(game, rng, strength)
        if seat != PERSON:
            game.apply(action)
            continue
        start = time.process_time()
        seen = player_view(game, seat)
        if coach.question(1, seen, action) is not None:
            notes["asked"] += 1  # the second press is played
        spent += time.process_time() - start
        game.apply(action)
        start = time.process_time()
        note = coach.after(1, seat, seen, action, game)
        spent += time.process_time() - start
        same_turn = (game.round_no, game.turn) == (seen.round_no, seen.turn)
        if not same_turn or game.phase not in (Phase.DRAW, Phase.PLAY):  # the turn ended
            turns.append(spent)
            spent = 0.0
            notes[type(note).__name__ if note else "none"] += 1
    return turns, notes


def main(games: int) -> None:
    everything: list[float] = []
    for name, variant, players in TABLES:
        times: list[float] = []
        kinds: Counter[str] = Counter()
        for seed in range(games):
            turns, notes = coached_game(variant, players, seed)
            times += turns
            kinds += notes
        everything += times
        ms = sorted(t * 1000 for t in times)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(
            f"{name}: {len(ms)} turns, median {statistics.median(ms):.2f} ms, "
            f"p99 {p99:.1f} ms, max {ms[-1]:.1f} ms CPU; notes {dict(sorted(kinds.items()))}"
        )
    ms = sorted(t * 1000 for t in everything)
    median = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    verdict = "within" if median <= 5 else "OVER"
    print(f"all: {len(ms)} turns, median {median:.2f} ms, p99 {p99:.1f} ms CPU ({verdict} the 5 ms budget)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per table kind")
    main(parser.parse_args().games)
