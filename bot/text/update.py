"""Bring every translation in step with the English: ``python -m bot.text.update``.

One command after adding, changing or removing an English sentence. It writes the template
(``messages.pot``) from the English catalogue, merges it into every
``<lang>/LC_MESSAGES/messages.po`` under the locales folder with Babel's ``Catalog.update``, and
writes each file in one form (:mod:`bot.text.pofiles`): run twice, it changes nothing the
second time, so a diff holds only real changes and ``tests/text`` can check that the committed
files are the command's output. What a translator finds afterwards:

- a new key: an untranslated entry, or a fuzzy one when Babel finds a translated sentence with
  close English (a renamed key finds its own translation that way);
- a key whose English changed (the singular or the plural): its translation kept, flagged fuzzy
  (the English it was written for is in the diff of the change);
- a removed key: gone from the file (git keeps its translation).

Fuzzy and untranslated entries show English to players until a translator settles them.

Options: ``--locales DIR`` works on another locales folder (a copy, in tests); ``--check``
writes nothing and exits 1 when a file would change (for CI or a pre-commit hook).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from bot.text import DOMAIN, ENGLISH, LOCALES_DIR
from bot.text.extract import template_catalog
from bot.text.pofiles import creation_date, read_catalog, render

FUZZY = "fuzzy"


def _ids(message: Message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return any(strings)


def merge(catalog: Catalog, template: Catalog) -> None:
    """Bring one language's ``catalog`` onto ``template``, with Babel's ``Catalog.update``.

    Babel knows a sentence by its English and key together, and looks for a changed sentence's
    translation among the closest English of *any* key; a change to the plural English alone
    it does not notice. Our keys are stable, so first each translated entry whose English
    changed is moved onto the new English and flagged fuzzy: Babel then keeps that translation
    under its own key. Babel's similarity matching still serves new keys.

    The previous English (``#| msgid``) is not written: Babel reads such lines back as
    translator comments, so they would pile up as ``# | msgid`` notes that outlive the review.
    Lines of that shape left by another tool are dropped for the same reason.
    """
    english: dict[str | None, Message] = {m.context: m for m in template if m.context}
    for message in list(catalog):
        if not message.id:
            continue  # the header
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        new = english.get(message.context)
        if new is None or _ids(message) == _ids(new):
            continue
        catalog.delete(message.id, context=message.context)
        if _translated(message):
            catalog.add(
                new.id,
                message.string,
                flags=message.flags | {FUZZY},
                user_comments=message.user_comments,
                context=message.context,
            )
    catalog.update(template)


def catalogue_paths(locales: Path) -> list[Path]:
    """Every language's ``.po`` under ``locales``, in a fixed order."""
    return sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def updated(locales: Path, english: Mapping[str, str] = ENGLISH) -> dict[Path, bytes]:
    """What the template and every catalogue under ``locales`` should contain, by path."""
    pot = locales / f"{DOMAIN}.pot"
    template = template_catalog(english, created=creation_date(pot))
    files = {pot: render(template)}
    for path in catalogue_paths(locales):
        catalog = read_catalog(path)
        merge(catalog, template)
        files[path] = render(catalog)
    return files


def update(
    locales: Path = LOCALES_DIR, english: Mapping[str, str] = ENGLISH, *, write: bool = True
) -> list[Path]:
    """The files under ``locales`` whose content changes, written unless ``write`` is false."""
    changed = []
    for path, content in updated(locales, english).items():
        if not path.is_file() or path.read_bytes() != content:
            changed.append(path)
            if write:
                path.write_bytes(content)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.text.update",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--locales", type=Path, default=LOCALES_DIR, metavar="DIR")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    check: bool = args.check
    changed = update(args.locales, write=not check)
    for path in changed:
        print(path)
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
