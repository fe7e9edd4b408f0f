"""SQLite: conditional moves and private analysis boards (issue 25).

The protocol, with what each method promises: bot/store/premoves.py.
"""

from __future__ import annotations

import json
import sqlite3

from ...domain.errors import VersionConflict
from ...domain.model import ExplorationRow, PremoveRow
from ..rows import exploration_from, premove_from
from .plumbing import SqlitePlumbing


class SqlitePremoves(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def set_premoves(
        self, match_id: int, user_id: int, expected_version: int, lines: list[list[str]], now: float
    ) -> None:
        def write(conn: sqlite3.Connection) -> None:
            held = conn.execute(
                "UPDATE matches SET premoves_held = 1 WHERE id = ? AND version = ? AND status = 'active'",
                (match_id, expected_version),
            )
            if held.rowcount != 1:
                raise VersionConflict(match_id)
            conn.execute("DELETE FROM premoves WHERE match_id = ? AND user_id = ?", (match_id, user_id))
            if lines:
                conn.execute(
                    "INSERT INTO premoves (match_id, user_id, version, lines, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (match_id, user_id, expected_version, json.dumps(lines), now),
                )

        await self._transact(write)

    async def premoves_of(self, match_id: int, user_id: int) -> PremoveRow | None:
        row = await self._one(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = ? AND user_id = ?",
            (match_id, user_id),
        )
        return None if row is None else premove_from(row)

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        rows = await self._all(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = ? AND version = ?",
            (match_id, version),
        )
        return [p for p in map(premove_from, rows) if p is not None]

    async def take_premoves(self, match_id: int, version: int) -> list[PremoveRow]:
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM premoves WHERE match_id = ? AND version <= ? RETURNING match_id, user_id, version, lines",
                (match_id, version),
            )
            await db.execute(  # none left: the match's moves stop looking for them
                "UPDATE matches SET premoves_held = 0 WHERE id = ? AND premoves_held = 1"
                " AND NOT EXISTS (SELECT 1 FROM premoves WHERE match_id = ?)",
                (match_id, match_id),
            )
        return [p for p in map(premove_from, rows) if p is not None]

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        rows = await self._all(
            "SELECT DISTINCT p.match_id, p.version FROM premoves p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status = 'active' AND p.version < m.version ORDER BY p.match_id, p.version",
            (),
        )
        return [(int(match_id), int(version)) for match_id, version in rows]

    async def keep_premoves(
        self, match_id: int, user_id: int, version: int, lines: list[list[str]], now: float
    ) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO premoves (match_id, user_id, version, lines, updated_at)"
                " SELECT id, ?, version, ?, ? FROM matches WHERE id = ? AND version = ? AND status = 'active'"
                " ON CONFLICT (match_id, user_id) DO UPDATE SET version = excluded.version, lines = excluded.lines,"
                " updated_at = excluded.updated_at WHERE premoves.version < excluded.version",
                (user_id, json.dumps(lines), now, match_id, version),
            )
            if cursor.rowcount != 1:
                return False
            await db.execute("UPDATE matches SET premoves_held = 1 WHERE id = ?", (match_id,))
            return True

    async def get_exploration(self, match_id: int, user_id: int) -> ExplorationRow | None:
        row = await self._one(
            "SELECT match_id, user_id, version, base, turns, shown FROM explorations"
            " WHERE match_id = ? AND user_id = ?",
            (match_id, user_id),
        )
        return None if row is None else exploration_from(row)

    async def put_exploration(self, exploration: ExplorationRow, now: float) -> None:
        e = exploration
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO explorations (match_id, user_id, version, base, turns, shown, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, user_id) DO UPDATE SET"
                " version = excluded.version, base = excluded.base, turns = excluded.turns, shown = excluded.shown,"
                " updated_at = excluded.updated_at",
                (e.match_id, e.user_id, e.version, json.dumps(e.base), json.dumps(e.turns), e.shown, now),
            )

    async def drop_exploration(self, match_id: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM explorations WHERE match_id = ? AND user_id = ?", (match_id, user_id))
