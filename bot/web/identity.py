"""Who a socket is: the one question every way of signing in answers.

A :class:`Gate` looks at the request that opens a socket and answers with a
:class:`Visitor` — which table, which user (None: a spectator), in which language — or
refuses. The table client and the socket protocol never see how: ``gouji web`` and the
Discord bot's personal links use :class:`TicketGate` (a signed ticket in the link,
:mod:`bot.service.tickets`); a Discord Activity's sign-in (:mod:`bot.web.activity`) asks
Discord who the person is and at which table, then hands out a ticket too, so its socket
goes through the same gate. The seat is looked up from the user at the table each time it is
needed, so a player who moves keeps their link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from bot.service.errors import UserError
from bot.service.tickets import Tickets
from bot.text.langs import LANGS


@dataclass(frozen=True, slots=True)
class Visitor:
    """A person at a table: ``user_id`` None for a spectator; ``lang`` their language if the
    way they came says it (else the browser's); until when they may stay (``expires``: unix
    time, 0: for ever) and the link they came with (``ticket``)."""

    table_id: int
    user_id: int | None
    lang: str | None = None
    expires: int = 0
    ticket: str = ""


class Gate(Protocol):
    """How a front end learns who opens a socket."""

    def admit(self, request: web.Request) -> Visitor:
        """The visitor, or ``UserError`` (``bad_link``, ``link_expired``): the socket is
        refused with that reason."""
        ...


class TicketGate:
    """Visitors by the ticket in the socket's address (``/ws?t=TICKET``; the page keeps it
    in the link's fragment, so it reaches neither logs nor referrers)."""

    def __init__(self, tickets: Tickets) -> None:
        self.tickets = tickets

    def admit(self, request: web.Request) -> Visitor:
        token = request.query.get("t", "")
        ticket = self.tickets.check(token)
        lang = request.query.get("lang")
        return Visitor(
            ticket.table_id, ticket.user_id, lang if lang in LANGS else None, ticket.expires, token
        )


__all__ = ["Gate", "TicketGate", "UserError", "Visitor"]
