"""Rebuilding a game from its genesis and its action log: the audit of a stored game.

A module of its own because a game may start from a :class:`~rummy_engine.position.Position`,
which builds on :mod:`rummy_engine.game`; keeping replay here keeps the import graph a tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rummy_engine.actions import Action, action_from_json
from rummy_engine.game import Deal, Game
from rummy_engine.position import Position
from rummy_engine.rules import Rules


def replay(genesis: dict[str, Any], actions: Iterable[Action | dict[str, Any]]) -> Game:
    """The game that ``genesis`` (:meth:`Game.genesis`) and ``actions`` lead to.

    Raises :class:`~rummy_engine.errors.RuleViolation` if an action of the log is illegal
    there, which means the log does not belong to this genesis.
    """
    if genesis.get("position") is not None:
        game = Position.from_json(genesis["position"]).to_game()
    else:
        deal = Deal.from_json(genesis["deal"]) if genesis.get("deal") else None
        game = Game.new(
            Rules.from_json(genesis["rules"]),
            genesis["seed"],
            dealer=genesis["dealer"],
            deal=deal,
        )
    for action in actions:
        game.apply(action_from_json(action) if isinstance(action, dict) else action)
    return game
