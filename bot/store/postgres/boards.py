"""PostgreSQL: posted boards: which version of a match was posted, and the claims on posting the latest.

The protocol, with what each method promises: bot/store/boards.py.
"""

from __future__ import annotations

from .leases import free_claim
from .plumbing import PostgresPlumbing, rows_touched


class PostgresBoards(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def mark_announced(self, match_id: int, version: int, channel_id: int, message_id: int) -> None:
        """The board of ``version`` was posted as this message (reminders link to it); its claim ends."""
        await self._execute(
            "UPDATE matches SET board_channel_id = $1, board_message_id = $2,"
            " announced_version = GREATEST(announced_version, $3), announce_claimed_until = CASE"
            " WHEN announce_claimed_by = $5 OR $3 >= version THEN NULL ELSE announce_claimed_until END WHERE id = $4",
            channel_id,
            message_id,
            version,
            match_id,
            self.incarnation,
        )

    async def unannounced(self) -> list[tuple[int, float]]:
        """Matches whose latest board was never posted, oldest change first (the partial index finds them)."""
        rows = await self._fetch(
            "SELECT id, updated_at FROM matches m WHERE announced_version < version"
            " AND status IN ('active', 'finished') AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = m.id)"
            " ORDER BY updated_at, id"
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def release_announcement(self, match_id: int) -> None:
        """Give back a board this process claimed (not posted this time): a later try, in any process, takes it."""
        await self._release("matches", "announce_claimed", "id", match_id)

    async def claim_announcement(self, match_id: int, now: float, lease: float) -> bool:
        """Claim the posting of one match's latest board; False if it is posted, or a live process holds it."""
        status = await self._execute(
            "UPDATE matches SET announce_claimed_until = $1, announce_claimed_by = $4"
            f" WHERE id = $2 AND announced_version < version AND {free_claim('announce_claimed', '$3', '$4')}",
            now + lease,
            match_id,
            now,
            self.incarnation,
        )
        return rows_touched(status) == 1
