"""Discord's documented limits, checked on everything the bot sends.

Each ``check_*`` function adds field errors to a :class:`~emulator.errors.FormErrors`
(which becomes 400/50035) or raises an :class:`~emulator.errors.ApiError` directly for
rules that have their own error code.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse
from collections.abc import Sequence
from typing import Any

from .errors import ApiError, FormErrors
from .models import FLAG_COMPONENTS_V2, MiB, walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ATTACHMENTS = 10
MAX_FILE_SIZE = 10 * MiB
MAX_REQUEST_SIZE = 25 * MiB
MAX_ACTION_ROWS = 5
MAX_V2_COMPONENTS = 40

SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TOP_LEVEL_TYPES = (1, 9, 10, 12, 13, 14, 17)
CONTAINER_CHILD_TYPES = (1, 9, 10, 12, 13, 14)
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


Path = list[str | int]


# --------------------------------------------------------------------------- messages


def check_message_fields(body: dict[str, Any], errors: FormErrors, *, prefix: Sequence[str | int] = ()) -> None:
    """Field limits of a create/edit message body (content, embeds, components, nonce, stickers)."""
    base: Path = list(prefix)
    content = body.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(base + ["content"], "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        else:
            errors.max_length(base + ["content"], content, MAX_CONTENT)
    nonce = body.get("nonce")
    if isinstance(nonce, str):
        errors.max_length(base + ["nonce"], nonce, 25)
    elif nonce is not None and (isinstance(nonce, bool) or not isinstance(nonce, int) or not -(2**63) <= nonce < 2**63):
        errors.add(base + ["nonce"], "BASE_TYPE_BAD_TYPE", "Must be an int64 or a string of up to 25 characters.")
    for key in ("tts", "enforce_nonce"):
        if body.get(key) is not None and not isinstance(body[key], bool):
            errors.add(base + [key], "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")
    check_allowed_mentions(body.get("allowed_mentions"), errors, base + ["allowed_mentions"])
    check_attachment_entries(body.get("attachments"), errors, base + ["attachments"])
    reference = body.get("message_reference")
    if reference is not None and (not isinstance(reference, dict) or reference.get("message_id") is None):
        errors.required(base + ["message_reference", "message_id"])
    stickers = body.get("sticker_ids")
    if stickers:
        errors.max_length(base + ["sticker_ids"], stickers, 3)
    embeds = body.get("embeds")
    if embeds:
        check_embeds(embeds, errors, base + ["embeds"])
    components = body.get("components")
    if components:
        raw_flags = body.get("flags")
        flags = raw_flags if isinstance(raw_flags, int) else 0
        check_message_components(components, flags, errors, base + ["components"])


MENTION_TYPES = ("roles", "users", "everyone")


def check_allowed_mentions(allowed: Any, errors: FormErrors, path: Path) -> None:
    """developers/resources/message.mdx "Allowed Mentions Object": parse holds mention types; roles
    and users at most 100 ids (unique, per the OpenAPI description); and ``parse`` is mutually
    exclusive with a non-empty ``users`` / ``roles``: "an *invalid* configuration ... causing a
    validation error"."""
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    parse = allowed.get("parse") or []
    if not isinstance(parse, list):
        errors.add(path + ["parse"], "LIST_TYPE_CONVERT", "Must be an array.")
        parse = []
    for index, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            errors.add(path + ["parse", index], "BASE_TYPE_CHOICES", f"Value must be one of {MENTION_TYPES}.")
    if len(set(map(str, parse))) != len(parse):
        errors.add(path + ["parse"], "BASE_TYPE_UNIQUE", "Values must be unique.")
    for key in ("users", "roles"):
        ids = allowed.get(key) or []
        if not isinstance(ids, list):
            errors.add(path + [key], "LIST_TYPE_CONVERT", "Must be an array.")
            continue
        errors.max_length(path + [key], ids, 100)
        for index, value in enumerate(ids):
            if not _is_snowflake(value):
                errors.add(path + [key, index], "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
        if len(set(map(str, ids))) != len(ids):
            errors.add(path + [key], "BASE_TYPE_UNIQUE", "Values must be unique.")
        if ids and key in parse:
            errors.add(
                path + [key],
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids] are mutually exclusive.',
            )
    replied = allowed.get("replied_user")
    if replied is not None and not isinstance(replied, bool):
        errors.add(path + ["replied_user"], "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")


