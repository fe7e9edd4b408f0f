"""End to end: the real discord.py bot through the loopback Discord emulator."""

from __future__ import annotations

import asyncio
import io
import random
import subprocess
import sys

import pytest
from PIL import Image

pytestmark = pytest.mark.both_backends


def board_png(message):
    assert message.attachments, message
    image = Image.open(io.BytesIO(message.attachments[0].data))
    image.load()
    return image


async def move(world, user, channel, text, **extra):
    return await world.emu.invoke(user, channel, "move", {"move": text, **extra})


async def play_to_the_end(world, match_id, channel, rng, limit=400):
    """Everyone plays random legal turns through /move until the game ends; returns the last result."""
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


async def test_commands_are_synced_with_descriptions(world):
    names = {c["name"]: c for c in world.emu.commands(world.guild)}
    assert {"play", "move", "preview", "board", "history", "games", "resign", "rules", "settings"} <= set(names)
    assert all(c["description"] for c in names.values())


async def test_two_player_bide_game_from_challenge_to_score(world):
    alice, bob = world.users[0], world.users[1]
    lobby = await world.challenge(alice, [bob], options="side=4")
    assert f"<@{bob.id}>" in lobby.response.content
    assert {b["label"] for b in lobby.response.buttons()} >= {"Accept", "Decline"}
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
    # only the invited player may accept
    refused = await world.emu.press(world.users[2], lobby.response, accept["custom_id"])
    assert refused.ephemeral and "not invited" in refused.text
    await world.emu.press(bob, lobby.response, accept["custom_id"])
    thread = await world.wait_thread()
    first = next(m for m in world.emu.messages(thread) if m.attachments)
    assert f"<@{alice.id}>" in first.content and board_png(first).width >= 1000
    match_id = int(accept["custom_id"].rsplit(":", 1)[1])

    opening = await move(world, alice, thread, "d4")
    assert "played `d4`" in opening.text and f"<@{bob.id}>" in opening.response.content
    assert opening.response.attachments[0].filename == "board.png"
    # the Bide button on the board message plays a whole turn
    bide = next(b for b in opening.response.buttons() if b["label"] == "Bide")
    pressed = await world.emu.press(bob, opening.response, bide["custom_id"])
    assert "played `bide`" in pressed.text
    last = await play_to_the_end(world, match_id, thread, random.Random(1))
    assert ("Game over" in last.text and "wins" in last.text) or "share the win" in last.text
    match = await world.service.get(match_id)
    assert match.status == "finished" and match.result["winners"]


async def test_four_player_game_with_join_start_and_resignation(world):
    alice, bob, carol, dave = world.users
    lobby = await world.challenge(alice, seats=4, options="side=4")
    message = lobby.response
    join = next(b for b in message.buttons() if b["label"] == "Join")
    await world.emu.press(bob, message, join["custom_id"])
    message = world.emu.message(message.id)
    start = next(b for b in message.buttons() if b["label"] == "Start")
    not_creator = await world.emu.press(bob, message, start["custom_id"])
    assert not_creator.ephemeral and "Only the player who created" in not_creator.text
    await world.emu.press(carol, message, join["custom_id"])
    await world.emu.press(dave, world.emu.message(message.id), join["custom_id"])  # last seat: starts by itself
    thread = await world.wait_thread()
    match_id = int(join["custom_id"].rsplit(":", 1)[1])
    assert (await world.game(match_id)).players == 4
    for user, text in ((alice, "d4"), (bob, "a1"), (carol, "g4")):
        assert not (await move(world, user, thread, text)).ephemeral
    # carol resigns (not on her turn) with the confirmation button
    asked = await world.emu.invoke(carol, thread, "resign", {})
    assert asked.ephemeral and "cannot be undone" in asked.text
    confirm = asked.response.buttons()[0]
    done = await world.emu.press(carol, asked.response, confirm["custom_id"])
    assert "resigned" in done.text
    announced = await world.emu.wait_for_message(thread, check=lambda m: "resigned" in m.content)
    assert "carol" in announced.content
    last = await play_to_the_end(world, match_id, thread, random.Random(2))
    game = await world.game(match_id)
    assert game.is_over and 3 not in game.winners and "Game over" in last.text


async def test_autocomplete_filters_explains_and_continues_a_release(world):
    alice, bob = world.users[:2]
    _match_id, thread = await world.start_two_player()
    choices = await world.emu.autocomplete(alice, thread, "move", {"move": ""})
    assert len(choices) == 25 and choices[0]["value"] == "bide" and choices[1]["value"] == "e5"
    assert "value 4" in choices[1]["name"]
    only_c = await world.emu.autocomplete(alice, thread, "move", {"move": "c"})
    assert only_c and all(c["value"].startswith("c") for c in only_c)
    await move(world, alice, thread, "bide")
    await move(world, bob, thread, "bide")
    release = await world.emu.autocomplete(alice, thread, "move", {"move": "e5,"})
    assert release[0]["value"] == "e5" and all(c["value"].startswith("e5,") for c in release[1:])
    wrong = await world.emu.autocomplete(alice, thread, "move", {"move": "q1,"})
    assert wrong[0]["name"].startswith("✗ q1")
    not_mine = await world.emu.autocomplete(bob, thread, "move", {"move": ""})
    assert not_mine[0]["name"].startswith("Not your turn")
    played = await move(world, alice, thread, "e5,d4")
    assert "a release" in played.text


