"""Replay GIFs: size and CPU of the longest rounds and games that computers play.

Budget (issue 39): a round's replay at most 1 MiB and 1 s of CPU, a whole game's at most
8 MiB, for the longest rounds that occur. They are found, not guessed: computers play
``--games`` games of each kind from fixed seeds (Basic rummy of 6 whose stock is turned over
again and again, Rummy 51 2v2 and 1v1) with the engine alone, which is cheap, and only the few
longest rounds and games (by turns) are drawn, with the renderer the drawing processes run
(sprites and palette built before timing), from the move log as the bot rebuilds it, through
the same frame selection. Run it as a script:

    .venv/bin/python benchmarks/bench_replay.py [--games 1000] [--found FILE] [--save DIR]

``--found FILE`` reuses the seeds a search wrote there (a search writes them when the file does
not exist yet); ``--save DIR`` writes the GIFs drawn. Sizes are bytes of the GIF; the figures
are the same on every run but for the CPU times. It exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.features.play.tables import Table
from bot.features.replays import replay as replays
from bot.render import Renderer
from bot.storage import SeatRecord, TableRecord
from rummy_engine import Game, Phase, Rules, Variant, action_to_json
from rummy_engine.strategy import choose_action

MIB = 1024 * 1024
ROUND_BYTES, ROUND_CPU, GAME_BYTES = 1 * MIB, 1.0, 8 * MIB
#: How many of the longest rounds and games of each kind are drawn.
KEPT = 3
#: The kinds of games searched: their rules, the table's mode, the seats' names.
KINDS = {
    "basic6": (Rules(Variant.BASIC, 6), "basic"),
    "r51-2v2": (Rules(Variant.R51, 4), "2v2"),
    "r51-1v1": (Rules(Variant.R51, 2), "1v1"),
}
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


@dataclass(frozen=True)
class Found:
    """A game of ``kind`` played from ``seed``: its turns in each round (what the search
    ranks; a replay's frames follow the turns)."""

    kind: str
    seed: int
    turns: tuple[int, ...]


def played(kind: str, seed: int) -> tuple[replays.Log, Game]:
    """The game computers play from ``seed`` to its end, as its stored log."""
    rules, _ = KINDS[kind]
    game = Game.new(rules, seed)
    genesis, rng = game.genesis(), random.Random(seed)
    actions, events = [], []
    while game.phase is not Phase.GAME_OVER:
        action = choose_action(game, rng)
        actions.append(action_to_json(action))
        events.append(tuple(game.apply(action)))
    return replays.Log(genesis, tuple(actions), tuple(events)), game


def turns_per_round(job: tuple[str, int]) -> Found:
    """The search's unit (the engine alone, no drawing): how many turns each round took."""
    kind, seed = job
    rules, _ = KINDS[kind]
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    counts: list[int] = []
    while game.phase is not Phase.GAME_OVER:
        before = (game.round_no, game.turn, game.phase)
        game.apply(choose_action(game, rng))
        if game.round_no > len(counts):
            counts.extend([0] * (game.round_no - len(counts)))
        running = before[2] in (Phase.DRAW, Phase.PLAY)
        moved = (game.round_no, game.turn) != before[:2]
        if running and (moved or game.phase not in (Phase.DRAW, Phase.PLAY)):
            counts[before[0] - 1] += 1  # a turn completed, as replays.moments counts them
    return Found(kind, seed, tuple(counts))


#: What a search keeps of each kind: "rounds" ([seed, round]), "games" ([seed]) and "longest"
#: (the longest round's turns, how many rounds were that long, rounds searched, the longest
#: game's turns).
Kept = dict[str, dict[str, list[list[int]]]]


def search(games: int) -> Kept:
    """The :data:`KEPT` longest rounds and games of each kind among ``games`` seeds (the
    smaller seed first among equals), over every core (each game is independent)."""
    jobs = [(kind, seed) for kind in KINDS for seed in range(1, games + 1)]
    with multiprocessing.Pool() as pool:
        results = list(pool.imap_unordered(turns_per_round, jobs, chunksize=8))
    kept: Kept = {}
    for kind in KINDS:
        mine = [f for f in results if f.kind == kind]
        every = [(n, -f.seed, r + 1) for f in mine for r, n in enumerate(f.turns)]
        rounds = heapq.nlargest(KEPT, every)
        longest = heapq.nlargest(KEPT, ((sum(f.turns), -f.seed) for f in mine))
        top = rounds[0][0]
        kept[kind] = {
            "rounds": [[-seed, round_no] for _, seed, round_no in rounds],
            "games": [[-seed] for _, seed in longest],
            "longest": [[top, sum(r[0] == top for r in every), len(every), longest[0][0]]],
        }
    return kept


def summary(kept: Kept) -> None:
    """What the search found, kind by kind."""
    for kind, found in kept.items():
        top, many, rounds, game = found["longest"][0]
        print(
            f"{kind}: longest round {top} turns ({many} of {rounds} rounds that long), "
            f"longest game {game} turns"
        )


def table_of(kind: str, game: Game, table_id: int) -> Table:
    """A finished table around ``game`` (what the replay reads of it: names, title)."""
    rules, mode = KINDS[kind]
    now = datetime(2026, 12, 2, tzinfo=UTC)
    record = TableRecord(
        table_id, 1, 2, 10, "finished", rules.variant.value, mode, "{}", table_id,
        json.dumps(game.to_json()), 1, now, now, now,
    )  # fmt: skip
    seats = tuple(
        SeatRecord(s, 10 + s, team=s % 2 if rules.teams else None, name=NAMES[s])
        for s in range(rules.players)
    )
    return Table(record, seats, game)


def chosen(log: replays.Log, round_no: int | None) -> list[replays.Moment]:
    """The frames the bot draws for one round (or the whole game, None)."""
    return replays.frames(replays.moments(log, wanted(round_no)))


def wanted(round_no: int | None) -> frozenset[int] | None:
    return None if round_no is None else frozenset({round_no})


@dataclass(frozen=True)
class Drawn:
    """One replay drawn: what it shows, its frames, turns, GIF bytes and CPU seconds."""

    what: str
    frames: int
    turns: int
    size: int
    cpu: float


def drawn(
    renderer: Renderer, kind: str, seed: int, round_no: int | None, save: Path | None
) -> Drawn:
    """Draw one replay, timed (the log's replay by the engine included, as the bot does)."""
    log, game = played(kind, seed)
    table = table_of(kind, game, seed)
    start = time.process_time()
    found = chosen(log, round_no)
    gif = renderer.render(replays.replay_scene(table, found, "en"))
    cpu = time.process_time() - start
    what = f"{kind} seed {seed} " + ("game" if round_no is None else f"round {round_no}")
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        (save / (what.replace(" ", "-") + ".gif")).write_bytes(gif)
    turns = sum(m.kind == "turn" for m in replays.moments(log, wanted(round_no)))
    return Drawn(what, len(found), turns, len(gif), cpu)


def draw_all(renderer: Renderer, kept: Kept, save: Path | None) -> Iterator[tuple[str, Drawn]]:
    """Every kept round and game drawn, each tagged "round" or "game"."""
    for kind, found in kept.items():
        for seed, round_no in found["rounds"]:
            yield "round", drawn(renderer, kind, seed, round_no, save)
        for (seed,) in found["games"]:
            yield "game", drawn(renderer, kind, seed, None, save)


def failures(rounds: Sequence[Drawn], games: Sequence[Drawn]) -> list[str]:
    missed = []
    if max(r.size for r in rounds) > ROUND_BYTES:
        missed.append("a round's GIF is over 1 MiB")
    if max(r.cpu for r in rounds) > ROUND_CPU:
        missed.append("a round's GIF takes over 1 s of CPU")
    if max(g.size for g in games) > GAME_BYTES:
        missed.append("a whole game's GIF is over 8 MiB")
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games searched per kind")
    parser.add_argument("--found", type=Path, help="reuse (or write) the longest seeds found")
    parser.add_argument("--save", type=Path, help="write the GIFs drawn to this folder")
    args = parser.parse_args()
    if args.found is not None and args.found.exists():
        kept = json.loads(args.found.read_text())
    else:
        start = time.monotonic()
        kept = search(args.games)
        print(f"searched {args.games} games of each kind in {time.monotonic() - start:.0f} s")
        if args.found is not None:
            args.found.write_text(json.dumps(kept, indent=1))
    summary(kept)
    renderer = Renderer()
    renderer.palette()
    rounds: list[Drawn] = []
    games: list[Drawn] = []
    print(f"{'replay':32} {'turns':>6} {'frames':>6} {'GIF':>12} {'CPU':>8}")
    for what, one in draw_all(renderer, kept, args.save):
        (rounds if what == "round" else games).append(one)
        size = f"{one.size / 1024:.0f} KiB" if what == "round" else f"{one.size / MIB:.2f} MiB"
        print(f"{one.what:32} {one.turns:6} {one.frames:6} {size:>12} {one.cpu:7.2f}s")
    missed = failures(rounds, games)
    if missed:
        print("\nOVER BUDGET:\n  " + "\n  ".join(missed))
        return 1
    print("\nall within budget")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
