"""A small exact reference for the best opening's value: a plain dynamic program written for
clarity, not speed. ``tests/engine/test_solver.py`` checks the solver against it on large hands (where
brute force is out of reach) and ``benchmarks/bench_solver.py`` times the solver against it.

Melds are listed by face; the hand is a tuple of counts per face and the program decides the
lowest face left at each step, memoised on (counts, jokers, flags). It knows the default table
options only (one joker per meld, Ace low or high, positional Ace value), no taken discard and
no freed partner.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from rummy_engine.cards import ACE, Card
from rummy_engine.rules import Rules, Variant


def reference_opening_value(hand: Sequence[Card], rules: Rules, threshold: int) -> int | None:
    """The best opening's value by a plain exact dynamic program (default table options, no
    taken discard, not freed), or None when nothing reaches ``threshold``.

    Melds are listed by face: every run window of a suit holding at most one missing card (a
    joker fills it, or stands where a held card fits) and every set of 2–4 held suits plus
    jokers up to 3–4 cards, one joker per meld at most. The hand is a tuple of counts per face;
    ``best(counts, jokers, flags)`` is memoised and decides the lowest face left: it stays in
    hand, or it is laid in a meld whose lowest face it is. Flags: 1 = a card stays in hand (the
    discard), 2 = a natural run, 4 = a natural set (both required in Rummy 71).
    """
    faces = sorted({(c.suit.index, c.rank) for c in hand if c.suit is not None})
    index = {face: i for i, face in enumerate(faces)}
    start = tuple(sum(1 for c in hand if c.suit and (c.suit.index, c.rank) == f) for f in faces)
    all_jokers = sum(c.is_joker for c in hand)
    r71 = rules.variant is Variant.R71

    def value(rank: int, high: bool) -> int:
        return (11 if high else 1) if rank == ACE else min(rank, 10)

    melds: list[list[tuple[tuple[int, ...], int, int, int]]] = [[] for _ in faces]
    for suit in range(4):
        for low in range(1, 13):
            for high in range(low + 2, min(low + 12, 14) + 1):  # 13 cards, one Ace at most
                places = [(suit, (p - 1) % 13 + 1) for p in range(low, high + 1)]
                missing = [k for k, f in enumerate(places) if f not in index]
                if len(missing) > min(1, all_jokers):
                    break
                worth = [
                    value(r, p == 14 or (r == ACE and k > 0))
                    for k, ((_, r), p) in enumerate(zip(places, range(low, high + 1), strict=True))
                ]
                choices = [tuple(missing)] if missing else [()]
                if not missing and all_jokers:
                    choices += [(k,) for k in range(len(places))]
                for at in choices:
                    used = tuple(index[f] for k, f in enumerate(places) if k not in at)
                    total = sum(w for k, w in enumerate(worth) if not (r71 and k in at))
                    melds[min(used)].append((used, len(at), total, 0 if at else 2))
    for rank in range(1, 14):
        held = [index[(s, rank)] for s in range(4) if (s, rank) in index]
        for size in (2, 3, 4):
            for chosen in itertools.combinations(held, size):
                for jokers in range(min(1, all_jokers) + 1):
                    if 3 <= size + jokers <= 4:
                        total = value(rank, True) * (size if r71 else size + jokers)
                        melds[min(chosen)].append((chosen, jokers, total, 0 if jokers else 4))
    needs = 7 if r71 else 1

    @functools.cache
    def best(counts: tuple[int, ...], jokers: int, flags: int) -> float:
        low = next((i for i, n in enumerate(counts) if n), None)
        if low is None:
            return 0 if (flags | (1 if jokers else 0)) & needs == needs else float("-inf")
        kept = list(counts)
        kept[low] = 0
        answer = best(tuple(kept), jokers, flags | 1)
        for used, joker_count, total, flag in melds[low]:
            if joker_count > jokers or any(counts[i] == 0 for i in used):
                continue
            rest = list(counts)
            for i in used:
                rest[i] -= 1
            answer = max(answer, total + best(tuple(rest), jokers - joker_count, flags | flag))
        return answer

    found = best(start, all_jokers, 0)
    return int(found) if found >= threshold else None
