"""Tournaments through the emulator: a 7-player, 3-round Swiss from the announcement to the podium, restarts
between each step of a round's advancement, and every refusal of bad input answered privately."""

from __future__ import annotations

import asyncio
import io
import logging
from collections import Counter

from PIL import Image

from bot.service.matches import MatchService
from bot.service.tournaments import Tournaments
from bot.store import open_store

DAY = 86400.0


def button(message, label):
    return next(b for b in message.buttons() if b["label"] == label)


async def until(check, timeout=10.0):
    """Poll ``check`` (async) until it returns something true; that value."""
    for _ in range(int(timeout / 0.02)):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def create(world, user, **options):
    result = await world.emu.invoke(user, world.channel, "tournament create", options)
    assert not result.ephemeral, result.text
    return result.response


async def games_of(world, tournament_id, number):
    store = world.bot.chat.service.store
    return [g for g in await store.tournament_games(tournament_id) if g.round == number]


async def opened(world, tournament_id, number, count):
    """The round's matches, once each has its thread and first board."""

    async def ready():
        games = [g for g in await games_of(world, tournament_id, number) if g.match_id is not None]
        matches = [await world.service.read(g.match_id) for g in games]
        if len(matches) == count and all(m.thread_id and m.board_message_id for m in matches):
            return matches
        return None

    return await until(ready)


async def test_a_seven_player_swiss_runs_three_rounds_to_its_podium(world7):
    world = world7
    alice = world.users[0]
    announcement = await create(world, alice, game="begird", format="swiss", rounds=3)
    tournament_id = int(button(announcement, "Join")["custom_id"].rsplit(":", 1)[1])
    for user in world.users[:7]:
        pressed = await world.emu.press(user, announcement, button(announcement, "Join")["custom_id"])
        assert not pressed.ephemeral, pressed.text
    shown = await _announcement(world, announcement.id)
    assert "Players (7/64)" in shown.content and [b["label"] for b in shown.buttons()] == ["Join", "Leave"]
    started = await world.emu.invoke(alice, world.channel, "tournament start", {})
    assert not started.ephemeral and "has started with 7 players" in started.text, started.text
    met: Counter[frozenset[int]] = Counter()
    byes = []
    for number in (1, 2, 3):
        matches = await opened(world, tournament_id, number, 3)
        games = await games_of(world, tournament_id, number)
        if number == 1:  # the announcement follows the event: no more Join/Leave
            shown = await until(lambda: _announcement_when(world, announcement.id, lambda m: "Under way" in m.content))
            assert shown.buttons() == []
        byes += [g.bye_user_id for g in games if g.bye_user_id is not None]
        for match in matches:
            thread = world.emu.channel(match.thread_id)
            first = next(m for m in world.emu.messages(thread) if m.attachments)
            for seat in match.seats:  # the players are pinged in their thread
                assert f"<@{seat.user_id}>" in first.content
            met[frozenset(s.user_id for s in match.seats)] += 1
        world.clock.advance(DAY)
        for match in matches:  # each game ends quickly: the second player resigns
            await world.service.resign(match.id, match.seats[1].user_id)
    assert len(byes) == 3 and len(set(byes)) == 3, byes  # one bye a round, never the same player twice
    assert set(met.values()) == {1}, met  # no rematch
    store = world.bot.chat.service.store

    async def finished():
        tournament = await store.get_tournament(tournament_id)
        return tournament if tournament.status == "finished" else None

    await until(finished)
    podium = await until(lambda: _first(world, lambda m: "is over!" in m.content and m.attachments))
    assert podium.attachments[0].filename == "standings.png"
    picture = Image.open(io.BytesIO(podium.attachments[0].data))
    assert picture.width == 720 and picture.height > 7 * 40  # a row per player, drawn to be scaled to a phone
    assert "Buchholz" in podium.content
    table = await world.emu.invoke(world.users[1], world.channel, "tournament standings", {"tournament": tournament_id})
    await table.wait_for(lambda r: " (Buchholz" in r.text)
    assert table.ephemeral  # the asker's; its Share button posts it for everyone
    lines = [line for line in table.text.splitlines() if " (Buchholz" in line]
    assert len(lines) == 7
    points = [float(line.split(" — ")[1].split(" pt")[0]) for line in lines]
    assert points == sorted(points, reverse=True) and sum(points) == 3 * 3 + 3  # a point a game, a point a bye
    final = await _announcement(world, announcement.id)
    assert "Finished" in final.content and final.buttons() == []  # the announcement followed the event


