"""SQLite's tournaments (see bot/store/tournaments.py): every change one transaction on the store's thread,
a compare-and-set on the event's version."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ...domain.tournament import NewRound, TournamentGame, TournamentRow
from ..tournaments import GAME_COLUMNS, PLAYER_COLUMNS, TOURNAMENT_COLUMNS
from .leases import free_claim
from .rows import game_from, tournament_from

T = TypeVar("T")

_BUMP = "UPDATE tournaments SET version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND status = ?"

# A round's match, its columns taken from its tournament's row (the event's options, clock and rating).
_INSERT_MATCH = (
    "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status, state, version,"
    " created_at, updated_at, turn_started_at, days_per_move, deadline_at, rated, hints)"
    " SELECT game, options, ?, guild_id, channel_id, organizer_id, 'active', ?, 1, ?, ?, ?, days_per_move, ?, rated, 0"
    " FROM tournaments WHERE id = ?"
)
_REMINDER_AT = (
    "? + 3600.0 * COALESCE((SELECT delay_hours FROM preferences WHERE user_id = ? AND guild_id IN (?, 0)"
    " ORDER BY guild_id DESC LIMIT 1), (SELECT reminder_hours FROM guild_settings WHERE guild_id = ?), ?)"
)


def _read(conn: sqlite3.Connection, tournament_id: int) -> TournamentRow | None:
    row = conn.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    players = conn.execute(
        f"SELECT {PLAYER_COLUMNS} FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, user_id",
        (tournament_id,),
    ).fetchall()
    return tournament_from(row, players)


class SqliteTournaments:
    """Mixed into SqliteStore, whose ``_run``, ``_transact`` and ``_all`` it uses."""

    _run: Callable[..., Any]
    _transact: Callable[..., Any]
    _all: Callable[..., Any]
    incarnation: str

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        game: str,
        options: dict[str, Any],
        fmt: str,
        rounds: int,
        days_per_move: float | None,
        max_players: int,
        starts_at: float | None,
        rated: bool,
        now: float,
        most_live: int,
    ) -> int | None:
        def write(conn: sqlite3.Connection) -> int | None:
            (live,) = conn.execute(
                "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND organizer_id = ?"
                " AND status IN ('open', 'running')",
                (guild_id, organizer_id),
            ).fetchone()
            if live >= most_live:
                return None
            cursor = conn.execute(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, game, options, format, rounds,"
                " days_per_move, max_players, starts_at, rated, status, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                (
                    guild_id,
                    channel_id,
                    organizer_id,
                    game,
                    json.dumps(options),
                    fmt,
                    rounds,
                    days_per_move,
                    max_players,
                    starts_at,
                    int(rated),
                    now,
                    now,
                ),
            )
            return cursor.lastrowid

        result: int | None = await self._transact(write)
        return result

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        if not -(2**63) <= tournament_id < 2**63:
            return None
        result: TournamentRow | None = await self._run(_read, tournament_id)
        return result

    async def tournaments_of_guild(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]:
        def read(conn: sqlite3.Connection) -> list[TournamentRow]:
            marks = ",".join("?" for _ in statuses)
            ids = conn.execute(
                f"SELECT id FROM tournaments WHERE guild_id = ? AND status IN ({marks}) AND id NOT IN"
                " (SELECT tournament_id FROM tournament_quarantine) ORDER BY id",
                (guild_id, *statuses),
            ).fetchall()
            return [t for t in (_read(conn, i) for (i,) in ids) if t is not None]

        result: list[TournamentRow] = await self._run(read)
        return result

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        await self._transact(
            lambda conn: conn.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))
        )

    async def _changed(
        self, tournament_id: int, expected: int, status: str, now: float, work: Callable[..., Any]
    ) -> bool:
        """``work(conn)`` after the version's compare-and-set; False (nothing done) if the event moved on."""

        def write(conn: sqlite3.Connection) -> bool:
            if conn.execute(_BUMP, (now, tournament_id, expected, status)).rowcount != 1:
                return False
            return work(conn) is not False

        done: bool = await self._transact(write)
        return done

    async def join_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, name: str, now: float
    ) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            (count,) = conn.execute(
                "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ?", (tournament_id,)
            ).fetchone()
            (most,) = conn.execute("SELECT max_players FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
            if count >= most:
                raise _Undo
            conn.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                (tournament_id, user_id, name, now),
            )
            return True

        try:
            return await self._changed(tournament_id, expected_version, "open", now, work)
        except (_Undo, sqlite3.IntegrityError):
            return False

    async def leave_tournament(self, tournament_id: int, expected_version: int, user_id: int, now: float) -> bool:
        def work(conn: sqlite3.Connection) -> None:
            if (
                conn.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
                ).rowcount
                != 1
            ):
                raise _Undo

        try:
            return await self._changed(tournament_id, expected_version, "open", now, work)
        except _Undo:
            return False

    async def withdraw_from_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, now: float
    ) -> bool:
        def work(conn: sqlite3.Connection) -> None:
            if (
                conn.execute(
                    "UPDATE tournament_players SET withdrawn_at = ? WHERE tournament_id = ? AND user_id = ?"
                    " AND withdrawn_at IS NULL",
                    (now, tournament_id, user_id),
                ).rowcount
                != 1
            ):
                raise _Undo

        try:
            return await self._changed(tournament_id, expected_version, "running", now, work)
        except _Undo:
            return False

    async def store_round(
        self, tournament_id: int, expected_version: int, new: NewRound, now: float
    ) -> list[int] | None:
        starting = new.seeds is not None
        ids: list[int] = []

        def work(conn: sqlite3.Connection) -> None:
            if starting:
                conn.execute(
                    "UPDATE tournaments SET status = 'running', rounds = ? WHERE id = ?", (new.rounds, tournament_id)
                )
                conn.executemany(
                    "UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?",
                    [(rating, tournament_id, user_id) for user_id, rating in (new.seeds or {}).items()],
                )
            conn.execute("UPDATE tournaments SET round = ? WHERE id = ?", (new.round, tournament_id))
            for table in new.tables:
                cursor = conn.execute(
                    _INSERT_MATCH,
                    (len(table.seats), json.dumps(table.state), now, now, now, table.deadline_at, tournament_id),
                )
                match_id = cursor.lastrowid
                assert match_id is not None
                conn.executemany(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES (?, ?, ?, ?, 1)",
                    [(match_id, s.seat, s.user_id, s.name) for s in table.seats],
                )
                plan = table.reminder
                if plan is not None:
                    conn.execute(
                        f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES (?, ?, ?, {_REMINDER_AT})",
                        (
                            match_id,
                            plan.user_id,
                            plan.ply,
                            now,
                            plan.user_id,
                            plan.guild_id,
                            plan.guild_id,
                            plan.default_hours,
                        ),
                    )
                conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, division, match_id)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (tournament_id, table.round, table.board, table.division, match_id),
                )
                ids.append(match_id)
            for number, (round_number, user_id) in enumerate(new.byes, start=1):
                conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, division, bye_user_id)"
                    " VALUES (?, ?, ?, 1, ?)",
                    (tournament_id, round_number, 1000 + number, user_id),
                )

        done = await self._changed(tournament_id, expected_version, "open" if starting else "running", now, work)
        return ids if done else None

    async def end_tournament(self, tournament_id: int, expected_version: int, status: str, now: float) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE tournaments SET status = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND version = ? AND status IN ('open', 'running')",
                (status, now, tournament_id, expected_version),
            )
            return cursor.rowcount == 1

        done: bool = await self._transact(write)
        return done

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = ? ORDER BY round, board",
            (tournament_id,),
        )
        return [game_from(tournament_id, r) for r in rows]

    async def tournament_of_match(self, match_id: int) -> int | None:
        rows = await self._all("SELECT tournament_id FROM tournament_games WHERE match_id = ?", (match_id,))
        return int(rows[0][0]) if rows else None

    async def tournaments_to_tend(self, now: float) -> list[int]:
        rows = await self._all(
            "SELECT id FROM tournaments WHERE (status = 'running' OR (status = 'finished' AND podium_told = 0)"
            " OR (status = 'open' AND starts_at IS NOT NULL AND starts_at <= ?)"
            " OR status NOT IN ('open', 'running', 'finished', 'cancelled'))"  # damaged: looked at, then set aside
            " AND id NOT IN (SELECT tournament_id FROM tournament_quarantine) ORDER BY id",
            (now,),
        )
        return [int(r[0]) for r in rows]

    async def claim_tournament_notice(self, tournament_id: int, round_number: int) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            if round_number == 0:
                query = "UPDATE tournaments SET podium_told = 1 WHERE id = ? AND podium_told = 0"
                return conn.execute(query, (tournament_id,)).rowcount == 1
            query = "UPDATE tournaments SET told_round = ? WHERE id = ? AND told_round < ?"
            return conn.execute(query, (round_number, tournament_id, round_number)).rowcount == 1

        done: bool = await self._transact(write)
        return done

    async def claim_tournament_standings(self, tournament_id: int, round_number: int, now: float, lease: float) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            query = (
                "UPDATE tournaments SET standings_claimed_until = ?, standings_claimed_by = ?"
                f" WHERE id = ? AND standings_told < ? AND {free_claim('standings_claimed')}"
            )
            values = (now + lease, self.incarnation, tournament_id, round_number, now, self.incarnation)
            return conn.execute(query, values).rowcount == 1

        done: bool = await self._transact(write)
        return done

    async def tournament_standings_posted(self, tournament_id: int, round_number: int, posted: bool) -> None:
        if posted:
            query = "UPDATE tournaments SET standings_told = MAX(standings_told, ?), standings_claimed_until = NULL"
            values: tuple[int, ...] = (round_number, tournament_id)
        else:
            query, values = "UPDATE tournaments SET standings_claimed_until = NULL", (tournament_id,)
        await self._transact(lambda conn: conn.execute(query + " WHERE id = ?", values))

    async def last_turns(self, user_ids: list[int]) -> dict[int, float]:
        if not user_ids:
            return {}
        marks = ",".join("?" for _ in user_ids)
        rows: Iterable[Any] = await self._all(
            f"SELECT user_id, MAX(created_at) FROM moves WHERE kind = 'turn' AND user_id IN ({marks}) GROUP BY user_id",
            user_ids,
        )
        return {int(u): float(at) for u, at in rows}

    # -- events set aside: their rows cannot be read; paused, never rewritten ----------------------------

    async def set_tournament_aside(self, tournament_id: int, reason: str, now: float) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "INSERT OR IGNORE INTO tournament_quarantine (tournament_id, reason, since) VALUES (?, ?, ?)",
                (tournament_id, reason, now),
            )
            return cursor.rowcount == 1

        done: bool = await self._transact(write)
        return done

    async def release_tournament_aside(self, tournament_id: int) -> None:
        await self._transact(
            lambda conn: conn.execute("DELETE FROM tournament_quarantine WHERE tournament_id = ?", (tournament_id,))
        )

    async def tournaments_set_aside(self) -> list[int]:
        rows = await self._all("SELECT tournament_id FROM tournament_quarantine ORDER BY tournament_id")
        return [int(r[0]) for r in rows]

    async def claim_tournaments_aside_untold(self, now: float, lease: float) -> list[tuple[int, int | None]]:
        def write(conn: sqlite3.Connection) -> list[tuple[int, int | None]]:
            claimed = conn.execute(
                "UPDATE tournament_quarantine SET told_claimed_until = ?, told_claimed_by = ? WHERE organizer_told = 0"
                f" AND {free_claim('told_claimed')} RETURNING tournament_id",
                (now + lease, self.incarnation, now, self.incarnation),
            ).fetchall()
            return [(int(i), _organizer(conn, int(i))) for (i,) in sorted(claimed)]

        result: list[tuple[int, int | None]] = await self._transact(write)
        return result

    async def release_tournament_aside_notice(self, tournament_id: int) -> None:
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE tournament_quarantine SET told_claimed_until = NULL WHERE tournament_id = ?", (tournament_id,)
            )
        )

    async def tournament_aside_told(self, tournament_id: int) -> None:
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE tournament_quarantine SET organizer_told = 1 WHERE tournament_id = ?", (tournament_id,)
            )
        )


def _organizer(conn: sqlite3.Connection, tournament_id: int) -> int | None:
    """The organizer of an event set aside, if that much of its row still reads (whom to tell)."""
    row = conn.execute("SELECT organizer_id FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    value = None if row is None else row[0]
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


class _Undo(Exception):
    """Roll the transaction back: the change cannot be made as asked (full, absent, already withdrawn)."""
