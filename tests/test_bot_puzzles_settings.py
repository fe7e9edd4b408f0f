"""The daily puzzle's setting through Discord (issue 36): ``/config puzzle_channel: puzzle_hour: puzzle_stop:``
and its shortcut ``/puzzle daily``, one rule (bot/service/daily_puzzles.py's ``DailyPuzzles.planned``): Manage
Server only, an hour from 0 to 23, a channel the bot can post in; a refusal changes no setting."""

from __future__ import annotations

from bot.service.daily_puzzles import day_and_hour
from tests.test_bot_lifecycle import grant_manage_guild

NBSP = "\u202f"


async def owned_by_a_person(world, owner):
    """The test server is owned by its bot, which Discord gives every permission everywhere; a real server is
    owned by a person, and a channel's overwrite then closes it to the bot (restart: the bot reads it anew)."""
    world.emu.store.guilds[world.guild.id].owner_id = owner.id
    await world.restart_bot()


async def config(world, user, options, channel=None):
    return await world.emu.invoke(user, channel or world.channel, "config", options)


async def test_config_sets_shows_and_stops_the_daily_puzzle(world):
    alice = world.users[0]
    await owned_by_a_person(world, world.users[1])
    refused = await config(world, alice, {"puzzle_channel": world.channel.id, "puzzle_hour": 7})
    assert "Manage Server" in refused.text and refused.messages[0].ephemeral
    assert await world.store.daily_puzzle_settings(world.guild.id) is None
    grant_manage_guild(world, alice)

    shown = await config(world, alice, {})
    assert "• Daily puzzle: none (choose a channel with `puzzle_channel`)" in shown.text
    early = await config(world, alice, {"puzzle_hour": 7})
    assert "channel first" in early.text and await world.store.daily_puzzle_settings(world.guild.id) is None

    saved = await config(world, alice, {"puzzle_channel": world.channel.id, "puzzle_hour": 7})
    assert "Saved" in saved.text and f"• Daily puzzle: in <#{world.channel.id}> at 7:00 UTC" in saved.text
    assert await world.store.daily_puzzle_settings(world.guild.id) == (world.channel.id, 7)
    later = await config(world, alice, {"puzzle_hour": 21})  # the hour alone: the channel stays
    assert f"• Daily puzzle: in <#{world.channel.id}> at 21:00 UTC" in later.text

    # refused, with the reason, and nothing changed (not even the other option given with it)
    for bad in ({"puzzle_hour": 24}, {"puzzle_hour": -1}, {"puzzle_hour": 24, "share_puzzles": True}):
        refused = await config(world, alice, bad)
        assert "0 to 23" in refused.text and refused.messages[0].ephemeral
    closed = world.emu.create_text_channel(world.guild, "closed", bot_can_send=False)
    refused = await config(world, alice, {"puzzle_channel": closed.id})
    assert f"I cannot post in <#{closed.id}>" in refused.text
    both = await config(world, alice, {"puzzle_channel": world.channel.id, "puzzle_stop": True})
    assert "not both" in both.text
    assert await world.store.daily_puzzle_settings(world.guild.id) == (world.channel.id, 21)
    assert (await world.store.guild_settings(world.guild.id)).share_puzzles is None

    daily = world.bot.get_cog("Puzzles").daily
    _, hour = day_and_hour(world.clock.now())
    world.clock.advance((21 - hour) * 3600 + 60)  # the hour set: due
    assert await daily.due() == [(world.guild.id, world.channel.id)]
    stopped = await config(world, alice, {"puzzle_stop": True})
    assert "Saved" in stopped.text and "• Daily puzzle: none" in stopped.text
    assert await world.store.daily_puzzle_settings(world.guild.id) == (None, 21)
    world.clock.advance(86_400)
    assert await daily.due() == []  # never due again


async def test_puzzle_daily_is_a_shortcut_of_the_same_setting_with_the_same_refusals(world):
    alice = world.users[0]
    await owned_by_a_person(world, world.users[1])
    grant_manage_guild(world, alice)
    set_up = await world.emu.invoke(alice, world.channel, "puzzle daily", {"channel": world.channel.id, "hour": 5})
    assert "posted in" in set_up.text
    assert f"• Daily puzzle: in <#{world.channel.id}> at 5:00 UTC" in (await config(world, alice, {})).text
    refused = await world.emu.invoke(alice, world.channel, "puzzle daily", {"channel": world.channel.id, "hour": 99})
    assert "0 to 23" in refused.text
    closed = world.emu.create_text_channel(world.guild, "closed", bot_can_send=False)
    refused = await world.emu.invoke(alice, world.channel, "puzzle daily", {"channel": closed.id, "hour": 5})
    assert f"I cannot post in <#{closed.id}>" in refused.text
    assert await world.store.daily_puzzle_settings(world.guild.id) == (world.channel.id, 5)
    off = await world.emu.invoke(alice, world.channel, "puzzle daily", {})
    assert "No daily puzzle will be posted any more." in off.text
    assert "• Daily puzzle: none" in (await config(world, alice, {})).text


async def test_the_daily_puzzle_setting_in_french(world):
    amelie = world.add_user("amelie", locale="fr")
    await owned_by_a_person(world, world.users[1])
    grant_manage_guild(world, amelie)
    shown = await config(world, amelie, {"puzzle_channel": world.channel.id, "puzzle_hour": 8})
    assert f"• Problème du jour{NBSP}: dans <#{world.channel.id}> à 8 h UTC" in shown.text
    refused = await config(world, amelie, {"puzzle_hour": 30})
    assert "L’heure est une heure pleine de 0 à 23 (UTC)." in refused.text
    closed = world.emu.create_text_channel(world.guild, "fermé", bot_can_send=False)
    refused = await config(world, amelie, {"puzzle_channel": closed.id})
    assert f"Je ne peux pas publier dans <#{closed.id}>" in refused.text
    stopped = await config(world, amelie, {"puzzle_stop": True})
    assert f"• Problème du jour{NBSP}: aucun" in stopped.text
