"""The command tree the bot registers is one Discord accepts, in every language, with room left.

Why: at start-up the bot registers its whole tree in one ``PUT /applications/{id}/commands``,
and Discord refuses the whole request (50035) for one field over a limit, so on a fresh install no
command appears at all; and a top-level command at Discord's limits (25 children, 4,000
characters) leaves the next feature no room. The payload is the real one
(``tests/discord/command_surface.py``), checked with the emulator's model of Discord's limits
(``tests/discord_emulator/command_limits.py``) and against the project's own lines; the second
half checks that model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.text import TRANSLATIONS
from tests.discord.command_surface import (
    CHILDREN_MAX,
    SIZE_MAX,
    TOP_LEVEL_MAX,
    heaviest,
    registered_payload,
    report,
)
from tests.discord_emulator.command_limits import (
    DESCRIPTION_MAX,
    LOCALES,
    bulk_overwrite_errors,
    command_errors,
    command_size,
    flatten,
    invalid_form_body,
)


def texts_at(payload: Any, paths: list[str]) -> dict[str, Any]:
    """The value at each dotted path of the payload, to show what was refused."""
    found: dict[str, Any] = {}
    for path in paths:
        node = payload
        for key in path.split("."):
            node = node[int(key)] if isinstance(node, list) else node.get(key, {})
        found[path] = node
    return found


async def test_the_registered_tree_is_one_discord_accepts(tmp_path: Path) -> None:
    payload = await registered_payload(tmp_path)
    assert any(command["name"] == "rummy" for command in payload)
    errors = bulk_overwrite_errors(payload)
    refused = flatten(errors)
    assert not errors, f"Discord would refuse: {refused}\n{texts_at(payload, list(refused))}"


async def test_every_top_level_command_keeps_room_for_the_next_features(tmp_path: Path) -> None:
    """At most 5 top-level commands, each at most 20 children and 3,400 characters in its
    longest locale; a failure names the heaviest parts to move or shorten."""
    payload = await registered_payload(tmp_path)
    assert len(payload) <= TOP_LEVEL_MAX, report(payload)
    for command in payload:
        children, size = len(command.get("options") or ()), command_size(command)
        where = f"/{command['name']}: heaviest {heaviest(command)}\n{report(payload)}"
        assert children <= CHILDREN_MAX, f"{children} children; {where}"
        assert size <= SIZE_MAX, f"{size} characters; {where}"


async def test_the_payload_carries_every_language_of_the_catalogue(tmp_path: Path) -> None:
    """So that the checks above see the localisations, not only the English."""
    payload = await registered_payload(tmp_path)
    rummy = next(command for command in payload if command["name"] == "rummy")
    languages = {language for language in TRANSLATIONS if language != "en"}
    assert languages, "the catalogue has a language besides English"
    lay = next(option for option in rummy["options"] if option["name"] == "lay")
    melds = next(option for option in lay["options"] if option["name"] == "melds")
    assert set(melds["description_localizations"]) >= languages
    for command in payload:
        assert set(command["description_localizations"]) >= languages, command["name"]


# ---------------------------------------------------------------- the model of Discord's limits


def command(**fields: Any) -> dict[str, Any]:
    """A chat-input command with one subcommand holding one string option."""
    option = {"type": 3, "name": "melds", "description": "Cards of each meld"}
    option.update(fields)
    subcommand = {"type": 1, "name": "lay", "description": "Lay melds", "options": [option]}
    return {"type": 1, "name": "rummy", "description": "Play rummy", "options": [subcommand]}


def test_a_valid_command_is_accepted() -> None:
    assert command_errors(command()) == {}
    assert bulk_overwrite_errors([command(), command()]) == {}


def test_an_over_long_localised_description_is_refused_at_its_path() -> None:
    fine = command(description_localizations={"fr": "é" * DESCRIPTION_MAX})
    assert bulk_overwrite_errors([fine]) == {}
    long = command(description_localizations={"fr": "é" * (DESCRIPTION_MAX + 1)})
    errors = bulk_overwrite_errors([command(), long])
    bad_length = [
        {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}
    ]
    assert invalid_form_body(errors) == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {
            "1": {
                "options": {
                    "0": {
                        "options": {
                            "0": {"description_localizations": {"fr": {"_errors": bad_length}}}
                        }
                    }
                }
            }
        },
    }


@given(
    st.dictionaries(
        st.sampled_from(sorted(LOCALES)),
        st.text(min_size=1, max_size=2 * DESCRIPTION_MAX),
        max_size=6,
    )
)
def test_a_localised_description_is_refused_exactly_when_too_long(texts: dict[str, str]) -> None:
    refused = flatten(command_errors(command(description_localizations=texts)))
    too_long = [locale for locale, text in texts.items() if len(text) > DESCRIPTION_MAX]
    path = "options.0.options.0.description_localizations"
    assert refused == {f"{path}.{locale}": ["BASE_TYPE_BAD_LENGTH"] for locale in too_long}


@pytest.mark.parametrize(
    ("fields", "path", "code"),
    [
        ({"name": "Melds"}, "options.0.options.0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "two words"}, "options.0.options.0.name", "STRING_TYPE_REGEX"),
        ({"name": "m" * 33}, "options.0.options.0.name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": ""}, "options.0.options.0.name", "BASE_TYPE_REQUIRED"),
        (
            {"name_localizations": {"fr": "Combinaisons"}},
            "options.0.options.0.name_localizations.fr",
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        (
            {"name_localizations": {"fr": "c" * 33}},
            "options.0.options.0.name_localizations.fr",
            "BASE_TYPE_BAD_LENGTH",
        ),
        ({"description": ""}, "options.0.options.0.description", "BASE_TYPE_REQUIRED"),
        (
            {"description_localizations": {"xx": "Cartes"}},
            "options.0.options.0.description_localizations.xx",
            "BASE_TYPE_CHOICES",
        ),
        (
            {"choices": [{"name": str(n), "value": str(n)} for n in range(26)]},
            "options.0.options.0.choices",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"choices": [{"name": "n" * 101, "value": "v"}]},
            "options.0.options.0.choices.0.name",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"choices": [{"name": "n", "value": "v", "name_localizations": {"fr": "n" * 101}}]},
            "options.0.options.0.choices.0.name_localizations.fr",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"choices": [{"name": "n", "value": "v" * 101}]},
            "options.0.options.0.choices.0.value",
            "BASE_TYPE_BAD_LENGTH",
        ),
    ],
)
def test_each_limit_is_refused_at_the_field(fields: dict[str, Any], path: str, code: str) -> None:
    assert flatten(command_errors(command(**fields))) == {path: [code]}


@pytest.mark.parametrize("name", ["rami-51", "jeu_d'été", "बदलें", "ไพ่", "٣٤", "ß"])
def test_names_discord_accepts(name: str) -> None:
    assert command_errors(command(name=name)) == {}


def test_too_many_options_and_subcommands() -> None:
    options = [{"type": 5, "name": f"o{n}", "description": "d"} for n in range(26)]
    root = {"type": 1, "name": "rummy", "description": "Play", "options": options}
    assert flatten(command_errors(root)) == {"options": ["BASE_TYPE_MAX_LENGTH"]}
    subcommands = [{"type": 1, "name": f"s{n}", "description": "d"} for n in range(26)]
    root["options"] = [{"type": 2, "name": "group", "description": "d", "options": subcommands}]
    assert flatten(command_errors(root)) == {"options.0.options": ["BASE_TYPE_MAX_LENGTH"]}


def test_a_command_s_size_counts_its_longest_localisation() -> None:
    """Under 4,000 in English; over it once each subcommand's longer French counts instead
    (each field once, at its longest form: not the English plus the French)."""
    subcommands = [
        {
            "type": 1,
            "name": f"s{n}",
            "description": "d" * 90,
            "options": [{"type": 3, "name": "o", "description": "x" * 60}],
        }
        for n in range(25)
    ]
    root = {"type": 1, "name": "rummy", "description": "Play", "options": subcommands}
    names = 10 * 2 + 15 * 3  # s0-s9, s10-s24
    assert command_size(root) == len("rummy") + len("Play") + names + 25 * (90 + 1 + 60) == 3849
    assert command_errors(root) == {}
    for subcommand in subcommands:
        subcommand["description_localizations"] = {"fr": "f" * 100}
    assert command_size(root) == 3849 + 25 * 10
    assert command_errors(root) == {
        "_errors": [
            {
                "code": "APPLICATION_COMMAND_TOO_LARGE",
                "message": "Command exceeds maximum size (4000)",
            }
        ]
    }
