"""Slash-command texts from the catalogue, and the translator that gives Discord the others.

Each description and choice name is a ``locale_str`` whose English is the catalogue's and whose
``key`` extra is the catalogue key; :class:`CatalogueTranslator` (installed on the tree at
start-up) answers Discord's per-language questions from the same ``.po`` files as every other
sentence, so one translation covers the chat and the command picker.

Command and option *names* are not translated: they stay the English identifiers every sentence
of the catalogue quotes (``/rummy join``, ``/rummy undo``) and players type, in every language,
so a help text never names a command the reader's client does not show. Names carry no ``key``
and the translator leaves them alone.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from discord import Locale, app_commands

from bot.text import DEFAULT_LOCALE, TRANSLATIONS, normalise, t

V = TypeVar("V", str, int, float)
T = TypeVar("T", bound=Any)
#: A slash command as a feature declares it (a leaf of one of the bot's top-level commands).
Leaf = app_commands.Command[Any, ..., Any]


def text(key: str) -> app_commands.locale_str:
    """A command or option description: English now, other languages through the translator."""
    return app_commands.locale_str(t(key), key=key)


def choice(key: str, value: V) -> app_commands.Choice[V]:
    """A choice shown by its catalogue name, sending ``value``."""
    return app_commands.Choice(name=text(key), value=value)


def translated(key: str, locale: str) -> str | None:
    """The text of ``key`` in ``locale`` only if that language has its own (else ``None``)."""
    language = normalise(locale)
    translation = TRANSLATIONS.get(language)
    if language == DEFAULT_LOCALE or translation is None:
        return None
    found = translation.singular.get(key)
    return found or None


class CatalogueTranslator(app_commands.Translator):
    """Localises descriptions and choice names for Discord from the catalogue.

    Returning ``None`` tells discord.py to send no localisation for that language, so Discord
    shows the English; that is what happens for names and for languages without a ``.po``.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        return translated(key, locale.value)


def plain(name: str, value: V) -> app_commands.Choice[V]:
    """A choice whose name is its value (a number reads the same in every language)."""
    return app_commands.Choice(name=name, value=value)


def leaf(name: str) -> Callable[[Callable[..., Any]], Leaf]:
    """A slash command called ``name``: its description is the catalogue's ``command.<name>``
    and each option's (every parameter after the interaction) ``command.<name>.<option>``.

    Why: a command's name is written once, where it is declared, and its words live in its
    feature's catalogue under keys derived from it, so no option can be left undescribed and
    no key can drift from the name it describes (``tests/text/test_i18n.py`` checks every key
    exists in every language).
    """

    def declare(callback: Callable[..., Any]) -> Leaf:
        options = list(inspect.signature(callback).parameters)[1:]
        described = app_commands.describe(
            **{option: text(f"command.{name}.{option}") for option in options}
        )(callback)
        return app_commands.command(name=name, description=text(f"command.{name}"))(described)

    return declare


def group(name: str, leaves: Iterable[Leaf]) -> app_commands.Group:
    """A top-level command ``name`` holding ``leaves``, described by ``command.<name>``."""
    made = app_commands.Group(name=name, description=text(f"command.{name}"))
    for command in leaves:
        made.add_command(command)
    return made


def optional_choices(*names: str) -> Callable[[T], T]:
    """Give a command callback that takes ``**chosen`` one optional choice parameter per name.

    Why: discord.py reads a command's options from the callback's signature (through
    ``inspect.signature``, which honours ``__signature__``), so options that come from data
    (the engine's common table options) are declared here once instead of spelt out as
    parameters. The callback receives them as keywords in ``chosen``; ``describe`` and
    ``choices`` name them like any other parameter.
    """

    def declare(callback: T) -> T:
        signature = inspect.signature(callback)
        kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=app_commands.Choice[str] | None,
            )
            for name in names
        ]
        callback.__signature__ = signature.replace(parameters=[*kept, *added])
        return callback

    return declare
