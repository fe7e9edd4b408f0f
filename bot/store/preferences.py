"""The Store protocol's part for a player's preferences and a server's settings.

bot/store/base.py's ``Store`` includes it; sqlite/preferences.py and postgres/preferences.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import GuildSettings, Preferences


class PreferenceStore(Protocol):
    async def get_preferences(self, user_id: int, guild_id: int) -> Preferences:
        """The user's preferences in this server, falling back to their global ones (guild 0)."""
        ...

    async def reminder_hours(self, user_id: int, guild_id: int) -> tuple[float | None, float | None]:
        """(the user's reminder delay as :meth:`get_preferences` gives it, the server's default) in one query."""
        ...

    async def set_preferences(self, user_id: int, guild_id: int, prefs: Preferences) -> None: ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings, now: float) -> None: ...
