"""Play Bai through the bot and the emulator: /play with options, /move typed action by
action with autocomplete, the private turn builder, /preview of a partial turn, the
announcement in words, and a game played to a winner."""

from __future__ import annotations

import asyncio
import random

from games.playbaisearch import GOAL
from tests.test_bot_e2e import move


async def until(predicate, timeout: float = 10.0):
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


def live(world, message):
    return world.emu._live_message(message.id)


async def build_turn(world, user, thread, picks: list[str]):
    """Open the builder with /turn, pick each notation from its menus, press End turn."""
    opened = await world.emu.invoke(user, thread, "turn", {})
    builder = await opened.wait_message(timeout=15)
    assert opened.ephemeral and builder.attachments and "No action yet" in builder.content
    for notation in picks:
        message = live(world, builder)
        menus = message.selects()
        assert 1 <= len(menus) <= 4 and all(len(m["options"]) <= 25 for m in menus)
        assert len(message.components) <= 5
        menu, option = next((m, o) for m in menus for o in m["options"] if o["label"] == notation)
        before = message.content
        await world.emu.select(user, message, menu["custom_id"], [option["value"]])
        await until(lambda: live(world, builder).content != before)
        assert f"`{','.join(picks[: picks.index(notation) + 1])}`" in live(world, builder).content
    message = live(world, builder)
    end = next(b for b in message.buttons() if b["label"] == "End turn")
    assert not end["disabled"]
    return await world.emu.press(user, message, end["custom_id"]), builder


async def test_playbai_through_move_autocomplete_and_the_turn_builder(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player(game="playbai", options="expert=false")
    game = await world.game(match_id)
    assert game.info.id == "playbai" and game.to_move == 1

    # autocomplete continues a typed turn action by action
    choices = await world.emu.autocomplete(alice, thread, "move", {"move": "e2-e3 "})
    assert choices[0]["value"] == "e2-e3" and "end the turn here" in choices[0]["name"]
    assert all(c["value"].startswith("e2-e3") for c in choices) and len(choices) <= 25
    assert any(c["value"] == "e2-e3,e3-e4" and "step to e4" in c["name"] for c in choices)
    on_dot = await world.emu.autocomplete(alice, thread, "move", {"move": "e2-e1 "})
    assert "end the turn here" not in on_dot[0]["name"]  # a turn may not end on a dot

    # /preview of a partial turn, and of a whole one
    partial = await world.emu.invoke(alice, thread, "preview", {"move": "e2-e1"})
    assert partial.ephemeral and "in progress" in partial.text and "may not end on a dot" in partial.text
    assert partial.response.attachments

    # /move with a whole turn: the announcement tells it in words
    opening = await move(world, alice, thread, "e2-e3 e3-e4")
    assert not opening.ephemeral, opening.text
    assert "alice" in opening.text and "e2-e3, e3-e4" in opening.text
    labels = [b["label"] for b in opening.response.buttons()]
    assert "Build your turn" in labels

    # an illegal turn changes nothing and says why, privately
    refused = await move(world, bob, thread, "e8-e7 e7-e6 e6-e5 e5-e4")
    assert refused.ephemeral and "3 moves are already made" in refused.text
    assert (await world.game(match_id)).ply == 1

    # bob builds his turn from the menus: step, step, then a step onto the ball
    _result, builder = await build_turn(world, bob, thread, ["e8-e7", "e7-e6", "e6-e5"])
    await until(lambda: "Played" in live(world, builder).content)
    assert not live(world, builder).components  # the builder is closed
    game = await world.game(match_id)
    assert game.ply == 2 and game.position()["ball"] == "e5" and game.carrier() == 2
    await until(lambda: "bob" in world.emu.messages(thread)[-1].content)
    board = world.emu.messages(thread)[-1]
    assert board.attachments and "bob" in board.content and "e8-e7, e7-e6, e6-e5 (took the ball)" in board.content

    # a builder left open expires cleanly once the position changes: its menus go away
    stale_open = await world.emu.invoke(alice, thread, "turn", {})
    stale = await stale_open.wait_message(timeout=15)
    await move(world, alice, thread, "b2-c3")
    menu = live(world, stale).selects()[0]
    await world.emu.select(alice, live(world, stale), menu["custom_id"], [menu["options"][0]["value"]])
    await until(lambda: "expired" in live(world, stale).content)
    assert not live(world, stale).components and not live(world, stale).attachments
    assert (await world.game(match_id)).ply == 3

    # not your turn: the builder refuses to open
    refused_builder = await world.emu.invoke(alice, thread, "turn", {})
    assert refused_builder.ephemeral and "not your turn" in refused_builder.text

    # Undo in the builder takes back the last pick
    opened = await world.emu.invoke(bob, thread, "turn", {})
    builder = await opened.wait_message(timeout=15)
    menu = live(world, builder).selects()[0]
    first = menu["options"][0]
    await world.emu.select(bob, live(world, builder), menu["custom_id"], [first["value"]])
    await until(lambda: f"`{first['label']}`" in live(world, builder).content)
    undo = next(b for b in live(world, builder).buttons() if b["label"] == "Undo last action")
    await world.emu.press(bob, live(world, builder), undo["custom_id"])
    await until(lambda: "No action yet" in live(world, builder).content)

    # play on to the end through /move, taking a goal whenever one is on offer
    rng = random.Random(3)
    for _ in range(300):
        game = await world.game(match_id)
        if game.is_over:
            break
        user = await world.user_to_move(match_id)
        results = game.turn_results()
        goals = [k for k in results if k == GOAL or isinstance(k, tuple)]
        key = goals[0] if goals else list(results)[rng.randrange(len(results))]
        played = await move(world, user, thread, game.format_turn(results[key]))
        assert not played.ephemeral, played.text
        if goals and not (await world.game(match_id)).is_over:
            assert "GOAL!" in played.text
    game = await world.game(match_id)
    assert game.is_over and len(game.winners) == 1
    last = world.emu.messages(thread)[-1]
    assert "GOAL!" in last.content and "Game over" in last.content and "wins" in last.content
