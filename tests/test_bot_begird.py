"""Begird through the bot and the emulator: generic machinery, a swap, and a win."""

import random

from tests.test_bot_e2e import move


async def test_begird_game_with_a_swap_played_to_a_win(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="begird", options="board=small")
    opening = await move(world, alice, thread, "e5")
    assert "played `e5`" in opening.text and opening.response.attachments
    swap = next(b for b in opening.response.buttons() if b["label"] == "Swap")
    choices = await world.emu.autocomplete(bob, thread, "move", {"move": ""})
    assert choices[0]["value"] == "swap" and len(choices) == 25
    swapped = await world.emu.press(bob, opening.response, swap["custom_id"])
    assert "played `swap`" in swapped.text and "swapped sides" in swapped.text
    # after the swap bob owns the black stone and alice, now White, places next
    assert f"<@{alice.id}>" in swapped.response.content
    assert not any(b["label"] == "Swap" for b in swapped.response.buttons())
    refused = await move(world, bob, thread, "f5")
    assert refused.ephemeral and "not your turn" in refused.text
    late_swap = await move(world, alice, thread, "swap")
    assert late_swap.ephemeral and "swap" in late_swap.text.lower()
    rng = random.Random(4)
    for _ in range(200):
        game = await world.game(match_id)
        if game.is_over:
            break
        user = await world.user_to_move(match_id)
        result = await move(world, user, thread, rng.choice(game.legal_notations()))
        assert not result.ephemeral, result.text
    game = await world.game(match_id)
    assert game.is_over and len(game.winners) == 1
    last = world.emu.messages(thread)[-1]
    assert "Game over" in last.content and "wins" in last.content
    history = await world.emu.invoke(alice, thread, "history", {})
    assert "2. **bob** (White): swap" in history.text
    replay = next(b for b in history.response.buttons() if b["label"].startswith("Replay"))
    gif = await (await world.emu.press(alice, history.response, replay["custom_id"])).wait_message(timeout=15)
    assert gif.attachments[0].data[:3] == b"GIF"


async def test_begird_preview_and_autocomplete_filtering(world):
    alice, _bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="begird")
    only_j = await world.emu.autocomplete(alice, thread, "move", {"move": "j1"})
    assert only_j and all(c["value"].startswith("j1") for c in only_j)
    shown = await world.emu.invoke(alice, thread, "preview", {"move": "j9"})
    assert shown.ephemeral and "Preview" in shown.text and shown.response.attachments
    assert (await world.game(match_id)).position()["board"] == {}
    swap_too_early = await move(world, alice, thread, "swap")
    assert swap_too_early.ephemeral and "swap" in swap_too_early.text.lower()


async def test_board_zoom(world):
    from io import BytesIO

    from PIL import Image

    alice, _bob = world.users[:2]
    _match_id, thread = await world.start_two_player(game="begird")
    await move(world, alice, thread, "i9")
    whole = (await world.emu.invoke(alice, thread, "board", {})).response
    # A zoomed board is deferred first (the first one of a size builds its background).
    zoomed = await (await world.emu.invoke(alice, thread, "board", {"zoom": "last"})).wait_message(timeout=30)
    cell = await (await world.emu.invoke(alice, thread, "board", {"zoom": "A1"})).wait_message(timeout=30)
    for shown in (whole, zoomed, cell):
        assert shown.attachments
    pictures = [Image.open(BytesIO(m.attachments[0].data)).convert("RGB") for m in (whole, zoomed, cell)]
    assert pictures[0].size == pictures[1].size == pictures[2].size
    assert len({p.tobytes() for p in pictures}) == 3, "the zoomed boards differ from the whole one and each other"
    bad = await (await world.emu.invoke(alice, thread, "board", {"zoom": "zz99"})).wait_message(timeout=30)
    assert "not a cell" in bad.content and not bad.attachments
    _, bide_thread = await world.start_two_player(game="bide")
    refused = await (await world.emu.invoke(alice, bide_thread, "board", {"zoom": "last"})).wait_message(timeout=30)
    assert "no zoom" in refused.content
