"""English sentences of the review of a round (the round summary's Review my round button).

Kept in their own module (like :mod:`bot.text.catalog_again`) so the feature is reviewed and
translated on its own; keys start with ``review.`` so they cannot collide. Every finding says
what the player could have done, never that they made a mistake: passing a chance up (opening
late, keeping a joker on the table) can be the right play.
"""

from __future__ import annotations

REVIEW_EN: dict[str, str] = {
    "review.button": "Review my round",
    "review.title[one]": "**Your round {round}, reviewed** (only you see this): your {count} turn, from what you knew then (your hand, the table and the discard pile).",
    "review.title[other]": "**Your round {round}, reviewed** (only you see this): your {count} turns, from what you knew then (your hand, the table and the discard pile).",
    "review.go_out": "• Your turn {turn}: you could have gone out: lay {lay}, then discard {card}.",
    "review.go_out_discard": "• Your turn {turn}: you could have gone out by discarding {card}.",
    "review.go_out_lay": "• Your turn {turn}: you could have gone out by laying {lay}.",
    "review.add_to": "+{cards} on meld {meld}",
    "review.open_later": "• Your turn {turn}: you could have opened with {melds} ({value} points; you needed {threshold}). You opened on your turn {opened}.",
    "review.open_never": "• Your turn {turn}: you could have opened with {melds} ({value} points; you needed {threshold}). You did not open this round.",
    "review.open_free_later": "• Your turn {turn}: you could have laid {melds}: your partner had opened, so any melds would do. You laid down on your turn {opened}.",
    "review.open_free_never": "• Your turn {turn}: you could have laid {melds}: your partner had opened, so any melds would do. You did not lay down this round.",
    "review.open_short": "• Your best melds, {melds}, made {value} points (your turn {turn}); opening needed {threshold}, so you had no opening to lay.",
    "review.fed": "• Your turn {turn}: you discarded {card}, which meld {meld} could already take; {player} took it and laid it off there right after.",
    "review.joker": "• Your turn {turn}: you could have freed the joker of meld {meld} with {card}.",
    "review.clean": "• Nothing to point out: every chance to go out, open or free a joker that you could see, you took.",
    "review.note": "Each point is a chance you had, not a mistake: waiting (to open bigger, to keep the others guessing) can be the right play.",
    "review.no_turns": "You had no turn in round {round}: there is nothing to review.",
    "review.not_player": "Only the players of this table can review its rounds: the review shows a player their own turns.",
    "review.not_over": "Round {round} is not over yet: its review opens with its summary.",
}
