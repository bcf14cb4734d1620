"""The documentation's pictures, made by one command: ``python -m bot.gallery OUT_DIR``.

Why a command: the pictures in ``docs/images/`` must be what the bot draws, so they come from
the real renderer, with scenes built the way the bot builds them (:mod:`bot.features.play.scenes`,
:mod:`bot.features.replays.replay`, :mod:`bot.features.stats.charts`) from real games: the engine deals and
the computer plays every seat, with fixed seeds, under the variants' real rules (a Rummy 51 2v2
game is scored against 351), and a replay is rebuilt from the game's move log as the bot
rebuilds it. The rating chart folds a fixed season of results through the bot's own rating rule
(the results come from a seeded generator: playing forty games out would add half a minute to
the command). The same command run again writes the same bytes, and
``tests/render/test_gallery.py`` fails when a committed picture is not what it makes: after a
deliberate change of appearance, run it and look at the pictures.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.features.play import scenes
from bot.features.play.tables import Table
from bot.features.replays import replay as replays
from bot.features.stats import charts
from bot.features.stats.ratings import replay_ratings
from bot.render.renderer import Renderer
from bot.render.scene import Scene
from bot.storage import SeatRecord, TableRecord
from bot.storage.base import ALL_VARIANTS, GamePlayerRecord, GameRecord, RatingChange
from bot.text import t
from rummy_engine import (
    Action,
    Draw,
    Event,
    Game,
    Phase,
    Rules,
    Variant,
    action_to_json,
    player_view,
)
from rummy_engine.ai import Strength
from rummy_engine.strategy import choose_action

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
#: The round the replay shows, of the finished Rummy 51 game whose scores the score chart shows
#: (a round of both players' melds, 24 frames: about 200 KB).
REPLAY_ROUND = 2
#: The rating chart's player (a user id of the gallery's own) and their season.
RATED_PLAYER, RATED_ID = FOUR[0], 1
RATED_GAMES = 40
#: A stored time for the gallery's tables and games (a table record needs one).
WHEN = datetime(2026, 12, 2, tzinfo=UTC)


@dataclass
class Play:
    """A game the computer plays at every seat, one move at a time, from a fixed seed, with
    its move log as the bot stores it (a replay is rebuilt from it)."""

    game: Game
    rng: random.Random
    genesis: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=list)

    @classmethod
    def new(cls, rules: Rules, seed: str) -> Play:
        game = Game.new(rules, seed)
        return cls(game, random.Random(f"{seed}:moves"), game.genesis())

    def apply(self, action: Action) -> None:
        self.actions.append(action_to_json(action))
        self.events.append(tuple(self.game.apply(action)))

    def until(self, stop: Callable[[Game], bool], limit: int = 20_000) -> Play:
        """Moves until ``stop`` holds (or the game is over)."""
        for _ in range(limit):
            if stop(self.game) or self.game.phase is Phase.GAME_OVER:
                return self
            self.apply(choose_action(self.game, self.rng, Strength.NORMAL))
        raise RuntimeError("the gallery's game did not reach its moment")

    def log(self) -> replays.Log:
        return replays.Log(self.genesis, tuple(self.actions), tuple(self.events))

    def table(self, names: Sequence[str], table_no: int) -> Table:
        """The table around this game as the store would load it (what replays and charts
        read of it: seat names, variant, mode, number)."""
        rules = self.game.rules
        record = TableRecord(
            table_no, 1, 2, 10, "finished", rules.variant.value, _mode(rules), "{}", None,
            json.dumps(self.game.to_json()), len(self.actions), WHEN, WHEN, WHEN,
        )  # fmt: skip
        seats = tuple(
            SeatRecord(seat, 10 + seat, team=seat % 2 if rules.teams else None, name=name)
            for seat, name in enumerate(names)
        )
        return Table(record, seats, self.game)


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


def replay_scene(play: Play, names: Sequence[str], table_no: int, locale: str) -> Scene:
    """Round :data:`REPLAY_ROUND` of ``play`` as the bot's replay GIF draws it."""
    found = replays.frames(replays.moments(play.log(), frozenset({REPLAY_ROUND})))
    return replays.replay_scene(play.table(names, table_no), found, locale)


