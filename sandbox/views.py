"""What a sandbox user sees, and the JSON the page draws it from.

Visibility follows Discord: a DM is seen by its recipient only, an ephemeral reply by the user
whose interaction caused it. Ids are strings: snowflakes do not fit JavaScript's numbers.
"""

from __future__ import annotations

from typing import Any

from emulator import DiscordEmulator
from emulator.interactions import APPLICATION_COMMAND
from emulator.models import Channel, Message, User


class Views:
    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        # A deferred answer is filled in by an edit, which Discord does not mark "(edited)".
        self._filled_at: dict[int, Any] = {}
        # "alice used /move" above a command's answer, by message id; kept with the world, as
        # Discord keeps it in the message, since the interaction itself is forgotten on restart.
        self.used: dict[int, dict[str, str]] = {}

    def note(self, event: str, message: Message) -> None:
        if event != "message_created":
            return
        if message.edited_at is not None:
            self._filled_at[message.id] = message.edited_at
        pending = self.emu.interactions.by_id.get(message.interaction_id or 0)
        if pending is not None and pending.type == APPLICATION_COMMAND and pending.data:
            self.used[message.id] = {"user": pending.user.name, "command": "/" + pending.data.get("name", "")}

    def humans(self) -> list[User]:
        return [u for u in self.emu.store.users.values() if not u.bot]

    def guild_channels(self, guild_id: int | None = None) -> list[Channel]:
        """The channels and threads of one server (``None``: of every server)."""
        store = self.emu.store
        found = []
        for guild in store.guilds.values():
            if guild_id is not None and guild.id != guild_id:
                continue
            for channel_id in guild.channel_ids:
                channel = store.channels[channel_id]
                if channel.deleted:
                    continue
                found.append(channel)
                found.extend(sorted(store.threads_of(channel), key=lambda t: t.id, reverse=True))
        return found

    def can_see(self, user: User, message: Message) -> bool:
        channel = self.emu.store.channels.get(message.channel_id)
        if channel is None or channel.deleted or message.deleted:
            return False
        if channel.is_dm and channel.recipient_id != user.id:
            return False
        return not message.ephemeral or self.owner_of(message) == user.id

    def owner_of(self, message: Message) -> int | None:
        pending = self.emu.interactions.by_id.get(message.interaction_id or 0)
        return pending.user.id if pending else None

    def channel_json(self, channel: Channel) -> dict[str, Any]:
        return {
            "id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "thread": channel.is_thread,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "archived": channel.archived,
            "last_message_id": str(channel.last_message_id or 0),
        }

    def message_json(self, message: Message) -> dict[str, Any]:
        store = self.emu.store
        author = store.users[message.author_id]
        thread = store.channels.get(message.id)
        payload: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": {"id": str(author.id), "name": author.name, "bot": author.bot},
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": [
                {
                    "url": f"/files/{a.id}/{a.filename}",
                    "filename": a.filename,
                    "type": a.content_type,
                    "width": a.width,
                    "height": a.height,
                    "description": a.description,
                }
                for a in message.attachments
            ],
            "pinged": [str(user_id) for user_id in message.pinged],  # highlighted for them, as on Discord
            "ephemeral": message.ephemeral,
            "loading": message.loading,
            "edited": message.edited_at is not None and message.edited_at != self._filled_at.get(message.id),
            "time": message.created_at.isoformat(),
            "thread": {"id": str(thread.id), "name": thread.name} if thread is not None and thread.is_thread else None,
            "used": self.used.get(message.id),
        }
        return payload
