"""The pictures' scenes from the engine's values: one place for what a picture shows.

Why its own module: a live table (:mod:`bot.features.play.presenter`), the offline demo
(:mod:`bot.offline`) and the documentation's pictures (:mod:`bot.gallery`) draw the same
things, so they build their scenes here from a :class:`~rummy_engine.PlayerView` or a
:class:`~rummy_engine.RoundResult`, the seats' names and a language, and never spell out twice
whose turn a picture shows or what a round-end row counts. Every word goes through
:func:`bot.text.t`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from bot import render
from bot.text import t
from rummy_engine import Card, Outcome, Phase, PlayerView, RoundResult, Rules
from rummy_engine.values import basic_value

#: The phases in which a seat is to move: outside them a picture names no one.
PLAYING = (Phase.DRAW, Phase.PLAY)


@functools.lru_cache(maxsize=32)
def labels(kind: str, locale: str) -> Mapping[str, str]:
    """The translated labels of one kind of picture (``table``, ``hand``, ``round_end``).
    Cached: the same few words go into every picture of a language."""
    defaults = {
        "table": render.TABLE_LABELS,
        "hand": render.HAND_LABELS,
        "round_end": render.ROUND_END_LABELS,
    }[kind]
    return render.labels_from(defaults, lambda k: t(k, locale))


def mode_name(mode: str, players: int | None, locale: str) -> str:
    """How a table's mode reads: "1v1", "2v2", or Basic rummy's real seat count once it is
    known ("3 players"), else the range a lobby accepts ("2–6 players")."""
    if mode == "basic" and players:
        return t("mode.players", locale, count=players)
    return t(f"mode.{mode}", locale)


def title(variant: str, mode: str, players: int | None, table_id: int, locale: str) -> str:
    """A table's title: variant, mode (or seat count) and number."""
    return t(
        "table.title",
        locale,
        variant=t(f"variant.{variant}", locale),
        mode=mode_name(mode, players, locale),
        table=table_id,
    )


def side_names(rules: Rules, seat_names: Sequence[str], locale: str) -> tuple[str, ...]:
    """Each side's name: the partners in 2v2, else the player."""
    if rules.teams:
        return tuple(
            t("side.partners", locale, first=seat_names[side], second=seat_names[side + 2])
            for side in range(rules.sides)
        )
    return tuple(seat_names[: rules.sides])


def _sides(
    rules: Rules, names: Sequence[str], scores: Sequence[int]
) -> tuple[render.SideScore, ...]:
    limit = rules.limit if rules.is_atlas else None
    return tuple(render.SideScore(names[s], score, limit, s) for s, score in enumerate(scores))


def table_melds(view: PlayerView, seat_names: Sequence[str]) -> tuple[render.TableMeld, ...]:
    """The table's melds as the picture numbers them, each with who laid it (the table
    message's Melds line tells the same ones)."""
    rules = view.rules
    return tuple(
        render.TableMeld(i + 1, tm.meld, rules.side_of(tm.owner), seat_names[tm.owner])
        for i, tm in enumerate(view.table)
    )


def table_scene(
    view: PlayerView,
    title: str,
    seat_names: Sequence[str],
    sides: Sequence[str],
    locale: str,
    four_colour: bool = False,
) -> render.TableScene:
    """The shared table from a spectator's view: once the round is over nobody is to move,
    so the picture has no turn badge and no seat marked."""
    rules = view.rules
    turn = view.current if view.phase in PLAYING else None
    return render.TableScene(
        title=title,
        round_no=view.round_no,
        sides=_sides(rules, sides, view.scores),
        turn_name=None if turn is None else seat_names[turn],
        melds=table_melds(view, seat_names),
        discard_top=view.discard_top,
        discard_count=view.discard_size,
        stock_empty=not view.stock_size,
        seats=tuple(
            render.SeatInfo(
                seat_names[s], rules.side_of(s), view.opened[s] and rules.has_opening, s == turn
            )
            for s in range(rules.players)
        ),
        four_colour=four_colour,
        labels=labels("table", locale),
    )


def hand_scene(
    view: PlayerView,
    title: str,
    locale: str,
    *,
    four_colour: bool = False,
    groups: tuple[tuple[Card, ...], ...] | None = None,
) -> render.HandScene:
    """A seat's own hand (``view`` is that seat's), the card just drawn marked."""
    return render.HandScene(
        cards=view.hand,
        drawn=view.drawn,
        groups=groups,
        four_colour=four_colour,
        title=title,
        labels=labels("hand", locale),
    )


def round_headline(result: RoundResult, winner: str | None, locale: str) -> str:
    """How the round ended, in a sentence: who won it and how, or why nobody did."""
    if result.outcome is Outcome.VOID:
        return t("round.void", locale, round=result.round_no)
    if result.outcome is Outcome.RESIGN or winner is None:
        return t("round.ended", locale, round=result.round_no)
    return t(f"round.won.{result.outcome.value}", locale, player=winner, round=result.round_no)


def row_points(rules: Rules, result: RoundResult, seat: int) -> int:
    """What a round-end row shows for ``seat``: in the Atlas variants the penalty its cards
    cost; in Basic rummy what the winner collects on the winner's row, and on another row what
    that hand is worth to the winner."""
    if rules.is_atlas:
        return result.penalties[seat]
    if result.winner is None:
        return 0
    if seat == result.winner:
        return result.points[rules.side_of(seat)]
    return sum(basic_value(card) for card in result.hands[seat])


def round_end_scene(
    rules: Rules,
    result: RoundResult,
    title: str,
    seat_names: Sequence[str],
    sides: Sequence[str],
    locale: str,
    note: str = "",
) -> render.RoundEndScene:
    """Every hand of the round just played (public once it is over), what each made, and the
    totals with what each side gained this round."""
    return render.RoundEndScene(
        title=t("round.image_title", locale, round=result.round_no, title=title),
        players=tuple(
            render.PlayerResult(
                seat_names[s],
                rules.side_of(s),
                hand,
                row_points(rules, result, s),
                s == result.winner,
            )
            for s, hand in enumerate(result.hands)
        ),
        totals=_sides(rules, sides, result.totals),
        round_points=result.points,
        scoring="void" if result.winner is None else "penalty" if rules.is_atlas else "gain",
        note=note,
        labels=labels("round_end", locale),
    )
