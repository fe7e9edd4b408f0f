"""The real bot against Discord's rate limits: a burst of boards and reminders meets 429s, and
discord.py's retries still deliver every one of them."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from bot.service.matches import MatchService
from bot.store.sqlite import SqliteStore
from emulator import RateLimits, RouteLimit
from emulator.ratelimits import default_route_limits
from tests.botworld import TOKEN, BotWorld

# Two posts per thread per WINDOW seconds, longer than the bot takes to restart. (discord.py makes the
# call that empties a bucket wait for its reset, so a bucket of one would slow every post.)
WINDOW = 2.5
PAIRS = [(0, 1), (2, 3), (4, 5), (6, 7)]


async def until(predicate, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_a_burst_of_boards_and_reminders_is_rate_limited_and_fully_delivered(tmp_path):
    world = await BotWorld(tmp_path / "hexplay.sqlite3", users=8).start()
    emu = world.emu
    try:
        matches = [await world.start_two_player(a=a, b=b) for a, b in PAIRS]
        await world.stop_bot()
        # A move in each match reached the database, then the process died before posting the boards...
        store = await SqliteStore.open(world.db_path)
        try:  # a failure here must fail the test, not leave the database thread running
            for (match_id, _), (a, _) in zip(matches, PAIRS, strict=False):
                await MatchService(store, world.clock).play(match_id, world.users[a].id, "e5")
        finally:
            await store.close()
        # ...right after its last posts in those threads, whose buckets are still full when it restarts.
        emu.rate_limits = RateLimits(routes={**default_route_limits(), "message-create": RouteLimit(2, WINDOW)})
        emu.rate_limiter.reset()
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
            for _, thread in matches:
                for _ in range(2):
                    url = f"{emu.api_base_url}/channels/{thread.id}/messages"
                    async with session.post(url, json={"content": "(last words)"}) as response:
                        assert response.status == 200
        assert not emu.rate_limit_hits
        emu.rate_limits.global_limit, emu.rate_limits.global_per = 3, 0.25  # and the global limit is low

        await world.start_bot()  # announces the four missed boards at once
        await until(lambda: all(any("after a restart" in m.content for m in emu.messages(t)) for _, t in matches))
        world.clock.advance(25 * 3600)
        assert await world.bot.reminders.run_once() == len(PAIRS)  # four DMs in a row

        for (match_id, thread), (_, b) in zip(matches, PAIRS, strict=False):
            assert sum("after a restart" in m.content for m in emu.messages(thread)) == 1
            [dm] = emu.dms(world.users[b])
            assert f"#{match_id}" in dm.content and "played `e5`" in dm.content
        hits = [(hit.scope, hit.path) for hit in emu.rate_limit_hits]
        board_posts = {f"/channels/{thread.id}/messages" for _, thread in matches}
        assert any(scope == "user" and path in board_posts for scope, path in hits), hits
        dm_requests = {f"/channels/{emu.dm_channel(world.users[b]).id}/messages" for _, b in PAIRS}
        dm_requests.add("/users/@me/channels")
        assert any(scope == "global" and path in dm_requests for scope, path in hits), hits
        # Interaction answers are not bound to the global limit: a move is answered at once.
        user = world.users[PAIRS[0][1]]
        played = await world.emu.invoke(user, matches[0][1], "move", {"move": "d4"})
        assert not played.ephemeral and "played `d4`" in played.text
        assert emu.violations == []
    finally:
        await world.stop()
