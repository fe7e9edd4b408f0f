"""The emulator's gateway follows Discord's sharding rules (emulator/sharding.py, docs/emulator.md).

Real discord.py clients (``AutoShardedClient``, one holding both shards or two holding one
each, as two processes would) show what a bot sees; raw websockets show the exact frames and
close codes. Intervals are shrunk (Discord: 5 s) so the tests stay fast.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from emulator import DiscordEmulator, EmulatorError, ShardingRules, patch_discord
from emulator.gateway import GatewaySession
from emulator.models import Guild
from emulator.sharding import Shard, parse_shard

TOKEN = "test-token"
INTERVAL = 0.3  # the identify interval in these tests (Discord: 5 s)


class ShardBot:
    """A real AutoShardedClient (``await bot.start(shards)`` … ``await bot.stop()``) whose
    ``/where`` answers with ``label``, so a test sees which client an interaction reached.

    ``pacing`` is its before_identify_hook: ``"discord.py"`` waits the interval before every
    IDENTIFY but its first (discord.py's own rule, 5 s there); ``"second process"`` waits before
    every one (another process identified just before); ``"hasty"`` sends each shard's first
    IDENTIFY at once and waits only before retrying.
    """

    def __init__(
        self,
        emu: DiscordEmulator,
        label: str,
        *,
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        pacing: str = "discord.py",
    ) -> None:
        self.emu, self.label, self.pacing = emu, label, pacing
        options: dict[str, Any] = {} if shard_ids is None else {"shard_ids": shard_ids}
        self.client = discord.AutoShardedClient(
            intents=discord.Intents.default(), guild_ready_timeout=0.1, shard_count=shard_count, **options
        )
        self.tree = app_commands.CommandTree(self.client)
        self.client.setup_hook = self.tree.sync  # type: ignore[method-assign,assignment]
        self.client.before_identify_hook = self._before_identify  # type: ignore[method-assign]
        self.attempts: dict[int | None, int] = {}
        self._task: asyncio.Task[None] | None = None

        @self.tree.command(description="Say which client answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(self.label)

    async def _before_identify(self, shard_id: int | None, *, initial: bool = False) -> None:
        attempt = self.attempts[shard_id] = self.attempts.get(shard_id, 0) + 1
        if self.pacing == "hasty" and attempt == 1:
            return
        if self.pacing == "discord.py" and initial:
            return
        # A little over the interval: the emulator times an IDENTIFY when it reads it, a moment
        # after the client sent it (Discord's is strict too; discord.py's 5 s has seconds of slack).
        await asyncio.sleep(self.emu.sharding.identify_interval + 0.05)

    async def start(self, shards: Iterable[Shard]) -> None:
        """Start the client and wait until each of ``shards`` is ready (or the client fails)."""
        self._task = asyncio.create_task(self.client.start(TOKEN))
        for shard in shards:
            ready = asyncio.create_task(self.emu.wait_until_ready(timeout=5, shard=shard))
            done, _ = await asyncio.wait({self._task, ready}, return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                self._task.result()
                raise AssertionError(f"{self.label} stopped before shard {list(shard)} was ready")
            ready.result()

    async def stop(self) -> None:
        await self.client.close()
        if self._task is not None:
            await self._task

    def guild_ids(self) -> set[int]:
        return {guild.id for guild in self.client.guilds}


class RawSession:
    """A bare websocket to the emulator's gateway: one IDENTIFY, then its answer as sent."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self._http = aiohttp.ClientSession()
        self.socket: aiohttp.ClientWebSocketResponse | None = None

    async def identify(self, shard: Any = None, *, token: str = TOKEN) -> dict[str, Any] | int:
        """READY's data or the op 9 frame (a dict), or the close code (an int)."""
        self.socket = await self._http.ws_connect(self.emu.gateway_url)
        assert (await self.socket.receive_json())["op"] == 10
        payload: dict[str, Any] = {
            "token": token,
            "intents": 1,
            "properties": {"os": "x", "browser": "x", "device": "x"},
        }
        if shard is not None:
            payload["shard"] = shard
        await self.socket.send_json({"op": 2, "d": payload})
        return await self.answer()

    async def answer(self, timeout: float = 3.0) -> dict[str, Any] | int:
        """The next READY or op 9 frame, or the close code; fails after ``timeout`` seconds of neither."""
        assert self.socket is not None
        async with asyncio.timeout(timeout):
            async for message in self.socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = message.json()
                if frame["op"] == 9:
                    return dict(frame)
                if frame["op"] == 0 and frame["t"] == "READY":
                    return dict(frame["d"])
        assert self.socket.close_code is not None
        return self.socket.close_code

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self._http.close()


@pytest.fixture
async def emu():
    rules = ShardingRules(identify_interval=INTERVAL)
    async with DiscordEmulator(bot_token=TOKEN, sharding=rules) as emulator:
        patch_discord(emulator.api_base_url, emulator.gateway_url)
        yield emulator


@pytest.fixture
async def raw(emu: DiscordEmulator):
    """``raw()`` makes a RawSession; all are closed after the test."""
    opened: list[RawSession] = []

    def open_session() -> RawSession:
        opened.append(RawSession(emu))
        return opened[-1]

    yield open_session
    for session in opened:
        await session.close()


async def eventually(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    """Poll ``predicate`` (for state that lives in the client, which the emulator cannot signal)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def two_shard_world(emu: DiscordEmulator) -> SimpleNamespace:
    """Two guilds on each shard of 2, a #games channel in each, and alice in all of them."""
    guilds = [emu.create_guild(f"guild {n}", shard=(n % 2, 2)) for n in range(4)]
    return SimpleNamespace(
        guilds=guilds,
        on={s: [g for g in guilds if emu.shard_of(g, 2) == s] for s in (0, 1)},
        games={g.id: emu.create_text_channel(g, "games") for g in guilds},
        alice=emu.create_user("alice"),
    )


def session_of(emu: DiscordEmulator, shard: Shard) -> GatewaySession:
    [session] = [s for s in emu.gateway.sessions.values() if s.shard == shard]
    return session


def ids(guilds: Iterable[Guild]) -> set[int]:
    return {guild.id for guild in guilds}


def guild_ids_in(session: GatewaySession, event: str) -> set[int]:
    return {int(data.get("guild_id") or data["id"]) for data in session.dispatched(event)}


# ------------------------------------------------------------------ routing


async def test_one_client_with_two_shards_gets_each_guild_on_its_shard(emu: DiscordEmulator) -> None:
    world = two_shard_world(emu)
    bot = ShardBot(emu, "A", shard_count=2)
    await bot.start([Shard(0, 2), Shard(1, 2)])
    try:
        assert bot.guild_ids() == ids(world.guilds)
        assert {g.id: g.shard_id for g in bot.client.guilds} == {g.id: emu.shard_of(g, 2) for g in world.guilds}
        for shard_id in (0, 1):
            session = session_of(emu, Shard(shard_id, 2))
            [ready] = session.dispatched("READY")
            assert ready["shard"] == [shard_id, 2]
            assert {int(g["id"]) for g in ready["guilds"]} == ids(world.on[shard_id])
            assert guild_ids_in(session, "GUILD_CREATE") == ids(world.on[shard_id])
        infos = emu.gateway_sessions()
        assert sorted((i.shard_id, i.shard_count, i.ready) for i in infos) == [(0, 2, True), (1, 2, True)]
    finally:
        await bot.stop()
    assert emu.violations == []


async def test_later_guild_channel_and_message_events_go_to_their_shard_only(emu: DiscordEmulator) -> None:
    world = two_shard_world(emu)
    bot = ShardBot(emu, "A", shard_count=2)
    await bot.start([Shard(0, 2), Shard(1, 2)])
    try:
        late = emu.create_guild("late", shard=(1, 2))
        channel = emu.create_text_channel(world.on[0][0], "more")
        await emu.user_message(world.alice, world.games[world.on[1][1].id], "hello shard 1")
        await emu.user_message(world.alice, emu.dm_channel(world.alice), "hello DM")
        shard0, shard1 = session_of(emu, Shard(0, 2)), session_of(emu, Shard(1, 2))
        assert late.id in guild_ids_in(shard1, "GUILD_CREATE") and late.id not in guild_ids_in(shard0, "GUILD_CREATE")
        assert [c["id"] for c in shard0.dispatched("CHANNEL_CREATE")] == [str(channel.id)]
        assert shard1.dispatched("CHANNEL_CREATE") == []
        # DMs (no guild) go to shard 0 only.
        assert [m["content"] for m in shard0.dispatched("MESSAGE_CREATE")] == ["hello DM"]
        assert [m["content"] for m in shard1.dispatched("MESSAGE_CREATE")] == [""]  # no MESSAGE_CONTENT intent
        await eventually(lambda: bot.client.get_guild(late.id) is not None)
    finally:
        await bot.stop()
    assert emu.violations == []


@pytest.fixture
async def split(emu: DiscordEmulator):
    """Two clients as two processes would run them: A holds shard 0 of 2, B shard 1 of 2."""
    world = two_shard_world(emu)
    a = ShardBot(emu, "A", shard_count=2, shard_ids=[0])
    b = ShardBot(emu, "B", shard_count=2, shard_ids=[1], pacing="second process")
    await a.start([Shard(0, 2)])
    await b.start([Shard(1, 2)])
    yield SimpleNamespace(a=a, b=b, **vars(world))
    await b.stop()
    await a.stop()


async def test_each_client_gets_only_its_shards_guilds(emu: DiscordEmulator, split: SimpleNamespace) -> None:
    assert split.a.guild_ids() == ids(split.on[0]) and split.b.guild_ids() == ids(split.on[1])
    assert len(emu.gateway_sessions()) == 2
    assert emu.violations == []


async def test_a_guild_interaction_reaches_the_client_holding_its_shard(
    emu: DiscordEmulator, split: SimpleNamespace
) -> None:
    for shard_id, label in ((0, "A"), (1, "B")):
        for guild in split.on[shard_id]:
            result = await emu.invoke(split.alice, split.games[guild.id], "where")
            assert result.text == label
    assert emu.violations == []


async def test_a_dm_interaction_reaches_shard_zero(emu: DiscordEmulator, split: SimpleNamespace) -> None:
    result = await emu.invoke(split.alice, emu.dm_channel(split.alice), "where")
    assert result.text == "A"
    assert len(session_of(emu, Shard(0, 2)).dispatched("INTERACTION_CREATE")) == 1
    assert session_of(emu, Shard(1, 2)).dispatched("INTERACTION_CREATE") == []
    assert emu.violations == []


async def test_rest_is_not_sharded(emu: DiscordEmulator, split: SimpleNamespace) -> None:
    """B holds no shard-0 guild, yet posts into one: REST calls reach any channel."""
    channel = split.games[split.on[0][0].id]
    assert split.b.client.get_channel(channel.id) is None
    await split.b.client.get_partial_messageable(channel.id).send("from shard 1")
    assert [m.content for m in emu.messages(channel)] == ["from shard 1"]
    assert emu.violations == []


async def test_interactions_wait_for_the_shard_that_holds_the_guild(emu: DiscordEmulator) -> None:
    world = two_shard_world(emu)
    a = ShardBot(emu, "A", shard_count=2, shard_ids=[0])
    await a.start([Shard(0, 2)])
    try:
        with pytest.raises(EmulatorError, match="no bot is connected"):
            await emu.invoke(world.alice, world.games[world.on[1][0].id], "where", timeout=0.3)
        assert (await emu.invoke(world.alice, world.games[world.on[0][0].id], "where")).text == "A"
    finally:
        await a.stop()


# ------------------------------------------------------------- validation


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [1], [0, 1, 2], "0", [True, 2], [0, "2"]])
async def test_an_invalid_shard_closes_4010(emu: DiscordEmulator, raw: Any, shard: Any) -> None:
    assert await raw().identify(shard) == 4010
    assert emu.gateway_sessions() == []


