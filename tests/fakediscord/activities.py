"""Discord's part of an Activity: OAuth2 codes and tokens, and activity instances.

* **OAuth2** (Discord's "OAuth2" page, the authorization-code grant as the Embedded App SDK
  uses it): the Discord client's consent step is played by :meth:`Activities.authorize`
  (``POST /_harness/authorize`` for the client harness page), which mints a code for a
  (user, application, scopes), good once for :data:`CODE_LIFE` seconds; the client's answer
  to the SDK's AUTHENTICATE by ``POST /_harness/authenticate``.
  ``POST /oauth2/token`` (form: ``client_id``, ``client_secret``,
  ``grant_type=authorization_code``, ``code``) trades it for a Bearer token;
  ``GET /users/@me`` with ``Authorization: Bearer TOKEN`` is that token's user.
* **Activity instances** (``GET /applications/{app}/activity-instances/{instance_id}``, bot
  token): the LAUNCH_ACTIVITY interaction answer (type 12) starts one in the interaction's
  channel, or joins the one running there (one per channel and application); people join and
  leave (:meth:`Activities.join`, :meth:`Activities.leave`, ``POST /_harness/activity/join``
  and ``/leave``); the last one out ends it.

The ``/_harness/...`` routes are the fake's stand-ins for what the Discord *client* does (a
person consenting, opening or closing the Activity): no bot calls them, so they are outside
``/api/v10``, its rate limits and its request record, and they answer any origin (CORS), so
a harness page served elsewhere can call them.
"""

from __future__ import annotations

import datetime
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import json_response
from .messages import ApiError

if TYPE_CHECKING:
    from .server import FakeDiscord

CODE_LIFE = 600.0  # seconds an authorization code is good for (Discord: 10 minutes)
TOKEN_LIFE = 604800  # seconds an access token is good for (Discord's expires_in: 7 days)
SCOPES = frozenset({"identify", "guilds", "guilds.members.read", "rpc.activities.write"})


@dataclass
class Grant:
    """A code or token: whose, for which application, with which scopes, until when."""

    user_id: int
    client_id: int
    scopes: tuple[str, ...]
    expires: float
    used: bool = False


@dataclass
class ActivityInstance:
    """A running Activity in one channel: who is in it now (in the order they came)."""

    instance_id: str
    launch_id: int
    application_id: int
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)
    location_id: str = ""

    def payload(self) -> dict[str, Any]:
        """The activity instance object as ``GET .../activity-instances/{id}`` sends it."""
        location: dict[str, Any] = {
            "id": self.location_id,
            "kind": "gc" if self.guild_id is not None else "pm",
            "channel_id": str(self.channel_id),
        }
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(self.application_id),
            "instance_id": self.instance_id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(u) for u in self.users],
        }


def oauth_error(status: int, error: str, description: str) -> web.Response:
    """An OAuth2 error body (RFC 6749 §5.2), as Discord's token endpoint answers."""
    return json_response(status, {"error": error, "error_description": description})


