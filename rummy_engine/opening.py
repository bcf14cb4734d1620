"""Checks on a first lay-down and on going out at once (RULES.md §4–§6, pseudocode §6.3).

Pure functions of the melds a player lays and a :class:`LayContext` describing the player, so the
state machine, the solver and the hints all ask the same questions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.cards import Card
from rummy_engine.errors import OpeningRefused
from rummy_engine.melds import Meld
from rummy_engine.rules import R71JokerInOpening, Rules, Variant
from rummy_engine.values import opening_value


@dataclass(frozen=True)
class LayContext:
    """What the rules need to know about the player laying down.

    ``threshold`` is already ``max(base, bar)``; ``bar_from`` is the opening value that set the
    bar (for the refusal's wording), ``taken`` the discard taken this turn, if any.
    """

    rules: Rules
    opened: bool
    freed: bool
    threshold: int
    bar_from: int | None = None
    taken: Card | None = None


def _natural_runs(melds: Sequence[Meld], taken: Card | None) -> list[Meld]:
    return [m for m in melds if m.is_run and m.is_natural and (taken is None or taken not in m)]


def _natural_sets(melds: Sequence[Meld]) -> list[Meld]:
    return [m for m in melds if m.is_set and m.is_natural]


def _require_run(melds: Sequence[Meld], ctx: LayContext, code: str) -> None:
    if _natural_runs(melds, ctx.taken):
        return
    if ctx.taken is not None and _natural_runs(melds, None):
        raise OpeningRefused(
            "opening.run_uses_taken", card=ctx.taken.pretty, variant=ctx.rules.variant.value
        )
    raise OpeningRefused(code, variant=ctx.rules.variant.value)


def _require_set(melds: Sequence[Meld], ctx: LayContext) -> None:
    if not _natural_sets(melds):
        raise OpeningRefused("opening.needs_natural_set", variant=ctx.rules.variant.value)


def check_first_laydown(melds: Sequence[Meld], has_layoffs: bool, ctx: LayContext) -> int:
    """Refuse a lay-down by a player who has not yet laid anything this round, if it breaks
    the opening rules; return its opening value (0 when no threshold applies).

    Callers skip this for opened players and for Basic / Simple, which have no opening.
    """
    rules = ctx.rules
    if ctx.freed:
        if rules.variant is Variant.R71:
            if not melds:
                raise OpeningRefused("opening.freed_needs_run_first", variant=rules.variant.value)
            _require_run(melds, ctx, "opening.freed_needs_natural_run")
        return 0
    if has_layoffs:
        raise OpeningRefused("opening.no_layoffs_before_opening")
    if not melds:
        raise OpeningRefused("opening.no_melds")
    if rules.variant is Variant.R71:
        _require_run(melds, ctx, "opening.needs_natural_run")
        _require_set(melds, ctx)
        if rules.options.r71_joker_in_opening is R71JokerInOpening.FORBIDDEN and any(
            m.jokers for m in melds
        ):
            raise OpeningRefused("opening.r71_no_jokers")
    elif rules.options.r51_require_natural_run:
        _require_run(melds, ctx, "opening.needs_natural_run")
    value = opening_value(melds, rules)
    if value < ctx.threshold:
        code = (
            "opening.below_bar"
            if ctx.bar_from is not None and ctx.threshold > rules.opening_threshold
            else "opening.below_threshold"
        )
        raise OpeningRefused(
            code,
            variant=rules.variant.value,
            needed=ctx.threshold,
            value=value,
            bar_from=ctx.bar_from,
        )
    return value


def check_go_out_at_once(melds: Sequence[Meld], has_layoffs: bool, ctx: LayContext) -> None:
    """Refuse laying everything but one card in one turn if the variant's requirements fail.

    The threshold and the bar are waived; Rummy 71 still needs a natural run and set (a freed
    partner: a natural run), Simple a run and a set and nothing laid off.
    """
    rules = ctx.rules
    if rules.variant is Variant.SIMPLE:
        if has_layoffs:
            raise OpeningRefused("simple.no_layoffs")
        if not any(m.is_run for m in melds):
            raise OpeningRefused("simple.needs_run")
        if not any(m.is_set for m in melds):
            raise OpeningRefused("simple.needs_set")
        return
    if ctx.opened:
        return
    if rules.variant is Variant.R51:
        # The threshold is waived, not the table's required natural run (like Rummy 71's).
        if rules.options.r51_require_natural_run and not ctx.freed:
            _require_run(melds, ctx, "opening.needs_natural_run")
        return
    if rules.variant is not Variant.R71:
        return
    if ctx.freed:
        _require_run(melds, ctx, "opening.freed_needs_natural_run")
        return
    _require_run(melds, ctx, "opening.needs_natural_run")
    _require_set(melds, ctx)
