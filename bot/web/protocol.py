"""The socket protocol: what a table client may ask, and the answers.

Every message is one JSON object with its type in ``t``; a request may carry an ``id``,
which its answer repeats. The server is the only judge: an action is checked by the table
service exactly as a slash command or a DM button is (seat, turn, question token, the
engine's rules) and a refusal changes nothing.

Client → server:

- ``act`` ``{verb, cards?, token?}``: play CARDS, pass, yield, burn CARDS, noburn, declare,
  nodeclare, revolt, norevolt, keephead, nokeephead, return CARDS — answered ``ok`` or
  ``refused``;
- ``hint``: the hint now — answered ``hint`` ``{verb, cards, text}``;
- ``describe`` ``{cards}``: a selection in words and whether it is a legal play now —
  answered ``described`` ``{cards, text, legal}``;
- ``back`` (take the seat back from 托管), ``auto`` (托管 on request), ``again`` (another
  series once one is over) — ``ok`` or ``refused``;
- ``lang`` ``{lang}``: switch language (a new ``hello`` and ``state``);
- ``ping``: answered ``pong`` (the client's heartbeat; the server pings too).

Server → client: ``hello`` ``{seat, watching, lang, strings, ranks}`` once per connection
(and per language switch), ``state`` ``{v, now, table, me}`` after every change (``table``:
:func:`bot.web.wire.public_part`, ``me``: the seat's part or null), ``ok``, ``refused``
``{text}``, ``hint``, ``described``, ``pong``, ``gone`` ``{text}`` (the table ended, or the
link or the person was refused: the socket closes with code 4000 or 4001 and the client does
not come back), ``wait`` ``{text}`` (not now: the table is coming back, the server is full —
the socket closes with code 4002 and the client comes back by itself, 1 to 5 s apart,
showing the text meanwhile). Codes: :data:`bot.web.hub.GONE`, ``REFUSED``, ``RETRY``.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from bot.service.errors import REFUSALS, UserError
from bot.service.live import LiveTable
from bot.text.cards import action_text, hand_text, play_label, readable_params
from bot.text.catalog import error_text, text
from bot.text.langs import LANGS, LANGUAGE_TAGS
from bot.text.params import params_text
from bot.web.hub import Connection, Hub, frame, seat_of
from bot.web.strings import client_strings
from bot.web.wire import SeatNamer
from engine.cards import RANK_LETTERS, CardError, format_cards, parse_cards
from engine.hands import HandError, classify

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger("gouji.web")

ACT = "act"
MAX_CARDS_TEXT = 120  # the longest card text looked at


class Malformed(Exception):
    """A message not worth an answer (JSON nested deeper than it can be read): the socket
    is closed with code 1007 and this reason."""


def hello(conn: Connection, seat: int | None) -> str:
    """The first message of a connection: who it is and the client's strings."""
    return frame(
        "hello",
        seat=seat,
        watching=seat is None,
        lang=conn.lang,
        langs=LANGS,  # the language button goes round them
        tag=LANGUAGE_TAGS[conn.lang],
        strings=client_strings(conn.lang),
        ranks=RANK_LETTERS,
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
        """A refusal in ``lang``, seats named as the table names them."""
        if isinstance(exc, UserError):
            params = params_text(readable_params(exc.params, lang), lang, self._namer(live, lang))
            try:
                return text(lang, exc.key, **params)
            except KeyError:
                return text(lang, "web_bad_message")
        return error_text(exc, lang)

    async def handle(self, conn: Connection, live: LiveTable, raw: str) -> None:
        """Answer one message (a refusal for anything malformed; :class:`Malformed` for a
        message nested too deep to read)."""
        try:
            message = json.loads(raw)
        except ValueError:
            message = None
        except RecursionError:
            raise Malformed("message nested too deep") from None
        if not isinstance(message, dict):
            conn.reply(frame("refused", id=None, text=text(conn.lang, "web_bad_message")))
            return
        ref = message.get("id")
        ref = ref if isinstance(ref, int | str) and len(str(ref)) < 40 else None
        kind = message.get("t")
        try:
            answer = await self._answer(conn, live, kind, message, ref)
        except REFUSALS as exc:
            answer = frame("refused", id=ref, text=self.refusal(live, exc, conn.lang))
        except Exception:  # a bug: logged, and the person told it went wrong
            log.exception("table %s: a socket's %r failed", live.id, kind)
            answer = frame("refused", id=ref, text=text(conn.lang, "internal"))
        if answer is not None:
            conn.reply(answer)

    async def _answer(
        self, conn: Connection, live: LiveTable, kind: Any, message: dict[str, Any], ref: Any
    ) -> str | None:
        if kind == "ping":
            return frame("pong", id=ref)
        if kind == "lang":
            lang = message.get("lang")
            if lang not in LANGS:
                raise UserError("web_bad_message")
            conn.lang = lang
            conn.reply(hello(conn, seat_of(self.service.tables.info(live), conn.user_id)))
            self.hub.refresh(live)
            return None
        if kind not in (ACT, "hint", "describe", "back", "auto", "again"):
            raise UserError("web_bad_message")
        user = conn.user_id
        if user is None:
            raise UserError("web_spectator")
        if not self.service.tables.is_open(live):
            raise UserError("web_no_table")
        channel = self.service.tables.info(live).channel_id
        if kind == ACT:
            verb, cards, token = message.get("verb"), message.get("cards"), message.get("token")
            if not isinstance(verb, str) or not isinstance(cards, str | None):
                raise UserError("web_bad_message")
            if not isinstance(token, str | None):
                raise UserError("web_bad_message")
            await self.service.act(live, user, verb[:20], cards, token=token)
        elif kind == "hint":
            suggestion = self.service.hint(live, user)
            shown = suggestion.cards
            cards = str(shown) if shown is not None else ""
            return frame(
                "hint",
                id=ref,
                verb=suggestion.verb,
                cards=cards,
                text=text(
                    conn.lang, "hint", action=action_text(conn.lang, suggestion.verb, cards or None)
                ),
            )
        elif kind == "describe":
            return self._describe(conn, live, user, message.get("cards"), ref)
        elif kind == "back":
            await self.service.back(channel, user)
        elif kind == "auto":
            await self.service.hand_over(channel, user)
        else:
            await self.service.start(channel, user, again=True)
        return frame("ok", id=ref)

    def _describe(self, conn: Connection, live: LiveTable, user: int, cards: Any, ref: Any) -> str:
        """A selection in words: the play it makes ("five 8s + two 2s (7 cards)") or, not a
        hand, the cards grouped; ``legal``: it is one of the seat's plays now."""
        if not isinstance(cards, str):
            raise UserError("web_bad_message")
        try:
            parsed = parse_cards(cards[:MAX_CARDS_TEXT])
        except CardError:
            raise UserError("bad_cards", typed=cards[:40]) from None
        if not parsed:
            return frame("described", id=ref, cards="", text="", legal=False)
        written = format_cards(parsed)
        seat = seat_of(self.service.tables.info(live), user)
        plays = self.service.ranked_plays(live, seat) if seat is not None else []
        try:
            play = classify(parsed)
        except HandError:
            return frame(
                "described", id=ref, cards=written, text=hand_text(parsed, conn.lang), legal=False
            )
        legal = any(p.canonical == play.canonical for p in plays)
        return frame(
            "described", id=ref, cards=written, text=play_label(play, conn.lang), legal=legal
        )


__all__ = ["Requests", "hello"]
