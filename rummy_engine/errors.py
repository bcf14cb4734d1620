"""The engine's refusals.

Every refusal is a :class:`RuleViolation` carrying a stable ``code`` and the ``params`` of its
sentence, so that the bot can translate it, while ``str(error)`` stays a complete English sentence
for library users and logs. The English templates live in :mod:`rummy_engine.messages`.
"""

from __future__ import annotations

from typing import Any

from rummy_engine.messages import render


class RuleViolation(ValueError):
    """An action the rules do not allow; the state it was tried on is unchanged."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(render(code, params))


class NotationError(RuleViolation):
    """A card or meld was written in a form the notation does not accept."""


class InvalidMeld(RuleViolation):
    """Cards that do not form a run or a set under the table's options."""


class OutOfTurn(RuleViolation):
    """The action belongs to another player, or to another moment of the turn."""


class CardNotAvailable(RuleViolation):
    """A named card is not in the hand (or not on the pile) it is taken from."""


class OpeningRefused(RuleViolation):
    """A first lay-down that misses the threshold, the bar or a required meld."""


class LayDownRefused(RuleViolation):
    """A lay-down, extension or swap that breaks a rule other than the opening's."""


class DiscardRefused(RuleViolation):
    """A discard that the rules forbid (just taken, joker, unused discard...)."""


class InvalidPosition(RuleViolation):
    """A position or snapshot that no legal game can reach: a card missing or in two places, a
    hand of the wrong size, a flag that contradicts the table... The code says which."""
