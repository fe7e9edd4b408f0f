"""Reading message bodies (JSON or multipart) and turning them into stored, validated messages.

Shared by channel messages, interaction callbacks and interaction webhooks.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from . import limits
from .errors import ApiError, FormErrors
from .models import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_IS_VOICE_MESSAGE,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    Attachment,
    Channel,
    Message,
    User,
    assign_component_ids,
    utcnow,
)
from .store import Store

# The flags a bot may set when creating a message, per endpoint (see limits.check_message_flags).
CHANNEL_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_VOICE_MESSAGE | FLAG_COMPONENTS_V2
INTERACTION_MESSAGE_FLAGS = CHANNEL_MESSAGE_FLAGS | FLAG_EPHEMERAL
FOLLOWUP_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2 | FLAG_EPHEMERAL
DEFERRED_RESPONSE_FLAGS = FLAG_EPHEMERAL
ALL_FLAGS = (1 << 53) - 1


def check_flags(body: Any, allowed: int) -> None:
    """400 50035 unless ``body["flags"]`` (if any) uses only ``allowed`` bits."""
    errors = FormErrors()
    limits.check_message_flags(body.get("flags") if isinstance(body, dict) else None, allowed, errors)
    errors.raise_if_any()


@dataclass
class Upload:
    """One ``files[N]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload (``payload_json`` for multipart) and any uploaded files."""
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read(decode=False)
            name = part.name or ""
            if name == "payload_json":
                payload = _parse_json(data)
            elif name.startswith("files[") and name.endswith("]"):
                uploads.append(Upload(index=int(name[6:-1]), filename=part.filename or name, data=bytes(data)))
            elif name.startswith("file"):
                uploads.append(Upload(index=len(uploads), filename=part.filename or name, data=bytes(data)))
        return payload, uploads
    raw = await request.read()
    return (_parse_json(raw) if raw.strip() else {}), []


def _parse_json(raw: bytes | bytearray) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


def _require_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        errors = FormErrors()
        errors.add([], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        errors.raise_if_any()
    return body


def _new_attachments(store: Store, body: dict[str, Any], uploads: list[Upload]) -> list[Attachment]:
    declared = {str(entry.get("id")): entry for entry in body.get("attachments") or [] if isinstance(entry, dict)}
    attachments = []
    for upload in uploads:
        entry = declared.get(str(upload.index), {})
        filename = entry.get("filename") or upload.filename
        attachments.append(store.add_attachment(filename, upload.data, entry.get("description")))
    return attachments


def _check_fields(
    body: dict[str, Any], uploads: list[Upload], attachment_count: int, *, allowed_flags: int | None = None
) -> None:
    """Field limits, plus the settable flags when ``allowed_flags`` is given (a new message)."""
    errors = FormErrors()
    # An edit may carry any bits (Discord ignores the unsupported ones) but still an integer.
    limits.check_message_flags(body.get("flags"), ALL_FLAGS if allowed_flags is None else allowed_flags, errors)
    limits.check_message_fields(body, errors)
    errors.raise_if_any()
    limits.check_upload_sizes([len(upload.data) for upload in uploads], attachment_count)


def create_message(
    store: Store,
    channel: Channel,
    author: User,
    body: Any,
    uploads: list[Upload],
    *,
    allowed_flags: int = CHANNEL_MESSAGE_FLAGS,
    extra_flags: int = 0,
    **fields: Any,
) -> Message:
    """Validate a create-message body and store the message."""
    body = _require_object(body)
    _check_fields(body, uploads, len(uploads), allowed_flags=allowed_flags)
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    flags = int(body.get("flags") or 0) | extra_flags
    limits.check_v2_message(flags=flags, content=content, embeds=embeds)
    limits.check_not_empty(
        content=content, embeds=embeds, components=components, attachment_count=len(uploads), body=body
    )
    reference_id = _reference(store, channel, body)
    assign_component_ids(components)
    return store.add_message(
        channel,
        author,
        content=content,
        embeds=embeds,
        components=components,
        attachments=_new_attachments(store, body, uploads),
        flags=flags,
        tts=bool(body.get("tts")),
        reference_id=reference_id,
        nonce=body.get("nonce"),
        allowed_mentions=body.get("allowed_mentions"),
        **fields,
    )


NONCE_WINDOW = 180.0  # seconds: "checked for uniqueness in the past few minutes"


def enforced_nonce_duplicate(store: Store, channel: Channel, author: User, body: Any) -> Message | None:
    """The message this body would duplicate under ``enforce_nonce``, if any.

    developers/resources/message.mdx, Create Message: "If true and nonce is present, it will be
    checked for uniqueness in the past few minutes. If another message was created by the same
    author with the same nonce, that message will be returned and no new message will be created."
    (discord.py sends a fresh nonce with ``enforce_nonce`` on every send, so a retried request is
    not posted twice.)
    """
    if not isinstance(body, dict) or body.get("enforce_nonce") is not True or body.get("nonce") is None:
        return None
    since = utcnow() - dt.timedelta(seconds=NONCE_WINDOW)
    for message in reversed(store.channel_messages[channel.id]):
        if message.created_at < since:
            break
        if message.author_id == author.id and message.nonce == body["nonce"] and not message.deleted:
            return message
    return None


def _reference(store: Store, channel: Channel, body: dict[str, Any]) -> int | None:
    reference = body.get("message_reference")
    if not isinstance(reference, dict) or not reference.get("message_id"):
        return None
    target = store.messages.get(int(reference["message_id"]))
    if target is None or target.deleted:
        if reference.get("fail_if_not_exists", True):
            errors = FormErrors()
            errors.add(["message_reference"], "REPLIES_UNKNOWN_MESSAGE", "Unknown message")
            errors.raise_if_any()
        return None
    return target.id


def edit_message(store: Store, message: Message, body: Any, uploads: list[Upload]) -> None:
    """Apply a PATCH body (only the keys present change), validating the resulting message."""
    body = _require_object(body)
    if "attachments" in body and body["attachments"] is not None:
        kept_ids = {str(entry.get("id")) for entry in body["attachments"] if isinstance(entry, dict)}
        kept = [attachment for attachment in message.attachments if str(attachment.id) in kept_ids]
    else:
        kept = list(message.attachments)
    check_body = dict(body)
    check_body.setdefault("flags", message.flags)
    _check_fields(check_body, uploads, len(kept) + len(uploads))

    content = (body.get("content") or "") if "content" in body else message.content
    embeds = (body.get("embeds") or []) if "embeds" in body else message.embeds
    components = (body.get("components") or []) if "components" in body else message.components
    flags = message.flags
    if body.get("flags") is not None:
        requested = int(body["flags"])
        flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (requested & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
    limits.check_v2_message(flags=flags, content=content, embeds=embeds)
    limits.check_not_empty(
        content=content, embeds=embeds, components=components, attachment_count=len(kept) + len(uploads), body=body
    )

    if "components" in body:
        assign_component_ids(components)
    if "content" in body or "allowed_mentions" in body:
        # "If there is no explicit allowed_mentions in the edit request, the content will be parsed
        # with default allowances" (message.mdx, Edit Message).
        message.allowed_mentions = body.get("allowed_mentions")
    message.content, message.embeds, message.components = content, embeds, components
    message.attachments, message.flags = kept + _new_attachments(store, body, uploads), flags
    message.edited_at = utcnow()
