"""The review of a player's round (the round summary's **Review my round** button), in words.

The engine decides (:func:`rummy_engine.ai.review.review_round`) from the stored move log, so a
review works for any finished round, also after a restart, and is the same however often it is
asked. This module checks who asks, runs the review off the event loop and writes what it
found, naming cards and melds as the hint does (:func:`bot.features.play.advice.melds_text`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

from bot.features.play.advice import melds_text
from bot.features.play.presenter import Names, names_for
from bot.features.play.tables import Table
from bot.services.refusal import Refusal
from bot.storage.base import MoveLog
from bot.text import t
from rummy_engine import Card, Meld, format_cards
from rummy_engine.ai.review import (
    EarlyOpening,
    FedDiscard,
    Finding,
    FreeJoker,
    MissedGoOut,
    Review,
    ShortOpening,
    review_round,
)


async def review_for(store: MoveLog, table: Table, user_id: int, round_no: int) -> Review:
    """``user_id``'s review of round ``round_no``. Refused to anyone without a seat at the
    table, and for a round not over yet (its summary, and so its button, comes at its end)."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("review.not_player")
    game = table.require_game()
    if not any(result.round_no == round_no for result in game.results):
        raise Refusal("review.not_over", round=round_no)
    moves = await store.list_moves(table.id)
    genesis = json.loads(moves[0].action_json)["genesis"]
    actions = [json.loads(m.action_json) for m in moves[1:]]
    # A whole long game takes a few tenths of a second: kept off the event loop's own turn.
    return await asyncio.to_thread(review_round, genesis, actions, seat, round_no)


async def review_text_for(
    store: MoveLog, table: Table, user_id: int, round_no: int, locale: str
) -> str:
    """The review as its player reads it, in their language."""
    review = await review_for(store, table, user_id, round_no)
    return review_text(review, names_for(table), locale)


def review_text(review: Review, names: Names, locale: str) -> str:
    """The title, one line per finding in turn order (or that there is nothing), the note."""
    if not review.turns:
        return t("review.no_turns", locale, round=review.round_no)
    lines = [t("review.title", locale, round=review.round_no, count=review.turns)]
    lines += [finding_line(f, names, locale) for f in review.findings]
    if any(not isinstance(f, ShortOpening) for f in review.findings):
        lines.append(t("review.note", locale))
    else:
        lines.append(t("review.clean", locale))
    return "\n".join(lines)


def finding_line(finding: Finding, names: Names, locale: str) -> str:
    """One finding as a "you could have" sentence; table melds numbered from 1, as shown."""
    match finding:
        case MissedGoOut():
            return _go_out_line(finding, locale)
        case EarlyOpening():
            freed = "free_" if finding.threshold == 0 else ""
            later = "never" if finding.opened_turn is None else "later"
            key = f"review.open_{freed}{later}"
            return t(
                key,
                locale,
                turn=finding.turn,
                melds=melds_text(finding.melds),
                value=finding.value,
                threshold=finding.threshold,
                opened=finding.opened_turn,
            )
        case ShortOpening():
            return t(
                "review.open_short",
                locale,
                turn=finding.turn,
                melds=melds_text(finding.melds),
                value=finding.value,
                threshold=finding.threshold,
            )
        case FedDiscard():
            return t(
                "review.fed",
                locale,
                turn=finding.turn,
                card=finding.card.pretty,
                meld=finding.meld + 1,
                player=names.name(finding.taker),
            )
        case FreeJoker():
            return t(
                "review.joker", locale, turn=finding.turn, card=finding.card.pretty, meld=finding.meld + 1
            )
    raise TypeError(f"not a finding: {finding!r}")


def _go_out_line(finding: MissedGoOut, locale: str) -> str:
    lay = _lay_text(finding.melds, finding.layoffs, locale)
    if finding.discard is None:
        return t("review.go_out_lay", locale, turn=finding.turn, lay=lay)
    if not lay:
        return t("review.go_out_discard", locale, turn=finding.turn, card=finding.discard.pretty)
    return t("review.go_out", locale, turn=finding.turn, lay=lay, card=finding.discard.pretty)


def _lay_text(
    melds: Sequence[Meld], layoffs: Sequence[tuple[int, tuple[Card, ...]]], locale: str
) -> str:
    """New melds as the table shows them, then each lay-off on its meld's number."""
    parts = [melds_text(melds)] if melds else []
    parts += [
        t("review.add_to", locale, cards=format_cards(cards), meld=meld + 1)
        for meld, cards in layoffs
    ]
    return " | ".join(parts)