class Activities:
    """The fake's OAuth2 grants and activity instances (``fake.activities``).

    ``clock`` (default ``time.monotonic``) may be replaced by a test to expire codes.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.enabled = True  # the application has Activities turned on (Developer Portal)
        self.client_secret = "fake-client-secret"
        self.clock: Callable[[], float] = time.monotonic
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.instances: dict[str, ActivityInstance] = {}

    @property
    def client_id(self) -> int:
        """The OAuth2 client id: the application's id, as on Discord."""
        return self.fake.application_id

    # ----- OAuth2 -------------------------------------------------------------------------
    def authorize(
        self, user_id: int, client_id: int | None = None, scopes: Sequence[str] = ("identify",)
    ) -> str:
        """The Discord client's consent step: a fresh code for ``user_id`` to give
        ``client_id`` (default: this application) ``scopes``. ``KeyError`` for an unknown
        user, ``ValueError`` for an unknown scope."""
        if user_id not in self.fake.users or self.fake.users[user_id].bot:
            raise KeyError(f"no user {user_id}")
        unknown = set(scopes) - SCOPES
        if unknown or not scopes:
            raise ValueError(f"scopes {sorted(unknown) or '[]'} are not ones the fake grants")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(
            user_id,
            self.client_id if client_id is None else int(client_id),
            tuple(scopes),
            self.clock() + CODE_LIFE,
        )
        return code

    def token_for(self, user_id: int, scopes: Sequence[str] = ("identify",)) -> str:
        """A Bearer token of ``user_id`` as if a code had been exchanged (for tests)."""
        return self._issue(Grant(user_id, self.client_id, tuple(scopes), 0.0))

    def _issue(self, grant: Grant) -> str:
        token = secrets.token_urlsafe(30)
        self.tokens[token] = Grant(
            grant.user_id, grant.client_id, grant.scopes, self.clock() + TOKEN_LIFE
        )
        return token

    async def token(self, request: web.Request) -> web.Response:
        """POST /oauth2/token (authorization_code grant)."""
        if request.content_type != "application/x-www-form-urlencoded":
            return oauth_error(400, "invalid_request", "the body must be form-urlencoded")
        form = await request.post()
        client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        if client_id != str(self.client_id) or not secrets.compare_digest(
            secret, self.client_secret
        ):
            return json_response(401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            return oauth_error(400, "unsupported_grant_type", "only authorization_code")
        grant = self.codes.get(str(form.get("code", "")))
        if grant is None or grant.used or grant.expires < self.clock():
            return oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        grant.used = True  # a code is good once, even if what follows fails
        if grant.client_id != self.client_id:
            return oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        body = {
            "access_token": self._issue(grant),
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFE,
            "refresh_token": secrets.token_urlsafe(30),
            "scope": " ".join(grant.scopes),
        }
        return json_response(200, body)

    def bearer_user(self, request: web.Request) -> dict[str, Any]:
        """GET /users/@me with a Bearer token: the user object (with ``locale``, which the
        ``identify`` scope gives), or 401."""
        header = request.headers.get("Authorization", "")
        grant = self.tokens.get(header.removeprefix("Bearer "))
        if grant is None or grant.expires < self.clock() or "identify" not in grant.scopes:
            raise ApiError(401, 0, "401: Unauthorized")
        user = self.fake.users[grant.user_id]
        return {**user.payload(), "locale": user.locale, "mfa_enabled": False, "flags": 0}

    # ----- activity instances -------------------------------------------------------------
    def launch(self, channel_id: int, user_id: int) -> ActivityInstance:
        """Start the application's Activity in ``channel_id`` for ``user_id`` (or join the
        one running there): what Discord does on a LAUNCH_ACTIVITY answer."""
        running = self.instance_in(channel_id)
        if running is not None:
            return self.join(running.instance_id, user_id)
        channel = self.fake.channels[channel_id]
        launch_id = self.fake.ids.next()
        where = f"gc-{channel.guild_id}-{channel_id}" if channel.guild_id else f"pm-{channel_id}"
        instance = ActivityInstance(
            f"i-{launch_id}-{where}",
            launch_id,
            self.fake.application_id,
            channel_id,
            channel.guild_id,
            [user_id],
            f"{where}",
        )
        self.instances[instance.instance_id] = instance
        self.fake.notify()
        return instance

    def instance_in(self, channel_id: int) -> ActivityInstance | None:
        """The instance running in a channel, if any."""
        return next((i for i in self.instances.values() if i.channel_id == channel_id), None)

    def join(self, instance_id: str, user_id: int) -> ActivityInstance:
        """``user_id`` opens the running Activity (``KeyError``: no such instance)."""
        instance = self.instances[instance_id]
        if user_id not in self.fake.users:
            raise KeyError(f"no user {user_id}")
        if user_id not in instance.users:
            instance.users.append(user_id)
            self.fake.notify()
        return instance

    def leave(self, instance_id: str, user_id: int) -> None:
        """``user_id`` closes the Activity; when the last one leaves, the instance ends."""
        instance = self.instances.get(instance_id)
        if instance is None or user_id not in instance.users:
            return
        instance.users.remove(user_id)
        if not instance.users:
            del self.instances[instance_id]
        self.fake.notify()

    async def get_instance(self, request: web.Request) -> web.Response:
        """GET /applications/{application_id}/activity-instances/{instance_id} (bot token)."""
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        if request.match_info["application_id"] != str(self.fake.application_id):
            raise ApiError(403, 50001, "Missing Access")
        instance = self.instances.get(request.match_info["instance_id"])
        if instance is None:
            raise ApiError(404, 0, "404: Not Found")
        return json_response(200, instance.payload())


class HarnessRoutes:
    """``/_harness/...``: the Discord client's side (consent, joining, leaving), for the
    client harness page. Errors: ``{"error": text}`` with 400 or 404."""

    def __init__(self, activities: Activities) -> None:
        self.activities = activities

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text='{"error": "a JSON body"}') from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text='{"error": "a JSON object"}')
        return body

    async def authorize(self, request: web.Request) -> web.Response:
        """POST /_harness/authorize ``{"user_id", "client_id", "scopes"}`` → ``{"code"}``:
        the person consents in the Discord client (the SDK's AUTHORIZE command)."""
        body = await self._body(request)
        try:
            code = self.activities.authorize(
                int(body["user_id"]),
                int(body.get("client_id") or self.activities.client_id),
                [str(s) for s in body.get("scopes") or ["identify"]],
            )
        except (KeyError, ValueError, TypeError) as exc:
            return json_response(400, {"error": str(exc)})
        return json_response(200, {"code": code})

    async def authenticate(self, request: web.Request) -> web.Response:
        """POST /_harness/authenticate ``{"access_token"}`` → what the SDK's AUTHENTICATE
        command answers (``access_token``, ``user``, ``scopes``, ``expires``,
        ``application``), or 401 ``{"error"}`` for a token Discord does not know."""
        body = await self._body(request)
        grant = self.activities.tokens.get(str(body.get("access_token", "")))
        if grant is None or grant.expires < self.activities.clock():
            return json_response(401, {"error": "invalid access token"})
        user = self.activities.fake.users[grant.user_id]
        left = grant.expires - self.activities.clock()
        expires = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=left)
        fake = self.activities.fake
        return json_response(
            200,
            {
                "access_token": body["access_token"],
                "user": user.payload(),
                "scopes": list(grant.scopes),
                "expires": expires.isoformat(),
                "application": {
                    "id": str(fake.application_id),
                    "name": fake.bot_user.name,
                    "description": "Gouji on a fake Discord",
                    "icon": None,
                    "rpc_origins": [],
                },
            },
        )

    async def join(self, request: web.Request) -> web.Response:
        """POST /_harness/activity/join ``{"instance_id", "user_id"}`` → the instance."""
        body = await self._body(request)
        try:
            instance = self.activities.join(str(body["instance_id"]), int(body["user_id"]))
        except (KeyError, ValueError, TypeError) as exc:
            return json_response(404, {"error": f"no such instance or user: {exc}"})
        return json_response(200, instance.payload())

    async def leave(self, request: web.Request) -> web.Response:
        """POST /_harness/activity/leave ``{"instance_id", "user_id"}`` → 204."""
        body = await self._body(request)
        try:
            self.activities.leave(str(body["instance_id"]), int(body["user_id"]))
        except (KeyError, ValueError, TypeError) as exc:
            return json_response(400, {"error": str(exc)})
        return web.Response(status=204)

    async def instance(self, request: web.Request) -> web.Response:
        """GET /_harness/activity?channel_id=ID → the instance running there, or 404."""
        try:
            running = self.activities.instance_in(int(request.query.get("channel_id", "")))
        except ValueError:
            return json_response(400, {"error": "channel_id: a channel id"})
        if running is None:
            return json_response(404, {"error": "no activity runs in this channel"})
        return json_response(200, running.payload())


