"""English sentences of the pictures' alt text (:mod:`bot.services.alt_text`) and of the table
message's Melds line, the same melds for a reader without the picture.

Kept in their own module (like :mod:`bot.features.play.words_again`) so the feature is reviewed and
translated on its own; keys start with ``alt.`` so they cannot collide. Cards are never spelled
here: they come from the engine (``7♥``, ``JK``).
"""

from __future__ import annotations

ALT_EN: dict[str, str] = {
    # the table picture
    "alt.table": "Picture of the table: {title}, round {round}.",
    "alt.scores": "Scores: {scores}.",
    "alt.score": "{side} {score}",
    "alt.score_limit": "{side} {score} of {limit}",
    "alt.turn": "{name} to play.",
    "alt.opened": "Opened: {names}.",
    "alt.discard[one]": "Discard pile: {top} on top, {count} card.",
    "alt.discard[other]": "Discard pile: {top} on top, {count} cards.",
    "alt.discard_empty": "The discard pile is empty.",
    "alt.stock_empty": "The stock is empty.",
    "alt.no_melds": "No melds on the table yet.",
    "alt.melds[one]": "{count} meld on the table: {melds}.",
    "alt.melds[other]": "{count} melds on the table: {melds}.",
    "alt.separator": "; ",  # between the melds or rows of a list
    "alt.meld": "{number}. {cards}, by {owner}",
    "alt.meld_anonymous": "{number}. {cards}",
    "alt.owner_melds": "by {owner}: {melds}",
    "alt.run": "{first} to {last}, {count} cards",
    "alt.cards[one]": "{count} card",
    "alt.cards[other]": "{count} cards",
    "alt.melds_more[one]": "and {count} more meld",
    "alt.melds_more[other]": "and {count} more melds",
    # the table message's text
    "alt.melds_line[one]": "Meld: {melds}",
    "alt.melds_line[other]": "Melds ({count}): {melds}",
    # a hand
    "alt.hand": "Picture of your hand, {title}.",
    "alt.hand_empty": "No cards.",
    "alt.hand_cards": "In order: {cards}.",
    "alt.hand_melds": "Melds found: {melds}.",
    "alt.hand_rest": "Other cards: {cards}.",
    "alt.drawn": "Just drawn, marked: {card}.",
    "alt.lesson": "Lesson picture, {title}: {cards}.",
    # the end of a round
    "alt.round_end": "Picture of the round's end: {title}.",
    "alt.went_out": "{name}, who went out",
    "alt.no_cards": "no cards left",
    "alt.row_pays": "{player}: {cards}, penalty {points}",
    "alt.row_collects": "{player}: {cards}, collects {points}",
    "alt.row_worth": "{player}: {cards}, worth {points} to the winner",
    "alt.row_void": "{player}: {cards}",
    "alt.players_more[one]": "and {count} more player",
    "alt.players_more[other]": "and {count} more players",
    "alt.totals": "Totals: {totals}.",
    "alt.this_round": "(+{points} this round)",
}
