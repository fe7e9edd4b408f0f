"""What a stop leaves unsaid is said soon, by the next start or by any live process (issue 34).

A process killed between storing a turn and posting its board, or between a move and its conditional answer,
leaves work behind, and may die holding claims on it. Its next start posts its boards at once, whatever its
claims' lease; a live process's periodic look (on SQLite too) posts a board left unposted and follows the
conditional moves left behind, without waiting for any restart.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.chat.features.timelimits import Heartbeat
from bot.chat.relay import BoardRelay
from bot.domain.clock import BEAT_SECONDS, STALE_SECONDS
from bot.store import open_store
from tests import backends
from tests.test_premove_store import DiesAt, ProcessDied
from tests.test_races_processes import Process

pytestmark = pytest.mark.both_backends


def the_look(world) -> BoardRelay:
    """The look every bot process runs for what a stop left behind (one of its background duties)."""
    [relay] = [duty for duty in world.bot.duties if isinstance(duty, BoardRelay)]
    return relay


def boards(world, thread) -> list[str]:
    """The boards posted in the thread after the first, what each says."""
    return [m.content for m in world.emu.messages(thread) if m.attachments][1:]


async def posted(world, thread, fragment: str, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if any(fragment in content for content in boards(world, thread)):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no board saying {fragment!r} in the thread: {boards(world, thread)}")


async def announced(world, match_id: int) -> bool:
    match = await world.service.get(match_id)
    return match.announced_version == match.version


@pytest.mark.parametrize("cut_in", ["open_match", "_match_thread"])
async def test_a_catch_up_during_a_matchs_start_never_opens_its_thread_twice(world, monkeypatch, cut_in):
    """A start-up's catch-up (another process starting just after a match started, or this one's own, late on a
    busy machine) finds the start stored and its first board unposted, while the command that started it is
    opening its thread. It cuts in before the command's opening (``open_match``), or as it opens the thread
    (``_match_thread``): exactly one of the two opens the thread and posts the first board, and Discord is never
    asked to open a second thread on the lobby message (400 160004, seen once on PostgreSQL under load)."""
    opening = world.bot.chat.opening
    original = getattr(opening, cut_in)
    cut = []

    async def catch_up_first(*args, **kwargs):
        if not cut:  # the catch-up's own opening goes straight through
            cut.append(True)
            await opening.announce_missed(world.clock.now())
        return await original(*args, **kwargs)

    monkeypatch.setattr(opening, cut_in, catch_up_first)
    match_id, thread = await world.start_two_player()
    assert cut
    assert world.emu.violations == []
    assert [t.id for t in world.emu.threads(world.channel)] == [thread.id]
    assert len([m for m in world.emu.messages(thread) if m.attachments]) == 1  # one first board
    match = await world.service.get(match_id)
    assert (match.thread_id, match.board_channel_id, match.announced_version) == (thread.id, thread.id, match.version)


async def test_a_board_a_killed_process_had_claimed_is_posted_by_the_next_start_at_once(world, database):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    await world.service.play(match_id, alice.id, "e5")  # stored; the process dies before posting it
    doomed = await Process.start(database, module="tests.claim_process")
    now = world.clock.lease_now()
    doomed.send(kind="beat", now=now, shards=[1, [0]])
    assert await doomed.answer() == {"beat": True}
    doomed.send(kind="boards", ids=[match_id], now=now, lease=300, at=0)  # as its catch-up or look did
    assert (await doomed.answer())["ids"] == [match_id]
    doomed.child.send_signal(signal.SIGKILL)
    await doomed.child.wait()
    await world.restart_bot()  # the same moment: its claim's lease has 300 s to run
    await posted(world, thread, "played `e5`")
    for _ in range(250):  # recorded as posted once Discord took it (the catch-up runs on its own)
        if await announced(world, match_id):
            break
        await asyncio.sleep(0.02)
    assert await announced(world, match_id)
    assert len([content for content in boards(world, thread) if "played `e5`" in content]) == 1


async def test_a_board_left_unposted_while_the_bot_runs_is_posted_by_its_look(world):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    await world.service.play(match_id, alice.id, "e5")  # after the start: its catch-up left it to its command
    look = the_look(world)
    assert await look.look_once() == 0  # just stored: whoever stored it is posting it
    world.clock.advance(86400)  # the sandbox moves the games' clock a day: the board looks settled at once
    assert await look.look_once() == 0  # found unposted: if nobody posts it by the next look (wall clock), it does
    assert await look.look_once() == 1
    assert [content for content in boards(world, thread) if "played `e5`" in content] != []
    assert await announced(world, match_id)
    assert await look.look_once() == 0  # posted once


async def test_conditional_moves_left_behind_are_followed_by_a_live_processs_look(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await world.service.add_premove(match_id, bob.id, "e5; d4")
    store = world.service.store
    world.service.store = DiesAt(store, "premoves_at")  # the move is stored, then its process dies
    with pytest.raises(ProcessDied):
        await world.service.play(match_id, alice.id, "e5")
    world.service.store = store
    look = the_look(world)
    world.clock.advance(look.settle_seconds + 1)
    await look.look_once()  # found: the move's board, unposted (its process may be following them right now)
    assert [m.notation for m in await world.store.moves(match_id)] == ["e5"]
    await look.look_once()  # no restart: the live process posts the move's board, then follows them
    moves = await world.store.moves(match_id)
    assert [(m.notation, m.conditional) for m in moves] == [("e5", False), ("d4", True)]
    await posted(world, thread, "played `d4`")
    assert [("e5" in c, "d4" in c) for c in boards(world, thread)] == [(True, False), (False, True)]
    assert await announced(world, match_id)
    assert await world.store.premoves_left_behind() == []


async def test_a_running_bot_keeps_its_claims_however_long_it_runs(world, database, backend):
    """A process beats every BEAT_SECONDS whatever it is doing (a duty of its own), naming its incarnation on
    the lease clock: while it runs, no other process takes what it claimed."""
    if backend == "sqlite":
        pytest.skip("one process per file: a later start owns every claim, and no other runs beside it")
    [running] = [duty for duty in world.bot.duties if isinstance(duty, Heartbeat)]
    assert running.every == BEAT_SECONDS
    await running.stop(0)  # the test's own copy beats instead, its seconds shortened
    match_id, _ = await world.start_two_player()
    await world.service.play(match_id, world.users[0].id, "e5")
    assert await world.service.claim_announcement(match_id)  # held by the running bot
    beating = Heartbeat(world.bot.chat, every=0.01)
    task = asyncio.ensure_future(beating.run_forever())
    other = await open_store(database)  # another bot process
    try:
        world.clock.advance(8 * STALE_SECONDS)  # many beats' time, in a moment (within the 300 s lease)
        for _ in range(500):  # until a beat at the new time is stored
            seen = await backends.fetch(world.store, "SELECT incarnation, incarnation_seen FROM shard_heartbeats")
            if (world.store.incarnation, world.clock.lease_now()) in seen:
                break
            await asyncio.sleep(0.01)
        assert await other.claim_announcement(match_id, world.clock.lease_now(), 300) is False
        await beating.stop(0)
        await task
        world.clock.advance(STALE_SECONDS + 1)  # it stopped beating: gone, as far as anyone can tell
        assert await other.claim_announcement(match_id, world.clock.lease_now(), 300)
    finally:
        task.cancel()
        await other.close()
