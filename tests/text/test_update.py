"""``python -m bot.text.update`` round-trips: the committed template and catalogues are exactly its
output, so a contributor who runs it sees only their own change, and one who forgets it (or
edits a ``.po`` by hand out of form) is told here.

The merge rules a translator relies on are checked on a copy of the real catalogues with the
English changed in each way a branch may change it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from bot.text import ENGLISH, LOCALES_DIR, load_translation
from bot.text.pofiles import read_catalog
from bot.text.update import catalogue_paths, main, update

COMMAND = "python -m bot.text.update"


def copy_of_locales(tmp_path: Path) -> Path:
    target = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, target)
    return target


def committed_files() -> list[Path]:
    return [LOCALES_DIR / "messages.pot", *catalogue_paths(LOCALES_DIR)]


def changed_by_the_command(locales: Path) -> list[str]:
    """The files the command rewrites in ``locales``, compared with the committed ones."""
    assert main(["--locales", str(locales)]) == 0
    return [
        path.relative_to(LOCALES_DIR).as_posix()
        for path in committed_files()
        if (locales / path.relative_to(LOCALES_DIR)).read_bytes() != path.read_bytes()
    ]


def by_key(catalog: Catalog) -> dict[str | None, Message]:
    return {message.context: message for message in catalog if message.id}


# -- the committed files are the command's output ------------------------------------------------


def test_running_the_command_on_the_committed_files_changes_nothing(tmp_path: Path) -> None:
    locales = copy_of_locales(tmp_path)
    assert catalogue_paths(LOCALES_DIR), "no language to merge into"
    changed = changed_by_the_command(locales)
    assert not changed, f"run `{COMMAND}` and commit what it writes: {changed}"
    # and nothing else appeared beside them
    written = sorted(p.relative_to(locales) for p in locales.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(LOCALES_DIR) for p in committed_files())


def test_check_reports_nothing_to_do_on_the_committed_files() -> None:
    """``--check`` (for CI or a hook) reads the real folder and writes nothing."""
    before = {path: path.read_bytes() for path in committed_files()}
    assert main(["--check"]) == 0
    assert {path: path.read_bytes() for path in committed_files()} == before


def normalised_copy(tmp_path: Path) -> Path:
    """A copy of the locales folder in the command's form, whatever the committed state: the
    two probes below check the round-trip test's means, not the committed files again."""
    locales = copy_of_locales(tmp_path)
    update(locales)
    return locales


def test_a_new_english_sentence_not_merged_is_caught(tmp_path: Path) -> None:
    """What the round-trip test sees when a branch adds English without running the command."""
    locales = normalised_copy(tmp_path)
    english = {**ENGLISH, "zz.probe": "A sentence nobody has merged yet."}
    assert update(locales, english, write=False) == [
        locales / "messages.pot",
        locales / "fr" / "LC_MESSAGES" / "messages.po",
    ]


def test_a_po_edited_by_hand_out_of_order_is_caught_and_put_back(tmp_path: Path) -> None:
    """An entry appended at the end of the file (what contributors used to do) is moved back
    to its key's place, its translation untouched."""
    locales = normalised_copy(tmp_path)
    po = locales / "fr" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    entry = 'msgctxt "button.draw"\nmsgid "Draw"\nmsgstr "Piocher"\n\n'
    assert entry in text
    edited = text.replace(entry, "") + entry
    po.write_text(edited, encoding="utf-8")
    assert main(["--locales", str(locales), "--check"]) == 1
    assert po.read_text(encoding="utf-8") == edited  # --check writes nothing
    assert main(["--locales", str(locales)]) == 0
    assert po.read_text(encoding="utf-8") == text


# -- what a translator finds after the English changed ---------------------------------------


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Catalog]:
    """The French catalogue merged with English changed in every way a branch may change it."""
    locales = copy_of_locales(tmp_path_factory.mktemp("merged"))
    po = locales / "fr" / "LC_MESSAGES" / "messages.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace(
            'msgctxt "button.hand"',
            '# keep it short: it is a button\n#| msgid "Hand"\nmsgctxt "button.hand"',
        ),
        encoding="utf-8",
    )
    english = dict(ENGLISH)
    english["button.draw"] = "Draw a card"  # reworded a little
    english["button.discard"] = "Put one card of yours face up on the discard pile"  # rewritten
    english["table.cards[other]"] = "{count} cards in all"  # the plural alone
    english["zz.new"] = "A sentence about something else entirely, never seen before."
    english["button.leave_table"] = english.pop("button.cancel")  # renamed key, same English
    del english["button.add"]  # removed
    assert update(locales, english)
    assert update(locales, english) == [], "a second run changed the files again"
    return po, read_catalog(po)


def test_changed_english_keeps_the_translation_for_review(merged: tuple[Path, Catalog]) -> None:
    _, catalog = merged
    found = by_key(catalog)
    for key, english, french in [
        ("button.draw", "Draw a card", "Piocher"),
        ("button.discard", "Put one card of yours face up on the discard pile", "Défausser"),
    ]:
        assert (found[key].id, found[key].string) == (english, french)
        assert found[key].fuzzy, key
    cards = found["table.cards"]
    assert tuple(cards.id) == ("{count} card", "{count} cards in all")
    assert cards.fuzzy and cards.string == ("{count} carte", "{count} de cartes", "{count} cartes")


def test_new_renamed_and_removed_keys(merged: tuple[Path, Catalog]) -> None:
    _, catalog = merged
    found = by_key(catalog)
    assert found["zz.new"].string == "" and not found["zz.new"].fuzzy
    renamed = found["button.leave_table"]  # Babel matches the English: offered, for review
    assert (renamed.id, renamed.string, renamed.fuzzy) == ("Cancel", "Annuler", True)
    assert "button.add" not in found and "button.cancel" not in found
    assert not catalog.obsolete


def test_comments_survive_and_previous_msgid_lines_do_not(merged: tuple[Path, Catalog]) -> None:
    """A translator's note stays; a ``#|`` line (which Babel reads back as a note) is dropped."""
    po, catalog = merged
    assert by_key(catalog)["button.hand"].user_comments == ["keep it short: it is a button"]
    assert "#|" not in po.read_text(encoding="utf-8")


def test_players_see_english_until_the_translator_reviews(merged: tuple[Path, Catalog]) -> None:
    po, _ = merged
    loaded = load_translation(po)
    for key in ("button.draw", "button.discard", "button.leave_table", "zz.new"):
        assert key not in loaded.singular, key
    assert "table.cards" not in loaded.plural
    assert loaded.singular["button.join"] == by_key(read_catalog(po))["button.join"].string
