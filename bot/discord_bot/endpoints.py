"""Where discord.py talks to: the REST API base and the gateway URL.

The bot normally talks to the real Discord. The end-to-end tests (and anyone running a
local Discord look-alike) point it elsewhere through this module, before the client logs
in. discord.py keeps both endpoints as class attributes that it reads on every request
and on every first gateway connection:

* REST: ``discord.http.Route.BASE`` (also used by interaction and webhook calls);
* gateway: ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a ``yarl.URL``). A
  non-sharded client connects there first; later it resumes on the ``resume_gateway_url``
  that READY gave it.

Environment variables read by :func:`configure_from_env`:

* ``GOUJI_DISCORD_API`` -- e.g. ``http://127.0.0.1:8080/api/v10``
* ``GOUJI_DISCORD_GATEWAY`` -- e.g. ``ws://127.0.0.1:8080/gateway``
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

API_ENV = "GOUJI_DISCORD_API"
GATEWAY_ENV = "GOUJI_DISCORD_GATEWAY"


class Endpoints(NamedTuple):
    """The pair of endpoints discord.py uses: REST API base and first gateway URL."""

    api_base: str
    gateway_url: str


def current_endpoints() -> Endpoints:
    """Return the endpoints discord.py would use right now (to restore them later)."""
    return Endpoints(Route.BASE, str(DiscordWebSocket.DEFAULT_GATEWAY))


def _checked(url: str, schemes: tuple[str, ...], what: str, env: str) -> str:
    parsed = yarl.URL(url)
    if parsed.scheme not in schemes or not parsed.host:
        raise ValueError(
            f"{what} {url!r} is not a {'/'.join(schemes)} URL with a host; "
            f"give e.g. {schemes[0]}://127.0.0.1:8080/... (or fix {env})"
        )
    return url


def configure_endpoints(api_base: str | None = None, gateway_url: str | None = None) -> None:
    """Point discord.py at other REST and/or gateway endpoints; ``None`` leaves one as is.

    ``api_base`` is the versioned API root without a trailing slash
    (``https://discord.com/api/v10`` for the real Discord); ``gateway_url`` is a ws(s) URL
    without query (discord.py adds ``v``, ``encoding`` and ``compress``). Both are checked
    before either is set, so a bad value raises ``ValueError`` and changes nothing.
    """
    base = None
    if api_base is not None:
        base = _checked(api_base, ("http", "https"), "API base", API_ENV).rstrip("/")
    gateway = None
    if gateway_url is not None:
        gateway = yarl.URL(_checked(gateway_url, ("ws", "wss"), "gateway URL", GATEWAY_ENV))
    if base is not None:
        Route.BASE = base
    if gateway is not None:
        DiscordWebSocket.DEFAULT_GATEWAY = gateway


def configure_from_env(environ: Mapping[str, str] | None = None) -> Endpoints:
    """Apply ``GOUJI_DISCORD_API`` / ``GOUJI_DISCORD_GATEWAY`` if set; return what is in force."""
    env = os.environ if environ is None else environ
    configure_endpoints(env.get(API_ENV) or None, env.get(GATEWAY_ENV) or None)
    return current_endpoints()
