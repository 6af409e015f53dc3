"""The socket protocol: what a table client may ask, and the answers.

Every message is one JSON object with its kind in ``t``, each kind one typed definition in
:mod:`bot.web.frames` (the client's JSDoc typedefs in ``static/frames.js`` say the same,
checked by a test). A request may carry an ``id``, which its answer repeats. A request is
read in one place, :func:`read_request`, into its type, or refused: no JSON object, a field
of the wrong type (``web_bad_message``), a kind the table does not know
(``web_unknown_request``, naming it); JSON nested too deep to read closes the socket
(:class:`Malformed`: code 1007). The server is the only judge: an action is checked by the
table service exactly as a slash command or a DM button is (seat, turn, question token, the
engine's rules) and a refusal changes nothing.

Client → server:

- ``act`` ``{verb, cards?, token?}``: play CARDS, pass, yield, burn CARDS, noburn, declare,
  nodeclare, revolt, norevolt, keephead, nokeephead, return CARDS — answered ``ok`` or
  ``refused``;
- ``hint``: the hint now — answered ``hint`` ``{verb, cards, text}``;
- ``describe`` ``{cards}``: a selection in words and whether it is a legal play now —
  answered ``described`` ``{cards, text, legal}``;
- ``back`` (take the seat back from 托管), ``auto`` (托管 on request), ``again`` (another
  series once one is over), ``goon`` (继续: the game's result seen) — ``ok`` or ``refused``;
- ``shown`` ``{shown}``: the page is shown or hidden (the Page Visibility API; said at each
  ``hello`` and each change) — not answered; while shown, the seat's questions notify nobody
  through Discord;
- ``lang`` ``{lang}``: switch language (a new ``hello`` and ``state``);
- ``ping``: answered ``pong`` (the client's heartbeat; the server pings too).

Server → client: ``hello`` ``{seat, watching, lang, langs, tag, strings, words, faces}``
once per connection (and per language switch): the client's texts, how its language joins
words (``words``: a list's separator, a line's, how many of a card) and what a card face
shows (``faces``: the rank letters, each rank's index, the suits' glyphs) — the client holds
no word of any language; ``state`` ``{v, now, table, me}`` after every change (``table``:
:func:`bot.web.wire.public_part`, ``me``: the seat's part or null); ``ok``, ``refused``
``{text}``, ``hint``, ``described``, ``pong``; ``gone`` ``{text}`` (the table ended, or the
link or the person was refused: the socket closes with code 4000 or 4001 and the client does
not come back), ``wait`` ``{text}`` (not now: the table is coming back, the server is full —
the socket closes with code 4002 and the client comes back by itself, 1 to 5 s apart,
showing the text meanwhile). Codes: :data:`bot.web.hub.GONE`, ``REFUSED``, ``RETRY``. A
frame of a kind the client does not know is logged in its console and skipped.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

from bot.service.errors import REFUSALS, UserError
from bot.service.live import LiveTable
from bot.text.cards import action_text, hand_text, play_label
from bot.text.catalog import text
from bot.text.langs import LANGS, LANGUAGE_TAGS
from bot.text.params import SeatNamer
from bot.text.refusals import refusal_text
from bot.web.frames import (
    ActRequest,
    AgainRequest,
    AutoRequest,
    BackRequest,
    Described,
    DescribeRequest,
    GoOnRequest,
    Hello,
    Hint,
    HintRequest,
    LangRequest,
    Ok,
    PingRequest,
    Pong,
    Ref,
    Refused,
    Request,
    ShownRequest,
    encode,
)
from bot.web.hub import Connection, Hub, seat_of
from bot.web.strings import card_faces, client_strings, client_words
from engine.cards import CardError, format_cards, parse_cards
from engine.hands import HandError, classify

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger("gouji.web")

MAX_CARDS_TEXT = 120  # the longest card text looked at
MAX_REF = 40  # the longest id repeated (longer: none)
MAX_VERB = 20  # the longest verb looked at
MAX_KIND = 20  # the longest unknown kind repeated in its refusal


class Malformed(Exception):
    """A message not worth an answer (JSON nested deeper than it can be read): the socket
    is closed with code 1007 and this reason."""


class BadRequest(UserError):
    """A request that cannot be read: refused with ``key``, its id repeated if it had one."""

    def __init__(self, ref: Ref, key: str = "web_bad_message", **params: object) -> None:
        super().__init__(key, **params)
        self.ref = ref


def _ref(message: dict[str, object]) -> Ref:
    """A message's id if it is one to repeat: a number or a short string."""
    ref = message.get("id")
    if isinstance(ref, bool) or not isinstance(ref, int | str) or len(str(ref)) >= MAX_REF:
        return None
    return ref


