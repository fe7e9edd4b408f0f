"""The Activity's API end to end: the real bot (its Activity server on loopback) against the emulator, the page
played by an HTTP client signed in as the Embedded App SDK does it (docs/activity.md)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from bot.domain.replay import replay
from bot.runtime import activity_server
from tests.activity_page import Page
from tests.botworld import BotWorld


@pytest.fixture
async def world(database):
    world = await BotWorld(database, activity=True).start()
    async with aiohttp.ClientSession() as session:
        world.session = session
        world.url = await world.activity_url()
        yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == [], violations


async def page(world, user) -> Page:
    return await Page.open(world.url, world.emu, user, world.session)


def _form(world, code: str) -> dict[str, str]:
    return {
        "client_id": str(world.emu.application_id),
        "client_secret": world.emu.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }


async def board_posts(world, thread) -> list:
    return [m for m in world.emu.messages(thread) if m.attachments]


async def test_the_code_is_exchanged_by_the_server_and_the_secret_stays_there(world) -> None:
    alice = world.users[0]
    match_id, thread = await world.start_two_player("begird")
    status, config = await Page(world.url, None, world.session).get("/config")
    assert status == 200 and config["client_id"] == str(world.emu.application_id)
    code = world.emu.oauth.authorize(alice, world.emu.application_id, ["identify"])
    async with world.session.post(f"{world.url}/api/activity/token", json={"code": code}) as response:
        text = await response.text()
    assert response.status == 200 and world.emu.client_secret not in text
    assert world.emu.oauth.exchanges[-1] == {
        "client_id": str(world.emu.application_id),
        "client_secret": "***",
        "grant_type": "authorization_code",
        "code": code,
    }
    async with world.session.post(f"{world.url}/api/activity/token", json={"code": code}) as response:
        assert (response.status, (await response.json())["error"]) == (400, "bad_code")  # a code is used once
    mine = await page(world, alice)
    status, me = await mine.get("/me", channel_id=thread.id, guild_id=world.guild.id)
    assert status == 200 and me["user"] == {"id": str(alice.id), "name": "alice"}
    assert me["launched"] == match_id  # opened in the match's thread
    assert [(m["id"], m["your_turn"]) for m in me["matches"]] == [(match_id, True)]


async def test_forged_and_expired_tokens_are_refused_with_nothing_stored(world) -> None:
    alice = world.users[0]
    match_id, thread = await world.start_two_player("begird")
    before = await world.service.get(match_id)
    posts = len(world.emu.messages(thread))
    forged = Page(world.url, "forged-token", world.session)
    status, body = await forged.play(match_id, before.version, "i9")
    assert (status, body["error"]) == (401, "reopen") and "open it again" in body["reason"]
    # A token another process exchanged (this server never saw it), expired since: Discord says 401.
    code = world.emu.oauth.authorize(alice, world.emu.application_id, ["identify"])
    token = world.emu.oauth.exchange(_form(world, code), None)["access_token"]
    world.emu.oauth.expire(token)
    mine = Page(world.url, token, world.session)
    for path, request in ((f"/matches/{match_id}", None), (f"/matches/{match_id}/play", [before.version, "i9"])):
        if request is None:
            status, body = await mine.get(path)
        else:
            status, body = await mine.play(match_id, *request)
        assert (status, body["error"]) == (401, "reopen"), path
    status, body = await Page(world.url, None, world.session).get("/me")
    assert status == 401
    after = await world.service.get(match_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert len(world.emu.messages(thread)) == posts


async def test_a_token_is_kept_briefly_then_asked_about_again(world) -> None:
    alice = world.users[0]
    match_id, _ = await world.start_two_player("begird")
    identities = activity_server(world.bot).access.identities
    clock = [1000.0]
    identities.now = lambda: clock[0]  # the cache's own clock, moved by hand
    mine = await page(world, alice)
    asked = identities.asked
    for _ in range(5):
        await mine.view(match_id)
        clock[0] += 10
    assert identities.asked == asked  # kept: no round trip to Discord per tap (50 s < 60 s)...
    clock[0] += 11  # ...for a minute only: a token revoked since is then refused
    world.emu.oauth.revoke(mine.token)
    status, body = await mine.get(f"/matches/{match_id}")
    assert (status, body["error"]) == (401, "reopen") and identities.asked == asked + 1


async def test_a_tap_in_someone_elses_match_changes_nothing(world) -> None:
    carol = world.users[2]
    match_id, thread = await world.start_two_player("begird")
    before = await world.service.get(match_id)
    posts = len(world.emu.messages(thread))
    watcher = await page(world, carol)
    view = await watcher.view(match_id)  # anyone in the server may watch...
    assert view["you"] == {"seat": None, "player": False, "to_move": False, "can_act": False}
    assert len(view["scene"]["cells"]) == 243
    for request in (
        watcher.post(f"/matches/{match_id}/turn", {"version": before.version, "actions": []}),
        watcher.play(match_id, before.version, "i9"),
        watcher.post(f"/matches/{match_id}/resign", {"version": before.version}),
        watcher.post(f"/matches/{match_id}/offer", {"version": before.version, "kind": "draw"}),
    ):
        status, body = await request  # ...but acts only in their own matches
        assert (status, body["error"]) == (403, "not_a_player"), body
        assert "not a player" in body["reason"]
    after = await world.service.get(match_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert len(world.emu.messages(thread)) == posts


async def test_a_turn_tapped_and_played_posts_the_same_board_as_move(world) -> None:
    alice = world.users[0]
    match_id, thread = await world.start_two_player("playbai")
    mine = await page(world, alice)
    view = await mine.view(match_id)
    assert view["you"]["can_act"] and view["latest"] and view["ply"] == 0
    version = view["match"]["version"]
    status, built = await mine.post(f"/matches/{match_id}/turn", {"version": version, "actions": []})
    assert status == 200 and not built["can_end"]
    step = next(a for a in built["legal"] if a["from"] and a["to"] and "-" in a["notation"])
    assert step["cells"] == [step["from"], step["to"]]
    status, built = await mine.post(f"/matches/{match_id}/turn", {"version": version, "actions": [step["notation"]]})
    assert status == 200 and built["notation"] == step["notation"] and built["can_end"]
    moved = [p for p in built["view"]["scene"]["pieces"] if p["cell"] == step["to"] and p["shape"] != "ball"]
    assert moved, "the position after the tapped action shows the piece where it went"
    status, body = await mine.post(f"/matches/{match_id}/turn", {"version": version, "actions": ["z9-z8"]})
    assert status == 422 and body["error"] == "illegal_move"
    posted = asyncio.ensure_future(world.emu.wait_for_message(thread, lambda m: bool(m.attachments)))
    status, played = await mine.play(match_id, version, *built["actions"])
    assert status == 200 and played["played"] == step["notation"] and played["version"] > version
    board = await posted
    assert step["notation"] in board.content
    assert any(b["label"] == "Open board" for b in board.buttons())
    assert played["view"]["ply"] == 1 and not played["view"]["you"]["can_act"]


async def test_a_plays_board_is_posted_before_the_page_is_answered(world, monkeypatch) -> None:
    """As /move's board is its answer, Play's board goes out before the page's answer is built: built meanwhile,
    the answer (and the page redrawing on it) took the CPU the picture and its post needed, and Play's board came
    later than /move's. A picture that takes long holds the page at most ``board_first`` seconds."""
    match_id, thread = await world.start_two_player("begird")
    access = activity_server(world.bot).access
    pictures = world.service.pictures
    drawn = pictures.png
    delay = 0.3

    async def slow(*args, **kwargs):
        await asyncio.sleep(delay)
        return await drawn(*args, **kwargs)

    monkeypatch.setattr(pictures, "png", slow)
    for turn in range(2):
        mover = await world.user_to_move(match_id)
        game = await world.game(match_id)
        move = game.format_action(game.rank_actions(game.legal_actions())[0])
        version = (await world.service.get(match_id)).version
        started = asyncio.get_running_loop().time()
        status, played = await (await page(world, mover)).play(match_id, version, move)
        waited = asyncio.get_running_loop().time() - started
        assert status == 200 and played["version"] > version
        posted = [m.content for m in await board_posts(world, thread)]
        if turn == 0:  # the board was there when the page was answered
            assert any(move in content for content in posted), (move, posted)
        else:  # a picture slower than the bound: the page is answered first, the board follows
            assert waited < delay and not any(move in content for content in posted), (waited, posted)
            await world.emu.wait_for_message(thread, lambda m, move=move: bool(m.attachments) and move in m.content)
        access.board_first, delay = 0.05, 1.0


