"""Where things go: pure geometry, no drawing, so it can be unit-tested and reasoned about.

Why its own module: the decisions that make an image readable on a phone (how many cards per
row, where a row breaks, when the table shrinks its cards) are easy to get subtly wrong; keeping
them as plain functions over numbers keeps them out of the pixel-pushing code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rummy_engine.cards import Card

from .theme import CardSize


@dataclass(frozen=True)
class HandSlot:
    """One card of a hand image: where it goes and the number printed under it."""

    card: Card
    number: int
    row: int
    x: int
    group: int
    group_end: bool


def order_hand(
    cards: Sequence[Card], groups: Sequence[Sequence[Card]] | None
) -> list[tuple[Card, int, int]]:
    """Cards in drawing order with (card, 1-based number in ``cards``, group id).

    Without ``groups`` the hand is grouped by suit (jokers last), keeping ``cards`` order; with
    them, each group is drawn in turn and cards in no group follow, in ``cards`` order. Cards of
    a group that are not in ``cards`` are ignored, so a stale grouping cannot invent cards.
    """
    number = {card: i + 1 for i, card in enumerate(cards)}
    out: list[tuple[Card, int, int]] = []
    if groups is None:
        group, previous = -1, object()
        for card in cards:
            if card.suit != previous:
                group, previous = group + 1, card.suit
            out.append((card, number[card], group))
        return out
    placed: set[Card] = set()
    group = 0
    for members in groups:
        members = [c for c in members if c in number and c not in placed]
        if not members:
            continue
        out.extend((card, number[card], group) for card in members)
        placed.update(members)
        group += 1
    out.extend((card, number[card], group) for card in cards if card not in placed)
    return out


def row_breaks(count: int, boundaries: set[int], max_per_row: int) -> list[tuple[int, int]]:
    """Split ``count`` cards into balanced rows of at most ``max_per_row``.

    A break prefers a group boundary (``boundaries`` holds indexes *after which* a group ends)
    within two cards of the balanced point, so suits and melds stay whole when that costs little.
    """
    if count == 0:
        return []
    rows: list[tuple[int, int]] = []
    start = 0
    rows_left = math.ceil(count / max_per_row)
    while rows_left > 1:
        remaining = count - start
        target = start + math.ceil(remaining / rows_left)
        candidates = [
            b + 1
            for b in boundaries
            if abs(b + 1 - target) <= 2
            and 0 < b + 1 - start <= max_per_row
            and count - (b + 1) <= max_per_row * (rows_left - 1)
        ]
        end = min(candidates, key=lambda e: (abs(e - target), e)) if candidates else target
        rows.append((start, end))
        start = end
        rows_left -= 1
    rows.append((start, count))
    return rows


def shown_width(size: CardSize, offset: int | None) -> int | None:
    """How much of a card shows when the next card lies ``offset`` px to its right (None: no
    next card, all of it): up to the next card, plus that card's corner radius, under which its
    rounded corner lets this one show through."""
    if offset is None or offset + size.radius + 1 >= size.width:
        return None
    return offset + size.radius + 1


def fan_width(count: int, size: CardSize, gaps: int = 0, gap: int = 0) -> int:
    """Width of ``count`` overlapped cards with ``gaps`` extra group gaps."""
    if count == 0:
        return 0
    return (count - 1) * size.step + size.width + gaps * gap


def layout_hand(
    ordered: Sequence[tuple[Card, int, int]], size: CardSize, max_per_row: int, gap: int
) -> list[HandSlot]:
    """Rows and x offsets (from the row's left edge) of every card of an ordered hand."""
    boundaries = {i for i in range(len(ordered) - 1) if ordered[i][2] != ordered[i + 1][2]}
    slots: list[HandSlot] = []
    for row, (start, end) in enumerate(row_breaks(len(ordered), boundaries, max_per_row)):
        x = 0
        for i in range(start, end):
            card, number, group = ordered[i]
            ends = i in boundaries or i == len(ordered) - 1
            slots.append(HandSlot(card, number, row, x, group, ends))
            x += size.step + (gap if i in boundaries else 0)
    return slots


def flow(widths: Sequence[int], max_width: int, gap: int) -> list[list[int]]:
    """Left-to-right wrapping of blocks into rows (indexes per row), like words in a line."""
    rows: list[list[int]] = []
    current: list[int] = []
    used = 0
    for i, width in enumerate(widths):
        need = width if not current else used + gap + width
        if current and need > max_width:
            rows.append(current)
            current, used = [i], width
        else:
            current.append(i)
            used = need
    if current:
        rows.append(current)
    return rows
