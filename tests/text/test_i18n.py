"""The catalogues as CI sees them: French covers every English key with the same placeholders and
every French plural category; the ``.po`` is a real gettext file built on the current English;
the template script writes a template Babel reads; and no sentence a player or an operator reads
is written outside the catalogues (``test_update.py`` checks that the files are the output of
``python -m bot.text.update``).

When another branch adds an English sentence, the parity tests here fail until French has it:
that is the point (run ``python -m bot.text.update``, and translate).
"""

from __future__ import annotations

import ast
import re
import string
from importlib import resources
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from bot.text import (
    ENGLISH,
    LOCALES_DIR,
    TRANSLATIONS,
    load_translation,
    normalise,
    option_value,
    po_path,
    t,
    template,
)
from bot.text.extract import HEADER, entries, main, template_catalog

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = entries(ENGLISH)


def fields(text: str) -> set[str]:
    """The placeholders of a template, with their conversion (``{value!r}`` ≠ ``{value}``)."""
    found = set()
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            found.add(f"{name}!{conversion or ''}:{spec or ''}")
    return found


def french_catalog():  # type: ignore[no-untyped-def]
    with po_path("fr").open("rb") as handle:
        return read_po(handle)


# -- parity -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(TEMPLATE))
def test_french_has_every_english_key_with_the_same_placeholders(key: str) -> None:
    french = TRANSLATIONS["fr"]
    english = TEMPLATE[key]
    if isinstance(english, tuple):
        forms = french.plural.get(key)
        assert forms, f"{key}: no French plural forms (msgstr[n]) in the .po"
        assert len(forms) == french.num_plurals and all(forms), f"{key}: a French form is empty"
        # the form for the many ('other') must say everything English says; others may drop
        # the number ("une carte") but never add a placeholder English does not fill
        assert fields(forms[-1]) == fields(english[1]), key
        for form in forms:
            assert fields(form) <= fields(english[1]), (key, form)
    else:
        assert key in french.singular, f"{key}: not translated into French"
        assert fields(french.singular[key]) == fields(english), key


def test_french_plural_entries_have_every_cldr_category_of_french() -> None:
    """The .po's Plural-Forms has one form per CLDR category of French (one, many, other)."""
    catalog = french_catalog()
    categories = set(Locale.parse("fr").plural_form.tags) | {"other"}
    assert catalog.num_plurals == len(categories) == 3
    assert catalog.plural_expr == french_catalog().plural_expr  # read, not hard-coded
    assert {k for k, v in TEMPLATE.items() if isinstance(v, tuple)} <= set(
        TRANSLATIONS["fr"].plural
    )


def test_the_po_is_built_on_the_current_english() -> None:
    """Each French entry's msgid is today's English: a changed English sentence shows up here
    (``python -m bot.text.update`` marks it fuzzy) instead of silently keeping a stale
    translation."""
    by_key = {m.context: m for m in french_catalog() if m.context}
    stale = []
    for key, english in TEMPLATE.items():
        message = by_key.get(key)
        if message is None:
            continue  # reported by the parity test
        shown = tuple(message.id) if isinstance(english, tuple) else message.id
        if shown != english:
            stale.append(key)
        assert not message.fuzzy, f"{key} is fuzzy: review its translation"
    assert not stale, f"English changed since these were translated: {stale}"
    assert not set(by_key) - set(TEMPLATE), "the .po has keys English no longer has"


# -- behaviour ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "french", "english"),
    [(0, "0 carte", "0 cards"), (1, "1 carte", "1 card"), (2, "2 cartes", "2 cards"),
     (1_000_000, "1000000 de cartes", "1000000 cards")],
)
def test_plural_forms_follow_each_languages_rules(count: int, french: str, english: str) -> None:
    """French says "0 carte" and "1000000 de cartes"; English "0 cards": Babel's rules, not ours."""
    assert t("table.cards", "fr", count=count) == french
    assert t("table.cards", "en", count=count) == english


