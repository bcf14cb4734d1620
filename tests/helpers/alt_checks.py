"""Alt text as the invariant checks it, after every step, on every attachment the bot sent.

* every attachment carries a description of at most Discord's 1,024 characters;
* the table message's picture names every card of every meld on the stored table and the top
  of the discard pile, and no card the picture does not show (a hand's, above all);
* a round summary's picture names every card left in every hand of that round;
* a hand picture names every card of the hand its message lists (``\u00601\u0060 4♠ …``), and
  no other card.

Why in the invariant: the alt text is built in one place, but every message kind attaches it
on its own path (posted, edited through an interaction, edited by the bot token, a DM); a path
that forgets the description stays green in a test that looks elsewhere.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from bot.features.play.tables import Table
from bot.services.alt_text import ALT_LIMIT

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|JK")
#: A hand message's numbered cards: "`3` 5♠".
NUMBERED = re.compile(r"`\d+` ((?:10|[2-9AJQK])[♠♥♦♣]|JK)")
ROUND_PICTURE = re.compile(r"round-(\d+)-(\d+)\.png")


def cards(text: str) -> Counter[str]:
    """The card names a text holds, with repeats (two decks hold two 7♥)."""
    return Counter(CARD.findall(text))


def present(message: Any) -> list[str]:
    """Every attachment of ``message`` (a :class:`~tests.helpers.invariants.Shown`) has a
    description within the limit."""
    found = []
    for name, text in zip(message.filenames, message.descriptions, strict=True):
        if not text:
            found.append(f"message {message.id}: attachment {name} has no description")
        elif len(text) > ALT_LIMIT:
            found.append(f"message {message.id}: {name}'s description has {len(text)} chars")
    return found


def _missing(wanted: Counter[str], told: Counter[str]) -> list[str]:
    return sorted((wanted - told).elements())


def table_picture(table: Table, message: Any) -> list[str]:
    """The table message's picture, told: its melds' cards and the discard's top, nothing
    hidden (a joker's stand-in is shown on the picture too: ``JK=7♥``)."""
    game = table.game
    if game is None:
        return []
    view = table.view(None)
    shown = Counter(c.pretty for tm in view.table for c in tm.meld.cards)
    if view.discard_top is not None:
        shown[view.discard_top.pretty] += 1
    visible = shown + Counter(
        face.pretty
        for tm in view.table
        for card, face in zip(tm.meld.cards, tm.meld.stands_for, strict=True)
        if card.is_joker
    )
    found = []
    for name, text in zip(message.filenames, message.descriptions, strict=True):
        if not name.startswith("table-") or not text:
            continue
        told = cards(text)
        if _missing(shown, told):
            found.append(f"table #{table.id}: {name} does not name {_missing(shown, told)}: {text!r}")
        if told - visible:
            found.append(
                f"table #{table.id}: {name} names {sorted((told - visible).elements())}, "
                f"which the picture does not show: {text!r}"
            )
    return found


def round_pictures(table: Table, messages: Iterable[Any]) -> list[str]:
    """Each round summary's picture names every card left in that round's hands."""
    game = table.game
    if game is None:
        return []
    found = []
    for message in messages:
        for name, text in zip(message.filenames, message.descriptions, strict=True):
            match = ROUND_PICTURE.fullmatch(name)
            if match is None or int(match[1]) != table.id or not text:
                continue
            result = next((r for r in game.results if r.round_no == int(match[2])), None)
            if result is None:
                continue
            held = Counter(c.pretty for hand in result.hands for c in hand)
            if _missing(held, cards(text)) or cards(text) - held:
                found.append(f"table #{table.id}: {name} tells {text!r}, the hands were {held}")
    return found


def hand_pictures(messages: Sequence[Any]) -> list[str]:
    """A hand picture names the cards its message lists, each once (the card just drawn may be
    named a second time), and no other."""
    found = []
    for message in messages:
        for name, text in zip(message.filenames, message.descriptions, strict=True):
            if not name.startswith("hand-") or not text:
                continue
            hand, told = Counter(NUMBERED.findall(message.content)), cards(text)
            extra = told - hand
            if _missing(hand, told) or sum(extra.values()) > 1 or not set(extra) <= set(hand):
                found.append(
                    f"private message {message.id}: {name} tells {text!r}, the hand is "
                    f"{sorted(hand.elements())}"
                )
    return found