@web.middleware
async def harness_cors(request: web.Request, handler: Any) -> web.StreamResponse:
    """Let a harness page on another origin call ``/_harness/...`` (preflight included)."""
    if not request.path.startswith("/_harness/"):
        return await handler(request)
    if request.method == "OPTIONS":
        response: web.StreamResponse = web.Response(status=204)
    else:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = web.Response(
                status=exc.status, text=exc.text, content_type="application/json"
            )
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
    response.headers["Access-Control-Allow-Headers"] = "Content-Type"
    return response


def add_routes(app: web.Application, activities: Activities, prefix: str) -> None:
    """The OAuth2 and activity-instance routes under ``prefix`` (``/api/v10``; ``GET
    /users/@me`` with a Bearer token is answered by the REST routes through
    :meth:`Activities.bearer_user`), and the harness routes."""
    app.router.add_post(prefix + "/oauth2/token", activities.token)
    app.router.add_get(
        prefix + "/applications/{application_id}/activity-instances/{instance_id}",
        activities.get_instance,
    )
    harness = HarnessRoutes(activities)
    app.router.add_post("/_harness/authorize", harness.authorize)
    app.router.add_post("/_harness/authenticate", harness.authenticate)
    app.router.add_post("/_harness/activity/join", harness.join)
    app.router.add_post("/_harness/activity/leave", harness.leave)
    app.router.add_get("/_harness/activity", harness.instance)
    posts = ("authorize", "authenticate", "activity/join", "activity/leave")
    for path in (f"/_harness/{name}" for name in posts):
        app.router.add_route("OPTIONS", path, harness_preflight)


async def harness_preflight(request: web.Request) -> web.Response:
    """OPTIONS on a harness route: answered by :func:`harness_cors`."""
    return web.Response(status=204)
