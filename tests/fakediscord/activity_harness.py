"""The Discord client's part of an Activity, for browser tests: Discord's proxy and the client
page that embeds the Activity and answers the Embedded App SDK.

* :class:`ActivityProxy` is Discord's proxy for one application: the mapped origin
  ``http://<client id>.localhost:PORT`` (Discord's is ``https://<client id>.discordsays.com``;
  Chromium resolves ``*.localhost`` to this machine) forwarding every request, HTTP and
  WebSocket, to the root URL mapping's target (the bot's web server): ``/.proxy/x`` arrives
  there as ``/x`` (the proxy strips its prefix), and a plain ``/x`` as ``/x``, as Discord's
  proxy does both. It keeps what it forwarded (:attr:`ActivityProxy.forwarded`) and can drop
  every WebSocket it carries (:meth:`ActivityProxy.drop_sockets`), as a lost connection does.
* :class:`DiscordClient` serves the Discord client's page (``/activities``), which embeds the
  Activity in an iframe with the query parameters Discord passes (``frame_id``,
  ``instance_id``, ``platform``, ``guild_id``, ``channel_id``; on mobile
  ``mobile_app_version``) and speaks the SDK's postMessage protocol with it: the SDK's
  ``[HANDSHAKE, {v, encoding, client_id, frame_id}]`` is checked (a wrong client id closes the
  frame with 4000) and answered with the READY dispatch; FRAME commands are answered with
  ``{cmd, evt: null, nonce, data}`` or ``{cmd, evt: "ERROR", nonce, data: {code, message}}``:
  AUTHORIZE (a code from the fake's ``POST /_harness/authorize`` for the page's user — the
  person's consent), AUTHENTICATE (the fake's ``POST /_harness/authenticate`` says what
  Discord answers for the token; it must be this user's), GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS, SUBSCRIBE / UNSUBSCRIBE
  (ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE is dispatched when the instance's people change) and
  CAPTURE_LOG (the SDK sends console lines once ready). The page must be served from an origin
  the SDK accepts messages from (``https://discord.com`` among them): :func:`open_activity`
  has the browser context route ``https://discord.com/`` to this server.

The real SDK runs unmodified in the iframe: nothing here is the SDK's own mock.

    async with ActivityProxy(fake.application_id, bot_web_url) as proxy:
        async with DiscordClient(fake, proxy) as client:
            page = await open_activity(context, client, alice.id, channel.id, "mobile")
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page, Route

    from .server import FakeDiscord

PROXY_PREFIX = "/.proxy"
CLIENT_ORIGIN = "https://discord.com"  # where the Discord client page is served (routed)
# request headers the proxy passes on (Discord's proxy adds its own; these the Activity needs)
PASSED_UP = ("Accept", "Accept-Encoding", "Accept-Language", "Content-Type", "If-None-Match")
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"}
MOBILE_APP_VERSION = "250.0"  # from this version on, mobile clients take the SDK's version


class ActivityProxy:
    """Discord's proxy for application ``client_id``: serves the mapped origin and forwards
    every path to ``target`` (the root URL mapping, e.g. ``http://127.0.0.1:8080``)."""

    def __init__(self, client_id: int, target: str) -> None:
        self.client_id, self.target = client_id, target.rstrip("/")
        self.forwarded: list[tuple[str, str]] = []  # (method, path as it arrived)
        self.sockets: set[web.WebSocketResponse] = set()
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def origin(self) -> str:
        """``http://<client id>.localhost:PORT``: the Activity's one origin."""
        return f"http://{self.client_id}.localhost:{self.port}"

    async def __aenter__(self) -> ActivityProxy:
        self._session = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application(client_max_size=1024 * 1024)
        app.router.add_route("*", "/{path:.*}", self._forward)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.drop_sockets()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def upstream(self, path_qs: str) -> str:
        """The target's URL of a request to the mapped origin (``/.proxy`` stripped)."""
        if path_qs == PROXY_PREFIX or path_qs.startswith((PROXY_PREFIX + "/", PROXY_PREFIX + "?")):
            path_qs = path_qs[len(PROXY_PREFIX) :] or "/"
            if path_qs.startswith("?"):
                path_qs = "/" + path_qs
        return self.target + path_qs

    async def drop_sockets(self) -> None:
        """Close every WebSocket the proxy carries, as a dropped connection would."""
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"proxy dropped")

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        assert self._session is not None
        self.forwarded.append((request.method, request.path_qs))
        url = self.upstream(request.path_qs)
        headers = {k: v for k, v in request.headers.items() if k.title() in PASSED_UP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._socket(request, url, headers)
        async with self._session.request(
            request.method, url, headers=headers, data=await request.read(), allow_redirects=False
        ) as answer:
            body = await answer.read()
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_BY_HOP}
            return web.Response(status=answer.status, body=body, headers=kept)

    async def _socket(
        self, request: web.Request, url: str, headers: dict[str, str]
    ) -> web.WebSocketResponse:
        assert self._session is not None
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            up = await self._session.ws_connect(url.replace("http", "ws", 1), headers=headers)
        except aiohttp.ClientError:
            self.sockets.discard(ws)
            await ws.close(code=1011)
            return ws

        async def down() -> None:  # the server's frames to the browser
            async for message in up:
                if message.type == aiohttp.WSMsgType.TEXT:
                    await ws.send_str(message.data)
                elif message.type == aiohttp.WSMsgType.BINARY:
                    await ws.send_bytes(message.data)
                else:
                    break
            await ws.close(code=up.close_code or 1000)

        pump = asyncio.create_task(down())
        try:
            async for message in ws:  # the browser's frames to the server
                if message.type == aiohttp.WSMsgType.TEXT:
                    await up.send_str(message.data)
                elif message.type == aiohttp.WSMsgType.BINARY:
                    await up.send_bytes(message.data)
                else:
                    break
        finally:
            self.sockets.discard(ws)
            await up.close()
            pump.cancel()
            await asyncio.gather(pump, return_exceptions=True)
        return ws


