"""Tickets: signed links that let one front end send a person to another.

A ticket names a table and who holds it — a user (their seat is looked up when they come:
it follows them if they move) or nobody (a spectator) — and when it expires, signed with the
server's secret (HMAC-SHA256), so a link cannot be forged or pointed at another seat. The
Discord bot hands a seated player a personal link to the browser table (``/gouji hand``, the
DM controller); ``gouji web`` gives each seat its link. The browser front end checks them.

>>> tickets = Tickets(b"secret")
>>> token = tickets.issue(12, 345, expires=0)
>>> token
'12.345.0.meXsRafVNUBGbhL0nJGXdg'
>>> tickets.check(token, now=1e9)
Ticket(table_id=12, user_id=345, expires=0)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from bot.service.errors import UserError
from bot.text.langs import LANGS

#: How long a personal link from Discord stays good (seconds).
LINK_LIFE = 24 * 3600.0
SPECTATOR = "s"  # the user part of a spectator's ticket


@dataclass(frozen=True, slots=True)
class Ticket:
    """A checked ticket: the table, the user (None: a spectator) and the expiry (unix time;
    0: never)."""

    table_id: int
    user_id: int | None
    expires: int


class Tickets:
    """Issues and checks tickets with one secret (``GOUJI_WEB_SECRET``; random when not
    given, so that the links of one process die with it)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or secrets.token_bytes(32)

    def _sign(self, body: str) -> str:
        digest = hmac.new(self.secret, body.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def issue(self, table_id: int, user_id: int | None, *, expires: float | None = None) -> str:
        """A ticket to ``table_id`` for ``user_id`` (None: to watch), good until ``expires``
        (unix time; default :data:`LINK_LIFE` from now; 0: forever)."""
        if expires is None:
            expires = time.time() + LINK_LIFE
        who = SPECTATOR if user_id is None else str(int(user_id))
        body = f"{int(table_id)}.{who}.{int(expires)}"
        return f"{body}.{self._sign(body)}"

    def check(self, token: str, *, now: float | None = None) -> Ticket:
        """The ticket ``token`` stands for, or ``UserError('bad_link')`` (malformed,
        forged) / ``UserError('link_expired')``."""
        parts = (token or "").strip()[:200].split(".")
        if len(parts) != 4:
            raise UserError("bad_link")
        table, who, expires, signature = parts
        body = f"{table}.{who}.{expires}"
        if not hmac.compare_digest(self._sign(body), signature):
            raise UserError("bad_link")
        if not (table.isdigit() and expires.isdigit() and (who == SPECTATOR or who.isdigit())):
            raise UserError("bad_link")
        ends = int(expires)
        if ends and ends < (time.time() if now is None else now):
            raise UserError("link_expired")
        return Ticket(int(table), None if who == SPECTATOR else int(who), ends)


class WebLinks:
    """Personal links to the browser table at ``base_url`` (``GOUJI_WEB_URL``: where people
    reach the bot's web server), signed by ``tickets`` — the one the server checks with."""

    def __init__(self, base_url: str, tickets: Tickets) -> None:
        self.base_url = base_url.rstrip("/")
        self.tickets = tickets

    def personal(self, table_id: int, user_id: int, lang: str | None = None) -> str:
        """``user_id``'s link to ``table_id`` (good for :data:`LINK_LIFE`), the page in
        ``lang``: ``https://gouji.example/?lang=zh#12.345.1700000000.sig``."""
        query = f"?lang={lang}" if lang in LANGS else ""
        return f"{self.base_url}/{query}#{self.tickets.issue(table_id, user_id)}"
