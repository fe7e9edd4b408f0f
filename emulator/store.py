"""The emulator's world: users, guilds, channels, messages and commands, plus their Discord JSON."""

from __future__ import annotations

import datetime as dt
import mimetypes
import struct
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from .errors import unknown_channel, unknown_message
from .models import (
    ATTACH_FILES,
    BOT_ROLE_PERMISSIONS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Message,
    User,
    iso,
    new_snowflake,
    utcnow,
)

DM_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY


def guess_content_type(filename: str, data: bytes) -> str:
    """Discord infers the type from the name (dpy always uploads as application/octet-stream)."""
    guessed, _ = mimetypes.guess_type(filename)
    if guessed:
        return guessed
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    return "application/octet-stream"


def image_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    return None


class Store:
    def __init__(self, bot: User, application_id: int) -> None:
        self.bot = bot
        self.application_id = application_id
        self.application_flags = 0  # READY's and GET /oauth2/applications/@me's ``flags`` (EMBEDDED: Activities)
        self.users: dict[int, User] = {bot.id: bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[Message]] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self.attachment_base_url = ""
        # The time threads are idle by (auto-archiving): the system's, or the sandbox's clock with its advance.
        self.clock: Callable[[], float] = time.time

    # ------------------------------------------------------------------ lookups

    def channel(self, channel_id: int | str) -> Channel:
        try:
            channel = self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise unknown_channel() from None
        if channel.deleted:
            raise unknown_channel()
        return channel

    def message(self, channel_id: int | str, message_id: int | str) -> Message:
        try:
            message = self.messages[int(message_id)]
        except (KeyError, ValueError):
            raise unknown_message() from None
        if message.deleted or message.channel_id != int(channel_id):
            raise unknown_message()
        return message

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds.get(channel.guild_id)

    def parent_of(self, channel: Channel) -> Channel:
        return self.channels[channel.parent_id] if channel.parent_id is not None else channel

    # ----------------------------------------------------------------- creation

    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False, locale: str = "en-US") -> User:
        user = User(id=new_snowflake(), name=name, bot=bot, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        for guild in self.guilds.values():
            self.add_member(guild, user)
        return user

    def add_member(self, guild: Guild, user: User) -> None:
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)
            guild.joined_at[user.id] = utcnow()

    def add_guild(
        self, name: str, owner: User | None = None, *, shard: tuple[int, int] = (0, 1), locale: str = "en-US"
    ) -> Guild:
        """``shard=(s, n)``: an id that Discord's formula puts on shard ``s`` of ``n``; by default
        consecutive guilds are a millisecond apart, so they spread over any number of shards."""
        guild_id = new_snowflake(millisecond_mod=shard)
        guild = Guild(id=guild_id, name=name, owner_id=0, bot_role_id=new_snowflake(), preferred_locale=locale)
        humans = [user for user in self.users.values() if user is not self.bot]
        guild.owner_id = (owner or (humans[0] if humans else self.bot)).id
        self.guilds[guild.id] = guild
        self.guild_commands.setdefault(guild.id, [])
        self.add_member(guild, self.bot)
        for user in humans:
            self.add_member(guild, user)
        return guild

    def add_text_channel(self, guild: Guild, name: str, *, allow_threads: bool, bot_can_send: bool) -> Channel:
        channel = Channel(
            id=new_snowflake(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
            allow_threads=allow_threads,
            bot_can_send=bot_can_send,
        )
        guild.channel_ids.append(channel.id)
        self._register_channel(channel)
        return channel

    def add_thread(
        self,
        parent: Channel,
        *,
        name: str,
        kind: int,
        owner_id: int,
        auto_archive_duration: int,
        invitable: bool = True,
        thread_id: int | None = None,
    ) -> Channel:
        thread = Channel(
            id=thread_id or new_snowflake(),
            type=kind,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            member_ids={owner_id},
            active_at=self.clock(),
        )
        self._register_channel(thread)
        return thread

    def set_archived(self, thread: Channel, archived: bool) -> None:
        """Archive or unarchive a thread now (unarchiving is activity: its idle time starts again)."""
        now = self.clock()
        if archived != thread.archived:
            thread.archived, thread.archived_at = archived, now
        if not archived:
            thread.active_at = now

    def idle_threads(self) -> list[Channel]:
        """Threads in use that have had no activity for their ``auto_archive_duration`` (minutes): Discord
        archives them then, and they leave the channel list until a message or a member unarchives them."""
        now = self.clock()
        return [
            c
            for c in self.channels.values()
            if c.is_thread
            and not c.archived
            and not c.deleted
            and now - (c.active_at if c.active_at is not None else c.created_at.timestamp())
            >= c.auto_archive_duration * 60
        ]

    def dm_channel_for(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=new_snowflake(), type=DM, recipient_id=user.id)
            self.dm_channels[user.id] = channel
            self._register_channel(channel)
        return channel

    def _register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []

    def add_attachment(self, filename: str, data: bytes, description: str | None = None) -> Attachment:
        attachment = Attachment(
            id=new_snowflake(),
            filename=filename,
            data=data,
            content_type=guess_content_type(filename, data),
            description=description,
        )
        size = image_size(data)
        if size:
            attachment.width, attachment.height = size
        attachment.url = f"{self.attachment_base_url}/attachments/{attachment.id}/{quote(filename)}"
        self.attachments[attachment.id] = attachment
        return attachment

    def add_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        message = Message(
            id=new_snowflake(), channel_id=channel.id, author_id=author.id, guild_id=channel.guild_id, **fields
        )
        self.messages[message.id] = message
        self.channel_messages[channel.id].append(message)
        channel.last_message_id = message.id
        channel.message_count += 1
        if channel.is_thread:
            channel.active_at = self.clock()
        return message

    def threads_of(self, channel: Channel) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == channel.id and not c.deleted]

    # ------------------------------------------------------------ permissions

    def bot_denied(self, channel: Channel) -> int:
        """Bits denied to the bot by the channel's member overwrite (the knobs create_text_channel sets)."""
        denied = 0
        if not channel.bot_can_send:
            denied |= SEND_MESSAGES
        if not channel.allow_threads:
            denied |= CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
        return denied

    def bot_permissions(self, channel: Channel) -> int:
        if channel.is_dm:
            return DM_PERMISSIONS
        return BOT_ROLE_PERMISSIONS & ~self.bot_denied(self.parent_of(channel))

    def member_permissions(self, channel: Channel, user: User) -> int:
        if user is self.bot:
            return self.bot_permissions(channel)
        return DM_PERMISSIONS if channel.is_dm else EVERYONE_PERMISSIONS

    # ---------------------------------------------------------------- payloads

    def user_payload(self, user: User) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(user.id),
            "username": user.name,
            "global_name": user.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if user.bot:
            payload["bot"] = True
        return payload

    def member_payload(self, guild: Guild, user: User, *, with_user: bool = True) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [str(guild.bot_role_id)] if user is self.bot else [],
            "joined_at": iso(guild.joined_at.get(user.id, utcnow())),
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user_payload(user)
        return payload

    def role_payloads(self, guild: Guild) -> list[dict[str, Any]]:
        def role(role_id: int, name: str, permissions: int, position: int, **extra: Any) -> dict[str, Any]:
            return {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
                **extra,
            }

        return [
            role(guild.id, "@everyone", EVERYONE_PERMISSIONS, 0),
            role(
                guild.bot_role_id,
                self.bot.name,
                BOT_ROLE_PERMISSIONS,
                1,
                managed=True,
                tags={"bot_id": str(self.bot.id)},
            ),
        ]

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        if channel.is_dm:
            recipient = self.users[channel.recipient_id or 0]
            return {
                "id": str(channel.id),
                "type": DM,
                "recipients": [self.user_payload(recipient)],
                "last_message_id": _opt_str(channel.last_message_id),
                "flags": 0,
            }
        payload: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "last_message_id": _opt_str(channel.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if channel.is_thread:
            payload.update(
                parent_id=str(channel.parent_id),
                owner_id=str(channel.owner_id),
                message_count=channel.message_count,
                total_message_sent=channel.message_count,
                member_count=len(channel.member_ids),
                thread_metadata={
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "invitable": channel.invitable,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": iso(
                        channel.created_at
                        if channel.archived_at is None
                        else dt.datetime.fromtimestamp(channel.archived_at, dt.UTC)
                    ),
                    "create_timestamp": iso(channel.created_at),
                },
            )
            return payload
        denied = self.bot_denied(channel)
        payload.update(
            position=channel.position,
            parent_id=None,
            topic=None,
            default_auto_archive_duration=1440,
            permission_overwrites=(
                [{"id": str(self.bot.id), "type": 1, "allow": "0", "deny": str(denied)}] if denied else []
            ),
        )
        return payload

    def thread_member_payload(self, thread: Channel, user_id: int) -> dict[str, Any]:
        return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(thread.created_at), "flags": 0}

    def guild_payload(self, guild: Guild, *, newly_joined: bool = False) -> dict[str, Any]:
        """GUILD_CREATE data; a newly joined guild has no ``unavailable`` key (dpy: guild_join, not guild_available)."""
        channels = [self.channels[cid] for cid in guild.channel_ids if not self.channels[cid].deleted]
        threads = [thread for channel in channels for thread in self.threads_of(channel) if not thread.archived]
        members = [self.users[uid] for uid in guild.member_ids]
        payload: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "large": False,
            "member_count": len(members),
            "joined_at": iso(guild.joined_at.get(self.bot.id)),
            "roles": self.role_payloads(guild),
            "channels": [self.channel_payload(channel) for channel in channels],
            "threads": [self.channel_payload(thread) for thread in threads],
            "members": [self.member_payload(guild, user) for user in members],
            "emojis": [],
            "stickers": [],
            "features": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "preferred_locale": guild.preferred_locale,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "application_id": None,
        }
        if not newly_joined:
            payload["unavailable"] = False
        return payload

    def attachment_payload(self, attachment: Attachment) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(attachment.id),
            "filename": attachment.filename,
            "size": attachment.size,
            "url": attachment.url,
            "proxy_url": attachment.url,
            "content_type": attachment.content_type,
        }
        if attachment.description is not None:
            payload["description"] = attachment.description
        if attachment.width is not None:
            payload["width"], payload["height"] = attachment.width, attachment.height
        return payload

    def message_payload(self, message: Message) -> dict[str, Any]:
        author = self.users[message.author_id]
        payload: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "type": message.type,
            "content": message.content,
            "author": self.user_payload(author),
            "timestamp": iso(message.created_at),
            "edited_timestamp": iso(message.edited_at),
            "tts": message.tts,
            "mention_everyone": False,
            "mentions": [self.user_payload(self.users[uid]) for uid in message.mentions if uid in self.users],
            "mention_roles": [],
            "attachments": [self.attachment_payload(a) for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "flags": message.flags,
        }
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
        if message.webhook_id is not None:
            payload["webhook_id"] = str(message.webhook_id)
            payload["application_id"] = str(self.application_id)
        if message.nonce is not None:
            payload["nonce"] = message.nonce
        if message.reference_id is not None:
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(message.reference_id),
                "channel_id": str(message.channel_id),
                **({"guild_id": str(message.guild_id)} if message.guild_id else {}),
            }
        thread = self.channels.get(message.id)
        if thread is not None and thread.is_thread and not thread.deleted:
            payload["thread"] = self.channel_payload(thread)
        return payload

    # ---------------------------------------------------------------- commands

    def replace_commands(self, guild_id: int | None, commands: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite, keeping the id of a command whose (type, name) already existed."""
        stored = []
        for command in commands:
            kind = command.get("type", 1)
            key = (guild_id, kind, command["name"])
            command_id = self._command_ids.setdefault(key, new_snowflake())
            entry = {
                **command,
                "id": str(command_id),
                "application_id": str(self.application_id),
                "type": kind,
                "version": str(new_snowflake()),
                "default_member_permissions": command.get("default_member_permissions"),
                "options": command.get("options") or [],
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)
