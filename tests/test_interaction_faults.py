"""Interactions Discord answers oddly, and custom ids nobody should send: one truthful answer, never a crash."""

from __future__ import annotations

import asyncio
import logging

import pytest
from aiohttp import web

from tests.botworld import BotWorld


class CallbackFaults:
    """Discord accepts the next interaction reply, then answers it 500 (its load balancer's error page)."""

    def __init__(self, world: BotWorld) -> None:
        self.armed = 0
        original = world.emu.rest.interaction_callback

        async def callback(request: web.Request) -> web.StreamResponse:
            response = await original(request)
            if self.armed:
                self.armed -= 1
                return web.json_response({"message": "500: Internal Server Error", "code": 0}, status=500)
            return response

        world.emu.rest.interaction_callback = callback  # type: ignore[method-assign]


@pytest.fixture
async def faulty(tmp_path):
    world = BotWorld(tmp_path / "hexplay.sqlite3")
    faults = CallbackFaults(world)  # before the emulator binds its routes
    await world.start()
    yield world, faults
    await world.stop()


def acknowledged_twice(world) -> list:
    return [r for r in world.emu.rejections if r.code == 40060]


async def test_a_500_after_a_reply_that_landed_is_not_answered_twice(faulty, caplog):
    world, faults = faulty
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    faults.armed = 1
    caplog.set_level(logging.INFO, logger="bot")
    result = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    assert not result.ephemeral and result.response.attachments  # the board, as the reply
    await asyncio.sleep(4)  # discord.py retries the 500 after a second; then the bot has had its say

    assert len(acknowledged_twice(world)) == 1  # discord.py's own retry, once; the bot adds none
    assert result.followups == []  # no second answer: no error on top of the board
    assert not any(
        "Something went wrong" in m.content or "could not be posted" in m.content
        for m in world.emu.messages(thread, include_ephemeral=True)
    )

    async def recorded():
        while (await world.service.get(match_id)).announced_version < (await world.service.get(match_id)).version:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(recorded(), 10)  # the board that landed is found and recorded, not posted again
    assert len([m for m in world.emu.messages(thread) if m.attachments]) == 2  # the first board and this one


@pytest.mark.parametrize(
    "custom_id",
    [
        "hx:lobby:accept:{huge}",
        "hx:snooze:{match}:{huge}",
        "hx:claim:{huge}:0",
        "hx:offer:draw:yes:{match}:{huge}",
        "hx:q:{huge}:{huge}:bide",
        "hx:gif:{huge}",
        "hx:rematch:{huge}",
        "hx:tb:open:{match}:{huge}:",
        "hx:resign:{huge}:{huge}",
    ],
)
async def test_custom_ids_with_numbers_past_64_bits_are_refused_plainly(world, custom_id, caplog):
    """A modified client (or a sandbox page) may send any custom id on a bot message."""
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    board = next(m for m in world.emu.messages(thread) if m.attachments)
    forged = custom_id.format(huge=2**70, match=match_id)
    board.components = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": forged}]}]
    caplog.set_level(logging.ERROR)
    result = await world.emu.press(alice, board, forged)
    assert result.text and "Something went wrong" not in result.text, result.text
    assert not any("Overflow" in (r.exc_text or "") + r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("command", ["board", "history", "move", "resign", "draw", "undo", "hint"])
async def test_a_match_number_past_64_bits_in_a_command_is_refused_plainly(world, command, caplog):
    alice = world.users[0]
    await world.start_two_player()
    options = {"match": 2**70, **({"move": "e5"} if command == "move" else {})}
    caplog.set_level(logging.ERROR)
    result = await world.emu.invoke(alice, world.channel, command, options)
    assert result.ephemeral and "There is no match" in result.text, result.text
    assert not any("Overflow" in (r.exc_text or "") + r.getMessage() for r in caplog.records)
