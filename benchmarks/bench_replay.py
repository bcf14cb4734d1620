"""Replay GIFs: size and CPU of one round and of a whole long game of Rummy 51.

Budget (issue 26): a round's replay at most 1 MiB and 1 s of CPU; a whole long game (9 rounds
or more of Rummy 51) within Discord's 10 MiB attachment limit. Games are played by computers
from fixed seeds, so the figures are the same on every run but for the CPU times; the GIF is
drawn by the renderer the drawing processes run (sprites and palette built before timing, as
in a running bot), from the move log as the bot rebuilds it. Run it as a script:

    .venv/bin/python benchmarks/bench_replay.py [--games 6]

It prints the median and the largest figures, and exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
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
ROUND_BYTES, ROUND_CPU, GAME_BYTES = 1 * MIB, 1.0, 10 * MIB
LONG_GAME = 9


def long_game(seed: int) -> tuple[replays.Log, Game]:
    """A Rummy 51 1v1 game computers play from ``seed`` to its end, as its stored log."""
    game = Game.new(Rules(Variant.R51, 2), seed)
    genesis, rng = game.genesis(), random.Random(seed)
    actions, events = [], []
    while game.phase is not Phase.GAME_OVER:
        action = choose_action(game, rng)
        actions.append(action_to_json(action))
        events.append(tuple(game.apply(action)))
    return replays.Log(genesis, tuple(actions), tuple(events)), game


def table_of(game: Game, table_id: int) -> Table:
    """A finished table around ``game`` (what the replay reads of it: names, title)."""
    now = datetime(2026, 12, 2, tzinfo=UTC)
    record = TableRecord(
        table_id, 1, 2, 10, "finished", "r51", "1v1", "{}", table_id,
        json.dumps(game.to_json()), 1, now, now, now,
    )  # fmt: skip
    seats = (SeatRecord(0, 10, name="alice"), SeatRecord(1, 11, name="bob"))
    return Table(record, seats, game)


def timed(renderer: Renderer, scene: replays.ReplayScene) -> tuple[int, float]:
    """The GIF's size and the CPU seconds its drawing took."""
    start = time.process_time()
    gif = renderer.render(scene)
    return len(gif), time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="long games to draw")
    args = parser.parse_args()
    renderer = Renderer()
    renderer.palette()
    rounds: list[tuple[int, float, int]] = []  # bytes, CPU seconds, frames
    games: list[tuple[int, float, int, int]] = []  # bytes, CPU seconds, frames, rounds
    seed = 0
    while len(games) < args.games:
        seed += 1
        log, game = long_game(seed)
        if game.round_no < LONG_GAME:
            continue
        table = table_of(game, seed)
        for round_no in range(1, game.round_no + 1):
            found = replays.moments(log, frozenset({round_no}))
            size, cpu = timed(renderer, replays.replay_scene(table, found, "en"))
            rounds.append((size, cpu, len(found)))
        whole = replays.moments(log)
        size, cpu = timed(renderer, replays.replay_scene(table, whole, "en"))
        games.append((size, cpu, len(whole), game.round_no))

    def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
        median, top = statistics.median(values) / scale, max(values) / scale
        return f"{name:24} median {median:9.2f} {unit:4} largest {top:9.2f} {unit}"

    print(f"{len(rounds)} rounds of {len(games)} long Rummy 51 games (1v1, computers)\n")
    print(line("round: frames", [r[2] for r in rounds], ""))
    print(line("round: GIF size", [r[0] for r in rounds], "KiB", 1024))
    print(line("round: CPU", [r[1] * 1000 for r in rounds], "ms"))
    print(line("round: bytes per frame", [r[0] / r[2] for r in rounds], "KiB", 1024))
    print(line("game: rounds", [g[3] for g in games], ""))
    print(line("game: frames", [g[2] for g in games], ""))
    print(line("game: GIF size", [g[0] for g in games], "MiB", MIB))
    print(line("game: CPU", [g[1] for g in games], "s"))
    failures = []
    if max(r[0] for r in rounds) > ROUND_BYTES:
        failures.append("a round's GIF is over 1 MiB")
    if max(r[1] for r in rounds) > ROUND_CPU:
        failures.append("a round's GIF takes over 1 s of CPU")
    if max(g[0] for g in games) > GAME_BYTES:
        failures.append("a whole game's GIF is over 10 MiB")
    if failures:
        print("\nOVER BUDGET:\n  " + "\n  ".join(failures))
        return 1
    print("\nall within budget")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
