"""Keeping text we send within Discord's limits, and echoed input harmless.

Why one module: a player's raw input (a card name, a meld list) can be 6,000 characters long and
carry control or bidirectional characters; echoed as is, it breaks the 2,000-character message
limit (the reply fails and stays "thinking") or reverses the sentence around it. Every refusal
parameter and every outgoing message passes through here.
"""

from __future__ import annotations

import unicodedata

#: Discord's limits (characters) for a message's content and a select option's label.
MESSAGE_LIMIT = 2000
LABEL_LIMIT = 100
#: How much of a player's own input a refusal quotes back.
ECHO_LIMIT = 40
ELLIPSIS = "…"


def clean(text: str) -> str:
    """``text`` without control, format (bidi, zero-width) or unassigned characters; runs of
    whitespace become one space."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())


def excerpt(text: str, limit: int = ECHO_LIMIT) -> str:
    """A cleaned, short quote of player input: at most ``limit`` characters."""
    return cut(clean(text), limit)


def cut(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters, with an ellipsis when something was cut."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


def fit(content: str, limit: int = MESSAGE_LIMIT) -> str:
    """Message content within Discord's limit; whole lines are kept while they fit."""
    if len(content) <= limit:
        return content
    lines, size = [], len(ELLIPSIS)
    for line in content.split("\n"):
        if size + len(line) + 1 > limit:
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines) + "\n" + ELLIPSIS if lines else cut(content, limit)
