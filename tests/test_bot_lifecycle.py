"""A match's whole life, end to end through the emulator: lobbies, endings, autocomplete edges."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.domain.replay import replay
from bot.domain.seats import game_of, player_row, user_to_move
from tests.botworld import BotWorld
from tests.said import refused


async def move(world, user, channel, text, **extra):
    return await world.emu.invoke(user, channel, "move", {"move": text, **extra})


async def dm_arrives(world, user, fragment, timeout=5.0):
    """A DM to ``user`` containing ``fragment``, whether it came before this call or comes within the timeout."""
    for _ in range(int(timeout / 0.02)):
        found = [m for m in world.emu.dms(user) if fragment in m.content]
        if found:
            return found[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no DM to {user!r} with {fragment!r}")


async def arrives(world, channel, check, timeout=5.0):
    """A bot message in ``channel`` passing ``check``, whether posted before this call or within the timeout."""
    for _ in range(int(timeout / 0.02)):
        found = [m for m in world.emu.messages(channel) if check(m)]
        if found:
            return found[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no matching message in {channel!r}")


def button(message, label):
    return next(b for b in message.buttons() if b["label"] == label)


async def play_to_the_end(world, match_id, channel, rng, limit=400):
    result = None
    for _ in range(limit):
        game = await world.game(match_id)
        if game.is_over:
            return result
        user = await world.user_to_move(match_id)
        legal = [n for n in game.legal_notations() if n != "bide"] or game.legal_notations()
        result = await move(world, user, channel, rng.choice(legal))
        assert not result.ephemeral, result.text
    raise AssertionError("game did not finish")


# -- lobbies --------------------------------------------------------------------------------


async def test_cancel_takes_the_lobby_buttons_away(world):
    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob])
    done = await world.emu.press(alice, lobby.response, button(lobby.response, "Cancel")["custom_id"])
    message = world.emu.message(lobby.response.id)
    assert "cancelled" in done.text and message.buttons() == []
    assert (await world.store.get_match(1)).status == "cancelled"


async def test_a_button_on_a_lobby_cancelled_elsewhere_is_retired_with_a_reason(world):
    alice, _bob, carol = world.users[:3]
    lobby = await world.challenge(alice, seats=3)
    await world.service.cancel(1, alice.id)  # e.g. from another message, or just before a restart
    pressed = await world.emu.press(carol, lobby.response, button(lobby.response, "Join")["custom_id"])
    reason = (await pressed.wait_followups(1))[0]
    assert reason.ephemeral and "no match #1" in reason.content
    retired = world.emu.message(lobby.response.id)
    assert retired.buttons() == [] and "cancelled" in retired.content


async def test_two_seat_lobby_has_no_start_button(world):
    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob])
    assert "Start" not in {b["label"] for b in lobby.response.buttons()}
    assert "Start" not in lobby.response.content
    open_lobby = await world.challenge(alice, seats=2)
    assert "Start" not in {b["label"] for b in open_lobby.response.buttons()}


async def test_start_line_and_button_only_while_start_can_help(world):
    alice, bob, _carol = world.users[:3]
    lobby = await world.challenge(alice, seats=3, options="side=4")
    assert "Start" not in {b["label"] for b in lobby.response.buttons()}  # one ready player cannot start
    await world.emu.press(bob, lobby.response, button(lobby.response, "Join")["custom_id"])
    message = world.emu.message(lobby.response.id)
    assert "Start" in {b["label"] for b in message.buttons()} and "**Start**" in message.content
    await world.emu.press(alice, message, button(message, "Start")["custom_id"])
    await world.wait_thread(1)
    started = world.emu.message(lobby.response.id)
    assert started.buttons() == [] and "Start" not in started.content and "begins" in started.content


# -- endings --------------------------------------------------------------------------------


async def test_a_resignation_pings_every_player_and_dms_those_who_want_dms(world):
    alice, bob, carol = world.users[:3]
    await world.emu.invoke(bob, world.channel, "settings", {"via": "ping"})
    lobby = await world.challenge(alice, seats=3, options="side=4")
    for user in (bob, carol):
        await world.emu.press(user, world.emu.message(lobby.response.id), button(lobby.response, "Join")["custom_id"])
    thread = await world.wait_thread(1)
    await move(world, alice, thread, "d4")
    for user in (bob, carol):  # two resignations end a three-player game
        asked = await world.emu.invoke(user, thread, "resign", {})
        await world.emu.press(user, asked.response, asked.response.buttons()[0]["custom_id"])
    final = await arrives(world, thread, lambda m: "Game over" in m.content and m.attachments)
    assert {alice.id, bob.id, carol.id} <= set(final.mentions)
    for user in (alice, carol):
        await dm_arrives(world, user, "has ended")
    assert not any("has ended" in m.content for m in world.emu.dms(bob))  # bob's reminders come by ping


async def test_a_finished_game_names_scores_pings_both_and_updates_ratings(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(options="side=4")
    last = await play_to_the_end(world, match_id, thread, random.Random(5))
    game = await world.game(match_id)
    scores = game.scores()
    assert scores is not None
    assert f"alice {int(scores[0])}" in last.text and f"bob {int(scores[1])}" in last.text
    assert {alice.id, bob.id} <= set(last.response.mentions)
    await dm_arrives(world, bob, "has ended")
    game = await world.game(match_id)
    match = await world.service.get(match_id)
    winner = player_row(match, game, game.winners[0]).user_id
    loser = alice.id if winner == bob.id else bob.id
    board = await world.emu.invoke(alice, world.channel, "leaderboard", {"game": "bide"})
    lines = board.text.splitlines()
    assert lines[1].startswith(f"1. <@{winner}>") and "1 W / 0 L" in lines[1]
    assert lines[2].startswith(f"2. <@{loser}>") and "0 W / 1 L" in lines[2]
    profile = await world.emu.invoke(
        alice, world.channel, "profile", {"user": world.users[1 if winner == bob.id else 0]}
    )
    assert "Bide: rating" in profile.text and "#1 of 2" in profile.text and "Playing now: nothing" in profile.text


# -- autocomplete and preview ---------------------------------------------------------------


async def test_autocomplete_during_an_owed_release_offers_only_whole_turns(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    for user, text in ((alice, "bide"), (bob, "bide"), (alice, "e5,d4")):
        assert not (await move(world, user, thread, text)).ephemeral
    choices = await world.emu.autocomplete(bob, thread, "move", {"move": ""})
    assert "owe a release" in choices[0]["name"]
    game = await world.game(match_id)
    for choice in choices:
        game.copy().play_turn(choice["value"])  # the engine accepts every offered value
    typed = await world.emu.autocomplete(bob, thread, "move", {"move": "a1,"})
    for choice in typed:
        assert choice["value"].startswith("a1,")
        game.copy().play_turn(choice["value"])
    played = await move(world, bob, thread, choices[0]["value"])
    assert not played.ephemeral


async def test_a_non_player_is_told_they_are_not_playing(world):
    carol = world.users[2]
    _match_id, thread = await world.start_two_player()
    choices = await world.emu.autocomplete(carol, thread, "move", {"move": ""})
    assert len(choices) == 1 and "not playing" in choices[0]["name"]


async def test_preview_by_the_player_not_to_move_is_refused_clearly(world):
    bob = world.users[1]
    _match_id, thread = await world.start_two_player()
    shown = await world.emu.invoke(bob, thread, "preview", {"move": "e5"})
    assert shown.ephemeral and "not your turn" in shown.text and not shown.response.attachments


# -- draw offers and takebacks ------------------------------------------------------------


@pytest.fixture
def drawable_bide(monkeypatch):
    """Bide standing in for a game that allows draws (Play Bai and Bump set ``allows_draws``)."""
    import dataclasses

    from games import registry
    from games.bide import Bide

    info = dataclasses.replace(Bide.info, allows_draws=True)
    monkeypatch.setattr(Bide, "info", info)
    monkeypatch.setitem(registry.GAMES, "bide", info)
    return info


async def log_replays_to_state(world, match_id):
    match = await world.service.get(match_id)
    rebuilt = replay(match, await world.store.moves(match_id))
    assert rebuilt.to_json() == match.state


async def test_draw_offer_accepted_after_a_restart_ends_the_game_as_a_draw(world, drawable_bide):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await move(world, alice, thread, "e5")
    await move(world, bob, thread, "a1")
    offered = await world.emu.invoke(alice, thread, "draw", {})
    assert not offered.ephemeral and "offers a draw" in offered.text and bob.id in offered.response.mentions
    own = await world.emu.press(alice, offered.response, button(offered.response, "Accept")["custom_id"])
    assert own.ephemeral and "You made this offer" in own.text
    again = await world.emu.invoke(alice, thread, "draw", {})
    assert again.ephemeral and "already asked" in again.text
    await world.restart_bot()  # the pending offer and its buttons survive
    accepted = await world.emu.press(bob, offered.response, button(offered.response, "Accept")["custom_id"])
    assert not accepted.ephemeral and "agreed a draw" in accepted.text
    assert world.emu.message(offered.response.id).buttons() == []
    final = await arrives(world, thread, lambda m: "Game over: a draw" in m.content and m.attachments)
    assert {alice.id, bob.id} <= set(final.mentions) and final.attachments
    match = await world.service.get(match_id)
    assert match.status == "finished" and match.result["winners"] == []
    assert [m.kind for m in await world.store.moves(match_id)] == ["turn", "turn", "draw"]
    rated = await world.store.ratings_of(world.guild.id, "bide", [alice.id, bob.id])
    assert rated[alice.id].draws == rated[bob.id].draws == 1 and rated[alice.id].mu == rated[bob.id].mu
    await log_replays_to_state(world, match_id)
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "draw agreed" in history.text


async def test_a_draw_offer_lapses_when_a_turn_is_played_and_can_be_declined(world, drawable_bide):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    offered = await world.emu.invoke(alice, thread, "draw", {})
    await move(world, alice, thread, "e5")  # the maker moves: the offer lapses, and its buttons go
    lapsed = await arrives(world, thread, lambda m: m.id == offered.response.id and "Lapsed" in m.content)
    assert lapsed.buttons() == []
    takeback = await world.emu.invoke(alice, thread, "undo", {})
    await world.service.play(match_id, bob.id, "a1")  # a move made elsewhere (no board here): buttons stay
    late = await world.emu.press(bob, takeback.response, button(takeback.response, "Accept")["custom_id"])
    assert "no longer open" in (await late.wait_followups(1))[0].content
    assert world.emu.message(takeback.response.id).buttons() == []
    assert (await world.service.get(match_id)).status == "active"
    second = await world.emu.invoke(bob, thread, "draw", {})
    declined = await world.emu.press(alice, second.response, button(second.response, "Decline")["custom_id"])
    assert "declined" in declined.text and world.emu.message(second.response.id).buttons() == []
    stranger = await world.emu.invoke(world.users[2], thread, "draw", {"match": match_id})
    assert stranger.ephemeral and "not a player" in stranger.text
    assert (await world.service.get(match_id)).status == "active"


async def test_games_without_draws_refuse_a_draw_offer(world):
    alice = world.users[0]
    _match_id, thread = await world.start_two_player()
    answer = await world.emu.invoke(alice, thread, "draw", {})
    assert answer.ephemeral and "cannot be drawn" in answer.text


async def test_takeback_by_consent_across_a_restart_keeps_both_rows_in_the_log(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await move(world, alice, thread, "e5")
    not_last = await world.emu.invoke(bob, thread, "undo", {})
    assert not_last.ephemeral and "Only the player who made the last turn" in not_last.text
    asked = await world.emu.invoke(alice, thread, "undo", {})
    assert not asked.ephemeral and "take back" in asked.text
    await world.restart_bot()
    done = await world.emu.press(bob, asked.response, button(asked.response, "Accept")["custom_id"])
    assert "taken back" in done.text
    board = await arrives(world, thread, lambda m: "taken back" in m.content and m.attachments)
    assert alice.id in board.mentions
    game = await world.game(match_id)
    assert game.ply == 0 and game.position()["board"] == {}
    assert [m.kind for m in await world.store.moves(match_id)] == ["turn", "takeback"]
    await log_replays_to_state(world, match_id)
    again = await world.emu.invoke(alice, thread, "undo", {})
    assert again.ephemeral  # a takeback cannot itself be taken back
    replayed = await move(world, alice, thread, "d4")
    assert not replayed.ephemeral
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "takeback" in history.text and "e5" in history.text and "d4" in history.text
    await move(world, bob, thread, "a1")
    too_late = await world.emu.invoke(alice, thread, "undo", {})
    assert too_late.ephemeral and "before the next turn" in too_late.text
    await log_replays_to_state(world, match_id)


async def test_migration_rebuilds_moves_of_an_old_database(tmp_path):
    import sqlite3

    from bot.store.sqlite import SqliteStore
    from bot.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute(
        "INSERT INTO matches (id, game, options, players, guild_id, channel_id, creator_id, status,"
        " created_at, updated_at) VALUES (1, 'bide', '{}', 2, 1, 1, 1, 'active', 0, 0)"
    )
    db.execute("INSERT INTO moves VALUES (1, 1, 0, 1, 1, 'turn', 'e5', 'E5', '[]', 0)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        [kept] = await store.moves(1)
        assert (kept.notation, kept.entered, kept.kind) == ("e5", "E5", "turn")
        async with store.transaction() as conn:
            await conn.execute(
                "INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at)"
                " VALUES (1, 2, 1, 1, 1, 'takeback', 'takeback e5', '', '[]', 0)"
            )
    finally:
        await store.close()


async def test_migration_drops_the_unread_challenges_table_and_keeps_the_lobby(tmp_path):
    import sqlite3

    from bot.store.sqlite import SqliteStore
    from bot.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:7]:  # a database as the bot left it before migration 8
        db.executescript(script)
    db.execute(
        "INSERT INTO matches (id, game, options, players, guild_id, channel_id, creator_id, status,"
        " created_at, updated_at) VALUES (1, 'bide', '{}', 3, 1, 1, 10, 'lobby', 0, 0)"
    )
    db.execute("INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES (1, 1, 10, 'alice', 1)")
    db.execute("INSERT INTO challenges (match_id, invited, open_seats, created_at) VALUES (1, '[]', 2, 0)")
    db.execute("PRAGMA user_version = 7")
    db.commit()
    db.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        async with (
            store.reading() as conn,
            conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor,
        ):
            tables = {row[0] for row in await cursor.fetchall()}
        assert "challenges" not in tables and {"matches", "seats"} <= tables
        lobby = await store.get_match(1)
        assert lobby is not None and lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [10]
    finally:
        await store.close()


# -- time limits, vacations, outages ------------------------------------------------------

HOUR = 3600


async def start_timed(world, days, users=(0, 1), options="side=4"):
    players = [world.users[i] for i in users]
    lobby = await world.challenge(players[0], players[1:], days=days, options=options)
    assert f"{days} days per move" in lobby.response.content or f"{days} day per move" in lobby.response.content
    accept = button(lobby.response, "Accept")["custom_id"]
    match_id = int(accept.rsplit(":", 1)[1])
    for user in players[1:]:
        await world.emu.press(user, world.emu.message(lobby.response.id), accept)
    return match_id, await world.wait_thread(match_id)


def timeouts(world, thread):
    return [m for m in world.emu.messages(thread) if "run out of time" in m.content]


async def test_time_limit_warns_then_lets_the_opponent_claim_the_win(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_timed(world, 3)
    first = next(m for m in world.emu.messages(thread) if m.attachments)
    assert "time runs out <t:" in first.content
    board = await world.emu.invoke(bob, thread, "board", {})
    assert "time runs out <t:" in board.text
    games = await world.emu.invoke(alice, world.channel, "games", {})
    assert "time runs out <t:" in games.text
    world.clock.advance(47 * HOUR)
    await world.bot.reminders.run_once()  # alice's ordinary reminder (24 h) says how long she has
    assert [m for m in world.emu.dms(alice) if "your turn" in m.content and "time runs out <t:" in m.content]
    assert not any("Your time" in m.content for m in world.emu.dms(alice))
    world.clock.advance(2 * HOUR)  # 23 h left: the 24 h warning, by DM like alice's reminders
    await world.bot.reminders.run_once()
    assert sum("Your time" in m.content for m in world.emu.dms(alice)) == 1
    await world.bot.reminders.run_once()
    assert sum("Your time" in m.content for m in world.emu.dms(alice)) == 1  # once only
    world.clock.advance(22.5 * HOUR)  # 30 min left: the 1 h warning, with the day's reminder due too: one message
    await world.bot.reminders.run_once()
    last = world.emu.dms(alice)[-1]
    assert "It is your turn" in last.content and "your time runs out <t:" in last.content, last.content
    assert sum("Your time" in m.content or "your time runs out" in m.content for m in world.emu.dms(alice)) == 2
    early = await world.service.get(match_id)
    assert early.status == "active" and timeouts(world, thread) == []
    world.clock.advance(HOUR)
    await world.bot.reminders.run_once()
    [notice] = timeouts(world, thread)
    assert bob.id in notice.mentions and "Claim" in notice.content
    claim = button(notice, "Claim win")
    own = await world.emu.press(alice, notice, claim["custom_id"])
    assert own.ephemeral and "your own time" in own.text
    await world.bot.reminders.run_once()
    assert len(timeouts(world, thread)) == 1  # announced once
    claimed = await world.emu.press(bob, notice, claim["custom_id"])
    assert not claimed.ephemeral and world.emu.message(notice.id).buttons() == []
    final = await arrives(world, thread, lambda m: "lost on time" in m.content and m.attachments)
    assert "Game over" in final.content and "bob" in final.content and {alice.id, bob.id} <= set(final.mentions)
    match = await world.service.get(match_id)
    assert match.status == "finished" and match.deadline_at is None
    assert [m.kind for m in await world.store.moves(match_id)] == ["timeout"]
    await log_replays_to_state(world, match_id)


async def test_a_move_in_time_restarts_the_clock_and_an_early_claim_is_refused(world):
    alice, _bob = world.users[:2]
    match_id, thread = await start_timed(world, 1)
    world.clock.advance(20 * HOUR)
    await move(world, alice, thread, "d4")
    match = await world.service.get(match_id)
    assert match.deadline_at == world.clock.now() + 24 * HOUR

    with refused(match="has not run out of time"):
        await world.bot.chat.timelimits.claim(match_id, alice.id, 1)
    world.clock.advance(25 * HOUR)
    with refused(match="out of date"):  # a claim names the turn that ran out
        await world.bot.chat.timelimits.claim(match_id, alice.id, 0)


async def test_a_deadline_passing_while_the_bot_is_down_is_extended_by_the_outage(world):
    alice, _bob = world.users[:2]
    match_id, thread = await start_timed(world, 1)
    before = (await world.service.get(match_id)).deadline_at
    world.clock.advance(2 * HOUR)
    await world.stop_bot()
    world.clock.advance(3 * 24 * HOUR)  # the deadline passes while nobody can move
    await world.start_bot()
    match = await world.service.get(match_id)
    assert match.deadline_at == before + 3 * 24 * HOUR
    assert len(await world.store.outages()) == 1
    await world.bot.reminders.run_once()
    assert timeouts(world, thread) == []
    played = await move(world, alice, thread, "d4")  # still in time: 22 h left
    assert not played.ephemeral
    await world.restart_bot()  # a short stop is no outage
    assert len(await world.store.outages()) == 1


async def test_a_long_loss_of_the_discord_connection_is_an_outage_too(world):
    alice = world.users[0]
    match_id, thread = await start_timed(world, 1)
    before = (await world.service.get(match_id)).deadline_at
    bot = world.bot
    reconnected = asyncio.Event()
    back_online = bot._back_online

    async def held_until_two_hours_pass():  # the emulator reconnects at once: hold the bot's reaction
        await reconnected.wait()
        await back_online()

    bot._back_online = held_until_two_hours_pass
    await world.emu.disconnect_bot()
    for _ in range(250):
        if bot._offline_since is not None:
            break
        await asyncio.sleep(0.02)
    world.clock.advance(2 * HOUR)  # the gateway is down for two hours (as the bot sees it)
    reconnected.set()
    for _ in range(250):
        if await world.store.outages():
            break
        await asyncio.sleep(0.02)
    [(start, end)] = await world.store.outages()
    assert end - start == 2 * HOUR
    assert (await world.service.get(match_id)).deadline_at == before + 2 * HOUR
    assert not (await move(world, alice, thread, "d4")).ephemeral


async def test_multi_seat_bide_time_out_drops_the_seat_and_play_goes_on(world):
    alice, bob, carol = world.users[:3]
    match_id, thread = await start_timed(world, 1, users=(0, 1, 2))
    await move(world, alice, thread, "d4")
    world.clock.advance(25 * HOUR)  # bob runs out
    await world.bot.reminders.run_once()
    [notice] = timeouts(world, thread)
    assert {alice.id, carol.id} <= set(notice.mentions) and "drop them" in notice.content
    await world.emu.press(carol, notice, button(notice, "Claim: drop the seat")["custom_id"])
    match = await world.service.get(match_id)
    game = game_of(match)
    assert match.status == "active" and match.seat_of(bob.id).resigned
    assert user_to_move(match, game) == carol.id
    assert match.deadline_at == world.clock.now() + 24 * HOUR
    answer = await move(world, bob, thread, "a1")
    assert answer.ephemeral
    left = await world.emu.autocomplete(bob, thread, "move", {"move": ""})
    assert len(left) == 1 and "You have left" in left[0]["name"]
    await log_replays_to_state(world, match_id)


async def test_vacation_pauses_clocks_silences_reminders_and_is_limited(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_timed(world, 1)
    before = (await world.service.get(match_id)).deadline_at
    went = await world.emu.invoke(alice, world.channel, "vacation", {"days": 5})
    assert went.ephemeral and "on vacation until" in went.text and "1 running" in went.text
    assert (await world.service.get(match_id)).deadline_at == before + 5 * 24 * HOUR
    seen = await world.emu.invoke(bob, thread, "board", {})
    assert "alice is on vacation until" in seen.text
    again = await world.emu.invoke(alice, world.channel, "vacation", {"days": 1})
    assert again.ephemeral and "already on vacation" in again.text
    await world.restart_bot()  # the vacation is stored, not remembered
    world.clock.advance(2 * 24 * HOUR)
    assert await world.bot.reminders.run_once() == 0 and world.emu.dms(alice) == []
    world.clock.advance(3 * 24 * HOUR + HOUR)  # back; 23 h left on the clock
    await move(world, alice, thread, "d4")
    too_much = await world.emu.invoke(alice, world.channel, "vacation", {"days": 26})
    assert too_much.ephemeral and "25 vacation days left" in too_much.text


# -- ratings ----------------------------------------------------------------------------------


async def resign_by_command(world, user, thread):
    asked = await world.emu.invoke(user, thread, "resign", {})
    await world.emu.press(user, asked.response, asked.response.buttons()[0]["custom_id"])
    await arrives(world, thread, lambda m: "resigned" in m.content and "Game over" in m.content and m.attachments)


async def test_unrated_aborted_and_computer_matches_do_not_count(world):
    alice, bob, carol = world.users[:3]
    lobby = await world.challenge(alice, [bob], rated=False)
    assert "unrated" in lobby.response.content
    await world.emu.press(bob, lobby.response, button(lobby.response, "Accept")["custom_id"])
    thread = await world.wait_thread(1)
    await move(world, alice, thread, "d4")
    await move(world, bob, thread, "a1")
    await resign_by_command(world, bob, thread)  # unrated
    match_id, thread2 = await world.start_two_player(a=0, b=2)
    await move(world, alice, thread2, "d4")
    await resign_by_command(world, carol, thread2)  # before the second turn: aborted
    robot = world.bot.user.id
    computer = await world.service.create(
        game_id="bide",
        creator=(alice.id, "alice"),
        invited=[(robot, "Hexplay")],
        guild_id=world.guild.id,
        channel_id=world.channel.id,
    )
    await world.service.accept(computer.id, robot)
    await world.service.play(computer.id, alice.id, "d4")
    await world.service.play(computer.id, robot, "a1")
    await world.service.resign(computer.id, robot)
    for match_id in (1, 2, computer.id):
        assert (await world.service.get(match_id)).status == "finished"
    board = await world.emu.invoke(alice, world.channel, "leaderboard", {"game": "bide"})
    assert "No rated Bide matches" in board.text


async def test_multi_seat_resignation_ranks_last_and_counts(world):
    alice, bob, carol = world.users[:3]
    lobby = await world.challenge(alice, [bob, carol], options="side=4")
    accept = button(lobby.response, "Accept")["custom_id"]
    for user in (bob, carol):
        await world.emu.press(user, world.emu.message(lobby.response.id), accept)
    thread = await world.wait_thread(1)
    for user, text in ((alice, "d4"), (bob, "a1")):
        await move(world, user, thread, text)
    asked = await world.emu.invoke(carol, thread, "resign", {})
    await world.emu.press(carol, asked.response, asked.response.buttons()[0]["custom_id"])
    await resign_by_command(world, bob, thread)  # alice wins; bob was still playing when carol left
    rows = await world.store.ratings_of(world.guild.id, "bide", [alice.id, bob.id, carol.id])
    assert rows[alice.id].mu > rows[bob.id].mu > rows[carol.id].mu
    assert (rows[alice.id].wins, rows[bob.id].losses, rows[carol.id].losses) == (1, 1, 1)


async def test_a_match_finished_while_the_bot_was_stopping_is_rated_at_start_up(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await move(world, alice, thread, "d4")
    await move(world, bob, thread, "a1")
    await world.stop_bot()
    from bot.service.matches import MatchService
    from bot.store import open_store

    store = await open_store(str(world.db_path))  # a service without the rating hook: as if it stopped just after
    try:  # a failure here must fail the test, not leave the database thread running
        await MatchService(store, world.clock).resign(match_id, alice.id)
    finally:
        await store.close()
    await world.start_bot()
    rows = await world.store.ratings_of(world.guild.id, "bide", [alice.id, bob.id])
    assert rows[bob.id].wins == 1 and rows[alice.id].losses == 1
    await world.restart_bot()  # settled once only
    rows = await world.store.ratings_of(world.guild.id, "bide", [alice.id, bob.id])
    assert rows[bob.id].games == 1


async def test_leaderboard_shows_the_top_ten_and_the_callers_own_rank(world):
    from bot.domain.model import RatingRow

    alice = world.users[0]
    rows = [RatingRow(world.guild.id, "bide", 1000 + i, f"p{i}", 40.0 - i, 2.0, 3, 3, 0, 0) for i in range(12)]
    rows.append(RatingRow(world.guild.id, "bide", alice.id, "alice", 20.0, 3.0, 2, 0, 2, 0))
    async with world.store.transaction() as db:
        for r in rows:
            await db.execute(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws),
            )
    board = await world.emu.invoke(alice, world.channel, "leaderboard", {"game": "bide"})
    lines = board.text.splitlines()
    assert board.ephemeral and len(lines) == 1 + 10 + 2 + 1  # the last line explains the ratings
    assert lines[1].startswith("1. <@1000>") and lines[-2].startswith(f"13. <@{alice.id}>") and "you" in lines[-2]


# -- rematch, server list, /config, /help -------------------------------------------------------


async def test_rematch_from_the_final_board_rotates_seats_and_keeps_the_options(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_timed(world, 3)
    await move(world, alice, thread, "d4")
    await move(world, bob, thread, "a1")
    await resign_by_command(world, alice, thread)
    final = [m for m in world.emu.messages(thread) if "Game over" in m.content and m.attachments][-1]
    rematch = button(final, "Rematch")
    stranger = await world.emu.press(world.users[2], final, rematch["custom_id"])
    assert stranger.ephemeral and "Only the players" in stranger.text
    asked = await world.emu.press(bob, final, rematch["custom_id"])
    assert asked.ephemeral and "Rematch offered" in asked.text
    lobby = await arrives(world, world.channel, lambda m: "asks for a rematch" in m.content)
    assert alice.id in lobby.mentions and "3 days per move" in lobby.content
    await world.emu.press(alice, lobby, button(lobby, "Accept")["custom_id"])
    new_id = match_id + 1
    await world.wait_thread(new_id)
    new = await world.service.get(new_id)
    old = await world.service.get(match_id)
    assert [s.user_id for s in new.seats] == [bob.id, alice.id]  # seats rotated: bob opens now
    assert (new.options, new.days_per_move, new.rated) == (old.options, old.days_per_move, old.rated)


async def test_games_all_lists_the_servers_matches_for_spectators(world):
    _alice, _bob, _carol, dave = world.users
    _first, thread1 = await world.start_two_player(a=0, b=1)
    _second, thread2 = await world.start_two_player(a=2, b=3)
    shown = await world.emu.invoke(dave, world.channel, "games", {"all": True})
    assert shown.ephemeral and f"<#{thread1.id}>" in shown.text and f"<#{thread2.id}>" in shown.text
    assert "alice vs bob" in shown.text and "carol vs dave" in shown.text
    mine = await world.emu.invoke(dave, world.channel, "games", {})
    assert f"<#{thread1.id}>" not in mine.text


def grant_manage_guild(world, user):
    store = world.emu.store
    original = store.member_permissions

    def permissions(channel, member):
        bits = original(channel, member)
        return bits | (1 << 5) if member.id == user.id else bits  # MANAGE_GUILD

    store.member_permissions = permissions


async def test_config_is_for_admins_and_sets_server_defaults(world):
    alice, bob = world.users[:2]
    command = next(c for c in world.emu.commands(world.guild) if c["name"] == "config")
    assert int(command["default_member_permissions"]) == 1 << 5  # hidden from non-admins by Discord
    answer = await world.emu.invoke(bob, world.channel, "config", {"days": 3})
    assert answer.ephemeral and "Manage Server" in answer.text
    shown = await world.emu.invoke(bob, world.channel, "config", {})
    assert "none (default)" in shown.text
    grant_manage_guild(world, alice)
    arena = world.emu.create_text_channel(world.guild, "arena")
    saved = await world.emu.invoke(alice, world.channel, "config", {"channel": arena, "days": 7, "reminder_hours": 2})
    assert "Saved" in saved.text and f"<#{arena.id}>" in saved.text and "7 days" in saved.text
    await world.restart_bot()
    stored = await world.service.store.guild_settings(world.guild.id)
    assert (stored.days_per_move, stored.reminder_hours, stored.match_channel_id) == (7, 2, arena.id)
    match_id, thread = await world.start_two_player()
    match = await world.service.get(match_id)
    assert match.days_per_move == 7 and thread.parent_id == arena.id  # the thread opened in #arena
    world.clock.advance(3 * HOUR)  # the server's 2 h reminder delay applies to alice
    assert await world.bot.reminders.run_once() == 1
    settings = await world.emu.invoke(alice, world.channel, "settings", {})
    assert "2 h" in settings.text
    lobby = await world.challenge(alice, [bob], days=0)
    assert "per move" not in lobby.response.content  # "no time limit" overrides the server default


async def test_help_lists_every_command_and_points_to_rules(world):
    shown = await world.emu.invoke(world.users[0], world.channel, "help", {})
    names = {c["name"] for c in world.emu.commands(world.guild)}
    assert shown.ephemeral and "/rules game" in shown.text
    for name in names:
        assert f"`/{name}`" in shown.text, name


async def test_readme_command_table_covers_every_command(world):
    import pathlib
    import re

    readme = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `/([a-z]+)", readme, flags=re.M))
    synced = {c["name"] for c in world.emu.commands(world.guild)}
    assert synced <= documented, synced - documented


async def test_an_accepted_draw_whose_board_fails_is_delivered_later_and_the_presser_told(tmp_path, drawable_bide):
    from tests.faults import PostFaults

    world = BotWorld(tmp_path / "hexplay.sqlite3")
    faults = PostFaults(world.emu)  # before the emulator starts
    await world.start()
    announcer = world.bot.chat.announcer
    announcer.attempt_timeout, announcer.answer_within, announcer.retry_delays = 1.5, 2.0, (0.3, 0.5, 1, 1, 2)
    try:
        alice, bob = world.users[:2]
        match_id, thread = await world.start_two_player()
        offered = await world.emu.invoke(alice, thread, "draw", {})
        faults.fail(thread.id, 500)
        accepted = await world.emu.press(bob, offered.response, button(offered.response, "Accept")["custom_id"])
        assert "agreed a draw" in accepted.text  # the offer message says so: the draw is stored
        assert (await world.service.get(match_id)).status == "finished"
        for _ in range(250):  # the board's first attempt fails (discord.py's own retries included)
            if match_id in announcer._retrying:
                break
            await asyncio.sleep(0.02)
        assert faults.refused and not [
            m for m in world.emu.messages(thread) if "Game over" in m.content and m.attachments
        ]
        faults.heal(thread.id)
        board = await arrives(world, thread, lambda m: "Game over: a draw" in m.content and m.attachments, timeout=8)
        assert "Delayed" in board.content
    finally:
        await world.stop()
