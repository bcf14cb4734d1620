"""Every sentence a person reads goes through :func:`t`: one translation function, one place.

English lives in plain dicts keyed by message id (each feature's ``words.py``, the shared
``catalog_*.py`` here and the engine's ``rummy_engine.messages``): they are the source of truth for keys and English text, so other
parts of the project add a sentence without learning a tool. Other languages are gettext ``.po``
files under ``bot/text/locales/<lang>/LC_MESSAGES/messages.po``, the format translators' tools
(Poedit, Weblate, ``pybabel update``, ``msgmerge``) understand. Each entry's ``msgctxt`` is the
message key and its ``msgid`` the English text, so a translator sees the English and a new
template merges without losing work (``python -m bot.text.update`` writes and merges it).

Plurals: an English message with a ``count`` parameter may have forms ``key[one]`` and
``key[other]`` (CLDR categories, chosen with Babel's plural rules). In a ``.po`` the same key is
one entry with ``msgid_plural`` and ``msgstr[n]``; the form is chosen by the file's
``Plural-Forms`` expression (Babel writes the language's CLDR rule there), so no pluralisation
is hand-written here. A missing locale, key or translation falls back to English, and a missing
English key shows the key itself rather than crashing in front of a player.

The catalogues are loaded once at import and never change afterwards.
"""

from __future__ import annotations

import functools
import gettext
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po

from bot.text.catalog_alt import ALT_EN
from bot.text.catalog_cli import CLI_EN
from bot.text.catalog_commands import COMMANDS_EN
from rummy_engine.messages import ENGLISH as ENGINE_EN

DEFAULT_LOCALE = "en"
LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "messages"


@dataclass(frozen=True)
class Translation:
    """One language loaded from its ``.po``: singular texts, plural forms, the plural rule."""

    locale: str
    singular: Mapping[str, str]
    plural: Mapping[str, tuple[str, ...]]
    plural_index: Callable[[int], int]
    num_plurals: int


