"""The sandbox's Discord world: built once (a server, #games, three players) and kept on disk.

The bot's database refers to guild, channel, thread, message and user ids, so the emulator's
world must survive a restart too. It is saved as one JSON file (written to a temporary file and
renamed, so a crash leaves the previous copy) plus one file per attachment, which never change.
Ephemeral and still-loading messages are not kept: like Discord's, they vanish on reload.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from emulator import DiscordEmulator
from emulator.models import Attachment, Channel, Guild, Message, User

from .private import private_folder, write_private

GUILD_NAME = "Hexplay Sandbox"
CHANNEL_NAME = "games"
PLAYERS = ("alice", "bob", "carol", "amelie")
LOCALES = {"amelie": "fr"}  # amelie's Discord speaks French: her answers, DMs and command names are French
FORMAT = 1


def _time(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _parse_time(text: str | None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text)


class WorldFile:
    """Saves and restores an emulator's users, guilds, channels, messages and attachments."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files = path.with_name(path.stem + "-files")
        self.used: dict[int, dict[str, str]] = {}  # the web face's "alice used /move" lines (views.Views.used)

    def saved_application_id(self) -> int | None:
        data = self._read()
        return int(data["application_id"]) if data else None

    def _read(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except ValueError:
            raise SystemExit(f"{self.path} is damaged; move it away (with sandbox.sqlite3) to start afresh.") from None
        if data.get("format") != FORMAT:
            raise SystemExit(
                f"{self.path} was written by another version of the sandbox; move it away to start afresh."
            )
        return data

    # ------------------------------------------------------------------ saving

    def save(self, emu: DiscordEmulator, used: dict[int, dict[str, str]] | None = None) -> None:
        store = emu.store
        private_folder(self.files)
        kept = [m for m in store.messages.values() if not (m.deleted or m.ephemeral or m.loading)]
        for message in kept:
            for attachment in message.attachments:
                target = self.files / str(attachment.id)
                if not target.exists():
                    write_private(target, attachment.data)
        data = {
            "format": FORMAT,
            "application_id": str(emu.application_id),
            "users": [_user(u) for u in store.users.values() if u is not store.bot],
            "guilds": [_guild(g) for g in store.guilds.values()],
            "channels": [_channel(c) for c in store.channels.values() if not c.deleted],
            "messages": [_message(m) for m in sorted(kept, key=lambda m: m.id)],
            "used": {str(k): v for k, v in (used or {}).items() if k in store.messages},
        }
        temporary = self.path.with_suffix(".tmp")
        write_private(temporary, json.dumps(data).encode("utf-8"))
        os.replace(temporary, self.path)

    # --------------------------------------------------------------- restoring

    def load_into(self, emu: DiscordEmulator) -> bool:
        """Fill a fresh emulator (made with the saved application id); False if nothing was saved."""
        data = self._read()
        if data is None:
            return False
        store = emu.store
        for raw in data["users"]:
            locale = raw.get("locale", "en-US")  # a world saved before languages: Discord's default
            user = User(int(raw["id"]), raw["name"], bot=raw["bot"], dms_open=raw["dms_open"], locale=locale)
            store.users[user.id] = user
        for raw in data["guilds"]:
            guild = Guild(
                id=int(raw["id"]),
                name=raw["name"],
                owner_id=int(raw["owner_id"]),
                bot_role_id=int(raw["bot_role_id"]),
                member_ids=[int(i) for i in raw["member_ids"]],
                joined_at={int(k): dt.datetime.fromisoformat(v) for k, v in raw["joined_at"].items()},
                channel_ids=[int(i) for i in raw["channel_ids"]],
            )
            store.guilds[guild.id] = guild
            store.guild_commands.setdefault(guild.id, [])
        for raw in data["channels"]:
            channel = Channel(
                **{**raw, "created_at": _parse_time(raw["created_at"]), "member_ids": set(raw["member_ids"])}
            )
            store.channels[channel.id] = channel
            store.channel_messages[channel.id] = []
            if channel.is_dm and channel.recipient_id is not None:
                store.dm_channels[channel.recipient_id] = channel
        for guild in store.guilds.values():  # a deleted channel was not saved
            guild.channel_ids = [i for i in guild.channel_ids if i in store.channels]
        for raw in data["messages"]:
            if raw["channel_id"] not in store.channels:
                continue
            attachments = [self._attachment(store.attachment_base_url, a) for a in raw.pop("attachments")]
            message = Message(
                **{
                    **raw,
                    "attachments": attachments,
                    "created_at": _parse_time(raw["created_at"]),
                    "edited_at": _parse_time(raw["edited_at"]),
                    "default_mention_parse": tuple(raw["default_mention_parse"]),
                }
            )
            for attachment in attachments:
                store.attachments[attachment.id] = attachment
            store.messages[message.id] = message
            store.channel_messages[message.channel_id].append(message)
        for channel in store.channels.values():  # a world saved before threads archived: active at its last message
            if channel.is_thread and channel.active_at is None:
                latest = [m.created_at for m in store.channel_messages[channel.id]]
                channel.active_at = max([channel.created_at, *latest]).timestamp()
        self.used = {int(k): v for k, v in data.get("used", {}).items()}
        return True

    def _attachment(self, base_url: str, raw: dict[str, Any]) -> Attachment:
        data = (self.files / raw["id"]).read_bytes()
        attachment = Attachment(
            id=int(raw["id"]),
            filename=raw["filename"],
            data=data,
            content_type=raw["content_type"],
            description=raw["description"],
            width=raw["width"],
            height=raw["height"],
        )
        attachment.url = f"{base_url}/attachments/{attachment.id}/{attachment.filename}"
        return attachment


def build(emu: DiscordEmulator, guilds: int = 1, shard_count: int = 1) -> None:
    """The world of a first start: four players (one French), then the servers (all members), each with #games."""
    add_players(emu)
    add_guilds(emu, guilds, shard_count)


def add_players(emu: DiscordEmulator) -> int:
    """The sandbox's players that a saved world lacks (amelie came with languages), members of every server;
    how many were added."""
    present = {user.name for user in emu.store.users.values()}
    missing = [name for name in PLAYERS if name not in present]
    for name in missing:
        emu.create_user(name, locale=LOCALES.get(name, "en-US"))
    return len(missing)


def guild_name(index: int) -> str:
    return GUILD_NAME if index == 0 else f"{GUILD_NAME} {index + 1}"


def add_guilds(emu: DiscordEmulator, guilds: int, shard_count: int = 1) -> int:
    """Servers added until there are ``guilds`` (each with #games), spread over the shards in turn: the
    ``i``-th on shard ``i % shard_count``. Existing ones are kept as they are; how many were added."""
    added = 0
    for index in range(len(emu.store.guilds), guilds):
        guild = emu.create_guild(guild_name(index), shard=(index % shard_count, shard_count))
        emu.create_text_channel(guild, CHANNEL_NAME)
        added += 1
    return added


def _user(user: User) -> dict[str, Any]:
    return {"id": str(user.id), "name": user.name, "bot": user.bot, "dms_open": user.dms_open, "locale": user.locale}


def _guild(guild: Guild) -> dict[str, Any]:
    return {
        "id": str(guild.id),
        "name": guild.name,
        "owner_id": str(guild.owner_id),
        "bot_role_id": str(guild.bot_role_id),
        "member_ids": [str(i) for i in guild.member_ids],
        "joined_at": {str(k): _time(v) for k, v in guild.joined_at.items()},
        "channel_ids": [str(i) for i in guild.channel_ids],
    }


def _channel(channel: Channel) -> dict[str, Any]:
    return {
        "id": channel.id,
        "type": channel.type,
        "name": channel.name,
        "guild_id": channel.guild_id,
        "position": channel.position,
        "parent_id": channel.parent_id,
        "owner_id": channel.owner_id,
        "recipient_id": channel.recipient_id,
        "allow_threads": channel.allow_threads,
        "bot_can_send": channel.bot_can_send,
        "archived": channel.archived,
        "locked": channel.locked,
        "invitable": channel.invitable,
        "auto_archive_duration": channel.auto_archive_duration,
        "created_at": _time(channel.created_at),
        "active_at": channel.active_at,
        "archived_at": channel.archived_at,
        "last_message_id": channel.last_message_id,
        "message_count": channel.message_count,
        "member_ids": sorted(channel.member_ids),
    }


def _message(message: Message) -> dict[str, Any]:
    return {
        "id": message.id,
        "channel_id": message.channel_id,
        "author_id": message.author_id,
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": [
            {
                "id": str(a.id),
                "filename": a.filename,
                "content_type": a.content_type,
                "description": a.description,
                "width": a.width,
                "height": a.height,
            }
            for a in message.attachments
        ],
        "flags": message.flags,
        "created_at": _time(message.created_at),
        "edited_at": _time(message.edited_at),
        "guild_id": message.guild_id,
        "type": message.type,
        "webhook_id": message.webhook_id,
        "interaction_id": message.interaction_id,
        "reference_id": message.reference_id,
        "tts": message.tts,
        "allowed_mentions": message.allowed_mentions,
        "default_mention_parse": list(message.default_mention_parse),
    }
