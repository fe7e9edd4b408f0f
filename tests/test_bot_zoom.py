"""The zoom through the bot and the emulator (issue 37): a board a phone cannot read whole (Bump, Begird's
standard board) offers **Zoom** under every post; pressing it shows, privately, the part where the play is,
twice as large. ``/board zoom:`` takes a Bump space too."""

from __future__ import annotations

from tests.test_bot_e2e import board_png, move


def zoom_button(message):
    return next((b for b in message.buttons() if b["label"] == "Zoom"), None)


async def zoomed_answer(result):
    await result.wait_for(lambda r: bool(r.followups) and bool(r.followups[0].attachments), timeout=15)
    return result.followups[0]


async def test_a_bump_board_offers_its_zoom_privately(world):
    alice, bob = world.users[:2]
    _, thread = await world.start_two_player(game="bump")
    opening = next(m for m in world.emu.messages(thread) if m.attachments)
    assert zoom_button(opening) is not None  # on the first board already
    played = await move(world, alice, thread, "01,03")
    board = played.response
    button = zoom_button(board)
    assert button is not None, board.buttons()
    answer = await zoomed_answer(await world.emu.press(bob, board, button["custom_id"]))  # anyone may zoom
    assert answer.ephemeral and "Bump" in answer.content
    whole, zoomed = board_png(board), board_png(answer)
    # the same width, taller: the board part shows the whole height of the board at twice the scale
    assert zoomed.width == whole.width and zoomed.height > whole.height * 1.4
    # /board zoom: a space (it answered "Bump boards have no zoom")
    asked = await world.emu.invoke(alice, thread, "board", {"zoom": "431"})
    assert asked.ephemeral and board_png(await zoomed_answer(asked)).size == zoomed.size
    wrong = await world.emu.invoke(alice, thread, "board", {"zoom": "99"})
    await wrong.wait_for(lambda r: bool(r.followups) or bool(r.text), timeout=10)
    said = wrong.followups[0].content if wrong.followups else wrong.text
    assert wrong.ephemeral and "99" in said and not (wrong.followups and wrong.followups[0].attachments)


async def test_zoom_is_offered_only_where_a_phone_cannot_read_the_board_whole(world):
    for game, options, first, offered in (
        ("begird", "board=standard", "i9", True),
        ("begird", "board=small", "e5", False),
        ("bide", None, "e5", False),
    ):
        _, thread = await world.start_two_player(game=game, options=options)
        played = await move(world, world.users[0], thread, first)
        assert not played.ephemeral, played.text
        assert (zoom_button(played.response) is not None) == offered, (game, options, played.response.buttons())
