"""PostgreSQL: challenge limits and refusals: counting challenges, blocks.

The protocol, with what each method promises: bot/store/challenges.py.
"""

from __future__ import annotations

import asyncpg

from ...domain.model import ChallengeCaps, ChallengeRefusal
from ..challenges import ChallengeCounts, ChallengeRule
from .plumbing import CHALLENGE_LOCK, PostgresPlumbing, rows_touched


class PostgresChallenges(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def admit_challenge(
        self,
        guild_id: int,
        challenger_id: int,
        invited_ids: list[int],
        now: float,
        caps: ChallengeCaps,
        rule: ChallengeRule,
    ) -> ChallengeRefusal | None:
        """Count, judge (``rule``) and record a challenge in one transaction under an advisory lock, so two
        challenges at the same instant (from any processes) cannot both take the last place in a count: the
        second waits for the first to commit, then counts it. See ChallengeStore.admit_challenge for what the
        transaction tidies."""
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", CHALLENGE_LOCK)
            await db.execute("UPDATE challenge_events SET at = $1 WHERE at > $1", now)
            await db.execute(
                "DELETE FROM challenge_events WHERE at <= $1", now - max(caps.window, caps.same_player_window)
            )
            refusal = rule(await _challenge_counts(db, guild_id, challenger_id, invited_ids, now, caps))
            if refusal is None:
                await db.executemany(
                    "INSERT INTO challenge_events (guild_id, challenger_id, invited_id, at) VALUES ($1, $2, $3, $4)",
                    [(guild_id, challenger_id, invited, now) for invited in [0, *invited_ids]],
                )
            return refusal

    async def block(self, user_id: int, blocked_id: int, now: float) -> None:
        """``user_id`` refuses challenges from ``blocked_id``, in every server (again: no change)."""
        await self._execute(
            "INSERT INTO challenge_blocks (user_id, blocked_id, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            user_id,
            blocked_id,
            now,
        )

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False when there was no such block."""
        status = await self._execute(
            "DELETE FROM challenge_blocks WHERE user_id = $1 AND blocked_id = $2", user_id, blocked_id
        )
        return rows_touched(status) == 1

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom the user refuses challenges from, oldest block first."""
        rows = await self._fetch(
            "SELECT blocked_id FROM challenge_blocks WHERE user_id = $1 ORDER BY since, blocked_id", user_id
        )
        return [r[0] for r in rows]


async def _challenge_counts(
    db: asyncpg.Connection, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
) -> ChallengeCounts:
    """What the challenge is judged on (see ChallengeCounts)."""
    blocking, refusing, same_player, waiting = [], [], {}, {}
    for invited in invited_ids:
        if await db.fetchval(
            "SELECT COUNT(*) FROM challenge_blocks WHERE user_id = $1 AND blocked_id = $2", invited, challenger_id
        ):
            blocking.append(invited)
        choice = await db.fetchval(  # the server's row, else the global one (as get_preferences reads them)
            "SELECT challenges FROM preferences WHERE user_id = $1 AND guild_id IN ($2, 0)"
            " ORDER BY guild_id DESC LIMIT 1",
            invited,
            guild_id,
        )
        if choice == "nobody":
            refusing.append(invited)
        count, oldest = await db.fetchrow(
            "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = $1 AND invited_id = $2 AND at > $3",
            challenger_id,
            invited,
            now - caps.same_player_window,
        )
        same_player[invited] = (count, oldest)
        waiting[invited] = await db.fetchval(
            "SELECT COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = $1"
            " AND s.accepted = 0 AND m.status = 'lobby' AND m.guild_id = $2",
            invited,
            guild_id,
        )
    open_lobbies = await db.fetchval(
        "SELECT COUNT(*) FROM matches WHERE creator_id = $1 AND guild_id = $2 AND status = 'lobby'",
        challenger_id,
        guild_id,
    )
    count, oldest = await db.fetchrow(
        "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = $1 AND invited_id = 0 AND guild_id = $2"
        " AND at > $3",
        challenger_id,
        guild_id,
        now - caps.window,
    )
    return ChallengeCounts(
        frozenset(blocking), frozenset(refusing), open_lobbies, (count, oldest), same_player, waiting
    )
