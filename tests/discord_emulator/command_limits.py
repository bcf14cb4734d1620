"""Discord's limits on application commands: what it refuses when a bot registers its commands.

Why one module: the emulator is the tests' model of Discord, so it refuses every
``PUT``/``POST .../commands`` that breaks these rules, and ``tests/discord/test_command_limits.py`` checks
the exact tree the bot would register against the same rules; one copy, so the two cannot drift.

The limits are those of Discord's developer documentation (Application Commands): names of 1-32
characters matching ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lowercase wherever
a letter has a lowercase form (chat-input commands and all options); descriptions of 1-100; at
most 25 options per command or subcommand (subcommands are options); at most 25 choices, each
with a name of 1-100 and a string value of at most 100; every ``*_localizations`` entry under the
limit of its field; and at most 4,000 characters per command, summed over the name, description
and value properties of the command, its options, subcommands, groups and choices, where a
localised field counts at its longest localisation.

A refusal is Discord's ``50035 Invalid Form Body``: ``errors`` nested by the path of the field,
each leaf ``{"_errors": [{"code": ..., "message": ...}]}``; for a bulk overwrite the first key is
the command's index in the list.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import discord

NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
COMMAND_SIZE_MAX = 4000
#: Chat-input commands an application (or a guild) may have.
COMMANDS_MAX = 100

CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2

#: The locales Discord knows (``name_localizations``/``description_localizations`` keys).
LOCALES: frozenset[str] = frozenset(locale.value for locale in discord.Locale)

#: The Unicode blocks of ``\p{sc=Deva}`` and ``\p{sc=Thai}`` (Python's ``re`` has no script
#: classes): their combining vowel signs are neither letters nor numbers.
SCRIPT_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x0900, 0x097F),  # Devanagari
    (0xA8E0, 0xA8FF),  # Devanagari Extended
    (0x11B00, 0x11B5F),  # Devanagari Extended-A
    (0x0E00, 0x0E7F),  # Thai
)
NAME_PUNCTUATION = frozenset("-_'")

INVALID_FORM_BODY = 50035

Errors = dict[str, Any]
Path = tuple[str, ...]


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    """Discord's JSON answer (with HTTP 400) to a body that breaks a limit."""
    return {"code": INVALID_FORM_BODY, "message": "Invalid Form Body", "errors": errors}


def bulk_overwrite_errors(commands: Sequence[Mapping[str, Any]]) -> Errors:
    """What Discord refuses in ``PUT .../commands``: keyed by each command's index; empty if none."""
    errors: Errors = {}
    if len(commands) > COMMANDS_MAX:
        _refuse(errors, (), "BASE_TYPE_MAX_LENGTH", f"Must be {COMMANDS_MAX} or fewer in length.")
    for index, command in enumerate(commands):
        found = command_errors(command)
        if found:
            errors[str(index)] = found
    return errors


def command_errors(command: Mapping[str, Any]) -> Errors:
    """What Discord refuses in one command (``POST .../commands``); empty if it accepts it."""
    errors: Errors = {}
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    _check_name(errors, (), command, strict=chat_input)
    if chat_input:
        _check_description(errors, (), command)
    _check_options(errors, ("options",), command.get("options") or ())
    if command_size(command) > COMMAND_SIZE_MAX:
        _refuse(
            errors,
            (),
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
        )
    return errors


def command_size(command: Mapping[str, Any]) -> int:
    """Discord's size of a command: its names, descriptions and choice values, in characters,
    each localised field at its longest form (the English or a localisation)."""
    return (
        _longest(command, "name")
        + _longest(command, "description")
        + sum(option_size(option) for option in command.get("options") or ())
    )


def flatten(errors: Errors, path: Path = ()) -> dict[str, list[str]]:
    """The refusals by dotted field path (``0.options.3.description``) with their codes."""
    found: dict[str, list[str]] = {}
    for key, value in errors.items():
        if key == "_errors":
            found[".".join(path)] = [error["code"] for error in value]
        else:
            found.update(flatten(value, (*path, key)))
    return found


# ---------------------------------------------------------------- the checks


def option_size(option: Mapping[str, Any]) -> int:
    size = _longest(option, "name") + _longest(option, "description")
    for choice in option.get("choices") or ():
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(option_size(sub) for sub in option.get("options") or ())


def _longest(entry: Mapping[str, Any], field: str) -> int:
    localised = entry.get(f"{field}_localizations") or {}
    texts = [entry.get(field) or "", *(text for text in localised.values() if text)]
    return max(len(str(text)) for text in texts)


def _check_options(errors: Errors, path: Path, options: Sequence[Mapping[str, Any]]) -> None:
    if len(options) > OPTIONS_MAX:
        _refuse(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {OPTIONS_MAX} or fewer in length.")
    for index, option in enumerate(options):
        here = (*path, str(index))
        _check_name(errors, here, option, strict=True)
        _check_description(errors, here, option)
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(errors, (*here, "options"), option.get("options") or ())
        _check_choices(errors, (*here, "choices"), option.get("choices") or ())


def _check_choices(errors: Errors, path: Path, choices: Sequence[Mapping[str, Any]]) -> None:
    if len(choices) > CHOICES_MAX:
        _refuse(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
    for index, choice in enumerate(choices):
        here = (*path, str(index))
        _check_localised(errors, here, choice, "name", CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str):
            _check_length(errors, (*here, "value"), value, CHOICE_VALUE_MAX)


def _check_name(errors: Errors, path: Path, entry: Mapping[str, Any], *, strict: bool) -> None:
    """Length for every name; for chat-input names also Discord's characters and lowercase."""
    _check_localised(errors, path, entry, "name", NAME_MAX)
    if not strict:
        return
    names = {(*path, "name"): entry.get("name")}
    for locale, name in (entry.get("name_localizations") or {}).items():
        names[(*path, "name_localizations", locale)] = name
    for here, name in names.items():
        if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
            continue  # the length check has refused it
        if not all(_name_character(ch) for ch in name):
            _refuse(
                errors, here, "STRING_TYPE_REGEX", "String value did not match validation regex."
            )
        elif any(ch.lower() != ch for ch in name):
            _refuse(errors, here, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_description(errors: Errors, path: Path, entry: Mapping[str, Any]) -> None:
    _check_localised(errors, path, entry, "description", DESCRIPTION_MAX)


def _check_localised(
    errors: Errors, path: Path, entry: Mapping[str, Any], field: str, limit: int
) -> None:
    """The field itself (required) and each of its localisations, under the same limit."""
    _check_length(errors, (*path, field), entry.get(field), limit)
    for locale, text in (entry.get(f"{field}_localizations") or {}).items():
        here = (*path, f"{field}_localizations", locale)
        if locale not in LOCALES:
            _refuse(errors, here, "BASE_TYPE_CHOICES", f"Value must be one of {sorted(LOCALES)}.")
        else:
            _check_length(errors, here, text, limit)


def _check_length(errors: Errors, path: Path, text: object, limit: int) -> None:
    if not isinstance(text, str) or not text:
        _refuse(errors, path, "BASE_TYPE_REQUIRED", "This field is required")
    elif len(text) > limit:
        _refuse(errors, path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {limit} in length.")


def _name_character(ch: str) -> bool:
    if ch in NAME_PUNCTUATION or unicodedata.category(ch)[0] in "LN":
        return True
    return any(low <= ord(ch) <= high for low, high in SCRIPT_BLOCKS)


def _refuse(errors: Errors, path: Path, code: str, message: str) -> None:
    node = errors
    for key in path:
        node = node.setdefault(key, {})
    node.setdefault("_errors", []).append({"code": code, "message": message})
