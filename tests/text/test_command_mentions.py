"""Every place that names a slash command names one the bot registers.

Why: a command moved to another top-level command (``/rummy rules`` became ``/rummy-learn
rules``) must not leave a sentence, a refusal, a help text, the README or a page of docs/
sending players to a command that does not exist, in any language. The commands are read from
the bot's real registration payload, so a renamed command fails here until every mention
follows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from bot.text import ENGLISH, TRANSLATIONS
from tests.discord.command_surface import registered_payload

ROOT = Path(__file__).resolve().parents[2]
#: ``/rummy draw``, ``/rummy-stats leaderboard``: a slash not inside a path or a URL.
MENTION = re.compile(r"(?<![\w./:-])/(rummy(?:-[a-z]+)*)\b(?: ([a-z][a-z_-]*))?")


def texts() -> Iterator[tuple[str, str]]:
    """(where, text) of every sentence in every language, the README, docs/ and the code."""
    for key, text in ENGLISH.items():
        yield f"en:{key}", text
    for language, translation in TRANSLATIONS.items():
        for key, text in translation.singular.items():
            yield f"{language}:{key}", text
        for key, forms in translation.plural.items():
            for form in forms:
                yield f"{language}:{key}", form
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    code = sorted(
        path
        for folder in ("bot", "cogs", "tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
    )
    for path in [*pages, *(path for path in code if path != Path(__file__).resolve())]:
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def wrong_mentions(commands: dict[str, set[str]], found: Iterator[tuple[str, str]]) -> list[str]:
    """Mentions of a top-level command that does not exist, or of a child it does not hold."""
    wrong = []
    for where, text in found:
        for match in MENTION.finditer(text):
            top, child = match[1], match[2]
            if top not in commands or (child is not None and child not in commands[top]):
                wrong.append(f"{where}: {match[0]!r}")
    return wrong


async def test_every_mentioned_command_exists(tmp_path: Path) -> None:
    payload = await registered_payload(tmp_path)
    commands = {c["name"]: {child["name"] for child in c.get("options") or ()} for c in payload}
    wrong = wrong_mentions(commands, texts())
    assert not wrong, "no such command:\n" + "\n".join(wrong)


def test_a_moved_command_is_found() -> None:
    commands = {"rummy": {"draw"}, "rummy-learn": {"rules"}}
    found = iter([("en:x", "See /rummy rules, then /rummy draw or /rummy-learn rules.")])
    assert wrong_mentions(commands, found) == ["en:x: '/rummy rules'"]
