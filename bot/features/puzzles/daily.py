"""Which puzzle a day gets: its kind, and the position, from a server's own finished games when
they hold one, else from games computers play from the day's seed.

Why computers at the easy strength in Rummy 51 2v2: its positions are a Rummy 51 table as
people play it (four hands, a partner, the bar), and easy players leave jokers on the table and
hands that could go out, so a day's position is found in a few games: the slowest of 365 days
of each kind took ~1.1 s of CPU (``benchmarks/bench_puzzles.py``), under the 2 s budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from rummy_engine import Game, Rules, Variant
from rummy_engine.actions import Action
from rummy_engine.ai.player import Strength
from rummy_engine.ai.puzzles import Puzzle, PuzzleKind, find_puzzle, play_starts, simulated_starts

#: The kinds in the order the days take them.
ROTATION = (
    PuzzleKind.GO_OUT,
    PuzzleKind.SAFE_DISCARD,
    PuzzleKind.OPENING,
    PuzzleKind.FREE_JOKER,
)
SIMULATED_RULES = Rules(Variant.R51, 4)
#: Simulated games tried before giving up on a day (never reached in the benchmark's 1,460 days:
#: the most a day took was a handful).
MAX_GAMES = 200


class NoPuzzle(Exception):
    """No position of the day's kind was found (a bug or a far too small budget)."""


def kind_of(day: date) -> PuzzleKind:
    return ROTATION[day.toordinal() % len(ROTATION)]


@dataclass(frozen=True)
class SourceGame:
    """A server's finished game to look for a puzzle in: who played it (for the credit), the
    game as it started, and its logged actions."""

    players: str
    start: Game
    actions: Sequence[Action]


@dataclass(frozen=True)
class Found:
    """A day's puzzle and where it came from (``source``: the players of a server's game,
    None: a simulated one)."""

    puzzle: Puzzle
    source: str | None = None


def day_puzzle(
    day: date, *, guild_id: int, seen: Iterable[str] = (), games: Sequence[SourceGame] = ()
) -> Found:
    """The puzzle of ``day`` for a server: from its finished ``games`` when one holds a
    position of the day's kind not in ``seen`` (keys of the puzzles already posted), else from
    simulated games."""
    kind, known = kind_of(day), frozenset(seen)
    for game in games:
        puzzle = find_puzzle(play_starts(game.start.copy(), game.actions), kind, known)
        if puzzle is not None:
            return Found(puzzle, game.players)
    for n in range(MAX_GAMES):
        seed = f"puzzle:{guild_id}:{day.isoformat()}:{n}"
        puzzle = find_puzzle(simulated_starts(SIMULATED_RULES, seed, Strength.EASY), kind, known)
        if puzzle is not None:
            return Found(puzzle)
    raise NoPuzzle(f"no {kind.value} puzzle in {MAX_GAMES} games for {day}")
