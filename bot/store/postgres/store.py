"""PostgreSQL storage behind the Store protocol (asyncpg, a connection pool, versioned migrations).

Several bot processes may share the database, so nothing here rests on a lock held in one process:

- every change of a match is a compare-and-set on its version, checked in the statement that makes it
  (the row lock the UPDATE takes makes a second writer wait, then find the version moved on);
- what a pass would act on (a due reminder, a deadline notice, an unposted board, a notice of a pause) is
  claimed with ``UPDATE … RETURNING`` and a lease, so two processes never both act on it;
- read-modify-write of shared rows (an offer's acceptances) locks the row (``FOR UPDATE``); counts that
  decide an insert (challenge limits, a rating settlement) hold a transaction-level advisory lock, which
  also works behind pgbouncer in transaction mode (a session lock would not).

A turn's common path is three round trips: reading the match (one statement, its seats and quarantine
folded in), recording the move (one statement: the version check, the log, the new position, the next
reminder and deadline, the lapsed offers, all in data-modifying CTEs), and recording the posted board.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from ...domain.bank import BankClock
from ...domain.errors import StorageDown, StorageFull, StoreUnavailable, VersionConflict
from ...domain.model import (
    ChallengeCaps,
    ChallengeRefusal,
    ConstraintBreach,
    ExplorationRow,
    GuildSettings,
    Languages,
    MatchRow,
    MoveRow,
    OfferRow,
    Preferences,
    PremoveRow,
    RatingRow,
    RecordedMove,
    ReminderPlan,
    ReminderRow,
    ReviewRow,
    SeatRow,
)
from ..sqlite.rows import (
    _MATCH_COLUMNS,
    _RATING_COLUMNS,
    _accepted,
    _exploration_from,
    _match_from,
    _move_from,
    _premove_from,
    _review_from,
    _seat_from,
    clock_columns,
    guild_settings_from,
)
from .leases import free_claim
from .migrations import MIGRATIONS, applies
from .puzzles import PostgresPuzzles
from .tournaments import PostgresTournaments

log = logging.getLogger(__name__)

# Advisory lock keys (transaction-level): migrations, challenge counts, rating settlements.
_MIGRATION_LOCK, _CHALLENGE_LOCK, _RATING_LOCK = 7_357_001, 7_357_002, 7_357_003
_IDENTIFY_LOCK = 7_358_000  # + the bucket: one lock per IDENTIFY rate-limit bucket
_BIGINT = (-(2**63), 2**63)
# A read that met a dead connection is tried again after these pauses (well inside Discord's 3 s to answer).
_READ_RETRY_PAUSES = (0.05, 0.3)

# The match, its seats (a JSON array of rows) and its quarantine, in one statement.
_SEATS_JSON = (
    "(SELECT json_agg(json_build_array(s.seat, s.user_id::text, s.name, s.accepted, s.resigned, s.computer, s.bank)"
    " ORDER BY s.seat) FROM seats s WHERE s.match_id = m.id)"
)
_READ_MATCH = (
    f"SELECT {', '.join('m.' + c.strip() for c in _MATCH_COLUMNS.split(','))}, {_SEATS_JSON},"
    " (SELECT q.reason FROM quarantine q WHERE q.match_id = m.id) FROM matches m"
)
_COLUMN_COUNT = len(_MATCH_COLUMNS.split(","))

# The player's delay in this server (their server row, else their global one), else the server's, else the default.
_REMINDER_AT = (
    "{now} + 3600.0 * COALESCE((SELECT p.delay_hours FROM preferences p WHERE p.user_id = {user}"
    " AND p.guild_id IN ({guild}, 0) ORDER BY p.guild_id DESC LIMIT 1),"
    " (SELECT g.reminder_hours FROM guild_settings g WHERE g.guild_id = {guild}), {default})"
)

# Failures of the connection or the server (not of a statement): the operation did not complete.
_DOWN = (
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    # a connection the server closed while it was still reading the error: nothing was sent on it
    asyncpg.exceptions.InternalClientError,
    TimeoutError,
)


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """The pool's reset of a returned connection, which by default costs a round trip per use (RESET ALL,
    UNLISTEN, advisory unlocks). This store changes no session state: its advisory locks are transaction
    locks, it never LISTENs or SETs, and the pool still rolls back a transaction left open."""


def _match_row(record: Any) -> MatchRow:
    """A match read by _READ_MATCH: its columns, then its seats as JSON, then its quarantine reason."""
    values = list(record)
    match = _match_from(values[:_COLUMN_COUNT])
    for seat_values in json.loads(values[_COLUMN_COUNT] or "[]"):
        seat_values[1] = int(seat_values[1])  # a 64-bit id travels as text: JSON numbers are doubles elsewhere
        seat, problem = _seat_from(seat_values)
        match.seats.append(seat)
        if problem is not None:
            match.damage = (match.damage + "; " if match.damage else "") + f"a seat cannot be read ({problem})"
    reason = values[_COLUMN_COUNT + 1]
    match.quarantine = reason if reason is not None else match.damage
    return match


def _count(status: str) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from its status ("UPDATE 1")."""
    return int(status.rsplit(" ", 1)[-1]) if status and status[-1].isdigit() else 0


def _in_range(*numbers: int) -> bool:
    return all(_BIGINT[0] <= n < _BIGINT[1] for n in numbers)


