"""SQLite: matches set aside (their data cannot be served), and the claims on telling their players.

The protocol, with what each method promises: bot/store/quarantine.py.
"""

from __future__ import annotations

from .leases import free_claim
from .plumbing import SqlitePlumbing


class SqliteQuarantine(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def quarantine(self, match_id: int, reason: str, now: float) -> bool:
        """Set a match aside; False if it already was."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT OR IGNORE INTO quarantine (match_id, reason, since) VALUES (?, ?, ?)", (match_id, reason, now)
            )
            return cursor.rowcount == 1

    async def release_quarantine(self, match_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM quarantine WHERE match_id = ?", (match_id,))

    async def quarantined_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT match_id FROM quarantine ORDER BY match_id")]

    async def claim_paused_untold(self, now: float, lease: float) -> list[int]:
        """Set-aside matches whose players have not been told yet, claimed for ``lease`` seconds."""
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE quarantine SET told_claimed_until = ?, told_claimed_by = ?"
                f" WHERE players_told = 0 AND {free_claim('told_claimed')} RETURNING match_id",
                (now + lease, self.incarnation, now, self.incarnation),
            )
        return sorted(r[0] for r in rows)

    async def release_paused_notice(self, match_id: int) -> None:
        await self._release("quarantine", "told_claimed", "match_id", match_id)

    async def quarantine_told(self, match_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE quarantine SET players_told = 1 WHERE match_id = ?", (match_id,))
