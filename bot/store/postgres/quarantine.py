"""PostgreSQL: matches set aside (their data cannot be served), and the claims on telling their players.

The protocol, with what each method promises: bot/store/quarantine.py.
"""

from __future__ import annotations

from .leases import free_claim
from .plumbing import PostgresPlumbing, rows_touched


class PostgresQuarantine(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def quarantine(self, match_id: int, reason: str, now: float) -> bool:
        """Set a match aside; False if it already was."""
        status = await self._execute(
            "INSERT INTO quarantine (match_id, reason, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            match_id,
            reason,
            now,
        )
        return rows_touched(status) == 1

    async def release_quarantine(self, match_id: int) -> None:
        await self._execute("DELETE FROM quarantine WHERE match_id = $1", match_id)

    async def quarantined_ids(self) -> list[int]:
        return [r[0] for r in await self._fetch("SELECT match_id FROM quarantine ORDER BY match_id")]

    async def claim_paused_untold(self, now: float, lease: float) -> list[int]:
        """Set-aside matches whose players have not been told yet, claimed for ``lease`` seconds."""
        rows = await self._fetch(
            "UPDATE quarantine SET told_claimed_until = $1, told_claimed_by = $3"
            f" WHERE players_told = 0 AND {free_claim('told_claimed', '$2', '$3')} RETURNING match_id",
            now + lease,
            now,
            self.incarnation,
        )
        return sorted(r[0] for r in rows)

    async def release_paused_notice(self, match_id: int) -> None:
        await self._release("quarantine", "told_claimed", "match_id", match_id)

    async def quarantine_told(self, match_id: int) -> None:
        await self._execute("UPDATE quarantine SET players_told = 1 WHERE match_id = $1", match_id)
