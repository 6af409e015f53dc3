"""Message bodies: JSON or multipart (``payload_json`` + ``files[n]``), checks, attachments.

The checks are the ones a bot most often trips on the real Discord (400 code 50035 or
50006, 413 code 40005), so a bug shows up in the fake instead of in production.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from .model import AttachmentRecord, walk_components

MAX_FILE_BYTES = 10 * 1024 * 1024
COMPONENTS_V2 = 1 << 15
SUPPRESS_NOTIFICATIONS = 1 << 12
USER_MENTION = re.compile(r"<@!?(\d+)>")
FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


class ApiError(Exception):
    """An error answer in Discord's format: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def invalid(message: str) -> ApiError:
    """A 400 "Invalid Form Body" (code 50035) naming what is wrong."""
    return ApiError(400, 50035, f"Invalid Form Body: {message}")


@dataclass
class Upload:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


Body = tuple[dict[str, Any], dict[int, "Upload"]]
BODY_KEY = web.RequestKey[Body]("fakediscord.body")  # a multipart body read_body has read


async def read_body(request: web.Request) -> Body:
    """The JSON payload and the uploaded files (by their ``files[n]`` index) of a request
    (read once: a multipart body is kept on the request for the next reader)."""
    if BODY_KEY in request:
        return request[BODY_KEY]
    if request.content_type == "multipart/form-data":
        payload: dict[str, Any] = {}
        files: dict[int, Upload] = {}
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                raise invalid("a nested multipart body")
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif match := FILE_FIELD.match(name):
                data = bytes(await part.read())
                if len(data) > MAX_FILE_BYTES:
                    raise ApiError(413, 40005, "Request entity too large")
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files[int(match.group(1))] = Upload(part.filename or "file", ctype, data)
            else:
                raise invalid(f"unexpected multipart field {name!r}")
        request[BODY_KEY] = (payload, files)
        return payload, files
    if not request.body_exists:
        return {}, {}
    try:
        body = await request.json()
    except json.JSONDecodeError as exc:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    return body, {}


def _check_components(components: list[dict[str, Any]], v2: bool) -> None:
    if not v2 and len(components) > 5:
        raise invalid("components: at most 5 action rows")
    custom_ids: list[str] = []
    for row in components:
        if not v2 and row.get("type") != 1:
            raise invalid("components: top level must be action rows (type 1)")
        if row.get("type") == 1:
            children = row.get("components", [])
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                raise invalid("components: an action row holds 1-5 buttons or one select")
    for comp in walk_components(components):
        kind = comp.get("type")
        if kind == 2:
            if comp.get("style") == 5:
                if "url" not in comp or "custom_id" in comp:
                    raise invalid("components: a link button needs a url and no custom_id")
            elif comp.get("style") != 6 and not comp.get("custom_id"):
                raise invalid("components: a button needs a custom_id")
            if len(comp.get("label") or "") > 80:
                raise invalid("components: button label longer than 80")
        if kind == 3:
            options = comp.get("options", [])
            if not 1 <= len(options) <= 25:
                raise invalid("components: a select menu needs 1-25 options")
            if len({o["value"] for o in options}) != len(options):
                raise invalid("components: select option values must be unique")
        if "custom_id" in comp:
            custom_id = comp["custom_id"]
            if not 1 <= len(custom_id) <= 100:
                raise invalid(f"components: custom_id {custom_id!r} must be 1-100 characters")
            custom_ids.append(custom_id)
    if len(set(custom_ids)) != len(custom_ids):
        raise invalid("components: custom_ids must be unique within a message")


