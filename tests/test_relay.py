"""The board relay (boards of turns a worker stored): a post that fails is said once in the log, as the
relay's own line, never left to asyncio's "Task exception was never retrieved"."""

from __future__ import annotations

import asyncio
import gc
import logging

from bot.chat.relay import BoardRelay


async def test_a_relayed_post_that_fails_is_logged_by_the_relay_not_left_unretrieved(world, caplog):
    match_id, _thread = await world.start_two_player()
    relay = BoardRelay(world.bot, world.service, world.bot.chat.announcer)
    async with world.store.reading() as db:
        await db.execute("PRAGMA query_only = 1")  # the claim, a write, fails: the task ends in an exception
    try:
        with caplog.at_level(logging.ERROR):
            relay.stored(str(match_id))
            await asyncio.wait(list(relay._posting), timeout=10)
            for _ in range(3):  # the finished task is dropped: asyncio would speak now
                await asyncio.sleep(0)
                gc.collect()
    finally:
        async with world.store.reading() as db:
            await db.execute("PRAGMA query_only = 0")
    said = [r.getMessage() for r in caplog.records]
    assert not any("never retrieved" in line for line in said), said
    mine = [r for r in caplog.records if r.name == "bot.chat.relay"]
    assert len(mine) == 1 and f"relay-{match_id}" in mine[0].getMessage() and mine[0].exc_info, said
