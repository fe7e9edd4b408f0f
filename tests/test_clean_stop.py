"""A clean stop finishes the work in flight; a match stopped between its start and its thread gets one."""

from __future__ import annotations

import asyncio

import pytest

from bot.chat.words.errors import restarting
from tests.botworld import BotWorld


@pytest.fixture
async def crowd(tmp_path):
    world = await BotWorld(tmp_path / "hexplay.sqlite3", users=16).start()
    yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == [], violations


def boards(world, channel):
    return [m for m in world.emu.messages(channel) if m.attachments]


async def test_a_stop_during_many_joins_lets_each_one_finish_and_every_match_gets_its_thread(crowd):
    world = crowd
    creators, joiners = world.users[:8], world.users[8:]
    lobbies = []
    for creator in creators:
        for _ in range(2):
            made = await world.emu.invoke(creator, world.channel, "play", {"game": "bide", "seats": 2})
            assert not made.ephemeral, made.text
            lobbies.append(made.response)
    presses, match_ids = [], []
    for k, lobby in enumerate(lobbies):
        join = next(b for b in lobby.buttons() if b["label"] == "Join")
        match_ids.append(int(join["custom_id"].rsplit(":", 1)[1]))
        presses.append(asyncio.create_task(world.emu.press(joiners[k % len(joiners)], lobby, join["custom_id"])))
    await asyncio.wait(presses, return_when=asyncio.FIRST_COMPLETED)  # the stop comes while most are running
    await world.stop_bot()
    answers = await asyncio.gather(*presses)
    for answer in answers:
        assert "Something went wrong" not in answer.text and "Session is closed" not in answer.text, answer.text
    refused = [a for a in answers if a.ephemeral]
    assert all(restarting() in a.text for a in refused)

    await world.start_bot()
    started = []
    for match_id in match_ids:
        match = await world.service.get(match_id)
        if match.status == "active":
            started.append(match)
            assert match.thread_id is not None, f"match {match_id} plays in #games for good"
            thread = await world.wait_thread(match_id)
            assert len(boards(world, thread)) == 1
    assert len(started) == len(answers) - len(refused) and started
    assert boards(world, world.channel) == []  # no board landed in #games


async def test_a_match_whose_thread_was_never_opened_gets_one_at_start_up(world):
    alice, bob = world.users[:2]
    lobby = (await world.challenge(alice, [bob])).response
    match_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    outcome = await world.service.accept(match_id, bob.id)  # stored; the bot stopped before opening the thread
    assert outcome.started and outcome.match.thread_id is None
    await world.restart_bot()

    thread = await world.wait_thread(match_id)
    assert thread.id == lobby.id  # opened on the lobby message, as if nothing had happened
    (board,) = boards(world, thread)
    assert "(Posted after a restart.)" in board.content and f"<@{alice.id}>" in board.content
    assert boards(world, world.channel) == []
    assert not (await world.emu.invoke(alice, thread, "move", {"move": "e5"})).ephemeral


async def test_a_command_arriving_while_the_bot_stops_is_refused_before_any_work(world):
    alice, bob = world.users[:2]
    world.bot.stopping = True  # the first moment of close(): in-flight work finishes, nothing new starts
    try:
        answer = await world.emu.invoke(alice, world.channel, "play", {"game": "bide", "opponent": bob})
    finally:
        world.bot.stopping = False
    assert answer.ephemeral and restarting() in answer.text
    assert await world.store.matches_of_user(alice.id, None, ("lobby", "active")) == []
