"""Which puzzle a day gets: its kind, and the position, from a server's own finished games when
they hold one, else from games computers play from the day's seed.

Why computers at the easy strength in Rummy 51 2v2: its positions are a Rummy 51 table as
people play it (four hands, a partner, the bar), and easy players leave jokers on the table and
hands that could go out, so a day's position is usually found in a game or two. A rare day whose
kind hides longer falls back to a safe-discard puzzle after SEARCH_SECONDS of CPU, so no day
takes more than the 2 s budget (``benchmarks/bench_puzzles.py`` counts those days).
"""

from __future__ import annotations

import time
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
#: CPU seconds the day's kind may take before the day falls back to FALLBACK, which is found at
#: once (keeps a day's puzzle under the 2 s budget however its games go).
SEARCH_SECONDS = 1.2
FALLBACK = PuzzleKind.SAFE_DISCARD


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
    started = time.thread_time()
    for n in range(MAX_GAMES):
        if kind is not FALLBACK and time.thread_time() - started > SEARCH_SECONDS:
            kind = FALLBACK
        seed = f"puzzle:{guild_id}:{day.isoformat()}:{n}"
        puzzle = find_puzzle(simulated_starts(SIMULATED_RULES, seed, Strength.EASY), kind, known)
        if puzzle is not None:
            return Found(puzzle)
    raise NoPuzzle(f"no {kind.value} puzzle in {MAX_GAMES} games for {day}")
