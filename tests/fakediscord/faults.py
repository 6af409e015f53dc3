"""Faults on demand for REST routes: 429 rate limits and 5xx errors for the next N calls.

A route is named the way discord.py names it (``discord.http.Route``): a method and a path
template, e.g. ``("POST", "/channels/{channel_id}/messages")``. A concrete path
(``"/channels/123/messages"``) matches too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web


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

    def matches(self, method: str, template: str | None, path: str) -> bool:
        """Whether a request to ``path`` (route ``template``) is hit by this fault."""
        return self.times > 0 and self.method == method.upper() and self.path in (template, path)


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

    def clear(self) -> None:
        """Forget every planned fault."""
        self.route_faults.clear()

    def take(self, method: str, template: str | None, path: str) -> web.Response | None:
        """If a fault applies to this request, use one of its calls and return its answer."""
        for fault in self.route_faults:
            if fault.matches(method, template, path):
                fault.times -= 1
                fault.hits += 1
                return self._answer(fault)
        return None

    @staticmethod
    def _answer(fault: RouteFault) -> web.Response:
        if fault.status == 429:
            headers = {
                "Retry-After": str(fault.retry_after),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(fault.retry_after),
                "X-RateLimit-Bucket": "fake-" + fault.path,
                "X-RateLimit-Scope": "shared" if not fault.is_global else "global",
                "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
                "code": 0,
            }
            return json_response(429, body, headers)
        return error_response(fault.status, 0, f"{fault.status}: Internal Server Error")
