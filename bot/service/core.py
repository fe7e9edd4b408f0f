"""The core every match feature stands on: finding a match that can be served, and storing a move.

``commit_move`` is the one way a move reaches the log: the new position, the next reminder and
deadline, and the version check all go into one transaction of the store, and whoever listens
(the computer player, the ratings) hears of it afterwards. A match whose stored data cannot be read
is set aside here, once, and every pass over many matches runs each one through ``for_one_match``
so that one failure stays with its match.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import TypeVar

from games import AnyGame, Event, GameError, load_state
from games import get as get_game

from ..domain.clock import Clock, SystemClock
from ..domain.errors import DamagedMatch, MatchPaused, Refusal, StorageDown, StorageFull, VersionConflict
from ..domain.model import MatchRow, MoveRow, RecordedMove
from ..domain.outcome import Change, Outcome
from ..domain.replay import replay
from ..domain.seats import game_of, person_to_move, player_names, title, user_to_move
from ..store.base import Store
from .challenge_limits import ChallengeLimits, StoredChallengeLimits
from .events import MatchEvents
from .languages import LanguageLookup
from .locks import InProcessMatchLocks, MatchLocks
from .pictures import Pictures
from .premove_following import PremoveFollowing
from .rating_rules import unrated_reason
from .replay_gate import ReplayGate
from .schedule import Schedule

log = logging.getLogger(__name__)
T = TypeVar("T")

#: A match checked while other processes keep moving it is checked again as it is now, this often at most.
LOG_CHECK_TRIES = 3
# Seconds to wait before each look at the log, after a write whose answer was lost (a restarting server).
LOST_ANSWER_CHECKS = (0.2, 0.5, 1.0, 2.0, 4.0)


class MatchCore:
    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        default_reminder_hours: float = 24.0,
        pictures: Pictures | None = None,
        limits: ChallengeLimits | None = None,
        locks: MatchLocks | None = None,
        events: MatchEvents | None = None,
        replays: ReplayGate | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.pictures = pictures or Pictures()  # on a thread unless the bot gives it worker processes
        self.schedule = Schedule(store, default_reminder_hours)
        self.default_reminder_hours = default_reminder_hours
        self.locks: MatchLocks = locks or InProcessMatchLocks()
        self.limits: ChallengeLimits = limits or StoredChallengeLimits(store)
        self.events = events or MatchEvents()
        self.replays = replays or ReplayGate()
        self.premove_following = PremoveFollowing(self)  # answers after each stored move
        self.languages = LanguageLookup(store, self.clock)  # who is spoken to in which language (one cache a process)
        # Active matches whose move log this process has seen rebuild their stored position (or has written
        # itself, move by move): a fact no later write by any process undoes, since every write is a move
        # applied to a position so checked. Checked on a match's first use, so start-up does not grow with
        # the database (VerifyFlow.verify_in_background checks the untouched ones, slowly).
        self.replayed: set[int] = set()

    # -- finding a match that can be served ----------------------------------------------------

    async def get(self, match_id: int) -> MatchRow:
        match = await self.store.get_match(match_id)
        if match is None or match.status == "cancelled":
            raise Refusal("no_match", match_id=match_id)
        if not await self.usable(match):
            raise MatchPaused("paused", match=match)
        return match

    async def active(self, match_id: int) -> tuple[MatchRow, AnyGame]:
        match = await self.get(match_id)
        if match.status == "lobby":
            raise Refusal("not_started", match=match)
        if match.status == "finished":
            raise Refusal("over", match=match)
        return match, game_of(match)

    def check_guild(self, match: MatchRow, guild_id: int | None) -> None:
        """Buttons answer only in the match's own server, as commands do."""
        if match.guild_id != guild_id:
            raise Refusal("no_match_here", match_id=match.id)

    @staticmethod
    def unreadable(match: MatchRow) -> str | None:
        """Why the stored match cannot be served (a column, its game, its options or its position), or None."""
        if match.damage is not None:
            return match.damage
        try:
            info = get_game(match.game)
        except GameError:
            return f"its game {match.game!r} is not one this bot plays"
        try:
            info.resolve_options(match.options)
        except (GameError, TypeError, ValueError) as error:
            return f"its options cannot be used ({error})"
        if match.state is not None:
            try:
                game = load_state(match.state)
            except Exception as error:  # any engine or data error: the position cannot be trusted
                return f"its stored position cannot be loaded ({type(error).__name__}: {error})"
            if game.info.id != info.id:
                return f"its stored position is a game of {game.info.id}, not of {info.id}"
            seated = {s.seat for s in match.seats}
            if any(game.player_of_seat(seat) not in seated for seat in range(1, game.players + 1)):
                return "its seats do not match its stored position"
        return None

    async def usable(self, match: MatchRow) -> bool:
        """Whether the match can be served; one whose data cannot be read, or (in play, on its first use here)
        whose log does not rebuild its position, is set aside (once) and is not."""
        if match.quarantine is not None and match.damage is None:
            return False  # already set aside
        problem = self.unreadable(match)
        if problem is None and match.status == "active" and match.id not in self.replayed:
            problem = await self.log_problem(match)
        if problem is None:
            return True
        match.quarantine = match.quarantine or problem
        await self.set_aside(match.id, problem)
        return False

    async def log_problem(self, match: MatchRow) -> str | None:
        """Why the match's log does not rebuild its stored position, or None (and it is remembered) when it does.

        The match and its log are two reads: another process may store a move between them, and the new log
        then disagrees with the old position without anything being wrong. Every write of the log moves the
        version on, so a disagreement counts only if the version did not move meanwhile.
        """
        for _ in range(LOG_CHECK_TRIES):
            problem = await self._replays_to_state(match)
            if problem is None:
                self.replayed.add(match.id)
                return None
            again = await self.store.get_match(match.id)
            if again is None or again.version == match.version:
                return problem
            match = again  # it moved on while it was being checked: check it as it is now
        return problem

    async def _replays_to_state(self, match: MatchRow) -> str | None:
        try:
            rebuilt = replay(match, await self.store.moves(match.id))
        except DamagedMatch as damaged:  # a logged move that cannot be read
            return damaged.reason
        except Exception as error:  # any engine or data error: the log cannot be trusted
            return f"its move log does not replay ({type(error).__name__}: {error})"
        if json.dumps(rebuilt.to_json(), sort_keys=True) != json.dumps(match.state, sort_keys=True):
            return "its stored state differs from what its move log replays to"
        return None

    async def usable_only(self, matches: list[MatchRow]) -> list[MatchRow]:
        """The matches of a list that can be served (the others are set aside, not shown)."""
        return [match for match in matches if await self.usable(match)]

    async def set_aside(self, match_id: int, reason: str) -> bool:
        """Quarantine one match (its players are told once, by the bot); True if it was not set aside before."""
        if not await self.store.quarantine(match_id, reason, self.clock.now()):
            return False
        log.error("match %s set aside: %s; it is paused until repaired, other matches are served", match_id, reason)
        return True

    async def paused_by(self, damaged: DamagedMatch) -> MatchPaused:
        """A request ran into a match's damaged data: set the match aside; the refusal to show instead."""
        await self.set_aside(damaged.match_id, damaged.reason)
        return MatchPaused("paused", match_id=damaged.match_id)

    async def for_one_match(self, match_id: int, work: Awaitable[T]) -> T | None:
        """One match's part of a pass over many: whatever goes wrong stays with that match.

        Damaged data sets the match aside; any other failure is logged. Either way the pass goes on.
        """
        try:
            return await work
        except DamagedMatch as damaged:
            await self.set_aside(damaged.match_id, damaged.reason)
        except Exception:
            log.exception("match %s: skipped in this pass", match_id)
        return None

    async def resolve(
        self, user_id: int, guild_id: int, channel_id: int, match_id: int | None, *, acting: bool = True
    ) -> MatchRow:
        """The match a command means: named, the thread it is typed in, or the user's only one.

        A command that acts (``acting``), typed in one match's thread and naming another, is refused:
        a turn meant for the thread's match must not be played elsewhere (issue 26).
        """
        if match_id is not None:
            match = await self.get(match_id)
            if match.guild_id != guild_id:
                raise Refusal("no_match_here", match_id=match_id)
            if acting and channel_id != match.thread_id:
                here = await self.store.match_by_thread(channel_id)
                if here is not None and here.id != match.id:
                    raise Refusal("another_matchs_thread", here=here, named=match)
            return match
        in_thread = await self.store.match_by_thread(channel_id)
        if in_thread is not None and in_thread.status != "cancelled":
            if not await self.usable(in_thread):  # typed in a paused match's thread: say so
                raise MatchPaused("paused", match=in_thread)
            return in_thread
        mine = await self.usable_only(await self.store.matches_of_user(user_id, guild_id, ("active",)))
        if not mine:
            raise Refusal("no_match_in_progress")
        if len(mine) == 1:
            return mine[0]
        waiting = [m for m in mine if user_to_move(m, game_of(m)) == user_id]
        if len(waiting) == 1:
            return waiting[0]
        raise Refusal("several_matches", matches=mine[:10])

    async def my_matches(self, user_id: int, guild_id: int) -> list[tuple[MatchRow, AnyGame | None, bool]]:
        """Lobbies and games of the user: those awaiting their move first, oldest first."""
        rows = await self.usable_only(await self.store.matches_of_user(user_id, guild_id, ("lobby", "active")))
        listed = []
        for match in rows:
            game = game_of(match) if match.state else None
            waiting = game is not None and user_to_move(match, game) == user_id
            listed.append((match, game, waiting))
        listed.sort(key=lambda item: (not item[2], item[0].turn_started_at or item[0].created_at))
        return listed

    # -- storing a move --------------------------------------------------------------------------

    async def commit_move(
        self,
        match: MatchRow,
        game: AnyGame,
        before: tuple[int | None, int],
        move: MoveRow,
        change: Change,
        resigned_seat: int | None = None,
    ) -> Outcome:
        """Store a move of the log, made on ``match`` as read; ``game`` is the position after it.

        ``before`` is (seat to move, ply) as they were before it. One transaction, compare-and-set on the
        version the caller read: Refusal "changed_meanwhile" if the match moved on since.

        Then the conditional moves made for the position it left are answered or cleared
        (``premove_following.py``): an answer is stored at once, as its player's turn.
        """
        outcome = await self.commit_without_following(match, game, before, move, change, resigned_seat)
        try:
            await self.premove_following.after_move(match.version, outcome, move)
        except Exception:  # the move is stored: its answer waits for the catch-up, the mover hears the truth
            log.exception("match %s: its conditional moves could not be followed now (at start-up instead)", match.id)
        return outcome

    async def commit_without_following(
        self,
        match: MatchRow,
        game: AnyGame,
        before: tuple[int | None, int],
        move: MoveRow,
        change: Change,
        resigned_seat: int | None = None,
    ) -> Outcome:
        """``commit_move`` but for the conditional moves: the stored move's outcome, nobody's lines followed."""
        now = self.clock.now()
        turn_changed = (game.to_move, game.ply) != before
        finished = game.is_over
        result = {"winners": list(game.winners), "scores": game.scores()} if finished else None
        reminder = self.schedule.reminder_for(match, game) if turn_changed and not finished else None
        bank = None
        if match.clock is not None and (turn_changed or finished):  # the bank of the turn that ended, settled
            bank = await self.schedule.settled_bank(match, game_of(match), now, played=move.kind == "turn")
        deadline, allowance = None, None
        if turn_changed and not finished:
            deadline, allowance = await self.schedule.turn_deadline(match, game, now, bank)
        recorded = await self._stored_once(
            match,
            move,
            lambda: self.store.record_move(
                match.id,
                match.version,
                move=move,
                state=game.to_json(),
                finished=finished,
                result=result,
                turn_changed=turn_changed,
                resigned_seat=resigned_seat,
                reminder=reminder,
                now=now,
                deadline_at=deadline,
                bank=bank,
                turn_allowance=allowance,
            ),
        )
        updated = recorded.match  # as committed, read in the move's transaction
        self.replayed.add(match.id)  # its log and position moved on together, from a position that was checked
        self.events.moved(updated, move)
        if finished:
            await self.events.finished(updated)
        else:
            self.events.changed(updated)
        outcome = await self.announcement(updated, game, (change,), change.events)
        outcome.lapsed_offers = tuple(recorded.lapsed_offers)  # the move deleted them in its transaction
        return outcome

    async def follow_left_conditionals(
        self, changed_by: float | None = None, unless: Collection[int] = ()
    ) -> list[Outcome]:
        """Conditional moves a stop left behind between a move and its answer, followed now
        (:meth:`PremoveFollowing.left_behind`)."""
        return await self.premove_following.left_behind(changed_by, unless)

    async def _stored_once(
        self, match: MatchRow, move: MoveRow, record: Callable[[], Awaitable[RecordedMove]]
    ) -> RecordedMove:
        """Record a move; when the database's answer is lost, find out from the log whether it was stored.

        A write whose connection dropped may or may not have committed: the player is never told "nothing
        was saved" for a move that was. The log says: our move at the next version, or not.
        """
        try:
            return await self.stored_or_refused(record())
        except StorageDown:
            pass
        for pause in LOST_ANSWER_CHECKS:
            await asyncio.sleep(pause)
            try:
                current = await self.store.get_match(match.id)
                last = (await self.store.moves(match.id))[-1:] if current is not None else []
            except StorageDown:
                continue
            if current is None or current.version == match.version:
                raise Refusal("storage_down")  # not stored: the player may play it again
            mine = last and (last[0].user_id, last[0].kind, last[0].notation, last[0].ply) == (
                move.user_id,
                move.kind,
                move.notation,
                move.ply,
            )
            if current.version == match.version + 1 and mine:
                log.warning("match %s: the database's answer to a move was lost; the move is stored", match.id)
                return RecordedMove(current, [])
            raise Refusal("changed_meanwhile")
        raise Refusal("storage_unknown")

    @staticmethod
    async def stored_or_refused(operation: Awaitable[T]) -> T:
        """A change's one transaction: a conflict or a full disk rolled all of it back, and the player hears so."""
        try:
            return await operation
        except VersionConflict:
            raise Refusal("changed_meanwhile") from None
        except StorageFull as error:
            log.error("the database cannot grow (%s): the bot's disk is full", error)
            raise Refusal("disk_full") from None

    async def announcement(
        self, match: MatchRow, game: AnyGame, changes: tuple[Change, ...], events: tuple[Event, ...] | list[Event] = ()
    ) -> Outcome:
        """The outcome of a move: who is to move now (a person is pinged), or the result (everyone is)."""
        if not game.is_over:
            return Outcome(match, game, changes, mention_user_id=person_to_move(match, game), events=tuple(events))
        everyone = tuple(match.human_ids())  # the result pings the people, never a computer seat
        by_dm = []
        for user_id in everyone:
            prefs = await self.store.get_preferences(user_id, match.guild_id)
            if prefs.reminders and prefs.via == "dm":
                by_dm.append(user_id)
        return Outcome(
            match,
            game,
            changes,
            events=tuple(events),
            finished=True,
            ending_user_ids=everyone,
            ending_dm_user_ids=tuple(by_dm),
            unrated=unrated_reason(match, await self.store.moves(match.id)),
        )

    async def render(
        self, match: MatchRow, game: AnyGame, events: tuple[Event, ...] | list[Event] = (), zoom: str | None = None
    ) -> bytes:
        """The board picture (``bot.service.pictures``: another core when the bot has picture workers)."""
        return await self.pictures.png(
            game, player_names=player_names(match), last_events=events, title=title(match), zoom=zoom
        )

    # -- what the chat layer records (it never calls the store) ----------------------------------

    async def mark_announced(self, match_id: int, version: int, channel_id: int, message_id: int) -> None:
        """The board of ``version`` was posted as this message (reminders link to it)."""
        await self.store.mark_announced(match_id, version, channel_id, message_id)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self.store.update_match_fields(match_id, thread_id=thread_id)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        await self.store.update_match_fields(match_id, lobby_message_id=message_id)

    async def paused_untold(self, lease: float = 300.0) -> list[int]:
        """Set-aside matches whose players have not been told yet, claimed (one process tells them)."""
        return await self.store.claim_paused_untold(self.clock.lease_now(), lease)

    async def paused_not_told(self, match_id: int) -> None:
        """Telling failed this time: the notice goes back for a later try."""
        await self.store.release_paused_notice(match_id)

    async def paused_told(self, match_id: int) -> None:
        await self.store.quarantine_told(match_id)

    async def read(self, match_id: int) -> MatchRow | None:
        """The match as stored, paused or not (for the bot's own bookkeeping, never to serve a request)."""
        return await self.store.get_match(match_id)
