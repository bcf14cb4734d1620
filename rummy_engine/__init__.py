"""rummy_engine: the rules of Atlas Carta rummy (Simple, Rummy 51, Rummy 71) and Bicycle's basic
rummy as a pure library — values and a state machine, no I/O, no clock, no global state.

>>> from rummy_engine import Game, Rules, Variant, Draw, Discard, Source, parse_face
>>> game = Game.new(Rules(Variant.R51, 2), seed=7)
>>> dealer = game.current                      # the dealer plays first, without drawing
>>> card = game.hands[dealer][0]
>>> events = game.apply(Discard(dealer, card.face))
>>> game.apply(Draw(game.current, Source.DISCARD)) and game.taken == card
True
"""

from rummy_engine.actions import (
    Action,
    Discard,
    Draw,
    Lay,
    Resign,
    Source,
    StartRound,
    Swap,
    UndoTake,
    action_from_json,
    action_to_json,
)
from rummy_engine.ai import Strength
from rummy_engine.cards import (
    JOKER,
    Card,
    Face,
    Suit,
    format_cards,
    make_deck,
    parse_face,
    parse_faces,
    parse_meld_groups,
    sort_key,
)
from rummy_engine.errors import (
    CardNotAvailable,
    DiscardRefused,
    InvalidMeld,
    LayDownRefused,
    NotationError,
    OpeningRefused,
    OutOfTurn,
    RuleViolation,
)
from rummy_engine.game import (
    SCHEMA_VERSION,
    Deal,
    Event,
    Game,
    Outcome,
    Phase,
    RoundResult,
    TableMeld,
)
from rummy_engine.melds import Meld, MeldKind, extend_meld, make_meld
from rummy_engine.messages import ENGLISH, VARIANT_NAMES, render
from rummy_engine.rules import Options, Rules, Variant
from rummy_engine.values import basic_value, meld_opening_value, opening_value, penalty_value
from rummy_engine.view import PlayerView, player_view

__all__ = [
    "ENGLISH",
    "JOKER",
    "SCHEMA_VERSION",
    "VARIANT_NAMES",
    "Action",
    "Card",
    "CardNotAvailable",
    "Deal",
    "Discard",
    "DiscardRefused",
    "Draw",
    "Event",
    "Face",
    "Game",
    "InvalidMeld",
    "Lay",
    "LayDownRefused",
    "Meld",
    "MeldKind",
    "NotationError",
    "OpeningRefused",
    "Options",
    "OutOfTurn",
    "Outcome",
    "Phase",
    "PlayerView",
    "Resign",
    "RoundResult",
    "RuleViolation",
    "Rules",
    "Source",
    "StartRound",
    "Strength",
    "Suit",
    "Swap",
    "TableMeld",
    "UndoTake",
    "Variant",
    "action_from_json",
    "action_to_json",
    "basic_value",
    "extend_meld",
    "format_cards",
    "make_deck",
    "make_meld",
    "meld_opening_value",
    "opening_value",
    "parse_face",
    "parse_faces",
    "parse_meld_groups",
    "penalty_value",
    "player_view",
    "render",
    "sort_key",
]
