"""A player's reminder preferences in a server, their quiet hours included."""

from __future__ import annotations

from ..domain.errors import Refusal
from ..domain.model import Preferences
from .core import MatchCore
from .time_input import is_off, parse_night, parse_zone


class PreferenceFlow(MatchCore):
    async def preferences(self, user_id: int, guild_id: int) -> Preferences:
        return await self.store.get_preferences(user_id, guild_id)

    async def set_preferences(
        self,
        user_id: int,
        guild_id: int,
        *,
        reminders: bool | None,
        delay_hours: float | None,
        via: str | None,
        quiet_zone: str | None = None,
        quiet_hours: str | None = None,
    ) -> Preferences:
        """Change what is given (None: as it was); ``quiet_zone`` an IANA zone or "off", ``quiet_hours`` the night
        as ``22:00-08:00``. Everything is checked before anything is stored: a refusal changes nothing."""
        prefs = await self.store.get_preferences(user_id, guild_id)
        if quiet_zone is not None:
            prefs.quiet_zone = None if is_off(quiet_zone) else parse_zone(quiet_zone)
        if quiet_hours is not None:
            prefs.quiet_start, prefs.quiet_end = parse_night(quiet_hours)
            if quiet_zone is None and prefs.quiet_zone is None:
                raise Refusal("quiet_needs_zone")
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
        await self.stored_or_refused(self.store.set_preferences(user_id, guild_id, prefs))
        return prefs

    async def default_reminder_hours_in(self, guild_id: int) -> float:
        """The delay a player who set none gets in this server."""
        return await self.schedule.server_reminder_hours(guild_id)
