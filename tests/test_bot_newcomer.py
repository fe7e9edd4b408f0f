"""Issue 37's rough edges a new player met, through the real bot and the emulator: each pinned where players read
it (the thread, a private answer, a direct message)."""

from __future__ import annotations


async def test_a_rated_game_resigned_before_its_second_turn_says_in_its_result_that_it_is_not_rated(world):
    alice, bob = world.users[:2]
    _, thread = await world.start_two_player()
    await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    asked = await world.emu.invoke(bob, thread, "resign", {})
    await world.emu.press(bob, asked.response, asked.response.buttons()[0]["custom_id"])
    result = await world.emu.wait_for_message(thread, check=lambda m: "Game over" in m.content)
    assert "Not rated: the game ended before its second turn" in result.content, result.content
    assert await world.store.ratings_of(world.guild.id, "bide", [alice.id, bob.id]) == {}
