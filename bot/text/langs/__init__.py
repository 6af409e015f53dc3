"""The languages players read: one module per language in this package, found by itself.

A language module (``zh.py``, ``en.py``) holds ``NAME`` (the language in its own words),
``ORDER`` (its place in lists), ``TAG`` (its language tag in a web page), ``LOCALES`` (the
prefixes of the Discord locales and language tags it serves), ``DISCORD_LOCALES`` (the Discord locales its command names are given for),
``TEXTS`` (key → template with named parameters, or a small function of them where the
language words a number its own way) and ``COMMANDS`` (the English command names and
descriptions → its own). A third language is one more module here (and its glyphs in the
fonts, ``python -m bot.web.make_fonts``). A key missing in a language falls back to
:data:`FALLBACK`'s text (logged once).

>>> text("zh", "seat.number", n=3), text("en", "seat.number", n=3)
('3 号位', 'seat 3')
>>> lang_of("zh-TW"), lang_of("de")
('zh', 'en')
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import string
from collections.abc import Callable
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

#: a catalog entry: a template (``"{n} 张"``) or a function of the same named parameters
Text = str | Callable[..., str]
#: the language of anything not otherwise served, and of a key another language lacks
FALLBACK = "en"

_MODULES: dict[str, ModuleType] = {
    info.name: importlib.import_module(f"{__name__}.{info.name}")
    for info in pkgutil.iter_modules(__path__)
}
#: every language, in the order players see them listed ("zh", "en")
LANGS: tuple[str, ...] = tuple(sorted(_MODULES, key=lambda lang: _MODULES[lang].ORDER))
#: each language by its own name
LANGUAGE_NAMES: dict[str, str] = {lang: _MODULES[lang].NAME for lang in LANGS}
#: each language's tag in a web page (``<html lang>``)
LANGUAGE_TAGS: dict[str, str] = {lang: _MODULES[lang].TAG for lang in LANGS}
_TEXTS: dict[str, dict[str, Text]] = {lang: _MODULES[lang].TEXTS for lang in LANGS}
_missing: set[tuple[str, str]] = set()


def lang_of(locale: object) -> str:
    """The language serving a Discord locale or a language tag (``zh-CN`` → ``"zh"``),
    else :data:`FALLBACK`."""
    value = str(getattr(locale, "value", locale) or "").lower()
    for lang in LANGS:
        if any(value.startswith(prefix) for prefix in _MODULES[lang].LOCALES):
            return lang
    return FALLBACK


def entry(lang: str, key: str) -> Text:
    """The catalog entry ``key`` of ``lang`` (an unknown language: :data:`FALLBACK`'s); a key
    ``lang`` lacks is :data:`FALLBACK`'s entry, logged once. KeyError: no language has it."""
    texts = _TEXTS.get(lang) or _TEXTS[FALLBACK]
    if key in texts:
        return texts[key]
    found = _TEXTS[FALLBACK].get(key)
    if found is None:
        found = next((t[key] for t in _TEXTS.values() if key in t), None)
    if found is None:
        raise KeyError(key)
    if (lang, key) not in _missing:
        _missing.add((lang, key))
        log.warning("no %r text in %r: shown in another language", key, lang)
    return found


def has(key: str) -> bool:
    """Whether some language has the text ``key``."""
    return any(key in texts for texts in _TEXTS.values())


def text(lang: str, key: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in."""
    found = entry(lang, key)
    if callable(found):
        return found(**params)
    return found.format(**params)


def keys(lang: str) -> tuple[str, ...]:
    """Every key ``lang``'s catalog has, in its order (the tests compare the languages)."""
    return tuple(_TEXTS[lang])


def parameters(lang: str, key: str) -> set[str]:
    """The named parameters of ``lang``'s entry ``key``: a template's fields or a function's
    arguments."""
    found = _TEXTS[lang][key]
    if callable(found):
        return set(found.__code__.co_varnames[: found.__code__.co_argcount])
    fields = (name for _, name, _, _ in string.Formatter().parse(found) if name is not None)
    return {f.split(".")[0].split("[")[0] for f in fields if f}


def commands(lang: str) -> dict[str, str]:
    """The command names and descriptions in ``lang``, by their English source text; the
    house rules' choices (``option.RULE.VALUE``) are named as the texts name them."""
    own: dict[str, str] = dict(_MODULES[lang].COMMANDS)
    for key, english in _TEXTS[FALLBACK].items():
        if key.count(".") == 2 and key.startswith("option.") and not key.endswith(".about"):
            said = _TEXTS[lang].get(key)
            if isinstance(said, str) and isinstance(english, str):
                own.setdefault(english, said)
    return own


def discord_locales(lang: str) -> tuple[str, ...]:
    """The Discord locales (``zh-CN``) whose clients see ``lang``'s command names."""
    return tuple(_MODULES[lang].DISCORD_LOCALES)
