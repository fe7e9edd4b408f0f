"""SQLite: posted boards: which version of a match was posted, and the claims on posting the latest.

The protocol, with what each method promises: bot/store/boards.py.
"""

from __future__ import annotations

from .leases import free_claim
from .plumbing import SqlitePlumbing


class SqliteBoards(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def mark_announced(self, match_id: int, version: int, channel_id: int, message_id: int) -> None:
        """The board of ``version`` was posted as this message (reminders link to it); its claim ends."""
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE matches SET board_channel_id = ?, board_message_id = ?,"
                " announced_version = MAX(announced_version, ?), announce_claimed_until = CASE"
                " WHEN announce_claimed_by = ? OR ? >= version THEN NULL ELSE announce_claimed_until END WHERE id = ?",
                (channel_id, message_id, version, self.incarnation, version, match_id),
            )
        )

    async def unannounced(self) -> list[tuple[int, float]]:
        """Matches whose latest board was never posted (the bot stopped in between), oldest change first."""
        rows = await self._all(
            "SELECT id, updated_at FROM matches WHERE status IN ('active', 'finished') AND announced_version < version"
            " AND id NOT IN (SELECT match_id FROM quarantine) ORDER BY updated_at, id",
            (),
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def release_announcement(self, match_id: int) -> None:
        """Give back a board this process claimed (not posted this time): a later try takes it."""
        await self._release("matches", "announce_claimed", "id", match_id)

    async def claim_announcement(self, match_id: int, now: float, lease: float) -> bool:
        """Claim the posting of one match's latest board; False if it is posted, or this start holds it."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET announce_claimed_until = ?, announce_claimed_by = ?"
                f" WHERE id = ? AND announced_version < version AND {free_claim('announce_claimed')}",
                (now + lease, self.incarnation, match_id, now, self.incarnation),
            )
            return cursor.rowcount == 1
