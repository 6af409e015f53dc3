"""Refusals in the player's language: one wording for Discord, the browser table and the
terminal (:func:`refusal_text`).

The table service refuses with a ``UserError`` (a catalog ``key`` and typed ``params``); the
engine with an :class:`~engine.actions.IllegalActionError` carrying a ``code`` and ``params``,
worded by the catalogs' ``refusal.CODE`` (a test checks that none is missing and that every
language uses the engine's parameters). Bad card notation (:class:`~engine.cards.CardError`)
and cards that are no hand (:class:`~engine.hands.HandError`) get a message of their own. How
to go on is the front end's: Discord adds the catalogs' ``how_KEY`` (its commands).

>>> from engine.actions import IllegalActionError
>>> refusal_text(IllegalActionError("lead_no_pass"), "zh")
'该你出牌（发牌），不能过。'
>>> refusal_text(IllegalActionError("declare_time"), "en")
'It is time for declaring (宣点): declare, or do not declare.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bot.text.cards import action_text, readable_params
from bot.text.langs import entry, has, text
from bot.text.params import Namer, SeatNumbers, params_text
from engine.cards import CardError
from engine.hands import HandError

#: The most characters of typed text a refusal quotes.
QUOTED = 40
#: How a refusal opens with cards (then put in words, capitalised as a sentence opens).
CARD_FIRST = ("{cards}", "{standing}")
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


@runtime_checkable
class Refusal(Protocol):
    """A refusal worded by the catalogs: a message ``key`` and its ``params`` (the table
    service's ``UserError``)."""

    key: str
    params: dict[str, Any]


def refusal_text(
    exc: Exception, lang: str, names: Namer | None = None, *, how: bool = False
) -> str:
    """Why ``exc`` refused a request, in ``lang`` — the one wording of every refusal, for
    every front end: the service's (its ``key``), the engine's (its ``code``: the catalogs'
    ``refusal.CODE`` as a sentence), cards that do not parse or form no hand; cards in
    words, seats named by ``names`` (else by number). ``how``: followed by the catalog's
    ``how_KEY`` (or ``how_CODE``) when it has one — how to go on with the Discord commands,
    which only Discord says (a page has its own buttons, the terminal its own words).

    >>> from bot.service.errors import UserError
    >>> refusal_text(UserError("not_held", cards="KK"), "en")
    'You do not hold a pair of Ks.'
    >>> refusal_text(UserError("not_held", cards="KK"), "zh", how=True)
    '你手里没有 一对 K。用 /gouji hand 看看手牌。'
    """
    if isinstance(exc, Refusal):
        key = exc.key
        params = params_text(readable_params(exc.params, lang), lang, names or SeatNumbers())
        said = text(lang, key, **params)
    elif isinstance(exc, CardError):  # as the service refuses them ("bad_cards")
        key = "bad_cards"
        said = text(lang, key, typed=_quoted(exc.typed if exc.typed is not None else str(exc)))
    elif isinstance(exc, HandError):
        key, said = "", text(lang, "refusal.not_a_hand", error=str(exc))
    else:
        key = str(getattr(exc, "code", "") or "")
        said = _engine_text(exc, key, lang, names.seat if names is not None else None)
    if how and key and has(f"how_{key}"):
        return text(lang, "refusal.how", said=said, how=text(lang, f"how_{key}"))
    return said


def _quoted(typed: str) -> str:
    """Typed text as a refusal quotes it: one line, at most :data:`QUOTED` characters."""
    line = " ".join(typed.split())
    return line if len(line) <= QUOTED else line[: QUOTED - 1] + "…"


def _engine_text(exc: Exception, code: str, lang: str, name_of: Callable[[int], str] | None) -> str:
    """The engine's refusal ``code`` as a sentence, its seats named; without a text of its
    own, its message."""
    params = worded(readable_params(getattr(exc, "params", None) or {}, lang), lang, name_of)
    if code and has(f"refusal.{code}"):
        template = entry(lang, f"refusal.{code}")
        if isinstance(template, str):
            try:
                said = text(lang, "refusal.sentence", template=template).format(**params)
            except (KeyError, IndexError):
                pass
            else:  # cards in words opening the sentence: "A pair of Ks does not beat …"
                return said[:1].upper() + said[1:] if template.startswith(CARD_FIRST) else said
    return text(lang, "engine", message=text(lang, "refusal.message", message=str(exc)))