async def test_discord_py_with_a_shard_beyond_its_count_stops_with_4010(emu: DiscordEmulator) -> None:
    client = discord.Client(intents=discord.Intents.default(), shard_id=2, shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start(TOKEN), 5)
    assert closed.value.code == 4010
    await client.close()


async def test_too_many_guilds_for_the_shard_count_closes_4011(emu: DiscordEmulator, raw: Any) -> None:
    emu.sharding.max_guilds_per_shard = 2
    for n in range(3):
        emu.create_guild(f"g{n}", shard=(n % 2, 2))  # shard 0 of 2 holds 2, shard 1 holds 1
    unsharded = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(unsharded.start(TOKEN), 5)  # one session for 3 guilds
    assert closed.value.code == 4011
    await unsharded.close()
    bot = ShardBot(emu, "A", shard_count=2)
    await bot.start([Shard(0, 2), Shard(1, 2)])
    await bot.stop()
    # The maximum is per session: a third guild on shard 0 overfills it, shard 1 is still fine.
    emu.create_guild("g3", shard=(0, 2))
    emu.sharding.identify_interval = 0  # (the bot's shards just identified)
    assert await raw().identify([0, 2]) == 4011
    ready = await raw().identify([1, 2])
    assert isinstance(ready, dict) and ready["shard"] == [1, 2] and len(ready["guilds"]) == 1
    assert emu.violations == []