def redacted(url: str) -> str:
    """The database URL as it may be shown: no password, ever."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def explain(url: str, error: BaseException) -> str:
    """One line for the operator about a database that cannot be used (never the password)."""
    where = redacted(url)
    if isinstance(error, asyncpg.exceptions.InvalidPasswordError):
        return f"PostgreSQL at {where} refused the password (HEXPLAY_DATABASE_URL)"
    if isinstance(error, asyncpg.exceptions.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {where} does not know this user: {error}"
    if isinstance(error, asyncpg.exceptions.InvalidCatalogNameError):
        return f"PostgreSQL at {where}: the database does not exist (create it, or fix HEXPLAY_DATABASE_URL)"
    if isinstance(error, (OSError, TimeoutError)):
        return f"cannot reach PostgreSQL at {where} ({getattr(error, 'strerror', None) or type(error).__name__})"
    return f"cannot use PostgreSQL at {where}: {str(error).replace(url, where)}"


class PostgresStore(PostgresTournaments, PostgresPuzzles):
    """The database on a PostgreSQL server, through a pool of connections."""

    shared = True  # any number of bot processes and workers

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self._holding: set[asyncio.Task[None]] = set()  # identify buckets held for their interval
        self.incarnation = secrets.token_hex(8)  # this process's start: its claims name it (Store.incarnation)

    @classmethod
    async def open(
        cls, url: str, pool_size: int = 10, statement_cache: bool = True, connect_timeout: float = 8.0
    ) -> PostgresStore:
        """Connect, check and migrate; StoreUnavailable says in one line why it cannot be used.

        ``statement_cache`` off (asyncpg's prepared-statement cache) is for pgbouncer in transaction mode,
        where a prepared statement may not be on the server connection the next query lands on.
        """
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=connect_timeout,
                command_timeout=30,
                statement_cache_size=100 if statement_cache else 0,
                reset=_nothing_to_reset,
            )
        except (asyncpg.PostgresError, *_DOWN) as error:
            raise StoreUnavailable(explain(url, error)) from None
        except ValueError as error:  # an unreadable URL
            raise StoreUnavailable(f"HEXPLAY_DATABASE_URL is not a PostgreSQL URL ({error})") from None
        store = cls(pool, url)
        try:
            await store._migrate()
        except (asyncpg.PostgresError, *_DOWN) as error:
            await pool.close()
            raise StoreUnavailable(explain(url, error)) from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        for task in list(self._holding):
            task.cancel()
        await asyncio.gather(*self._holding, return_exceptions=True)
        await self.pool.close()

    async def damage(self) -> str | None:
        return None  # the server checks its own pages (data checksums, if the operator enabled them)

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        return []  # the server checks every constraint on every write: no stored row can break one

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        """The second's row is locked while its count is read and raised: processes granting at once queue on
        it and never grant more than ``limit`` between them. Rare (a process asks for several at a time)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO request_budget (second, used) VALUES ($1, 0) ON CONFLICT DO NOTHING", second)
            used = await db.fetchval("SELECT used FROM request_budget WHERE second = $1 FOR UPDATE", second)
            granted = max(0, min(wanted, limit - int(used)))
            if granted:
                await db.execute("UPDATE request_budget SET used = used + $2 WHERE second = $1", second, granted)
            if second % 30 == 0:
                await db.execute("DELETE FROM request_budget WHERE second < $1", second - 60)
        return granted

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """Take the bucket's transaction-level advisory lock (waiting for another process's IDENTIFY to age),
        and hold it ``interval`` seconds after returning: the IDENTIFY goes now, the next one of the bucket,
        from any process, no sooner. A process that dies releases it at once (its connection ends), which is
        safe: its IDENTIFY, if any, was sent before."""
        taken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def hold() -> None:
            try:
                async with self.pool.acquire() as conn, conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _IDENTIFY_LOCK + bucket)
                    taken.set_result(None)
                    await asyncio.sleep(interval)
            except BaseException as error:
                if not taken.done():
                    taken.set_exception(error if isinstance(error, Exception) else StorageDown("stopped"))
                raise

        task = asyncio.create_task(hold())
        self._holding.add(task)
        task.add_done_callback(self._holding.discard)
        try:
            await taken
        except _DOWN as error:
            raise await self._down(error) from None

    async def ping(self) -> None:
        await self.pool.fetchval("SELECT 1")  # once, not retried: a health check wants the answer as it is

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            return int(await conn.fetchval("SELECT version FROM schema_version")) if exists else 0

    async def _migrate(self) -> None:
        """Apply the migrations not yet applied, each in its own transaction, one process at a time."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT version FROM schema_version")
            if current is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            for number, script in applies(current):
                await conn.execute(script)
                await conn.execute("UPDATE schema_version SET version = $1", number)
                log.info("PostgreSQL schema migrated to version %d", number)

    # -- plumbing --------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection in a transaction: committed if the block returns, rolled back if it raises."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield conn
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except _DOWN as error:
            raise await self._down(error) from None

    async def _down(self, error: BaseException) -> StorageDown:
        """The server went away (or restarted): every pooled connection is replaced at its next use, so one
        failure, not one per connection, is what a restart costs."""
        await self.pool.expire_connections()
        return StorageDown(str(error) or type(error).__name__)

    async def _fetch(self, query: str, *params: Any) -> list[Any]:
        """Rows of one statement. One that only reads is tried again on a fresh connection after a failure of
        the connection (a server restart takes the pooled ones with it); one that writes is not: its answer may
        have been lost after it committed, and the caller finds out which (MatchCore._stored_once)."""
        pauses = _READ_RETRY_PAUSES if query.startswith("SELECT") else ()
        for pause in (*pauses, None):
            try:
                return list(await self.pool.fetch(query, *params))
            except _DOWN as error:
                down = await self._down(error)
                if pause is None:
                    raise down from None
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _fetchrow(self, query: str, *params: Any) -> Any | None:
        rows = await self._fetch(query, *params)
        return rows[0] if rows else None

    async def _execute(self, query: str, *params: Any) -> str:
        try:
            return str(await self.pool.execute(query, *params))
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except _DOWN as error:
            raise await self._down(error) from None

    async def _matches(self, ids: Iterable[int]) -> list[MatchRow]:
        ids = list(ids)
        if not ids:
            return []
        rows = await self._fetch(_READ_MATCH + " WHERE m.id = ANY($1::bigint[])", ids)
        by_id = {row[0]: _match_row(row) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    # -- post-game reviews ---------------------------------------------------------

    async def get_review(self, match_id: int) -> ReviewRow | None:
        row = await self._fetchrow(
            "SELECT match_id, done, total, data, claimed_until FROM reviews WHERE match_id = $1", match_id
        )
        return None if row is None else _review_from(tuple(row))

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        status = await self._execute(
            "INSERT INTO reviews AS r (match_id, done, total, claimed_until, created_at) VALUES ($1, 0, $2, $3, $4)"
            " ON CONFLICT (match_id) DO UPDATE SET done = 0, total = excluded.total,"
            " claimed_until = excluded.claimed_until WHERE r.data IS NULL AND r.claimed_until <= $4",
            match_id,
            total,
            now + lease,
            now,
        )
        return _count(status) == 1

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        status = await self._execute(
            "UPDATE reviews SET done = $1, claimed_until = $2 WHERE match_id = $3 AND data IS NULL",
            done,
            now + lease,
            match_id,
        )
        return _count(status) == 1

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        await self._execute(
            "UPDATE reviews SET data = $1, done = total, claimed_until = NULL WHERE match_id = $2",
            json.dumps(data),
            match_id,
        )

    async def release_review(self, match_id: int) -> None:
        await self._execute("DELETE FROM reviews WHERE match_id = $1", match_id)

    # -- matches -----------------------------------------------------------------

    async def create_match(
        self,
        *,
        game: str,
        options: dict[str, Any],
        players: int,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        seats: Iterable[SeatRow],
        now: float,
        days_per_move: float | None = None,
        rated: bool = True,
        hints: bool = False,
        analysis: bool = True,
        clock: BankClock | None = None,
    ) -> int:
        async with self.transaction() as db:
            match_id = await db.fetchval(
                "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status,"
                " created_at, updated_at, days_per_move, rated, hints, analysis, clock_bank, clock_increment,"
                " clock_cap) VALUES ($1, $2, $3, $4, $5, $6, 'lobby', $7, $7, $8, $9, $10, $11, $12, $13, $14)"
                " RETURNING id",
                game,
                json.dumps(options),
                players,
                guild_id,
                channel_id,
                creator_id,
                now,
                days_per_move,
                int(rated),
                int(hints),
                int(analysis),
                *clock_columns(clock),
            )
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer) VALUES ($1, $2, $3, $4, $5, $6)",
                [(match_id, s.seat, s.user_id, s.name, int(s.accepted), s.computer) for s in seats],
            )
        return int(match_id)

    async def get_match(self, match_id: int) -> MatchRow | None:
        if not _in_range(match_id):  # a forged id past 64 bits names no match
            return None
        row = await self._fetchrow(_READ_MATCH + " WHERE m.id = $1", match_id)
        return _match_row(row) if row is not None else None

    async def match_by_thread(self, thread_id: int) -> MatchRow | None:
        if not _in_range(thread_id):
            return None
        row = await self._fetchrow(_READ_MATCH + " WHERE m.thread_id = $1 ORDER BY m.id LIMIT 1", thread_id)
        return _match_row(row) if row is not None else None

    async def matches_of_user(self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]) -> list[MatchRow]:
        if not _in_range(user_id, guild_id or 0):
            return []
        rows = await self._fetch(
            _READ_MATCH + " WHERE m.id IN (SELECT s.match_id FROM seats s WHERE s.user_id = $1)"
            " AND m.status = ANY($2::text[]) AND ($3::bigint IS NULL OR m.guild_id = $3)"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = m.id) ORDER BY m.id",
            user_id,
            list(statuses),
            guild_id,
        )
        return [m for m in map(_match_row, rows) if m.quarantine is None]

    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        row = await self._fetchrow(
            "SELECT COUNT(*) FROM matches WHERE creator_id = $1 AND guild_id = $2 AND status = 'lobby'",
            creator_id,
            guild_id,
        )
        return int(row[0]) if row else 0

    async def active_match_ids(self) -> list[int]:
        return [r[0] for r in await self._fetch("SELECT id FROM matches WHERE status = 'active' ORDER BY id")]

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        query = (
            "SELECT id FROM matches m WHERE status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.computer IS NOT NULL) ORDER BY id"
        )
        return [r[0] for r in await self._fetch(query)]

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
        return _count(status) == 1

    async def _release(self, table: str, claim: str, key: str, value: int) -> None:
        """Give back the claim (columns ``claim``_until and ``claim``_by) of one row, if this process holds it."""
        await self._execute(
            f"UPDATE {table} SET {claim}_until = NULL, {claim}_by = NULL WHERE {key} = $1 AND {claim}_by = $2",
            value,
            self.incarnation,
        )

    async def update_match_fields(self, match_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "lobby_message_id"}
        assert set(fields) <= allowed, fields
        assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(fields, start=2))
        await self._execute(f"UPDATE matches SET {assignments} WHERE id = $1", match_id, *fields.values())

    # -- the lobby ---------------------------------------------------------------

    async def lobby_change(
        self,
        match_id: int,
        expected_version: int,
        *,
        now: float,
        accept_user: int | None = None,
        remove_user: int | None = None,
        add_seat: SeatRow | None = None,
    ) -> None:
        """One change to a lobby, refused if another change happened first."""
        async with self.transaction() as db:
            await _bump_version(db, match_id, expected_version, now, "lobby")
            if accept_user is not None:
                await db.execute(
                    "UPDATE seats SET accepted = 1 WHERE match_id = $1 AND user_id = $2", match_id, accept_user
                )
            if remove_user is not None:
                await db.execute("DELETE FROM seats WHERE match_id = $1 AND user_id = $2", match_id, remove_user)
            if add_seat is not None:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES ($1, $2, $3, $4, 1)",
                    match_id,
                    add_seat.seat,
                    add_seat.user_id,
                    add_seat.name,
                )

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        *,
        seats: list[SeatRow],
        state: dict[str, Any],
        now: float,
        reminder: ReminderPlan | None,
        deadline_at: float | None = None,
        turn_allowance: float | None = None,
    ) -> None:
        """Turn a lobby into an active match with its final seats (and banks), in one transaction."""
        async with self.transaction() as db:
            await _bump_version(db, match_id, expected_version, now, "lobby")
            await db.execute("DELETE FROM seats WHERE match_id = $1", match_id)
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer, bank)"
                " VALUES ($1, $2, $3, $4, 1, $5, $6)",
                [(match_id, s.seat, s.user_id, s.name, s.computer, s.bank) for s in seats],
            )
            await db.execute(
                "UPDATE matches SET status = 'active', players = $2, state = $3, turn_started_at = $4,"
                " deadline_at = $5, deadline_notice = 0, turn_allowance = $6, warnings_held_until = NULL WHERE id = $1",
                match_id,
                len(seats),
                json.dumps(state),
                now,
                deadline_at,
                turn_allowance,
            )
            await db.execute("DELETE FROM reminders WHERE match_id = $1", match_id)
            if reminder is not None:
                at = _REMINDER_AT.format(now="$5", user="$2", guild="$4", default="$6")
                await db.execute(
                    f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES ($1, $2, $3, {at})",
                    match_id,
                    reminder.user_id,
                    reminder.ply,
                    reminder.guild_id,
                    now,
                    reminder.default_hours,
                )

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None:
        status = await self._execute(
            "UPDATE matches SET version = version + 1, updated_at = $1, status = 'cancelled'"
            " WHERE id = $2 AND version = $3 AND status = 'lobby'",
            now,
            match_id,
            expected_version,
        )
        if _count(status) != 1:
            raise VersionConflict(match_id)

    # -- moves ---------------------------------------------------------------------

    async def apply_move(self, match_id: int, expected_version: int, **change: Any) -> int:
        """Record one move and the new state atomically (see :meth:`record_move`). Returns the new version."""
        return (await self.record_move(match_id, expected_version, **change)).match.version

    async def record_move(
        self,
        match_id: int,
        expected_version: int,
        *,
        move: MoveRow,
        state: dict[str, Any],
        finished: bool,
        result: dict[str, Any] | None,
        turn_changed: bool,
        resigned_seat: int | None,
        reminder: ReminderPlan | None,
        now: float,
        deadline_at: float | None = None,
        bank: tuple[int, float] | None = None,
        turn_allowance: float | None = None,
    ) -> RecordedMove:
        """Record one move and the new state atomically: one statement, one round trip.

        The version check, the log row, the new position, the turn's start, deadline and allowance, the
        settled bank of the player whose turn ended, a resignation, the offers it lapses and the next reminder
        are data-modifying CTEs of one statement (atomic on its own); the match comes back as committed, with
        the posted offers the move lapsed.
        """
        remind = reminder is not None and turn_changed and not finished
        params = [
            match_id,
            expected_version,
            now,
            json.dumps(state),
            "finished" if finished else "active",
            json.dumps(result) if result is not None else None,
            turn_changed,
            finished,
            deadline_at,
            move.ply,
            move.seat,
            move.user_id,
            move.kind,
            move.notation,
            move.entered or move.notation,
            json.dumps(move.events),
            resigned_seat,
            remind,
            reminder.user_id if reminder else None,
            reminder.guild_id if reminder else None,
            reminder.default_hours if reminder else None,
            reminder.ply if reminder else None,
            bank[0] if bank else None,
            bank[1] if bank else None,
            turn_allowance,
            int(move.conditional),
        ]
        at = _REMINDER_AT.format(now="$3", user="$19", guild="$20", default="$21")
        query = f"""
            WITH bumped AS (
                UPDATE matches SET version = version + 1, updated_at = $3, state = $4, status = $5, result = $6,
                    turn_started_at = CASE WHEN $7 THEN $3 ELSE turn_started_at END,
                    deadline_at = CASE WHEN $8 THEN NULL WHEN $7 THEN $9::double precision ELSE deadline_at END,
                    deadline_notice = CASE WHEN $7 OR $8 THEN 0 ELSE deadline_notice END,
                    deadline_claimed_until = CASE WHEN $7 OR $8 THEN NULL ELSE deadline_claimed_until END,
                    deadline_claimed_by = CASE WHEN $7 OR $8 THEN NULL ELSE deadline_claimed_by END,
                    turn_allowance = CASE WHEN $8 THEN NULL WHEN $7 THEN $25::double precision ELSE turn_allowance END,
                    warnings_held_until = CASE WHEN $7 OR $8 THEN NULL ELSE warnings_held_until END
                WHERE id = $1 AND version = $2 AND status = 'active'
                RETURNING {_MATCH_COLUMNS}
            ), logged AS (
                INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at,
                    conditional)
                SELECT id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = $1),
                    $10, $11, $12, $13, $14, $15, $16, $3, $26 FROM bumped
            ), seated AS (
                -- one UPDATE for both (a resignation on one's own turn settles that seat's bank too): two
                -- CTEs updating one row in one statement would keep only one of the changes
                UPDATE seats SET resigned = CASE WHEN seat = $17 THEN 1 ELSE resigned END,
                    bank = CASE WHEN seat = $23::integer THEN $24::double precision ELSE bank END
                WHERE match_id = $1 AND (seat = $17 OR seat = $23::integer) AND EXISTS (SELECT 1 FROM bumped)
            ), lapsed AS (
                DELETE FROM offers WHERE match_id = $1 AND EXISTS (SELECT 1 FROM bumped)
                RETURNING channel_id, message_id
            ), unreminded AS (
                DELETE FROM reminders WHERE match_id = $1 AND EXISTS (SELECT 1 FROM bumped)
                    AND ($8 OR ($7 AND NOT $18))
            ), reminded AS (
                INSERT INTO reminders (match_id, user_id, ply, remind_at)
                SELECT $1, $19, $22, {at} FROM bumped WHERE $18
                ON CONFLICT (match_id) DO UPDATE SET user_id = excluded.user_id, ply = excluded.ply,
                    remind_at = excluded.remind_at, last_sent_at = NULL, snoozed = 0, claimed_until = NULL
            )
            SELECT b.*,
                (SELECT json_agg(json_build_array(s.seat, s.user_id::text, s.name, s.accepted,
                    CASE WHEN s.seat = $17 THEN 1 ELSE s.resigned END, s.computer,
                    CASE WHEN s.seat = $23::integer THEN $24::double precision ELSE s.bank END) ORDER BY s.seat)
                    FROM seats s WHERE s.match_id = $1),
                (SELECT q.reason FROM quarantine q WHERE q.match_id = $1),
                (SELECT json_agg(json_build_array(l.channel_id::text, l.message_id::text)) FROM lapsed l
                    WHERE l.message_id IS NOT NULL)
            FROM bumped b
        """
        try:
            row = await self.pool.fetchrow(query, *params)
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except _DOWN as error:
            raise await self._down(error) from None
        if row is None:
            raise VersionConflict(match_id)
        values = list(row)
        lapsed = [(int(c), int(m)) for c, m in json.loads(values[-1] or "[]")]
        return RecordedMove(_match_row(values[:-1]), lapsed)

    # -- quarantine: a match whose data cannot be served is set aside, never rewritten --------------

    async def quarantine(self, match_id: int, reason: str, now: float) -> bool:
        """Set a match aside; False if it already was."""
        status = await self._execute(
            "INSERT INTO quarantine (match_id, reason, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            match_id,
            reason,
            now,
        )
        return _count(status) == 1

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

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._fetch(
            "SELECT seq, ply, seat, user_id, kind, notation, events, created_at, entered, conditional FROM moves"
            " WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        return [_move_from(match_id, r) for r in rows]

    # -- conditional moves and private analysis (issue 25) ----------------------------------------

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
            if _count(held) != 1:
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
        return None if row is None else _premove_from(tuple(row))

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        rows = await self._fetch(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = $1 AND version = $2",
            match_id,
            version,
        )
        return [p for p in (_premove_from(tuple(r)) for r in rows) if p is not None]

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        rows = await self._fetch(
            "SELECT DISTINCT p.match_id, p.version FROM premoves p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status = 'active' AND p.version < m.version ORDER BY p.match_id, p.version"
        )
        return [(int(r[0]), int(r[1])) for r in rows]

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
        return [p for p in (_premove_from(tuple(r)) for r in rows) if p is not None]

    async def keep_premoves(
        self, match_id: int, user_id: int, version: int, lines: list[list[str]], now: float
    ) -> bool:
        async with self.transaction() as db:  # the match row first, as take_premoves locks it
            held = await db.execute(
                "UPDATE matches SET premoves_held = 1 WHERE id = $1 AND version = $2 AND status = 'active'",
                match_id,
                version,
            )
            if _count(held) != 1:
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
            return _count(done) == 1

    async def get_exploration(self, match_id: int, user_id: int) -> ExplorationRow | None:
        row = await self._fetchrow(
            "SELECT match_id, user_id, version, base, turns, shown FROM explorations"
            " WHERE match_id = $1 AND user_id = $2",
            match_id,
            user_id,
        )
        return None if row is None else _exploration_from(tuple(row))

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

    # -- reminders and preferences ---------------------------------------------------

    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders nobody holds, the ``limit`` most overdue, claimed for ``lease`` seconds (each goes to
        one process only: rows another pass is claiming are skipped, not waited for)."""
        held = now if held_at is None else held_at
        rows = await self._fetch(
            "UPDATE reminders SET claimed_until = $1, claimed_by = $5 WHERE match_id IN (SELECT match_id FROM reminders"
            f" WHERE remind_at <= $2 AND snoozed = 0 AND {free_claim('claimed', '$3', '$5')}"
            " ORDER BY remind_at LIMIT $4 FOR UPDATE SKIP LOCKED)"
            " RETURNING match_id, user_id, ply, remind_at, last_sent_at, snoozed",
            held + lease,
            now,
            held,
            limit,
            self.incarnation,
        )
        return sorted((ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows), key=lambda r: r.remind_at)

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        await self._release("reminders", "claimed", "match_id", match_id)

    async def get_reminder(self, match_id: int) -> ReminderRow | None:
        r = await self._fetchrow(
            "SELECT match_id, user_id, ply, remind_at, last_sent_at, snoozed FROM reminders WHERE match_id = $1",
            match_id,
        )
        return ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) if r else None

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        status = await self._execute(
            "UPDATE reminders SET last_sent_at = $1, remind_at = $2, claimed_until = NULL"
            " WHERE match_id = $3 AND ply = $4",
            now,
            next_at,
            match_id,
            ply,
        )
        return _count(status) == 1

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool:
        if not _in_range(match_id, user_id, ply):
            return False
        status = await self._execute(
            "UPDATE reminders SET snoozed = 1, claimed_until = NULL WHERE match_id = $1 AND user_id = $2 AND ply = $3",
            match_id,
            user_id,
            ply,
        )
        return _count(status) == 1

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a reminder's due time to ``until`` (the player's morning), nothing marked sent."""
        status = await self._execute(
            "UPDATE reminders SET remind_at = $1, claimed_until = NULL WHERE match_id = $2 AND ply = $3",
            until,
            match_id,
            ply,
        )
        return _count(status) == 1

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""
        row = await self._fetchrow(
            "INSERT INTO refused_notices AS r (match_id, notice, version, tries) VALUES ($1, $2, $3, 1)"
            " ON CONFLICT (match_id, notice) DO UPDATE SET version = excluded.version,"
            " tries = CASE WHEN r.version = excluded.version THEN r.tries + 1 ELSE 1 END RETURNING tries",
            match_id,
            notice,
            version,
        )
        assert row is not None  # an upsert returns its row
        return int(row[0])

    async def get_preferences(self, user_id: int, guild_id: int) -> Preferences:
        """The user's preferences in this server, falling back to their global ones (guild 0)."""
        row = await self._fetchrow(
            "SELECT reminders, delay_hours, via, challenges, quiet_zone, quiet_start, quiet_end FROM preferences"
            " WHERE user_id = $1 AND guild_id IN ($2, 0) ORDER BY guild_id DESC LIMIT 1",
            user_id,
            guild_id,
        )
        if row is None:
            return Preferences()
        return Preferences(bool(row[0]), row[1], row[2], row[3], row[4], row[5], row[6])

    async def reminder_hours(self, user_id: int, guild_id: int) -> tuple[float | None, float | None]:
        """(the user's reminder delay as :meth:`get_preferences` gives it, the server's default) in one query."""
        row = await self._fetchrow(
            "SELECT (SELECT delay_hours FROM preferences WHERE user_id = $1 AND guild_id IN ($2, 0)"
            " ORDER BY guild_id DESC LIMIT 1), (SELECT reminder_hours FROM guild_settings WHERE guild_id = $2)",
            user_id,
            guild_id,
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_preferences(self, user_id: int, guild_id: int, prefs: Preferences) -> None:
        await self._execute(
            "INSERT INTO preferences (user_id, guild_id, reminders, delay_hours, via, challenges, quiet_zone,"
            " quiet_start, quiet_end) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id, guild_id)"
            " DO UPDATE SET reminders = excluded.reminders, delay_hours = excluded.delay_hours, via = excluded.via,"
            " challenges = excluded.challenges, quiet_zone = excluded.quiet_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end",
            user_id,
            guild_id,
            int(prefs.reminders),
            prefs.delay_hours,
            prefs.via,
            prefs.challenges,
            prefs.quiet_zone,
            prefs.quiet_start,
            prefs.quiet_end,
        )

    # -- challenge limits and refusals ------------------------------------------------

    async def admit_challenge(
        self, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
    ) -> ChallengeRefusal | None:
        """Check a challenge against every limit and, when none refuses it, count it: one transaction under an
        advisory lock, so two challenges at the same instant (from any processes) cannot both take the last
        place in a count. See the SQLite store for what the transaction tidies."""
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", _CHALLENGE_LOCK)
            await db.execute("UPDATE challenge_events SET at = $1 WHERE at > $1", now)
            await db.execute(
                "DELETE FROM challenge_events WHERE at <= $1", now - max(caps.window, caps.same_player_window)
            )
            refusal = await _challenge_refusal(db, guild_id, challenger_id, invited_ids, now, caps)
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
        return _count(status) == 1

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom the user refuses challenges from, oldest block first."""
        rows = await self._fetch(
            "SELECT blocked_id FROM challenge_blocks WHERE user_id = $1 ORDER BY since, blocked_id", user_id
        )
        return [r[0] for r in rows]

    # -- offers: draws and takebacks -------------------------------------------------

    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        async with self.transaction() as db:
            row = await db.fetchrow("SELECT version, status FROM matches WHERE id = $1 FOR SHARE", match_id)
            if row is None or row[0] != expected_version or row[1] != "active":
                raise VersionConflict(match_id)
            await db.execute(
                "INSERT INTO offers (match_id, kind, user_id, at_seq, accepted, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id, kind) DO UPDATE SET"
                " user_id = excluded.user_id, at_seq = excluded.at_seq, accepted = excluded.accepted,"
                " created_at = excluded.created_at, channel_id = NULL, message_id = NULL",
                match_id,
                offer.kind,
                offer.user_id,
                offer.at_seq,
                json.dumps(offer.accepted),
                offer.created_at,
            )

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None:
        r = await self._fetchrow(
            "SELECT match_id, kind, user_id, at_seq, accepted, created_at FROM offers"
            " WHERE match_id = $1 AND kind = $2",
            match_id,
            kind,
        )
        return OfferRow(r[0], r[1], r[2], r[3], _accepted(match_id, r[4]), r[5]) if r else None

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        if not _in_range(at_seq):
            return None
        async with self.transaction() as db:
            row = await db.fetchrow(
                "SELECT accepted FROM offers WHERE match_id = $1 AND kind = $2 AND at_seq = $3 FOR UPDATE",
                match_id,
                kind,
                at_seq,
            )
            if row is None:
                return None
            accepted = sorted(set(_accepted(match_id, row[0])) | {user_id})
            await db.execute(
                "UPDATE offers SET accepted = $1 WHERE match_id = $2 AND kind = $3",
                json.dumps(accepted),
                match_id,
                kind,
            )
            return accepted

    async def set_offer_message(self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int) -> None:
        await self._execute(
            "UPDATE offers SET channel_id = $1, message_id = $2 WHERE match_id = $3 AND kind = $4 AND at_seq = $5",
            channel_id,
            message_id,
            match_id,
            kind,
            at_seq,
        )

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM offers WHERE match_id = $1 AND message_id IS NOT NULL", match_id
        )
        return [(r[0], r[1]) for r in rows]

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool:
        if not _in_range(at_seq):
            return False
        status = await self._execute(
            "DELETE FROM offers WHERE match_id = $1 AND kind = $2 AND at_seq = $3", match_id, kind, at_seq
        )
        return _count(status) == 1

    # -- time limits, vacations and outages ------------------------------------------------

    async def claim_deadlines(
        self,
        now: float,
        warnings: tuple[tuple[int, float], ...],
        lease: float,
        paused_shards: tuple[int, tuple[int, ...]] = (1, ()),
        held_at: float | None = None,
    ) -> list[int]:
        """Active matches with a notice due, claimed for ``lease`` seconds, none of a paused shard's servers
        (see the SQLite store)."""
        held = now if held_at is None else held_at
        due = ["(deadline_notice < 3 AND deadline_at <= $2)"]
        params: list[Any] = [held + lease, now, held, self.incarnation]
        for level, before in warnings:
            n = len(params)
            due.append(
                f"(deadline_notice < ${n + 1} AND deadline_at - ${n + 2} <= $2"
                f" AND COALESCE(turn_allowance, days_per_move * 86400) > ${n + 2}"
                " AND (warnings_held_until IS NULL OR warnings_held_until <= $2))"
            )
            params += [level, before]
        count, paused = paused_shards
        skip = ""
        if paused:
            skip = f" AND ((guild_id >> 22) % ${len(params) + 1}) <> ALL(${len(params) + 2}::bigint[])"
            params += [count, list(paused)]
        rows = await self._fetch(
            "UPDATE matches SET deadline_claimed_until = $1, deadline_claimed_by = $4"
            " WHERE status = 'active' AND deadline_at IS NOT NULL"
            f" AND deadline_notice < 3 AND ({' OR '.join(due)})"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = id)"
            f" AND {free_claim('deadline_claimed', '$3', '$4')}{skip} RETURNING id, deadline_at",
            *params,
        )
        return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        await self._release("matches", "deadline_claimed", "id", match_id)

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        status = await self._execute(
            "UPDATE matches SET deadline_notice = $1, deadline_claimed_until = NULL"
            " WHERE id = $2 AND version = $3 AND deadline_notice < $1",
            level,
            match_id,
            expected_version,
        )
        return _count(status) == 1

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning before ``until`` (the mover's morning); the deadline itself stays."""
        status = await self._execute(
            "UPDATE matches SET warnings_held_until = $1, deadline_claimed_until = NULL WHERE id = $2 AND version = $3",
            until,
            match_id,
            expected_version,
        )
        return _count(status) == 1

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        status = await self._execute(
            "UPDATE matches SET deadline_at = deadline_at + $1, deadline_notice = 0"
            " WHERE id = $2 AND version = $3 AND status = 'active' AND deadline_at IS NOT NULL",
            seconds,
            match_id,
            expected_version,
        )
        return _count(status) == 1

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        await self._execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)", user_id, starts_at, ends_at
        )

    async def vacation_until(self, user_id: int, now: float) -> float | None:
        row = await self._fetchrow(
            "SELECT MAX(ends_at) FROM vacations WHERE user_id = $1 AND starts_at <= $2 AND ends_at > $2", user_id, now
        )
        return row[0] if row and row[0] is not None else None

    async def vacation_seconds_since(self, user_id: int, since: float) -> float:
        row = await self._fetchrow(
            "SELECT COALESCE(SUM(ends_at - starts_at), 0) FROM vacations WHERE user_id = $1 AND starts_at >= $2",
            user_id,
            since,
        )
        return float(row[0]) if row else 0.0

    async def last_seen(self) -> float | None:
        row = await self._fetchrow("SELECT last_seen FROM heartbeat WHERE id = 1")
        return row[0] if row else None

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        rows = await self._fetch("SELECT shard_id, last_seen FROM shard_heartbeats WHERE shard_count = $1", shard_count)
        return {r[0]: r[1] for r in rows}

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written by every timer pass and at shutdown); so are its shards, run by
        this process's incarnation, seen at ``held_at`` of the lease clock: while it is fresh, its claims hold."""
        count, ids = shards or (1, (0,))
        await self._execute(
            "WITH bot AS (INSERT INTO heartbeat AS h (id, last_seen) VALUES (1, $1)"
            " ON CONFLICT (id) DO UPDATE SET last_seen = GREATEST(h.last_seen, excluded.last_seen))"
            " INSERT INTO shard_heartbeats AS s (shard_count, shard_id, last_seen, incarnation, incarnation_seen)"
            " SELECT $2, unnest($3::int[]), $1, $4, $5"
            " ON CONFLICT (shard_count, shard_id) DO UPDATE SET last_seen = GREATEST(s.last_seen, excluded.last_seen),"
            " incarnation = excluded.incarnation, incarnation_seen = excluded.incarnation_seen",
            now,
            count,
            list(ids),
            self.incarnation,
            now if held_at is None else held_at,
        )

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot (or one shard's process) was down, and give the running clocks it paused that time
        back. Returns matches extended."""
        shard_id, count = shard or (0, 1)
        async with self.transaction() as db:
            await db.execute("INSERT INTO outages (started_at, ended_at) VALUES ($1, $2)", started_at, ended_at)
            status = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + $1, deadline_notice = 0"
                " WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at > $2"
                " AND ((guild_id >> 22) % $3) = $4",
                ended_at - started_at,
                started_at,
                count,
                shard_id,
            )
            if shard is None:
                await db.execute(
                    "INSERT INTO heartbeat (id, last_seen) VALUES (1, $1)"
                    " ON CONFLICT (id) DO UPDATE SET last_seen = $1",
                    ended_at,
                )
            await db.execute(
                "INSERT INTO shard_heartbeats (shard_count, shard_id, last_seen) VALUES ($1, $2, $3)"
                " ON CONFLICT (shard_count, shard_id) DO UPDATE SET last_seen = $3",
                count,
                shard_id,
                ended_at,
            )
            return _count(status)

    async def outages(self) -> list[tuple[float, float]]:
        return [(r[0], r[1]) for r in await self._fetch("SELECT started_at, ended_at FROM outages ORDER BY started_at")]

    # -- ratings -----------------------------------------------------------------------------

    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        rows = await self._fetch(
            "SELECT id FROM matches m WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) ORDER BY updated_at, id"
        )
        return [r[0] for r in rows]

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            user_ids,
        )
        return {r[2]: RatingRow(*r) for r in rows}

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already", or "stale" (see the SQLite store); under
        an advisory lock, so two settlements of the same players in two processes are judged one after the other."""
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", _RATING_LOCK)
            for user_id, games in read_games.items():
                found = await db.fetchval(
                    "SELECT r.games FROM matches m JOIN ratings r ON r.guild_id = m.guild_id AND r.game = m.game"
                    " WHERE m.id = $1 AND r.user_id = $2",
                    match_id,
                    user_id,
                )
                if found != games:
                    return "stale"
            status = await db.execute(
                "INSERT INTO rated_matches (match_id, counted, rated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                match_id,
                int(counted),
                now,
            )
            if _count(status) != 1:
                return "already"
            await db.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
                " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, losses = excluded.losses,"
                " draws = excluded.draws, updated_at = excluded.updated_at",
                [
                    (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, now)
                    for r in rows
                ],
            )
            return "settled"

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 AND games > 0"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id",
            guild_id,
            game,
        )
        return [RatingRow(*r) for r in rows]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY game",
            guild_id,
            user_id,
        )
        return [RatingRow(*r) for r in rows]

    # -- server settings and server-wide lists ----------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchrow(
            "SELECT match_channel_id, days_per_move, reminder_hours, clock_bank, clock_increment, clock_cap,"
            " analysis, language FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        return guild_settings_from(row)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings, now: float) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, match_channel_id, days_per_move, reminder_hours, updated_at,"
            " clock_bank, clock_increment, clock_cap, analysis, language)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            " ON CONFLICT (guild_id)"
            " DO UPDATE SET match_channel_id = excluded.match_channel_id, days_per_move = excluded.days_per_move,"
            " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at,"
            " clock_bank = excluded.clock_bank, clock_increment = excluded.clock_increment,"
            " clock_cap = excluded.clock_cap, analysis = excluded.analysis, language = excluded.language",
            guild_id,
            settings.match_channel_id,
            settings.days_per_move,
            settings.reminder_hours,
            now,
            *clock_columns(settings.clock),
            None if settings.analysis is None else int(settings.analysis),
            settings.language,
        )

    # -- languages -----------------------------------------------------------------------------

    async def guild_languages(self, guild_id: int) -> Languages:
        row = await self._fetchrow("SELECT language, seen_language FROM guild_settings WHERE guild_id = $1", guild_id)
        return Languages(row[0], row[1]) if row is not None else Languages()

    async def see_guild_language(self, guild_id: int, language: str, now: float) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, updated_at, seen_language) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET seen_language = excluded.seen_language",
            guild_id,
            now,
            language,
        )

    async def player_languages(self, user_id: int) -> Languages:
        row = await self._fetchrow("SELECT chosen, seen FROM player_languages WHERE user_id = $1", user_id)
        return Languages(row[0], row[1]) if row is not None else Languages()

    async def see_player_language(self, user_id: int, language: str, now: float) -> None:
        await self._execute(
            "INSERT INTO player_languages (user_id, seen, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen, updated_at = excluded.updated_at",
            user_id,
            language,
            now,
        )

    async def choose_player_language(self, user_id: int, language: str | None, now: float) -> None:
        await self._execute(
            "INSERT INTO player_languages (user_id, chosen, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET chosen = excluded.chosen, updated_at = excluded.updated_at",
            user_id,
            language,
            now,
        )

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]:
        rows = await self._fetch(
            _READ_MATCH + " WHERE m.guild_id = $1 AND m.status = 'active'"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = m.id) ORDER BY m.updated_at DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [m for m in map(_match_row, rows) if m.quarantine is None]


