"""Interaction answers: the callback (types 1, 4-9, 12) and the interaction webhook routes.

* ``POST /interactions/{id}/{token}/callback`` -- the first answer, within
  ``fake.interaction_deadline`` seconds (3 on Discord), only once;
* ``POST /webhooks/{app}/{token}`` -- follow-ups (after a deferral the first one fills the
  "thinking" message, as on Discord);
* ``GET/PATCH/DELETE /webhooks/{app}/{token}/messages/@original|{id}``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import json_response
from .messages import ApiError, check_message, invalid, message_changes, notified, read_body
from .model import (
    EPHEMERAL,
    LOADING,
    InteractionRecord,
    MessageRecord,
    ResponseRecord,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL, LAUNCH_ACTIVITY = 8, 9, 12
TOKEN_LIFETIME = 15 * 60.0


class WebhookRoutes:
    """Handlers for interaction callbacks and interaction webhooks."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _interaction(self, request: web.Request) -> InteractionRecord:
        rec = self.fake.interactions.get(int(request.match_info["interaction_id"]))
        if rec is None or rec.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        return rec

    def _by_token(self, request: web.Request) -> InteractionRecord:
        if request.match_info["application_id"] != str(self.fake.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = self.fake.interaction_tokens.get(request.match_info["token"])
        if rec is not None:
            if time.monotonic() - rec.created_at > TOKEN_LIFETIME:  # as Discord answers
                raise ApiError(401, 50027, "Invalid Webhook Token")
            if rec.acknowledged:
                return rec
        raise ApiError(404, 10015, "Unknown Webhook")

    def _attacher(self, rec: InteractionRecord) -> Any:
        return lambda upload, description: self.fake.new_attachment(
            rec.channel_id, upload, description
        )

    def _record(
        self,
        rec: InteractionRecord,
        kind: str,
        type_: int | None,
        payload: dict[str, Any],
        msg: MessageRecord | None,
    ) -> None:
        rec.responses.append(
            ResponseRecord(kind, time.monotonic(), type_, payload, msg.id if msg else None)
        )
        self.fake.notify()

    def _new_message(self, rec: InteractionRecord, flags: int) -> MessageRecord:
        fake = self.fake
        ephemeral = bool(flags & EPHEMERAL)
        return MessageRecord(
            fake.ids.next(),
            rec.channel_id,
            rec.guild_id,
            fake.bot_user.id,
            flags=flags,
            visible_to=rec.user_id if ephemeral else None,
            interaction_id=rec.id,
            webhook_id=fake.application_id,
        )

    # ----- the callback ----------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{interaction_id}/{token}/callback."""
        rec = self._interaction(request)
        start = rec.dispatched_at if rec.dispatched_at is not None else rec.created_at
        if rec.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - start > self.fake.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        msg = await self._apply_callback(rec, kind, data, files)
        rec.callback_type = kind
        self._record(rec, "callback", kind, body, msg)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            }
        }
        if msg is not None:
            answer["interaction"]["response_message_id"] = str(msg.id)
            answer["resource"] = {"type": kind, "message": self.fake.message_payload(msg)}
        if kind == LAUNCH_ACTIVITY:
            instance_id = rec.activity_instance_id
            answer["interaction"]["activity_instance_id"] = instance_id
            answer["resource"] = {"type": kind, "activity_instance": {"id": instance_id}}
        return json_response(200, answer)

    async def _apply_callback(
        self, rec: InteractionRecord, kind: Any, data: dict[str, Any], files: dict[int, Any]
    ) -> MessageRecord | None:
        on_message = rec.message_id is not None  # a component, or a modal opened from one
        if kind == CHANNEL_MESSAGE:
            check_message(data, files, creating=True)
            msg = self._new_message(rec, int(data.get("flags") or 0) & EPHEMERAL)
            for key, value in message_changes(
                data, files, [], self._attacher(rec), msg.flags
            ).items():
                setattr(msg, key, value)
            rec.original_message_id = msg.id
            return await self.fake.add_message(msg)
        if kind == DEFERRED_CHANNEL_MESSAGE:
            msg = self._new_message(rec, (int(data.get("flags") or 0) & EPHEMERAL) | LOADING)
            rec.original_message_id = msg.id
            return await self.fake.add_message(msg)
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and on_message:
            target = self.fake.messages[rec.message_id or 0]
            rec.original_message_id = target.id
            if kind == UPDATE_MESSAGE:
                check_message(data, files, creating=False)
                changes = message_changes(
                    data, files, target.attachments, self._attacher(rec), target.flags & EPHEMERAL
                )
                await self.fake.edit_message(target, changes)
            return target
        if kind == AUTOCOMPLETE_RESULT and rec.type == 4:
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25:
                raise invalid("data.choices: a list of at most 25 choices")
            rec.choices = choices
            return None
        if kind == MODAL and rec.type in (2, 3):
            if not data.get("custom_id") or not 1 <= len(data.get("title") or "") <= 45:
                raise invalid("data: a modal needs a custom_id and a 1-45 character title")
            if not 1 <= len(data.get("components") or []) <= 5:
                raise invalid("data.components: a modal holds 1-5 components")
            rec.modal = data
            return None
        if kind == PONG and rec.type == 1:
            return None
        if kind == LAUNCH_ACTIVITY and rec.type in (2, 3):
            if data:
                raise invalid("data: a LAUNCH_ACTIVITY answer has no data")
            if not self.fake.activities.enabled:
                raise invalid("type: LAUNCH_ACTIVITY needs Activities enabled for the app")
            instance = self.fake.activities.launch(rec.channel_id, rec.user_id)
            rec.activity_instance_id = instance.instance_id
            return None
        raise invalid(f"type: callback type {kind!r} does not fit interaction type {rec.type}")

    # ----- webhook messages --------------------------------------------------------------------
    async def followup(self, request: web.Request) -> web.Response:
        """POST /webhooks/{application_id}/{token}: a follow-up message."""
        rec = self._by_token(request)
        payload, files = await read_body(request)
        check_message(payload, files, creating=True)
        original = self.fake.messages.get(rec.original_message_id or 0)
        if (
            original is not None
            and original.loading
            and rec.callback_type == DEFERRED_CHANNEL_MESSAGE
        ):
            keep = original.flags & EPHEMERAL
            changes = message_changes(payload, files, [], self._attacher(rec), keep)
            changes["flags"] = changes.get("flags", keep) & ~LOADING
            msg = await self.fake.edit_message(original, changes)
        else:
            msg = self._new_message(rec, int(payload.get("flags") or 0) & EPHEMERAL)
            for key, value in message_changes(
                payload, files, [], self._attacher(rec), msg.flags
            ).items():
                setattr(msg, key, value)
            if not msg.ephemeral:  # a new message, seen by all: it notifies as a channel's does
                channel = self.fake.channels.get(rec.channel_id)
                msg.notified = notified(payload, channel.recipient_id if channel else None)
            await self.fake.add_message(msg)
        rec.followup_ids.append(msg.id)
        self._record(rec, "followup", None, payload, msg)
        return json_response(200, self.fake.message_payload(msg))

    def _target(self, request: web.Request, rec: InteractionRecord) -> tuple[str, MessageRecord]:
        ident = request.match_info["message_id"]
        if ident == "@original":
            msg = self.fake.messages.get(rec.original_message_id or 0)
            name = "original"
        else:
            msg = self.fake.messages.get(int(ident))
            owned = msg is not None and (msg.interaction_id == rec.id or msg.id == rec.message_id)
            msg = msg if owned else None
            name = "followup"
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return name, msg

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /webhooks/{application_id}/{token}/messages/{message_id}."""
        rec = self._by_token(request)
        _, msg = self._target(request, rec)
        return json_response(200, self.fake.message_payload(msg))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /webhooks/{application_id}/{token}/messages/{message_id}."""
        rec = self._by_token(request)
        name, msg = self._target(request, rec)
        payload, files = await read_body(request)
        check_message(payload, files, creating=False)
        keep = msg.flags & EPHEMERAL
        changes = message_changes(payload, files, msg.attachments, self._attacher(rec), keep)
        if msg.loading:
            changes["flags"] = changes.get("flags", msg.flags) & ~LOADING
        await self.fake.edit_message(msg, changes)
        self._record(rec, f"edit_{name}", None, payload, msg)
        return json_response(200, self.fake.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /webhooks/{application_id}/{token}/messages/{message_id}."""
        rec = self._by_token(request)
        name, msg = self._target(request, rec)
        await self.fake.delete_message(msg)
        self._record(rec, f"delete_{name}", None, {}, msg)
        return web.Response(status=204)


def add_routes(app: web.Application, fake: FakeDiscord, prefix: str) -> None:
    """Register the interaction routes under ``prefix`` (``/api/v10``)."""
    r = WebhookRoutes(fake)
    message = prefix + "/webhooks/{application_id}/{token}/messages/{message_id}"
    app.router.add_post(prefix + "/interactions/{interaction_id}/{token}/callback", r.callback)
    app.router.add_post(prefix + "/webhooks/{application_id}/{token}", r.followup)
    app.router.add_get(message, r.get_message)
    app.router.add_patch(message, r.edit_message)
    app.router.add_delete(message, r.delete_message)
