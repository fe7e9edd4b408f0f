"""The composition root: builds the store, the services and the chat client, wires them, and runs the bot.

The one place that knows every part: each part takes what it needs in its constructor, and who listens to
whom (the computer player and the ratings to stored changes) is decided here, so no part reaches into another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.review import ReviewBudget
from ai.worker import Thinker

from .chat.announce import Announcer
from .chat.client import Background, HexplayBot, point_client_at
from .chat.context import Chat
from .chat.features import (
    activity,
    community,
    info,
    lobby,
    moves,
    offers,
    premoves,
    puzzles,
    reminders,
    review,
    timelimits,
    tournaments,
)
from .chat.features import settings as settings_feature
from .chat.features.board import board_view
from .chat.homes import MatchHomes
from .chat.launcher import GuildMembers, api_base, serves_activity
from .chat.opening import MatchOpening
from .chat.pacing import LocalRequestBudget, SharedRequestBudget
from .chat.relay import BoardRelay
from .config import Settings
from .domain.clock import Clock, OffsetFileClock
from .domain.errors import StoreUnavailable
from .jobs import queue
from .jobs.notices import CHANGED, HINTS, STORED, MovePublisher, Notices
from .observe import health
from .observe.metrics import BotMetrics
from .observe.server import MetricsServer, Refresh
from .service.challenges import ChallengeRefusals
from .service.computer import ComputerPlayer
from .service.daily_puzzles import DailyPuzzles
from .service.events import MatchEvents
from .service.guilds import Guilds
from .service.launches import Launches
from .service.matches import MatchService
from .service.offers import Offers
from .service.pictures import Pictures
from .service.puzzles import Puzzles
from .service.ratings import Ratings
from .service.review import Reviews
from .service.timelimits import TimeLimits
from .service.tournaments import Tournaments
from .store import is_postgres, open_store, sqlite_path
from .store.base import Store
from .store.postgres import PostgresStore
from .store.sqlite import ProcessLock
from .web.access import Access
from .web.identity import DiscordOAuth
from .web.live import LiveHub
from .web.server import ActivityServer

PAGE_DIR = Path(__file__).resolve().parent.parent / "activity" / "dist"  # the Activity's built page (activity/)

PUZZLE_SEARCH_SECONDS = 300.0  # how often finished matches are searched for puzzles (a few each time)


def build_bot(
    settings: Settings,
    store: Store,
    clock: Clock | None = None,
    thinker: Thinker | None = None,
    jobs: queue.JobQueue | None = None,
    **options: Any,
) -> HexplayBot:
    """The bot and everything it serves, over an open store (tests and benchmarks build it the same way).

    With ``jobs`` (PostgreSQL, as ``run`` does) computer turns and hints go to the workers' queue, and the
    boards of the turns they store come back through a relay; without, the bot thinks in ``thinker``.
    With ``settings.metrics_port`` the bot serves /healthz and /metrics (:func:`metrics_server`).
    """
    metrics = BotMetrics(job_kinds=(queue.TURN, queue.HINT, queue.REVIEW, queue.PUZZLE) if jobs is not None else ())
    events = MatchEvents()
    events.on_move(metrics.move_stored)  # turns stored, by game and by who played them
    service = MatchService(
        store,
        clock,
        default_reminder_hours=settings.reminder_hours,
        pictures=Pictures(settings.render_processes),
        events=events,
    )
    offer_service = Offers(service)
    ratings = Ratings(service)
    guilds = Guilds(service)
    options.setdefault("identify_pacing", store.pace_identify)
    bot = HexplayBot(settings, **options)
    # every board carries Open board when this bot serves an Activity (known once logged in: the EMBEDDED flag)
    announcer = Announcer(
        bot, service, MatchHomes(bot), view_for=lambda outcome: board_view(outcome, serves_activity(bot, settings))
    )
    computer = ComputerPlayer(
        service,
        offer_service,
        thinker or Thinker(settings.computer_processes, start_method="spawn"),
        announce=announcer.announce_in_home,
        jobs=jobs,
    )  # its turns are posted as a person's are (a worker's by the relay below)
    events.on_change(computer.changed)  # is the computer to move now?
    # post-game reviews go where /hint does: the computer's pool here, or the workers' queue
    reviews = Reviews(service, computer.thinker, ReviewBudget(settings.review_simulations), jobs=jobs)
    events.on_finish(ratings.settle)  # a game ended: rate it (again at start-up, for any missed)
    chat = Chat(
        settings=settings,
        service=service,
        offers=offer_service,
        timelimits=TimeLimits(service, settings.vacation_days),
        ratings=ratings,
        guilds=guilds,
        challenges=ChallengeRefusals(store, service.clock),
        computer=computer,
        reviews=reviews,
        announcer=announcer,
        opening=MatchOpening(bot, service, guilds, announcer),
        # several processes share one PostgreSQL database and one token: Discord's global limit counts them together
        budget=SharedRequestBudget(store) if store.shared else LocalRequestBudget(),
        tournaments=Tournaments(service),
        tally=metrics,
    )
    # puzzles are searched in a pool of their own at low priority (a computer's turn never waits behind a proof),
    # or, with workers, by them: jobs of the lowest priority, and this process starts no puzzle pool at all
    puzzle_pool = Thinker(1, start_method="spawn", niceness=10) if jobs is None else None
    puzzle_service = (
        Puzzles(service, puzzle_pool.find_puzzle, puzzle_pool.self_play_puzzles)
        if puzzle_pool is not None
        else Puzzles(service, None, jobs=jobs)
    )
    daily_puzzles = DailyPuzzles(puzzle_service)
    desk = tournaments.TournamentDesk(bot, chat)
    events.on_finish(desk.match_finished)  # a tournament's game ended: its next round may start
    cogs = [
        lobby.LobbyCog(chat),
        moves.MovesCog(chat),
        premoves.PremovesCog(chat),
        offers.OffersCog(chat),
        info.InfoCog(chat, puzzle_service),
        settings_feature.SettingsCog(chat),
        timelimits.TimeLimitsCog(chat),
        community.CommunityCog(chat, bot.tree, daily_puzzles),
        tournaments.TournamentCog(chat, desk),
        review.ReviewCog(chat),
        puzzles.PuzzleCog(chat, puzzle_service, daily_puzzles),
        activity.ActivityCog(chat, launches := Launches()),
    ]
    items = [
        *lobby.ITEMS,
        *moves.ITEMS,
        *offers.ITEMS,
        *timelimits.ITEMS,
        *reminders.ITEMS,
        *info.ITEMS,
        *tournaments.ITEMS,
        *review.ITEMS,
        *puzzles.ITEMS,
        *activity.ITEMS,
    ]
    # every process catches up what a stop left unsaid (boards, conditional moves), beating all along
    relay = BoardRelay(bot, service, announcer)
    duties: list[Background] = [
        tournaments.TournamentLoop(bot, desk, settings.reminder_check_seconds),
        timelimits.Heartbeat(chat),
        relay,
        puzzles.PuzzleSearchLoop(
            bot, puzzle_service, PUZZLE_SEARCH_SECONDS, close=puzzle_pool.close if puzzle_pool else lambda: None
        ),
        puzzles.DailyPuzzleLoop(bot, chat, daily_puzzles, settings.reminder_check_seconds),
    ]
    hub = activity_hub(settings, service, events, store)
    if jobs is not None:  # the workers' turns are stored without Discord: a bot posts their boards
        listen: dict[str, Callable[[str], Any]] = {STORED: relay.stored, HINTS: jobs.hint_answered}
        if hub is not None:  # the Activity's pages hear of every stored move, whichever process stored it
            listen.update({STORED: both(relay.stored, hub.notice), CHANGED: hub.notice})
        duties.append(Notices(settings.database, listen, on_reconnect=relay.look_soon))
    if hub is not None and settings.activity_port is not None:
        access = Access(
            service,
            offer_service,
            DiscordOAuth(api_base, lambda: bot.application_id, settings.client_secret),
            GuildMembers(bot),
            activity.ActivityEffects(bot, chat),
            launches,
        )
        page = Path(settings.activity_page) if settings.activity_page else PAGE_DIR
        duties.append(
            ActivityServer(
                access,
                hub,
                host=settings.activity_host,
                port=settings.activity_port,
                page_dir=page,
                inherited_fd=settings.activity_socket_fd,
            )
        )
    if settings.metrics_port is not None:
        duties.append(observed(bot, store, metrics, jobs, settings.metrics_port, settings.metrics_host))
    bot.serve(chat, cogs, items, reminders.ReminderLoop(bot, chat, tell_paused=chat.opening.tell_paused), duties)
    return bot


def both(first: Callable[[str], None], second: Callable[[str], None]) -> Callable[[str], None]:
    def each(payload: str) -> None:
        first(payload)
        second(payload)

    return each


def activity_hub(settings: Settings, service: MatchService, events: MatchEvents, store: Store) -> LiveHub | None:
    """The Activity's live updates: this process's stored moves at once, other processes' by NOTIFY."""
    if settings.activity_port is None:
        return None

    async def versions(match_ids: list[int]) -> dict[int, int]:
        rows = [await service.read(match_id) for match_id in match_ids]
        return {row.id: row.version for row in rows if row is not None}

    hub = LiveHub(versions)
    events.on_move(lambda match, move: hub.changed(match.id, match.version))
    if isinstance(store, PostgresStore):
        events.on_move(MovePublisher(store.pool).moved)
    return hub