async def test_two_plays_racing_on_one_version_store_one_turn(world) -> None:
    rng = __import__("random").Random(35)
    match_id, _ = await world.start_two_player("begird")
    pages = {u.id: await page(world, u) for u in world.users[:2]}
    for trial in range(12):
        match = await world.service.get(match_id)
        mover = await world.user_to_move(match_id)
        game = await world.game(match_id)
        first, second = rng.sample([game.format_action(a) for a in game.legal_actions()][:40], 2)
        gap = rng.uniform(0, 0.005)

        async def late(move: str) -> tuple[int, dict]:
            await asyncio.sleep(gap)
            return await pages[mover.id].play(match_id, match.version, move)

        answers = await asyncio.gather(pages[mover.id].play(match_id, match.version, first), late(second))
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200, 409], (trial, answers)
        stored = await world.service.get(match_id)
        assert stored.version > match.version
        moves = await world.store.moves(match_id)
        assert replay(stored, moves).to_json() == (await world.game(match_id)).to_json()
        assert len(moves) == trial + 1


async def test_open_board_launches_the_activity_on_its_match(world) -> None:
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player("bide")
    board = (await board_posts(world, thread))[-1]
    button = next(b for b in board.buttons() if b["label"] == "Open board")
    pressed = await world.emu.press(bob, board, button["custom_id"])
    assert pressed.callback_type == 12 and pressed.activity is not None
    assert pressed.activity.channel_id == thread.id
    status, me = await (await page(world, bob)).get("/me", instance_id=pressed.activity.id)
    assert status == 200 and me["launched"] == match_id
    launched = await world.emu.launch(alice, world.channel)  # the App Launcher: the bot answers (handler 1)
    assert launched.callback_type == 12 and launched.activity is not None
    status, me = await (await page(world, alice)).get("/me", instance_id=launched.activity.id)
    assert me["launched"] is None and [m["id"] for m in me["matches"]] == [match_id]
    entry = next(c for c in world.emu.commands() if c["type"] == 4)
    assert entry["handler"] == 1 and entry["name"] == "launch"


