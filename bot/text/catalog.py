"""The bot's texts as a player reads them: the one lookup, places and tribute kinds.

``text(lang, key, **params)`` formats a message from the language's catalog
(:mod:`bot.text.langs`: one module per language, a missing key falls back to English);
``lang_of(locale)`` maps a Discord locale to a language. Refusals:
:func:`bot.text.refusals.refusal_text`. Command names and descriptions:
:func:`bot.text.langs.commands`.
"""

from __future__ import annotations

from bot.text.langs import LANGS, LANGUAGE_NAMES, has, lang_of, text

__all__ = ["LANGS", "LANGUAGE_NAMES", "has", "lang_of", "place_name", "seat_name", "text"]


def tribute_kind(lang: str, kind: str) -> str:
    """The name of a kind of tribute owed (engine.scoring's kinds): 点贡, ``point tribute
    (点贡)``…"""
    return text(lang, f"tribute.{kind}")


def seat_name(lang: str, seat: int, person: str | None, ai: bool) -> str:
    """A seat as every front end names it: its person's name, else "AI 3" for an AI seat,
    else "(empty)".

    >>> seat_name("en", 3, None, True), seat_name("zh", 2, None, False), seat_name("en", 1, "bo", False)
    ('AI 3', '（空）', 'bo')
    """
    if person is not None:
        return person
    return text(lang, "ai_name", seat=seat) if ai else text(lang, "seat_empty")


def place_name(lang: str, place: int | None) -> str:
    """头科 … 大落 for place 1 … 6; in English with the Chinese name: ``1st (头科)``; no
    place: ""."""
    return "" if place is None else text(lang, f"place.{place}")