def activity_server(bot: HexplayBot) -> ActivityServer | None:
    """The Activity's web server, if its settings ask for one (started early by ``run``; tests read its port)."""
    return next((duty for duty in bot.duties if isinstance(duty, ActivityServer)), None)


def observed(
    bot: HexplayBot, store: Store, metrics: BotMetrics, jobs: queue.JobQueue | None, port: int, host: str
) -> MetricsServer:
    """The bot's /healthz (every shard connected, the database answering) and /metrics (its registry, with
    the gateway's latency per shard and, on PostgreSQL, the queue's depth read at each scrape)."""

    async def latencies() -> None:
        metrics.gateway_latencies(bot.shard_latencies())

    refreshers: list[Refresh] = [latencies]
    if jobs is not None:

        async def depth() -> None:
            metrics.queue_depth(await jobs.depth())

        refreshers.append(depth)
    checks = [health.known(bot.gateway_problem), health.database(store.ping)]
    return MetricsServer(port, metrics.registry, checks, refreshers, role="bot", host=host)


def metrics_server(bot: HexplayBot) -> MetricsServer | None:
    """The bot's health and metrics server, if its settings ask for one (started early by ``run``; tests
    read its port)."""
    return next((duty for duty in bot.duties if isinstance(duty, MetricsServer)), None)


