"""End to end through the emulator: /premove (a branch played at once, a mismatch cleared and told, a takeback
clearing) and /explore (a private board for either side; nothing reaches the match)."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from tests.test_bot_lifecycle import arrives, button, log_replays_to_state


async def dm_arrives(world, user, fragment, timeout=5.0):
    for _ in range(int(timeout / 0.02)):
        found = [m for m in world.emu.dms(user) if fragment in m.content]
        if found:
            return found[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no direct message saying {fragment!r}")


async def explore(world, user, channel, **params):
    """/explore answers after a moment (it draws a picture): its private followup."""
    result = await world.emu.invoke(user, channel, "explore", params)
    await result.wait_followups(1)
    return result


async def premove(world, user, channel, line):
    """/premove with a line answers after a moment (it draws the line's end): its private followup, or a
    refusal (answered at once)."""
    result = await world.emu.invoke(user, channel, "premove", {"line": line})
    if result.deferred:
        await result.wait_followups(1)
    return result


def picture(message) -> Image.Image:
    assert message.attachments, message
    image = Image.open(io.BytesIO(message.attachments[0].data))
    image.load()
    return image


async def test_a_premove_is_played_at_once_and_marked_conditional(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    suggested = await world.emu.autocomplete(bob, thread, "premove", {"line": "e5; d"})
    assert suggested and all(c["value"].startswith("e5; d") for c in suggested), suggested
    saved = await premove(world, bob, thread, "e5; d4")
    assert saved.ephemeral and "Saved" in saved.text and "if `e5`, you `d4`" in saved.text, saved.text
    assert picture(saved.messages[0]).width > 300
    played = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    assert not played.ephemeral
    answer = await arrives(world, thread, lambda m: "conditional move" in m.content and m.attachments)
    assert "d4" in answer.content and alice.id in answer.mentions
    moves = await world.store.moves(match_id)
    assert [(m.notation, m.conditional) for m in moves] == [("e5", False), ("d4", True)]
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "d4 (conditional)" in history.text
    await log_replays_to_state(world, match_id)


async def test_an_unexpected_turn_clears_them_and_tells_the_player_privately(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await premove(world, bob, thread, "e5; d4")
    illegal = await premove(world, bob, thread, "c3; q9")
    assert illegal.ephemeral and "Turn 2" in illegal.text and "Nothing was saved" in illegal.text
    await world.emu.invoke(alice, thread, "move", {"move": "a1"})
    told = await dm_arrives(world, bob, "were cleared")
    assert "`a1`" in told.content and "matched none of your lines" in told.content
    listed = await world.emu.invoke(bob, thread, "premove", {})
    assert listed.ephemeral and "no conditional moves" in listed.text
    assert [m.conditional for m in await world.store.moves(match_id)] == [False]


async def test_a_takeback_clears_them(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    await world.emu.invoke(bob, thread, "move", {"move": "a1"})
    await premove(world, bob, thread, "b2; d4")
    asked = await world.emu.invoke(bob, thread, "undo", {})
    done = await world.emu.press(alice, asked.response, button(asked.response, "Accept")["custom_id"])
    assert "taken back" in done.text
    told = await dm_arrives(world, bob, "were cleared")  # his own takeback: still told what went (issue 37)
    assert "`a1` was taken back" in told.content and "your turn now" in told.content, told.content
    listed = await world.emu.invoke(bob, thread, "premove", {})
    assert "no conditional moves" in listed.text
    await world.emu.invoke(bob, thread, "move", {"move": "a1"})
    await world.emu.invoke(alice, thread, "move", {"move": "b2"})
    assert not any(m.conditional for m in await world.store.moves(match_id))


async def test_explore_is_private_plays_both_sides_and_saves_a_line(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    before = len(world.emu.messages(thread))
    opened = await explore(world, bob, thread)
    assert opened.ephemeral and "private copy" in opened.text
    choices = await world.emu.autocomplete(bob, thread, "explore", {"turn": "e"})
    assert choices and all(c["value"].startswith("e") for c in choices)
    first = await explore(world, bob, thread, turn="e5")  # alice's turn, on bob's copy
    assert first.ephemeral and "alice `e5`" in first.text and picture(first.messages[0]).width > 300
    await explore(world, bob, thread, turn="d4")
    back = await explore(world, bob, thread, step="back")
    assert "One turn back" in back.text
    await explore(world, bob, thread, turn="c3")
    await explore(world, bob, thread, turn="b2")  # alice's again: no answer of bob's follows it
    saved = await explore(world, bob, thread, step="save")
    assert "if `e5`, you `c3`" in saved.text and "Not saved: `b2`" in saved.text, saved.text
    assert len(world.emu.messages(thread)) == before and await world.store.moves(match_id) == []
    await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    await arrives(world, thread, lambda m: "conditional move" in m.content)
    assert [m.notation for m in await world.store.moves(match_id)] == ["e5", "c3"]


async def test_a_match_or_a_servers_default_can_forbid_them(world):
    from tests.test_bot_lifecycle import grant_manage_guild

    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob], premoves=False)
    accept = button(lobby.response, "Accept")
    await world.emu.press(bob, lobby.response, accept["custom_id"])
    match_id = int(accept["custom_id"].rsplit(":", 1)[1])
    thread = await world.wait_thread(match_id)
    refused = await world.emu.invoke(bob, thread, "premove", {"line": "e5; d4"})
    assert refused.ephemeral and "forbids conditional moves" in refused.text
    grant_manage_guild(world, alice)
    saved = await world.emu.invoke(alice, world.channel, "config", {"premoves": False})
    assert "Conditional moves and analysis boards: forbidden" in saved.text
    world.clock.advance(61)  # challenges are limited to 3 a minute per player
    match_id, thread = await world.start_two_player()
    board = await explore(world, bob, thread)
    assert board.ephemeral and "forbids" in board.text
    assert await world.store.get_exploration(match_id, bob.id) is None
