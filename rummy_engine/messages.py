"""English sentences for every engine refusal, keyed by the error's ``code``.

The bot's translation function uses these as its English catalogue entries (and adds French), so
each sentence is written once: what was wrong, and what would be right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ENGLISH: dict[str, str] = {
    # notation
    "notation.bad_card": (
        "'{token}' is not a card. Write the rank (A, 2–10 or T, J, Q, K) then the suit "
        "(s h d c or ♠ ♥ ♦ ♣), like 7h, 10s, Qd, A♠; JK is a joker."
    ),
    "notation.no_cards": "No cards were given. Name them like 7h 8h 9h; separate melds with |.",
    "notation.two_ends": "'{group}' names two ends: a joker goes either low or high.",
    "notation.end_outside_layoff": (
        "'{group}': low and high name the end of a table run a joker is added to, as in "
        "'+3 JK low'; in a new meld the joker's place in the list says what it is."
    ),
    "hand.missing_card": "You do not hold {card}.",
    "count.too_many": "The deck holds only {limit} × {card}.",
    "options.unknown": "There is no table option '{key}'. Options: {known}.",
    "options.bad_value": "'{value}' is not a valid value for {key}. Use one of: {allowed}.",
    "rules.bad_player_count": "{variant} is played by {allowed} players, not {players}.",
    # melds
    "meld.too_short": "A meld needs at least 3 cards; this one has {count}.",
    "meld.too_few_naturals": (
        "A meld needs at least 2 cards that are not jokers; this one has {naturals}."
    ),
    "meld.too_many_jokers": "Too many jokers in one meld: this one has {jokers}, this table allows {limit}.",
    "meld.jokers_not_fewer": (
        "A meld must have more natural cards than jokers; this one has {naturals} and {jokers}."
    ),
    "meld.set_too_big": "A set has 3 or 4 cards; this one has {count}.",
    "meld.set_repeated_suit": "A set needs different suits, and {card} is there twice.",
    "meld.set_wrong_rank": "{card} does not belong in a set of {rank}s.",
    "meld.set_full": "That set already has four cards, one of each suit.",
    "meld.run_mixed_suits": "A run stays in one suit: {card} is not {suit}.",
    "meld.run_repeated_rank": "A run cannot hold the same rank twice ({card}).",
    "meld.run_too_long": "A run has at most 13 cards; this one has {count}.",
    "meld.run_not_consecutive": "{cards} is not a run: the ranks must follow each other.",
    "meld.run_no_wrap": "{cards} is not a run: the Ace is low (A-2-3) or high (Q-K-A), never both.",
    "meld.run_ace_low_only": "{cards} is not a run: the Ace is only low here (A-2-3), never after the King.",
    "meld.run_order_next": (
        "As written, {card} cannot follow {previous}: each card of a run is one rank above the "
        "card before it."
    ),
    "meld.run_order_gap": (
        "As written, {card} comes {places} places after {previous}, which its rank does not: "
        "each card of a run is one rank above the card before it, a joker taking one card's place."
    ),
    "meld.run_joker_above": "As written the joker would follow {card}: a run cannot wrap.",
    "meld.run_joker_below": "As written the joker would come before {card}: a run cannot wrap.",
    "meld.run_joker_above_king": (
        "As written the joker would follow {card}: the Ace is only low here, so nothing follows "
        "the King."
    ),
    "meld.did_you_mean": "Did you mean {did_you_mean}?",
    "meld.run_cannot_extend": "{cards} cannot extend that run: cards must continue it at either end.",
    "meld.run_cannot_extend_at": "{cards} cannot go at the {end} end of that run; try the other end.",
    "meld.nothing_added": "Name at least one card to add.",
    "swap.no_joker_for_card": "{card} does not free a joker there: give exactly the card the joker stands for.",
    # openings and going out at once
    "opening.below_threshold": "An opening in {variant} needs {needed} points; these melds make {value}.",
    "opening.below_bar": (
        "An opening in {variant} needs {needed} points here: the other side opened with {bar_from}, "
        "so you need one more. These melds make {value}."
    ),
    "opening.needs_natural_run": "{variant} openings need a natural run (no joker); yours has none.",
    "opening.needs_natural_set": "{variant} openings need a natural set (no joker); yours has none.",
    "opening.run_uses_taken": (
        "You took {card} from the discard pile: in {variant} the required natural run must be built "
        "without it."
    ),
    "opening.r71_no_jokers": "At this table, a Rummy 71 opening may not contain a joker.",
    "opening.freed_needs_natural_run": (
        "Your partner has opened, so your first lay-down in {variant} only needs a natural run "
        "(no joker); yours has none."
    ),
    "opening.freed_needs_run_first": (
        "In {variant} your first lay-down must include a natural run of your own before you add "
        "to the table."
    ),
    "opening.no_layoffs_before_opening": (
        "You have not opened yet: your first lay-down must be new melds from your hand, not "
        "additions to the table."
    ),
    "opening.no_melds": "Lay at least one meld.",
    "simple.no_layoffs": "In Simple nothing is added to the table: lay your own melds to go out.",
    "simple.needs_run": "Going out in Simple needs at least one run among your melds.",
    "simple.needs_set": "Going out in Simple needs at least one set among your melds.",
    # turns
    "turn.no_such_seat": "There is no seat {seat} at this table.",
    "turn.round_over": "The round is over; start the next round first.",
    "turn.game_over": "The game is over.",
    "turn.not_yours": "It is not your turn: seat {current} is playing.",
    "turn.draw_first": "You must draw first: take the top of the stock or the top discard.",
    "turn.already_drawn": "You have already drawn this turn: lay down or discard.",
    "turn.dealer_no_draw": "As the dealer you start without drawing: lay melds or discard a card.",
    "round.not_over": "The round is still being played.",
    "draw.discard_empty": "The discard pile is empty: draw from the stock.",
    "draw.take_with_one_card": "At this table you may not take the discard while holding a single card.",
    "take.nothing_to_undo": "There is no taken discard to put back.",
    "take.opening_must_use": "You took {card} from the discard pile: your opening must use it.",
    "take.must_lay_taken": (
        "You took {card} from the discard pile: lay it on the table this turn before you discard, "
        "or put it back and draw from the stock instead."
    ),
    "discard.just_taken": "You cannot discard {card}: you took it from the discard pile this turn.",
    "discard.joker": "At this table a joker may not be discarded.",
    "discard.joker_final": "At this table you may not go out by discarding a joker.",
    # laying down
    "lay.nothing": "Name the melds to lay or the cards to add.",
    "lay.keep_one": "Keep one card to discard: in {variant} you win by discarding your last card.",
    "lay.keep_discardable": (
        "Keep a card you can discard: {card} was just taken from the discard pile and cannot be "
        "discarded this turn."
    ),
    "lay.too_many_ends": "This lay-down names more joker ends than lay-offs (ends: {ends}, lay-offs: {layoffs}).",
    "lay.no_such_meld": "There is no meld {meld} on the table (melds are numbered 1 to {count}).",
    "lay.no_melds_yet": "There is no meld {meld} on the table: nobody has laid a meld yet.",
    "simple.all_at_once": (
        "In Simple you lay everything at once to go out: all your cards but one in melds, with at "
        "least one run and one set, keeping one card to discard."
    ),
    "swap.not_in_variant": "Jokers cannot be swapped in {variant}.",
    "swap.not_opened": "Only a player who has opened may swap a joker.",
    "swap.undetermined_set": (
        "That set's joker cannot be taken: only the joker of a four-card set can be swapped."
    ),
}


ENGLISH.update(
    {
        # positions and snapshots
        "position.foreign_card": (
            "{card} ({place}) is not a card of {variant}'s deck ({packs} pack(s), {jokers} "
            "joker(s))."
        ),
        "position.card_twice": "{card} is in two places: {places}.",
        "position.too_many_copies": (
            "{card} is named {count} times ({places}), but the deck has {copies} of it."
        ),
        "position.missing_cards": (
            "{count} card(s) are nowhere (name them in a zone, or leave the stock unnamed so it "
            "holds the rest): {cards}."
        ),
        "position.stock_count": (
            "The stock was given as {given} card(s), but {rest} card(s) are not in a hand, on the "
            "table or in the discard pile."
        ),
        "position.hand_count": "{variant} with {players} players needs {players} hands, not {count}.",
        "position.no_such_seat": "{what} is seat {seat}, but the seats are 0 to {last}.",
        "position.phase": (
            "A position is a moment of a round in play: its phase is 'draw' or 'play', not "
            "'{phase}'."
        ),
        "position.hand_size_unlaid": (
            "Seat {seat} has laid nothing this round, so it holds {expected} card(s), not {count}."
        ),
        "position.hand_size_laid": (
            "Seat {seat} holds {count} card(s): a seat that has laid cards holds 1 to {most}."
        ),
        "position.table_melds": "Table meld {meld} ({cards}): {reason}",
        "position.table_in_simple": (
            "In Simple only the player going out lays melds, in that turn: the table is empty, "
            "or holds the current seat's melds in its play phase."
        ),
        "position.owner_not_opened": (
            "Table meld {meld} belongs to seat {seat}, which has not opened: in {variant} only an "
            "opened player lays melds."
        ),
        "position.no_opening": "{variant} has no opening, so no seat can be 'opened'.",
        "position.card_not_there": (
            "The {what} card {card} is neither in seat {seat}'s hand nor on the table."
        ),
        "position.turn_card_in_draw": (
            "It is the draw phase: nothing has been drawn or taken yet this turn, so there is no "
            "{what} card."
        ),
        "position.laid_before_draw": (
            "In the draw phase the player has laid nothing this turn, so laid_at_turn_start must "
            "match seat {seat}'s laid flag ({laid})."
        ),
        "position.empty_stock": (
            "Seat {seat} is about to draw from an empty stock: between turns the pile is turned "
            "over (or the round ends), so give the stock some cards."
        ),
        "position.laid_at_start_unlaid": (
            "laid_at_turn_start says seat {seat} had laid cards before this turn, but it has "
            "laid nothing this round."
        ),
        "position.bar_not_here": "There is no +1 bar in {variant} at this table.",
        "position.bar_half": "A bar needs both its points and the side (0 or 1) that set it.",
        "position.bar_low": (
            "A bar of {bar} is not above the threshold of {threshold}: a bar is an opening's "
            "value plus one."
        ),
        "position.bar_unopened": "Side {side} set the bar, but none of its seats has opened.",
        "position.score_count": "Scores are kept per side: {sides} of them, not {count}.",
        "position.score_negative": "Scores are never negative.",
        "position.score_over_limit": (
            "A side at {limit} points or more has lost: the game would be over."
        ),
        "position.round_or_turn": (
            "Round {round_no}, turn {turn} cannot be: rounds and turns count from 1 (and Basic "
            "plays {last} rounds)."
        ),
        "position.schema": "This is a position of schema {found}; this engine reads schema {known}.",
    }
)


VARIANT_NAMES: dict[str, str] = {
    "simple": "Simple",
    "r51": "Rummy 51",
    "r71": "Rummy 71",
    "basic": "Basic rummy",
}


def render(code: str, params: Mapping[str, Any], catalogue: Mapping[str, str] = ENGLISH) -> str:
    """The sentence for ``code``; an unknown code still yields a readable line.

    A ``variant`` parameter holds the variant id (``r51``) and is shown by its name. A
    ``did_you_mean`` parameter (legal orders of a refused meld) adds the ``meld.did_you_mean``
    sentence, so every refusal that has a suggestion offers it the same way.
    """
    template = catalogue.get(code) or ENGLISH.get(code)
    if template is None:
        return f"{code} {dict(params)}" if params else code
    shown = dict(params)
    if "variant" in shown:
        shown["variant"] = VARIANT_NAMES.get(str(shown["variant"]), shown["variant"])
    text = template.format(**shown)
    if shown.get("did_you_mean"):
        hint = catalogue.get("meld.did_you_mean") or ENGLISH["meld.did_you_mean"]
        text += " " + hint.format(did_you_mean=shown["did_you_mean"])
    return text