async def test_preview_is_private_and_changes_nothing(world):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    before = (await world.game(match_id)).position()
    shown = await world.emu.invoke(alice, thread, "preview", {"move": "e5"})
    assert shown.ephemeral and "Preview" in shown.text and board_png(shown.response).width >= 1000
    assert (await world.game(match_id)).position() == before
    bad = await world.emu.invoke(alice, thread, "preview", {"move": "e99"})
    assert bad.ephemeral and "not a legal move" in bad.text


async def test_every_error_is_private_and_clear(world):
    alice, bob, carol = world.users[:3]
    nothing = await move(world, alice, world.channel, "e5")
    assert nothing.ephemeral and "no match in progress" in nothing.text
    match_id, thread = await world.start_two_player()
    checks = [
        (bob, "e5", {}, "not your turn"),
        (carol, "e5", {}, "not a player"),
        (alice, "z1", {}, "no row z"),
        (alice, "e5,e4", {}, "hand is empty"),
        (alice, "e5", {"match": 999}, "no match #999"),
    ]
    for user, text, extra, fragment in checks:
        result = await move(world, user, thread, text, **extra)
        assert result.ephemeral and fragment in result.text, (text, result.text)
        assert "Traceback" not in result.text
    assert (await world.game(match_id)).position()["board"] == {}
    first = await move(world, alice, thread, "e5")
    stale = next(b for b in first.response.buttons() if b["label"] == "Bide")
    await move(world, bob, thread, "a1")
    old = await world.emu.press(alice, first.response, stale["custom_id"])
    assert old.ephemeral and ("older position" in old.text or "not your turn" in old.text)
    await world.service.resign(match_id, bob.id)
    over = await move(world, alice, thread, "e4")
    assert over.ephemeral and "is over" in over.text
    assert (await world.emu.press(alice, first.response, stale["custom_id"])).ephemeral


async def test_restart_in_the_middle_of_a_match(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    first = await move(world, alice, thread, "e5")
    await world.restart_bot()
    after = await move(world, bob, thread, "d4")
    assert not after.ephemeral and "played `d4`" in after.text
    # a button posted before the restart still works
    bide = next(b for b in after.response.buttons() if b["label"] == "Bide")
    pressed = await world.emu.press(alice, after.response, bide["custom_id"])
    assert "played `bide`" in pressed.text
    stale = next(b for b in first.response.buttons() if b["label"] == "Bide")
    assert (await world.emu.press(bob, first.response, stale["custom_id"])).ephemeral
    assert len(await world.service.store.moves(match_id)) == 3


async def test_lobby_survives_a_restart(world):
    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob])
    await world.restart_bot()
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
    await world.emu.press(bob, lobby.response, accept["custom_id"])
    assert await world.wait_thread()


async def test_two_moves_at_the_same_instant_apply_once(world):
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    first, second = await asyncio.gather(move(world, alice, thread, "e5"), move(world, alice, thread, "a1"))
    public = [r for r in (first, second) if not r.ephemeral]
    private = [r for r in (first, second) if r.ephemeral]
    assert len(public) == 1 and len(private) == 1
    assert len(await world.service.store.moves(match_id)) == 1


