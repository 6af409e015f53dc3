"""The bot's texts as a player reads them: the one lookup, places, tribute kinds and refusals.

``text(lang, key, **params)`` formats a message from the language's catalog
(:mod:`bot.text.langs`: one module per language, a missing key falls back to English);
``lang_of(locale)`` maps a Discord locale to a language; ``error_text(exc, lang)`` turns a
:class:`~bot.service.errors.UserError` or an engine error into a reply (engine errors by their
``code``/``params``: the catalogs' ``refusal.CODE``, else their English message). Command names
and descriptions: :func:`bot.text.langs.commands`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bot.text.cards import readable_params
from bot.text.langs import LANGS, LANGUAGE_NAMES, entry, has, lang_of, text
from bot.text.refusals import worded

__all__ = ["LANGS", "LANGUAGE_NAMES", "error_text", "has", "lang_of", "place_name", "text"]


def tribute_kind(lang: str, kind: str) -> str:
    """The name of a kind of tribute owed (engine.scoring's kinds): 点贡, ``point tribute
    (点贡)``…"""
    return text(lang, f"tribute.{kind}")


def place_name(lang: str, place: int | None) -> str:
    """头科 … 大落 for place 1 … 6; in English with the Chinese name: ``1st (头科)``; no
    place: ""."""
    return "" if place is None else text(lang, f"place.{place}")


@runtime_checkable
class Refusal(Protocol):
    """A refusal worded by this catalog: a message ``key`` and its ``params`` (the table
    service's ``UserError``)."""

    key: str
    params: dict[str, Any]


def error_text(exc: Exception, lang: str, name_of: Callable[[int], str] | None = None) -> str:
    """A short reply for a refused request, in ``lang``, its cards in words (and its seats
    named by ``name_of``, when given)."""
    if isinstance(exc, Refusal):
        return text(lang, exc.key, **readable_params(exc.params, lang))
    code = getattr(exc, "code", None)
    params = worded(readable_params(getattr(exc, "params", None) or {}, lang), lang, name_of)
    if isinstance(code, str) and has(f"refusal.{code}"):
        template = entry(lang, f"refusal.{code}")
        if isinstance(template, str):
            try:
                return text(lang, "refusal.sentence", template=template).format(**params)
            except (KeyError, IndexError):
                pass
    return text(lang, "engine", message=text(lang, "refusal.message", message=str(exc)))
