"""PostgreSQL: a player's preferences and a server's settings.

The protocol, with what each method promises: bot/store/preferences.py.
"""

from __future__ import annotations

from ...domain.model import GuildSettings, Preferences
from ..reminders import player_delay_sql, server_delay_sql
from ..rows import clock_columns, guild_settings_from
from .plumbing import PostgresPlumbing


class PostgresPreferences(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def get_preferences(self, user_id: int, guild_id: int) -> Preferences:
        """The user's preferences in this server, falling back to their global ones (guild 0)."""
        row = await self._fetchrow(
            "SELECT reminders, delay_hours, via, challenges, quiet_zone, quiet_start, quiet_end FROM preferences"
            " WHERE user_id = $1 AND guild_id IN ($2, 0) ORDER BY guild_id DESC LIMIT 1",
            user_id,
            guild_id,
        )
        if row is None:
            return Preferences()
        return Preferences(bool(row[0]), row[1], row[2], row[3], row[4], row[5], row[6])

    async def reminder_hours(self, user_id: int, guild_id: int) -> tuple[float | None, float | None]:
        """(the user's reminder delay as :meth:`get_preferences` gives it, the server's default) in one query."""
        row = await self._fetchrow(
            f"SELECT {player_delay_sql('$1', '$2')}, {server_delay_sql('$2')}",
            user_id,
            guild_id,
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_preferences(self, user_id: int, guild_id: int, prefs: Preferences) -> None:
        await self._execute(
            "INSERT INTO preferences (user_id, guild_id, reminders, delay_hours, via, challenges, quiet_zone,"
            " quiet_start, quiet_end) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id, guild_id)"
            " DO UPDATE SET reminders = excluded.reminders, delay_hours = excluded.delay_hours, via = excluded.via,"
            " challenges = excluded.challenges, quiet_zone = excluded.quiet_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end",
            user_id,
            guild_id,
            int(prefs.reminders),
            prefs.delay_hours,
            prefs.via,
            prefs.challenges,
            prefs.quiet_zone,
            prefs.quiet_start,
            prefs.quiet_end,
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchrow(
            "SELECT match_channel_id, days_per_move, reminder_hours, clock_bank, clock_increment, clock_cap,"
            " analysis, language, share_puzzles FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        return guild_settings_from(row)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings, now: float) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, match_channel_id, days_per_move, reminder_hours, updated_at,"
            " clock_bank, clock_increment, clock_cap, analysis, language, share_puzzles)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            " ON CONFLICT (guild_id)"
            " DO UPDATE SET match_channel_id = excluded.match_channel_id, days_per_move = excluded.days_per_move,"
            " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at,"
            " clock_bank = excluded.clock_bank, clock_increment = excluded.clock_increment,"
            " clock_cap = excluded.clock_cap, analysis = excluded.analysis, language = excluded.language,"
            " share_puzzles = excluded.share_puzzles",
            guild_id,
            settings.match_channel_id,
            settings.days_per_move,
            settings.reminder_hours,
            now,
            *clock_columns(settings.clock),
            None if settings.analysis is None else int(settings.analysis),
            settings.language,
            None if settings.share_puzzles is None else int(settings.share_puzzles),
        )
