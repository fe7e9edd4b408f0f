"""The computer's seats: it plays its turns through the service, like a person, thinking in a process pool.

No Discord here (the bot gives it a callback that announces an outcome). After
every stored change that moves a game on (the service's events, wired by bot/runtime.py), and
once at start-up for every match it is to move in, the computer player looks
at the match. If a computer seat is to move it thinks in ``ai.worker.Thinker``
(other processes: a search never holds the event loop, so commands for other
matches are answered meanwhile), waits until the human's board of that
position has been posted (its own board must come after it), and plays
through ``MatchService.play`` with the version it thought about: if the match
changed meanwhile (a takeback, a resignation) that is refused and it looks
again. A restart while it thinks loses nothing: the turn is simply thought
again at the next start (the seed depends only on the match and the ply).

With PostgreSQL the bot does not think at all: given ``ComputerJobs`` (bot/jobs, a job queue), a
computer turn that falls due is sent as a job (the match and the version it is for) and a hint is
asked of the queue; a worker process (``python -m bot worker``) runs the same player, whose
``play_queued_turn`` and ``think_hint`` are this module's thinking and playing for one job. A job
may run twice (the queue delivers at least once): the turn is played with the version it is for,
so the store's compare-and-set lets only the first one through.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from ai.worker import Thinker
from games import AnyGame

from ..domain.errors import DamagedMatch, Refusal
from ..domain.model import MatchRow
from ..domain.outcome import OfferAnswer, Outcome
from ..domain.seats import computer_to_move, game_of, user_to_move
from ..store.matches import MatchStore
from .matches import MatchService
from .offers import Offers

log = logging.getLogger(__name__)

#: What became of a computer turn: stored; not stored because the match moved on meanwhile (look again);
#: refused (logged: a bug); or none was due (the match is over, paused, or not at the job's version).
TurnResult = Literal["stored", "moved_on", "refused", "not_due"]

HINT_LEVEL = "medium"  # issue 11: a hint is the move the medium computer would play
TASK_PREFIX = "hexplay-computer"


class ComputerJobs(Protocol):
    """Computer turns and hints thought by worker processes instead of this one (bot/jobs: a job queue)."""

    async def turn_due(self, match_id: int, version: int) -> None:
        """A computer is to move in the match at ``version``: have a worker play that turn (once)."""

    async def hint(self, match_id: int, user_id: int) -> str:
        """The hint a worker thought for the user's turn; Refusal "hint_unavailable" if none came in time."""
        ...


def turn_seed(match_id: int, ply: int, salt: int = 0) -> int:
    """The search's seed: the same match and ply always think the same (a restart plays the same turn)."""
    return (match_id * 1_000_003 + ply) * 7 + salt


