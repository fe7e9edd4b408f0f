"""Puzzles from a server's own finished matches (issue 36, docs/puzzles.md): finding them, and solving them.

**Finding.** Each finished match is searched once (its scan claimed in the store for a lease): every position
before a turn is handed to ``search`` (a low-priority pool of its own: ``Thinker.find_puzzle``, one position
per call), which answers the puzzle that turn missed (``ai.puzzles.find``'s proof: forced, unique) or
nothing. Where workers are configured (PostgreSQL, ``jobs``), the bot searches nothing: :meth:`search_pass`
sends each match (and each game of the computer against itself) to the workers' queue as a job of the
lowest priority, and a worker runs :meth:`scan` / :meth:`grow_shared` (bot/jobs/worker.py). The match's
puzzles are stored with the scan's end in one transaction, for the match's server only. A match whose stored
data cannot be read is marked searched with nothing found.

**Solving.** ``/puzzle`` gives the player the server's puzzle nearest their puzzle rating that they have never
attempted (or the one they are solving). Each answer is checked by the puzzle's own data
(``Puzzle.check``: the position reached, not the spelling) and recorded by a compare-and-set on the attempt's
version: right so far, the opponent's reply is played and the next turn asked; right at the end or wrong, the
attempt ends and both ratings move once (Glicko-2, bot/service/glicko.py) in the same transaction. A hint (the
piece or cell the answer starts from) makes a solve gain nothing.

Nothing here says who played the source match: a solved puzzle names the match by its number only.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ai.puzzles import Check, Goal, Puzzle
from games import AnyGame
from games.interface import GameError

from ..domain.errors import DamagedMatch, Refusal
from ..domain.puzzles import AttemptEnd, NewPuzzle, PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow
from .glicko import updated
from .matches import MatchService
from .review import positions_of

log = logging.getLogger(__name__)

#: The search of one position: its state document and the turn played there -> a puzzle's document or None.
PuzzleSearch = Callable[[dict[str, Any], str], Awaitable[dict[str, Any] | None]]
#: One game of the computer against itself (game id, seed) -> its puzzles' documents.
SelfPlaySearch = Callable[[str, int], Awaitable[list[dict[str, Any]]]]
#: The games whose puzzles the computer's own games feed, the cheapest to search first (docs/puzzles.md's figures).
SELF_PLAY_GAMES = ("bide", "playbai", "bump", "begird")
SHARED_TARGET = 30  # puzzles of each game kept from the computer's own games, for servers without their own
SELF_PLAY_LEVEL = "easy"  # ai.puzzles.self_play_candidates' level (part of each puzzle's key)

PUZZLE_VOLATILITY = 0.06  # a puzzle's own volatility is not kept: it changes slowly and alike for all
SCAN_BATCH = 5  # finished matches searched (or sent to the workers) per pass
SCAN_LEASE = 600.0  # seconds a process holds a match's search before another may take it over
#: A worker's scan holds no lease of its own: the queue's heartbeat is its lease (a killed worker's job is taken
#: again once stale, and must not then find the match claimed for ten minutes); a job delivered twice, both
#: running, stores each puzzle once (the store's uniqueness per server, match and turn).
JOB_LEASE = 0.0


class PuzzleJobs(Protocol):
    """Puzzle searches run by worker processes instead of this one (bot/jobs: a job queue)."""

    async def puzzle_scan_due(self, match_id: int) -> None: ...

    async def self_play_due(self, seed: int) -> None: ...


@dataclass(frozen=True)
class PuzzleView:
    """The puzzle as the player sees it now: the position to answer from, and what to find."""

    row: PuzzleRow
    puzzle: Puzzle
    attempt: PuzzleAttemptRow
    game: AnyGame
    """The position now (the puzzle's, with the answers and replies so far played)."""
    seat: int
    goal: Goal
    turns_left: int
    """The player's turns still to find, along the longest defence."""


@dataclass(frozen=True)
class PuzzleAnswer:
    """What an answer was, and what follows."""

    check: Check
    view: PuzzleView
    """After a ``continue``: the position after the reply, to answer from; otherwise the puzzle as it stood."""
    reply_game: AnyGame | None
    """``continue``: the position after the player's answer, before the reply (for the reply's picture)."""
    solution: tuple[str, ...]
    """When the attempt ended: the solution's line from the start (answers and replies)."""
    rating_change: float | None
    player: PuzzlePlayerRow | None


class Puzzles:
    def __init__(
        self,
        service: MatchService,
        search: PuzzleSearch | None,
        self_play: SelfPlaySearch | None = None,
        jobs: PuzzleJobs | None = None,
    ) -> None:
        self.service = service
        self.store = service.store
        self.search = search  # None: this process searches nothing (the workers do)
        self.self_play = self_play  # None: no puzzles of the computer's own games are made here
        self.jobs = jobs  # None: searched here; else sent to the workers' queue

    # -- finding -------------------------------------------------------------------------------

    async def search_pass(self, games: tuple[str, ...], seed: int) -> int:
        """The background pass: search a few finished matches not yet searched; when that stores nothing, one
        game of the computer against itself (``seed``) while a game has few shared puzzles. With ``jobs``, each
        is sent to the workers instead (a match or game already waiting or running is not sent twice); the
        number stored here, or of jobs sent."""
        if self.jobs is None:
            stored = await self.scan_pending()
            return stored or await self.grow_shared(games, seed)
        pending = await self.store.matches_to_scan(self.service.clock.lease_now(), SCAN_BATCH)
        for match_id in pending:
            await self.jobs.puzzle_scan_due(match_id)
        if not pending and await self._short_of_shared(games) is not None:
            await self.jobs.self_play_due(seed)
            return 1
        return len(pending)

    async def scan_pending(self, limit: int = SCAN_BATCH) -> int:
        """Search up to ``limit`` finished matches not yet searched; the puzzles stored."""
        stored = 0
        for match_id in await self.store.matches_to_scan(self.service.clock.lease_now(), limit):
            stored += await self.scan(match_id) or 0
        return stored

    async def scan(self, match_id: int, lease: float = SCAN_LEASE) -> int | None:
        """Search one finished match for puzzles and store them; the number stored, or None when the match
        is not finished or another process has it (or had it: done). ``lease``: :data:`JOB_LEASE` in a worker."""
        if self.search is None:
            raise RuntimeError("this process searches no puzzles: the workers do")
        if not await self.store.claim_puzzle_scan(match_id, self.service.clock.lease_now(), lease):
            return None
        try:
            match = await self.store.get_match(match_id)
            moves = await self.store.moves(match_id) if match is not None else []
        except DamagedMatch as error:
            log.warning("match %s not searched for puzzles: %s", match_id, error)
            return await self.store.finish_puzzle_scan(match_id, 0, [], self.service.clock.now())
        if match is None or match.status != "finished":
            return await self.store.finish_puzzle_scan(match_id, 0, [], self.service.clock.now())
        found = []
        for ply, position in enumerate(positions_of(match, moves)):
            if position.played is None or position.game.is_over:
                continue
            document = await self.search(position.game.to_json(), position.played)
            if document is None:
                continue
            document["source"] = {"match": match.id, "turn": ply}
            rating = float(document["difficulty"]["rating"])
            found.append(NewPuzzle(match.game, document, rating, ply))
        stored = await self.store.finish_puzzle_scan(match.id, match.guild_id, found, self.service.clock.now())
        log.info("match %s searched for puzzles: %d found, %d new", match.id, len(found), stored)
        return stored

    async def grow_shared(self, games: tuple[str, ...], seed: int, target: int = SHARED_TARGET) -> int:
        """One game of the computer against itself (``seed``) for the first of ``games`` with fewer than
        ``target`` shared puzzles, its puzzles stored for every server (each once: a seed played twice, by two
        processes, stores nothing twice); the number stored."""
        if self.self_play is None:
            return 0
        game = await self._short_of_shared(games, target)
        if game is not None:
            found = []
            for document in await self.self_play(game, seed):
                turn = int(document.get("source", {}).get("turn", 0))
                document["source"] = {"self_play": {"seed": seed, "level": SELF_PLAY_LEVEL}, "turn": turn}
                puzzle = NewPuzzle(game, document, float(document["difficulty"]["rating"]), turn)
                found.append((f"{game}:{SELF_PLAY_LEVEL}:{seed}:{turn}", puzzle))
            stored = await self.store.add_shared_puzzles(found, self.service.clock.now())
            log.info("%s: %d puzzles of the computer's game %d, %d new", game, len(found), seed, stored)
            return stored
        return 0

    async def _short_of_shared(self, games: tuple[str, ...], target: int = SHARED_TARGET) -> str | None:
        """The first of ``games`` with fewer than ``target`` puzzles of the computer's own games."""
        for game in games:
            if await self.store.shared_puzzle_count(game) < target:
                return game
        return None

    # -- solving -------------------------------------------------------------------------------

    async def start(self, user_id: int, guild_id: int, game: str | None = None) -> PuzzleView:
        """The puzzle the player is solving, else a new one at their level (``game`` if named)."""
        attempt = await self.store.open_puzzle_attempt(user_id)
        if attempt is None:
            player = await self.player(user_id)
            row = await self.store.pick_puzzle(guild_id, user_id, player.rating, game)
            if row is None:
                raise Refusal("puzzle_none_left", game=game)
            attempt = await self.store.start_puzzle_attempt(row.id, user_id, guild_id, self.service.clock.now())
            if attempt is None:  # another /puzzle of theirs came first: that one is theirs
                attempt = await self.store.open_puzzle_attempt(user_id)
                if attempt is None:
                    raise Refusal("puzzle_busy")
        return await self._view(attempt)

    async def start_puzzle(self, user_id: int, puzzle_id: int, guild_id: int) -> PuzzleView:
        """The player's attempt at this puzzle (a daily one): opened now, or the one they are solving; refused
        when they have finished it, or are solving another."""
        attempt = await self.store.get_puzzle_attempt(puzzle_id, user_id)
        if attempt is None:
            attempt = await self.store.start_puzzle_attempt(puzzle_id, user_id, guild_id, self.service.clock.now())
            if attempt is None:
                raise Refusal("puzzle_other_open")
        if attempt.status != "open":
            raise Refusal("puzzle_already_tried")
        return await self._view(attempt)

    async def current(self, user_id: int) -> PuzzleView:
        """The puzzle the player is solving; a refusal when there is none."""
        attempt = await self.store.open_puzzle_attempt(user_id)
        if attempt is None:
            raise Refusal("puzzle_not_started")
        return await self._view(attempt)

    async def shown_by_board(self, user_id: int, channel_id: int) -> PuzzleView | None:
        """The puzzle ``/board`` (naming no match) shows: the player's open one, unless the command is typed in
        a match's thread (there it means that match); None: ``/board`` shows a match as it always has."""
        if await self.store.match_by_thread(channel_id) is not None:
            return None
        attempt = await self.store.open_puzzle_attempt(user_id)
        return None if attempt is None else await self._view(attempt)

    async def answer(self, user_id: int, puzzle_id: int, version: int | None, text: str) -> PuzzleAnswer:
        """Judge the player's answer to their open attempt at ``puzzle_id`` (at ``version``, if the caller read
        one), and record it once."""
        attempt = await self.store.get_puzzle_attempt(puzzle_id, user_id)
        if attempt is None:
            raise Refusal("puzzle_not_yours")
        if attempt.status != "open":
            raise Refusal("puzzle_finished")
        if version is not None and version != attempt.version:
            raise Refusal("puzzle_moved_on")
        view = await self._view(attempt)
        try:
            check = view.puzzle.check(text, attempt.progress, choice=attempt.version)
        except GameError as error:
            raise Refusal("illegal_move", text=text, why=error) from None
        except ValueError:  # the stored progress does not follow the solution: set the attempt aside
            await self._void(attempt)
            raise Refusal("puzzle_unreadable") from None
        now = self.service.clock.now()
        if check.status == "continue":
            if not await self.store.advance_puzzle_attempt(
                puzzle_id, user_id, attempt.version, check.progress, hinted=attempt.hinted, now=now
            ):
                raise Refusal("puzzle_moved_on")
            assert check.reply is not None
            answered = view.game.copy()
            answered.play_turn(text)
            after = replace(attempt, progress=check.progress, version=attempt.version + 1)
            return PuzzleAnswer(check, await self._view(after), answered, (), None, None)
        solved = check.status == "right"
        end = await self._end(view, solved)
        status = "solved" if solved else "failed"
        if not await self.store.advance_puzzle_attempt(
            puzzle_id, user_id, attempt.version, check.progress, status=status, hinted=attempt.hinted, end=end, now=now
        ):
            raise Refusal("puzzle_moved_on")
        return PuzzleAnswer(check, view, None, solution_line(view.puzzle), end.rating_change, end.player)

    async def hint(self, user_id: int, puzzle_id: int | None = None) -> tuple[PuzzleView, Hint]:
        """Where the turn to find now starts (in the puzzle ``puzzle_id``, if the caller means one: a hint button
        of a puzzle since finished is refused, not applied to the next); a solve then gains nothing."""
        view = await self.current(user_id)
        if puzzle_id is not None and view.row.id != puzzle_id:
            raise Refusal("puzzle_finished")
        attempt = view.attempt
        if not attempt.hinted and not await self.store.advance_puzzle_attempt(
            attempt.puzzle_id, user_id, attempt.version, attempt.progress, hinted=True, now=self.service.clock.now()
        ):
            raise Refusal("puzzle_moved_on")
        node = _node_at(view.puzzle, attempt.progress)
        return view, hint_of(node.turn)

    async def player(self, user_id: int) -> PuzzlePlayerRow:
        return await self.store.get_puzzle_player(user_id) or PuzzlePlayerRow(user_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PuzzlePlayerRow]:
        """The server's best puzzle ratings: players who solved one of its puzzles."""
        return await self.store.puzzle_leaderboard(guild_id, limit)

    # -- inside --------------------------------------------------------------------------------

    async def _view(self, attempt: PuzzleAttemptRow) -> PuzzleView:
        row = await self.store.get_puzzle(attempt.puzzle_id)
        try:
            if row is None:
                raise ValueError("the puzzle is gone")
            puzzle = Puzzle.from_json(row.document)
            game = puzzle.start()
            node = _node_at(puzzle, attempt.progress)
            for turn in attempt.progress:
                game.play_turn(turn)
        except (ValueError, GameError) as error:
            log.warning("puzzle %s set aside for player %s: %s", attempt.puzzle_id, attempt.user_id, error)
            await self._void(attempt)
            raise Refusal("puzzle_unreadable") from None
        assert row is not None
        return PuzzleView(row, puzzle, attempt, game, puzzle.to_move, puzzle.goal, node.depth)

    async def _void(self, attempt: PuzzleAttemptRow) -> None:
        """End an attempt whose puzzle cannot be read: failed, no rating moved, so the player may go on."""
        await self.store.advance_puzzle_attempt(
            attempt.puzzle_id,
            attempt.user_id,
            attempt.version,
            attempt.progress,
            status="failed",
            hinted=attempt.hinted,
            now=self.service.clock.now(),
        )

    async def _end(self, view: PuzzleView, solved: bool) -> AttemptEnd:
        before = await self.player(view.attempt.user_id)
        row = view.row
        score = 1.0 if solved else 0.0
        rating, deviation, volatility = updated(
            before.rating, before.deviation, before.volatility, [(row.rating, row.deviation, score)]
        )
        if solved and view.attempt.hinted:  # a hint costs the gain
            rating, deviation, volatility = before.rating, before.deviation, before.volatility
        puzzle_rating, puzzle_deviation, _ = updated(
            row.rating, row.deviation, PUZZLE_VOLATILITY, [(before.rating, before.deviation, 1.0 - score)]
        )
        streak = before.streak + 1 if solved else 0
        player = replace(
            before,
            rating=rating,
            deviation=deviation,
            volatility=volatility,
            solved=before.solved + solved,
            failed=before.failed + (not solved),
            streak=streak,
            best_streak=max(before.best_streak, streak),
        )
        seconds = self.service.clock.now() - view.attempt.started_at if solved else None
        return AttemptEnd(player, rating - before.rating, puzzle_rating - row.rating, puzzle_deviation, seconds)


def solution_line(puzzle: Puzzle) -> tuple[str, ...]:
    """The solution from the start along its first defences: answer, reply, answer…"""
    line: list[str] = []
    node = puzzle.solution
    while True:
        line.append(node.turn)
        if node.final or not node.replies:
            return tuple(line)
        reply, node = node.replies[0]
        line.append(reply)


def _node_at(puzzle: Puzzle, progress: tuple[str, ...]) -> Any:
    """The solution node the player is at after ``progress`` (ValueError if it does not follow)."""
    node = puzzle.solution
    for k in range(1, len(progress), 2):
        replies = dict(node.replies)
        if progress[k] not in replies:
            raise ValueError("the stored progress does not follow the solution")
        node = replies[progress[k]]
    return node


@dataclass(frozen=True)
class Hint:
    """Where an answer starts: ``row`` (a one-cell answer: its row letter, not the cell) or ``from`` (the
    cell or space its first action starts from: the piece to move, the first disc placed)."""

    kind: str
    value: str


def hint_of(turn: str) -> Hint:
    start = turn
    for separator in (" ", ",", "-", "^", ">"):
        start = start.split(separator, 1)[0]
    start = start.strip() or turn
    if start == turn.strip() and start[:1].isalpha() and start[-1:].isdigit():  # one cell: its row only
        return Hint("row", start.rstrip("0123456789"))
    return Hint("from", start)