def test_locales_and_fallbacks() -> None:
    assert normalise("fr") == normalise("fr-CA") == normalise("fr_FR") == "fr"
    assert normalise("en-US") == normalise("de") == normalise(None) == "en"
    assert t("button.draw", "fr") == "Piocher"
    assert t("button.draw", "de") == t("button.draw") == "Draw"
    assert t("no.such.key", "fr") == "no.such.key"
    assert t("opening.below_threshold", "fr", variant="r51", needed=51, value=40).startswith(
        "Au Rami 51"
    )
    # words passed as parameters are named in the reader's language too
    assert "en bas de ce Suivi" in t("meld.run_cannot_extend_at", "fr", cards="5♥", end="low")
    assert "at the low end" in t("meld.run_cannot_extend_at", "en", cards="5♥", end="low")
    assert option_value("ace_mode", "low_only", "fr") == "en bas seulement"
    assert option_value("basic_rounds", "3", "fr") == "3"


def test_an_untranslated_entry_falls_back_to_english(tmp_path: Path) -> None:
    po = tmp_path / "messages.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgctxt "button.draw"\nmsgid "Draw"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgctxt "button.join"\nmsgid "Join"\nmsgstr "Rejoindre"\n\n'
        'msgctxt "button.leave"\nmsgid "Leave"\nmsgstr "Quitter"\n',
        encoding="utf-8",
    )
    loaded = load_translation(po)
    assert dict(loaded.singular) == {"button.leave": "Quitter"}
    assert template("button.draw", "fr") == "Piocher"  # the shipped catalogue is untouched


def test_extract_writes_the_template_babel_reads(tmp_path: Path) -> None:
    out = tmp_path / "messages.pot"
    assert main(["--output", str(out)]) == 0
    with out.open("rb") as handle:
        pot = read_po(handle)
    by_key = {m.context: m for m in pot if m.context}
    assert set(by_key) == set(TEMPLATE)
    cards = by_key["table.cards"]
    assert cards.pluralizable and tuple(cards.id) == ("{count} card", "{count} cards")
    assert by_key["button.draw"].id == "Draw"
    assert "python-brace-format" in by_key["table.turn"].flags
    assert len(template_catalog()) == len(TEMPLATE)


def test_extract_alone_writes_the_same_template_as_update(tmp_path: Path) -> None:
    """``python -m bot.text.extract`` is kept for a tool that wants only the template: over the
    committed one it changes nothing (its creation date is kept, not stamped)."""
    out = tmp_path / "messages.pot"
    committed = (LOCALES_DIR / "messages.pot").read_bytes()
    out.write_bytes(committed)
    assert main(["--output", str(out)]) == 0
    assert out.read_bytes() == committed


def test_the_po_ships_inside_the_package() -> None:
    """Installed or editable, the .po is package data next to bot.text."""
    shipped = resources.files("bot.text") / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    assert shipped.is_file()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"bot.text" = ["locales/*.pot", "locales/*/LC_MESSAGES/*.po"]' in pyproject


# -- no sentence outside the catalogues ---------------------------------------------------------

#: A string is prose when it has two words of letters and a space: identifiers, custom ids,
#: card codes and format pieces are not.
WORD = re.compile(r"[A-Za-z]{2,}")
SQL = re.compile(
    r"\b(SELECT|INSERT|UPDATE|CREATE|ALTER|DELETE|PRAGMA|FROM|WHERE|ORDER BY|GROUP BY|IS NULL|"
    r"IS NOT NULL|JOIN|LIMIT|BEGIN IMMEDIATE)\b|\bAND [\w.]+ = \?"
)
CARDS = re.compile(r"^(?:\s|\||(?:10|[2-9AJQKT])[shdcSHDC♠♥♦♣]|JK)+$")
IDENTIFIERS = re.compile(r"^[\s,]*[\w.]+(?:\s*,\s*[\w.]+)*[\s,=]*$")  # column lists, "x=" pieces
LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}