async def _bump_version(db: asyncpg.Connection, match_id: int, expected: int, now: float, status: str) -> int:
    done = await db.execute(
        "UPDATE matches SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3 AND status = $4",
        now,
        match_id,
        expected,
        status,
    )
    if _count(done) != 1:
        raise VersionConflict(match_id)
    return expected + 1


async def _challenge_refusal(
    db: asyncpg.Connection, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
) -> ChallengeRefusal | None:
    """The first rule a challenge breaks (see SqliteStore.admit_challenge)."""
    for invited in invited_ids:
        if await db.fetchval(
            "SELECT COUNT(*) FROM challenge_blocks WHERE user_id = $1 AND blocked_id = $2", invited, challenger_id
        ):
            return ChallengeRefusal("blocked", invited)
    for invited in invited_ids:  # the server's row, else the global one (as get_preferences reads them)
        choice = await db.fetchval(
            "SELECT challenges FROM preferences WHERE user_id = $1 AND guild_id IN ($2, 0)"
            " ORDER BY guild_id DESC LIMIT 1",
            invited,
            guild_id,
        )
        if choice == "nobody":
            return ChallengeRefusal("nobody", invited)
    if (
        await db.fetchval(
            "SELECT COUNT(*) FROM matches WHERE creator_id = $1 AND guild_id = $2 AND status = 'lobby'",
            challenger_id,
            guild_id,
        )
        >= caps.open_lobbies
    ):
        return ChallengeRefusal("open_lobbies")
    count, oldest = await db.fetchrow(
        "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = $1 AND invited_id = 0 AND guild_id = $2"
        " AND at > $3",
        challenger_id,
        guild_id,
        now - caps.window,
    )
    if count >= caps.per_window:
        return ChallengeRefusal("rate", None, oldest + caps.window - now)
    for invited in invited_ids:
        count, oldest = await db.fetchrow(
            "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = $1 AND invited_id = $2 AND at > $3",
            challenger_id,
            invited,
            now - caps.same_player_window,
        )
        if count >= caps.same_player:
            return ChallengeRefusal("same_player", invited, oldest + caps.same_player_window - now)
    for invited in invited_ids:
        waiting = await db.fetchval(
            "SELECT COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = $1"
            " AND s.accepted = 0 AND m.status = 'lobby' AND m.guild_id = $2",
            invited,
            guild_id,
        )
        if waiting >= caps.invitations_waiting:
            return ChallengeRefusal("waiting", invited)
    return None


__all__ = ["MIGRATIONS", "PostgresStore", "explain", "redacted"]
