"""English sentences of the game surfaces (lobby, table, hands, rounds, refusals).

Kept apart from the command-line and setup sentences of :mod:`bot.text.catalog_cli` only to keep each file
readable; :func:`bot.text.t` serves them all, together with the engine's refusal sentences.
"""

from __future__ import annotations

from bot.render.scene import HAND_LABELS, ROUND_END_LABELS, TABLE_LABELS
from rummy_engine.messages import VARIANT_NAMES

GAME_EN: dict[str, str] = {
    # words inside the images (the renderer's defaults are the English)
    **{
        f"render.{key}": text
        for labels in (TABLE_LABELS, ROUND_END_LABELS, HAND_LABELS)
        for key, text in labels.items()
    },
    # names (the variant names are the engine's, written once)
    **{f"variant.{key}": name for key, name in VARIANT_NAMES.items()},
    "mode.1v1": "1v1",
    "mode.2v2": "2v2",
    "mode.basic": "2–6 players",
    "side.team": "Team {team}",
    "side.partners": "{first} & {second}",
    "side.team_short": "{team}",
    "table.title": "{variant} {mode} · table #{table}",
    # options
    "option.turn_timer": "Turn timer (minutes)",
    "option.ace_mode": "Ace",
    "option.ace_opening_value": "Ace value in openings",
    "option.max_jokers_per_meld": "Jokers per meld",
    "option.r71_joker_in_opening": "Jokers in a 71 opening",
    "option.r51_require_natural_run": "51 needs a natural run",
    "option.discard_take": "Taking the discard",
    "option.discard_take_failure": "Failed take",
    "option.forbid_take_with_one_card": "No take with one card",
    "option.bar_in_1v1": "+1 bar in 1v1",
    "option.joker_discard_allowed": "Jokers may be discarded",
    "option.joker_final_discard_allowed": "Joker as last discard",
    "option.basic_rounds": "Rounds",
    "option.basic_max_restocks": "Max restocks",
    "option.atlas_max_reshuffles": "Max reshuffles",
    # lobby
    "lobby.host": "Host: {host}",
    "lobby.options": "Table options: {options}",
    "lobby.options_default": "Table options: the standard rules (/rummy rules shows them).",
    "lobby.empty_seat": "(free seat)",
    "lobby.players": "Players ({seated}/{capacity}): {players}",
    "lobby.how_to_start": "Join with the buttons or /rummy join; the host starts once {minimum} players are seated.",
    "lobby.started": "The game has started: the table is below.",
    "lobby.cancelled": "This table was cancelled.",
    "lobby.computer_added": "{name} sits down.",
    "lobby.computer_removed": "A computer player left the table.",
    "lobby.no_computer": "There is no computer player to remove.",
    "seat.computer": "Computer {n}",
    "seat.replaced": "🤖 Computer (for {name})",
    # turn timers and housekeeping
    "timer.off": "Turn timer: off.",
    "timer.minutes[one]": "Turn timer: {count} minute per turn.",
    "timer.minutes[other]": "Turn timer: {count} minutes per turn.",
    "timer.turn_ends": "⏳ The turn ends {when}.",
    "timer.reminder": "⏳ Your turn at table #{table} in {channel} ends {when}; after that it is played for you.",
    "timer.stuck": "The turn cannot be played automatically.",
    "move.timed_out": "⏰ {player}'s time ran out: the turn was played for them (a card drawn from the stock and one discarded).",
    "absent.question[one]": "{host}: {player} let the timer run out {count} time in a row. Replace them by a computer, wait, or end the game? Without an answer a computer takes the seat {when}.",
    "absent.question[other]": "{host}: {player} let the timer run out {count} times in a row. Replace them by a computer, wait, or end the game? Without an answer a computer takes the seat {when}.",
    "absent.replace_done": "A computer player takes the seat.",
    "absent.wait_done": "The table waits for the player; the count of missed turns starts again.",
    "absent.end_done": "The game ended: the absent player's side forfeits.",
    "absent.nothing_to_decide": "There is no absent player to decide about.",
    "button.absent_replace": "Replace by a computer",
    "button.absent_wait": "Wait",
    "button.absent_end": "End the game",
    "closed.lobby_idle": "This lobby closed itself after 30 minutes without activity.",
    "closed.game_idle": "No one played for 24 hours: the game ended without a result (ratings unchanged).",
    "button.add_computer": "Add computer",
    "button.remove_computer": "Remove computer",
    "lobby.joined": "You are seated.",
    "lobby.opened": "Your table is open in this channel; friends join with its buttons or /rummy join.",
    "lobby.left": "You left the table.",
    "lobby.kicked": "{player} was removed from the table.",
    "lobby.option_set": "{option} is now {value}.",
    "lobby.settings_pick": "Choose an option to change:",
    "lobby.settings_value": "Choose the value of {option}:",
    "lobby.bad_mode": "'{mode}' is not a mode for this variant: use 1v1 or 2v2 (Basic rummy is always 2–6 players).",
    "lobby.already_seated": "You are already seated at this table.",
    "lobby.full": "This table is full ({capacity} players).",
    "lobby.team_full": "Team {team} is full; join the other team.",
    "lobby.no_teams": "This table has no teams: just join.",
    "lobby.not_seated": "You are not seated at this table.",
    "lobby.kick_not_seated": "{player} is not seated at this table, so there is nobody to remove.",
    "lobby.not_enough_players": "The game needs {needed} players; {seated} are seated.",
    "lobby.exists_here": "This channel already has a table (#{table}, https://discord.com/channels/{guild}/{channel}/{message}): join it with /rummy join, or open a new table in another channel or a thread.",
    "lobby.already_started": "The game has already started.",
    "lobby.host_cannot_leave": "The host cannot leave the lobby; cancel the table instead with /rummy cancel.",
    # table
    "table.not_found": "There is no table #{table}.",
    "table.none_here": "There is no open table in this channel. Start one with /rummy new.",
    "table.not_started": "The game has not started yet.",
    "table.not_seated": "You are not seated at this table.",
    "table.host_only": "Only the host can do that.",
    "table.host_or_manager": "Only the host or a member with Manage Server can cancel this table.",
    "table.not_open": "This table is already closed.",
    "table.busy": "The table changed while you were acting; try again.",
    "table.header": "{title} · round {round}",
    "table.round_of": "of {rounds}",
    "table.score_limit": "{side}: {score}/{limit}",
    "table.score": "{side}: {score}",
    "table.opened": "opened",
    "table.cards[one]": "{count} card",
    "table.cards[other]": "{count} cards",
    "table.discard_empty": "empty",
    "table.piles[one]": "Stock: {stock} · discard: {top} ({count} card)",
    "table.piles[other]": "Stock: {stock} · discard: {top} ({count} cards)",
    "table.bar": "+1 bar: {side} must open with at least {bar} points.",
    "table.turn": "{player} to play: {step}.",
    "table.step_draw": "draw a card",
    "table.step_play": "lay down or discard",
    "table.round_over": "Round over: the next round starts {when} (the host can start it now).",
    "table.soon": "in a moment",
    "table.cancelled": "This table was cancelled; the game ended without a result.",
    "table.finished": "This game is over; start a new one with /rummy new.",
    "table.game_over": "Game over. Winner: {winners}.",
    "table.reposted": "The table is below.",
    "turn.notice": "🔔 {player}, your turn (round {round}).",
    "turn.not_yours_named": "It is {player}'s turn.",
    "button.stale": "That button is from an earlier turn; use the buttons on the current table message.",
    "button.not_for_you": "This panel belongs to another player.",
    "button.unknown": "That button no longer does anything; use the buttons on the current table message.",
    "round.not_over": "The round is still being played.",
    # buttons
    "button.join": "Join",
    "button.join_a": "Join team A",
    "button.join_b": "Join team B",
    "button.leave": "Leave",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "button.settings": "Settings",
    "button.draw": "Draw",
    "button.take": "Take {card}",
    "button.take_empty": "Take discard",
    "button.hand": "Show my hand",
    "button.next_round": "Next round",
    "button.lay": "Lay as meld(s)",
    "button.discard": "Discard",
    "button.add": "Add to meld…",
    "button.swap": "Swap joker…",
    "button.undo_take": "Put the discard back",
    "select.cards": "Choose cards…",
    "select.meld": "Choose a meld…",
    "select.option": "Choose an option…",
    # display preferences
    "prefs.now": "Your hands are now drawn with {colours}, ordered {order}.",
    "prefs.four": "the four-colour deck (♦ blue, ♣ green)",
    "prefs.two": "the classic two colours",
    "prefs.sort.suit": "by suit and rank",
    "prefs.sort.melds": "by the melds they hold",
    "take.offer_undo": "If you cannot use {card}, put it back with /rummy undo (or the button under your hand) and draw from the stock instead.",
    # hands
    "hand.title[one]": "**Your hand** — {title} in {channel} · {count} card",
    "hand.title[other]": "**Your hand** — {title} in {channel} · {count} cards",
    "hand.image_title[one]": "Table #{table} · {count} card",
    "hand.image_title[other]": "Table #{table} · {count} cards",
    "hand.jokers": "Jokers",
    "hand.empty": "No cards.",
    "hand.drawn": "Just drawn: {card}",
    "hand.your_turn_draw": "Your turn: draw from the stock or take the discard.",
    "hand.your_turn_play": "Your turn: lay down, add to melds, or discard to end your turn.",
    "hand.threshold": "Your opening needs {points} points.",
    "hand.dm_closed": "{player}, I cannot send you direct messages (they are closed), so your hand is only available with /rummy hand or the Show my hand button — only you will see it.",
    "hand.sent_dm": "Your hand is in your direct messages.",
    "hand.select_first": "Choose the cards first, in the menu above.",
    "hand.selected": "Selected: {cards}",
    "hand.one_card": "Choose exactly one card to {what}.",
    "hand.no_target": "No meld on the table can take {cards}.",
    "hand.no_partition": "{cards} cannot be split into valid melds.",
    # moves, public
    "move.drew_stock": "{player} drew from the stock.",
    "move.took_discard": "{player} took {card} from the discard pile.",
    "move.laid": "{player} laid down {melds}.",
    "move.opened": "{player} opened with {value} points.",
    "move.laid_off": "{player} added {cards} to meld {meld}.",
    "move.swapped": "{player} swapped a joker in meld {meld}.",
    "move.discarded": "{player} discarded {card}.",
    "move.undo": "{player} put {card} back on the discard pile and drew from the stock.",
    "move.resigned": "{player} left the game.",
    # answers to the actor
    "you.drew": "You drew {card}.",
    "you.took": "You took {card}.",
    "you.done": "Done.",
    # round end
    "round.void": "Round {round} is void: the stock ran out and nobody pays.",
    "round.ended": "Round {round} is over.",
    "round.won.out": "{player} went out and wins round {round}.",
    "round.won.rami_sec": "{player} went out in one go (rami sec) and wins round {round}.",
    "round.won.simple": "{player} laid everything at once and wins round {round}.",
    "round.won.basic": "{player} went out and wins round {round}.",
    "round.won.basic_rummy": "{player} went rummy (everything in one turn): round {round}, points doubled!",
    "round.won.resign": "Round {round} ended: a player left.",
    "round.no_cards": "no cards",
    "round.player_line": "{player}: {cards} → pays {penalty}",
    "round.basic_line": "{player}: {cards}",
    "round.points": "This round: {points}",
    "round.image_title": "Round {round} · {title}",
    # scores
    "score.round": "Round {round}: {player} ({how}) — {points}",
    "outcome.void": "void round",
    "outcome.out": "went out",
    "outcome.rami_sec": "rami sec",
    "outcome.simple": "went out",
    "outcome.basic": "went out",
    "outcome.basic_rummy": "rummy, doubled",
    "outcome.resign": "a player left",
    # rules summary
    "rules.title": "**{variant}** — the rules",
    "rules.simple": (
        "• Two packs and 2 jokers (106 cards). 13 cards each, 14 for the dealer, who plays first without drawing.\n"
        "• Turn: draw (stock, or the top discard), then discard. Nothing is laid before going out.\n"
        "• Go out by laying all your cards but one at once — at least one run and one set, one joker per meld — then discard the last card.\n"
        "• Each loser pays 100. A side reaching 300 (1v1) or 600 (2v2) loses."
    ),
    "rules.r51": (
        "• Two packs and 4 jokers (108 cards). 14 cards each, 15 for the dealer, who plays first without drawing.\n"
        "• Turn: draw, lay down if you can, discard. Your first lay-down (the opening) must be worth 51 points; jokers count as the card they stand for, the Ace 1 low in a run and 11 high or in a set.\n"
        "• The first opening of a round sets a +1 bar for the other side (66 → 67). In 2v2, once your partner opens you lay down freely.\n"
        "• After opening: add to any meld, swap a joker for the card it stands for. A taken discard must be laid in the same turn.\n"
        "• Win by discarding your last card; laying everything at once needs no opening. Losers pay their cards (faces 10, Ace 11, joker 20), or 100 if they laid nothing. 251 (1v1) / 351 (2v2) loses."
    ),
    "rules.r71": (
        "• Two packs and 2 jokers (106 cards). 14 cards each, 15 for the dealer, who plays first without drawing.\n"
        "• The opening needs 71 points counted without jokers, with a natural run and a natural set (no joker in them); a run built with a just-taken discard does not count.\n"
        "• The +1 bar, partner freeing (a natural run is then enough), lay-offs, joker swaps and scoring as in Rummy 51. 251 (1v1) / 451 (2v2) loses."
    ),
    "rules.basic": (
        "• One pack, no jokers. 2 players get 10 cards, 3–4 get 7, 5–6 get 6; one card starts the discard pile; the player left of the dealer begins.\n"
        "• Turn: draw (stock or discard), lay runs and sets or add to anyone's melds, then discard. The Ace is low only. No opening minimum.\n"
        "• Going out needs no final discard. The winner scores the cards left in the others' hands (Ace 1, faces 10), doubled for a rummy (everything in one turn).\n"
        "• After the agreed rounds (3), the highest total wins."
    ),
    # errors
    "error.unexpected": "Something went wrong on our side; nothing was changed. Please try again. (Reference: {ref})",
    "error.member_not_found": "I cannot find the member {value} in this server; choose someone from the list Discord offers.",
    "error.bad_option": "The value {value} does not fit the option {option}; choose one of the values Discord offers.",
    "error.no_permission": "I am missing a permission in this channel ({permissions}); ask a server admin to allow it.",
    "error.cooldown": "Slow down a little: try again in {seconds} s.",
    "error.dm_only": "This command works in a server's text channel, not in direct messages.",
}
