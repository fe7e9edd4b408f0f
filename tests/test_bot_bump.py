"""Bump through the bot and the emulator: options, autocomplete with consequences and choice
variants, a preview of the whole resolution, the chain in words, captures and a win on the centre."""

from bot.domain.replay import replay
from games.bump import Bump
from tests.test_bot_e2e import board_png, move

# Found by a greedy search against a passing opponent (see docs/rules.md, Bump): alice walks
# pieces through gate 0, captures five of bob's and, with a choice, is bumped onto C2.
SCRIPT = [
    "01,04",
    "pass",
    "04,07",
    "pass",
    "011,04",
    "pass",
    "04,06-0",
    "pass",
    "511,04",
    "pass",
    "06,081",
    "pass",
    "04,071",
    "pass",
    "091,19",
    "pass",
    "071,091-1",
    "pass",
]
CHOICE = "19,09-1 (C2)"


async def test_bump_game_with_choice_preview_capture_and_centre_win(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="bump", options="reserve2=1")
    game = await world.game(match_id)
    assert game.options == {"reserve1": 0, "reserve2": 1} and game.position()["reserves"] == [0, 1]
    # typing a piece's space lists that piece's moves, with what they do
    listed = await world.emu.autocomplete(alice, thread, "move", {"move": "01"})
    assert listed and all(c["value"].startswith("01") for c in listed)
    assert listed[0]["value"][2] in ",-" and "—" in listed[0]["name"]
    assert any(c["name"].endswith("no bumps") for c in listed)
    for turn in SCRIPT:
        user = alice if (await world.game(match_id)).to_move == 1 else bob
        result = await move(world, user, thread, turn)
        assert not result.ephemeral, result.text
    # a capture was announced in words
    texts = [m.content for m in world.emu.messages(thread)]
    assert any("**alice** (Blue): 06,081 — bumps 091 (captured against a piece)." in t for t in texts), texts
    # the choice move: autocomplete lists its variants with parentheses and what they lead to
    variants = await world.emu.autocomplete(alice, thread, "move", {"move": "19,09-1"})
    values = [c["value"] for c in variants]
    assert "19,09-1 (C2)" in values and "19,09-1 (59)" in values
    named = next(c["name"] for c in variants if c["value"] == "19,09-1 (C2)")
    assert "choosing 09 to C2" in named and "Guard your center!" in named
    # the preview shows the whole resolution privately, changes nothing
    before = (await world.game(match_id)).position()
    shown = await world.emu.invoke(alice, thread, "preview", {"move": CHOICE})
    assert shown.ephemeral and shown.text.startswith("Preview (not played)")
    assert "09 to C2" in shown.text and "Guard your center!" in shown.text
    assert board_png(shown.response).width >= 400
    assert (await world.game(match_id)).position() == before
    # a wrong choice is refused with the options
    wrong = await move(world, alice, thread, "19,09-1 (07)")
    assert wrong.ephemeral and "names no option" in wrong.text and "(C2)" in wrong.text
    played = await move(world, alice, thread, CHOICE)
    assert not played.ephemeral
    line = played.response.content
    assert "**alice** (Blue): 19,09-1 (C2) — bumps 59 (captured against a piece), then " in line
    assert "(chosen: C2, rather than 59)" in line
    assert "Guard your center!" in line and f"<@{bob.id}>" in line
    assert board_png(played.response).width >= 400
    final = await move(world, bob, thread, "pass")
    assert not final.ephemeral
    game = await world.game(match_id)
    assert isinstance(game, Bump) and game.is_over and game.winners == (1,) and game.end_reason == "centre"
    last = world.emu.messages(thread)[-1].content
    assert "Game over" in last and "Blue stands on C2 and wins" in last
    after = await move(world, alice, thread, "pass")
    assert after.ephemeral


async def test_bump_draw_by_agreement_through_the_bot(world):
    from tests.test_bot_lifecycle import arrives, button

    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="bump")
    await move(world, alice, thread, "01,03")
    offered = await world.emu.invoke(bob, thread, "draw", {})
    assert not offered.ephemeral and "offers a draw" in offered.text
    accepted = await world.emu.press(alice, offered.response, button(offered.response, "Accept")["custom_id"])
    assert not accepted.ephemeral and "agreed a draw" in accepted.text
    await arrives(world, thread, lambda m: "Game over: a draw" in m.content and m.attachments)
    game = await world.game(match_id)
    assert game.is_over and game.winners == () and game.returns() == (0.5, 0.5)
    match = await world.service.get(match_id)
    rebuilt = replay(match, await world.store.moves(match_id))
    assert rebuilt.to_json() == match.state
