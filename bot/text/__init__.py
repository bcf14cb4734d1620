"""Every sentence a person reads goes through :func:`t`: one translation function, one place.

Why plain dicts keyed by message id: the catalogue stays greppable and other parts of the
project add keys without learning a framework. A message with a ``count`` parameter may have
plural forms, stored under ``key[one]``, ``key[other]`` (CLDR categories); the category comes
from Babel's plural rules for the language, so no pluralisation is hand-written here. A missing
locale or key falls back to English, and a missing English key shows the key itself rather than
crashing in front of a player.
"""

from __future__ import annotations

from collections.abc import Mapping

from babel import Locale

from bot.text.catalog_cli import CLI_EN
from bot.text.catalog_game import GAME_EN
from bot.text.catalog_stats import STATS_EN
from rummy_engine.messages import ENGLISH as ENGINE_EN

DEFAULT_LOCALE = "en"
SUPPORTED_LOCALES = ("en",)

#: Catalogues by language. The engine writes its refusals once, in English; the bot serves them
#: through this same function so a translation can cover them like any other sentence.
MESSAGES: dict[str, dict[str, str]] = {
    DEFAULT_LOCALE: {**ENGINE_EN, **GAME_EN, **STATS_EN, **CLI_EN},
}


def plural_category(locale: str, count: int) -> str:
    """The CLDR plural category (``one``, ``other``…) of ``count`` in ``locale``."""
    try:
        return str(Locale.parse(locale).plural_form(abs(count)))
    except (ValueError, TypeError):
        return "one" if count == 1 else "other"


def _template(key: str, locale: str) -> str | None:
    catalog: Mapping[str, str] = MESSAGES.get(locale, {})
    return catalog.get(key) or MESSAGES[DEFAULT_LOCALE].get(key)


def t(key: str, locale: str = DEFAULT_LOCALE, **params: object) -> str:
    """The message ``key`` in ``locale``, formatted with ``params``.

    With an integer ``count`` parameter, the plural form for that number is used when the
    catalogue has one. A ``variant`` parameter holding a variant id is shown by its name.
    """
    count = params.get("count")
    template = None
    if isinstance(count, int):
        template = _template(f"{key}[{plural_category(locale, count)}]", locale)
    template = template or _template(key, locale) or _template(f"{key}[other]", locale) or key
    if not params:
        return template
    variant = params.get("variant")
    if isinstance(variant, str) and _template(f"variant.{variant}", locale):
        params = {**params, "variant": t(f"variant.{variant}", locale)}
    return template.format(**params)
