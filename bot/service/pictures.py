"""Board pictures drawn off the event loop: in a small process pool, or on a thread.

A picture is several ms of CPU in Pillow, much of it holding the GIL. Drawn on a thread of
the bot's process it competes with the event loop for the GIL (each socket send or database
trip of the loop then waits for it) and the process uses one core. A worker process draws on
another core while the loop serves the next interaction.

Only plain data crosses the process boundary (as for the computer's thinking, ai/worker.py):
the stored state document (``AnyGame.to_json()``), the names, the last turn's events as JSON,
the title and the zoom go in; PNG bytes come out. A game in the middle of a turn (previews,
the turn builder) has no state document and is drawn on a thread, as is every picture when
the pool is off (``processes=0``), not ready yet (just after a start) or broken (a worker
died: the pool is then replaced), so a stored turn never waits for the pool. GIF replays
have their own single worker.

When a board is first drawn, a worker then prepares it (``render.draw_ahead``): its background, and
what a later picture draws that the first does not (Begird's golden islands of a won game), so that
neither the next turn's picture nor the winning one builds them while its post waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from games import AnyGame, Event, load_state
from i18n import current, speaking
from render import draw_ahead, render_gif, render_png, warm_up

log = logging.getLogger(__name__)
T = TypeVar("T")


def draw_state(
    state: dict[str, Any],
    player_names: list[str],
    last_events: list[dict[str, Any]],
    title: str | None,
    zoom: str | None,
    language: str = "en",
) -> bytes:
    """In a worker process: the picture of a stored state document, its words in ``language``
    (a worker has no context of the asker's: the language crosses over as plain data)."""
    with speaking(language):
        return render_png(
            load_state(state),
            player_names=player_names,
            last_events=[Event.from_json(e) for e in last_events],
            title=title,
            zoom=zoom,
        )


def draw_replay(
    frames: list[tuple[dict[str, Any], list[dict[str, Any]]]],
    player_names: list[str],
    title: str | None,
    language: str = "en",
) -> bytes:
    """In a worker process: the GIF replay of (state document, events) frames, its words in ``language``."""
    with speaking(language):
        return render_gif(
            [(load_state(state), [Event.from_json(e) for e in events]) for state, events in frames],
            player_names=player_names,
            title=title,
        )


def prepare_board(state: dict[str, Any]) -> None:
    """In a worker process: build what the pictures of this stored state's board will need (render.draw_ahead)."""
    draw_ahead(load_state(state))


def _replay_here(
    frames: list[tuple[AnyGame, Sequence[Event]]], player_names: list[str], title: str | None, language: str
) -> bytes:
    """On the replay thread: an executor's thread does not copy the asker's context, so the language is passed."""
    with speaking(language):
        return render_gif(frames, player_names=player_names, title=title)


# GIF replays drawn in the bot's process (no workers, or a worker died): one at a time, on their own thread.
_REPLAY_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexplay-gif")


def start_worker(owner_alive: Connection) -> None:
    """In each worker, first: build the palettes, and leave when the bot's process is gone.

    A bot killed outright (kill -9, a crash) cannot stop its pool, and an idle worker would wait
    for pictures forever. The bot holds the only writing end of ``owner_alive`` and never writes:
    the read ends (EOF) when the bot's process ends, however it ends.
    """
    threading.Thread(target=_exit_when_gone, args=(owner_alive,), daemon=True, name="hexplay-owner-watch").start()
    warm_up()


def _exit_when_gone(owner_alive: Connection) -> None:
    with contextlib.suppress(EOFError, OSError):  # the bot's end of the pipe closed: it is gone
        owner_alive.recv()
    os._exit(0)


class _Workers:
    """A process pool started at first use and replaced when broken; its workers leave with the bot."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._alive: tuple[Connection, Connection] | None = None  # (worker end, our end) of the liveness pipe
        self._warming: Future[Any] | None = None  # a warm-up task in the current pool
        self.ready = False  # a worker of the current pool has started and built the palettes
        self._prepared: set[str] = set()  # the boards a worker of the current pool was given to prepare

    def warm(self) -> Future[Any]:
        """Start the workers in the background (idempotent); ``ready`` once one has built the palettes."""
        if self._warming is None or self._pool is None:
            pool = self.executor()
            self._warming = warming = pool.submit(warm_up)

            def done(future: Future[Any]) -> None:  # on the pool's own thread: only a flag is set
                if self._warming is warming and not future.cancelled() and future.exception() is None:
                    self.ready = True

            warming.add_done_callback(done)
        return self._warming

    def executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: a worker is not forked from this process, whose other threads (database,
            # discord.py) may hold locks at that instant; the server preloads the drawing code: this module
            # (it named "bot.pictures", which is no module: a preload that fails to import is skipped silently).
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self._close_alive()
            self._alive = context.Pipe(duplex=False)
            self._prepared = set()
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=context, initializer=start_worker, initargs=(self._alive[0],)
            )
        return self._pool

    def prepare(self, game: AnyGame) -> None:
        """Have a worker build what the pictures of ``game``'s board will need (:func:`prepare_board`), once per
        board and pool, without waiting for it: queued behind the pictures asked for so far."""
        board = json.dumps([game.info.id, game.options], sort_keys=True, default=str)
        pool = self._pool
        if pool is None or board in self._prepared or game.turn_in_progress():
            return
        self._prepared.add(board)
        try:
            future = pool.submit(prepare_board, game.to_json())
        except (BrokenProcessPool, RuntimeError):  # broken or shut down: the next pool's first picture asks again
            return
        future.add_done_callback(_unless_failed)

    async def run(self, function: Callable[..., T], *args: Any) -> T | None:
        """``function(*args)`` in a worker; None if the pool broke (a worker died), which is then replaced."""
        pool = self.executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            log.warning("a picture worker died; starting a new pool and drawing this picture on a thread")
            if self._pool is pool:
                self._pool, self._warming, self.ready = None, None, False
            pool.shutdown(wait=False, cancel_futures=True)
            return None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._warming, self.ready = None, False
        self._close_alive()

    def _close_alive(self) -> None:
        if self._alive is not None:
            for end in self._alive:
                end.close()
            self._alive = None


def _unless_failed(future: Future[Any]) -> None:
    """A board prepared ahead that failed costs only time (its first picture builds it): said, not raised."""
    if not future.cancelled() and future.exception() is not None:
        log.info("a picture worker could not prepare a board ahead (%r)", future.exception())


class Pictures:
    """Draws board pictures in ``processes`` worker processes (0: on a thread), and GIF replays apart.

    A replay takes seconds for a long match: it has its own single worker (a single thread when
    ``processes`` is 0), so it never holds up a turn's board, and at most one is drawn at a time.
    """

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._boards = _Workers(processes)
        self._replays = _Workers(1)

    @property
    def _pool(self) -> ProcessPoolExecutor | None:  # the boards' pool, for tests
        return self._boards._pool

    def start(self) -> None:
        """Start the board workers in the background. Until one is ready (started, palettes built: about
        a second, longer on a busy machine) boards are drawn on a thread, so no board after a (re)start
        waits for the workers."""
        if self.processes > 0:
            self._boards.warm()

    async def warm_up_here(self) -> None:
        """Build the palettes in this process too (on a thread): its first picture would take ~0.4 s otherwise."""
        await asyncio.to_thread(warm_up)

    async def ready(self) -> None:
        """Start the board workers and wait until one is ready (tests)."""
        if self.processes > 0:
            await asyncio.wrap_future(self._boards.warm())

    async def png(
        self,
        game: AnyGame,
        *,
        player_names: Sequence[str],
        last_events: Sequence[Event] = (),
        title: str | None = None,
        zoom: str | None = None,
    ) -> bytes:
        if self.processes > 0 and not self._boards.ready:
            self._boards.warm()
            self._boards.prepare(game)  # the worker prepares this board once started
        elif self.processes > 0 and not game.turn_in_progress():
            drawn = await self._boards.run(
                draw_state,
                game.to_json(),
                list(player_names),
                [e.to_json() for e in last_events],
                title,
                zoom,
                current(),
            )
            if drawn is not None:
                # after this picture, not before it: later ones of this board (the winning one) find it built
                self._boards.prepare(game)
                return drawn
        # asyncio.to_thread copies the context: the thread speaks the asker's language.
        return await asyncio.to_thread(
            render_png, game, player_names=list(player_names), last_events=list(last_events), title=title, zoom=zoom
        )

    async def gif(
        self,
        frames: Sequence[tuple[AnyGame, Sequence[Event]]],
        *,
        player_names: Sequence[str],
        title: str | None = None,
    ) -> bytes:
        """An animated replay, one frame per (position after a logged move, that move's events)."""
        if self.processes > 0:
            documents = [(game.to_json(), [e.to_json() for e in events]) for game, events in frames]
            drawn = await self._replays.run(draw_replay, documents, list(player_names), title, current())
            if drawn is not None:
                return drawn
        draw = functools.partial(_replay_here, list(frames), list(player_names), title, current())
        return await asyncio.get_running_loop().run_in_executor(_REPLAY_THREAD, draw)

    def close(self) -> None:
        self._boards.close()
        self._replays.close()
