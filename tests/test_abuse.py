"""Bad input and abuse: bounded replies, inert names, challenge limits, GIFs that never delay turns,
reminders that stop when they cannot be delivered."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

import bot.service.pictures as pictures_module
from bot.service.challenge_limits import MAX_OPEN_LOBBIES
from tests.botworld import BotWorld
from tests.faults import delete_thread
from tests.said import refused

ALICE, BOB = (101, "alice"), (102, "bob")
GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001


@pytest.fixture
async def world(tmp_path):
    world = await BotWorld(tmp_path / "hexplay.sqlite3").start()
    yield world
    # looking up a thread a moderator deleted is a 404 no bot can avoid
    violations = [v for v in world.emu.violations if "404 10003 Unknown Channel" not in v]
    await world.stop()
    assert violations == [], violations


async def started(service, creator=ALICE, invited=BOB):
    match = await service.create(game_id="bide", creator=creator, invited=[invited], guild_id=GUILD, channel_id=CHANNEL)
    await service.accept(match.id, invited[0])
    return match.id


async def test_long_input_gets_an_answer_that_fits(world):
    alice = world.users[0]
    _match_id, thread = await world.start_two_player()
    long_move = "e5" + "x" * 1990 + "`*@everyone"
    answer = await world.emu.invoke(alice, thread, "move", {"move": long_move})
    assert answer.ephemeral and "is not a legal move" in answer.text and len(answer.text) <= 2000
    preview = await world.emu.invoke(alice, thread, "preview", {"move": long_move})
    assert preview.ephemeral and len(preview.text) <= 2000
    options = await world.emu.invoke(alice, world.channel, "play", {"game": "bide", "options": "k" * 1000 + "=1"})
    assert options.ephemeral and len(options.text) <= 2000 and options.text


async def test_player_names_are_shown_as_plain_text(world):
    alice = world.users[0]
    alice.name = "[click](https://evil.example) **@everyone**"
    _match_id, thread = await world.start_two_player()
    played = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    assert "[click](" not in played.text and r"\[click\]\(https" in played.text
    assert "@everyone" not in played.text.replace("@\u200beveryone", "")
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "[click](" not in history.text and r"\[click\]" in history.text


async def test_open_challenges_and_challenge_rate_are_limited(service):
    for _number in range(MAX_OPEN_LOBBIES):
        await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
        service.clock.advance(30)  # slow enough for the rate limit
    with refused(match="already have 5 open challenges"):
        await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    # another server has its own count
    await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=OTHER_GUILD, channel_id=CHANNEL)
    # a burst: three a minute (bob has alice's five challenges to answer, so carol invites dan)
    carol, dan = (103, "carol"), (104, "dan")
    for _ in range(3):
        match = await service.create(game_id="bide", creator=carol, invited=[dan], guild_id=GUILD, channel_id=CHANNEL)
        await service.cancel(match.id, carol[0])
    with refused(match="3 challenges a minute"):
        await service.create(game_id="bide", creator=carol, invited=[dan], guild_id=GUILD, channel_id=CHANNEL)
    service.clock.advance(61)
    await service.create(game_id="bide", creator=carol, invited=[dan], guild_id=GUILD, channel_id=CHANNEL)


async def test_gif_replays_never_delay_a_turn(service, monkeypatch):
    real = pictures_module.render_gif

    def slow_gif(*args, **kwargs):
        time.sleep(0.8)
        return real(*args, **kwargs)

    monkeypatch.setattr(pictures_module, "render_gif", slow_gif)
    matches = []
    for i in range(6):
        matches.append(await started(service, (200 + i, f"p{i}"), (300 + i, f"q{i}")))
        service.clock.advance(60)
    gifs = [asyncio.create_task(service.history_gif(m)) for m in matches]
    await asyncio.sleep(0.05)
    began = time.perf_counter()
    outcome = await service.play(matches[0], 200, "e5")
    await service.render(outcome.match, outcome.game, outcome.events)  # the board picture of the turn
    assert time.perf_counter() - began < 0.6  # six 0.8 s GIFs are queued, but on their own thread
    with refused(match="being drawn right now"):
        await service.history_gif(matches[-1])
    for task in gifs:
        task.cancel()
    await asyncio.gather(*gifs, return_exceptions=True)


async def test_gif_cooldown_and_server_check(service):
    match_id = await started(service)
    await service.history_gif(match_id, ALICE[0], GUILD)
    with refused(match="One replay every"):
        await service.history_gif(match_id, ALICE[0], GUILD)
    with refused(match="no match #"):
        await service.history_gif(match_id, BOB[0], OTHER_GUILD)
    service.clock.advance(31)
    assert (await service.history_gif(match_id, ALICE[0], GUILD))[:3] == b"GIF"


async def test_a_reminder_that_cannot_be_delivered_gives_up(world, caplog):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    bob.dms_open = False
    delete_thread(world.emu, thread)
    world.clock.advance(25 * 3600)
    caplog.set_level(logging.INFO, logger="bot")
    requests = []
    for _ in range(5):
        before = len(world.emu.requests)
        assert await world.bot.reminders.run_once() == 0
        requests.append(len(world.emu.requests) - before)
    assert requests[0] > 0 and requests[3:] == [0, 0]
    assert any(
        f"match {match_id}: giving up the reminder" in r.getMessage() and r.levelname == "WARNING"
        for r in caplog.records
    )
