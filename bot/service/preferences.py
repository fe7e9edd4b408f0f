"""A player's reminder preferences in a server."""

from __future__ import annotations

from ..domain.errors import Refusal
from ..domain.model import Preferences
from .core import MatchCore


class PreferenceFlow(MatchCore):
    async def preferences(self, user_id: int, guild_id: int) -> Preferences:
        return await self.store.get_preferences(user_id, guild_id)

    async def set_preferences(
        self, user_id: int, guild_id: int, *, reminders: bool | None, delay_hours: float | None, via: str | None
    ) -> Preferences:
        prefs = await self.store.get_preferences(user_id, guild_id)
        if reminders is not None:
            prefs.reminders = reminders
        if delay_hours is not None:
            if not 1 <= delay_hours <= 24 * 14:
                raise Refusal("reminder_delay_range")
            prefs.delay_hours = delay_hours
        if via is not None:
            if via not in ("dm", "ping"):
                raise Refusal("reminder_via")
            prefs.via = via
        await self.guarded(self.store.set_preferences(user_id, guild_id, prefs))
        return prefs

    async def default_reminder_hours_in(self, guild_id: int) -> float:
        """The delay a player who set none gets in this server."""
        return await self.schedule.server_reminder_hours(guild_id)