def test_shard_rules_are_discords() -> None:
    rules = ShardingRules()
    assert (rules.max_guilds_per_shard, rules.max_concurrency, rules.identify_interval) == (2500, 1, 5.0)
    assert (rules.session_start_total, rules.session_start_period) == (1000, 86400.0)
    assert [rules.recommended(n) for n in (0, 1, 1000, 1001, 2500)] == [1, 1, 1, 2, 3]
    assert ShardingRules(recommended_shards=7).recommended(10) == 7
    assert parse_shard(None) == Shard(0, 1) and parse_shard([3, 4]) == Shard(3, 4)
    assert [rules.bucket(Shard(n, 4)) for n in range(4)] == [0, 0, 0, 0]
    assert [ShardingRules(max_concurrency=2).bucket(Shard(n, 4)) for n in range(4)] == [0, 1, 0, 1]


async def test_guild_ids_are_snowflakes_spread_over_shards(emu: DiscordEmulator) -> None:
    burst = [emu.create_guild(f"g{n}") for n in range(6)]
    milliseconds = [guild.id >> 22 for guild in burst]
    assert milliseconds == sorted(set(milliseconds))  # one millisecond each, however fast they were made
    placed = [emu.create_guild(f"p{n}", shard=(n % 3, 3)) for n in range(6)]
    assert [emu.shard_of(guild, 3) for guild in placed] == [0, 1, 2, 0, 1, 2]
    assert [g.id for g in burst + placed] == sorted(g.id for g in burst + placed)


