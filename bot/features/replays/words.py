"""English sentences of replays and of the review of a round.

Keys are prefixed by what they belong to, so they cannot collide with another feature's.
:func:`bot.text.t` serves them (every feature's ``words.WORDS`` joins the catalogue).
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- Replays (the Replay button, the replay command and the step-through)
    "replay.button": "Replay",
    "replay.step_button": "Step through",
    "replay.prev": "◀",
    "replay.next": "▶",
    "replay.deal": "Round {round}: the deal. {player} plays first.",
    "replay.turn": "Turn {turn} · {move}",
    "replay.played": "{player} played.",
    "replay.turns": "Turns {first}–{last} · {players}: {move}",
    "replay.turns.quiet": "Turns {first}–{last} · {players} each drew and discarded; nothing was laid.",
    "replay.turned_over": "The discard pile became the new stock.",
    "replay.ready.round": "Replay of round {round} of table {table} ({count} frames). Step through it move by move with the button below.",
    "replay.ready.game": "Replay of the whole game at table {table}: {rounds} rounds, {count} frames.",
    "replay.step": "**{title}** · round {round} · frame {frame} of {count}",
    "replay.step.hand": "Your hand then: {cards}",
    "replay.step.spectator": "You did not play this game: you see what the table showed, without any hand.",
    "replay.no_game": "Table {table} has no game to replay yet.",
    "replay.none_finished": "No round of table {table} is over yet: a replay is drawn once a round is over.",
    "replay.not_finished": "Round {round} of table {table} is still being played: its replay is drawn once the round is over.",
    "replay.no_round": "Table {table} has no finished round {round}; its finished rounds are 1 to {last}.",
    "replay.which_table": "This channel has no open table: name the one to replay with the table option (its number is in the table's title).",
    "replay.too_big": "This replay is too large to send; replay one round at a time with /rummy-stats replay.",
    "replay.alt.round": "Animated replay of {title}, round {round}, in {count} frames: the deal, the table after each turn, then every hand at the round's end; until then no hand is shown.",
    "replay.alt.game": "Animated replay of the whole game of {title}: {rounds} rounds in {count} frames, each round's deal, the table after each turn and every hand at the round's end; until then no hand is shown.",
    "replay.alt.step": "Replay of {title}, round {round}, frame {frame} of {count}: {caption}",
    "replay.alt.melds": "Melds on the table: {melds}.",
    "replay.alt.no_melds": "No meld on the table.",
    "replay.alt.hands": "Hands left: {hands}.",
    "replay.alt.end": "{headline} Totals: {totals}.",
    "command.replay": "Replay a finished round (GIF)",
    "command.replay.table": "Table number (default: this channel's)",
    "command.replay.round": "Round (default: the last one over)",
    # -- The review of a round (Review my round). Every finding says what the player could have
    # done, never that they made a mistake: passing a chance up (opening late, keeping a joker
    # on the table) can be the right play.
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
    # -- Slash commands: ``command.<name>`` describes one, ``command.<name>.<option>`` an option

}
