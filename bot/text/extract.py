"""The translation template (``messages.pot``) built from the English catalogue.

Why not ``pybabel extract``: the English sentences live in dicts keyed by message id, not in
``_()`` calls, so a source scanner would find nothing. This builds the template ``pybabel
extract`` would: one entry per key, ``msgctxt`` = key, ``msgid`` = English, and
``msgid_plural`` for keys with ``[one]``/``[other]`` forms, in key order.

After changing English, run ``python -m bot.text.update``: it writes this template and merges it
into every language. ``python -m bot.text.extract`` writes the template alone (same bytes), for
a tool that wants only the ``.pot``.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog

from bot.text import ENGLISH, LOCALES_DIR
from bot.text.pofiles import creation_date, render

PLURAL_KEY = re.compile(r"^(?P<key>.+)\[(?P<category>[a-z]+)\]$")
PROJECT = "rummy-bot"
#: The template's header comment (``pybabel init`` copies it into a new language): Babel's
#: default names the current year, which would change the file on the first run of each year.
HEADER = """\
# Translations template for rummy-bot, written by `python -m bot.text.update`.
# This file is distributed under the same license as the rummy-bot project.
#"""


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


def template_catalog(
    english: Mapping[str, str] = ENGLISH, created: datetime.datetime | None = None
) -> Catalog:
    """The template as a Babel catalogue (no locale, empty translations), sorted by key.

    ``created`` is the template's ``POT-Creation-Date``: the one already written, so that
    rewriting the template does not move it (see :func:`bot.text.pofiles.creation_date`).
    """
    catalog = Catalog(project=PROJECT, fuzzy=False, header_comment=HEADER, creation_date=created)
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
    output: Path = args.output
    output.write_bytes(render(template_catalog(created=creation_date(output))))
    print(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