# ---------------------------------------------------------------- pacing


async def test_two_identifies_of_one_bucket_too_fast_are_refused(emu: DiscordEmulator) -> None:
    two_shard_world(emu)
    bot = ShardBot(emu, "A", shard_count=2, pacing="hasty")
    await bot.start([Shard(0, 2), Shard(1, 2)])  # shard 1 is refused once, then waits and gets in
    await bot.stop()
    [violation] = emu.violations
    assert violation.startswith("gateway: IDENTIFY of shard [1, 2]") and "op 9 Invalid Session" in violation
    assert "(1 % max_concurrency 1 = 0)" in violation and bot.attempts == {0: 1, 1: 2}


async def test_a_client_that_waits_the_interval_is_accepted(emu: DiscordEmulator) -> None:
    two_shard_world(emu)
    bot = ShardBot(emu, "A", shard_count=2, pacing="discord.py")
    await bot.start([Shard(0, 2), Shard(1, 2)])
    await bot.stop()
    assert emu.violations == [] and bot.attempts == {0: 1, 1: 1}


async def test_the_refusal_is_op_9_and_buckets_are_shard_id_mod_max_concurrency(emu: DiscordEmulator, raw: Any) -> None:
    emu.sharding.max_concurrency = 2
    assert isinstance(await raw().identify([0, 4]), dict)
    assert isinstance(await raw().identify([1, 4]), dict)  # bucket 1: at once
    await asyncio.sleep(0.6 * INTERVAL)
    assert await raw().identify([2, 4]) == {"op": 9, "d": False}  # bucket 0 again, too soon
    assert len(emu.violations) == 1 and "(2 % max_concurrency 2 = 0)" in emu.violations[0]
    # An interval after shard 0's start (not after the refusal, which started no session) it may.
    await asyncio.sleep(0.5 * INTERVAL)
    assert isinstance(await raw().identify([2, 4]), dict)
    assert [(i.shard_id, i.shard_count) for i in emu.gateway_sessions()] == [(0, 4), (1, 4), (2, 4)]


