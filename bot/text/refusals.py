"""The engine's refusals in the player's language.

The engine refuses an action with an :class:`~engine.actions.IllegalActionError` carrying a
``code`` and ``params``; the language catalogs (:mod:`bot.text.langs`) hold the text players
read for every code as ``refusal.CODE`` (a test checks that none is missing and that every
language uses the engine's parameters) — the one table: Discord (:func:`bot.text.catalog.
error_text`) and ``gouji play`` both read it. Bad card notation (:class:`~engine.cards.CardError`)
and cards that are no hand (:class:`~engine.hands.HandError`) get a message of their own.
Pure text, no Discord: ``gouji play`` uses it and the bot can.

>>> from engine.actions import IllegalActionError
>>> refusal_text(IllegalActionError("lead_no_pass"), "zh")
'该你出牌（发牌），不能过'
>>> refusal_text(IllegalActionError("declare_time"), "en")
'it is time for declaring (宣点): declare, or do not declare'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.text.cards import action_text
from bot.text.langs import has, text
from engine.actions import IllegalActionError
from engine.cards import CardError
from engine.hands import HandError

#: The parameters of a refusal that name seats (``seats``: several, "3, 4").
SEAT_PARAMS = frozenset({"seat", "seats", "q", "opp", "to"})


def seat_words(seat: str, lang: str, name_of: Callable[[int], str] | None = None) -> str:
    """A seat as a refusal names it: ``bo (seat 3)`` / ``bo（3 号位）``, without a name
    ``seat 3`` / ``3 号位`` (anything that is no seat number stays as it is).

    >>> seat_words("3", "zh"), seat_words("3", "en", lambda s: "bo")
    ('3 号位', 'bo (seat 3)')
    """
    if not seat.strip().isdigit():
        return seat
    n = int(seat)
    name = name_of(n) if name_of is not None and 0 <= n < 6 else ""
    return text(lang, "seat.named", name=name, n=n) if name else text(lang, "seat.number", n=n)


def worded(
    params: dict[str, Any], lang: str, name_of: Callable[[int], str] | None = None
) -> dict[str, Any]:
    """A refusal's parameters with its seats named (:func:`seat_words`) and its verb in a
    player's words."""
    out = dict(params)
    for key in SEAT_PARAMS & out.keys():
        seats = str(out[key]).split(",")
        out[key] = text(lang, "sep.list").join(seat_words(s.strip(), lang, name_of) for s in seats)
    if "verb" in out:
        out["verb"] = action_text(lang, str(out["verb"]), how="verb")
    return out


def refusal_text(exc: Exception, lang: str) -> str:
    """Why ``exc`` refused an action or cards, in ``lang`` (``zh`` or ``en``)."""
    if isinstance(exc, IllegalActionError):
        if has(f"refusal.{exc.code}"):
            try:
                return text(lang, f"refusal.{exc.code}", **worded(exc.params, lang))
            except (KeyError, IndexError):
                pass
        return str(exc)
    if isinstance(exc, CardError):
        return text(lang, "refusal.bad_cards", error=str(exc))
    if isinstance(exc, HandError):
        return text(lang, "refusal.not_a_hand", error=str(exc))
    return str(exc)