#: Files whose prose is not shown to players or operators in a language of theirs, and why.
ALLOWED_FILES = {
    # the pictures' English labels: the catalogue's render.* keys are built from them
    "bot/render/scene.py",
    # sample scenes for `python -m bot.render` previews and the golden pictures of tests
    "bot/render/examples.py",
    # the documentation's pictures: sample display names and the developer command's usage
    "bot/gallery.py",
    # the simulate/demo developer tool (win rates, CPU times): engineers' measurements, owned
    # by the computer-player work still in progress on another branch
    "bot/offline.py",
}
#: Single strings that look like prose but are input, not output.
ALLOWED_STRINGS = {
    ("bot/features/stats/ui/answers.py", "win rate"),  # a spelling players may type for the sort
    ("bot/text/extract.py", "python -m bot.text.extract"),  # the scripts' program names
    ("bot/text/update.py", "python -m bot.text.update"),
    # the template's header comment, for contributors opening messages.pot (English by design)
    ("bot/text/extract.py", HEADER),
    # a developer command's usage line (the shipped palette)
    (
        "bot/render/__main__.py",
        "usage: python -m bot.render --palette (the pictures of docs/: "
        "python -m bot.gallery docs/images)",
    ),
}


def _exception_class(node: ast.AST | None) -> bool:
    while node is not None and not isinstance(node, ast.ClassDef):
        node = getattr(node, "parent", None)
    return (isinstance(node, ast.ClassDef) and any(
        isinstance(b, ast.Name) and (b.id.endswith("Error") or b.id == "Exception")
        for b in node.bases
    )) or (isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Stale", "NotFound")))


def _excused(node: ast.Constant) -> bool:
    """Docstrings, log lines, assertions, raised and exception messages (for developers and
    logs; players get a catalogue sentence through bot/ui/errors.py), migration notes, SQL."""
    parent = getattr(node, "parent", None)
    if isinstance(parent, ast.Expr):
        return True
    walk: ast.AST | None = parent
    while walk is not None and not isinstance(walk, ast.stmt):
        if isinstance(walk, ast.Call):
            func = walk.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in LOGGING or name in {"Migration", "__init__"}:
                return True
        walk = getattr(walk, "parent", None)
    if isinstance(walk, (ast.Raise, ast.Assert)):
        return True
    return _exception_class(walk)


def catalogue(rel: str) -> bool:
    """A file of English sentences: a shared catalogue or a feature's words."""
    return rel.startswith("bot/text/catalog_") or (
        rel.startswith("bot/features/") and rel.endswith("/words.py")
    )


def prose_literals(root: Path = ROOT) -> list[str]:
    found = []
    paths = sorted([*root.glob("bot/**/*.py"), *root.glob("cogs/**/*.py")])
    for path in paths:
        rel = path.relative_to(root).as_posix()
        # bot/storage speaks SQL (statements built from fragments) and never to a person: what
        # it refuses reaches players and operators through catalogue sentences above it.
        if catalogue(rel) or rel.startswith("bot/storage/") or rel in ALLOWED_FILES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                child.parent = node  # type: ignore[attr-defined]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            text = node.value
            if len(WORD.findall(text)) < 2 or " " not in text.strip():
                continue
            if SQL.search(text) or CARDS.match(text) or IDENTIFIERS.match(text):
                continue
            if (rel, text) in ALLOWED_STRINGS or _excused(node):
                continue
            found.append(f"{rel}:{node.lineno}: {text!r}")
    return found


def test_no_user_facing_sentence_outside_the_catalogues() -> None:
    found = prose_literals()
    assert not found, "write these in a catalogue and call t():\n" + "\n".join(found)


def test_the_scan_tells_sentences_from_identifiers(tmp_path: Path) -> None:
    """The scanner flags hard-coded sentences (so the check above can fail) and leaves
    identifiers, SQL, card codes, log lines and docstrings alone."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "probe.py").write_text(
        '"""A docstring is for developers."""\n'
        'ANSWER = "You cannot do that now."\n'
        'LABEL = f"Take {card} from the pile"\n'
        'COLUMNS = "id, guild_id, channel_id"\n'
        'QUERY = "SELECT id FROM tables WHERE id = ?"\n'
        'HAND = "7h 8h 9h | Qs Qd Qc"\n'
        'log.info("table %s published", 3)\n',
        encoding="utf-8",
    )
    found = prose_literals(tmp_path)
    assert [line.split(": ", 1)[1] for line in found] == [
        "'You cannot do that now.'",
        "' from the pile'",
    ]
