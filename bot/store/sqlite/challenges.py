"""SQLite: challenge limits and refusals: counting challenges, blocks.

The protocol, with what each method promises: bot/store/challenges.py.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...domain.model import ChallengeCaps, ChallengeRefusal
from ..challenges import ChallengeCounts, ChallengeRule
from .plumbing import SqlitePlumbing


def _challenge_counts(
    conn: sqlite3.Connection, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
) -> ChallengeCounts:
    """What the challenge is judged on (see ChallengeCounts), on the database thread."""

    def one(query: str, *params: Any) -> Any:
        return conn.execute(query, params).fetchone()[0]

    refusing = []
    for invited in invited_ids:  # the server's row, else the global one (as get_preferences reads them)
        row = conn.execute(
            "SELECT challenges FROM preferences WHERE user_id = ? AND guild_id IN (?, 0)"
            " ORDER BY guild_id DESC LIMIT 1",
            (invited, guild_id),
        ).fetchone()
        if row is not None and row[0] == "nobody":
            refusing.append(invited)
    count, oldest = conn.execute(
        "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = ? AND invited_id = 0 AND guild_id = ?"
        " AND at > ?",
        (challenger_id, guild_id, now - caps.window),
    ).fetchone()
    return ChallengeCounts(
        blocking=frozenset(
            invited
            for invited in invited_ids
            if one("SELECT COUNT(*) FROM challenge_blocks WHERE user_id = ? AND blocked_id = ?", invited, challenger_id)
        ),
        refusing=frozenset(refusing),
        open_lobbies=one(
            "SELECT COUNT(*) FROM matches WHERE creator_id = ? AND guild_id = ? AND status = 'lobby'",
            challenger_id,
            guild_id,
        ),
        recent=(count, oldest),
        same_player={
            invited: tuple(
                conn.execute(
                    "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = ? AND invited_id = ?"
                    " AND at > ?",
                    (challenger_id, invited, now - caps.same_player_window),
                ).fetchone()
            )
            for invited in invited_ids
        },
        waiting={
            invited: one(
                "SELECT COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = ?"
                " AND s.accepted = 0 AND m.status = 'lobby' AND m.guild_id = ?",
                invited,
                guild_id,
            )
            for invited in invited_ids
        },
    )


class SqliteChallenges(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def admit_challenge(
        self,
        guild_id: int,
        challenger_id: int,
        invited_ids: list[int],
        now: float,
        caps: ChallengeCaps,
        rule: ChallengeRule,
    ) -> ChallengeRefusal | None:
        """Count, judge (``rule``) and record a challenge in one transaction (BEGIN IMMEDIATE: no other write
        between the counts and the insert). See ChallengeStore.admit_challenge for what it tidies."""

        def work(conn: sqlite3.Connection) -> ChallengeRefusal | None:
            conn.execute("UPDATE challenge_events SET at = ? WHERE at > ?", (now, now))
            conn.execute(
                "DELETE FROM challenge_events WHERE at <= ?", (now - max(caps.window, caps.same_player_window),)
            )
            refusal = rule(_challenge_counts(conn, guild_id, challenger_id, invited_ids, now, caps))
            if refusal is None:
                conn.executemany(
                    "INSERT INTO challenge_events (guild_id, challenger_id, invited_id, at) VALUES (?, ?, ?, ?)",
                    [(guild_id, challenger_id, invited, now) for invited in [0, *invited_ids]],
                )
            return refusal

        return await self._transact(work)

    async def block(self, user_id: int, blocked_id: int, now: float) -> None:
        """``user_id`` refuses challenges from ``blocked_id``, in every server (again: no change)."""
        await self._transact(
            lambda conn: conn.execute(
                "INSERT OR IGNORE INTO challenge_blocks (user_id, blocked_id, since) VALUES (?, ?, ?)",
                (user_id, blocked_id, now),
            )
        )

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False when there was no such block."""
        cursor = await self._transact(
            lambda conn: conn.execute(
                "DELETE FROM challenge_blocks WHERE user_id = ? AND blocked_id = ?", (user_id, blocked_id)
            )
        )
        return cursor.rowcount == 1

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom the user refuses challenges from, oldest block first."""
        rows = await self._all(
            "SELECT blocked_id FROM challenge_blocks WHERE user_id = ? ORDER BY since, blocked_id", (user_id,)
        )
        return [r[0] for r in rows]
