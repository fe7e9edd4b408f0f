"""Post-game reviews (/review): the computer's view of a finished match, searched once and kept (docs/review.md).

Only a finished match of the asker's server is reviewed, so a review can never help during a game. The
search runs where /hint's does: in this process's ``Thinker`` pool (SQLite: one process), or as a job for
``python -m bot worker`` (PostgreSQL: ``ReviewJobs``, bot/jobs). Either way it is one position per pool
task, so a computer turn or a hint waits at most one position's search behind a review, never a whole game.
Reviews are searched one at a time per process (the others wait in line: the asker is told their place).

The stored row is the claim (one process searches a match's review, under a lease its progress renews),
the progress that whoever waits reads, and the result: a second request is answered from it at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ai.review import REVIEW_BUDGET, GameReview, PositionView, ReviewBudget, TurnReview, assess, judge
from ai.worker import Thinker
from games import AnyGame, Event
from render.review import evaluation_graph, turn_overlay

from ..domain.errors import Refusal
from ..domain.model import MatchRow, ReviewRow
from ..domain.replay import apply_logged, effective_moves, replay
from ..domain.seats import player_names, title
from .computer import turn_seed
from .matches import MatchService

log = logging.getLogger(__name__)

REVIEW_SALT = 3  # seeds of a review's searches: apart from the computer's turns (0), draws (1), hints (2)
LEASE = 120.0  # seconds a review's claim lasts without progress (one position takes well under a second)


class ReviewJobs(Protocol):
    """Reviews searched by worker processes instead of this one (bot/jobs: a job queue)."""

    async def review_due(self, match_id: int) -> int:
        """Have a worker search the match's review (once); how many reviews wait before it."""
        ...


@dataclass(frozen=True)
class Position:
    """A position of the match before one of its turns (or its last position, with no turn)."""

    game: AnyGame
    played: str | None
    mover: int
    """The player to move (0 for the last position)."""


@dataclass(frozen=True)
class ReviewTicket:
    """A request taken: the review is ready, or being searched, or waiting ``ahead`` others in line."""

    match: MatchRow
    ready: bool
    ahead: int
    total: int


@dataclass(frozen=True)
class ReviewProgress:
    done: int
    total: int
    ahead: int
    """Reviews still before this one in line (0: it is being searched)."""


@dataclass(frozen=True)
class Review:
    """A finished review and what the chat layer says with it."""

    match: MatchRow
    result: GameReview
    names: list[str]
    """Each player's name (by player, in sitting order)."""
    budget: dict[str, Any]
    seconds: float
    """CPU seconds the searches took."""

    @property
    def worst_first(self) -> list[int]:
        """The turning points (turn indices), the biggest drop first (of two alike, the earlier turn): the
        order they are listed and stepped through in."""
        turns = self.result.turns
        return sorted(self.result.turning_points, key=lambda i: (-turns[i].drop, i))

    def turning_point(self, index: int) -> TurnReview:
        """The ``index``-th turning point, the biggest first."""
        return self.result.turns[self.worst_first[index]]

    def side_of(self, user_id: int | None) -> int:
        """The player whose side the graph is drawn from: the viewer's own if they played, else the first."""
        seat = self.match.seat_of(user_id) if user_id is not None else None
        return seat.seat if seat is not None else 1


@dataclass(frozen=True)
class TurningPoint:
    """One turning point drawn: the board before it, the turn played and the computer's turn over it."""

    review: Review
    index: int
    turn: TurnReview
    png: bytes


def positions_of(match: MatchRow, moves: list[Any]) -> list[Position]:
    """The match's positions before each turn played, then its last position (resignations, draws and
    time-outs are applied between them, never reviewed)."""
    game = replay(match, [])
    found = []
    for move in effective_moves(moves):
        if move.kind == "turn":
            seat = game.to_move
            mover = game.player_of_seat(seat) if seat is not None else 0
            found.append(Position(game.copy(), move.notation, mover))
        apply_logged(game, move)
    found.append(Position(game.copy(), None, 0))
    return found


def review_to_json(result: GameReview) -> dict[str, Any]:
    return {
        "players": result.players,
        "chances": [list(c) for c in result.chances],
        "turns": [[t.player, t.played, t.best, t.before, t.after] for t in result.turns],
        "accuracy": {str(p): a for p, a in result.accuracy.items()},
        "turning_points": list(result.turning_points),
    }


def review_from_json(doc: dict[str, Any]) -> GameReview:
    turns = [
        TurnReview(k, int(p), str(played), None if best is None else str(best), float(before), float(after))
        for k, (p, played, best, before, after) in enumerate(doc["turns"])
    ]
    return GameReview(
        int(doc["players"]),
        [tuple(float(x) for x in c) for c in doc["chances"]],
        turns,
        {int(p): float(a) for p, a in doc["accuracy"].items()},
        [int(i) for i in doc["turning_points"]],
    )


