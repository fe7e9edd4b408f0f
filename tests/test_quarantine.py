"""Start-up never stops for one bad match: a match whose log does not replay is paused, the rest play on."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from tests import backends

pytestmark = pytest.mark.both_backends


async def test_a_match_whose_log_does_not_replay_is_paused_and_the_bot_keeps_serving(world, caplog):
    alice, bob = world.users[:2]
    broken_id, broken_thread = await world.start_two_player()
    healthy_id, healthy_thread = await world.start_two_player(a=2, b=3)
    assert not (await world.emu.invoke(alice, broken_thread, "move", {"move": "e5"})).ephemeral
    stored = (await world.service.get(broken_id)).state
    # the double turn of issue 13: a second move by the same seat in the log
    await backends.execute(
        world.store,
        "INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at)"
        " VALUES (?, 2, 0, 1, ?, 'turn', 'a1', 'a1', '[]', 0)",
        broken_id,
        alice.id,
    )
    caplog.set_level(logging.ERROR, logger="bot")
    await world.restart_bot()  # must not exit; the check of untouched matches runs once connected

    told = await world.emu.wait_for_message(broken_thread, check=lambda m: "is paused" in m.content)
    assert any(f"match {broken_id} set aside" in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)
    assert f"<@{alice.id}>" in told.content and f"<@{bob.id}>" in told.content
    refused = await world.emu.invoke(bob, broken_thread, "move", {"move": "a1"})
    assert refused.ephemeral and "paused" in refused.text
    board = await world.emu.invoke(bob, broken_thread, "board", {})
    assert board.ephemeral and "paused" in board.text
    [(state,)] = await backends.fetch(world.store, "SELECT state FROM matches WHERE id = ?", broken_id)
    assert json.loads(state) == stored  # never rewritten

    carol = world.users[2]
    assert not (await world.emu.invoke(carol, healthy_thread, "move", {"move": "e5"})).ephemeral

    await world.restart_bot()  # players are told once, not at every start
    paused_posts = [m for m in world.emu.messages(broken_thread) if "is paused" in m.content]
    assert len(paused_posts) == 1
    assert healthy_id != broken_id


@pytest.mark.parametrize("column", ["state", "options"])
async def test_a_match_row_that_cannot_be_read_pauses_that_match_and_the_bot_starts(world, column):
    """An unreadable JSON column once made start-up exit with a raw JSONDecodeError."""
    alice, _bob, carol, _dave = world.users
    broken_id, broken_thread = await world.start_two_player()
    _healthy_id, healthy_thread = await world.start_two_player(a=2, b=3)
    await backends.execute(world.store, f"UPDATE matches SET {column} = '{{not json' WHERE id = ?", broken_id)
    await world.restart_bot()  # must start

    told = await posted(world, broken_thread, "is paused")
    assert f"<@{alice.id}>" in told.content and "cannot be read" in told.content
    assert not (await world.emu.invoke(carol, healthy_thread, "move", {"move": "e5"})).ephemeral
    refused = await world.emu.invoke(alice, broken_thread, "move", {"move": "e5"})
    assert refused.ephemeral and "paused" in refused.text
    for command, params in (("games", {}), ("games", {"all": True}), ("profile", {})):
        answer = await world.emu.invoke(alice, world.channel, command, params)
        assert "Something went wrong" not in answer.text, (command, answer.text)
    assert f"Bide #{broken_id}:" not in (await world.emu.invoke(alice, world.channel, "games", {"all": True})).text


async def test_a_match_damaged_while_running_is_paused_and_the_reminders_of_the_others_go_out(world):
    """Damaged while running, every reminder pass once raised: no reminder or time limit fired for anyone."""
    alice, bob, carol, _dave = world.users
    broken_id, broken_thread = await world.start_two_player()
    healthy_id, _ = await world.start_two_player(a=2, b=3)
    await backends.execute(world.store, "UPDATE matches SET state = '{not json' WHERE id = ?", broken_id)
    world.clock.advance(25 * 3600)
    assert await world.bot.reminders.run_once() == 1  # carol's reminder for the healthy match
    assert any(f"#{healthy_id}" in m.content for m in world.emu.dms(carol))
    assert world.emu.dms(alice) == []
    told = await posted(world, broken_thread, "is paused")
    assert f"<@{bob.id}>" in told.content
    await world.bot.reminders.run_once()  # told once
    assert len([m for m in world.emu.messages(broken_thread) if "is paused" in m.content]) == 1
    for command, params in (("games", {}), ("games", {"all": True}), ("profile", {})):
        answer = await world.emu.invoke(alice, world.channel, command, params)
        assert "Something went wrong" not in answer.text, (command, answer.text)


async def posted(world, channel, text, timeout=5.0):
    """The first message in the channel containing ``text``, posted already or within ``timeout``."""

    async def first():
        while True:
            found = [m for m in world.emu.messages(channel) if text in m.content]
            if found:
                return found[0]
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(first(), timeout)
