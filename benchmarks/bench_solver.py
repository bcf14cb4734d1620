"""Timing of the solver on a fixed set of hands: ``python benchmarks/bench_solver.py``.

The set is 240 seeded random 16-card Atlas hands (each with one or two jokers, dealt from the two
packs) plus hand-made adversarial ones (overlapping runs and sets, long doubled runs, one rank
many times). For each case the script times ``best_opening`` (R51 at 51, R71 at 71) and
``going_out`` (R51 opened with a table of six melds, R71 unopened, Simple) and prints the median,
95th percentile and worst time per call, each hand timed as the best of 3 calls (pass ``1`` as
the first argument for single shots, which include other processes' noise). It also works under pytest-benchmark
(``pytest benchmarks/bench_solver.py``), which times the whole set once per round.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummy_engine.cards import Card, make_deck, parse_faces
from rummy_engine.melds import Meld, make_meld
from rummy_engine.rules import Rules, Variant
from rummy_engine.solver import best_opening, going_out

SEED = 20240551
RANDOM_HANDS = 240
REPEAT = 3  # python benchmarks/bench_solver.py 1 for single shots
R51 = Rules(Variant.R51, 2)
R71 = Rules(Variant.R71, 2)
SIMPLE = Rules(Variant.SIMPLE, 2)

ADVERSARIAL = [
    "3h 4h 5h 6h 7h 5s 5c 5d 6s 6c JK JK 4s 4c 7s 7c",
    "3h 4h 5h 6h 7h 8h 9h 3h 4h 5h 6h 7h 8h 9h JK JK",
    "3s 4s 5s 6s 7s 8s 9s 10s 3d 4d 5d 6d 7d 8d JK JK",
    "5s 5h 5c 5d 5s 5h 5c 5d 6s 6h 6c 6d 6s 6h JK JK",
    "As 2s 3s 4s Ah 2h 3h 4h Ac 2c 3c 4c Ad 2d JK JK",
    "5h 6h 7h 8h 5s 6s 7s 8s 5h 6h 7h 8h 5s 6s JK JK",
    "9h 10h Jh Qh Kh Ah 9h 10h Jh Qh Kh Ah Qs Qc JK JK",
    "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah 2s JK JK",
    "4h 5h 6h 4s 5s 6s 4c 5c 6c 4d 5d 6d 4h 5s JK JK",
    "7s 7h 7c 7d 8s 8h 8c 8d 9s 9h 9c 9d 10s 10h JK JK",
    "Ah 2h 3h Qh Kh Ah As Ac Ad Ks Kc Kd Qs Qc JK JK",
    "3c 4c 5c 6c 7c 3c 4c 5c 6c 7c 5s 5h 5d 5h JK JK",
]


def hand_of(text: str) -> list[Card]:
    """Physical cards for a written hand: repeated faces get copies 0 and 1, jokers numbers."""
    seen: dict[tuple[int, object], int] = {}
    cards = []
    for face in parse_faces(text):
        n = seen.get((face.rank, face.suit), 0)
        seen[(face.rank, face.suit)] = n + 1
        cards.append(Card(face.rank, face.suit, n))
    return cards


def random_hands(rng: random.Random) -> list[list[Card]]:
    deck = make_deck(2, 4)
    naturals = [c for c in deck if not c.is_joker]
    jokers = [c for c in deck if c.is_joker]
    hands = []
    for _ in range(RANDOM_HANDS):
        k = rng.choice((1, 2))
        hands.append(rng.sample(naturals, 16 - k) + jokers[:k])
    return hands


def table_for(hand: Sequence[Card], rng: random.Random) -> list[Meld]:
    """Six melds (four runs, two sets) made of cards the hand does not hold."""
    free = [c for c in make_deck(2, 0) if c not in hand]
    table: list[Meld] = []
    while len(table) < 6:
        suit = rng.choice([c.suit for c in free])
        if len(table) < 4:
            start, length = rng.randint(1, 10), rng.randint(3, 5)
            wanted = [(r, suit) for r in range(start, min(start + length, 14))]
        else:
            rank = rng.randint(1, 13)
            wanted = [(rank, s) for s in {c.suit for c in free if c.rank == rank}][:3]
        picked = []
        for rank, s in wanted:
            card = next((c for c in free if c.rank == rank and c.suit == s and c not in picked), None)
            if card is not None:
                picked.append(card)
        if len(picked) == len(wanted) >= 3:
            table.append(make_meld(picked, R51))
            free = [c for c in free if c not in picked]
    return table


def cases() -> list[tuple[list[Card], list[Meld]]]:
    rng = random.Random(SEED)
    hands = random_hands(rng) + [hand_of(text) for text in ADVERSARIAL]
    return [(hand, table_for(hand, rng)) for hand in hands]


TASKS: dict[str, Callable[[list[Card], list[Meld]], object]] = {
    "best_opening R51 @51": lambda h, t: best_opening(h, R51, 51),
    "best_opening R71 @71": lambda h, t: best_opening(h, R71, 71),
    "going_out R51 opened, 6-meld table": lambda h, t: going_out(h, R51, t, opened=True),
    "going_out R71 unopened": lambda h, t: going_out(h, R71, t, opened=False),
    "going_out Simple": lambda h, t: going_out(h, SIMPLE, [], opened=False),
}


def measure(
    task: Callable[[list[Card], list[Meld]], object],
    data: list[tuple[list[Card], list[Meld]]],
    repeat: int = 1,
) -> list[float]:
    """Seconds per case: the best of ``repeat`` calls (filters out other processes' noise)."""
    times = []
    for hand, table in data:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            task(hand, table)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    return times


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else REPEAT
    data = cases()
    start = time.perf_counter()
    best_opening(data[0][0], R51, 51)
    cold = (time.perf_counter() - start) * 1e3
    print(f"{len(data)} hands ({RANDOM_HANDS} random, {len(ADVERSARIAL)} adversarial); ms per call,")
    print(f"best of {repeat} calls per hand; first call in this process (cold caches): {cold:.3f} ms")
    print(f"{'task':38} {'median':>8} {'p95':>8} {'worst':>8}  worst hand")
    for name, task in TASKS.items():
        times = measure(task, data, repeat)
        ordered = sorted(times)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        worst = max(range(len(times)), key=times.__getitem__)
        hand = " ".join(c.text for c in data[worst][0])
        print(
            f"{name:38} {statistics.median(times) * 1e3:8.3f} {p95 * 1e3:8.3f} "
            f"{times[worst] * 1e3:8.3f}  {hand}"
        )


def test_bench_solver(benchmark: Callable[..., object]) -> None:
    """pytest-benchmark entry: every task over every case, once per round."""
    data = cases()
    benchmark(lambda: [measure(task, data) for task in TASKS.values()])


if __name__ == "__main__":
    main()