async def _first(world, check):
    found = [m for m in world.emu.messages(world.channel) if check(m)]
    return found[0] if found else None


async def _announcement_when(world, message_id, check):
    message = await _announcement(world, message_id)
    return message if check(message) else None


async def _announcement(world, message_id):
    return next(m for m in world.emu.messages(world.channel) if m.id == message_id)


async def test_restarts_between_each_step_lose_no_pairing_and_open_no_match_twice(world7):
    """The bot is stopped (as a kill would) after each step of an advancement; each restart carries on
    from what the store holds: nothing is paired twice, every match has one thread and one first board."""
    world = world7
    users = world.users[:4]
    announcement = await create(world, users[0], game="bump", format="swiss", rounds=2)
    tournament_id = int(button(announcement, "Join")["custom_id"].rsplit(":", 1)[1])
    for user in users:
        await world.emu.press(user, announcement, button(announcement, "Join")["custom_id"])
    await world.emu.invoke(users[0], world.channel, "tournament start", {})
    first = await opened(world, tournament_id, 1, 2)
    # step 1: the round's last game ends while the bot is down (its finish is stored, the advance is not)
    await world.stop_bot()
    store = await open_store(str(world.db_path))
    bare = MatchService(store, world.clock)  # a process without the desk: nothing tells the event
    for match in first:
        await bare.resign(match.id, match.seats[1].user_id)
    assert (await store.get_tournament(tournament_id)).round == 1
    # step 2: the next round is stored, but the process stops before opening any thread
    news = await Tournaments(bare).tend(tournament_id)
    assert news is not None and news.round == 2 and len(news.started) == 2
    again = await Tournaments(bare).tend(tournament_id)  # a second look (another process) pairs nothing more
    assert again is not None and not again.started
    await store.close()
    # step 3: the restart opens the stored round's matches (once each) and tells the round (once)
    await world.start_bot()
    second = await opened(world, tournament_id, 2, 2)
    await world.bot.get_cog("Tournaments").desk.tend_all()  # the next pass tells the round once its threads opened
    assert {frozenset(s.user_id for s in m.seats) for m in second}.isdisjoint(
        {frozenset(s.user_id for s in m.seats) for m in first}
    )
    await world.restart_bot()  # step 4: one more restart changes nothing
    await asyncio.sleep(0.3)
    for match in second:
        boards = [m for m in world.emu.messages(world.emu.channel(match.thread_id)) if m.attachments]
        assert len(boards) == 1, match.id
        assert boards[0].content.startswith("(Posted after a restart.)")  # opened by start-up's catch-up
    notices = [m for m in world.emu.messages(world.channel) if "round 2 of 2 has started" in m.content]
    assert len(notices) == 1
    games = await world.bot.chat.service.store.tournament_games(tournament_id)
    assert len([g for g in games if g.match_id is not None]) == 4  # two rounds of two: nothing doubled
    assert len(world.emu.threads(world.channel)) == 4  # a thread per match, none twice


