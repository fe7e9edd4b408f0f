"""The store's API: what the service may ask of the database, whatever the database is.

Each method is one unit of work: a read of committed data, or one transaction. Changes to a match
are compare-and-set on its ``version`` (and status), so two processes acting at the same instant
never both apply (the loser gets VersionConflict). ``tests/test_store_contract.py`` is the definition
every implementation must pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..domain.bank import BankClock
from ..domain.model import (
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
from .puzzles import PuzzleStore
from .tournaments import TournamentStore


class Store(TournamentStore, PuzzleStore, Protocol):
    shared: bool
    """Whether several bot processes may use this database at once (PostgreSQL), or one only (SQLite)."""
    incarnation: str
    """This opening of the store: one process's start. Every claim it takes names it, and a claim is free once
    its incarnation is gone, whatever its lease says: on SQLite (one process holds the file) any claim another
    start took; on PostgreSQL one whose incarnation no shard heartbeat has named for ``STALE_SECONDS`` of the
    lease clock (bot.domain.clock; ``beat`` names it). A claim is always given back by the one who took it."""

    async def close(self) -> None:
        """Release the connection(s); nothing may be asked afterwards."""
        ...

    async def damage(self) -> str | None:
        """What a check of the storage itself left for after opening found (SQLite's integrity check of a
        large file); None when sound. The runtime stops the bot on an answer: it must not serve damage."""
        ...

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        """Stored rows a check of the storage found breaking one of the schema's constraints (SQLite's
        quick_check; PostgreSQL checks every write, so none): the service sets each one's match or event aside
        and the bot starts. None while that check still runs beside a large file (``damage()`` waits for it)."""
        ...

    async def schema_version(self) -> int: ...

    async def ping(self) -> None:
        """``SELECT 1``: raises if the database does not answer (a health check bounds how long it waits)."""
        ...

    # -- post-game reviews ---------------------------------------------------------

    async def get_review(self, match_id: int) -> ReviewRow | None:
        """The match's review, finished or running; None if none was started (or a failed one was let go)."""
        ...

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        """Claim the search of the match's review (a new row, or one whose lease ran out); False if it is
        finished or another process holds it."""
        ...

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        """Record ``done`` positions searched and renew the lease; False if the review is no longer running."""
        ...

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        """Store the finished review (its claim ends)."""
        ...

    async def release_review(self, match_id: int) -> None:
        """Let a running review go (its search failed or stopped): the next request starts it again."""
        ...

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
    ) -> int: ...

    async def get_match(self, match_id: int) -> MatchRow | None: ...

    async def match_by_thread(self, thread_id: int) -> MatchRow | None: ...

    async def matches_of_user(
        self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]
    ) -> list[MatchRow]: ...

    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        ...

    async def active_match_ids(self) -> list[int]: ...

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        ...

    async def mark_announced(self, match_id: int, version: int, channel_id: int, message_id: int) -> None:
        """The board of ``version`` was posted as this message (reminders link to it); this process's claim
        ends, and anyone's once ``version`` is the latest (nothing is left to post)."""
        ...

    async def unannounced(self) -> list[tuple[int, float]]:
        """(match id, when it last changed) of the matches in play or finished, not set aside, whose latest
        board was never posted (a stop came between the two), oldest change first. Nothing is claimed: each
        is claimed on its own (``claim_announcement``) as it is posted."""
        ...

    async def release_announcement(self, match_id: int) -> None:
        """Give back the match's board this process claimed (not posted this time): a later try, in any
        process, takes it. Another process's claim is left alone."""
        ...

    async def claim_announcement(self, match_id: int, now: float, lease: float) -> bool:
        """Claim the posting of one match's latest board for ``lease`` seconds at most; False if it is posted,
        or a live process (this one included) holds it."""
        ...

    async def update_match_fields(self, match_id: int, **fields: Any) -> None: ...

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
        ...

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
        """Turn a lobby into an active match with its final seats (their banks too), in one transaction;
        ``turn_allowance``: the first mover's bank (a bank clock)."""
        ...

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None: ...

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
        replaces the old one, with their bank as ``turn_allowance`` (a bank clock); a finished match has
        none. ``bank`` (seat, seconds): the bank of the player whose turn ended, settled. Any move lapses the
        pending offers: the posted ones are returned so their buttons can be retired, with the match as
        committed.
        """
        ...

    # -- quarantine: a match whose log does not replay is set aside, never rewritten --------------

    async def quarantine(self, match_id: int, reason: str, now: float) -> bool:
        """Set a match aside; False if it already was."""
        ...

    async def release_quarantine(self, match_id: int) -> None: ...

    async def quarantined_ids(self) -> list[int]: ...

    async def claim_paused_untold(self, now: float, lease: float) -> list[int]:
        """Set-aside matches whose players have not been told yet, claimed for ``lease`` seconds."""
        ...

    async def release_paused_notice(self, match_id: int) -> None: ...

    async def quarantine_told(self, match_id: int) -> None: ...

    async def moves(self, match_id: int) -> list[MoveRow]: ...

    # -- conditional moves and private analysis (issue 25) ----------------------------------------

    async def set_premoves(
        self, match_id: int, user_id: int, expected_version: int, lines: list[list[str]], now: float
    ) -> None:
        """Replace the player's conditional moves (``lines`` empty: remove them), in one transaction that holds
        the match at ``expected_version`` (VersionConflict if it moved on) and marks it ``premoves_held``: a
        move landing first makes the edit fail, and a move landing after it sees the edit."""
        ...

    async def premoves_of(self, match_id: int, user_id: int) -> PremoveRow | None:
        """The player's conditional moves, whatever version they were made at (None: none, or unreadable)."""
        ...

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        """The match's conditional moves made at ``version`` (read only: they stay stored until the move from
        ``version`` has been followed, so a stop between that move and its answer loses nothing)."""
        ...

    async def take_premoves(self, match_id: int, version: int) -> list[PremoveRow]:
        """Delete and return the match's conditional moves made at ``version`` or before (the move from
        ``version`` has been followed: they were answered or cleared; older ones were stale). With none left
        in the match, its ``premoves_held`` is cleared in the same transaction (its moves look for none)."""
        ...

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        """(match id, version) of conditional moves an active match has moved past without their being
        followed (a stop between a move and its answer): for the catch-up of any live process."""
        ...

    async def keep_premoves(
        self, match_id: int, user_id: int, version: int, lines: list[list[str]], now: float
    ) -> bool:
        """Store what is left of a player's conditional moves after a move, at the match's new ``version``:
        only if the match is at that version and the player has not entered new ones meanwhile (True if kept;
        the match's ``premoves_held`` is set again with it)."""
        ...

    async def get_exploration(self, match_id: int, user_id: int) -> ExplorationRow | None: ...

    async def put_exploration(self, exploration: ExplorationRow, now: float) -> None:
        """Create or replace the player's analysis board of the match."""
        ...

    async def drop_exploration(self, match_id: int, user_id: int) -> None: ...

    # -- reminders and preferences ---------------------------------------------------

    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders (at game time ``now``) nobody holds, at most ``limit`` of them (the most overdue),
        claimed for ``lease`` seconds of the lease clock from ``held_at`` (default ``now``; bot.domain.clock
        says why it may differ): each to one process only."""
        ...

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        ...

    async def get_reminder(self, match_id: int) -> ReminderRow | None: ...

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        ...

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool: ...

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a claimed reminder's due time to ``until`` (the player's morning), its claim ending, nothing
        marked sent; False if the turn moved on meanwhile."""
        ...

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""
        ...

    async def get_preferences(self, user_id: int, guild_id: int) -> Preferences:
        """The user's preferences in this server, falling back to their global ones (guild 0)."""
        ...

    async def reminder_hours(self, user_id: int, guild_id: int) -> tuple[float | None, float | None]:
        """(the user's reminder delay as :meth:`get_preferences` gives it, the server's default) in one query."""
        ...

    async def set_preferences(self, user_id: int, guild_id: int, prefs: Preferences) -> None: ...

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
        ...

    async def block(self, user_id: int, blocked_id: int, now: float) -> None:
        """``user_id`` refuses challenges from ``blocked_id``, in every server (again: no change)."""
        ...

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False when there was no such block."""
        ...

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom the user refuses challenges from, oldest block first."""
        ...

    # -- offers: draws and takebacks -------------------------------------------------

    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        ...

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None: ...

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        ...

    async def set_offer_message(
        self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int
    ) -> None: ...

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        ...

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool: ...

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
        time has come, or the time-out (each match goes to one process only).

        ``warnings`` are (level, seconds before the deadline); a warning is only due when the
        limit is longer than that (one day per move gets no 24 h warning).
        """
        ...

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        ...

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        ...

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning for the current turn before ``until`` (the mover's morning; the deadline itself
        never moves), the claim ending; False if the match changed meanwhile."""
        ...

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        ...

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None: ...

    async def vacation_until(self, user_id: int, now: float) -> float | None: ...

    async def vacation_seconds_since(self, user_id: int, since: float) -> float: ...

    async def last_seen(self) -> float | None: ...

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        """When each shard of a ``shard_count`` layout was last seen alive (shards never run are missing)."""
        ...

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written every ``BEAT_SECONDS``, by every timer pass and at shutdown);
        ``shards`` (count, ids): the shards this process runs are too, run by this ``incarnation``, seen at
        ``held_at`` of the lease clock (default ``now``)."""
        ...

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot was down, and give every running clock that time back (``shard`` (id, count):
        only the clocks of that shard's servers, whose process was the one down). Returns matches extended."""
        ...

    async def outages(self) -> list[tuple[float, float]]: ...

    # -- ratings -----------------------------------------------------------------------------

    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        ...

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]: ...

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already" (settled before), or "stale" when a player's
        rating changed since it was read (``read_games``: each player's games count then, None for no rating):
        two settlements computed from the same ratings never both land (the caller reads again and retries)."""
        ...

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        ...

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]: ...

    # -- server settings and server-wide lists ----------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings, now: float) -> None: ...

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]: ...

    # -- languages -----------------------------------------------------------------------------

    async def guild_languages(self, guild_id: int) -> Languages:
        """The server's chosen language (``/config language``) and its preferred locale as last seen."""
        ...

    async def see_guild_language(self, guild_id: int, language: str, now: float) -> None:
        """Note the server's preferred locale (its other settings untouched; a row made if there was none)."""
        ...

    async def player_languages(self, user_id: int) -> Languages:
        """The language a person chose (``/settings language``) and the one their Discord used last."""
        ...

    async def see_player_language(self, user_id: int, language: str, now: float) -> None:
        """Note the language of a person's latest interaction (their choice, if any, untouched)."""
        ...

    async def choose_player_language(self, user_id: int, language: str | None, now: float) -> None:
        """A person's own choice of language; None goes back to their Discord's."""
        ...

    # -- the gateway ----------------------------------------------------------------------

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        """Take up to ``wanted`` of the ``limit`` requests every process of the bot may send in bulk in the
        wall-clock ``second``; how many were granted (0: none left in that second)."""
        ...

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """Return when this process may IDENTIFY a shard of ``bucket``: no other IDENTIFY of the bucket, by
        any process on this database, within ``interval`` seconds before or after it."""
        ...
