"""The private suggestion of ``/rummy hint`` and the score calculator of ``/rummy-learn count``, in
words. The engine decides (:func:`rummy_engine.ai.hint`, :func:`rummy_engine.ai.count`); this
module only writes what it found, naming cards in the notation players type and see.

A hint is built from the asking player's own view, never the game, so it cannot mention a card
that player has not seen.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from bot.services.refusal import Refusal
from bot.text import t
from rummy_engine import Card, Game, Meld, Phase, Rules, format_cards, player_view
from rummy_engine.ai import Count, Hint, count, hint
from rummy_engine.solver import GoOutPlan


def melds_text(melds: Iterable[Meld]) -> str:
    """Melds as a player would read them on the table: ``J♥ Q♥ K♥ | 5♠ 5♦ 5♣``."""
    return " | ".join(format_cards(m.cards) for m in melds)


def hint_for(game: Game, seat: int) -> Hint:
    """The engine's suggestion for ``seat``, from that seat's view; refused out of turn."""
    if game.current != seat or game.phase not in (Phase.DRAW, Phase.PLAY):
        raise Refusal("hint.not_your_turn")
    return hint(player_view(game, seat), game.rules)


def hint_text(advice: Hint, top_discard: Card | None, locale: str) -> str:
    """Every line of a hint, the most urgent first (going out, then drawing, opening…)."""
    lines = [t("hint.title", locale)]
    lines += _draw_lines(advice, top_discard, locale)
    if advice.go_out is not None:
        lines.append(_go_out_line(advice.go_out, locale))
    lines += _opening_lines(advice, locale)
    if advice.lay:
        lines.append(t("hint.lay", locale, melds=melds_text(advice.lay)))
    lines += _target_lines("hint.extends", advice.layoffs, locale)
    lines += _target_lines("hint.frees", advice.swaps, locale)
    lines += _discard_lines(advice, locale)
    return "\n".join(lines)


def _go_out_line(plan: GoOutPlan, locale: str) -> str:
    """The whole going-out turn in ``/rummy lay`` notation, then its last discard."""
    groups = [format_cards(m.cards) for m in plan.melds]
    groups += [f"+{meld + 1} {format_cards(cards)}" for meld, cards in plan.layoffs]
    if plan.discard is None:
        return t("hint.go_out_lay", locale, lay=" | ".join(groups))
    return t("hint.go_out", locale, lay=" | ".join(groups) or "—", card=plan.discard.pretty)


def _draw_lines(advice: Hint, top: Card | None, locale: str) -> list[str]:
    if advice.take_discard is None:
        return []
    if advice.take_discard and top is not None:
        return [t("hint.take", locale, card=top.pretty)]
    return [t("hint.draw", locale)]


def _opening_lines(advice: Hint, locale: str) -> list[str]:
    opening = advice.opening
    if opening is None:
        return []
    params = {
        "melds": melds_text(opening.melds),
        "value": opening.value,
        "threshold": opening.threshold,
    }
    lines = [t("hint.open" if opening.enough else "hint.not_yet", locale, **params)]
    if opening.enough and opening.sets_bar is not None:
        lines.append(t("hint.bar", locale, bar=opening.sets_bar))
    return lines


def _target_lines(key: str, pairs: Sequence[tuple[Card, int]], locale: str) -> list[str]:
    """One line per table meld: the hand's cards that extend it, or free its joker."""
    by_meld: dict[int, list[Card]] = defaultdict(list)
    for card, meld in pairs:
        if card not in by_meld[meld]:
            by_meld[meld].append(card)
    return [
        t(key, locale, cards=", ".join(c.pretty for c in cards), meld=meld + 1)
        for meld, cards in sorted(by_meld.items())
    ]


def _discard_lines(advice: Hint, locale: str) -> list[str]:
    if advice.discard is None:
        return []
    key = "hint.discard_safe" if advice.discard_safe else "hint.discard_risky"
    return [t(key, locale, card=advice.discard.pretty)]


def count_text(cards: str, rules: Rules, locale: str) -> str:
    """``/rummy-learn count``: the opening value of the melds and what the cards cost in hand.

    The engine reads the same notation as ``/rummy lay`` and raises the same refusals."""
    result = count(cards, rules)
    lines = [t("count.title", locale, variant=rules.variant.value)]
    if result.melds:
        lines.append(t("count.melds", locale, melds=melds_text(result.melds)))
    if result.loose:
        lines.append(t("count.loose", locale, cards=format_cards(result.loose)))
    lines += _opening_value_lines(result, rules, locale)
    lines.append(_penalty_line(result, rules, locale))
    return "\n".join(lines)


def _opening_value_lines(result: Count, rules: Rules, locale: str) -> list[str]:
    if not rules.has_opening or not result.melds:
        return []
    key = "count.opens" if result.opens else "count.short"
    return [t(key, locale, value=result.opening_value, threshold=result.threshold)]


def _penalty_line(result: Count, rules: Rules, locale: str) -> str:
    if rules.has_opening:
        return t("count.penalty_atlas", locale, count=result.penalty, never=result.never_laid)
    return t("count.penalty", locale, count=result.penalty)
