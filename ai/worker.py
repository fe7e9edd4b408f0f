"""Thinking off the event loop: a process pool that takes JSON and gives back notation.

Only plain data crosses the process boundary (after python-chess's
parallel perft): the stored state document (``Game.to_json()``), the level
and the seed go in; the turn's notation, the level and the CPU seconds come
back. Nothing of the caller (rows, clients, locks) is ever pickled, so a
search can never hold a bot's lock or freeze its loop.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.registry import load_state, new_game

from .player import accepts_draw, choose_turn
from .puzzles import find_puzzle_document, self_play_candidates
from .review import ReviewBudget, assess


def think(state: Mapping[str, Any], level: str, seed: int) -> dict[str, Any]:
    """In a worker process: the computer's turn for the stored ``state`` document."""
    game = load_state(state)
    # reuse: a worker thinks for many matches in turn; its kept trees (a few) let a match's next turn
    # start from what this search found (ai.search.TreeCache)
    choice = choose_turn(game, level, seed=seed, reuse=True)
    return {
        "turn": choice.turn.notation,
        "level": choice.level,
        "seconds": choice.seconds,
        "simulations": choice.simulations,
    }


def assess_position(
    state: Mapping[str, Any], played: str | None, simulations: int, seconds: float | None, seed: int
) -> dict[str, Any]:
    """In a worker process: a post-game review's search of one position (``ai.review.assess``)."""
    view = assess(load_state(state), played, ReviewBudget(simulations, seconds), seed)
    return {
        "chances": list(view.chances),
        "best": view.best,
        "best_is_played": view.best_is_played,
        "seconds": view.seconds,
    }


def self_play_puzzle_documents(game_id: str, seed: int) -> list[dict[str, Any]]:
    """In a worker process: the puzzles of one game of the easy computer against itself (seconds of CPU: run it
    in a pool of its own, at low priority, never in the computer's)."""
    return [puzzle.to_json() for puzzle in self_play_candidates(game_id, seed)]


def consider_draw(state: Mapping[str, Any], player: int, seed: int) -> bool:
    """In a worker process: whether the computer playing ``player`` accepts a draw offer."""
    return accepts_draw(load_state(state), player, seed=seed)


def warm_up() -> None:
    """In a worker process: the search's imports (numpy) and a first small search, paid when the pool starts
    rather than on a player's first turn."""
    choose_turn(new_game("begird", 2, {"board": "small"}), "easy", seed=0)


def _start_worker(parent: int, niceness: int) -> None:
    """In a new worker: lower its priority (a background pool's), and leave with its parent."""
    if niceness:
        os.nice(niceness)
    _leave_with_parent(parent)


def _leave_with_parent(parent: int) -> None:
    """In a worker: exit when the process that started it is gone (killed without closing its pool),
    rather than live on as an orphan. Valid for direct children (the "spawn" and "fork" start methods)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


class Thinker:
    """A small process pool for computer turns (one search per process at a time)."""

    def __init__(self, processes: int = 1, start_method: str | None = None, niceness: int = 0) -> None:
        self.processes = processes
        self.niceness = niceness  # added to the workers' nice value: a background pool's is lower priority
        # A bot passes "spawn": its workers must not be forked from a process whose other threads
        # (database, pictures) may hold locks at that instant. Workers leave when their parent dies.
        self.start_method = start_method
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = None if self.start_method is None else multiprocessing.get_context(self.start_method)
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(), self.niceness),
            )
        return self._pool

    async def turn(self, state: Mapping[str, Any], level: str, seed: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), think, dict(state), level, seed)

    async def assess(
        self, state: Mapping[str, Any], played: str | None, budget: ReviewBudget, seed: int
    ) -> dict[str, Any]:
        """One position of a review: a task as short as a computer turn, so turns never wait behind a review."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), assess_position, dict(state), played, budget.simulations, budget.seconds, seed
        )

    async def find_puzzle(self, state: Mapping[str, Any], played: str) -> dict[str, Any] | None:
        """Whether the position before the turn ``played`` holds a puzzle it missed (one bounded proof: a task
        no longer than the proof's budget, so turns never wait behind a whole match's search)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), find_puzzle_document, dict(state), played)

    async def self_play_puzzles(self, game_id: str, seed: int) -> list[dict[str, Any]]:
        """The puzzles of one self-play game (:func:`self_play_puzzle_documents`): for a background pool only."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), self_play_puzzle_documents, game_id, seed)

    async def warm(self) -> None:
        """Start every process of the pool and warm it (:func:`warm_up`), so the first turn waits for neither."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*(loop.run_in_executor(pool, warm_up) for _ in range(self.processes)))

    async def draw(self, state: Mapping[str, Any], player: int, seed: int) -> bool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), consider_draw, dict(state), player, seed)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
