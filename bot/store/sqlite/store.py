"""SQLite storage behind the Store protocol (stdlib sqlite3 on its own thread, WAL, versioned migrations).

Every change of a match happens in one transaction, and a turn is applied
only if the match still has the version its player saw (optimistic
concurrency: ``UPDATE … WHERE id = ? AND version = ?`` checked by rowcount),
so two players acting at the same instant can never both apply.

There is one connection, so a read on it while a write transaction is open
would see that transaction's half-written rows (a bumped version beside the
old state). Reads and transactions therefore take the same lock: a read sees
only committed data.

Each trip to the connection's thread is a thread switch plus an event-loop wake-up (on a
busy machine, a wait for a core). The calls made on every turn (reading a match, recording
a move, marking its board shown) therefore run as one function on that thread, in one trip
(:meth:`SqliteStore._run`); a statement fetches its rows in the same trip (thread.py).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from ...domain.bank import BankClock
from ...domain.errors import StorageFull, StorageReadOnly, StoreUnavailable, VersionConflict
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
from .breaches import find_breaches
from .files import _create_private, _explain, check_database_path, warn_if_shared
from .integrity import IntegrityCheck
from .leases import free_claim
from .migrations import MIGRATIONS
from .puzzles import SqlitePuzzles
from .rows import (
    _RATING_COLUMNS,
    _accepted,
    _exploration_from,
    _move_from,
    _premove_from,
    _read_match,
    _review_from,
    clock_columns,
    guild_settings_from,
)
from .thread import SqliteThread
from .tournaments import SqliteTournaments


def _full(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def _read_only(error: sqlite3.Error) -> bool:
    """SQLITE_READONLY or one of its extended codes: SQLite refused the write as a whole, nothing of it is stored."""
    return (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_READONLY


T = TypeVar("T")

_BUMP_VERSION = "UPDATE matches SET version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND status = ?"


def _in_transaction(conn: sqlite3.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(conn, *args)`` in one transaction: committed if it returns, rolled back if it raises."""
    try:
        conn.execute("BEGIN IMMEDIATE")  # a database that refuses writes refuses this already
    except sqlite3.Error as error:
        if _read_only(error):
            raise StorageReadOnly(str(error)) from None
        raise
    try:
        result = work(conn, *args)
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error) and _full(error):
            raise StorageFull(str(error)) from None
        if isinstance(error, sqlite3.Error) and _read_only(error):
            raise StorageReadOnly(str(error)) from None
        raise
    return result


# The player's delay in this server (their server row, else their global one), else the server's, else the default.
_REMINDER_AT = (
    "? + 3600.0 * COALESCE((SELECT delay_hours FROM preferences WHERE user_id = ? AND guild_id IN (?, 0)"
    " ORDER BY guild_id DESC LIMIT 1), (SELECT reminder_hours FROM guild_settings WHERE guild_id = ?), ?)"
)


def _set_reminder_now(conn: sqlite3.Connection, match_id: int, plan: ReminderPlan | None, now: float) -> None:
    """Replace the match's reminder with the one the new position calls for, timed in this transaction."""
    conn.execute("DELETE FROM reminders WHERE match_id = ?", (match_id,))
    if plan is not None:
        conn.execute(
            f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES (?, ?, ?, {_REMINDER_AT})",
            (match_id, plan.user_id, plan.ply, now, plan.user_id, plan.guild_id, plan.guild_id, plan.default_hours),
        )


def _bump_version_now(conn: sqlite3.Connection, match_id: int, expected: int, now: float, status: str) -> int:
    if conn.execute(_BUMP_VERSION, (now, match_id, expected, status)).rowcount != 1:
        raise VersionConflict(match_id)
    return expected + 1