@dataclass
class Launch:
    """One person's Activity frame: what the client page passes and how it answers."""

    user_id: int
    instance_id: str
    channel_id: int
    guild_id: int | None
    platform: str = "desktop"
    frame_id: str = field(default_factory=lambda: secrets.token_hex(8))
    #: the code AUTHORIZE answers instead of a fresh one (a forged or a used one)
    code: str | None = None
    #: the application the Discord client launched (None: the proxy's; another one: the
    #: SDK's handshake names the wrong client and the client closes the frame)
    client_id: str | None = None


class DiscordClient:
    """The Discord client harness's server (see the module doc): the page that embeds the
    Activity served by ``proxy`` and answers its SDK for the users of ``fake``."""

    def __init__(self, fake: FakeDiscord, proxy: ActivityProxy, launch_path: str = "/") -> None:
        self.fake, self.proxy = fake, proxy
        self.launch_path = launch_path  # where Discord opens the Activity: the mapping's root
        self.launches: dict[str, Launch] = {}  # by frame id
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> DiscordClient:
        self._session = aiohttp.ClientSession()
        app = web.Application()
        app.router.add_get("/activities/{frame_id}", self._page)
        app.router.add_post("/harness/rpc/{frame_id}/authorize", self._authorize)
        app.router.add_post("/harness/rpc/{frame_id}/authenticate", self._authenticate)
        app.router.add_get("/harness/rpc/{frame_id}/participants", self._participants)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def launch(self, launch: Launch) -> str:
        """Register ``launch``; the path of its client page (under :data:`CLIENT_ORIGIN`)."""
        self.launches[launch.frame_id] = launch
        return f"/activities/{launch.frame_id}"

    def activity_url(self, launch: Launch) -> str:
        """The iframe's address: the mapped origin's root with Discord's query parameters."""
        query = {
            "instance_id": launch.instance_id,
            "location_id": (
                f"gc-{launch.guild_id}-{launch.channel_id}"
                if launch.guild_id is not None
                else f"pm-{launch.channel_id}"
            ),
            "launch_id": launch.instance_id,
            "channel_id": str(launch.channel_id),
            "frame_id": launch.frame_id,
            "platform": launch.platform,
        }
        if launch.guild_id is not None:
            query["guild_id"] = str(launch.guild_id)
        if launch.platform == "mobile":
            query["mobile_app_version"] = MOBILE_APP_VERSION
        return f"{self.proxy.origin}{self.launch_path}?{'&'.join(f'{k}={v}' for k, v in query.items())}"

    # ----------------------------------------------------------------- the page
    async def _page(self, request: web.Request) -> web.Response:
        launch = self.launches.get(request.match_info["frame_id"])
        if launch is None:
            raise web.HTTPNotFound()
        config = {
            "src": self.activity_url(launch),
            "client_id": launch.client_id or str(self.proxy.client_id),
            "frame_id": launch.frame_id,
            "user": self._user(launch.user_id),
            "rpc": f"/harness/rpc/{launch.frame_id}",
        }
        # a script's text is not HTML-decoded: only "</" must not appear in it
        page = CLIENT_PAGE.replace("{{launch}}", json.dumps(config).replace("</", "<\\/"))
        return web.Response(text=page, content_type="text/html")

    def _user(self, user_id: int) -> dict[str, Any]:
        user = self.fake.users[user_id].payload()
        return {k: user[k] for k in ("id", "username", "discriminator", "global_name", "avatar")}

    def _launch(self, request: web.Request) -> Launch:
        launch = self.launches.get(request.match_info["frame_id"])
        if launch is None:
            raise web.HTTPNotFound()
        return launch

    # ----------------------------------------------------------------- the RPC answers
    async def _authorize(self, request: web.Request) -> web.Response:
        """AUTHORIZE: the person consents; the fake mints the code (or the launch's own)."""
        assert self._session is not None
        launch, args = self._launch(request), await request.json()
        if args.get("response_type") != "code" or str(args.get("client_id")) != str(
            self.proxy.client_id
        ):
            return _rpc_error(4000, "Invalid client_id or response_type")
        if launch.code is not None:
            return web.json_response({"code": launch.code})
        body = {"user_id": launch.user_id, "client_id": args["client_id"], "scopes": args["scope"]}
        async with self._session.post(
            f"{self.fake.base_url}/_harness/authorize", json=body
        ) as answer:
            got = await answer.json()
        if answer.status != 200:
            return _rpc_error(5000, f"OAuth2 Error: {got.get('error')}")
        return web.json_response({"code": got["code"]})

    async def _authenticate(self, request: web.Request) -> web.Response:
        """AUTHENTICATE: what Discord answers for the token (the fake's
        ``/_harness/authenticate``), if the token is good and this person's."""
        assert self._session is not None
        launch, args = self._launch(request), await request.json()
        body = {"access_token": str(args.get("access_token") or "")}
        url = f"{self.fake.base_url}/_harness/authenticate"
        async with self._session.post(url, json=body) as got:
            answer = await got.json() if got.status == 200 else None
        if answer is None or answer["user"]["id"] != str(launch.user_id):
            return _rpc_error(4009, "Invalid token")
        return web.json_response(answer)

    async def _participants(self, request: web.Request) -> web.Response:
        """The people in the launch's instance now, as the participants command lists them."""
        launch = self._launch(request)
        instance = self.fake.activities.instances.get(launch.instance_id)
        people = instance.users if instance is not None else []
        return web.json_response(
            {
                "participants": [
                    {
                        **self._user(u),
                        "flags": 0,
                        "bot": False,
                        "nickname": self._user(u)["username"],
                    }
                    for u in people
                ]
            }
        )


