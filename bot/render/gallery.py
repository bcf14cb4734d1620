"""The documentation's pictures, made by one command: ``python -m bot.render.gallery OUT_DIR``.

Why a command: the pictures in ``docs/images/`` must be what the bot draws, so they come from
the real renderer, with scenes built the way the bot builds them (:mod:`bot.services.scenes`)
from real games: the engine deals and the computer plays every seat, with fixed seeds, under
the variants' real rules (a Rummy 51 2v2 game is scored against 351). The same command run
again writes the same bytes, and ``tests/render/test_gallery.py`` fails when a committed picture is
not what it makes: after a deliberate change of appearance, run it and look at the pictures.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.services import scenes
from bot.text import t
from rummy_engine import Draw, Game, Phase, Rules, Variant, player_view
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action

from .renderer import Renderer, Scene

FOUR = ("Alice", "Bob", "Chloé", "Dan")
#: Display names as long as Discord allows (32 characters), wide letters included.
SIX_LONG = (
    "Wilhelmina Wolfgang-Wexford III",
    "Maximilian von Mittelwald-Moor",
    "Computer 1",
    "Éloïse Marguerite de Montmorency",
    "Computer 2",
    "Bartholomew W. Worthington-Smith",
)
TABLE_NO = 12
BASIC_TABLE_NO = 7


@dataclass
class Play:
    """A game the computer plays at every seat, one move at a time, from a fixed seed."""

    game: Game
    rng: random.Random

    @classmethod
    def new(cls, rules: Rules, seed: str) -> Play:
        return cls(Game.new(rules, seed), random.Random(f"{seed}:moves"))

    def until(self, stop: Callable[[Game], bool], limit: int = 20_000) -> Play:
        """Moves until ``stop`` holds (or the game is over)."""
        for _ in range(limit):
            if stop(self.game) or self.game.phase is Phase.GAME_OVER:
                return self
            self.game.apply(choose_action(self.game, self.rng, Strength.NORMAL))
        raise RuntimeError("the gallery's game did not reach its moment")


def _mode(rules: Rules) -> str:
    return "basic" if not rules.is_atlas else "2v2" if rules.teams else "1v1"


def _title(rules: Rules, table_no: int, locale: str) -> str:
    return scenes.title(rules.variant.value, _mode(rules), rules.players, table_no, locale)


def table(game: Game, names: Sequence[str], table_no: int, locale: str = "en") -> Scene:
    rules = game.rules
    sides = scenes.side_names(rules, names, locale)
    title = _title(rules, table_no, locale)
    return scenes.table_scene(player_view(game, None), title, names, sides, locale)


def round_end(game: Game, names: Sequence[str], table_no: int, locale: str = "en") -> Scene:
    rules, result = game.rules, game.results[-1]
    sides = scenes.side_names(rules, names, locale)
    winner = None if result.winner is None else names[result.winner]
    note = scenes.round_headline(result, winner, locale)
    title = _title(rules, table_no, locale)
    return scenes.round_end_scene(rules, result, title, names, sides, locale, note)


def hand(game: Game, seat: int, table_no: int, locale: str = "en") -> Scene:
    view = player_view(game, seat)
    title = t("hand.image_title", locale, table=table_no, count=len(view.hand))
    return scenes.hand_scene(view, title, locale)


def _melds(count: int) -> Callable[[Game], bool]:
    """A turn about to start with at least ``count`` melds on the table."""
    return lambda game: game.phase is Phase.DRAW and len(game.table) >= count


def _round_starts(round_no: int) -> Callable[[Game], bool]:
    """The first turn of round ``round_no``, before anything is drawn."""
    return lambda game: game.round_no == round_no and game.phase is Phase.DRAW


def _round_over(game: Game) -> bool:
    return game.phase is Phase.ROUND_OVER


def _round_won(game: Game) -> bool:
    """A round just won (not void: the winner collects)."""
    return (
        game.phase is not Phase.DRAW
        and game.phase is not Phase.PLAY
        and (bool(game.results) and game.results[-1].winner is not None)
    )


def scenes_by_file() -> dict[str, Scene]:
    """Every picture of the gallery, by file name."""
    running = Play.new(Rules(Variant.R51, 4), "gallery:r51-2v2").until(_round_starts(2))
    seat = running.game.current
    running.game.apply(Draw(seat))
    drawn_hand = hand(running.game, seat, TABLE_NO)
    running.until(_melds(6))
    running_table_en, running_table_fr = (
        table(running.game, FOUR, TABLE_NO, locale) for locale in ("en", "fr")
    )
    running.until(_round_over)
    end_en, end_fr = (round_end(running.game, FOUR, TABLE_NO, locale) for locale in ("en", "fr"))
    finished = Play.new(Rules(Variant.R51, 2), "gallery:r51-1v1").until(lambda g: False)
    basic = Play.new(Rules(Variant.BASIC, 6), "gallery:basic-6").until(_melds(4))
    basic_end = Play.new(Rules(Variant.BASIC, 4), "gallery:basic-4").until(_round_won)
    return {
        "table.png": running_table_en,
        "hand.png": drawn_hand,
        "round-end.png": end_en,
        "basic-6-seats.png": table(basic.game, SIX_LONG, BASIC_TABLE_NO),
        "rummy51-finished.png": table(finished.game, FOUR[:2], TABLE_NO + 1),
        "basic-round-end.png": round_end(basic_end.game, FOUR, BASIC_TABLE_NO + 1),
        "table-fr.png": running_table_fr,
        "round-end-fr.png": end_fr,
    }


def write(directory: Path) -> list[Path]:
    """Draw every picture of the gallery into ``directory`` (made if missing)."""
    renderer = Renderer()
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, scene in scenes_by_file().items():
        path = directory / name
        path.write_bytes(renderer.render(scene))
        written.append(path)
    return written


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bot.render.gallery OUT_DIR (e.g. docs/images)", file=sys.stderr)
        return 2
    for path in write(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
