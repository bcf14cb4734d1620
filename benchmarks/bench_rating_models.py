"""Which openskill model keeps the order of a game? Each one, through the live ``rate_game``.

Why: Basic rummy shares a place on equal scores (two winners, two tied for second), and with
Plackett-Luce four newcomers finishing 1, 1, 3, 4 left the third above both winners. This
script rates every result of a game of 2-6 sides with each of openskill's models (the function
the bot records games with, its ``model`` swapped) and prints, per model:

* ``patterns``: of the 62 patterns of places up to who holds them (1, 1, 3, 4; 1, 2, 2…),
  how many leave some newcomer above one who beat them or split a shared place;
* ``results``: the same over every result with its seats (all 5,315 weak orderings);
* ``equal-in``: over random fields of mixed prior ratings, how many games break the order
  among players who came in with the same rating (the invariant of
  ``tests/helpers/rating_order.py``);
* ``2-side Δ``: the largest change, against Plackett-Luce, of a 1v1 or 2v2 result (wins,
  losses and draws, random prior ratings), in displayed rating points;
* ``win of 6`` and ``win 1v1``: what a newcomer's first win displays as, among six newcomers
  and in a duel, to see how far each model moves a rating in one game;
* ``µs/game``: CPU per game and scope (median of five runs).

Two Plackett-Luce variants show that its knobs do not cure the shared places: ``limit_sigma``
only stops a sigma from growing, and ``tau`` (the uncertainty added before every game) is the
same for everyone. Passing ``scores=`` instead of ``ranks=`` changes nothing either: openskill
turns scores into ranks unless a ``margin`` is set, and a margin needs point totals, which the
variants do not share (Atlas counts penalties, Basic counts what the winner collects).

Last, the CPU of migration 9's replay (``replay_ratings``, the chosen rule) over a synthetic
history of ``--replay`` games (Basic tables of 2-6 and duels among 500 players, one server):
what opening an old database costs before the bot starts.

Run (under a minute on one core):

    python benchmarks/bench_rating_models.py [--fields 3000] [--replay 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import MODELS, PlackettLuce

from bot.features.stats.service import (
    NEWCOMER_RATING,
    RatingModel,
    display_rating,
    rate_game,
    replay_ratings,
)
from bot.storage.base import GameRecord, RatingKey, SkillRating
from tests.helpers.rating_order import (
    order_breaks,
    place_patterns,
    ranked_game,
    sorted_patterns,
    two_sided_game,
)

Field = tuple[tuple[int, ...], list[SkillRating | None]]


def rate(
    model: RatingModel, game: GameRecord, before: list[SkillRating | None]
) -> list[SkillRating]:
    keys: list[RatingKey] = [(1, game.variant, p.user_id or 0) for p in game.players]
    after = rate_game(game, dict(zip(keys, before, strict=True)), model)
    return [after[key] for key in keys]


def breaks(model: RatingModel, places: tuple[int, ...], before: list[SkillRating | None]) -> bool:
    after = rate(model, ranked_game(places), before)
    return bool(order_breaks(places, before, after, NEWCOMER_RATING))


def prior(rng: random.Random) -> SkillRating | None:
    if rng.random() < 0.25:
        return None
    mu, sigma = rng.uniform(0.0, 50.0), rng.uniform(0.5, 25.0 / 3.0)
    return SkillRating(mu, sigma, display_rating(mu, sigma))


def mixed_fields(count: int, rng: random.Random) -> list[Field]:
    """Random results of 2-6 sides, players drawn from a pool of 1-3 prior ratings."""
    fields = []
    for _ in range(count):
        sides = rng.randint(2, 6)
        keys = [rng.randrange(sides) for _ in range(sides)]
        places = tuple(1 + sum(other < mine for other in keys) for mine in keys)
        pool = [prior(rng) for _ in range(rng.randint(1, 3))]
        fields.append((places, [rng.choice(pool) for _ in range(sides)]))
    return fields


def two_sided_games(
    count: int, rng: random.Random
) -> list[tuple[GameRecord, list[SkillRating | None]]]:
    games = []
    for _ in range(count):
        places = rng.choice([(1, 2), (2, 1), (1, 1)])
        game = two_sided_game(places, teams=rng.random() < 0.5)
        games.append((game, [prior(rng) for _ in game.players]))
    return games


def cpu_per_game(model: RatingModel, games: list[GameRecord]) -> float:
    runs = []
    for _ in range(5):
        start = time.process_time()
        for game in games:
            rate(model, game, [None] * len(game.players))
        runs.append((time.process_time() - start) / len(games))
    return statistics.median(runs) * 1e6


def history(count: int, rng: random.Random) -> list[GameRecord]:
    games = []
    for game_id in range(1, count + 1):
        sides = rng.choice([2, 2, 3, 4, 5, 6])
        users = rng.sample(range(1, 501), sides)
        keys = [rng.randrange(sides) for _ in range(sides)]
        game = ranked_game(tuple(1 + sum(o < k for o in keys) for k in keys))
        players = tuple(replace(p, user_id=u) for p, u in zip(game.players, users, strict=True))
        games.append(replace(game, id=game_id, table_id=game_id, players=players))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", type=int, default=3000, help="random mixed-prior games")
    parser.add_argument("--replay", type=int, default=10_000, help="games replayed at the end")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = [places for sides in range(2, 7) for places in place_patterns(sides)]
    patterns = [places for sides in range(2, 7) for places in sorted_patterns(sides)]
    fields = mixed_fields(args.fields, rng)
    duels = two_sided_games(args.fields, rng)
    timed = [ranked_game(tuple(range(1, 7)))] * 200
    old = PlackettLuce()
    print(
        f"{'model':<24} {'patterns':>9} {'results':>9} {'equal-in':>9} {'2-side Δ':>9} "
        f"{'win of 6':>9} {'win 1v1':>8} {'µs/game':>8}"
    )
    variants: list[tuple[str, Callable[[], RatingModel]]] = [(k.__name__, k) for k in MODELS]
    variants.insert(1, ("PlackettLuce limit_sigma", lambda: PlackettLuce(limit_sigma=True)))
    variants.insert(2, ("PlackettLuce tau=0.001", lambda: PlackettLuce(tau=0.001)))
    for name, make in variants:
        model = make()
        bad_patterns = sum(breaks(model, p, [None] * len(p)) for p in patterns)
        bad_results = sum(breaks(model, p, [None] * len(p)) for p in results)
        bad_fields = sum(breaks(model, places, before) for places, before in fields)
        drift = max(
            abs(a.rating - b.rating)
            for game, before in duels
            for a, b in zip(rate(model, game, before), rate(old, game, before), strict=True)
        )
        six = rate(model, ranked_game(tuple(range(1, 7))), [None] * 6)[0].rating
        duel = rate(model, ranked_game((1, 2)), [None] * 2)[0].rating
        print(
            f"{name:<24} {bad_patterns:>5}/{len(patterns):<3} "
            f"{bad_results:>4}/{len(results):<4} {bad_fields:>4}/{len(fields):<4} "
            f"{drift:>9.1f} {six:>9.1f} {duel:>8.1f} {cpu_per_game(model, timed):>8.0f}"
        )
    games = history(args.replay, rng)
    start = time.process_time()
    replayed = replay_ratings(games)
    spent = time.process_time() - start
    print(
        f"migration 9 replay: {len(games)} games, {len(replayed.history)} rating changes in "
        f"{spent:.2f} s CPU ({spent / len(games) * 1e3:.2f} ms per game, 4 scopes×families each)"
    )


if __name__ == "__main__":
    main()
