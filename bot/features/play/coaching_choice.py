"""The coaching setting's values (``on``/``off``), apart from :mod:`bot.features.play.coaching`
so that the settings registry does not import the engine's review."""

from __future__ import annotations

from typing import Any

#: What the host can choose.
COACHING_CHOICES: tuple[str, ...] = ("on", "off")


def parse_coaching(value: Any) -> bool:
    """Whether a choice turns coaching on (ValueError for any other value)."""
    text = str(value).strip().lower()
    if text in ("on", "yes", "true", "1"):
        return True
    if text in ("off", "no", "false", "0", ""):
        return False
    raise ValueError(f"not a coaching choice: {value!r}")


def shown_coaching(on: bool) -> str:
    """A choice as it is offered."""
    return "on" if on else "off"