def score_chart(play: Play, names: Sequence[str], table_no: int, locale: str) -> Scene:
    chart = charts.score_chart(play.table(names, table_no), locale)
    if chart is None:
        raise RuntimeError("the gallery's score chart needs a finished game")
    return chart.scene


def rated_season(seed: str = "gallery:ratings") -> list[GameRecord]:
    """:data:`RATED_GAMES` rated 1v1 games of :data:`RATED_PLAYER` against one of the three
    others, in Rummy 51 or Basic rummy, won or lost as a seeded generator says (better at Rummy
    51, and better in the second half of the season)."""
    rng = random.Random(seed)
    games = []
    for number in range(1, RATED_GAMES + 1):
        variant = "r51" if rng.random() < 0.55 else "basic"
        odds = (0.62 if variant == "r51" else 0.4) + (0.15 if number > RATED_GAMES // 2 else 0)
        won = rng.random() < odds
        games.append(_rated_game(number, variant, rng.randrange(1, len(FOUR)), won))
    return games


def _rated_game(number: int, variant: str, rival: int, won: bool) -> GameRecord:
    """Game ``number`` as the statistics record it: its two players and who came first."""
    players = (
        _rated_player(0, RATED_ID, FOUR[0], won),
        _rated_player(1, RATED_ID + rival, FOUR[rival], not won),
    )
    return GameRecord(
        number, 1, 2, variant, "1v1", "{}", "[]", "[]", True, WHEN, WHEN, players, id=number
    )


def _rated_player(seat: int, user_id: int, name: str, won: bool) -> GamePlayerRecord:
    return GamePlayerRecord(
        seat, user_id, False, name, seat, None, 1 if won else 2, won, False, 0, 0, 0, 0, 0, 0
    )


def rating_chart(locale: str) -> Scene:
    """The rating chart /rummy-stats player shows for :data:`RATED_PLAYER`: a line per variant and
    one for all variants, each at the numbers of its own games."""
    rebuilt = replay_ratings(rated_season())
    histories = []
    for family in ("r51", "basic", ALL_VARIANTS):
        changes = [
            RatingChange(game_id, before, after)
            for (scope, fam, user), game_id, before, after in reversed(rebuilt.history)
            if (scope, fam, user) == (1, family, RATED_ID)
        ][: charts.RATING_GAMES]
        rated = rebuilt.ratings[(1, family, RATED_ID)][1]
        key = "stats.all_variants" if family == ALL_VARIANTS else f"variant.{family}"
        histories.append((t(key, locale), rated, changes))
    chart = charts.rating_chart(RATED_PLAYER, histories, RATED_ID, locale)
    if chart is None:
        raise RuntimeError("the gallery's rating chart needs rated games")
    return chart.scene


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
    running.apply(Draw(seat))
    drawn_hand = hand(running.game, seat, TABLE_NO)
    running.until(_melds(6))
    running_table_en, running_table_fr = (
        table(running.game, FOUR, TABLE_NO, locale) for locale in ("en", "fr")
    )
    running.until(_round_over)
    end_en, end_fr = (round_end(running.game, FOUR, TABLE_NO, locale) for locale in ("en", "fr"))
    finished = Play.new(Rules(Variant.R51, 2), "gallery:r51-1v1").until(lambda g: False)
    replay_en, replay_fr, scores_en, scores_fr = (
        make(finished, FOUR[:2], TABLE_NO + 1, locale)
        for make in (replay_scene, score_chart)
        for locale in ("en", "fr")
    )
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
        "replay.gif": replay_en,
        "replay-fr.gif": replay_fr,
        "score-chart.png": scores_en,
        "score-chart-fr.png": scores_fr,
        "rating-chart.png": rating_chart("en"),
        "rating-chart-fr.png": rating_chart("fr"),
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
        print("usage: python -m bot.gallery OUT_DIR (e.g. docs/images)", file=sys.stderr)
        return 2
    for path in write(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