async def test_unsharded_identifies_are_paced_only_when_asked(emu: DiscordEmulator, raw: Any) -> None:
    """Discord paces them too; tests restart plain bots within 5 s, so it is opt-in."""
    assert isinstance(await raw().identify(), dict)
    assert isinstance(await raw().identify([0, 1]), dict)
    assert emu.violations == []
    emu.sharding.pace_unsharded = True
    assert await raw().identify() == {"op": 9, "d": False}
    assert len(emu.violations) == 1


# --------------------------------------------------------- session starts


async def gateway_bot(emu: DiscordEmulator, token: str = TOKEN) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bot {token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.get(emu.api_base_url + "/gateway/bot", headers=headers) as response,
    ):
        return response.status, await response.json()


async def test_gateway_bot_recommends_shards_and_counts_session_starts(emu: DiscordEmulator) -> None:
    emu.sharding.guilds_per_recommended_shard = 2
    emu.sharding.session_start_total = 10
    for n in range(5):
        emu.create_guild(f"g{n}")
    status, body = await gateway_bot(emu)
    assert status == 200 and body["url"] == emu.gateway_url and body["shards"] == 3  # ceil(5 / 2)
    assert body["session_start_limit"] == {"total": 10, "remaining": 10, "reset_after": 0, "max_concurrency": 1}
    bot = ShardBot(emu, "A")  # no shard_count: discord.py asks /gateway/bot
    await bot.start([Shard(n, 3) for n in range(3)])
    try:
        assert bot.client.shard_count == 3 and ("GET", "/gateway/bot") in emu.requests
        limits = await bot.client.fetch_session_start_limits()
        assert (limits.total, limits.remaining, limits.max_concurrency) == (10, 7, 1)
        assert 0 < limits.reset_after <= 86_400_000
    finally:
        await bot.stop()
    assert emu.violations == []


async def test_identifying_past_the_session_start_limit_resets_the_token(emu: DiscordEmulator, raw: Any) -> None:
    emu.sharding.session_start_total = 2
    emu.sharding.identify_interval = 0
    first, second = raw(), raw()
    assert isinstance(await first.identify(), dict) and isinstance(await second.identify([1, 2]), dict)
    assert (await gateway_bot(emu))[1]["session_start_limit"]["remaining"] == 0
    ends = [asyncio.create_task(session.answer()) for session in (first, second)]  # (clients keep reading)
    assert await raw().identify() == 4004
    # Every active session ends and the old token is dead, on the gateway and over REST.
    assert await asyncio.gather(*ends) == [4004, 4004]
    assert emu.bot_token != TOKEN and emu.gateway_sessions() == []
    assert (await gateway_bot(emu))[0] == 401
    assert await raw().identify() == 4004
    reset, unauthorized = emu.violations
    assert reset.startswith("gateway: IDENTIFY with no session starts left (2 per 86400 s)")
    assert unauthorized == "GET /gateway/bot: 401 0 401: Unauthorized"  # (the old token, over REST)
    # The new token starts a fresh count.
    status, body = await gateway_bot(emu, emu.bot_token)
    assert status == 200 and body["session_start_limit"]["remaining"] == 2
    assert isinstance(await raw().identify(token=emu.bot_token), dict)


async def test_refused_identifies_and_resumes_use_no_session_start(emu: DiscordEmulator, raw: Any) -> None:
    emu.sharding.session_start_total = 5
    assert await raw().identify([5, 2]) == 4010
    assert await raw().identify(token="wrong") == 4004
    assert (await gateway_bot(emu))[1]["session_start_limit"]["remaining"] == 5
    world = two_shard_world(emu)
    bot = ShardBot(emu, "A", shard_count=2)
    await bot.start([Shard(0, 2), Shard(1, 2)])
    try:
        await emu.disconnect_bot()  # discord.py RESUMEs both shards
        await emu.wait_until_ready(shard=(0, 2))
        await emu.wait_until_ready(shard=(1, 2))
        assert (await emu.invoke(world.alice, world.games[world.on[1][0].id], "where")).text == "A"
    finally:
        await bot.stop()
    assert (await gateway_bot(emu))[1]["session_start_limit"]["remaining"] == 3
    assert emu.violations == []
