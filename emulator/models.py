"""Records the emulator stores: users, guilds, channels, messages, attachments.

They are plain mutable dataclasses. Tests read them directly (``message.content``,
``message.buttons()``); the REST layer turns them into Discord JSON with
:mod:`emulator.payloads`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
MiB = 1024 * 1024

# Channel types.
GUILD_TEXT = 0
DM = 1
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_VOICE_MESSAGE = 1 << 13
FLAG_COMPONENTS_V2 = 1 << 15

# Permission bits used by the emulator.
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS | MENTION_EVERYONE

_MENTION_RE = re.compile(r"<@!?(\d+)>")
_snowflake_counter = itertools.count()
_last_snowflake = 0


def new_snowflake(*, millisecond_mod: tuple[int, int] | None = None) -> int:
    """A Discord-style id: milliseconds since the Discord epoch, shifted, unique per process.

    ``millisecond_mod=(r, n)``: the id's millisecond is later than every earlier id's and leaves
    remainder ``r`` modulo ``n``. Discord's sharding formula reads only the millisecond
    (``(id >> 22) % shards``), so guilds made in one burst would otherwise all land on one shard;
    ``(0, 1)`` just spreads them, ``(s, n)`` puts a guild on shard ``s`` of ``n``.
    """
    global _last_snowflake
    millisecond = int(time.time() * 1000) - DISCORD_EPOCH_MS
    if millisecond_mod is not None:
        remainder, modulus = millisecond_mod
        millisecond = max(millisecond, (_last_snowflake >> 22) + 1)
        millisecond += (remainder - millisecond) % modulus
    candidate = (millisecond << 22) | (next(_snowflake_counter) & 0xFFF)
    if candidate <= _last_snowflake:
        candidate = _last_snowflake + 1
    _last_snowflake = candidate
    return candidate


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # the Discord client's language: the interaction's ``locale``

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    bot_role_id: int
    member_ids: list[int] = field(default_factory=list)
    joined_at: dict[int, dt.datetime] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"  # the community's language: GUILD_CREATE and the interaction's ``guild_locale``

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread (``parent_id`` set) or a DM (``recipient_id`` set)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    allow_threads: bool = True
    bot_can_send: bool = True
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: dt.datetime = field(default_factory=utcnow)
    active_at: float | None = None
    """A thread's latest activity (made, a message, unarchived), by the emulator's clock (``Store.clock``): it
    archives itself ``auto_archive_duration`` minutes later, as Discord's threads do."""
    archived_at: float | None = None
    """When a thread's archive status last changed, by the emulator's clock (its ``archive_timestamp``)."""
    last_message_id: int | None = None
    message_count: int = 0
    member_ids: set[int] = field(default_factory=set)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<Channel #{self.name or self.id} type={self.type} id={self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str = ""
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.content_type} {self.size}B>"


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a (possibly nested, components-v2) component tree, depth first."""
    for component in components:
        if not isinstance(component, dict):
            continue  # refused by the checks; never stored
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def assign_component_ids(components: list[dict[str, Any]]) -> None:
    """Give every component without an ``id`` (or with 0) the next free one, 1, 2, ... depth first, as
    Discord does ("generated sequentially if left empty ... won't use another id that exists in the
    message", developers/components/reference.mdx)."""
    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int) and c["id"]}
    next_id = 1
    for component in walk_components(components):
        if not component.get("id"):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)


def _embed_text(embed: dict[str, Any]) -> list[str]:
    parts = [str(embed[key]) for key in ("title", "description") if embed.get(key)]
    for embed_field in embed.get("fields") or []:
        parts.extend(str(embed_field.get(key) or "") for key in ("name", "value"))
    for key in ("author", "footer"):
        sub = embed.get(key) or {}
        text = sub.get("name") if key == "author" else sub.get("text")
        if text:
            parts.append(str(text))
    return parts


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    guild_id: int | None = None
    type: int = 0
    webhook_id: int | None = None
    interaction_id: int | None = None
    reference_id: int | None = None
    tts: bool = False
    deleted: bool = False
    nonce: int | str | None = None
    # The request's allowed_mentions (None: the defaults), and the defaults of where it was sent:
    # "In regular messages, all mention types are parsed ... In interactions and webhooks, only
    # user mentions are parsed" (developers/resources/message.mdx, Allowed Mentions Object).
    allowed_mentions: dict[str, Any] | None = None
    default_mention_parse: tuple[str, ...] = ("users", "roles", "everyone")

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred interaction's "thinking…" placeholder that was not filled yet."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def mentions(self) -> list[int]:
        """User ids mentioned as ``<@id>`` in the content, in order, without duplicates."""
        return list(dict.fromkeys(int(match) for match in _MENTION_RE.findall(self.content)))

    @property
    def pinged(self) -> list[int]:
        """User ids this message notifies: mentioned in the content and let through by allowed_mentions."""
        allowed = self.allowed_mentions
        parse = self.default_mention_parse if allowed is None else tuple(allowed.get("parse") or ())
        listed = {str(user_id) for user_id in ((allowed or {}).get("users") or [])}
        return [uid for uid in self.mentions if "users" in parse or str(uid) in listed]

    @property
    def text(self) -> str:
        """The content plus embed titles, descriptions, fields, authors and footers, newline-joined."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(_embed_text(embed))
        parts.extend(
            str(component["content"])
            for component in walk_components(self.components)
            if component.get("type") == 10 and component.get("content")
        )
        return "\n".join(parts)

    def all_components(self) -> list[dict[str, Any]]:
        return list(walk_components(self.components))

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in walk_components(self.components) if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[dict[str, Any]]:
        """Buttons as ``{custom_id, label, style, disabled}`` (plus ``url`` for link buttons)."""
        found = []
        for component in walk_components(self.components):
            if component.get("type") != 2:
                continue
            button = {
                "custom_id": component.get("custom_id"),
                "label": component.get("label"),
                "style": component.get("style"),
                "disabled": bool(component.get("disabled", False)),
            }
            if component.get("url"):
                button["url"] = component["url"]
            found.append(button)
        return found

    def selects(self) -> list[dict[str, Any]]:
        """Select menus (component types 3 and 5–8) as the raw component dicts."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def __repr__(self) -> str:
        preview = self.content if len(self.content) <= 40 else self.content[:37] + "..."
        return f"<Message id={self.id} channel={self.channel_id} {preview!r} flags={self.flags}>"
