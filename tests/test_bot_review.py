"""/review through Discord (issue 23): the real bot, the emulator and the real search at a small budget.

The finished games are played through the service (the moves themselves are tested elsewhere); what a
player does with the review — ask, watch its progress, read it, step through its turning points, ask
again — goes through the emulator. And /move in another match is answered while a review is searched.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bot.domain.seats import game_of, user_to_move
from tests.botworld import BotWorld

BEGIRD = next(
    c
    for c in json.loads((Path(__file__).parent / "data" / "review_blunders.json").read_text())
    if c["game"] == "begird"
)


async def world_with(database, simulations: int):
    return await BotWorld(database, review_simulations=simulations).start()


@pytest.fixture
async def small_world(database):
    world = await world_with(database, 40)
    yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == [], violations


async def play_through_service(world, match_id, turns):
    for notation in turns:
        match = await world.service.get(match_id)
        await world.service.play(match_id, user_to_move(match, game_of(match)), notation)


def button(message, label):
    return next(b for b in message.buttons() if b["label"] == label)


async def test_a_review_through_discord_progress_summary_graph_and_turning_points(small_world):
    world = small_world
    alice, bob = world.users[0], world.users[1]
    match_id, thread = await world.start_two_player(game="begird", options="board=small")
    early = await world.emu.invoke(alice, thread, "review", {})
    assert early.ephemeral and "not finished" in early.text  # no help during a game
    unknown = await world.emu.invoke(alice, world.channel, "review", {"match": 9999})
    assert unknown.ephemeral and "no match #9999" in unknown.text
    await play_through_service(world, match_id, BEGIRD["turns"])

    asked = await world.emu.invoke(alice, thread, "review", {})  # in the thread: no id needed
    assert not asked.ephemeral and "Review" in asked.text
    await asked.wait_for(lambda r: r.response is not None and bool(r.response.attachments), timeout=30)
    summary = asked.response
    assert "accuracy" in summary.content and "Lichess" in summary.content
    assert f"Turn {BEGIRD['blunder'] + 1}:" in summary.content and "blunder" in summary.content
    assert summary.attachments[0].filename == "review.png"

    again = await world.emu.invoke(bob, world.channel, "review", {"match": match_id})  # stored: instant
    await again.wait_for(lambda r: r.response is not None and bool(r.response.attachments), timeout=5)
    assert again.response.content == summary.content

    shown = await world.emu.press(bob, summary, button(summary, "Turning points")["custom_id"])
    await shown.wait_for(lambda r: bool(r.followups) and bool(r.followups[0].attachments), timeout=10)
    point = shown.followups[0]
    assert point.ephemeral  # stepping through is the presser's own
    assert "Turning point 1/" in point.content and "computer preferred" in point.content
    stepped = await world.emu.press(bob, point, button(point, "Next ▶")["custom_id"])
    await stepped.wait_for(lambda r: "Turning point 2/" in (world.emu.message(point.id).content or ""), timeout=10)


async def test_move_is_answered_while_reviews_are_searched(database):
    world = await world_with(database, 200)  # a review of seconds: /move must not wait for it
    try:
        alice = world.users[0]
        finished, _ = await world.start_two_player(game="begird", options="board=small", a=0, b=1)
        await play_through_service(world, finished, BEGIRD["turns"])
        playing, thread = await world.start_two_player(game="begird", options="board=small", a=2, b=3)

        async def timed_move(notation):
            match = await world.service.get(playing)
            mover = next(u for u in world.users if u.id == user_to_move(match, game_of(match)))
            started = time.perf_counter()
            result = await world.emu.invoke(mover, thread, "move", {"move": notation})
            assert not result.ephemeral, result.text
            return time.perf_counter() - started

        baseline = [await timed_move(n) for n in ("a5", "e5")]
        asked = await world.emu.invoke(alice, world.channel, "review", {"match": finished})
        await asked.wait_for(lambda r: r.response is not None and "/" in r.response.content, timeout=5)
        during = [await timed_move(n) for n in ("h4", "g2", "f7", "f6")]
        row = await world.store.get_review(finished)
        assert row is not None and row.data is None and row.done < row.total, "the review was over too soon"
        assert max(during) < max(1.0, 5 * max(baseline)), (baseline, during)
        # (stopped mid-search: the stop lets the review go, and the next request searches it again)
    finally:
        violations = list(world.emu.violations)
        await world.stop()
    assert violations == [], violations