async def test_reminders_fire_by_dm_not_after_the_move_and_survive_a_restart(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await move(world, alice, thread, "e5")
    world.clock.advance(23 * 3600)
    assert await world.bot.reminders.run_once() == 0
    world.clock.advance(2 * 3600)
    assert await world.bot.reminders.run_once() == 1
    dm = world.emu.dms(bob)[-1]
    assert f"#{match_id}" in dm.content and "played `e5`" in dm.content and "discord.com/channels" in dm.content
    assert any(b["label"].startswith("Snooze") for b in dm.buttons())
    assert await world.bot.reminders.run_once() == 0  # at most once per delay
    await move(world, bob, thread, "d4")
    world.clock.advance(25 * 3600)
    await world.restart_bot()
    assert await world.bot.reminders.run_once() == 1
    assert len(world.emu.dms(bob)) == 1 and len(world.emu.dms(alice)) == 1
    snooze = next(b for b in world.emu.dms(alice)[-1].buttons() if b["label"].startswith("Snooze"))
    done = await world.emu.press(alice, world.emu.dms(alice)[-1], snooze["custom_id"])
    assert done.ephemeral and "No more reminders" in done.text
    world.clock.advance(48 * 3600)
    assert await world.bot.reminders.run_once() == 0


async def test_closed_dms_fall_back_to_a_ping_in_the_thread(world):
    alice, _bob = world.users[:2]
    alice.dms_open = False
    _match_id, thread = await world.start_two_player()
    world.clock.advance(25 * 3600)
    assert await world.bot.reminders.run_once() == 1
    ping = world.emu.messages(thread)[-1]
    assert f"<@{alice.id}>" in ping.content and "your turn" in ping.content


async def test_settings_change_the_reminder_delay(world):
    alice = world.users[0]
    shown = await world.emu.invoke(alice, world.channel, "settings", {})
    assert shown.ephemeral and "24 h" in shown.text
    saved = await world.emu.invoke(alice, world.channel, "settings", {"delay_hours": 2, "via": "ping"})
    assert "Saved" in saved.text and "2 h" in saved.text and "ping" in saved.text
    _match_id, thread = await world.start_two_player()
    world.clock.advance(3 * 3600)
    assert await world.bot.reminders.run_once() == 1
    assert f"<@{alice.id}>" in world.emu.messages(thread)[-1].content


async def test_board_history_games_and_rules(world):
    alice, bob = world.users[:2]
    _match_id, thread = await world.start_two_player()
    await move(world, alice, thread, "e5")
    board = await world.emu.invoke(bob, thread, "board", {})
    assert board.ephemeral and board_png(board.response).width >= 1000 and "to move" in board.text
    games = await world.emu.invoke(bob, world.channel, "games", {})
    assert "your move" in games.text and f"<#{thread.id}>" in games.text
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "1. **alice** (Red): e5" in history.text
    replay = next(b for b in history.response.buttons() if b["label"].startswith("Replay"))
    gif = await world.emu.press(alice, history.response, replay["custom_id"])
    message = await gif.wait_message()
    assert message.attachments[0].data[:3] == b"GIF"
    rules = await world.emu.invoke(alice, world.channel, "rules", {"game": "bide"})
    assert rules.ephemeral and "shock wave" in rules.text.lower()


def test_bot_without_a_token_says_how_to_get_one(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[1])},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stderr and "developers/applications" in result.stderr
    assert "Traceback" not in result.stderr


async def test_channel_without_threads_plays_in_the_channel(world):
    alice, bob = world.users[:2]
    plain = world.emu.create_text_channel(world.guild, "no-threads", allow_threads=False)
    lobby = await world.emu.invoke(alice, plain, "play", {"game": "bide", "opponent": bob})
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
    await world.emu.press(bob, lobby.response, accept["custom_id"])
    board = await world.emu.wait_for_message(plain, check=lambda m: bool(m.attachments))
    assert "begins" in board.content and world.emu.threads(plain) == []
    played = await move(world, alice, plain, "e5")
    assert not played.ephemeral and played.response.channel_id == plain.id


async def test_moving_from_elsewhere_posts_in_the_thread_and_answers_privately(world):
    alice = world.users[0]
    _match_id, thread = await world.start_two_player()
    played = await move(world, alice, world.channel, "e5")
    await played.wait_followups(1)  # deferred first: a post in the thread may be slow
    assert played.ephemeral and f"<#{thread.id}>" in played.text
    posted = world.emu.messages(thread)[-1]
    assert "played `e5`" in posted.content and posted.attachments


async def test_channel_where_the_bot_cannot_post_still_gets_the_board(world):
    alice, bob = world.users[:2]
    closed = world.emu.create_text_channel(world.guild, "read-only", allow_threads=False, bot_can_send=False)
    lobby = await world.emu.invoke(alice, closed, "play", {"game": "bide", "opponent": bob})
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
    pressed = await world.emu.press(bob, lobby.response, accept["custom_id"])
    board = await pressed.wait_followups(1)
    assert "begins" in board[0].content and board[0].attachments
    played = await move(world, alice, closed, "e5")  # interactions need no channel permission
    assert not played.ephemeral and played.response.attachments


async def test_a_move_stored_just_before_a_crash_is_announced_after_the_restart(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await world.stop_bot()
    # the move reached the database, but the bot stopped before posting its board
    from bot.service.matches import MatchService
    from bot.store import open_store

    store = await open_store(str(world.db_path))
    try:  # a failure here must fail the test, not leave the database thread running
        await MatchService(store, world.clock).play(match_id, alice.id, "e5")
    finally:
        await store.close()
    await world.start_bot()
    missed = await world.emu.wait_for_message(thread, check=lambda m: "after a restart" in m.content)
    assert "played `e5`" in missed.content and f"<@{bob.id}>" in missed.content and missed.attachments
    assert any(b["label"] == "Bide" for b in missed.buttons())
    for _ in range(200):  # the bot records the announcement just after posting it
        match = await world.service.get(match_id)
        if match.announced_version == match.version:
            break
        await asyncio.sleep(0.01)
    assert match.board_message_id == missed.id
    await world.restart_bot()  # announced once only
    await asyncio.sleep(0.2)
    assert sum("after a restart" in m.content for m in world.emu.messages(thread)) == 1