class Reviews:
    poll_seconds = 1.0  # how often a waiting request reads the progress
    wait_limit = 900.0  # seconds a request waits for its review before saying it did not come
    max_waiting = 20  # reviews in this process's line; past it a request is refused

    def __init__(
        self,
        service: MatchService,
        thinker: Thinker,
        budget: ReviewBudget = REVIEW_BUDGET,
        jobs: ReviewJobs | None = None,
    ) -> None:
        self.service = service
        self.store = service.store
        self.thinker = thinker
        self.budget = budget
        self.jobs = jobs  # None: searched here, in the thinker, one review at a time
        self._line: deque[int] = deque()  # matches to be searched here, the first being searched
        self._failed: set[int] = set()  # searched here and failed: their waiters are told
        self._pump: asyncio.Task[None] | None = None
        # user -> (the match whose review they wait for in this process, until when that wait may last)
        self._asked: dict[int, tuple[int, float]] = {}
        self._closed = False

    # -- asking ---------------------------------------------------------------------------------

    async def request(self, user_id: int, guild_id: int, channel_id: int, match_id: int | None) -> ReviewTicket:
        """Take a request for a match's review (named, or the finished match of the thread it is asked in)."""
        match = await self._finished(guild_id, channel_id, match_id)
        row = await self.store.get_review(match.id)
        if row is not None and row.data is not None:
            return ReviewTicket(match, True, 0, row.total)
        asked = self._waiting_for(user_id)
        if asked is not None and asked != match.id:
            raise Refusal("review_one_at_a_time", match_id=asked)
        # taken before any await: ten requests at once by one user meet this, not each other's gaps
        self._asked[user_id] = (match.id, self.service.clock.lease_now() + self.wait_limit)
        try:
            total = len(positions_of(match, await self.store.moves(match.id)))
            if total < 2:
                raise Refusal("review_no_turns", match=match)
            ahead = self._place(match.id)
            if ahead is None:  # not in this process's line yet
                if self.jobs is None and len(self._line) >= self.max_waiting:
                    raise Refusal("review_queue_full", waiting=len(self._line))
                ahead = await self._submit(match.id)
        except BaseException:
            if asked is None:
                self._asked.pop(user_id, None)
            raise
        return ReviewTicket(match, False, ahead, total)

    def _waiting_for(self, user_id: int) -> int | None:
        """The match whose review the user waits for in this process (a wait that never ended lapses)."""
        asked = self._asked.get(user_id)
        if asked is None or asked[1] < self.service.clock.lease_now():
            return None
        return asked[0]

    async def _finished(self, guild_id: int, channel_id: int, match_id: int | None) -> MatchRow:
        if match_id is None:
            in_thread = await self.store.match_by_thread(channel_id)
            if in_thread is None or in_thread.status == "cancelled":
                raise Refusal("review_which_match")
            match_id = in_thread.id
        match = await self.service.get(match_id)
        self.service.check_guild(match, guild_id)
        if match.status != "finished":
            raise Refusal("review_not_finished", match=match)
        return match

    def _place(self, match_id: int) -> int | None:
        """Reviews before this one in this process's line (the first of the line is the one searched)."""
        return self._line.index(match_id) if match_id in self._line else None

    async def _submit(self, match_id: int) -> int:
        if self.jobs is not None:
            return await self.jobs.review_due(match_id)
        self._failed.discard(match_id)
        self._line.append(match_id)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._search_in_line(), name="hexplay-reviews")
        return len(self._line) - 1

    async def wait(
        self, ticket: ReviewTicket, user_id: int, progress: Callable[[ReviewProgress], Awaitable[Any]]
    ) -> Review:
        """Wait for the ticket's review, telling ``progress`` whenever it moves on; Refusal if it fails."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.wait_limit
        said: ReviewProgress | None = None
        started = False  # a row seen running: gone again, its search failed (it lets the row go)
        try:
            while True:
                row = await self.store.get_review(ticket.match.id)
                if row is not None and row.data is not None:
                    return await self._review(ticket.match, row)
                lost = started and row is None
                started = started or row is not None
                if lost or self._closed or ticket.match.id in self._failed or loop.time() > give_up:
                    raise Refusal("review_unavailable", match=ticket.match)
                if row is not None and self._abandoned(row) and self._place(row.match_id) is None:
                    await self._submit(row.match_id)  # its searcher died (a crash, a lost worker): search it again
                ahead = self._place(ticket.match.id)
                now = ReviewProgress(
                    row.done if row is not None else 0,
                    row.total if row is not None else ticket.total,
                    0 if row is not None else (ticket.ahead if ahead is None else ahead),
                )
                if now != said:
                    said = now
                    await progress(now)
                await asyncio.sleep(self.poll_seconds)
        finally:
            if self._waiting_for(user_id) == ticket.match.id:
                del self._asked[user_id]

    def _abandoned(self, row: ReviewRow) -> bool:
        return row.claimed_until is not None and row.claimed_until < self.service.clock.lease_now()

    async def stored(self, match_id: int, guild_id: int | None) -> Review:
        """A finished review as stored (a button's): Refusal if there is none."""
        match = await self.service.get(match_id)
        self.service.check_guild(match, guild_id)
        row = await self.store.get_review(match_id)
        if row is None or row.data is None:
            raise Refusal("review_not_ready", match=match)
        return await self._review(match, row)

    async def _review(self, match: MatchRow, row: ReviewRow) -> Review:
        assert row.data is not None
        try:
            result = review_from_json(row.data["review"])
        except (KeyError, TypeError, ValueError):  # unreadable: searched again at the next request
            await self.store.release_review(match.id)
            raise Refusal("review_unavailable", match=match) from None
        return Review(match, result, player_names(match), row.data.get("budget", {}), float(row.data.get("seconds", 0)))

    # -- pictures ---------------------------------------------------------------------------------

    async def graph(self, review: Review, viewer_id: int | None = None) -> bytes:
        """The graph, titled with the match's name (which holds its number), from ``viewer_id``'s side."""
        marks = [(i + 1, review.result.turns[i].label or "") for i in review.result.turning_points]
        side = review.side_of(viewer_id) - 1
        return await asyncio.to_thread(
            evaluation_graph, review.result.chances, review.names, marks, title(review.match), side=side
        )

    async def turning_point(self, review: Review, index: int, legend: tuple[str, str]) -> TurningPoint:
        """Turning point ``index`` (0-based, the biggest first, wrapped around) drawn over the board before it,
        as the mover saw it: with the turn that led there."""
        points = review.result.turning_points
        if not points:
            raise Refusal("review_no_turning_points", match=review.match)
        index %= len(points)
        turn = review.turning_point(index)
        positions = positions_of(review.match, await self.store.moves(review.match.id))
        position = positions[turn.index]
        previous = positions[turn.index - 1] if turn.index > 0 else None
        led_here = previous.game.copy().play_turn(previous.played) if previous and previous.played else []
        played = position.game.copy().play_turn(turn.played)
        best = position.game.copy().play_turn(turn.best) if turn.best and turn.best != turn.played else []
        png = await asyncio.to_thread(
            self._draw_turn, position.game, led_here, played, best, legend, review.names, title(review.match)
        )
        return TurningPoint(review, index, turn, png)

    @staticmethod
    def _draw_turn(
        game: AnyGame,
        led_here: list[Event],
        played: list[Event],
        best: list[Event],
        legend: tuple[str, str],
        names: list[str],
        heading: str,
    ) -> bytes:
        return turn_overlay(game, played, best, legend=legend, player_names=names, title=heading, last_events=led_here)

    # -- searching ---------------------------------------------------------------------------------

    async def _search_in_line(self) -> None:
        while self._line and not self._closed:
            match_id = self._line[0]
            try:
                if not await self.search(match_id):
                    self._failed.add(match_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match %s: the review could not be searched", match_id)
                self._failed.add(match_id)
            finally:
                self._line.popleft()

    async def search(self, match_id: int) -> bool:
        """Search the match's review and store it (here, or in a worker for a job); True if it is stored
        (by this call or already). Claimed in the store first: one process searches a match at a time."""
        match = await self.store.get_match(match_id)
        if match is None or match.status != "finished":
            return False
        existing = await self.store.get_review(match_id)
        if existing is not None and existing.data is not None:
            return True
        positions = positions_of(match, await self.store.moves(match_id))
        if not await self.store.claim_review(match_id, len(positions), self.service.clock.lease_now(), LEASE):
            return True  # another process searches it: the waiters read its progress
        try:
            views = []
            for k, position in enumerate(positions):
                views.append(await self._assess(match_id, k, position))
                await self.store.review_progress(match_id, k + 1, self.service.clock.lease_now(), LEASE)
            turns = positions[:-1]
            result = judge(views, [p.played or "" for p in turns], [p.mover for p in turns], match.players)
            budget = {"simulations": self.budget.simulations, "seconds": self.budget.seconds}
            seconds = sum(v.seconds for v in views)
            await self.store.save_review(
                match_id, {"review": review_to_json(result), "budget": budget, "seconds": seconds}
            )
            log.info("match %s reviewed: %d positions, %.1f CPU s", match_id, len(positions), seconds)
            return True
        except BaseException:
            await asyncio.shield(self.store.release_review(match_id))
            raise

    async def _assess(self, match_id: int, k: int, position: Position) -> PositionView:
        if position.game.is_over:  # nothing to search: the result is the result
            return assess(position.game, None)
        answer = await self.thinker.assess(
            position.game.to_json(), position.played, self.budget, turn_seed(match_id, k, salt=REVIEW_SALT)
        )
        return PositionView(
            tuple(answer["chances"]), answer["best"], bool(answer["best_is_played"]), float(answer["seconds"])
        )

    async def close(self) -> None:
        """Stop searching (a review cut short is let go) and tell whoever waits (bot/chat/client.py's stop)."""
        self._closed = True
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
