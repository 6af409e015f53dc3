"""How many sockets may be open at once: per person, per address, and in all.

A socket costs the process a file descriptor and a share of every update of its table, so a
valid link must not open any number of them. A socket is counted from the moment its link is
checked until it closes, under three keys:

- the person (:func:`person_of`): a user at a table (however many links they were given, an
  Activity signing in gives one each time), or a spectator's link — :data:`PER_PERSON`;
- the address it comes from (:func:`address_of`) — :data:`PER_ADDRESS`;
- every socket of the process — ``total`` (the door's connections less a margin, so that a
  refusal can still be said).

The first two refusals are final (the person has enough windows open); the third is a wait:
the server is full, and the page tries again by itself.
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Hashable
from typing import TypeVar

from aiohttp import web

from bot.web.identity import Visitor

PER_PERSON = 4  # sockets of one person at one table (a phone, a desktop, the Activity…)
PER_ADDRESS = 32  # sockets from one address
MARGIN = 64  # connections kept beyond the sockets' total: pages, files, refusals

TOO_MANY_MINE = "web_too_many_sockets"
TOO_MANY_HERE = "web_too_many_here"
FULL = "web_server_busy"

K = TypeVar("K", bound=Hashable)


def person_of(visitor: Visitor) -> Hashable:
    """Whose socket it is: a user at a table, else (a spectator) the link itself."""
    if visitor.user_id is not None:
        return (visitor.table_id, visitor.user_id)
    return ("link", visitor.ticket)


def address_of(request: web.BaseRequest) -> str | None:
    """The address a request comes from: its peer's; from this machine (a reverse proxy in
    front of the bot), the last address of ``X-Forwarded-For`` — the one the proxy saw —
    and without one, None: this machine itself (its operator, a benchmark), not counted."""
    peer = request.remote
    if peer is None:
        return None
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    if not (mapped or ip).is_loopback:
        return peer
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
    return forwarded[:64] or None


class SocketLimits:
    """The sockets open now, by person and address (see the module doc)."""

    def __init__(
        self, total: int, *, per_person: int = PER_PERSON, per_address: int = PER_ADDRESS
    ) -> None:
        self.total, self.per_person, self.per_address = total, per_person, per_address
        self.open = 0
        self.people: Counter[Hashable] = Counter()
        self.addresses: Counter[str] = Counter()

    def take(self, person: Hashable, address: str | None) -> str | None:
        """Count one socket in: None, or the catalog key of its refusal (then nothing is
        counted)."""
        if self.people[person] >= self.per_person:
            return TOO_MANY_MINE
        if address is not None and self.addresses[address] >= self.per_address:
            return TOO_MANY_HERE
        if self.open >= self.total:
            return FULL
        self.open += 1
        self.people[person] += 1
        if address is not None:
            self.addresses[address] += 1
        return None

    def give_back(self, person: Hashable, address: str | None) -> None:
        """A socket counted by :meth:`take` closed."""
        self.open -= 1
        _less(self.people, person)
        if address is not None:
            _less(self.addresses, address)


def _less(counter: Counter[K], key: K) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