async def test_bad_input_is_refused_privately_and_changes_nothing(world7):
    world = world7
    alice, bob, carol, dave = world.users[:4]
    store = world.bot.chat.service.store

    async def refused(user, command, options, fragment):
        result = await world.emu.invoke(user, world.channel, command, options)
        assert result.ephemeral, result.text
        assert fragment in result.text, result.text
        return result

    announcement = await create(world, alice, game="bide", format="swiss", max_players=3)
    tournament_id = int(button(announcement, "Join")["custom_id"].rsplit(":", 1)[1])
    await refused(bob, "tournament start", {}, "Only the organizer can start")
    await refused(alice, "tournament start", {}, "needs at least 3 players to start; 0 have joined")
    await refused(bob, "tournament cancel", {}, "Only the organizer or a server manager")
    await refused(bob, "tournament withdraw", {"tournament": tournament_id}, "has not started")
    await refused(bob, "tournament leave", {}, "You are not a player")
    await refused(alice, "tournament create", {"game": "bide", "format": "round-robin"}, "choose Swiss")
    for user in (alice, bob):
        await world.emu.press(user, announcement, button(announcement, "Join")["custom_id"])
    before = await store.get_tournament(tournament_id)
    twice = await world.emu.press(bob, announcement, button(announcement, "Join")["custom_id"])
    assert twice.ephemeral and "already joined" in twice.text
    await refused(bob, "tournament join", {}, "already joined")
    await world.emu.invoke(carol, world.channel, "tournament join", {})
    await refused(dave, "tournament join", {}, "is full")
    assert (await store.get_tournament(tournament_id)).players[:2] == before.players
    await world.emu.invoke(alice, world.channel, "tournament start", {})
    await refused(dave, "tournament join", {"tournament": tournament_id}, "already started")
    await refused(carol, "tournament leave", {"tournament": tournament_id}, "use /tournament withdraw")
    for _ in range(2):
        await create(world, alice, game="bump", format="round-robin")
    await refused(alice, "tournament create", {"game": "bump", "format": "swiss"}, "You already run 3 tournaments")
    assert len(await store.tournaments_of_guild(world.guild.id, ("open", "running"))) == 3
    await refused(bob, "tournament standings", {"tournament": 999}, "There is no tournament #999")


async def test_an_unreadable_event_is_set_aside_and_its_organizer_is_told_once(world7, caplog):
    """Issue 34, item 5: a tournament row that cannot be read failed every pass with a traceback, nobody was
    told, and /tournament standings sent the asker to look at a match. Now the start-up pass sets it aside
    (one ERROR line), its organizer gets one DM however many passes and restarts follow, and /tournament says
    privately that it is paused."""
    world = world7
    alice = world.users[0]
    announcement = await create(world, alice, game="begird", format="swiss", rounds=2)
    tournament_id = int(button(announcement, "Join")["custom_id"].rsplit(":", 1)[1])
    for user in world.users[:4]:
        await world.emu.press(user, announcement, button(announcement, "Join")["custom_id"])
    await world.emu.invoke(alice, world.channel, "tournament start", {})
    await opened(world, tournament_id, 1, 2)
    await world.stop_bot()
    store = await open_store(str(world.db_path))
    async with store.transaction() as db:
        await db.execute("UPDATE tournaments SET options = '{not json' WHERE id = ?", (tournament_id,))
    await store.close()
    caplog.set_level(logging.INFO, logger="bot")

    def told():
        return [m for m in world.emu.dms(alice) if f"tournament #{tournament_id} is paused" in m.content]

    async def told_once():
        return told()

    await world.start_bot()  # the pass at start-up sets it aside and tells its organizer
    await until(told_once)
    for _ in range(2):
        await world.bot.chat.tournaments.current(tournament_id)
        await world.restart_bot()
        await asyncio.sleep(0.3)
    assert len(told()) == 1
    standings = await world.emu.invoke(
        world.users[1], world.channel, "tournament standings", {"tournament": tournament_id}
    )
    assert standings.ephemeral and f"Tournament #{tournament_id} is paused" in standings.text, standings.text
    assert "Look at the match" not in standings.text
    said = [r for r in caplog.records if f"tournament {tournament_id} set aside" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [r for r in caplog.records if r.exc_info], "set aside, never a traceback"
