"""Faults on demand for REST routes: 429s and 5xx errors for the next N calls, calls held up on
the way (a slow network) or dropped unanswered (a broken connection), and real buckets; and forged interactions (:func:`forged_slash`: what
a modified client can send).

A route is named the way discord.py names it (``discord.http.Route``): a method and a path
template, e.g. ``("POST", "/channels/{channel_id}/messages")``. A concrete path
(``"/channels/123/messages"``) matches too.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from aiohttp import web

from .model import APPLICATION_COMMAND, InteractionRecord

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .users import SimUser


class _Planned(Protocol):
    """Something planned for the next ``times`` calls to one route."""

    method: str
    path: str
    times: int
    hits: int


P = TypeVar("P", bound=_Planned)


def _use_next(planned: list[P], method: str, template: str | None, path: str) -> P | None:
    """The first of ``planned`` that applies to a request to ``path`` (route ``template``),
    one of its calls used; None if none does."""
    for entry in planned:
        if entry.times > 0 and entry.method == method.upper() and entry.path in (template, path):
            entry.times -= 1
            entry.hits += 1
            return entry
    return None


@dataclass
class RouteFault:
    """A planned answer for the next ``times`` calls to one route."""

    method: str
    path: str
    status: int
    times: int
    retry_after: float = 0.0
    is_global: bool = False
    hits: int = 0


@dataclass
class RouteDelay:
    """The next ``times`` calls to one route reach Discord ``seconds`` late (held on the way,
    before Discord counts them against any limit): a network that stalls, then delivers
    what it held in a bunch."""

    method: str
    path: str
    seconds: float
    times: int
    hits: int = 0


@dataclass
class RouteDrop:
    """The next ``times`` calls to one route are never answered: the connection is closed
    (the client sees the server disconnect), before Discord counts them."""

    method: str
    path: str
    times: int
    hits: int = 0


@dataclass
class RateBucket:
    """A Discord-like bucket: ``limit`` calls per ``per`` seconds for each major parameter.

    Answers carry the true ``X-RateLimit-*`` headers (discord.py then waits on its own); a
    call over the limit gets 429 with ``X-RateLimit-Scope: scope``.
    """

    method: str
    path: str
    limit: int
    per: float
    scope: str = "user"
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)  # major -> start, used
    refused: int = 0

    @property
    def name(self) -> str:
        """The ``X-RateLimit-Bucket`` value (without the major parameter, as on Discord)."""
        return f"fake-bucket-{self.method}-{self.path}"

    def admit(self, major: str, now: float | None = None) -> tuple[bool, dict[str, str]]:
        """Count one call at ``now`` (default: ``time.monotonic()``); return whether it may go
        ahead and the headers to send."""
        now = time.monotonic() if now is None else now
        start, used = self.windows.get(major, (now, 0))
        if now - start >= self.per:
            start, used = now, 0
        allowed = used < self.limit
        if allowed:
            used += 1
        else:
            self.refused += 1
        self.windows[major] = (start, used)
        # rounded up to the millisecond, so a client waiting that long never comes back early
        reset_after = max(math.ceil((start + self.per - now) * 1000) / 1000, 0.0)
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.limit - used),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }
        return allowed, headers

    def refusal(self, headers: dict[str, str]) -> web.Response:
        """The 429 for a call ``admit`` refused (``headers`` are the ones it returned)."""
        return too_many_requests(float(headers["X-RateLimit-Reset-After"]), self.scope, headers)


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (discord.py checks)."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(status=status, body=json.dumps(body).encode(), headers=all_headers)


def error_response(status: int, code: int, message: str, **extra: Any) -> web.Response:
    """A Discord-style JSON error: ``{"message": ..., "code": ...}``."""
    return json_response(status, {"message": message, "code": code, **extra})


class FaultPlan:
    """The faults planned for REST routes; consulted once per request."""

    def __init__(self) -> None:
        self.route_faults: list[RouteFault] = []
        self.delays: list[RouteDelay] = []
        self.drops: list[RouteDrop] = []
        self.buckets: list[RateBucket] = []

    def limit_route(self, method: str, path: str, *, limit: int, per: float) -> RateBucket:
        """Enforce ``limit`` calls per ``per`` seconds on a route (per channel/guild/webhook)."""
        if limit < 1 or per <= 0:
            raise ValueError("limit_route needs limit >= 1 and per > 0")
        bucket = RateBucket(method.upper(), path, limit, per)
        self.buckets.append(bucket)
        return bucket

    def rate_limit(
        self,
        method: str,
        path: str,
        *,
        times: int = 1,
        retry_after: float = 0.2,
        is_global: bool = False,
    ) -> RouteFault:
        """Answer the next ``times`` calls to the route with 429 and ``retry_after`` seconds."""
        if times < 1 or retry_after < 0:
            raise ValueError("rate_limit needs times >= 1 and retry_after >= 0")
        fault = RouteFault(method.upper(), path, 429, times, retry_after, is_global)
        self.route_faults.append(fault)
        return fault

    def server_error(
        self, method: str, path: str, *, times: int = 1, status: int = 500
    ) -> RouteFault:
        """Answer the next ``times`` calls to the route with a 5xx ``status``."""
        if times < 1 or not 500 <= status <= 599:
            raise ValueError("server_error needs times >= 1 and a status in 500..599")
        fault = RouteFault(method.upper(), path, status, times)
        self.route_faults.append(fault)
        return fault

    def delay(self, method: str, path: str, *, seconds: float, times: int = 1) -> RouteDelay:
        """Hold the next ``times`` calls to the route ``seconds`` on their way to Discord."""
        if times < 1 or seconds <= 0:
            raise ValueError("delay needs times >= 1 and seconds > 0")
        held = RouteDelay(method.upper(), path, seconds, times)
        self.delays.append(held)
        return held

    def drop(self, method: str, path: str, *, times: int = 1) -> RouteDrop:
        """Close the connection of the next ``times`` calls to the route, unanswered."""
        if times < 1:
            raise ValueError("drop needs times >= 1")
        dropped = RouteDrop(method.upper(), path, times)
        self.drops.append(dropped)
        return dropped

    def dropped(self, method: str, template: str | None, path: str) -> bool:
        """Whether this request is dropped unanswered (a planned :meth:`drop`)."""
        return _use_next(self.drops, method, template, path) is not None

    def held(self, method: str, template: str | None, path: str) -> float:
        """Seconds this request is held on its way (a planned :meth:`delay`), else 0."""
        held = _use_next(self.delays, method, template, path)
        return 0.0 if held is None else held.seconds

    def clear(self) -> None:
        """Forget every planned fault, delay and bucket."""
        self.route_faults.clear()
        self.delays.clear()
        self.drops.clear()
        self.buckets.clear()

    def take(self, method: str, template: str | None, path: str) -> web.Response | None:
        """If a fault applies to this request, use one of its calls and return its answer."""
        fault = _use_next(self.route_faults, method, template, path)
        return None if fault is None else self._answer(fault)

    def bucket_for(self, method: str, template: str | None, path: str) -> RateBucket | None:
        """The planned bucket (``limit_route``) this request falls in, if any."""
        for bucket in self.buckets:
            if bucket.method == method.upper() and bucket.path in (template, path):
                return bucket
        return None

    @staticmethod
    def _answer(fault: RouteFault) -> web.Response:
        if fault.status == 429:
            headers = {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(fault.retry_after),
                "X-RateLimit-Bucket": "fake-" + fault.path,
            }
            scope = "global" if fault.is_global else "shared"
            return too_many_requests(fault.retry_after, scope, {} if fault.is_global else headers)
        return error_response(fault.status, 0, f"{fault.status}: Internal Server Error")


def too_many_requests(retry_after: float, scope: str, headers: dict[str, str]) -> web.Response:
    """Discord's 429: ``{"message", "retry_after", "global", "code"}`` with ``Retry-After``,
    ``X-RateLimit-Scope`` (``user``, ``shared`` or ``global``), ``X-RateLimit-Global`` for the
    global limit, the bucket's ``headers`` and ``Via`` (discord.py treats a 429 without it as
    a Cloudflare ban)."""
    is_global = scope == "global"
    extra = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if is_global:
        extra["X-RateLimit-Global"] = "true"
    message = "The resource is being rate limited." if scope == "shared" else None
    body = {
        "message": message or "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
        "code": 0,
    }
    return json_response(429, body, {**headers, **extra})


async def forged_slash(
    fake: FakeDiscord,
    user: SimUser,
    *path: str,
    valid: dict[str, Any] | None = None,
    **forged: Any,
) -> InteractionRecord:
    """``/path…`` by ``user`` with option values Discord's client would never send: built
    from ``valid`` ones (checked as :meth:`SimUser.slash` checks them), then each option of
    ``forged`` set to its value as is — out of its range, not among its choices, longer than
    its limit, another type. A forged option need not be among ``valid``."""
    where = fake.text_channels[0]
    data = fake.commands.invocation(
        path,
        dict(valid or {}),
        where.guild_id,
        fake.resolve_user,
        permissions=user.user.permissions,
    )
    leaf = data
    while leaf.get("options") and leaf["options"][0].get("type") in (1, 2):  # subcommands
        leaf = leaf["options"][0]
    options = leaf.setdefault("options", [])
    for name, value in forged.items():
        found = [o for o in options if o["name"] == name]
        if found:
            found[0]["value"] = value
        else:
            kind = 4 if isinstance(value, int) and not isinstance(value, bool) else 3
            options.append(
                {"type": 5 if isinstance(value, bool) else kind, "name": name, "value": value}
            )
    return await fake.create_interaction(user.user, APPLICATION_COMMAND, where, data)