def po_path(locale: str) -> Path:
    """Where the ``.po`` of ``locale`` lives (inside the package, so installs carry it)."""
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_translation(path: Path) -> Translation:
    """Read one ``.po`` with Babel; untranslated and fuzzy entries are left out (English shows)."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        key = message.context
        if not key or message.fuzzy:
            continue
        if message.pluralizable:
            forms = tuple(str(s) for s in message.string or ())
            if all(forms):
                plural[key] = forms
        elif message.string:
            singular[key] = str(message.string)
    return Translation(
        locale=str(catalog.locale),
        singular=MappingProxyType(singular),
        plural=MappingProxyType(plural),
        plural_index=gettext.c2py(catalog.plural_expr),
        num_plurals=catalog.num_plurals,
    )


def _available() -> dict[str, Translation]:
    found = {}
    if LOCALES_DIR.is_dir():
        for folder in sorted(LOCALES_DIR.iterdir()):
            if po_path(folder.name).is_file():
                found[folder.name] = load_translation(po_path(folder.name))
    return found


FEATURES_PACKAGE = "bot.features"


def feature_words() -> dict[str, Mapping[str, str]]:
    """Each feature's English sentences (``bot/features/<feature>/words.py``, its ``WORDS``).

    Why found rather than imported by name: a feature keeps its words in its own folder, and a
    new feature's sentences join the catalogue without a line here. A ``words`` module imports
    nothing of its feature (only the engine's and the renderer's labels), so loading it here
    runs none of the feature's code.
    """
    package = importlib.import_module(FEATURES_PACKAGE)
    found: dict[str, Mapping[str, str]] = {}
    for feature in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        name = f"{FEATURES_PACKAGE}.{feature.name}.words"
        if importlib.util.find_spec(name) is not None:
            found[feature.name] = importlib.import_module(name).WORDS
    return found


def _catalogue(parts: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """The parts joined; a key written twice is a mistake to fix, not an order to rely on."""
    joined: dict[str, str] = {}
    for part, sentences in parts.items():
        twice = sorted(set(joined) & set(sentences))
        if twice:
            raise ValueError(f"{part} repeats catalogue keys written elsewhere: {twice}")
        joined.update(sentences)
    return joined


#: The English catalogue. The engine writes its refusals once, in English; the bot serves them
#: through this same function so a translation covers them like any other sentence.
ENGLISH: Mapping[str, str] = MappingProxyType(
    _catalogue(
        {
            "rummy_engine.messages": ENGINE_EN,
            "bot.text.catalog_cli": CLI_EN,
            "bot.text.catalog_commands": COMMANDS_EN,
            "bot.text.catalog_alt": ALT_EN,
            **{f"{FEATURES_PACKAGE}.{name}.words": words for name, words in feature_words().items()},
        }
    )
)
#: Kept for callers that read the English catalogue by language.
MESSAGES: Mapping[str, Mapping[str, str]] = MappingProxyType({DEFAULT_LOCALE: ENGLISH})
TRANSLATIONS: Mapping[str, Translation] = MappingProxyType(_available())
SUPPORTED_LOCALES: tuple[str, ...] = (DEFAULT_LOCALE, *sorted(TRANSLATIONS))


def normalise(locale: object) -> str:
    """A supported language for a Discord locale (``fr``, ``en-US``, ``pt-BR``…) or a stored one.

    Only the language matters: ``fr`` serves every French locale; anything unknown is English.
    """
    return _language(str(locale or ""))


@functools.lru_cache(maxsize=256)
def _language(locale: str) -> str:
    """Cached: every text of a move asks (dozens per move), for a handful of locales."""
    language = locale.replace("_", "-").split("-")[0].lower()
    return language if language in SUPPORTED_LOCALES else DEFAULT_LOCALE


@functools.lru_cache(maxsize=1024)
def plural_category(locale: str, count: int) -> str:
    """The CLDR plural category (``one``, ``other``…) of ``count`` in ``locale``.

    Cached: babel parses the locale at each call, and a move's texts ask dozens of times.
    """
    try:
        return str(Locale.parse(locale).plural_form(abs(count)))
    except (ValueError, TypeError):
        return "one" if count == 1 else "other"


def one_of(items: Sequence[str], locale: str = DEFAULT_LOCALE) -> str:
    """``items`` as "a, b or c" in the language of ``locale`` (CLDR's list patterns)."""
    return format_list(list(items), style="or", locale=normalise(locale))


def _english(key: str, count: int | None) -> str | None:
    if count is not None:
        found = ENGLISH.get(f"{key}[{plural_category(DEFAULT_LOCALE, count)}]")
        if found:
            return found
    return ENGLISH.get(key) or ENGLISH.get(f"{key}[other]")


def template(key: str, locale: str = DEFAULT_LOCALE, count: int | None = None) -> str | None:
    """The unformatted text of ``key`` in ``locale`` (English when not translated)."""
    translation = TRANSLATIONS.get(normalise(locale))
    if translation is not None:
        forms = translation.plural.get(key)
        if forms is not None:
            index = translation.plural_index(abs(count)) if count is not None else -1
            return forms[index] if 0 <= index < len(forms) else forms[-1]
        found = translation.singular.get(key)
        if found:
            return found
    return _english(key, count)


def t(key: str, locale: str = DEFAULT_LOCALE, **params: object) -> str:
    """The message ``key`` in ``locale``, formatted with ``params``.

    With an integer ``count`` parameter, the plural form for that number is used when the
    catalogue has one. A ``variant`` parameter holding a variant id is shown by its name.
    """
    count = params.get("count")
    text = template(key, locale, count if isinstance(count, int) else None) or key
    if not params:
        return text
    variant = params.get("variant")
    if isinstance(variant, str) and template(f"variant.{variant}", locale):
        params = {**params, "variant": t(f"variant.{variant}", locale)}
    # a word given as a parameter (the engine's "low"/"high") is shown by its catalogue name
    words = {
        name: template(f"param.{name}.{value}", locale)
        for name, value in params.items()
        if isinstance(value, str) and f"param.{name}.{value}" in ENGLISH
    }
    if words:
        params = {**params, **words}
    return text.format(**params)


def option_value_key(option: str, value: str) -> str | None:
    """The catalogue key naming ``value`` of table option ``option``, if it has a name.

    Specific names (``option.ace_mode.low_only``) come first, then the shared ones
    (``option.on``, ``option.unlimited``); numbers have none and read the same everywhere.
    """
    for key in (f"option.{option}.{value}", f"option.{value}"):
        if key in ENGLISH:
            return key
    return None


def option_value(option: str, value: str, locale: str = DEFAULT_LOCALE) -> str:
    """How ``value`` of table option ``option`` reads in ``locale``."""
    key = option_value_key(option, value)
    return value if key is None else t(key, locale)
