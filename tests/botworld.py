"""The real bot, driven through the loopback Discord emulator (tests and benchmarks)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from pathlib import Path

from bot.chat.client import HexplayBot, point_client_at
from bot.config import Settings
from bot.domain.clock import Clock, ManualClock
from bot.domain.seats import game_of, user_to_move
from bot.jobs import queue
from bot.runtime import activity_server, build_bot, metrics_server
from bot.store import Store, open_store
from bot.store.postgres import PostgresStore
from emulator import DiscordEmulator

TOKEN = "test-token"


class BotWorld:
    """An emulator with one server, a #games channel and four users, and the bot connected to it."""

    def __init__(
        self,
        db_path: Path | str,
        clock: Clock | None = None,
        users: int = 4,
        jobs: bool = False,
        metrics_port: int | None = None,
        review_simulations: int | None = None,
        guild_locale: str = "en-US",
        activity: bool = False,
        global_commands: bool = False,
        render_processes: int = 0,
    ) -> None:
        self.db_path = db_path
        self.jobs = jobs  # PostgreSQL: computer turns and hints go to the workers' queue, as `python -m bot` does
        self.metrics_port = metrics_port  # /healthz and /metrics (0: any free port: see metrics_url)
        self.review_simulations = review_simulations  # a post-game review's search per position (None: the bot's)
        self.clock = clock or ManualClock()
        self.guild_locale = guild_locale  # the server's preferred_locale ("fr": a French community)
        self.emu = DiscordEmulator(bot_token=TOKEN)
        self.activity = activity  # the app has Activities enabled and the bot serves one (docs/activity.md)
        self.global_commands = global_commands  # sync the commands globally, as in production (not to the server)
        self.render_processes = render_processes  # picture workers (python -m bot has 1; tests draw on a thread)
        self.user_count = users
        self.bot: HexplayBot | None = None
        self.store: Store | None = None
        self._task: asyncio.Task | None = None

    async def start(self) -> BotWorld:
        await self.emu.start()
        point_client_at(self.emu.api_base_url, self.emu.gateway_url)
        self.guild = self.emu.create_guild("Test Server", locale=self.guild_locale)
        self.channel = self.emu.create_text_channel(self.guild, "games")
        names = ["alice", "bob", "carol", "dave"] + [f"player{i}" for i in range(5, self.user_count + 1)]
        self.users = [self.emu.create_user(n) for n in names[: self.user_count]]
        if self.activity:
            self.emu.enable_activities()  # as the developer portal's switch: the default Entry Point too
        await self.start_bot()
        # Ready comes before on_ready's catch-up is done, and this world's clock stands still: a match a test
        # makes before the first start's catch-up has looked would count as missed by the start and be opened by
        # it (under load, its reminder pings went to a thread instead of #games). So a test begins once that
        # catch-up is done. A restart (start_bot) does not wait: its tests watch what its catch-up posts.
        await asyncio.wait_for(self.bot.caught_up.wait(), 15)
        return self

    async def start_bot(self) -> HexplayBot:
        settings = Settings(
            token=TOKEN,
            db_path=str(self.db_path),
            dev_guild_ids=[] if self.global_commands else [self.guild.id],
            reminder_check_seconds=3600,
            metrics_port=self.metrics_port,
            render_processes=self.render_processes,
            # the emulator paces an unsharded session only when asked (ShardingRules.pace_unsharded), as these
            # tests restart a bot within Discord's 5 s all the time; the pacing itself: test_identify_pacing.py
            identify_seconds=0.0 if not self.emu.sharding.pace_unsharded else self.emu.sharding.identify_interval,
        )
        if self.activity:  # any free port on loopback; the emulator's client secret
            settings = dataclasses.replace(settings, activity_port=0, client_secret=self.emu.client_secret)
        if self.review_simulations is not None:
            settings = dataclasses.replace(settings, review_simulations=self.review_simulations)
        self.store = await open_store(str(self.db_path))
        job_queue = None
        if self.jobs:
            assert isinstance(self.store, PostgresStore), "the job queue is PostgreSQL's"
            await queue.install(self.store.pool)
            job_queue = queue.JobQueue(self.store.pool)
        self.bot = build_bot(settings, self.store, self.clock, jobs=job_queue, guild_ready_timeout=0.05)
        self._task = asyncio.create_task(self.bot.start(TOKEN))
        await self.emu.wait_until_ready(timeout=15)
        await asyncio.wait_for(self.bot.wait_until_ready(), 15)
        return self.bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 10)
        if self.store is not None:
            await self.store.close()
        self.bot = self.store = self._task = None

    async def restart_bot(self) -> HexplayBot:
        await self.stop_bot()
        return await self.start_bot()

    async def stop(self) -> None:
        await self.stop_bot()
        await self.emu.stop()

    async def metrics_url(self) -> str:
        """http://127.0.0.1:PORT of the bot's health and metrics server (BotWorld(..., metrics_port=0))."""
        assert self.bot is not None
        server = metrics_server(self.bot)
        assert server is not None, "BotWorld(..., metrics_port=0) serves /healthz and /metrics"
        return f"http://127.0.0.1:{await server.start()}"

    async def activity_url(self) -> str:
        """http://127.0.0.1:PORT of the bot's Activity server (BotWorld(..., activity=True))."""
        assert self.bot is not None
        server = activity_server(self.bot)
        assert server is not None, "BotWorld(..., activity=True) serves the Activity"
        return f"http://127.0.0.1:{await server.start()}"

    @property
    def service(self):
        assert self.bot is not None
        return self.bot.chat.service

    # -- acting as users ------------------------------------------------------------

    def add_user(self, name: str, *, locale: str = "en-US"):
        """One more member of the server; ``locale="fr"``: their Discord speaks French (the interactions'
        ``locale``, and the command names they see and type: ``emu.invoke(user, channel, "jouer", {"jeu": …})``)."""
        user = self.emu.create_user(name, locale=locale)
        self.users.append(user)
        return user

    def commands_seen_by(self, user) -> list[dict]:
        """The slash commands as ``user`` sees them in #games, in their locale (names, descriptions, options)."""
        return self.emu.command_list(user, self.channel)

    async def challenge(self, creator, opponents=(), game="bide", **options):
        params = {"game": game, **options}
        for i, opponent in enumerate(opponents):
            params["opponent" if i == 0 else f"opponent{i + 1}"] = opponent
        return await self.emu.invoke(creator, self.channel, "play", params)

    async def start_two_player(self, game="bide", options=None, a=0, b=1):
        """alice challenges bob, bob accepts: returns (match_id, thread)."""
        extra = {"options": options} if options else {}
        lobby = await self.challenge(self.users[a], [self.users[b]], game=game, **extra)
        message = lobby.response
        accept = next(b_ for b_ in message.buttons() if b_["label"] == "Accept")
        result = await self.emu.press(self.users[b], message, accept["custom_id"])
        assert not result.ephemeral, result.text
        match_id = int(accept["custom_id"].rsplit(":", 1)[1])
        return match_id, await self.wait_thread(match_id)

    async def wait_thread(self, match_id: int | None = None, timeout: float = 5.0):
        """The thread of a started match (the latest one when no id is given), once its board is posted."""

        async def first_board():
            while True:
                if match_id is not None:
                    match = await self.service.get(match_id)
                    candidates = [self.emu.channel(match.thread_id)] if match.board_message_id else []
                else:
                    candidates = list(reversed(self.emu.threads(self.channel)))
                for thread in candidates:
                    if any(m.attachments for m in self.emu.messages(thread)):
                        return thread
                await asyncio.sleep(0.01)

        return await asyncio.wait_for(first_board(), timeout)

    async def game(self, match_id: int):
        return game_of(await self.service.get(match_id))

    async def user_to_move(self, match_id: int):
        match = await self.service.get(match_id)
        game = game_of(match)
        user_id = user_to_move(match, game)
        return next((u for u in self.users if u.id == user_id), None)
