"""Clocks with a bank and quiet hours, end to end through the emulator on a manual clock."""

from __future__ import annotations

import asyncio

from tests.botworld import BotWorld

HOUR = 3600.0


def button(message, label):
    return next(b for b in message.buttons() if b["label"] == label)


async def start_banked(world: BotWorld, clock: str):
    """alice challenges bob on a small Bide board with a bank clock, bob accepts: (match id, thread)."""
    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob], clock=clock, options="side=4")
    assert f"bank clock {clock}" in lobby.response.content, lobby.response.content
    accept = button(lobby.response, "Accept")["custom_id"]
    await world.emu.press(bob, world.emu.message(lobby.response.id), accept)
    match_id = int(accept.rsplit(":", 1)[1])
    return match_id, await world.wait_thread(match_id)


async def play_a_turn(world: BotWorld, match_id: int, thread) -> None:
    """The player to move plays some legal turn (never "bide", which would end a small game early)."""
    game = await world.game(match_id)
    user = await world.user_to_move(match_id)
    legal = [n for n in game.legal_notations() if n != "bide"]
    answer = await world.emu.invoke(user, thread, "move", {"move": legal[0]})
    assert not answer.ephemeral, answer.text


async def banks(world: BotWorld, match_id: int) -> dict[str, float]:
    match = await world.service.get(match_id)
    return {s.name: s.bank / HOUR for s in match.seats}


async def dm_count(world, user, fragment, timeout=2.0) -> int:
    """DMs to ``user`` containing ``fragment`` (waiting a little for one in flight)."""
    for _ in range(int(timeout / 0.02)):
        if any(fragment in m.content for m in world.emu.dms(user)):
            break
        await asyncio.sleep(0.02)
    return sum(fragment in m.content for m in world.emu.dms(user))


