"""The bot on PostgreSQL as `python -m bot` runs it: computer turns and /hint go to the job queue, a worker
(here in the test's process, with its real process pool) thinks and stores them, and the bot posts the
boards the worker stored (told by NOTIFY). The bot's own thinker must never be asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.config import Settings
from bot.domain.replay import replay
from bot.jobs.notices import STORED, notify
from bot.jobs.worker import Worker
from bot.service.matches import MatchService
from bot.store import open_store
from tests.botworld import BotWorld
from tests.test_bot_computer import humans_turn_or_over, play_computer
from tests.worker_processes import empty_queue, until


class NeverThinker:
    """The bot process's thinker: with workers, asking it is a bug."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def turn(self, state, level, seed):
        self.asked.append(level)
        raise AssertionError("the bot thought a computer turn itself")

    async def draw(self, state, player, seed):
        return False

    def close(self) -> None:
        pass


@pytest.fixture
async def with_worker(postgres_server):
    url = postgres_server.create_database(f"e2e_workers_{random.randrange(10**9)}")
    world = await BotWorld(url, jobs=True).start()
    world.bot.chat.computer.thinker.close()
    world.bot.chat.computer.thinker = NeverThinker()
    worker_store = await open_store(url)
    await empty_queue(worker_store)
    worker = Worker(worker_store, Settings(database_url=url), concurrency=1, stale_seconds=5.0)
    running = asyncio.ensure_future(worker.run())
    try:
        yield world, worker
    finally:
        worker.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(running, 30)
        await worker_store.close()
        await world.stop()


async def test_a_game_against_the_computer_is_played_by_the_worker_and_posted_by_the_bot(with_worker):
    world, _ = with_worker
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    rng = random.Random(5)
    for _ in range(8):
        game = await world.game(match_id)
        if game.is_over:
            break
        legal = [n for n in game.legal_notations() if n != "bide"] or game.legal_notations()
        played = await world.emu.invoke(alice, thread, "move", {"move": rng.choice(legal)})
        assert not played.ephemeral, played.text
        await humans_turn_or_over(world, match_id, alice.id)
    assert world.bot.chat.computer.thinker.asked == []
    match = await world.service.get(match_id)
    moves = await world.store.moves(match_id)
    assert sum(m.user_id < 0 for m in moves) >= 4, "the worker answered each of alice's turns"
    assert replay(match, moves).to_json() == match.state
    # every stored turn has exactly one board in the thread, in the log's order (the relay posts a
    # worker's board once, after the board before it)
    await until(lambda: _all_announced(world, match_id), 20, what="the last board posted")
    boards = [m for m in world.emu.messages(thread) if m.attachments][1:]
    authors = ["computer" if m.content.startswith("**🤖 Hexplay") else "alice" for m in boards]
    assert authors == ["computer" if m.user_id < 0 else "alice" for m in moves], "\n".join(m.content for m in boards)


async def test_a_hint_is_thought_by_the_worker(with_worker):
    world, _ = with_worker
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    asked = await world.emu.invoke(alice, thread, "hint", {})
    await asked.wait_followups(1, timeout=30)
    assert asked.ephemeral and "Hint: the medium computer would play `" in asked.text, asked.text
    assert asked.text.split("`")[1] in (await world.game(match_id)).legal_notations()
    assert asked.followups[0].attachments  # the board after the hinted move
    assert (await world.game(match_id)).ply == 0  # nothing was played
    assert world.bot.chat.computer.thinker.asked == []


async def _all_announced(world, match_id) -> bool:
    match = await world.store.get_match(match_id)
    return match.announced_version >= match.version


async def test_the_relay_posts_the_turn_a_conditional_answer_followed_and_then_the_answer(postgres_server):
    """A worker stores a turn and, at once, the conditional answer a player had stored for it, then NOTIFYs once:
    the relay posts both boards in the log's order, as the process that stores them itself does."""
    url = postgres_server.create_database(f"e2e_relay_{random.randrange(10**9)}")
    world = await BotWorld(url, jobs=True).start()
    try:
        alice, bob = world.users[:2]
        match_id, thread = await world.start_two_player()
        await world.service.add_premove(match_id, bob.id, "e5; d4")
        worker_store = await open_store(url)  # the worker's process: no Discord, it tells the bots
        try:
            worker = MatchService(worker_store, world.clock, default_reminder_hours=24)
            stored = await worker.play(match_id, alice.id, "e5")
            assert stored.answered is not None  # its answer is stored with it
            await notify(worker_store.pool, STORED, str(match_id))
        finally:
            await worker_store.close()
        await until(lambda: _all_announced(world, match_id), 20, what="the last board posted")
        boards = [m.content for m in world.emu.messages(thread) if m.attachments][1:]
        assert [("`e5`" in b, "`d4`" in b) for b in boards] == [(True, False), (False, True)], boards
        assert "conditional" in boards[1] and f"<@{alice.id}>" in boards[1]  # alice is to move after bob's answer
    finally:
        await world.stop()
