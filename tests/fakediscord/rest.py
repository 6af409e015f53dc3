"""The bot-token REST routes: login, gateway, application, commands, channels, messages, DMs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .commands import InvalidCommandPayload
from .faults import json_response
from .messages import ApiError, check_message, invalid, message_changes, notified, read_body
from .model import DM, FakeChannel, MessageRecord

if TYPE_CHECKING:
    from .server import FakeDiscord


class RestRoutes:
    """Handlers for the routes a bot calls with its token."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _app(self, request: web.Request) -> None:
        self._auth(request)
        if request.match_info["application_id"] != str(self.fake.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def _guild(self, request: web.Request) -> int:
        if request.match_info["guild_id"] not in {str(g.id) for g in self.fake.all_guilds()}:
            raise ApiError(403, 50001, "Missing Access")
        return int(request.match_info["guild_id"])

    def _channel(self, request: web.Request) -> FakeChannel:
        self._auth(request)
        channel = self.fake.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, request: web.Request, channel: FakeChannel) -> MessageRecord:
        msg = self.fake.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    # ----- login and gateway ------------------------------------------------------------------
    async def gateway(self, request: web.Request) -> web.Response:
        """GET /gateway."""
        return json_response(200, {"url": self.fake.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot."""
        self._auth(request)
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            200,
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.recommended_shards,
                "session_start_limit": limit,
            },
        )

    async def me(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot (discord.py's login), or with ``Bearer TOKEN`` the user
        an OAuth2 token stands for."""
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return json_response(200, self.fake.activities.bearer_user(request))
        self._auth(request)
        return json_response(200, {**self.fake.bot_user.payload(), "verified": True, "flags": 0})

    async def user(self, request: web.Request) -> web.Response:
        """GET /users/{user_id}."""
        self._auth(request)
        user = self.fake.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(200, user.payload())

    async def application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me and /applications/@me."""
        self._auth(request)
        owner = self.fake.members[0].user if self.fake.members else self.fake.bot_user
        body = {
            "id": str(self.fake.application_id),
            "name": self.fake.bot_user.name,
            "description": "Gouji on a fake Discord",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.fake.bot_user.payload(),
        }
        return json_response(200, body)

    # ----- application commands -----------------------------------------------------------------
    async def get_commands(self, request: web.Request) -> web.Response:
        """GET /applications/{id}/commands and the guild variant."""
        self._app(request)
        guild_id = self._guild(request) if "guild_id" in request.match_info else None
        return json_response(200, self.fake.commands.commands_in(guild_id))

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) /applications/{id}/commands and the guild variant."""
        self._app(request)
        guild_id = self._guild(request) if "guild_id" in request.match_info else None
        try:
            stored = self.fake.commands.bulk_overwrite(guild_id, await request.json())
        except InvalidCommandPayload as exc:
            raise invalid(str(exc)) from exc
        self.fake.notify()
        return json_response(200, stored)

    # ----- channels and messages ----------------------------------------------------------------
    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: the DM channel with ``recipient_id``."""
        self._auth(request)
        body = await request.json()
        channel = self.fake.dm_channel_for(int(body.get("recipient_id", 0)))
        return json_response(200, self.fake.channel_payload(channel))

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}."""
        return json_response(200, self.fake.channel_payload(self._channel(request)))

    async def typing(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/typing."""
        self._channel(request)
        return web.Response(status=204)

    async def history(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages (newest first; ``before``/``after``/``limit``)."""
        channel = self._channel(request)
        msgs = [m for m in self.fake.messages_in(channel.id) if not m.ephemeral and not m.loading]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
        limit = min(int(request.query.get("limit", 50)), 100)
        newest = sorted(msgs, key=lambda m: m.id, reverse=True)
        if "after" in request.query:
            newest = newest[-limit:]
        body = [self.fake.message_payload(m) for m in newest[:limit]]
        return json_response(200, body)

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages/{message_id}."""
        channel = self._channel(request)
        return json_response(200, self.fake.message_payload(self._message(request, channel)))

    async def post_message(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/messages (JSON or multipart with files)."""
        channel = self._channel(request)
        if channel.type == DM and self.fake.users[channel.recipient_id or 0].refuses_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        payload, files = await read_body(request)
        check_message(payload, files, creating=True)
        msg = MessageRecord(
            self.fake.ids.next(), channel.id, channel.guild_id, self.fake.bot_user.id
        )
        changes = message_changes(payload, files, [], self._attacher(channel))
        for key, value in changes.items():
            setattr(msg, key, value)
        msg.notified = notified(payload, channel.recipient_id if channel.type == DM else None)
        await self.fake.add_message(msg)
        return json_response(200, self.fake.message_payload(msg))

    async def patch_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{channel_id}/messages/{message_id}."""
        channel = self._channel(request)
        msg = self._message(request, channel)
        if msg.author_id != self.fake.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        check_message(payload, files, creating=False)
        changes = message_changes(payload, files, msg.attachments, self._attacher(channel))
        await self.fake.edit_message(msg, changes)
        return json_response(200, self.fake.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{channel_id}/messages/{message_id}."""
        channel = self._channel(request)
        msg = self._message(request, channel)
        if msg.author_id != self.fake.bot_user.id and channel.type == DM:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        await self.fake.delete_message(msg)
        return web.Response(status=204)

    async def get_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}/members/{user_id}."""
        self._auth(request)
        self._guild(request)
        user = self.fake.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(200, self.fake.member_payload(user))

    def _attacher(self, channel: FakeChannel) -> Any:
        return lambda upload, description: self.fake.new_attachment(channel.id, upload, description)


def add_routes(app: web.Application, fake: FakeDiscord, prefix: str) -> None:
    """Register the REST routes under ``prefix`` (``/api/v10``)."""
    r = RestRoutes(fake)
    cmds = "/applications/{application_id}/commands"
    guild_cmds = "/applications/{application_id}/guilds/{guild_id}/commands"
    message = "/channels/{channel_id}/messages/{message_id}"
    table = [
        ("GET", "/gateway", r.gateway),
        ("GET", "/gateway/bot", r.gateway_bot),
        ("GET", "/users/@me", r.me),
        ("POST", "/users/@me/channels", r.open_dm),
        ("GET", "/users/{user_id}", r.user),
        ("GET", "/oauth2/applications/@me", r.application),
        ("GET", "/applications/@me", r.application),
        ("GET", cmds, r.get_commands),
        ("PUT", cmds, r.put_commands),
        ("GET", guild_cmds, r.get_commands),
        ("PUT", guild_cmds, r.put_commands),
        ("GET", "/channels/{channel_id}", r.get_channel),
        ("POST", "/channels/{channel_id}/typing", r.typing),
        ("GET", "/channels/{channel_id}/messages", r.history),
        ("POST", "/channels/{channel_id}/messages", r.post_message),
        ("GET", message, r.get_message),
        ("PATCH", message, r.patch_message),
        ("DELETE", message, r.delete_message),
        ("GET", "/guilds/{guild_id}/members/{user_id}", r.get_member),
    ]
    for method, path, handler in table:
        app.router.add_route(method, prefix + path, handler)