def _text(message: dict[str, object], key: str, ref: Ref) -> str:
    value = message.get(key)
    if not isinstance(value, str):
        raise BadRequest(ref)
    return value


def _text_or_none(message: dict[str, object], key: str, ref: Ref) -> str | None:
    return None if message.get(key) is None else _text(message, key, ref)


def read_request(raw: str) -> Request:
    """The request a client sent, as its type (:mod:`bot.web.frames`). :class:`BadRequest`
    for one that is no JSON object, has a field of the wrong type or is of no kind the table
    knows (``web_unknown_request``); :class:`Malformed` for JSON nested too deep to read."""
    try:
        message = json.loads(raw)
    except ValueError:
        raise BadRequest(None) from None
    except RecursionError:
        raise Malformed("message nested too deep") from None
    if not isinstance(message, dict):
        raise BadRequest(None)
    ref = _ref(message)
    kind = message.get("t")
    if not isinstance(kind, str):
        raise BadRequest(ref)
    request: Request
    if kind == "act":
        verb = _text(message, "verb", ref)[:MAX_VERB]
        cards, token = _text_or_none(message, "cards", ref), _text_or_none(message, "token", ref)
        request = ActRequest(t="act", verb=verb, cards=cards, token=token)
    elif kind == "describe":
        request = DescribeRequest(t="describe", cards=_text(message, "cards", ref))
    elif kind == "lang":
        lang = message.get("lang")
        if lang not in LANGS:
            raise BadRequest(ref)
        request = LangRequest(t="lang", lang=str(lang))
    elif kind == "hint":
        request = HintRequest(t="hint")
    elif kind == "back":
        request = BackRequest(t="back")
    elif kind == "auto":
        request = AutoRequest(t="auto")
    elif kind == "again":
        request = AgainRequest(t="again")
    elif kind == "goon":
        request = GoOnRequest(t="goon")
    elif kind == "shown":
        shown = message.get("shown")
        if not isinstance(shown, bool):
            raise BadRequest(ref)
        request = ShownRequest(t="shown", shown=shown)
    elif kind == "ping":
        request = PingRequest(t="ping")
    else:
        raise BadRequest(ref, "web_unknown_request", kind=kind[:MAX_KIND])
    if ref is not None:
        request["id"] = ref
    return request


def hello(conn: Connection, seat: int | None) -> str:
    """The first message of a connection: who it is, the client's words and card faces."""
    return encode(
        Hello(
            t="hello",
            seat=seat,
            watching=seat is None,
            lang=conn.lang,
            langs=list(LANGS),  # the language button goes round them
            tag=LANGUAGE_TAGS[conn.lang],
            strings=client_strings(conn.lang),
            words=client_words(conn.lang),
            faces=card_faces(),
        )
    )