def _challenge_refusal(
    conn: sqlite3.Connection, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
) -> ChallengeRefusal | None:
    """The first rule a challenge breaks (see Store.admit_challenge), on the database thread."""

    def one(query: str, *params: Any) -> Any:
        return conn.execute(query, params).fetchone()[0]

    for invited in invited_ids:
        if one("SELECT COUNT(*) FROM challenge_blocks WHERE user_id = ? AND blocked_id = ?", invited, challenger_id):
            return ChallengeRefusal("blocked", invited)
    for invited in invited_ids:  # the server's row, else the global one (as get_preferences reads them)
        row = conn.execute(
            "SELECT challenges FROM preferences WHERE user_id = ? AND guild_id IN (?, 0)"
            " ORDER BY guild_id DESC LIMIT 1",
            (invited, guild_id),
        ).fetchone()
        if row is not None and row[0] == "nobody":
            return ChallengeRefusal("nobody", invited)
    if (
        one(
            "SELECT COUNT(*) FROM matches WHERE creator_id = ? AND guild_id = ? AND status = 'lobby'",
            challenger_id,
            guild_id,
        )
        >= caps.open_lobbies
    ):
        return ChallengeRefusal("open_lobbies")
    count, oldest = conn.execute(
        "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = ? AND invited_id = 0 AND guild_id = ?"
        " AND at > ?",
        (challenger_id, guild_id, now - caps.window),
    ).fetchone()
    if count >= caps.per_window:
        return ChallengeRefusal("rate", None, oldest + caps.window - now)
    for invited in invited_ids:
        count, oldest = conn.execute(
            "SELECT COUNT(*), MIN(at) FROM challenge_events WHERE challenger_id = ? AND invited_id = ? AND at > ?",
            (challenger_id, invited, now - caps.same_player_window),
        ).fetchone()
        if count >= caps.same_player:
            return ChallengeRefusal("same_player", invited, oldest + caps.same_player_window - now)
    for invited in invited_ids:
        waiting = one(
            "SELECT COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = ?"
            " AND s.accepted = 0 AND m.status = 'lobby' AND m.guild_id = ?",
            invited,
            guild_id,
        )
        if waiting >= caps.invitations_waiting:
            return ChallengeRefusal("waiting", invited)
    return None


async def _user_version(db: SqliteThread) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


