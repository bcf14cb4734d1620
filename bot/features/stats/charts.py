"""The game's story in pictures: what the score chart and the rating chart show, in words too.

Why here (no discord): the charts are scenes built from stored facts, the round results of a
game and the rating history of a player, with every word through ``t()``; the Discord layer only
attaches them. Each chart comes with its alt text (Discord's ``description``, at most 1,024
characters), which says what the picture shows: every value of every line, the limit, the
winner. A long game's alt text keeps the first and the latest values of each line and says that
some are left out ("…"), so it always fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.features.play import presenter
from bot.features.play.tables import Table
from bot.features.stats.store import StatsStore
from bot.render.scene import ChartScene, ChartSeries
from bot.storage.base import RatingChange
from bot.text import t
from rummy_engine import Game, Phase

#: Discord's limit on an attachment's description.
ALT_LIMIT = 1024
#: Rated games drawn on a rating chart (the latest ones).
RATING_GAMES = 50
ELLIPSIS = "…"


@dataclass(frozen=True)
class Chart:
    """A chart to attach: its scene, its file name and its alt text."""

    scene: ChartScene
    filename: str
    description: str


def ended_by_round(game: Game) -> bool:
    """Whether the game ended with its last round (a total reached the limit, or Basic's
    rounds were all played), rather than by a forfeit: then the last round's summary is the
    message of the final result."""
    if game.phase is not Phase.GAME_OVER or not game.results:
        return False
    if game.results[-1].round_no != game.round_no:
        return False
    rules = game.rules
    if rules.is_atlas:
        return any(score >= rules.limit for score in game.scores)
    return game.round_no >= rules.options.basic_rounds


def score_chart(table: Table, locale: str) -> Chart | None:
    """Each side's total after every round (from 0 before the first), against the limit; None
    while the game runs, or when no round was finished."""
    game = table.game
    if game is None or game.phase is not Phase.GAME_OVER or not game.results:
        return None
    names = presenter.names_for(table)
    rules = game.rules
    sides = [presenter.side_name(table, names, s, locale) for s in range(rules.sides)]
    series = tuple(
        ChartSeries(name, (0, *(r.totals[s] for r in game.results)), s)
        for s, name in enumerate(sides)
    )
    limit = rules.limit if rules.is_atlas else None
    labels = {
        "x_axis": t("charts.round", locale),
        "y_axis": t("charts.points", locale),
        "limit": t("charts.limit", locale, limit=limit or 0),
    }
    title = t("charts.score_title", locale, title=presenter.variant_title(table, locale))
    scene = ChartScene(title, series, x_start=0, limit=limit, labels=labels)
    head = (
        t("charts.score_alt", locale, limit=limit) if limit else t("charts.score_alt_basic", locale)
    )
    winners = [sides[s] for s in game.winners]
    tail = (
        t("charts.alt_winners", locale, winners=", ".join(winners), count=len(winners))
        if winners
        else t("charts.alt_no_winner", locale)
    )
    description = alt_text(head, series, tail, locale)
    return Chart(scene, f"scores-{table.id}.png", description)


def rating_chart(
    player: str,
    histories: Sequence[tuple[str, int, Sequence[RatingChange]]],
    user_id: int,
    locale: str,
) -> Chart | None:
    """The player's rating after each rated game, one line per family given (its name, its
    count of rated games, and its latest changes newest first as the store returns them), each
    drawn at the numbers of its games; None without any rated game."""
    series = tuple(
        ChartSeries(
            name,
            tuple(round(c.after) for c in reversed(changes)),
            index,
            start=max(1, rated - len(changes) + 1),
        )
        for index, (name, rated, changes) in enumerate(h for h in histories if h[2])
    )
    if not series:
        return None
    labels = {"x_axis": t("charts.rated_game", locale), "y_axis": t("charts.rating", locale)}
    title = t("charts.rating_title", locale, player=player)
    scene = ChartScene(title, series, x_start=1, limit=None, labels=labels)
    head = t("charts.rating_alt", locale, player=player)
    return Chart(scene, f"rating-{user_id}.png", alt_text(head, series, "", locale))


async def rating_histories(
    store: StatsStore, scope: int, user_id: int, families: Sequence[tuple[str, str, int]]
) -> list[tuple[str, int, list[RatingChange]]]:
    """The latest rating changes of each (family, its name in the reader's language, its count
    of rated games)."""
    return [
        (name, rated, await store.rating_history(scope, family, user_id, RATING_GAMES))
        for family, name, rated in families
    ]


def alt_text(head: str, series: Sequence[ChartSeries], tail: str, locale: str) -> str:
    """The head, each line's values, the tail; within ``ALT_LIMIT``: when every value does not
    fit, each line keeps its first value and as many of its latest as fit."""
    shown = max((len(s.values) for s in series), default=0)
    while True:
        lines = [_series_words(s, shown, locale) for s in series]
        text = " ".join(part for part in (head, " ".join(lines), tail) if part)
        if len(text) <= ALT_LIMIT or shown <= 2:
            return text[:ALT_LIMIT]
        shown -= 1


def _series_words(series: ChartSeries, shown: int, locale: str) -> str:
    values = [str(v) for v in series.values]
    if len(values) > shown:
        values = [values[0], ELLIPSIS, *values[len(values) - shown + 1 :]]
    return t("charts.alt_series", locale, name=series.name, values=", ".join(values)) + "."