class Requests:
    """Answers one connection's messages (see the module doc)."""

    def __init__(self, service: TableService, hub: Hub) -> None:
        self.service, self.hub = service, hub

    def _namer(self, live: LiveTable, lang: str) -> SeatNamer:
        info = self.service.tables.info(live)
        names = self.hub.names.names(info, lang)
        return SeatNamer(names, {u: self.hub.names.display_name(u) for u in info.users()})

    def refusal(self, live: LiveTable, exc: Exception, lang: str) -> str:
        """A refusal in ``lang`` (its one wording), seats named as the table names them;
        how to go on is the page's own buttons."""
        try:
            return refusal_text(exc, lang, self._namer(live, lang))
        except KeyError:  # a refusal with no text of its own
            return text(lang, "web_bad_message")

    async def handle(self, conn: Connection, live: LiveTable, raw: str) -> None:
        """Answer one message (a refusal for anything malformed; :class:`Malformed` for a
        message nested too deep to read)."""
        try:
            request = read_request(raw)
        except BadRequest as bad:
            conn.reply(self._refused(live, bad, bad.ref, conn.lang))
            return
        ref = request.get("id")
        try:
            answer = await self._answer(conn, live, request, ref)
        except REFUSALS as exc:
            answer = self._refused(live, exc, ref, conn.lang)
        except Exception:  # a bug: logged, and the person told it went wrong
            log.exception("table %s: a socket's %r failed", live.id, request["t"])
            answer = encode(Refused(t="refused", id=ref, text=text(conn.lang, "internal")))
        if answer is not None:
            conn.reply(answer)

    def _refused(self, live: LiveTable, exc: Exception, ref: Ref, lang: str) -> str:
        return encode(Refused(t="refused", id=ref, text=self.refusal(live, exc, lang)))

    async def _answer(
        self, conn: Connection, live: LiveTable, request: Request, ref: Ref
    ) -> str | None:
        if request["t"] == "ping":
            return encode(Pong(t="pong", id=ref))
        if request["t"] == "lang":
            conn.lang = request["lang"]
            conn.reply(hello(conn, seat_of(self.service.tables.info(live), conn.user_id)))
            self.hub.refresh(live)
            return None
        if request["t"] == "shown":
            self.hub.show(conn, live, request["shown"])
            return None  # (no answer: an ``ok`` would end the page's request in flight)
        user = conn.user_id
        if user is None:
            raise UserError("web_spectator")
        if not self.service.tables.is_open(live):
            raise UserError("web_no_table")
        if request["t"] == "act":
            cards, token = request.get("cards"), request.get("token")
            await self.service.act(live, user, request["verb"], cards, token=token)
        elif request["t"] == "hint":
            suggestion = self.service.hint(live, user)
            shown = suggestion.cards
            cards = str(shown) if shown is not None else ""
            action = action_text(conn.lang, suggestion.verb, cards or None)
            return encode(
                Hint(
                    t="hint",
                    id=ref,
                    verb=suggestion.verb,
                    cards=cards,
                    text=text(conn.lang, "hint", action=action),
                )
            )
        elif request["t"] == "describe":
            return self._describe(conn, live, user, request["cards"], ref)
        elif request["t"] == "back":
            await self.service.back(live, user)
        elif request["t"] == "auto":
            await self.service.hand_over(live, user)
        elif request["t"] == "goon":
            await self.service.go_on(live, user)
        else:
            await self.service.start(live, user, again=True)
        return encode(Ok(t="ok", id=ref))

    def _describe(self, conn: Connection, live: LiveTable, user: int, cards: str, ref: Ref) -> str:
        """A selection in words: the play it makes ("five 8s + two 2s (7 cards)") or, not a
        hand, the cards grouped; ``legal``: it is one of the seat's plays now."""
        try:
            parsed = parse_cards(cards[:MAX_CARDS_TEXT])
        except CardError:
            raise UserError("bad_cards", typed=cards[:40]) from None
        if not parsed:
            return encode(Described(t="described", id=ref, cards="", text="", legal=False))
        written = format_cards(parsed)
        seat = seat_of(self.service.tables.info(live), user)
        plays = self.service.views.ranked_plays(live, seat) if seat is not None else []
        try:
            play = classify(parsed)
        except HandError:
            words, legal = hand_text(parsed, conn.lang), False
        else:
            words = play_label(play, conn.lang)
            legal = any(p.canonical == play.canonical for p in plays)
        return encode(Described(t="described", id=ref, cards=written, text=words, legal=legal))


__all__ = ["BadRequest", "Malformed", "Requests", "hello", "read_request"]
