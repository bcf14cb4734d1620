"""The one byte form of the template and the ``.po`` files, so that writing them is repeatable.

Every writer of ``messages.pot`` and ``messages.po`` goes through :func:`render`: entries in the
catalogue's order (the template's, which is by key), lines wrapped at :data:`WIDTH`, no
obsolete entries, and a header free of anything that changes by itself. A run over unchanged sentences then writes the same bytes, a
diff shows only what changed, and two branches adding sentences do not collide on a timestamp.
"""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

#: Columns of a wrapped line: long sentences stay readable in a review without a scroll bar.
WIDTH = 100

#: Babel names its own version in the header; dropped, because a Babel release (the dependency
#: is a range) would otherwise change committed files, and fail the round-trip test, on
#: unchanged sentences.
_GENERATED_BY = re.compile(rb'^"Generated-By: [^"\n]*"\n', re.MULTILINE)


def read_catalog(path: Path) -> Catalog:
    """The catalogue in ``path``, as Babel reads it (obsolete entries apart, dates parsed)."""
    with path.open("rb") as handle:
        return read_po(handle)


def creation_date(path: Path) -> datetime.datetime | None:
    """The ``POT-Creation-Date`` of the template at ``path``, if there is one.

    Kept from run to run rather than stamped: the template records when it was started, and a
    date that moved at every run would rewrite every file's header each time.
    """
    if not path.is_file():
        return None
    found = read_catalog(path).creation_date
    return found if isinstance(found, datetime.datetime) else None


def render(catalog: Catalog) -> bytes:
    """``catalog`` as the bytes of its file.

    Obsolete entries are left out: a removed key's translation has no English to serve any
    more, and the previous text is in git; a renamed key finds it again through Babel's
    matching (see :mod:`bot.text.update`).
    """
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, ignore_obsolete=True)
    return _GENERATED_BY.sub(b"", buffer.getvalue(), count=1)