async def run(config: Settings) -> None:
    """Run the bot until it is stopped (Ctrl-C, SIGTERM). A SQLite file serves one process, held by a lock
    file; a PostgreSQL database serves many, and nothing in one process guards it."""
    point_client_at(config.api_base_url, config.gateway_url)
    lock = None if is_postgres(config.database) else ProcessLock(sqlite_path(config.database))
    if lock is not None:
        lock.acquire()  # before opening: a second process must not even migrate the file
    try:
        store = await open_store(config.database, pool_size=config.pool_size, statement_cache=config.statement_cache)
        try:
            clock = OffsetFileClock(config.clock_offset_file) if config.clock_offset_file else None
            jobs = None
            if isinstance(store, PostgresStore):  # several processes: computer turns go to the workers
                await queue.install(store.pool)
                jobs = queue.JobQueue(store.pool)
            bot = build_bot(config, store, clock, jobs=jobs)
            server = metrics_server(bot)
            if server is not None:  # before connecting: a port in use stops the start with one line
                await server.start()
            web = activity_server(bot)
            if web is not None:
                await web.start()
            _stop_on_sigterm()
            found: list[str] = []
            damage = asyncio.ensure_future(_stop_if_damaged(store, bot, found))
            try:
                async with bot:
                    await bot.start(config.token)
            finally:  # the bot's close stopped the server, unless the bot never got that far (a refused token)
                damage.cancel()
                if server is not None:
                    await server.stop()
            if found:
                raise StoreUnavailable(found[0])
        finally:
            await store.close()
    finally:
        if lock is not None:
            lock.release()


async def _stop_if_damaged(store: Store, bot: HexplayBot, found: list[str]) -> None:
    """A large SQLite file's integrity check finishes after the start: on damage, stop as a refusal would; rows
    that only break a constraint set their matches and events aside (as the check at open does)."""
    problem = await store.damage()
    if problem is None:
        while not bot.is_ready():  # start-up's own look at what was set aside comes first
            await asyncio.sleep(0.1)
        if bot.breaches_pending:
            await bot.recheck_set_aside(await store.constraint_breaches() or [])
            await bot.chat.opening.tell_paused()
        return
    found.append(problem)
    logging.getLogger(__name__).critical("stopping: %s", problem)
    while not bot.is_ready():  # a client closed while it logs in goes on with a closed session
        await asyncio.sleep(0.1)
    await bot.close()


def _stop_on_sigterm() -> None:
    """A service manager's SIGTERM stops the bot as Ctrl-C does: the work in flight finishes first."""
    task = asyncio.current_task()
    if task is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on this platform or thread: exit stays
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
