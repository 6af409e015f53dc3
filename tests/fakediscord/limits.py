"""Discord's own rate limits, as the fake enforces them (on unless ``rate_limits=False``).

* The **global** limit: 50 requests per second for the bot's token (``global_limit``: as
  Discord raises it for a large bot), over every route except
  the interaction ones (``POST /interactions/{id}/{token}/callback`` and the interaction
  webhook ``/webhooks/{application_id}/{token}...``), which Discord exempts. A request over
  it gets 429 with ``"global": true``, ``X-RateLimit-Global`` and ``X-RateLimit-Scope:
  global``, and no bucket headers, as on Discord.
* **Per-route buckets**, per top-level resource (channel, guild, webhook), with the
  ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`` headers on every answer:
  ``ROUTE_LIMITS`` below (5 new messages per 5 s per channel, DM channels too; 5 edits per
  5 s per channel; 5 deletes per 1 s per channel); every other route has a roomy bucket
  (``DEFAULT_LIMIT``). Over a bucket: 429 with ``X-RateLimit-Scope: user``.

A request refused by the global limit uses no room in its route's bucket; one refused by its
bucket still counted against the global limit (Discord counts what reaches it).

``time_scale`` (real seconds per Discord second; 1.0 is Discord's own time) shortens every
window, and so every ``Reset-After`` and ``retry_after`` the fake answers, by one factor: the
same counts per window and the same buckets, bodies and headers, only the durations scaled.
The planned faults (``fake.faults``) take their durations in Discord seconds too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from .faults import FaultPlan, RateBucket, RouteFault, too_many_requests

GLOBAL_LIMIT = (50, 1.0)  # requests, seconds
DEFAULT_LIMIT = (50, 1.0)  # a route Discord sets no tighter bucket for
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
ROUTE_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", "/channels/{channel_id}/messages"): (5, 5.0),
    ("PATCH", MESSAGE): (5, 5.0),
    ("DELETE", MESSAGE): (5, 1.0),
}
INTERACTION_PREFIXES = ("/interactions/", "/webhooks/")
MAJOR_PARAMETERS = ("channel_id", "guild_id", "application_id", "interaction_id", "token")


def token_kind(route: str) -> str:
    """``"interaction"`` for the interaction callback and webhook routes (outside the global
    limit), ``"bot"`` for every route called with the bot's token."""
    return "interaction" if route.startswith(INTERACTION_PREFIXES) else "bot"


@dataclass
class Admission:
    """What the limits say about one request: a 429 to send instead, or headers to add."""

    refusal: web.Response | None = None
    scope: str | None = None  # of the refusal: "global", "user" or "shared"
    planned: bool = False  # the refusal came from a bucket planned with ``limit_route``
    headers: dict[str, str] = field(default_factory=dict)


class ScaledFaultPlan(FaultPlan):
    """The planned faults, their durations given in Discord seconds and answered scaled by
    ``time_scale`` (a ``retry_after`` of 0.32 at scale 1/32 answers 0.01)."""

    def __init__(self, time_scale: float = 1.0) -> None:
        super().__init__()
        self.time_scale = time_scale

    def limit_route(self, method: str, path: str, *, limit: int, per: float) -> RateBucket:
        return super().limit_route(method, path, limit=limit, per=per * self.time_scale)

    def rate_limit(
        self,
        method: str,
        path: str,
        *,
        times: int = 1,
        retry_after: float = 0.2,
        is_global: bool = False,
    ) -> RouteFault:
        scaled = retry_after * self.time_scale
        return super().rate_limit(
            method, path, times=times, retry_after=scaled, is_global=is_global
        )


class DiscordLimits:
    """The global limit and the per-route buckets; planned buckets (``limit_route``) replace a
    route's own bucket. ``clock`` (``time.monotonic`` by default) may be replaced by a test
    that wants the windows still or moved on at will; ``time_scale`` shortens every window
    (``seconds`` turns Discord's seconds into the fake's)."""

    def __init__(
        self,
        faults: FaultPlan,
        *,
        enabled: bool = True,
        time_scale: float = 1.0,
        global_limit: int = GLOBAL_LIMIT[0],
    ) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive (1.0: Discord's own time)")
        self.faults = faults
        self.enabled = enabled
        self.time_scale = time_scale
        self.clock: Callable[[], float] = time.monotonic
        limit, per = global_limit, GLOBAL_LIMIT[1]
        self.global_bucket = RateBucket("*", "global", limit, self.seconds(per), scope="global")
        self.route_buckets: dict[tuple[str, str], RateBucket] = {}

    def seconds(self, discord_seconds: float) -> float:
        """How long ``discord_seconds`` of Discord's time last in this fake."""
        return discord_seconds * self.time_scale

    def bucket(self, method: str, route: str) -> RateBucket:
        """The fake's own bucket for a route (made on first use)."""
        key = (method, route)
        if key not in self.route_buckets:
            limit, per = ROUTE_LIMITS.get(key, DEFAULT_LIMIT)
            self.route_buckets[key] = RateBucket(method, route, limit, self.seconds(per))
        return self.route_buckets[key]

    def admit(
        self, method: str, route: str, path: str, major: str, now: float | None = None
    ) -> Admission:
        """Count one request to ``route`` (a template) against the limits, at ``now``
        (default: ``clock()``)."""
        planned = self.faults.bucket_for(method, route, path)
        now = self.clock() if now is None else now
        if not self.enabled and planned is None:
            return Admission(headers=self._roomy(route))
        if self.enabled and token_kind(route) == "bot":
            allowed, headers = self.global_bucket.admit("", now)
            if not allowed:
                retry_after = float(headers["X-RateLimit-Reset-After"])
                return Admission(too_many_requests(retry_after, "global", {}), "global")
        bucket = planned or self.bucket(method, route)
        allowed, headers = bucket.admit(major, now)
        if not allowed:
            return Admission(bucket.refusal(headers), bucket.scope, planned=bucket is planned)
        return Admission(headers=headers)

    def _roomy(self, route: str) -> dict[str, str]:
        """Headers for a route when the limits are off: plenty of room, always."""
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset-After": str(self.seconds(1.0)),
            "X-RateLimit-Bucket": "fake-" + route,
        }


def major_parameter(match_info: dict[str, str]) -> str:
    """The top-level resource of a request (channel, guild, application + token ...)."""
    return "+".join(match_info.get(k, "") for k in MAJOR_PARAMETERS)
