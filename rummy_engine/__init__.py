"""rummy_engine: the rules of Atlas Carta rummy (Simple, Rummy 51, Rummy 71) and Bicycle's basic
rummy as a pure library — values and a state machine, no I/O, no clock, no global state.

>>> from rummy_engine import Game, Rules, Variant, Draw, Discard, Source, parse_face
>>> game = Game.new(Rules(Variant.R51, 2), seed=7)
>>> dealer = game.current                      # the dealer plays first, without drawing
>>> card = game.hands[dealer][0]
>>> events = game.apply(Discard(dealer, card.face))
>>> game.apply(Draw(game.current, Source.DISCARD)) and game.taken == card
True

What is here, by job:

* cards and notation — :class:`Card`, :class:`Face`, :func:`parse_face`, :func:`parse_faces`,
  :func:`parse_meld_groups`, :func:`format_cards`, :func:`take_matching`;
* melds — :func:`make_meld` (the order given is the meld), :func:`arrangements` (the legal orders
  of a selection), :func:`extend_meld` / :func:`can_extend` / :func:`layoff_ends` (lay-offs and
  the :class:`End` a joker takes), :func:`swap_target`, :func:`joker_candidates`,
  :func:`meld_targets` (where chosen cards can be added or swapped in);
* play — :class:`Game` (``apply`` / ``verify`` / ``can`` / ``copy``), the actions, :func:`parse_lay` /
  :func:`format_lay`, :func:`player_view`;
* positions — :class:`Position` builds a checked mid-round :class:`Game` from notation;
* scoring — :func:`hand_penalty`, :func:`round_points`, :func:`opening_value`,
  :func:`meld_opening_value`, :meth:`Game.flags` (RULES.md §6.1);
* refusals — :class:`RuleViolation` and its subclasses, with a stable ``code`` (:func:`render`).

The solver (hints, best opening, going out) is :mod:`rummy_engine.solver`; a simple computer
player is :mod:`rummy_engine.strategy`.
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
    format_lay,
    parse_lay,
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
    take_matching,
)
from rummy_engine.errors import (
    CardNotAvailable,
    DiscardRefused,
    InvalidMeld,
    InvalidPosition,
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
    Flags,
    Game,
    Outcome,
    Phase,
    RoundResult,
    TableMeld,
)
from rummy_engine.melds import (
    End,
    Meld,
    MeldKind,
    arrangements,
    can_extend,
    extend_meld,
    joker_candidates,
    layoff_ends,
    make_meld,
    swap_target,
)
from rummy_engine.messages import ENGLISH, VARIANT_NAMES, render
from rummy_engine.position import POSITION_SCHEMA, Position
from rummy_engine.replay import replay
from rummy_engine.rules import Options, Rules, Variant
from rummy_engine.scoring import RoundPoints, round_points
from rummy_engine.table_options import (
    OPTION_SPECS,
    OptionSpec,
    defaults_for,
    option_spec,
    options_for,
    shown_value,
)
from rummy_engine.targets import Targets, meld_targets
from rummy_engine.values import (
    basic_value,
    hand_penalty,
    meld_opening_value,
    opening_value,
    penalty_value,
)
from rummy_engine.view import PlayerView, player_view

__all__ = [
    "ENGLISH",
    "JOKER",
    "OPTION_SPECS",
    "POSITION_SCHEMA",
    "SCHEMA_VERSION",
    "VARIANT_NAMES",
    "Action",
    "Card",
    "CardNotAvailable",
    "Deal",
    "Discard",
    "DiscardRefused",
    "Draw",
    "End",
    "Event",
    "Face",
    "Flags",
    "Game",
    "InvalidMeld",
    "InvalidPosition",
    "Lay",
    "LayDownRefused",
    "Meld",
    "MeldKind",
    "NotationError",
    "OpeningRefused",
    "OptionSpec",
    "Options",
    "OutOfTurn",
    "Outcome",
    "Phase",
    "PlayerView",
    "Position",
    "Resign",
    "RoundPoints",
    "RoundResult",
    "RuleViolation",
    "Rules",
    "Source",
    "StartRound",
    "Strength",
    "Suit",
    "Swap",
    "TableMeld",
    "Targets",
    "UndoTake",
    "Variant",
    "action_from_json",
    "action_to_json",
    "arrangements",
    "basic_value",
    "can_extend",
    "defaults_for",
    "extend_meld",
    "format_cards",
    "format_lay",
    "hand_penalty",
    "joker_candidates",
    "layoff_ends",
    "make_deck",
    "make_meld",
    "meld_opening_value",
    "meld_targets",
    "opening_value",
    "option_spec",
    "options_for",
    "parse_face",
    "parse_faces",
    "parse_lay",
    "parse_meld_groups",
    "penalty_value",
    "player_view",
    "render",
    "replay",
    "round_points",
    "shown_value",
    "sort_key",
    "swap_target",
    "take_matching",
]
