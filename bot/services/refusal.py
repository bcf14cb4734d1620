"""A refusal from the service layer (not the rules): wrong channel, not seated, not the host...

Like the engine's :class:`~rummy_engine.RuleViolation` it carries a translation key and its
parameters, so the cog layer answers both the same way, in the player's language.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """An action the table refuses for a reason outside the card rules."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)
