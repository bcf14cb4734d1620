"""The bot without Discord: computer games played offline (``rummy-bot simulate``) and one game
drawn into PNG files (``rummy-bot demo``).

Why it exists: it is the way to see the engine, the computer players and the pictures work before
creating a Discord application, and the strength benchmark plays its games through the same
:func:`play_game`. No discord import here, and no token needed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot import render
from bot.services import scenes
from bot.text import DEFAULT_LOCALE, t
from rummy_engine import (
    Action,
    Game,
    Lay,
    Phase,
    Rules,
    RuleViolation,
    StartRound,
    Swap,
    Variant,
    player_view,
)
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action

Player = Callable[[Game, random.Random], Action]
MAX_MOVES = 200_000  # a game that has not ended by then is reported as unfinished
MODES = {"1v1": 2, "2v2": 4}


@dataclass
class GameRecord:
    """One finished (or abandoned) game: who won, how long it took, and every decision's CPU."""

    seed: str
    winners: tuple[int, ...]
    rounds: int
    moves: int
    finished: bool
    turn_seconds: list[float] = field(default_factory=list)


def computer(strength: Strength) -> Player:
    """A seat played by the engine's computer player at ``strength``."""

    def play(game: Game, rng: random.Random) -> Action:
        return choose_action(game, rng, strength)

    return play


def play_game(
    rules: Rules,
    seed: str,
    players: Sequence[Player],
    on_move: Callable[[Game, Action | None], None] | None = None,
) -> GameRecord:
    """Play a whole game with one player per seat; ``on_move`` sees the deal (action None),
    then each action after it ran."""
    game = Game.new(rules, seed)
    rng = random.Random(f"{seed}:players")
    record = GameRecord(seed, (), 0, 0, False)
    if on_move is not None:
        on_move(game, None)
    while game.phase is not Phase.GAME_OVER and record.moves < MAX_MOVES:
        if game.phase is Phase.ROUND_OVER:
            action: Action = StartRound()
        else:
            start = time.process_time()
            action = players[game.current](game, rng)
            record.turn_seconds.append(time.process_time() - start)
        game.apply(action)
        record.moves += 1
        if on_move is not None:
            on_move(game, action)
    record.winners = tuple(game.winners)
    record.rounds = len(game.results)
    record.finished = game.phase is Phase.GAME_OVER
    return record


