"""SQLite: the languages of servers and players, chosen and seen.

The protocol, with what each method promises: bot/store/languages.py.
"""

from __future__ import annotations

from ...domain.model import Languages
from .plumbing import SqlitePlumbing


class SqliteLanguages(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def guild_languages(self, guild_id: int) -> Languages:
        row = await self._one("SELECT language, seen_language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return Languages(*row) if row is not None else Languages()

    async def see_guild_language(self, guild_id: int, language: str, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at, seen_language) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET seen_language = excluded.seen_language",
                (guild_id, now, language),
            )

    async def player_languages(self, user_id: int) -> Languages:
        row = await self._one("SELECT chosen, seen FROM player_languages WHERE user_id = ?", (user_id,))
        return Languages(*row) if row is not None else Languages()

    async def see_player_language(self, user_id: int, language: str, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO player_languages (user_id, seen, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen, updated_at = excluded.updated_at",
                (user_id, language, now),
            )

    async def choose_player_language(self, user_id: int, language: str | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO player_languages (user_id, chosen, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET chosen = excluded.chosen, updated_at = excluded.updated_at",
                (user_id, language, now),
            )
