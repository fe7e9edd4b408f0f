"""Boards in words through the real bot: every picture it sends carries a description (alt text)
within Discord's 1,024 characters, naming the player to move and the last move; /board text
answers privately with the position in words."""

from tests.test_bot_e2e import move


def every_attachment(world):
    return list(world.emu.store.attachments.values())


async def test_every_board_of_a_played_match_is_described(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="bide")
    first = world.emu.messages(thread)[-1].attachments[0].description
    assert first and "alice (" in first and "to move" in first and "No move yet." in first
    for _ in range(4):
        game = await world.game(match_id)
        user = await world.user_to_move(match_id)
        notation = next(n for n in game.legal_notations() if n != "bide")
        result = await move(world, user, thread, notation)
        assert not result.ephemeral, result.text
        board = world.emu.messages(thread)[-1]
        (picture,) = board.attachments
        description = picture.description or ""
        following = await world.user_to_move(match_id)
        assert f"Last move, by {user.name} (" in description and notation in description, description
        assert f"{following.name} (" in description.split("Last move")[0] and "to move" in description
    shown = await world.emu.invoke(alice, thread, "board", {})
    (picture,) = shown.messages[-1].attachments
    assert "to move" in (picture.description or "") and "Last move, by " in (picture.description or "")
    tried = await world.emu.invoke(
        bob if (await world.user_to_move(match_id)) == bob else alice,
        thread,
        "preview",
        {"move": next(n for n in (await world.game(match_id)).legal_notations() if n != "bide")},
    )
    assert tried.ephemeral and (tried.messages[-1].attachments[0].description or "").startswith("Preview, not played.")
    words = await world.emu.invoke(alice, thread, "board", {"text": True})
    assert words.ephemeral and not words.messages[-1].attachments
    assert "to move" in words.text and "Position:" in words.text and "discs:" in words.text
    asked = await world.emu.invoke(alice, thread, "resign", {})
    await world.emu.press(alice, asked.response, asked.response.buttons()[0]["custom_id"])
    ended = await world.emu.wait_for_message(thread, check=lambda m: "resigned" in m.content)
    assert "Game over: bob (" in (ended.attachments[0].description or "")
    replay = await world.emu.invoke(alice, thread, "history", {"gif": True})
    gif = (await replay.wait_followups(1, timeout=15))[-1]
    assert "animated replay" in (gif.attachments[0].description or "") and "Game over" in (
        gif.attachments[0].description or ""
    )
    sent = every_attachment(world)
    assert len(sent) >= 7
    for picture in sent:  # every picture the bot sent, public or private
        assert picture.description and len(picture.description) <= 1024, picture
