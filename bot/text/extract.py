"""Write the translation template (``messages.pot``) from the English catalogue.

Why a script rather than ``pybabel extract``: the English sentences live in dicts keyed by
message id, not in ``_()`` calls, so a source scanner would find nothing. This builds the same
template ``pybabel extract`` would: one entry per key, ``msgctxt`` = key, ``msgid`` = English,
and ``msgid_plural`` for keys with ``[one]``/``[other]`` forms. Then, as usual::

    python -m bot.text.extract                      # writes bot/text/locales/messages.pot
    pybabel update -i bot/text/locales/messages.pot -d bot/text/locales -D messages
    # or: msgmerge -U bot/text/locales/fr/LC_MESSAGES/messages.po bot/text/locales/messages.pot
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.text import ENGLISH, LOCALES_DIR

PLURAL_KEY = re.compile(r"^(?P<key>.+)\[(?P<category>[a-z]+)\]$")
PROJECT = "rummy-bot"


def entries(english: Mapping[str, str]) -> dict[str, str | tuple[str, str]]:
    """Keys of the template with their English: a text, or (singular, plural) for plurals."""
    found: dict[str, str | tuple[str, str]] = {}
    for key, text in english.items():
        match = PLURAL_KEY.match(key)
        if match is None:
            found[key] = text
            continue
        base = match["key"]
        one = english.get(f"{base}[one]", english.get(f"{base}[other]", text))
        found[base] = (one, english.get(f"{base}[other]", one))
    return found


def template_catalog(english: Mapping[str, str] = ENGLISH) -> Catalog:
    """The template as a Babel catalogue (no locale, empty translations)."""
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for key, text in sorted(entries(english).items()):
        flags = ("python-brace-format",) if "{" in str(text) else ()
        if isinstance(text, tuple):
            catalog.add(text, ("", ""), context=key, flags=flags)
        else:
            catalog.add(text, "", context=key, flags=flags)
    return catalog


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.text.extract", description=__doc__)
    parser.add_argument("--output", type=Path, default=LOCALES_DIR / "messages.pot")
    args = parser.parse_args(argv)
    with args.output.open("wb") as handle:
        write_po(handle, template_catalog(), width=100, omit_header=False)
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