async def test_a_change_reaches_the_open_pages_at_once(world) -> None:
    alice, carol = world.users[0], world.users[2]
    match_id, thread = await world.start_two_player("begird")
    live = await (await page(world, carol)).live(match_id)
    hello = await live.next()
    assert hello["type"] == "hello"
    started = asyncio.get_running_loop().time()
    await world.emu.invoke(alice, thread, "move", {"move": "i9"})  # a slash command, not the Activity
    changed = await live.next(timeout=2.0)
    assert changed == {"type": "changed", "version": hello["version"] + 1} or changed["version"] > hello["version"]
    assert asyncio.get_running_loop().time() - started < 2.0
    await live.close()
    socket = await world.session.ws_connect(f"{world.url}/api/activity/matches/{match_id}/live")
    await socket.send_str('{"token": "forged"}')
    message = await socket.receive(timeout=5)
    assert message.type == aiohttp.WSMsgType.CLOSE and socket.close_code == 4401


async def test_a_stranger_to_the_server_sees_nothing(world) -> None:
    match_id, _ = await world.start_two_player("bump")
    stranger = world.emu.create_user("stranger")
    world.guild.member_ids.remove(stranger.id)
    status, body = await (await page(world, stranger)).get(f"/matches/{match_id}")
    assert (status, body["error"]) == (404, "no_match")


async def test_the_view_speaks_the_viewers_language(world) -> None:
    amelie = world.add_user("amelie", locale="fr")
    match_id, _ = await world.start_two_player("begird", a=0, b=1)
    view = await (await page(world, amelie)).view(match_id)
    assert "au tour d’alice" in view["panel"]["status"]  # French, elided before the name
    status, body = await (await page(world, amelie)).play(match_id, view["match"]["version"], "i9")
    assert status == 403 and "Vous ne jouez pas" in body["reason"]


