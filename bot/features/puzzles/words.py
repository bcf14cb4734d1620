"""English sentences of the puzzle of the day.

Keys are prefixed by what they belong to, so they cannot collide with another feature's.
:func:`bot.text.t` serves them (every feature's ``words.WORDS`` joins the catalogue).
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # the slash command (short: each top-level command keeps under 3,400 characters)
    "command.puzzle": "Daily puzzle: channel and hour",
    "command.puzzle.channel": "Where to post (default: here)",
    "command.puzzle.hour": "Hour, UTC (default 9)",
    "command.puzzle.off": "Stop the daily puzzle",
    "puzzle.server_only": "The daily puzzle belongs to a server: use this command in one.",
    "puzzle.admin_only": "Only a member with Manage Server can set the daily puzzle.",
    "puzzle.bad_hour": "The hour must be between 0 and 23 (UTC), not {hour}.",
    "puzzle.configured": "A rummy puzzle will be posted in {channel} every day; the next one {when}.",
    "puzzle.stopped": "No more daily puzzles in this server.",
    # the post
    "puzzle.title": "**Rummy puzzle of the day · {day}**",
    "puzzle.credit": "From a game of this server: {players}, round {round}.",
    "puzzle.yesterday": "Yesterday's solution: {solution}",
    "puzzle.solved_by[one]": "{solved} of {count} player solved it.",
    "puzzle.solved_by[other]": "{solved} of {count} players solved it.",
    "puzzle.answer_button": "Answer",
    "puzzle.table_title": "The table",
    "puzzle.hand_title": "Your hand (you have drawn)",
    "puzzle.seat.you": "You",
    "puzzle.seat.partner": "Partner",
    "puzzle.seat.next": "Next",
    "puzzle.seat.previous": "Previous",
    "puzzle.seat.across": "Across",
    "puzzle.ask.go_out": "You can go out this turn. Which card do you discard at the end?",
    "puzzle.ask.opening": "The bar is at {bar}. Which cards make your best opening (the most points)?",
    "puzzle.ask.safe_discard": "Which discard gives nothing away to the others, and costs you the most to keep?",
    "puzzle.ask.free_joker": "One card of yours frees a joker on the table, and then you can go out. Which one?",
    "puzzle.solution.go_out": "discard {cards} after laying {melds}.",
    "puzzle.solution.opening": "an opening worth {value}: {melds}.",
    "puzzle.solution.safe_discard[one]": "{cards}: no meld on the table takes it.",
    "puzzle.solution.safe_discard[other]": (
        "{cards}, as good as each other: no meld on the table takes them."
    ),
    "puzzle.solution.free_joker[one]": "{cards} frees the joker; then lay {melds} and go out.",
    "puzzle.solution.free_joker[other]": (
        "{cards}: either frees the joker; then lay {melds} and go out."
    ),
    # answering
    "puzzle.pick_one": "Pick a card",
    "puzzle.pick_many": "Pick the cards to lay",
    "puzzle.right": "Right: {cards}!",
    "puzzle.wrong": "Not {cards}.",
    "puzzle.tomorrow": "The solution comes with tomorrow's puzzle.",
    "puzzle.streak[one]": "You have solved {count} puzzle in a row.",
    "puzzle.streak[other]": "You have solved {count} puzzles in a row.",
    "puzzle.not_current": "This puzzle is over; answer the latest one.",
    "puzzle.answered": "You have answered today's puzzle already; the solution comes tomorrow.",
    "puzzle.no_go_out": "With {cards} thrown away, the rest of your hand cannot all be laid.",
    "puzzle.fits": "{cards} fits a meld on the table: the next player can take it and lay it off.",
    "puzzle.cheaper": "{cards} is safe, but another safe card costs more to keep.",
    "puzzle.frees_nothing": "{cards} frees no joker that lets you go out.",
    "puzzle.smaller": "That opening is worth {value}; a bigger one is in your hand.",
    "puzzle.not_melds": "These cards do not split into runs and sets.",
}