def _rpc_error(code: int, message: str) -> web.Response:
    return web.json_response({"code": code, "message": message}, status=400)


async def open_activity(context: BrowserContext, client: DiscordClient, launch: Launch) -> Page:
    """Open ``launch``'s Discord client page in ``context`` (whose ``https://discord.com`` is
    routed to ``client``); the Activity runs in its frame ``#activity``."""

    async def serve(route: Route) -> None:
        path = route.request.url[len(CLIENT_ORIGIN) :]
        answer = await route.fetch(url=client.base + path)
        await route.fulfill(response=answer)

    await context.route(f"{CLIENT_ORIGIN}/**", serve)
    page = await context.new_page()
    await page.goto(CLIENT_ORIGIN + client.launch(launch))
    return page


CLIENT_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Discord</title>
<style>
html, body { margin: 0; height: 100%; background: #313338; }
iframe { display: block; border: 0; width: 100%; height: 100%; }
</style>
</head>
<body>
<script type="application/json" id="launch">{{launch}}</script>
<iframe id="activity" name="activity" allow="autoplay; clipboard-write; fullscreen"></iframe>
<script>
// The Discord client's side of the Embedded App SDK's postMessage protocol (see
// tests/fakediscord/activity_harness.py): opcodes HANDSHAKE 0, FRAME 1, CLOSE 2, HELLO 3.
const HANDSHAKE = 0, FRAME = 1, CLOSE = 2;
const PARTICIPANTS = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";
const launch = JSON.parse(document.getElementById("launch").textContent);
const frame = document.getElementById("activity");
const origin = new URL(launch.src).origin;
const harness = (window.harness = {
  received: [], sent: [], logs: [], closed: null, handshake: null, subscribed: new Set(),
});

function send(message) {
  harness.sent.push(message);
  frame.contentWindow.postMessage(message, origin);
}
const reply = (cmd, nonce, data) => send([FRAME, { cmd, evt: null, nonce, data }]);
const fail = (cmd, nonce, code, message) =>
  send([FRAME, { cmd, evt: "ERROR", nonce, data: { code, message } }]);
const dispatch = (evt, data) => send([FRAME, { cmd: "DISPATCH", evt, nonce: null, data }]);

async function rpc(what, args) {
  const answer = await fetch(`${launch.rpc}/${what}`, args === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args),
  });
  const body = await answer.json();
  if (!answer.ok) throw body;
  return body;
}