async def test_an_app_with_activities_but_no_activity_server_still_syncs_and_says_why(database) -> None:
    """Enabling Activities in the portal creates an Entry Point command, which a command sync must carry (Discord
    refuses one without it: 50240). A bot that serves no Activity still starts, shows no Open board, and answers
    the App Launcher privately."""
    world = BotWorld(database, global_commands=True)  # one bulk overwrite of the global commands, as in production
    await world.emu.start()
    world.emu.enable_activities()  # before the bot's first sync, as an operator who ticked the box
    try:
        await world.start()  # (the emulator is started once: start() does nothing more to it)
        synced = world.emu.commands()
        assert [c["handler"] for c in synced if c["type"] == 4] == [1] and any(c["name"] == "move" for c in synced)
        _, thread = await world.start_two_player("bide")
        board = (await board_posts(world, thread))[-1]
        assert all(b["label"] != "Open board" for b in board.buttons())
        launched = await world.emu.launch(world.users[0], world.channel)
        assert launched.callback_type == 4 and launched.ephemeral and launched.activity is None
        assert "has no board to open" in launched.text
        assert world.emu.violations == []
    finally:
        await world.stop()


async def test_history_back_and_forth(world) -> None:
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player("begird")
    await world.emu.invoke(alice, thread, "move", {"move": "i9"})
    await world.emu.invoke(bob, thread, "move", {"move": "j9"})
    mine = await page(world, alice)
    latest = await mine.view(match_id)
    assert (latest["ply"], latest["plies"], latest["latest"]) == (2, 2, True) and latest["you"]["can_act"]
    status, first = await mine.get(f"/matches/{match_id}", ply=1, have=latest["scene"]["key"])
    assert status == 200 and (first["ply"], first["latest"], first["you"]["can_act"]) == (1, False, False)
    assert [p["cell"] for p in first["scene"]["pieces"]] == ["i9"] and "cells" not in first["scene"]
    assert first["turn"]["notation"] == "i9" and first["turn"]["by"] == "alice"
    status, start = await mine.get(f"/matches/{match_id}", ply=0)
    assert start["scene"]["pieces"] == [] and start["turn"] is None and start["actions"]["resign"] is False
    status, body = await mine.get(f"/matches/{match_id}", ply="x")
    assert (status, body["error"]) == (400, "bad_request")


async def test_offers_and_resigning_from_the_activity(world) -> None:
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player("begird")
    mine, theirs = await page(world, alice), await page(world, bob)
    view = await mine.view(match_id)
    status, played = await mine.play(match_id, view["match"]["version"], "i9")
    assert status == 200 and played["view"]["actions"]["offer_undo"]
    offered = asyncio.ensure_future(
        world.emu.wait_for_message(thread, lambda m: any(b["label"] == "Accept" for b in m.buttons()))
    )
    status, body = await mine.post(f"/matches/{match_id}/offer", {"version": played["version"], "kind": "undo"})
    assert status == 200 and body["view"]["offers"][0]["yours"]
    await offered  # posted in the thread with its buttons, as /undo posts it
    view = await theirs.view(match_id)
    assert view["offers"] == [{"kind": "undo", "by": "alice", "yours": False, "yours_to_answer": True}]
    board = asyncio.ensure_future(world.emu.wait_for_message(thread, lambda m: bool(m.attachments)))
    status, body = await theirs.post(
        f"/matches/{match_id}/offer", {"version": view["match"]["version"], "kind": "undo", "answer": "accept"}
    )
    assert status == 200 and body["done"] == "agreed" and body["view"]["ply"] == 0  # the turn is taken back
    await board
    view = await mine.view(match_id)
    status, body = await mine.post(f"/matches/{match_id}/resign", {"version": view["match"]["version"] - 1})
    assert (status, body["error"]) == (409, "changed")  # an old version: nothing done
    final = asyncio.ensure_future(world.emu.wait_for_message(thread, lambda m: bool(m.attachments)))
    status, body = await mine.post(f"/matches/{match_id}/resign", {"version": view["match"]["version"]})
    assert status == 200 and body["view"]["match"]["status"] == "finished"
    assert any(b["label"] == "Rematch" for b in (await final).buttons())