def seat_labels(rules: Rules, labels: Sequence[str], swap: bool) -> list[str]:
    """Which label plays each seat: sides take the labels in turn (2v2 partners share one);
    ``swap`` exchanges the first two, so half the games give each the other seats."""
    order = list(labels)
    if swap and len(order) > 1:
        order[0], order[1] = order[1], order[0]
    return [order[rules.side_of(s) % len(order)] for s in range(rules.players)]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0% and 100%, unlike p ± 2σ)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Results of many games between labelled players."""

    labels: tuple[str, ...]
    wins: dict[str, int] = field(default_factory=dict)
    games: int = 0
    unfinished: int = 0
    rounds: int = 0
    moves: int = 0
    turn_seconds: list[float] = field(default_factory=list)

    def add(self, record: GameRecord, seats: Sequence[str]) -> None:
        """Count a game: a label wins when every winning seat is one of its seats."""
        self.games += 1
        self.unfinished += not record.finished
        self.rounds += record.rounds
        self.moves += record.moves
        self.turn_seconds.extend(record.turn_seconds)
        winning = {seats[s] for s in record.winners}
        if len(winning) == 1:
            (label,) = winning
            self.wins[label] = self.wins.get(label, 0) + 1

    def lines(self) -> list[str]:
        out = []
        for label in dict.fromkeys(self.labels):
            wins = self.wins.get(label, 0)
            low, high = wilson(wins, self.games)
            out.append(
                f"  {label:<10} won {wins:>5} of {self.games} "
                f"({100 * wins / max(self.games, 1):.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}%)"
            )
        times = sorted(self.turn_seconds) or [0.0]
        out.append(
            f"  rounds per game {self.rounds / max(self.games, 1):.1f}, "
            f"moves per game {self.moves / max(self.games, 1):.0f}, unfinished {self.unfinished}"
        )
        out.append(
            f"  CPU per computer turn: median {1000 * statistics.median(times):.2f} ms, "
            f"worst {1000 * times[-1]:.1f} ms over {len(self.turn_seconds)} turns"
        )
        return out


def rules_for(variant: str, mode: str) -> Rules:
    """``--variant 51 --mode 2v2`` as engine rules (Basic takes ``--mode`` as a player count)."""
    names = {"51": Variant.R51, "71": Variant.R71, "simple": Variant.SIMPLE, "basic": Variant.BASIC}
    chosen = names.get(variant.lower().removeprefix("r")) or Variant(variant.lower())
    players = MODES.get(mode) or int(mode)
    return Rules(chosen, players)


def simulate(
    rules: Rules,
    labels: Sequence[str],
    games: int,
    seed: int,
    progress: bool = True,
) -> Tally:
    """Play ``games`` computer games offline and print who won, how long games were, and the
    CPU each computer turn took; a carriage-return line shows progress on ``progress``."""
    strengths = [Strength(label) for label in labels]
    tally = Tally(tuple(labels))
    for i in range(games):
        seats = seat_labels(rules, [s.value for s in strengths], swap=i % 2 == 1)
        players = [computer(Strength(label)) for label in seats]
        tally.add(play_game(rules, f"sim:{seed}:{i}", players), seats)
        if progress:
            done = (i + 1) * 30 // games
            bar = f"[{'#' * done}{'.' * (30 - done)}] {i + 1}/{games} games"
            print(f"\r{bar}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    mode = "2v2" if rules.teams else f"{rules.players} players"
    print(f"{rules.variant.value} {mode}, {games} games, seed {seed}:")
    for line in tally.lines():
        print(line)
    return tally


# -- demo -------------------------------------------------------------------------------------


def _demo_title(rules: Rules) -> str:
    return t("demo.table_title", variant=rules.variant.value)


def _table_scene(game: Game, names: Sequence[str]) -> render.TableScene:
    """The table as every player sees it (built from the engine's public view, no Table)."""
    sides = scenes.side_names(game.rules, names, DEFAULT_LOCALE)
    title = _demo_title(game.rules)
    return scenes.table_scene(player_view(game, None), title, names, sides, DEFAULT_LOCALE)


def _hand_scene(game: Game, seat: int, name: str) -> render.HandScene:
    view = player_view(game, seat)
    title = t("demo.hand_title", name=name, count=len(view.hand))
    return scenes.hand_scene(view, title, DEFAULT_LOCALE)


def _round_end_scene(game: Game, names: Sequence[str]) -> render.RoundEndScene:
    """Every hand and what it made in the round just played (public once the round is over)."""
    rules, result = game.rules, game.results[-1]
    sides = scenes.side_names(rules, names, DEFAULT_LOCALE)
    winner = None if result.winner is None else names[result.winner]
    note = scenes.round_headline(result, winner, DEFAULT_LOCALE)
    return scenes.round_end_scene(
        rules, result, _demo_title(rules), names, sides, DEFAULT_LOCALE, note
    )


def _moment(game: Game, action: Action | None, before: list[bool]) -> str | None:
    """Why this move is worth a picture: a deal, a first lay-down, a joker swap, a round's end."""
    if action is None or isinstance(action, StartRound):
        return "deal"
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return "round-end"
    if isinstance(action, Swap):
        return "joker-swap"
    if isinstance(action, Lay) and not before[action.seat]:
        return "first-lay"
    return None


def demo(
    out_dir: Path,
    rules: Rules,
    seed: int,
    strengths: Sequence[Strength] = (Strength.STRONG, Strength.NORMAL),
    limit: int = 24,
) -> list[Path]:
    """Play one game and write the table and the current hand as PNGs at its key moments."""
    out_dir.mkdir(parents=True, exist_ok=True)
    names = [f"{strengths[rules.side_of(s) % len(strengths)].value} {s + 1}" for s in range(rules.players)]
    players = [computer(strengths[rules.side_of(s) % len(strengths)]) for s in range(rules.players)]
    written: list[Path] = []
    laid = [False] * rules.players

    def snap(game: Game, action: Action | None) -> None:
        moment = _moment(game, action, laid)
        laid[:] = game.laid_any
        if moment is None or len(written) >= limit:
            return
        stem = out_dir / f"{len(written) // 2 + 1:02d}-round{game.round_no}-{moment}"
        table_png = stem.with_name(stem.name + "-table.png")
        table_png.write_bytes(render.render_table(_table_scene(game, names)))
        if moment == "round-end":
            second = stem.with_name(stem.name + "-scores.png")
            second.write_bytes(render.render_round_end(_round_end_scene(game, names)))
        else:
            seat = getattr(action, "seat", game.current)
            second = stem.with_name(stem.name + f"-hand-seat{seat + 1}.png")
            second.write_bytes(render.render_hand(_hand_scene(game, seat, names[seat])))
        written.extend((table_png, second))

    record = play_game(rules, f"demo:{seed}", players, on_move=snap)
    winners = ", ".join(names[s] for w in record.winners for s in rules.seats_of(w)) or "nobody"
    print(f"{rules.variant.value}: {record.rounds} rounds, {record.moves} moves; won by {winners}")
    return written


# -- command line -------------------------------------------------------------------------------


def add_offline_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``simulate`` and ``demo`` for ``rummy-bot`` (kept here so the CLI module barely changes)."""
    strengths = ",".join(s.value for s in Strength)
    sim = sub.add_parser("simulate", help="play computer games offline, no Discord needed")
    sim.add_argument("--variant", default="51", help="51, 71, simple or basic (default 51)")
    sim.add_argument("--mode", default="1v1", help="1v1 or 2v2 (Basic: number of players)")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", default="strong,easy", help=f"strengths by side, from {strengths}")
    sim.add_argument("--seed", type=int, default=1)
    demo_cmd = sub.add_parser("demo", help="play one game and save pictures of its key moments")
    demo_cmd.add_argument("--out", type=Path, required=True, metavar="DIR")
    demo_cmd.add_argument("--variant", default="51")
    demo_cmd.add_argument("--mode", default="1v1")
    demo_cmd.add_argument("--seed", type=int, default=1)


def run_offline(args: argparse.Namespace) -> int:
    """Run ``simulate`` or ``demo``; a bad option is reported in one sentence (exit code 2)."""
    try:
        rules = rules_for(args.variant, args.mode)
        if args.command == "demo":
            written = demo(args.out, rules, args.seed)
            print(f"{len(written)} pictures written to {args.out}")
            return 0
        labels = [label.strip() for label in args.players.split(",")]
        for label in labels:
            Strength(label)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
    except (ValueError, RuleViolation) as error:
        print(f"rummy-bot {args.command}: {error}", file=sys.stderr)
        return 2
    simulate(rules, labels, args.games, args.seed)
    return 0
