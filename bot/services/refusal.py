"""A refusal from the table rather than the card rules: not seated, not the host, no table here.

It shares the engine's :class:`~rummy_engine.RuleViolation` base (a stable ``code`` and the
``params`` of its sentence), so one error path answers both kinds alike, in the player's
language. ``then`` names a follow-up sentence (code, params), such as the way back after a taken
discard that cannot be used.
"""

from __future__ import annotations

from typing import Any

from rummy_engine import RuleViolation


class Refusal(RuleViolation):
    """An action the table refuses; nothing was changed."""

    def __init__(
        self, code: str, *, then: tuple[str, dict[str, Any]] | None = None, **params: Any
    ) -> None:
        super().__init__(code, **params)
        self.then = then

    @classmethod
    def from_violation(
        cls, error: RuleViolation, code: str | None = None, **extra: Any
    ) -> Refusal:
        """The engine's refusal, re-worded (``code``) or completed (``extra`` params)."""
        then = extra.pop("then", getattr(error, "then", None))
        return cls(code or error.code, then=then, **{**error.params, **extra})