def check_message(payload: dict[str, Any], files: dict[int, Upload], creating: bool) -> None:
    """Raise ApiError if Discord would refuse this message body."""
    content = payload.get("content")
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & COMPONENTS_V2)
    if content is not None and len(content) > 2000:
        raise invalid("content: must be 2000 or fewer in length")
    if v2 and content:
        raise invalid("content: not allowed with the IS_COMPONENTS_V2 flag")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        raise invalid("embeds: at most 10")
    total = 0
    for embed in embeds:
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        if len(embed.get("title") or "") > 256 or len(embed.get("description") or "") > 4096:
            raise invalid("embeds: title over 256 or description over 4096 characters")
        if len(embed.get("fields", [])) > 25:
            raise invalid("embeds: at most 25 fields")
        total += sum(
            len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields", [])
        )
    if total > 6000:
        raise invalid("embeds: more than 6000 characters in all")
    if payload.get("components"):
        _check_components(payload["components"], v2)
    if len(files) > 10:
        raise invalid("files: at most 10")
    if creating and not (
        content
        or embeds
        or files
        or payload.get("components")
        or payload.get("poll")
        or payload.get("sticker_ids")
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def build_attachments(
    payload: dict[str, Any],
    files: dict[int, Upload],
    existing: list[AttachmentRecord],
    new_attachment: Callable[[Upload, str | None], AttachmentRecord],
) -> list[AttachmentRecord] | None:
    """The attachments after this request; None if the request leaves them unchanged.

    ``payload["attachments"]`` lists kept attachments by id and new ones by file index; if
    it is absent, new files are added to the existing ones (Discord's behaviour).
    """
    listed = payload.get("attachments")
    if listed is None:
        if not files:
            return None
        return existing + [new_attachment(files[i], None) for i in sorted(files)]
    by_id = {a.id: a for a in existing}
    out: list[AttachmentRecord] = []
    used: set[int] = set()
    for item in listed:
        ident = int(item["id"])
        if ident in files and ident not in used:
            upload = files[ident]
            if item.get("filename"):
                upload = Upload(item["filename"], upload.content_type, upload.data)
            out.append(new_attachment(upload, item.get("description")))
            used.add(ident)
        elif ident in by_id:
            out.append(by_id[ident])
        else:
            raise invalid(f"attachments: {ident} is neither an uploaded file nor kept")
    unused = set(files) - used
    if unused:
        raise invalid(f"attachments: files {sorted(unused)} are not listed in attachments")
    return out


def message_changes(
    payload: dict[str, Any],
    files: dict[int, Upload],
    existing: list[AttachmentRecord],
    new_attachment: Callable[[Upload, str | None], AttachmentRecord],
    keep_flags: int = 0,
) -> dict[str, Any]:
    """The MessageRecord fields a create/edit body sets (absent keys stay unchanged).

    ``keep_flags`` are flags the body cannot change (e.g. EPHEMERAL on an interaction reply).
    """
    changes: dict[str, Any] = {}
    if "content" in payload:
        changes["content"] = payload["content"] or ""
    if "embeds" in payload:
        changes["embeds"] = payload["embeds"] or []
    if "components" in payload:
        changes["components"] = payload["components"] or []
    if "flags" in payload:
        settable = (1 << 2) | (1 << 12) | COMPONENTS_V2  # suppress embeds/notifications, v2
        changes["flags"] = (int(payload["flags"] or 0) & settable) | keep_flags
    attachments = build_attachments(payload, files, existing, new_attachment)
    if attachments is not None:
        changes["attachments"] = attachments
    return changes


def notified(payload: dict[str, Any], recipient: int | None) -> frozenset[int]:
    """Whom a new message notifies, as Discord decides it: a DM its recipient; a channel
    message the users it mentions that ``allowed_mentions`` lets through (all of them when
    it is absent); nobody with the suppress-notifications flag."""
    if int(payload.get("flags") or 0) & SUPPRESS_NOTIFICATIONS:
        return frozenset()
    if recipient is not None:
        return frozenset({recipient})
    mentioned = {int(i) for i in USER_MENTION.findall(str(payload.get("content") or ""))}
    allowed = payload.get("allowed_mentions")
    if allowed is None or "users" in allowed.get("parse", []):
        return frozenset(mentioned)
    return frozenset(mentioned & {int(u) for u in allowed.get("users", [])})