async def test_a_bank_runs_down_while_you_think_and_refills_by_the_increment_up_to_the_cap(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_banked(world, "10h+4h max 12h")
    first = next(m for m in world.emu.messages(thread) if m.attachments)
    assert "banks (10h+4h max 12h): alice 10 h (running), bob 10 h" in first.content
    world.clock.advance(3 * HOUR)
    await play_a_turn(world, match_id, thread)  # alice: 10 - 3 + 4 = 11
    assert await banks(world, match_id) == {"alice": 11, "bob": 10}
    match = await world.service.get(match_id)
    assert match.deadline_at == world.clock.now() + 10 * HOUR and match.turn_allowance == 10 * HOUR
    world.clock.advance(HOUR)
    await play_a_turn(world, match_id, thread)  # bob: 10 - 1 + 4 = 13, capped at 12
    assert await banks(world, match_id) == {"alice": 11, "bob": 12}
    world.clock.advance(2.5 * HOUR)
    board = await world.emu.invoke(bob, thread, "board", {})
    assert "alice 8.5 h (running), bob 12 h" in board.text  # the board's caption: alice's bank runs down
    games = await world.emu.invoke(alice, world.channel, "games", {})
    assert "alice 8.5 h (running), bob 12 h" in games.text
    everyone = await world.emu.invoke(bob, world.channel, "games", {"all": True})
    assert "alice 8.5 h (running), bob 12 h" in everyone.text
    await play_a_turn(world, match_id, thread)  # alice: 8.5 + 4 = 12.5, capped at 12
    posted = [m for m in world.emu.messages(thread) if m.attachments][-1]
    assert "alice 12 h, bob 12 h (running)" in posted.content
    assert await banks(world, match_id) == {"alice": 12, "bob": 12}
    await world.restart_bot()  # the banks are stored with the match
    assert await banks(world, match_id) == {"alice": 12, "bob": 12}


async def test_a_bank_run_dry_warns_once_an_hour_before_and_the_opponent_claims_the_win(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_banked(world, "2h+1h max 3h")
    world.clock.advance(1.5 * HOUR)  # 30 min left: the 1 h warning; a 2 h bank never gets the 24 h one
    await world.bot.reminders.run_once()
    assert await dm_count(world, alice, "Your time") == 1
    await world.bot.reminders.run_once()
    assert await dm_count(world, alice, "Your time") == 1
    world.clock.advance(HOUR)
    await world.bot.reminders.run_once()
    notice = next(m for m in world.emu.messages(thread) if "run out of time" in m.content)
    claimed = await world.emu.press(bob, notice, button(notice, "Claim win")["custom_id"])
    assert not claimed.ephemeral
    match = await world.service.get(match_id)
    assert match.status == "finished" and match.deadline_at is None
    assert [m.kind for m in await world.store.moves(match_id)] == ["timeout"]
    assert await banks(world, match_id) == {"alice": 0, "bob": 2}  # the time-out emptied alice's bank


async def test_the_24_hour_warning_and_the_reminder_due_together_come_as_one_message(world):
    """Issue 37: a bank's 24 h warning and the day's reminder came as two near-identical DMs in one second."""
    alice = world.users[0]
    match_id, _thread = await start_banked(world, "48h+1h max 48h")
    world.clock.advance(24 * HOUR + 60)  # the reminder (24 h) and the warning (24 h left) fall due together
    assert await world.bot.reminders.run_once() == 1
    told = world.emu.dms(alice)
    assert len(told) == 1, [m.content for m in told]
    assert "It is your turn" in told[0].content and "your time runs out <t:" in told[0].content, told[0].content
    assert {b["label"] for b in told[0].buttons()} == {"Snooze for this turn", "Open the board"}
    match = await world.service.get(match_id)
    assert match.deadline_notice == 1 and (await world.store.get_reminder(match_id)).last_sent_at is not None
    assert await world.bot.reminders.run_once() == 0 and len(world.emu.dms(alice)) == 1  # each recorded sent
    world.clock.advance(23 * HOUR)  # 1 h left: the next warning comes alone
    await world.bot.reminders.run_once()
    assert await dm_count(world, alice, "Your time") == 1


async def test_a_vacation_and_an_outage_stop_the_bank(world):
    alice, bob = world.users[:2]
    match_id, thread = await start_banked(world, "10h+0h max 10h")
    world.clock.advance(2 * HOUR)
    went = await world.emu.invoke(alice, world.channel, "vacation", {"days": 1})
    assert "1 running" in went.text
    world.clock.advance(5 * HOUR)  # on vacation: her bank stands at 8 h
    board = await world.emu.invoke(bob, thread, "board", {})
    assert "alice 8 h (paused: vacation)" in board.text and "alice is on vacation" in board.text
    await play_a_turn(world, match_id, thread)  # back early: only the 2 h before the vacation were spent
    assert await banks(world, match_id) == {"alice": 8, "bob": 10}
    world.clock.advance(HOUR)
    await world.stop_bot()
    world.clock.advance(3 * HOUR)  # the bot is down: bob's bank stands
    await world.start_bot()
    await play_a_turn(world, match_id, thread)
    assert await banks(world, match_id) == {"alice": 8, "bob": 9}  # the hour before the outage only
    # alice's vacation is still on: her turn starts at its end, with her whole bank
    match = await world.service.get(match_id)
    vacation_end = await world.store.vacation_until(alice.id, world.clock.now())
    assert match.deadline_at == vacation_end + 8 * HOUR


async def test_a_reminder_and_a_warning_due_at_night_wait_for_the_morning_even_across_a_restart(world):
    alice = world.users[0]
    set_up = await world.emu.invoke(
        alice,
        world.channel,
        "settings",
        {"quiet_zone": "Europe/London", "quiet_hours": "22:00-08:00", "delay_hours": 1},
    )
    assert "22:00–08:00" in set_up.text and "Europe/London" in set_up.text
    world.clock.advance(13.5 * HOUR)  # the manual clock starts at 08:00 in London (January): now 21:30
    match_id, _thread = await start_banked(world, "11h+1h max 12h")  # alice's bank ends at 08:30
    world.clock.advance(HOUR)  # 22:30: her reminder is due, in her night
    assert await world.bot.reminders.run_once() == 0 and world.emu.dms(alice) == []
    reminder = await world.store.get_reminder(match_id)
    morning = world.clock.now() + 9.5 * HOUR
    assert reminder.remind_at == morning  # moved in the store
    await world.restart_bot()
    world.clock.advance(9 * HOUR)  # 07:30: 1 h left on her bank, still night: the warning waits too
    assert await world.bot.reminders.run_once() == 0 and world.emu.dms(alice) == []
    match = await world.service.get(match_id)
    assert match.warnings_held_until == morning and match.deadline_at == morning + HOUR / 2  # never the deadline
    world.clock.advance(HOUR / 2 - 60)
    await world.bot.reminders.run_once()
    assert world.emu.dms(alice) == []
    world.clock.advance(60)  # 08:00: the morning
    await world.bot.reminders.run_once()
    assert await dm_count(world, alice, "It is your turn") == 1
    assert len(world.emu.dms(alice)) == 1 and "your time runs out" in world.emu.dms(alice)[0].content  # one message
    off = await world.emu.invoke(alice, world.channel, "settings", {"quiet_zone": "off"})
    assert "Quiet hours" not in off.text
    assert (await world.store.get_preferences(alice.id, world.guild.id)).quiet_zone is None


async def test_bad_clocks_and_bad_time_zones_are_refused_privately_and_nothing_is_stored(world):
    alice, bob = world.users[:2]
    for clock, reason in (
        ("0h+1h max 2h", "empty bank or cap"),
        ("10h+1h max 0h", "empty bank or cap"),
        ("-5h+1h max 2h", "negative"),
        ("10h+-1h max 20h", "negative"),
        ("400d+1h max 400d", "too long"),
        ("72h+36h max 48h", "cap must be at least the bank"),
        ("72h", "cannot read the clock"),
        ("72h+36h max 120", "cannot read the clock"),
        ("0.5h+1h max 2h", "at least 1 hour"),
    ):
        answer = await world.emu.invoke(alice, world.channel, "play", {"game": "bide", "opponent": bob, "clock": clock})
        assert answer.ephemeral and reason in answer.text, (clock, answer.text)
    both = await world.emu.invoke(
        alice, world.channel, "play", {"game": "bide", "opponent": bob, "clock": "72h+36h max 120h", "days": 3}
    )
    assert both.ephemeral and "not both" in both.text
    assert await world.store.get_match(1) is None  # no lobby was made
    grant_manage_guild(world, alice)
    config = await world.emu.invoke(alice, world.channel, "config", {"clock": "72h+36h max 12h"})
    assert config.ephemeral and "cap must be at least the bank" in config.text
    assert (await world.store.guild_settings(world.guild.id)).clock is None
    saved = await world.emu.invoke(alice, world.channel, "config", {"clock": "72h+36h max 120h"})
    assert "a bank clock, 72h+36h max 120h" in saved.text
    lobby = await world.challenge(alice, [bob])  # the server's default clock
    assert "bank clock 72h+36h max 120h" in lobby.response.content
    for options, reason in (
        ({"quiet_zone": "Mars/Olympus_Mons"}, "not a time zone"),
        ({"quiet_zone": "../../etc/passwd"}, "not a time zone"),
        ({"quiet_zone": "Europe"}, "not a time zone"),
        ({"quiet_zone": "Europe/Paris", "quiet_hours": "25:00-08:00"}, "cannot read the hours"),
        ({"quiet_zone": "Europe/Paris", "quiet_hours": "08:00-08:00"}, "same time"),
        ({"quiet_hours": "23:00-07:00"}, "need your time zone"),
        ({"quiet_zone": "Europe/Paris", "delay_hours": 1000}, "between 1 hour"),
    ):
        answer = await world.emu.invoke(alice, world.channel, "settings", options)
        assert answer.ephemeral and reason in answer.text, (options, answer.text)
    prefs = await world.store.get_preferences(alice.id, world.guild.id)
    assert prefs.quiet_zone is None and prefs.delay_hours is None
    zones = await world.emu.autocomplete(alice, world.channel, "settings", {"quiet_zone": "paris"})
    assert [z["value"] for z in zones] == ["Europe/Paris"]


def grant_manage_guild(world, user):
    store = world.emu.store
    original = store.member_permissions

    def permissions(channel, member):
        bits = original(channel, member)
        return bits | (1 << 5) if member.id == user.id else bits  # MANAGE_GUILD

    store.member_permissions = permissions
