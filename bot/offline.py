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
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot import render
from bot.features.play import scenes
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
VARIANTS = {"51": Variant.R51, "71": Variant.R71, "simple": Variant.SIMPLE, "basic": Variant.BASIC}
#: ``demo`` draws at most this many moments (two pictures each), whatever the game's length.
DEMO_MOMENTS = 12


class Refused(Exception):
    """A bad option of ``simulate`` or ``demo``: the catalogue key and parameters of its
    sentence (the valid values included)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


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
    """``--variant 51 --mode 2v2`` as engine rules (Basic takes ``--mode`` as a player count);
    a player count the variant does not take is the engine's :class:`RuleViolation`."""
    chosen = VARIANTS.get(variant.lower().removeprefix("r"))
    if chosen is None:
        raise Refused("offline.bad_variant", value=variant, choices=", ".join(VARIANTS))
    players = MODES.get(mode)
    if players is None:
        if not mode.isdigit():
            raise Refused("offline.bad_mode", value=mode)
        players = int(mode)
    return Rules(chosen, players)


def strengths_for(rules: Rules, players: str) -> list[str]:
    """``--players strong,easy``: one known strength per side, at most as many as sides (a
    third strength in 1v1 would be reported without ever having sat)."""
    labels = [label.strip() for label in players.split(",")]
    known = [s.value for s in Strength]
    for label in labels:
        if label not in known:
            raise Refused("offline.bad_strength", value=label, choices=", ".join(known))
    if len(labels) > rules.sides:
        raise Refused("offline.too_many_strengths", given=len(labels), sides=rules.sides)
    return labels


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


@dataclass(frozen=True)
class Moment:
    """A key moment of the demo game, its scenes built when it happened (drawn if picked)."""

    kind: str
    round_no: int
    table: render.TableScene
    #: The round's scores at a round end, else the hand of the seat that acted (or is to act).
    detail: render.RoundEndScene | render.HandScene
    seat: int | None


def _spread(candidates: Sequence[int], count: int) -> list[int]:
    """``count`` of ``candidates`` evenly spaced, the first and the last included."""
    if count <= 0:
        return []
    if len(candidates) <= count:
        return list(candidates)
    if count == 1:
        return [candidates[-1]]
    step = (len(candidates) - 1) / (count - 1)
    return [candidates[int(i * step + 0.5)] for i in range(count)]


def pick_moments(kinds: Sequence[str], budget: int = DEMO_MOMENTS) -> list[int]:
    """Which moments of a game to draw, in order, at most ``budget`` (2 or more) of them.

    The first (the deal) and the last (the game's end) always; then round ends across the
    whole game, for up to half the budget; then the other moments (deals, first lay-downs,
    joker swaps) spread over the game, and round ends again if those ran out.
    """
    if not kinds:
        return []
    last = len(kinds) - 1
    chosen = {0, last}
    ends = [i for i, kind in enumerate(kinds) if kind == "round-end" and i not in chosen]
    chosen.update(_spread(ends, budget // 2 - 1))
    others = [i for i, kind in enumerate(kinds) if kind != "round-end" and i not in chosen]
    chosen.update(_spread(others, budget - len(chosen)))
    rest = [i for i in ends if i not in chosen]
    chosen.update(_spread(rest, budget - len(chosen)))
    return sorted(chosen)


def prepare_out(out_dir: Path) -> None:
    """Make ``--out`` a folder the pictures can be written in, or refuse in a sentence."""
    if out_dir.exists() and not out_dir.is_dir():
        raise Refused("offline.out_is_file", path=out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".rummy-demo-"):
            pass
    except OSError as error:
        raise Refused("offline.out_unusable", path=out_dir, error=error.strerror) from error


def demo(
    out_dir: Path,
    rules: Rules,
    seed: int,
    strengths: Sequence[Strength] = (Strength.STRONG, Strength.NORMAL),
    budget: int = DEMO_MOMENTS,
) -> list[Path]:
    """Play one game and write the table, and the hand or the scores, as PNGs at key moments
    chosen over the whole game (:func:`pick_moments`): its end is always shown."""
    prepare_out(out_dir)
    names = [f"{strengths[rules.side_of(s) % len(strengths)].value} {s + 1}" for s in range(rules.players)]
    players = [computer(strengths[rules.side_of(s) % len(strengths)]) for s in range(rules.players)]
    moments: list[Moment] = []
    laid = [False] * rules.players

    def snap(game: Game, action: Action | None) -> None:
        kind = _moment(game, action, laid)
        laid[:] = game.laid_any
        if kind is None:
            return
        table = _table_scene(game, names)
        if kind == "round-end":
            moments.append(Moment(kind, game.round_no, table, _round_end_scene(game, names), None))
            return
        seat = getattr(action, "seat", game.current)
        hand = _hand_scene(game, seat, names[seat])
        moments.append(Moment(kind, game.round_no, table, hand, seat))

    record = play_game(rules, f"demo:{seed}", players, on_move=snap)
    written = [
        path
        for number, index in enumerate(pick_moments([m.kind for m in moments], budget), 1)
        for path in _draw_moment(out_dir, number, moments[index])
    ]
    winners = ", ".join(names[s] for w in record.winners for s in rules.seats_of(w)) or "nobody"
    print(f"{rules.variant.value}: {record.rounds} rounds, {record.moves} moves; won by {winners}")
    return written


def _draw_moment(out_dir: Path, number: int, moment: Moment) -> tuple[Path, Path]:
    stem = f"{number:02d}-round{moment.round_no}-{moment.kind}"
    table_png = out_dir / f"{stem}-table.png"
    try:
        table_png.write_bytes(render.render_table(moment.table))
        if isinstance(moment.detail, render.RoundEndScene):
            second = out_dir / f"{stem}-scores.png"
            second.write_bytes(render.render_round_end(moment.detail))
        else:
            second = out_dir / f"{stem}-hand-seat{(moment.seat or 0) + 1}.png"
            second.write_bytes(render.render_hand(moment.detail))
    except OSError as error:
        raise Refused("offline.out_unusable", path=out_dir, error=error.strerror) from error
    return table_png, second


# -- command line -------------------------------------------------------------------------------


def add_offline_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    parents: Sequence[argparse.ArgumentParser] = (),
) -> None:
    """``simulate`` and ``demo`` for ``rummy-bot`` (kept here so the CLI module barely changes);
    ``parents`` carry the options every verb takes."""
    strengths = ",".join(s.value for s in Strength)
    sim = sub.add_parser(
        "simulate", help="play computer games offline, no Discord needed", parents=list(parents)
    )
    sim.add_argument("--variant", default="51", help="51, 71, simple or basic (default 51)")
    sim.add_argument("--mode", default="1v1", help="1v1 or 2v2 (Basic: number of players)")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", default="strong,easy", help=f"strengths by side, from {strengths}")
    sim.add_argument("--seed", type=int, default=1)
    demo_cmd = sub.add_parser(
        "demo", help="play one game and save pictures of its key moments", parents=list(parents)
    )
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
        labels = strengths_for(rules, args.players)
        if args.games < 1:
            raise Refused("offline.bad_games", value=args.games)
    except Refused as refused:
        text = t(refused.key, DEFAULT_LOCALE, command=args.command, **refused.params)
        print(text, file=sys.stderr)
        return 2
    except RuleViolation as error:
        problem = t(error.code, **error.params)
        print(t("offline.refused", command=args.command, problem=problem), file=sys.stderr)
        return 2
    simulate(rules, labels, args.games, args.seed)
    return 0
