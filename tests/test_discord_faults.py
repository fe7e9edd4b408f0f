"""After a turn is stored, players are told the truth and the board reaches them, whatever Discord does."""

from __future__ import annotations

import asyncio

import pytest

from tests.botworld import BotWorld
from tests.faults import PostFaults, delete_thread, lock_thread, unlock_thread


@pytest.fixture
async def world(tmp_path):
    world = BotWorld(tmp_path / "hexplay.sqlite3")
    world.faults = PostFaults(world.emu)  # before the emulator starts
    await world.start()
    announcer = world.bot.chat.announcer
    # fast retries for the test; Discord's 3 s deadline for the first answer is not changed
    announcer.attempt_timeout, announcer.answer_within, announcer.retry_delays = 1.0, 1.5, (0.3, 0.5, 1, 1, 2)
    yield world
    # looking up a thread a moderator deleted is a 404 no bot can avoid
    violations = [v for v in world.emu.violations if "404 10003 Unknown Channel" not in v]
    await world.stop()
    assert violations == [], violations


def boards(world, channel, text):
    return [m for m in world.emu.messages(channel) if text in m.content and m.attachments]


async def announced(world, match_id):
    match = await world.service.get(match_id)
    return match.announced_version == match.version


async def test_thread_deleted_board_goes_to_the_channel_with_a_new_thread(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    delete_thread(world.emu, thread)
    played = await world.emu.invoke(alice, world.channel, "move", {"move": "e5", "match": match_id})
    [answer] = await played.wait_followups(1)
    assert "Done" in answer.content and "deleted" in answer.content and "new thread" in answer.content
    [board] = boards(world, world.channel, "played `e5`")
    assert f"<@{bob.id}>" in board.content
    match = await world.service.get(match_id)
    assert match.thread_id not in (None, thread.id) and await announced(world, match_id)
    reply = await world.emu.invoke(bob, world.emu.channel(match.thread_id), "move", {"move": "a1"})
    assert not reply.ephemeral and "played `a1`" in reply.text  # the match plays on in its new thread


async def test_thread_locked_board_goes_to_the_channel_and_the_mover_is_told(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    lock_thread(world.emu, thread)
    played = await world.emu.invoke(alice, world.channel, "move", {"move": "e5", "match": match_id})
    [answer] = await played.wait_followups(1)
    assert "Done" in answer.content and "locked" in answer.content and "nothing was changed" not in answer.content
    [board] = boards(world, world.channel, "played `e5`")
    assert f"<@{bob.id}>" in board.content and await announced(world, match_id)
    again = await world.emu.invoke(alice, world.channel, "move", {"move": "e5", "match": match_id})
    assert again.ephemeral and "not your turn" in again.text


def lock_unreported(world, thread):
    """Locked, but the bot's copy of the thread still says unlocked (its THREAD_UPDATE never arrived)."""
    thread.locked = True


def close_and_lock(world, thread):
    """A moderator's "close and lock": archived threads are not in discord.py's cache."""
    thread.archived = True
    lock_thread(world.emu, thread)


@pytest.mark.parametrize("lock", [lock_unreported, close_and_lock])
async def test_a_locked_thread_is_not_tried_again_on_every_move_until_it_is_unlocked(world, lock):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    lock(world, thread)

    async def move_from_the_channel(user, notation):
        played = await world.emu.invoke(user, world.channel, "move", {"move": notation, "match": match_id})
        [answer] = await played.wait_followups(1)
        assert "Done" in answer.content and "locked" in answer.content
        assert boards(world, world.channel, f"played `{notation}`")

    await move_from_the_channel(alice, "e5")  # this board finds out
    asked = len(world.emu.requests)
    await move_from_the_channel(bob, "a1")
    await move_from_the_channel(alice, "d4")
    to_thread = [r for r in world.emu.requests[asked:] if r[1].startswith(f"/channels/{thread.id}")]
    assert to_thread == [], to_thread
    assert not boards(world, thread, "played")
    refused = [v for v in world.emu.violations if "160005" in v]
    assert len(refused) == (1 if lock is lock_unreported else 0)  # a lock nobody reported is met once
    world.emu.violations[:] = [v for v in world.emu.violations if v not in refused]

    unlock_thread(world.emu, thread)
    await asyncio.sleep(0.1)  # the gateway event reaches the bot
    played = await world.emu.invoke(bob, world.channel, "move", {"move": "c3", "match": match_id})
    [answer] = await played.wait_followups(1)
    assert "locked" not in answer.content and boards(world, thread, "played `c3`")


async def test_server_errors_on_the_thread_post_answer_in_time_and_deliver_in_the_background(world, caplog):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    world.faults.fail(thread.id, 500)
    started = asyncio.get_running_loop().time()
    played = await world.emu.invoke(alice, world.channel, "move", {"move": "e5", "match": match_id})
    assert played.latency is not None and played.latency < 3.0
    [answer] = await played.wait_followups(1)
    assert asyncio.get_running_loop().time() - started < 3.0
    assert "Played and saved" in answer.content and "Do not play the turn again" in answer.content
    assert not boards(world, thread, "played `e5`") and not await announced(world, match_id)
    world.faults.heal(thread.id)
    posted = await world.emu.wait_for_message(thread, check=lambda m: "played `e5`" in m.content, timeout=6)
    assert posted.attachments and "Delayed" in posted.content
    await asyncio.sleep(0.5)
    assert len(boards(world, thread, "played `e5`")) == 1 and await announced(world, match_id)
    assert any(f"match {match_id}" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


async def test_a_retry_leaves_a_later_turns_board_to_its_own_command(world, monkeypatch):
    """alice's board fails and is retried in the background; meanwhile bob moves, and his command is posting
    his board when the retry wakes: the retry must not post bob's board too (under load, an answer later than
    Discord's 3 s made the kill soak count such boards twice)."""
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    announcer = world.bot.chat.announcer
    announcer.retry_delays = (1.0, 1.0)
    world.faults.fail(thread.id, 500)
    played = await world.emu.invoke(alice, world.channel, "move", {"move": "e5", "match": match_id})
    await played.wait_followups(1)  # stored, its board not delivered: retried in the background
    world.faults.heal(thread.id)
    gate = asyncio.Event()
    post_board = announcer.post_board

    async def held_up(interaction, outcome):  # bob's command, between storing his turn and posting it
        await gate.wait()
        await post_board(interaction, outcome)

    monkeypatch.setattr(announcer, "post_board", held_up)
    moving = asyncio.ensure_future(world.emu.invoke(bob, thread, "move", {"move": "a1"}))
    await asyncio.wait_for(announcer._retrying[match_id], 5)  # the retry woke and did what it does
    gate.set()
    assert not (await moving).ephemeral
    await asyncio.sleep(0.3)
    assert len(boards(world, thread, "played `a1`")) == 1 and await announced(world, match_id)


async def test_a_board_already_posted_is_not_posted_again_after_a_restart(world):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    assert not (await world.emu.invoke(alice, thread, "move", {"move": "e5"})).ephemeral
    # a stop came between the post and its record
    async with world.store.transaction() as db:
        await db.execute("UPDATE matches SET announced_version = announced_version - 1 WHERE id = ?", (match_id,))
    await world.restart_bot()
    await asyncio.sleep(0.3)
    assert len(boards(world, thread, "played `e5`")) == 1 and await announced(world, match_id)


async def test_a_board_posted_before_a_long_stop_is_recognised_though_its_clock_note_changed(world):
    """The board says "time runs out in 23 h"; the stop lasted past the deadline (or its outage moved the
    deadline), so the sentence the bot would write now differs: the board is still the one already shown."""
    alice = world.users[0]
    match_id, thread = await world.start_two_player(options="side=4")
    async with world.store.transaction() as db:
        await db.execute(
            "UPDATE matches SET days_per_move = 1, deadline_at = ? WHERE id = ?", (world.clock.now() + 86400, match_id)
        )
    assert not (await world.emu.invoke(alice, thread, "move", {"move": "c3"})).ephemeral
    assert "time runs out" in boards(world, thread, "played `c3`")[0].content
    async with world.store.transaction() as db:
        await db.execute("UPDATE matches SET announced_version = announced_version - 1 WHERE id = ?", (match_id,))
    world.clock.advance(3 * 86400)  # the stop outlasted the turn's deadline
    await world.restart_bot()
    await asyncio.sleep(0.3)
    assert len(boards(world, thread, "played `c3`")) == 1 and await announced(world, match_id)


async def test_a_move_answered_late_is_deferred_first_and_still_shows_its_board(world, monkeypatch):
    import bot.chat.announce

    monkeypatch.setattr(bot.chat.announce, "LATE_SECONDS", -1.0)  # as if the bot had been slow to get to it
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    played = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    assert played.deferred
    board = await played.wait_message()
    assert "played `e5`" in board.content and board.attachments and not board.ephemeral
    assert await announced(world, match_id)