def check_attachment_entries(entries: Any, errors: FormErrors, path: Path) -> None:
    """The ``attachments`` array (OpenAPI MessageAttachmentRequest): ``id`` required, ``filename``
    1-1024 and ``description`` up to 1024 characters, at most 10 entries."""
    if entries is None:
        return
    if not isinstance(entries, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    errors.max_length(path, entries, MAX_ATTACHMENTS)
    for index, entry in enumerate(entries):
        here = path + [index]
        if not isinstance(entry, dict):
            errors.add(here, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        if entry.get("id") is None:
            errors.required(here + ["id"])
        elif not _is_snowflake(entry["id"]):
            errors.add(here + ["id"], "NUMBER_TYPE_COERCE", f'Value "{entry["id"]}" is not snowflake.')
        if entry.get("filename") is not None:
            errors.length_between(here + ["filename"], entry["filename"], 1, 1024)
        errors.max_length(here + ["description"], entry.get("description"), 1024)


def _is_snowflake(value: Any) -> bool:
    """An id as Discord reads one: a non-negative integer or a string of digits, below 2**64."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return isinstance(value, int) and 0 <= value < 2**64


def check_embeds(embeds: list[dict[str, Any]], errors: FormErrors, path: Path) -> None:
    if len(embeds) > MAX_EMBEDS:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        here = path + [index]
        title, description = embed.get("title"), embed.get("description")
        errors.max_length(here + ["title"], title, 256)
        errors.max_length(here + ["description"], description, 4096)
        total += len(title or "") + len(description or "")
        fields = embed.get("fields") or []
        errors.max_length(here + ["fields"], fields, 25)
        for field_index, embed_field in enumerate(fields):
            name, value = embed_field.get("name"), embed_field.get("value")
            for key, text, limit in (("name", name, 256), ("value", value, 1024)):
                if not text or (isinstance(text, str) and not text.strip()):
                    errors.required(here + ["fields", field_index, key])
                else:
                    errors.max_length(here + ["fields", field_index, key], text, limit)
            total += len(name or "") + len(value or "")
        footer_text = (embed.get("footer") or {}).get("text")
        author_name = (embed.get("author") or {}).get("name")
        errors.max_length(here + ["footer", "text"], footer_text, 2048)
        errors.max_length(here + ["author", "name"], author_name, 256)
        total += len(footer_text or "") + len(author_name or "")
        colour = embed.get("color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            errors.add(here + ["color"], "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
        for field_index, embed_field in enumerate(fields):
            inline = embed_field.get("inline")
            if inline is not None and not isinstance(inline, bool):
                where = here + ["fields", field_index, "inline"]
                errors.add(where, "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")
        _check_embed_urls(embed, here, errors)
        timestamp = embed.get("timestamp")
        if timestamp is not None and not _is_iso_timestamp(timestamp):
            errors.add(here + ["timestamp"], "DATE_TIME_TYPE_PARSE", f"Could not parse {timestamp}. Should be ISO8601.")
    if total > MAX_EMBED_TOTAL:
        errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


WEB_SCHEMES = ("http", "https")
IMAGE_SCHEMES = ("http", "https", "attachment")  # attachment://name for an uploaded file
LINK_BUTTON_SCHEMES = ("http", "https", "discord")


def check_url(value: Any, schemes: tuple[str, ...], max_length: int, errors: FormErrors, path: Path) -> None:
    """A URL field (OpenAPI ``format: uri``): a well-formed URL of an accepted scheme. Discord answers
    URL_TYPE_INVALID_SCHEME "Scheme "x" is not supported. Scheme must be one of ('http', 'https')."
    (link buttons also take discord://, embed images attachment://) and URL_TYPE_INVALID_URL
    "Not a well formed URL." (as quoted in public bug reports, e.g. discord-api-docs issues 715, 3129)."""
    if value is None:
        return
    if not isinstance(value, str):
        errors.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        return
    errors.max_length(path, value, max_length)
    parsed = urllib.parse.urlsplit(value)
    if parsed.scheme.lower() not in schemes:
        message = f'Scheme "{parsed.scheme}" is not supported. Scheme must be one of {schemes}.'
        errors.add(path, "URL_TYPE_INVALID_SCHEME", message)
    elif not parsed.netloc or any(c.isspace() for c in value):
        errors.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _check_embed_urls(embed: dict[str, Any], path: Path, errors: FormErrors) -> None:
    check_url(embed.get("url"), WEB_SCHEMES, 2048, errors, path + ["url"])
    for key, url_keys in (("author", ("url", "icon_url")), ("footer", ("icon_url",))):
        part = embed.get(key)
        if isinstance(part, dict):
            for url_key in url_keys:
                check_url(part.get(url_key), WEB_SCHEMES, 2048, errors, path + [key, url_key])
    for key in ("image", "thumbnail"):
        part = embed.get(key)
        if isinstance(part, dict):
            check_url(part.get("url"), IMAGE_SCHEMES, 2048, errors, path + [key, "url"])


def _is_iso_timestamp(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def check_not_empty(
    *, content: str, embeds: list[Any], components: list[Any], attachment_count: int, body: dict[str, Any]
) -> None:
    """A message must carry something: content, an embed, a component, a file, a sticker or a poll.

    Discord trims the content, so whitespace alone is no content (content "\\n" answers 50006, as
    quoted in NITKC-DEV/Kisarazu-Multi-Manager issue 32)."""
    if content.strip() or embeds or components or attachment_count or body.get("sticker_ids") or body.get("poll"):
        return
    raise ApiError(400, 50006, "Cannot send an empty message")


def check_v2_message(*, flags: int, content: str, embeds: list[Any]) -> None:
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        errors = FormErrors()
        errors.add(
            ["content" if content else "embeds"],
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using the IS_COMPONENTS_V2 flag",
        )
        errors.raise_if_any()


def check_message_flags(flags: Any, allowed: int, errors: FormErrors, path: Sequence[str | int] = ("flags",)) -> int:
    """The ``flags`` of a new message: an integer using only the bits that endpoint lets a bot set.

    Discord documents the settable flags per endpoint (developers/resources/message.mdx "Create
    Message": SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2;
    interactions/receiving-and-responding.mdx "Messages" adds EPHEMERAL, and a deferral may use
    EPHEMERAL only; resources/webhook.mdx "Execute Webhook": SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS,
    IS_COMPONENTS_V2, plus EPHEMERAL for interaction followups). Others are refused with 400 50035
    rather than dropped. Edits are different: Discord ignores unsupported flag changes there.
    """
    if flags is None:
        return 0
    if isinstance(flags, bool) or not isinstance(flags, int):
        errors.add(list(path), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
        return 0
    if flags < 0 or flags & ~allowed:
        extra = flags & ~allowed if flags >= 0 else flags
        message = f"Flags {extra} cannot be set on this message (allowed: {allowed})."
        errors.add(list(path), "MESSAGE_FLAGS_INVALID", message)
        return 0
    return flags


def check_upload_sizes(sizes: Sequence[int], attachment_count: int) -> None:
    """File count and size: >10 attachments → 400 30015; a file > 10 MiB or request > 25 MiB → 413 40005."""
    if attachment_count > MAX_ATTACHMENTS:
        raise ApiError(400, 30015, f"Maximum number of attachments in a message reached ({MAX_ATTACHMENTS})")
    if any(size > MAX_FILE_SIZE for size in sizes) or sum(sizes) > MAX_REQUEST_SIZE:
        raise ApiError(413, 40005, "Request entity too large")


# ------------------------------------------------------------------------- components


def check_message_components(components: Any, flags: int, errors: FormErrors, path: Path) -> None:
    if not isinstance(components, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if v2:
        if sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
            errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    else:
        errors.max_length(path, components, MAX_ACTION_ROWS)
    allowed = V2_TOP_LEVEL_TYPES if v2 else (1,)
    check_component_ids(components, errors, path)
    seen: set[str] = set()
    for index, component in enumerate(components):
        here = path + [index]
        if not isinstance(component, dict) or component.get("type") not in allowed:
            errors.add(here + ["type"], "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {allowed}.')
            continue
        _check_component(component, here, errors, seen, modal=False)


MAX_COMPONENT_ID = 2**31 - 1


def check_component_ids(components: Any, errors: FormErrors, path: Path) -> None:
    """Optional ``id``s: 32-bit integers, unique within the message (0 means "assign one").

    developers/components/reference.mdx, "Anatomy of a Component": "The id must be unique within
    the message and is generated sequentially if left empty."
    """
    seen: set[int] = set()

    def visit(component: Any, here: Path) -> None:
        if not isinstance(component, dict):
            return
        if "id" in component and component["id"] is not None:
            value = component["id"]
            if isinstance(value, bool) or not isinstance(value, int):
                errors.add(here + ["id"], "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
            elif not 0 <= value <= MAX_COMPONENT_ID:
                errors.add(here + ["id"], "NUMBER_TYPE_MAX", f"int value should be <= {MAX_COMPONENT_ID} and >= 0.")
            elif value and value in seen:
                errors.add(here + ["id"], "COMPONENT_ID_DUPLICATED", "Component id must be unique within the message")
            elif value:
                seen.add(value)
        children = component.get("components")
        if isinstance(children, list):
            for index, child in enumerate(children):
                visit(child, here + ["components", index])
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                visit(component[key], here + [key])

    if isinstance(components, list):
        for index, component in enumerate(components):
            visit(component, path + [index])


def check_modal(data: dict[str, Any], errors: FormErrors) -> None:
    """A type-9 modal callback's ``data``."""
    errors.length_between(["data", "custom_id"], data.get("custom_id"), 1, 100)
    errors.length_between(["data", "title"], data.get("title"), 1, 45)
    components = data.get("components")
    if not isinstance(components, list) or not components:
        errors.add(["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        return
    errors.max_length(["data", "components"], components, 5)
    check_component_ids(components, errors, ["data", "components"])
    seen: set[str] = set()
    for index, component in enumerate(components):
        here: Path = ["data", "components", index]
        if not isinstance(component, dict) or component.get("type") not in (1, 10, 18):
            errors.add(here + ["type"], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1, 10, 18).')
            continue
        _check_component(component, here, errors, seen, modal=True)


def _check_component(component: dict[str, Any], path: Path, errors: FormErrors, seen: set[str], *, modal: bool) -> None:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None:
        if custom_id in seen:
            errors.add(
                path + ["custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
            )
        seen.add(custom_id)
    if kind == 1:
        _check_action_row(component, path, errors, seen, modal=modal)
    elif kind == 2:
        _check_button(component, path, errors)
    elif kind in SELECT_TYPES:
        _check_select(component, path, errors)
    elif kind == 4:
        if not modal:
            errors.add(path + ["type"], "COMPONENT_TYPE_INVALID", "Text inputs are only valid in modals")
        _check_text_input(component, path, errors)
    elif kind == 9:
        _check_section(component, path, errors, seen, modal=modal)
    elif kind == 10:
        content = component.get("content")
        if not content:
            errors.required(path + ["content"])
        errors.max_length(path + ["content"], content, 4000)
    elif kind == 17:
        children = component.get("components") or []
        if not children:
            errors.required(path + ["components"])
        for index, child in enumerate(children):
            if not isinstance(child, dict) or child.get("type") not in CONTAINER_CHILD_TYPES:
                errors.add(path + ["components", index, "type"], "UNION_TYPE_CHOICES", "Invalid container child")
                continue
            _check_component(child, path + ["components", index], errors, seen, modal=modal)
    elif kind == 12:
        items = component.get("items") or []
        if not 1 <= len(items) <= 10:
            errors.add(path + ["items"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
    elif kind == 18:
        errors.length_between(path + ["label"], component.get("label"), 1, 45)
        errors.max_length(path + ["description"], component.get("description"), 100)
        child = component.get("component")
        if not isinstance(child, dict):
            errors.required(path + ["component"])
        else:
            _check_component(child, path + ["component"], errors, seen, modal=modal)
    elif kind not in (11, 13, 14):
        errors.add(path + ["type"], "COMPONENT_TYPE_INVALID", f"Unknown component type {kind!r}")


def _check_action_row(row: dict[str, Any], path: Path, errors: FormErrors, seen: set[str], *, modal: bool) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not children:
        errors.add(path + ["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        return
    kinds = [child.get("type") if isinstance(child, dict) else None for child in children]
    if any(kind in SELECT_TYPES or kind == 4 for kind in kinds) and len(children) > 1:
        errors.add(
            path + ["components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    elif len(children) > 5:
        errors.add(path + ["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for index, child in enumerate(children):
        if not errors.mapping(path + ["components", index], child):
            continue
        if child.get("type") in (1, 9, 10, 17):
            errors.add(path + ["components", index, "type"], "UNION_TYPE_CHOICES", "Invalid action row child")
            continue
        _check_component(child, path + ["components", index], errors, seen, modal=modal)


def _check_button(button: dict[str, Any], path: Path, errors: FormErrors) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(path + ["style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        return
    if style == 5:
        if not button.get("url"):
            errors.required(path + ["url"])
        check_url(button.get("url"), LINK_BUTTON_SCHEMES, 512, errors, path + ["url"])
        if button.get("custom_id") is not None:
            errors.add(
                path + ["custom_id"], "BUTTON_COMPONENT_INVALID_CUSTOM_ID", "Link buttons cannot have a custom_id"
            )
    elif style == 6:
        if not button.get("sku_id"):
            errors.required(path + ["sku_id"])
    else:
        errors.length_between(path + ["custom_id"], button.get("custom_id"), 1, 100)
    errors.max_length(path + ["label"], button.get("label"), 80)
    if button.get("disabled") is not None and not isinstance(button["disabled"], bool):
        errors.add(path + ["disabled"], "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")
    if style != 6 and not button.get("label") and not button.get("emoji"):
        errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required")


def _check_select(select: dict[str, Any], path: Path, errors: FormErrors) -> None:
    errors.length_between(path + ["custom_id"], select.get("custom_id"), 1, 100)
    errors.max_length(path + ["placeholder"], select.get("placeholder"), 150)
    min_values, max_values = select.get("min_values"), select.get("max_values")
    errors.number_between(path + ["min_values"], min_values, 0, 25)
    errors.number_between(path + ["max_values"], max_values, 1, 25)
    if isinstance(min_values, int) and isinstance(max_values, int) and min_values > max_values:
        errors.add(path + ["min_values"], "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min_values exceeds max_values")
    if select.get("type") != 3:
        return
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= 25:
        errors.add(path + ["options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
        return
    values: set[str] = set()
    for index, option in enumerate(options):
        here = path + ["options", index]
        errors.length_between(here + ["label"], option.get("label"), 1, 100)
        errors.length_between(here + ["value"], option.get("value"), 1, 100)
        errors.max_length(here + ["description"], option.get("description"), 100)
        if option.get("value") in values:
            errors.add(here + ["value"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique")
        values.add(option.get("value"))
    if isinstance(max_values, int) and max_values > len(options):
        errors.add(path + ["max_values"], "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values exceeds options")


def _check_text_input(text_input: dict[str, Any], path: Path, errors: FormErrors) -> None:
    errors.length_between(path + ["custom_id"], text_input.get("custom_id"), 1, 100)
    errors.max_length(path + ["label"], text_input.get("label"), 45)
    if text_input.get("style") not in (1, 2):
        errors.add(path + ["style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    errors.number_between(path + ["min_length"], text_input.get("min_length"), 0, 4000)
    errors.number_between(path + ["max_length"], text_input.get("max_length"), 1, 4000)
    errors.max_length(path + ["value"], text_input.get("value"), 4000)
    errors.max_length(path + ["placeholder"], text_input.get("placeholder"), 100)


def _check_section(section: dict[str, Any], path: Path, errors: FormErrors, seen: set[str], *, modal: bool) -> None:
    children = section.get("components") or []
    if not 1 <= len(children) <= 3:
        errors.add(path + ["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
    for index, child in enumerate(children):
        if not isinstance(child, dict) or child.get("type") != 10:
            errors.add(path + ["components", index, "type"], "UNION_TYPE_CHOICES", "Sections hold text displays")
            continue
        _check_component(child, path + ["components", index], errors, seen, modal=modal)
    accessory = section.get("accessory")
    if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
        errors.add(path + ["accessory"], "UNION_TYPE_CHOICES", "A section needs a button or thumbnail accessory")
    else:
        _check_component(accessory, path + ["accessory"], errors, seen, modal=modal)


def check_history_query(query: Any) -> int:
    """GET /channels/{id}/messages: ``limit`` an integer 1-100 (default 50); ``around``, ``before``,
    ``after`` snowflakes, at most one of them ("mutually exclusive, only one may be passed at a
    time", developers/resources/message.mdx; ranges from the OpenAPI description). Returns the limit."""
    errors = FormErrors()
    raw = query.get("limit", "50")
    limit = int(raw) if raw.lstrip("-").isdigit() else None
    if limit is None:
        errors.add(["limit"], "NUMBER_TYPE_COERCE", f'Value "{raw}" is not int.')
    elif not 1 <= limit <= 100:
        errors.add(["limit"], "NUMBER_TYPE_MAX", "int value should be less than or equal to 100 and greater than 0.")
    given = [key for key in ("around", "before", "after") if key in query]
    for key in given:
        if not _is_snowflake(query[key]):
            errors.add([key], "NUMBER_TYPE_COERCE", f'Value "{query[key]}" is not snowflake.')
    if len(given) > 1:
        errors.add([given[1]], "BASE_TYPE_BAD_TYPE", f"Only one of around, before, after may be given (got {given}).")
    errors.raise_if_any()
    return limit or 50


def check_thread_body(body: dict[str, Any]) -> None:
    errors = FormErrors()
    errors.length_between(["name"], body.get("name"), 1, 100)
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
        errors.add(["auto_archive_duration"], "BASE_TYPE_CHOICES", f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.")
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None:
        errors.number_between(["rate_limit_per_user"], slowmode, 0, 21600)
    errors.raise_if_any()