class SqliteStore(SqliteTournaments, SqlitePuzzles):
    """The database. One connection; reads and write transactions are serialised by one lock."""

    shared = False  # one process per file (ProcessLock)
    # Below this the integrity check runs before the store opens (a 64 MB file: ~0.5 s); above, beside it.
    check_at_open_bytes = 64 * 1024 * 1024

    def __init__(self, connection: SqliteThread) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None
        self._identify_locks: dict[int, asyncio.Lock] = {}
        self._identify_at: dict[int, float] = {}  # bucket -> loop time of its last IDENTIFY
        self._integrity: IntegrityCheck | None = None
        self._breaches: list[ConstraintBreach] | None = []  # rows the check at open found breaking a constraint
        self.incarnation = secrets.token_hex(8)  # this start: the one process the file serves

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating if needed) and check the database; StoreUnavailable says why it cannot be used.

        A path that is neither absent nor a SQLite database is refused before anything is created or changed.
        The files it creates are private (0600, a new folder 0700): they hold user ids and server data.
        """
        path = Path(path)
        if str(path) != ":memory:":
            if check_database_path(path):
                _create_private(path)
            else:
                warn_if_shared(path)
        try:
            connection = await SqliteThread.connect(str(path))
        except sqlite3.Error as error:
            raise StoreUnavailable(f"cannot open the database {path}: {error}") from None
        store = cls(connection)
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA synchronous=NORMAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=5000")
            if _bytes(path) <= cls.check_at_open_bytes:
                findings = [str(r[0]) for r in await store._all("PRAGMA quick_check")]
                if findings != ["ok"]:  # rows that break a constraint set their match or event aside; else damage
                    store._breaches = await store._run(find_breaches, findings)
                    if store._breaches is None:
                        raise sqlite3.DatabaseError(f"database disk image is malformed ({findings[0]})")
            else:  # reads the whole file (seconds per GB): start-up must not grow with the database
                store._integrity = IntegrityCheck(path)
            await store._migrate()
            async with store.transaction() as db:  # a read-only file fails here, not at the first move
                await db.execute(f"PRAGMA user_version = {await _user_version(db)}")
        except (sqlite3.Error, StorageReadOnly) as error:
            await connection.close()  # else its thread keeps the process alive
            raise StoreUnavailable(_explain(path, error)) from None
        return store

    async def close(self) -> None:
        if self._integrity is not None:
            await self._integrity.stop()
        await self._db.close()

    async def damage(self) -> str | None:
        """A large file's integrity check, run after opening on a connection of its own: what it found."""
        return None if self._integrity is None else await self._integrity.result()

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        """Rows quick_check found breaking a CHECK or NOT NULL constraint (bot/store/sqlite/breaches.py): at open,
        or for a large file once its check beside the bot finished (None until then: ``damage()`` waits)."""
        if self._integrity is None:
            return list(self._breaches or [])
        return self._integrity.breaches

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        def grant(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT used FROM request_budget WHERE second = ?", (second,)).fetchone()
            granted = max(0, min(wanted, limit - (row[0] if row else 0)))
            if granted:
                conn.execute(
                    "INSERT INTO request_budget (second, used) VALUES (?, ?)"
                    " ON CONFLICT (second) DO UPDATE SET used = used + excluded.used",
                    (second, granted),
                )
                if second % 30 == 0:
                    conn.execute("DELETE FROM request_budget WHERE second < ?", (second - 60,))
            return granted

        return await self._transact(grant)

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """One process per SQLite file: the IDENTIFYs of a bucket are spaced in this process."""
        loop = asyncio.get_running_loop()
        lock = self._identify_locks.setdefault(bucket, asyncio.Lock())
        async with lock:
            wait = self._identify_at.get(bucket, -interval) + interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._identify_at[bucket] = loop.time()

    async def ping(self) -> None:
        await self._one("SELECT 1")

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in script.split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def _holding(self) -> AsyncIterator[None]:
        """The lock; taking it again in the task that holds it would wait forever, so that is refused."""
        if self._lock.locked() and self._owner is asyncio.current_task():
            raise RuntimeError("a Store method was called inside a transaction: use the transaction's connection")
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteThread]:
        """The connection for reads, never while a transaction is open on it."""
        async with self._holding():
            yield self._db

    async def _all(self, query: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.reading() as db:
            try:
                return list(await db.execute_fetchall(query, tuple(params)))  # one trip to the database thread
            except OverflowError:  # a number past SQLite's 64 bits (a forged id) is in no row
                return []

    async def _one(self, query: str, params: Iterable[Any] = ()) -> Any | None:
        rows = await self._all(query, params)
        return rows[0] if rows else None

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` on the database thread in one trip, holding the lock."""
        async with self._holding():
            return await self._db.call(work, self._db.raw, *args)

    async def _transact(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` as one transaction, in one trip to the database thread."""
        return await self._run(_in_transaction, work, *args)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteThread]:
        async with self._holding():
            try:
                await self._db.execute("BEGIN IMMEDIATE")  # a database that refuses writes refuses this already
                try:
                    yield self._db
                except BaseException:
                    if self._db.in_transaction:  # SQLite already rolled back after some errors (a full disk)
                        await self._db.execute("ROLLBACK")
                    raise
                else:
                    await self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if _full(error):
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise StorageFull(str(error)) from None
                if _read_only(error):
                    raise StorageReadOnly(str(error)) from None
                raise

    # -- post-game reviews ---------------------------------------------------------

    async def get_review(self, match_id: int) -> ReviewRow | None:
        row = await self._one(
            "SELECT match_id, done, total, data, claimed_until FROM reviews WHERE match_id = ?", (match_id,)
        )
        return None if row is None else _review_from(row)

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO reviews (match_id, done, total, claimed_until, created_at) VALUES (?, 0, ?, ?, ?)"
                " ON CONFLICT (match_id) DO UPDATE SET done = 0, total = excluded.total,"
                " claimed_until = excluded.claimed_until WHERE reviews.data IS NULL AND reviews.claimed_until <= ?",
                (match_id, total, now + lease, now, now),
            )
            return cursor.rowcount == 1

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reviews SET done = ?, claimed_until = ? WHERE match_id = ? AND data IS NULL",
                (done, now + lease, match_id),
            )
            return cursor.rowcount == 1

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE reviews SET data = ?, done = total, claimed_until = NULL WHERE match_id = ?",
                (json.dumps(data), match_id),
            )

    async def release_review(self, match_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM reviews WHERE match_id = ?", (match_id,))

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
            cursor = await db.execute(
                "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status,"
                " created_at, updated_at, days_per_move, rated, hints, analysis, clock_bank, clock_increment,"
                " clock_cap) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    json.dumps(options),
                    players,
                    guild_id,
                    channel_id,
                    creator_id,
                    now,
                    now,
                    days_per_move,
                    int(rated),
                    int(hints),
                    int(analysis),
                    *((clock.initial, clock.increment, clock.cap) if clock else (None, None, None)),
                ),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            for seat in seats:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, seat.seat, seat.user_id, seat.name, int(seat.accepted), seat.computer),
                )
        return match_id

    async def get_match(self, match_id: int) -> MatchRow | None:
        if not -(2**63) <= match_id < 2**63:  # a forged id past SQLite's 64 bits names no match
            return None
        return await self._run(_read_match, match_id)

    async def match_by_thread(self, thread_id: int) -> MatchRow | None:
        if not -(2**63) <= thread_id < 2**63:
            return None

        def read(conn: sqlite3.Connection) -> MatchRow | None:
            row = conn.execute("SELECT id FROM matches WHERE thread_id = ?", (thread_id,)).fetchone()
            return _read_match(conn, row[0]) if row else None

        return await self._run(read)

    async def matches_of_user(self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]) -> list[MatchRow]:
        marks = ",".join("?" for _ in statuses)
        query = (
            f"SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id WHERE s.user_id = ?"
            f" AND m.status IN ({marks}) AND m.id NOT IN (SELECT match_id FROM quarantine)"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            query += " AND m.guild_id = ?"
            params.append(guild_id)
        ids = [r[0] for r in await self._all(query + " ORDER BY m.id", params)]
        return [m for m in [await self.get_match(i) for i in ids] if m is not None and m.quarantine is None]

    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        row = await self._one(
            "SELECT COUNT(*) FROM matches WHERE creator_id = ? AND guild_id = ? AND status = 'lobby'",
            (creator_id, guild_id),
        )
        return int(row[0]) if row else 0

    async def active_match_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT id FROM matches WHERE status = 'active' ORDER BY id")]

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        query = (
            "SELECT id FROM matches m WHERE status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.computer IS NOT NULL) ORDER BY id"
        )
        return [r[0] for r in await self._all(query)]

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

    async def _release(self, table: str, claim: str, key: str, value: int) -> None:
        """Give back the claim (columns ``claim``_until and ``claim``_by) of one row, if this start holds it."""
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE {table} SET {claim}_until = NULL, {claim}_by = NULL WHERE {key} = ? AND {claim}_by = ?",
                (value, self.incarnation),
            )

    async def update_match_fields(self, match_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "lobby_message_id"}
        assert set(fields) <= allowed, fields
        assignments = ", ".join(f"{k} = ?" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"UPDATE matches SET {assignments} WHERE id = ?", (*fields.values(), match_id))

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
            await self._bump_version(db, match_id, expected_version, now, status="lobby")
            if accept_user is not None:
                await db.execute(
                    "UPDATE seats SET accepted = 1 WHERE match_id = ? AND user_id = ?", (match_id, accept_user)
                )
            if remove_user is not None:
                await db.execute("DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, remove_user))
            if add_seat is not None:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES (?, ?, ?, ?, 1)",
                    (match_id, add_seat.seat, add_seat.user_id, add_seat.name),
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

        def write(conn: sqlite3.Connection) -> None:
            _bump_version_now(conn, match_id, expected_version, now, "lobby")
            conn.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer, bank)"
                " VALUES (?, ?, ?, ?, 1, ?, ?)",
                [(match_id, seat.seat, seat.user_id, seat.name, seat.computer, seat.bank) for seat in seats],
            )
            conn.execute(
                "UPDATE matches SET status = 'active', players = ?, state = ?, turn_started_at = ?, deadline_at = ?,"
                " deadline_notice = 0, turn_allowance = ?, warnings_held_until = NULL WHERE id = ?",
                (len(seats), json.dumps(state), now, deadline_at, turn_allowance, match_id),
            )
            _set_reminder_now(conn, match_id, reminder, now)

        await self._transact(write)

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None:
        async with self.transaction() as db:
            await self._bump_version(db, match_id, expected_version, now, status="lobby")
            await db.execute("UPDATE matches SET status = 'cancelled' WHERE id = ?", (match_id,))

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
        """Record one move and the new state atomically, in one trip to the database thread.

        When the turn changes, the new mover's deadline (``deadline_at``, None without a time limit)
        replaces the old one, with their bank as ``turn_allowance``; a finished match has none. ``bank``
        (seat, seconds): the settled bank of the player whose turn ended. Any move lapses the pending
        offers: the posted ones are returned so their buttons can be retired, with the match as committed.
        """
        events = json.dumps(move.events)
        state_text = json.dumps(state)
        result_text = json.dumps(result) if result is not None else None

        def write(conn: sqlite3.Connection) -> RecordedMove:
            _bump_version_now(conn, match_id, expected_version, now, "active")
            conn.execute(
                "INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at,"
                " conditional) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = ?),"
                " ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    match_id,
                    move.ply,
                    move.seat,
                    move.user_id,
                    move.kind,
                    move.notation,
                    move.entered or move.notation,
                    events,
                    now,
                    int(move.conditional),
                ),
            )
            conn.execute(
                "UPDATE matches SET state = ?, status = ?, result = ? WHERE id = ?",
                (state_text, "finished" if finished else "active", result_text, match_id),
            )
            if turn_changed:
                conn.execute("UPDATE matches SET turn_started_at = ? WHERE id = ?", (now, match_id))
            if turn_changed or finished:
                conn.execute(  # a new turn: its own deadline, and nobody's claim on the old one's notices
                    "UPDATE matches SET deadline_at = ?, deadline_notice = 0, turn_allowance = ?,"
                    " warnings_held_until = NULL, deadline_claimed_until = NULL, deadline_claimed_by = NULL"
                    " WHERE id = ?",
                    (None if finished else deadline_at, None if finished else turn_allowance, match_id),
                )
            if bank is not None:
                conn.execute("UPDATE seats SET bank = ? WHERE match_id = ? AND seat = ?", (bank[1], match_id, bank[0]))
            if resigned_seat is not None:
                conn.execute("UPDATE seats SET resigned = 1 WHERE match_id = ? AND seat = ?", (match_id, resigned_seat))
            lapsed = [
                (r[0], r[1])
                for r in conn.execute(
                    "SELECT channel_id, message_id FROM offers WHERE match_id = ? AND message_id IS NOT NULL",
                    (match_id,),
                )
            ]
            conn.execute("DELETE FROM offers WHERE match_id = ?", (match_id,))  # any move lapses offers
            if finished:
                conn.execute("DELETE FROM reminders WHERE match_id = ?", (match_id,))
            elif turn_changed:
                _set_reminder_now(conn, match_id, reminder, now)
            match = _read_match(conn, match_id)
            assert match is not None
            return RecordedMove(match, lapsed)

        return await self._transact(write)

    # -- quarantine: a match whose log does not replay is set aside, never rewritten --------------

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

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT seq, ply, seat, user_id, kind, notation, events, created_at, entered, conditional FROM moves"
            " WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [_move_from(match_id, r) for r in rows]

    # -- conditional moves and private analysis (issue 25) ----------------------------------------

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
        return None if row is None else _premove_from(row)

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        rows = await self._all(
            "SELECT match_id, user_id, version, lines FROM premoves WHERE match_id = ? AND version = ?",
            (match_id, version),
        )
        return [p for p in map(_premove_from, rows) if p is not None]

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        rows = await self._all(
            "SELECT DISTINCT p.match_id, p.version FROM premoves p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status = 'active' AND p.version < m.version ORDER BY p.match_id, p.version",
            (),
        )
        return [(int(match_id), int(version)) for match_id, version in rows]

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
        return [p for p in map(_premove_from, rows) if p is not None]

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
        return None if row is None else _exploration_from(row)

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

    async def _bump_version(self, db: SqliteThread, match_id: int, expected: int, now: float, status: str) -> int:
        cursor = await db.execute(_BUMP_VERSION, (now, match_id, expected, status))
        if cursor.rowcount != 1:
            raise VersionConflict(match_id)
        return expected + 1

    # -- reminders and preferences ---------------------------------------------------

    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders nobody holds, the ``limit`` most overdue, claimed for ``lease`` seconds (each goes to
        one process only)."""
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE reminders SET claimed_until = ?, claimed_by = ?"
                " WHERE match_id IN (SELECT match_id FROM reminders"
                f" WHERE remind_at <= ? AND snoozed = 0 AND {free_claim('claimed')} ORDER BY remind_at LIMIT ?)"
                " RETURNING match_id, user_id, ply, remind_at, last_sent_at, snoozed",
                (
                    _held(now, held_at) + lease,
                    self.incarnation,
                    now,
                    _held(now, held_at),
                    self.incarnation,
                    -1 if limit is None else limit,
                ),
            )
        return sorted((ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows), key=lambda r: r.remind_at)

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        await self._release("reminders", "claimed", "match_id", match_id)

    async def get_reminder(self, match_id: int) -> ReminderRow | None:
        r = await self._one(
            "SELECT match_id, user_id, ply, remind_at, last_sent_at, snoozed FROM reminders WHERE match_id = ?",
            (match_id,),
        )
        return ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) if r else None

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET last_sent_at = ?, remind_at = ?, claimed_until = NULL"
                " WHERE match_id = ? AND ply = ?",
                (now, next_at, match_id, ply),
            )
            return cursor.rowcount == 1

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET snoozed = 1, claimed_until = NULL WHERE match_id = ? AND user_id = ? AND ply = ?",
                (match_id, user_id, ply),
            )
            return cursor.rowcount == 1

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a reminder's due time to ``until`` (the player's morning), nothing marked sent."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET remind_at = ?, claimed_until = NULL WHERE match_id = ? AND ply = ?",
                (until, match_id, ply),
            )
            return cursor.rowcount == 1

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""

        def count(conn: sqlite3.Connection) -> int:
            conn.execute(
                "INSERT INTO refused_notices (match_id, notice, version, tries) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (match_id, notice) DO UPDATE SET version = excluded.version,"
                " tries = CASE WHEN version = excluded.version THEN tries + 1 ELSE 1 END",
                (match_id, notice, version),
            )
            row = conn.execute(
                "SELECT tries FROM refused_notices WHERE match_id = ? AND notice = ?", (match_id, notice)
            ).fetchone()
            return int(row[0])

        return await self._transact(count)

    async def get_preferences(self, user_id: int, guild_id: int) -> Preferences:
        """The user's preferences in this server, falling back to their global ones (guild 0)."""
        row = await self._one(
            "SELECT reminders, delay_hours, via, challenges, quiet_zone, quiet_start, quiet_end FROM preferences"
            " WHERE user_id = ? AND guild_id IN (?, 0) ORDER BY guild_id DESC",
            (user_id, guild_id),
        )
        if row is None:
            return Preferences()
        return Preferences(bool(row[0]), row[1], row[2], row[3], row[4], row[5], row[6])

    async def reminder_hours(self, user_id: int, guild_id: int) -> tuple[float | None, float | None]:
        """(the user's reminder delay as :meth:`get_preferences` gives it, the server's default) in one query."""
        row = await self._one(
            "SELECT (SELECT delay_hours FROM preferences WHERE user_id = ? AND guild_id IN (?, 0)"
            " ORDER BY guild_id DESC LIMIT 1), (SELECT reminder_hours FROM guild_settings WHERE guild_id = ?)",
            (user_id, guild_id, guild_id),
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_preferences(self, user_id: int, guild_id: int, prefs: Preferences) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, guild_id, reminders, delay_hours, via, challenges, quiet_zone,"
                " quiet_start, quiet_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, guild_id) DO UPDATE"
                " SET reminders = excluded.reminders, delay_hours = excluded.delay_hours, via = excluded.via,"
                " challenges = excluded.challenges, quiet_zone = excluded.quiet_zone,"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end",
                (
                    user_id,
                    guild_id,
                    int(prefs.reminders),
                    prefs.delay_hours,
                    prefs.via,
                    prefs.challenges,
                    prefs.quiet_zone,
                    prefs.quiet_start,
                    prefs.quiet_end,
                ),
            )

    # -- challenge limits and refusals ------------------------------------------------

    async def admit_challenge(
        self, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
    ) -> ChallengeRefusal | None:
        """Check a challenge against every limit and, when none refuses it, count it: one transaction, so two
        challenges at the same instant (even from two processes) cannot both take the last place in a count.

        ``invited_ids`` are people: computer seats are never limited. The transaction is committed even when
        the challenge is refused, for what it tidies: records older than the longest window are pruned, and
        records stamped after ``now`` (the clock stepped back) are brought to ``now``, so they age out within one
        window instead of holding a count until the clock catches up with them.
        """

        def work(conn: sqlite3.Connection) -> ChallengeRefusal | None:
            conn.execute("UPDATE challenge_events SET at = ? WHERE at > ?", (now, now))
            conn.execute(
                "DELETE FROM challenge_events WHERE at <= ?", (now - max(caps.window, caps.same_player_window),)
            )
            refusal = _challenge_refusal(conn, guild_id, challenger_id, invited_ids, now, caps)
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

    # -- offers: draws and takebacks -------------------------------------------------

    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        async with self.transaction() as db:
            async with db.execute("SELECT version, status FROM matches WHERE id = ?", (match_id,)) as cursor:
                row = await cursor.fetchone()
            if row is None or row[0] != expected_version or row[1] != "active":
                raise VersionConflict(match_id)
            await db.execute(
                "INSERT OR REPLACE INTO offers (match_id, kind, user_id, at_seq, accepted, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, offer.kind, offer.user_id, offer.at_seq, json.dumps(offer.accepted), offer.created_at),
            )

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None:
        r = await self._one(
            "SELECT match_id, kind, user_id, at_seq, accepted, created_at FROM offers WHERE match_id = ? AND kind = ?",
            (match_id, kind),
        )
        return OfferRow(r[0], r[1], r[2], r[3], _accepted(match_id, r[4]), r[5]) if r else None

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT accepted FROM offers WHERE match_id = ? AND kind = ? AND at_seq = ?", (match_id, kind, at_seq)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            accepted = sorted(set(_accepted(match_id, row[0])) | {user_id})
            await db.execute(
                "UPDATE offers SET accepted = ? WHERE match_id = ? AND kind = ?", (json.dumps(accepted), match_id, kind)
            )
            return accepted

    async def set_offer_message(self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE offers SET channel_id = ?, message_id = ? WHERE match_id = ? AND kind = ? AND at_seq = ?",
                (channel_id, message_id, match_id, kind, at_seq),
            )

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        rows = await self._all(
            "SELECT channel_id, message_id FROM offers WHERE match_id = ? AND message_id IS NOT NULL", (match_id,)
        )
        return [(r[0], r[1]) for r in rows]

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM offers WHERE match_id = ? AND kind = ? AND at_seq = ?", (match_id, kind, at_seq)
            )
            return cursor.rowcount == 1

    # -- time limits, vacations and outages ------------------------------------------------

    async def claim_deadlines(
        self,
        now: float,
        warnings: tuple[tuple[int, float], ...],
        lease: float,
        paused_shards: tuple[int, tuple[int, ...]] = (1, ()),
        held_at: float | None = None,
    ) -> list[int]:
        """Active matches with a notice due, claimed for ``lease`` seconds: a warning level not yet sent whose
        time has come, or the time-out (each match goes to one process only). ``paused_shards`` (count, ids):
        servers of those shards are left alone (their process is down: their players cannot answer).

        ``warnings`` are (level, seconds before the deadline); a warning is only due when the
        limit (the mover's bank when the turn began, with a bank clock) is longer than that (one day per
        move gets no 24 h warning), and not during the mover's night (``warnings_held_until``).
        """
        due = ["(deadline_notice < 3 AND deadline_at <= ?)"]
        params: list[Any] = [now]
        for level, before in warnings:
            due.append(
                "(deadline_notice < ? AND deadline_at - ? <= ? AND COALESCE(turn_allowance, days_per_move * 86400) > ?"
                " AND (warnings_held_until IS NULL OR warnings_held_until <= ?))"
            )
            params += [level, before, now, before, now]
        count, paused = paused_shards
        marks = ", ".join("?" for _ in paused)
        skip = f" AND ((guild_id >> 22) % {int(count)}) NOT IN ({marks})" if paused else ""
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE matches SET deadline_claimed_until = ?, deadline_claimed_by = ?"
                " WHERE status = 'active' AND deadline_at IS NOT NULL"
                f" AND deadline_notice < 3 AND ({' OR '.join(due)}) AND id NOT IN (SELECT match_id FROM quarantine)"
                f" AND {free_claim('deadline_claimed')}{skip} RETURNING id, deadline_at",
                [
                    _held(now, held_at) + lease,
                    self.incarnation,
                    *params,
                    _held(now, held_at),
                    self.incarnation,
                    *paused,
                ],
            )
        return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        await self._release("matches", "deadline_claimed", "id", match_id)

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET deadline_notice = ?, deadline_claimed_until = NULL"
                " WHERE id = ? AND version = ? AND deadline_notice < ?",
                (level, match_id, expected_version, level),
            )
            return cursor.rowcount == 1

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning before ``until`` (the mover's morning); the deadline itself stays."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET warnings_held_until = ?, deadline_claimed_until = NULL"
                " WHERE id = ? AND version = ?",
                (until, match_id, expected_version),
            )
            return cursor.rowcount == 1

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + ?, deadline_notice = 0"
                " WHERE id = ? AND version = ? AND status = 'active' AND deadline_at IS NOT NULL",
                (seconds, match_id, expected_version),
            )
            return cursor.rowcount == 1

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)", (user_id, starts_at, ends_at)
            )

    async def vacation_until(self, user_id: int, now: float) -> float | None:
        row = await self._one(
            "SELECT MAX(ends_at) FROM vacations WHERE user_id = ? AND starts_at <= ? AND ends_at > ?",
            (user_id, now, now),
        )
        return row[0] if row and row[0] is not None else None

    async def vacation_seconds_since(self, user_id: int, since: float) -> float:
        row = await self._one(
            "SELECT COALESCE(SUM(ends_at - starts_at), 0) FROM vacations WHERE user_id = ? AND starts_at >= ?",
            (user_id, since),
        )
        return float(row[0]) if row else 0.0

    async def last_seen(self) -> float | None:
        row = await self._one("SELECT last_seen FROM heartbeat WHERE id = 1")
        return row[0] if row else None

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        rows = await self._all("SELECT shard_id, last_seen FROM shard_heartbeats WHERE shard_count = ?", (shard_count,))
        return {r[0]: r[1] for r in rows}

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written by every timer pass and at shutdown); so are its shards, run by
        this start (one process: its claims do not depend on it)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO heartbeat (id, last_seen) VALUES (1, ?)"
                " ON CONFLICT (id) DO UPDATE SET last_seen = MAX(last_seen, excluded.last_seen)",
                (now,),
            )
            count, ids = shards or (1, (0,))
            for shard_id in ids:
                await db.execute(
                    "INSERT INTO shard_heartbeats (shard_count, shard_id, last_seen, incarnation, incarnation_seen)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (shard_count, shard_id) DO UPDATE SET"
                    " last_seen = MAX(last_seen, excluded.last_seen), incarnation = excluded.incarnation,"
                    " incarnation_seen = excluded.incarnation_seen",
                    (count, shard_id, now, self.incarnation, _held(now, held_at)),
                )

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot (or one shard's process) was down, and give the running clocks it paused that time
        back. Returns matches extended."""
        gap = ended_at - started_at
        shard_id, count = shard or (0, 1)
        async with self.transaction() as db:
            await db.execute("INSERT INTO outages (started_at, ended_at) VALUES (?, ?)", (started_at, ended_at))
            cursor = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + ?, deadline_notice = 0"
                " WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at > ?"
                " AND ((guild_id >> 22) % ?) = ?",
                (gap, started_at, count, shard_id),
            )
            if shard is None:
                await db.execute("INSERT OR REPLACE INTO heartbeat (id, last_seen) VALUES (1, ?)", (ended_at,))
            await db.execute(
                "INSERT OR REPLACE INTO shard_heartbeats (shard_count, shard_id, last_seen) VALUES (?, ?, ?)",
                (count, shard_id, ended_at),
            )
            return cursor.rowcount

    async def outages(self) -> list[tuple[float, float]]:
        return [(r[0], r[1]) for r in await self._all("SELECT started_at, ended_at FROM outages ORDER BY started_at")]

    # -- ratings -----------------------------------------------------------------------------

    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        rows = await self._all(
            "SELECT id FROM matches WHERE status = 'finished' AND id NOT IN (SELECT match_id FROM rated_matches)"
            " ORDER BY updated_at, id"
        )
        return [r[0] for r in rows]

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        marks = ",".join("?" for _ in user_ids)
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        )
        return {r[2]: RatingRow(*r) for r in rows}

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already" (settled before), or "stale" when a player's
        rating changed since it was read (``read_games``: each player's games count then, None for no rating):
        two settlements computed from the same ratings never both land (the caller reads again and retries)."""
        async with self.transaction() as db:
            for user_id, games in read_games.items():
                row = await (
                    await db.execute(
                        "SELECT r.games FROM matches m JOIN ratings r ON r.guild_id = m.guild_id AND r.game = m.game"
                        " WHERE m.id = ? AND r.user_id = ?",
                        (match_id, user_id),
                    )
                ).fetchone()
                if (row[0] if row else None) != games:
                    return "stale"
            cursor = await db.execute(
                "INSERT OR IGNORE INTO rated_matches (match_id, counted, rated_at) VALUES (?, ?, ?)",
                (match_id, int(counted), now),
            )
            if cursor.rowcount != 1:
                return "already"
            for r in rows:
                await db.execute(
                    f"INSERT OR REPLACE INTO ratings ({_RATING_COLUMNS}, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, now),
                )
            return "settled"

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id",
            (guild_id, game),
        )
        return [RatingRow(*r) for r in rows]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return [RatingRow(*r) for r in rows]

    # -- server settings and server-wide lists ----------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one(
            "SELECT match_channel_id, days_per_move, reminder_hours, clock_bank, clock_increment, clock_cap,"
            " analysis, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return guild_settings_from(row)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, match_channel_id, days_per_move, reminder_hours, updated_at,"
                " clock_bank, clock_increment, clock_cap, analysis, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id)"
                " DO UPDATE SET match_channel_id = excluded.match_channel_id, days_per_move = excluded.days_per_move,"
                " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at,"
                " clock_bank = excluded.clock_bank, clock_increment = excluded.clock_increment,"
                " clock_cap = excluded.clock_cap, analysis = excluded.analysis, language = excluded.language",
                (
                    guild_id,
                    settings.match_channel_id,
                    settings.days_per_move,
                    settings.reminder_hours,
                    now,
                    *clock_columns(settings.clock),
                    None if settings.analysis is None else int(settings.analysis),
                    settings.language,
                ),
            )

    # -- languages -----------------------------------------------------------------------------

    async def guild_languages(self, guild_id: int) -> Languages:
        row = await self._one("SELECT language, seen_language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return Languages(*row) if row is not None else Languages()

    async def see_guild_language(self, guild_id: int, language: str, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at, seen_language) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET seen_language = excluded.seen_language",
                (guild_id, now, language),
            )

    async def player_languages(self, user_id: int) -> Languages:
        row = await self._one("SELECT chosen, seen FROM player_languages WHERE user_id = ?", (user_id,))
        return Languages(*row) if row is not None else Languages()

    async def see_player_language(self, user_id: int, language: str, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO player_languages (user_id, seen, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen, updated_at = excluded.updated_at",
                (user_id, language, now),
            )

    async def choose_player_language(self, user_id: int, language: str | None, now: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO player_languages (user_id, chosen, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET chosen = excluded.chosen, updated_at = excluded.updated_at",
                (user_id, language, now),
            )

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]:
        rows = await self._all(
            "SELECT id FROM matches WHERE guild_id = ? AND status = 'active'"
            " AND id NOT IN (SELECT match_id FROM quarantine) ORDER BY updated_at DESC LIMIT ?",
            (guild_id, limit),
        )
        return [m for m in [await self.get_match(r[0]) for r in rows] if m is not None and m.quarantine is None]


def _bytes(path: Path) -> int:
    try:
        return path.stat().st_size if str(path) != ":memory:" else 0
    except OSError:
        return 0


def _held(now: float, held_at: float | None) -> float:
    """The lease clock's time: ``held_at`` when given, else the game's ``now`` (one clock, as in tests)."""
    return now if held_at is None else held_at
