"""PostgreSQL: conditional moves and private analysis boards (issue 25).

The protocol, with what each method promises: bot/store/premoves.py.
"""

from __future__ import annotations

import json

from ...domain.errors import VersionConflict
from ...domain.model import ExplorationRow, PremoveRow
from ..rows import exploration_from, premove_from
from .plumbing import PostgresPlumbing, rows_touched


class PostgresPremoves(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def set_premoves(
        self, match_id: int, user_id: int, expected_version: int, lines: list[list[str]], now: float
    ) -> None:
        async with self.transaction() as db:
            # An UPDATE of the match row: a move's UPDATE waits for this edit, or this edit sees the new version
            held = await db.execute(
                "UPDATE matches SET premoves_held = 1 WHERE id = $1 AND version = $2 AND status = 'active'",
                match_id,
                expected_version,
            )
            if rows_touched(held) != 1:
                raise VersionConflict(match_id)
            await db.execute("DELETE FROM premoves WHERE match_id = $1 AND user_id = $2", match_id, user_id)
            if lines:
                await db.execute(
                    "INSERT INTO premoves (match_id, user_id, version, lines, updated_at) VALUES ($1, $2, $3, $4, $5)",
                    match_id,
                    user_id,
                    expected_version,
                    json.dumps(lines),
                    now,
                )

    async def premoves_of(self, match_id: int, user_id: int) -> PremoveRow | None:
        row = await self._fetchrow(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = $1 AND user_id = $2",
            match_id,
            user_id,
        )
        return None if row is None else premove_from(tuple(row))

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        rows = await self._fetch(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = $1 AND version = $2",
            match_id,
            version,
        )
        return [p for p in (premove_from(tuple(r)) for r in rows) if p is not None]

    async def take_premoves(self, match_id: int, version: int) -> list[PremoveRow]:
        """The match row is locked first, as ``set_premoves`` and ``keep_premoves`` do: a line stored meanwhile
        either committed before the count of those left (each statement its own snapshot) or sets
        ``premoves_held`` again after this transaction."""
        async with self.transaction() as db:
            await db.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
            rows = await db.fetch(
                "DELETE FROM premoves WHERE match_id = $1 AND version <= $2"
                " RETURNING match_id, user_id, version, lines",
                match_id,
                version,
            )
            await db.execute(  # none left: the match's moves stop looking for them
                "UPDATE matches SET premoves_held = 0 WHERE id = $1 AND premoves_held = 1"
                " AND NOT EXISTS (SELECT 1 FROM premoves WHERE match_id = $1)",
                match_id,
            )
        return [p for p in (premove_from(tuple(r)) for r in rows) if p is not None]

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        rows = await self._fetch(
            "SELECT DISTINCT p.match_id, p.version FROM premoves p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status = 'active' AND p.version < m.version ORDER BY p.match_id, p.version"
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def keep_premoves(
        self, match_id: int, user_id: int, version: int, lines: list[list[str]], now: float
    ) -> bool:
        async with self.transaction() as db:  # the match row first, as take_premoves locks it
            held = await db.execute(
                "UPDATE matches SET premoves_held = 1 WHERE id = $1 AND version = $2 AND status = 'active'",
                match_id,
                version,
            )
            if rows_touched(held) != 1:
                return False
            done = await db.execute(
                "INSERT INTO premoves (match_id, user_id, version, lines, updated_at) VALUES ($1, $2, $5, $3, $4)"
                " ON CONFLICT (match_id, user_id) DO UPDATE SET version = excluded.version, lines = excluded.lines,"
                " updated_at = excluded.updated_at WHERE premoves.version < excluded.version",
                match_id,
                user_id,
                json.dumps(lines),
                now,
                version,
            )
            return rows_touched(done) == 1

    async def get_exploration(self, match_id: int, user_id: int) -> ExplorationRow | None:
        row = await self._fetchrow(
            "SELECT match_id, user_id, version, base, turns, shown FROM explorations"
            " WHERE match_id = $1 AND user_id = $2",
            match_id,
            user_id,
        )
        return None if row is None else exploration_from(tuple(row))

    async def put_exploration(self, exploration: ExplorationRow, now: float) -> None:
        e = exploration
        await self._execute(
            "INSERT INTO explorations (match_id, user_id, version, base, turns, shown, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (match_id, user_id) DO UPDATE SET"
            " version = excluded.version, base = excluded.base, turns = excluded.turns, shown = excluded.shown,"
            " updated_at = excluded.updated_at",
            e.match_id,
            e.user_id,
            e.version,
            json.dumps(e.base),
            json.dumps(e.turns),
            e.shown,
            now,
        )

    async def drop_exploration(self, match_id: int, user_id: int) -> None:
        await self._execute("DELETE FROM explorations WHERE match_id = $1 AND user_id = $2", match_id, user_id)