class ComputerPlayer:
    announce_wait = 20.0  # seconds to wait for the human's board before playing anyway (a failed post is retried)
    poll_seconds = 0.02

    def __init__(
        self,
        service: MatchService,
        offers: Offers,
        thinker: Thinker | None = None,
        announce: Callable[[Outcome], Awaitable[Any]] | None = None,
        jobs: ComputerJobs | None = None,
    ) -> None:
        self.service = service
        self.store: MatchStore = service.store
        self.offers = offers
        self.thinker = thinker or Thinker()  # with jobs, still the draw offers' (a pool started on first use)
        # posts a computer's stored turn like a person's (thread, retries, end-of-game DMs): given by the bot;
        # in a worker, tells the bots that a turn was stored (they post it)
        self.announce = announce
        self.jobs = jobs  # None: turns and hints are thought here, in the thinker
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # matches poked while their task was already running
        self._playing: set[asyncio.Future[TurnResult]] = set()  # stores and announcements in flight: a stop waits
        self._errands: set[asyncio.Future[Any]] = set()  # answers to offers; jobs being sent to the workers
        self._closed = False

    # -- when to look -----------------------------------------------------------------------

    def changed(self, match: MatchRow) -> None:
        if not (match.has_computer and match.status == "active"):
            return
        if self.jobs is None:
            self.poke(match.id)
        elif match.state is not None and computer_to_move(match, game_of(match)) is not None:
            self.run_soon(self._send_turn(match.id, match.version), f"job-{match.id}")

    async def _send_turn(self, match_id: int, version: int) -> None:
        assert self.jobs is not None
        try:
            await self.jobs.turn_due(match_id, version)
        except Exception:  # the workers' sweep and the next start-up send it again
            log.exception("match %s: the computer's turn could not be sent to the workers", match_id)

    def poke(self, match_id: int) -> None:
        """Look at the match soon; one task per match, which looks again if poked while it runs."""
        if self._closed:
            return
        running = self._tasks.get(match_id)
        if running is not None and not running.done():
            self._again.add(match_id)
            return
        self._tasks[match_id] = asyncio.create_task(self._drive(match_id), name=f"{TASK_PREFIX}-{match_id}")

    async def resume(self) -> int:
        """At start-up: every active match whose mover is a computer (it may have been thinking at the stop)."""
        count = 0
        for match_id in await self.store.active_computer_match_ids():
            count += bool(await self.service.for_one_match(match_id, self._resume(match_id)))
        return count

    async def _resume(self, match_id: int) -> bool:
        match = await self.store.get_match(match_id)
        if match is None or not match.has_computer or not await self.service.usable(match):
            return False
        if computer_to_move(match, game_of(match)) is None:
            return False
        if self.jobs is not None:
            await self.jobs.turn_due(match_id, match.version)  # a job already waiting for it is not doubled
        else:
            self.poke(match_id)
        return True

    def run_soon(self, errand: Awaitable[Any], name: str) -> None:
        """Run a computer's errand (an offer's answer) in the background; a stop cancels it."""
        if self._closed:
            return
        task = asyncio.ensure_future(errand)
        task.set_name(f"{TASK_PREFIX}-{name}")
        self._errands.add(task)
        task.add_done_callback(self._errands.discard)

    def thinking(self, match_id: int) -> bool:
        task = self._tasks.get(match_id)
        return task is not None and not task.done()

    # -- playing -----------------------------------------------------------------------------

    async def _drive(self, match_id: int) -> None:
        try:
            while True:
                self._again.discard(match_id)
                moved = await self._step(match_id)
                if not moved and match_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except DamagedMatch as damaged:  # its data cannot be read: the match is set aside
            await self.service.set_aside(damaged.match_id, damaged.reason)
        except Exception:  # logged; the next change or start-up looks again
            log.exception("match %s: the computer could not play", match_id)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                del self._tasks[match_id]

    async def play_queued_turn(self, match_id: int, version: int) -> TurnResult:
        """A worker's job: think and play the computer's turn of the match at ``version``, if it is still due.

        Nothing is played when the match has moved on (the job came late, or a second time), and a turn
        thought meanwhile is stored only on ``version`` (the store's compare-and-set): at most once.
        """
        try:
            return await self._turn(match_id, version)
        except DamagedMatch as damaged:  # its data cannot be read: the match is set aside
            await self.service.set_aside(damaged.match_id, damaged.reason)
            return "not_due"

    async def _step(self, match_id: int) -> bool:
        """Think and play one computer turn if one is due; True if the match should be looked at again."""
        return await self._turn(match_id) in ("stored", "moved_on")

    async def _turn(self, match_id: int, version: int | None = None) -> TurnResult:
        """Think and play the computer's turn if one is due (at ``version``, when given)."""
        match = await self.store.get_match(match_id)
        if match is None or match.status != "active" or not await self.service.usable(match):
            return "not_due"
        if version is not None and match.version != version:
            return "not_due"
        game = game_of(match)
        seat = computer_to_move(match, game)
        if seat is None or match.state is None:
            return "not_due"
        assert seat.computer is not None
        answer = await self.thinker.turn(match.state, seat.computer, turn_seed(match.id, game.ply))
        await self._until_announced(match_id, match.version)
        play = asyncio.ensure_future(self._play(match, seat.user_id, answer["turn"]))
        self._playing.add(play)
        play.add_done_callback(self._playing.discard)
        return await asyncio.shield(play)  # a stop does not cut a store or its announcement in half

    async def _until_announced(self, match_id: int, version: int) -> None:
        """Wait (bounded) until the board of ``version`` is posted, so the computer's board comes after it."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.announce_wait
        while loop.time() < give_up:
            match = await self.store.get_match(match_id)
            if match is None or match.announced_version >= version or match.version != version:
                return
            await asyncio.sleep(self.poll_seconds)
        log.warning(
            "match %s: the board of version %s is still not posted; the computer plays anyway", match_id, version
        )

    async def _play(self, match: MatchRow, user_id: int, notation: str) -> TurnResult:
        try:
            outcome = await self.service.play(match.id, user_id, notation, expected_version=match.version)
        except Refusal as error:
            current = await self.store.get_match(match.id)
            if current is not None and current.version != match.version:
                return "moved_on"  # the position changed while it thought: look again
            log.error("match %s: the computer's turn %r was refused: %s", match.id, notation, error)
            return "refused"
        if self.announce is not None:
            try:
                await self.announce(outcome)
            except Exception:  # stored: the announcer's retries and the start-up catch-up post it
                log.exception("match %s: the computer's turn is stored but its announcement failed", match.id)
        return "stored"

    # -- offers and hints -----------------------------------------------------------------------

    async def answer_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> OfferAnswer | None:
        """A computer seat's answer to a draw offer or takeback request, through the same path as a person's.

        A draw is accepted when the computer does not expect to win (``ai.accepts_draw``, thought in the
        pool); a takeback is always accepted (nothing is at stake: matches with the computer are not rated).
        None when the offer lapsed meanwhile.
        """
        match = await self.store.get_match(match_id)
        seat = None if match is None else match.seat_of(user_id)
        if match is None or match.state is None or seat is None or not seat.is_computer:
            return None
        accept = True
        if kind == "draw":
            accept = await self.thinker.draw(match.state, seat.seat, turn_seed(match_id, at_seq, salt=1))
        try:
            return await self.offers.answer(match_id, user_id, kind, at_seq, accept)
        except Refusal as error:  # answered, lapsed or over meanwhile
            log.info("match %s: the computer's answer to the %s offer was not needed (%s)", match_id, kind, error)
            return None

    async def hint(self, match_id: int, user_id: int) -> str:
        """The turn the medium computer would play for the player to move (only when hints are allowed)."""
        if self.jobs is not None:
            self.check_hint(await self.service.get(match_id), user_id)
            return await self.jobs.hint(match_id, user_id)
        return await self.think_hint(match_id, user_id)

    async def think_hint(self, match_id: int, user_id: int) -> str:
        """The hint, thought here (in a worker, for a hint job): Refusal as :meth:`check_hint` says."""
        match, game = self.check_hint(await self.service.get(match_id), user_id)
        assert match.state is not None
        answer = await self.thinker.turn(match.state, HINT_LEVEL, turn_seed(match_id, game.ply, salt=2))
        return str(answer["turn"])

    def check_hint(self, match: MatchRow, user_id: int) -> tuple[MatchRow, AnyGame]:
        """Refuse a hint clearly: not a player, no hints in this match, not in play, not their turn."""
        if match.status != "active":
            raise Refusal("hint_not_in_play", match=match)
        game = game_of(match)
        seat = match.seat_of(user_id)
        if seat is None or seat.is_computer:
            raise Refusal("not_a_player", match=match)
        if not (match.has_computer or match.hints):
            raise Refusal("no_hints", match=match)
        if seat.resigned:
            raise Refusal("you_left", match=match)
        if user_to_move(match, game) != user_id:
            raise Refusal("hint_not_your_turn", match=match, game=game)
        return match, game

    # -- stopping --------------------------------------------------------------------------------

    async def close(self, timeout: float = 5.0) -> None:
        """Stop thinking (a restart thinks again); let stores already under way finish first."""
        self._closed = True
        for task in [*self._tasks.values(), *self._errands]:
            task.cancel()
        if self._playing:
            await asyncio.wait(list(self._playing), timeout=timeout)
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        self._tasks.clear()
        self.thinker.close()