let shown = "";
async function watchParticipants() {
  while (harness.subscribed.has(PARTICIPANTS)) {
    const now = await rpc("participants");
    const key = now.participants.map((p) => p.id).join(",");
    if (key !== shown) {
      if (shown !== "") dispatch(PARTICIPANTS, now);
      shown = key;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function command(cmd, args, nonce, evt) {
  switch (cmd) {
    case "AUTHORIZE":
      return rpc("authorize", args);
    case "AUTHENTICATE":
      return rpc("authenticate", args);
    case "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
      return rpc("participants");
    case "SUBSCRIBE":
      harness.subscribed.add(evt);
      if (evt === PARTICIPANTS) {
        shown = (await rpc("participants")).participants.map((p) => p.id).join(",");
        watchParticipants();
      }
      return { evt };
    case "UNSUBSCRIBE":
      harness.subscribed.delete(evt);
      return { evt };
    case "CAPTURE_LOG":
      harness.logs.push(args);
      return null;
    default:
      throw { code: 4002, message: `the harness does not answer ${cmd}` };
  }
}

addEventListener("message", async (event) => {
  // only the Activity's frame, from its origin (the proxy's), speaks to the client
  if (event.source !== frame.contentWindow || event.origin !== origin) return;
  if (!Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  harness.received.push(event.data);
  if (opcode === HANDSHAKE) {
    if (payload.v !== 1 || payload.client_id !== launch.client_id) {
      harness.closed = { code: 4000, message: "Invalid Client ID" };
      send([CLOSE, harness.closed]);
      return;
    }
    if (payload.frame_id !== launch.frame_id) {
      harness.closed = { code: 4001, message: "Invalid Origin" };
      send([CLOSE, harness.closed]);
      return;
    }
    harness.handshake = payload;
    dispatch("READY", {
      v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: { id: launch.user.id, username: launch.user.username, discriminator: launch.user.discriminator },
    });
  } else if (opcode === CLOSE) {
    harness.closed = payload;
  } else if (opcode === FRAME && harness.handshake !== null && !harness.closed) {
    const { cmd, args, nonce, evt } = payload;
    try {
      reply(cmd, nonce, await command(cmd, args, nonce, evt));
    } catch (error) {
      fail(cmd, nonce, error.code ?? 1000, error.message ?? String(error));
    }
  }
});
frame.src = launch.src;
</script>
</body>
</html>
"""
