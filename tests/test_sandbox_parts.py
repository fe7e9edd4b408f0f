"""The sandbox's parts without a browser: the composer's reading of commands, the saved world,
the clock file shared with the bot, and the web face's visibility rules."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bot.chat.client import INVITE_PERMISSIONS
from bot.domain.clock import OffsetFileClock
from emulator import DiscordEmulator
from sandbox import world
from sandbox.clockfile import ClockFile
from sandbox.composer import ComposerError, lenient_values, option_values, parse, suggest
from sandbox.runner import Layout
from sandbox.web import WebFace
from tests.botworld import BotWorld

COMMANDS = [
    {
        "name": "move",
        "description": "Play your turn",
        "options": [
            {"name": "move", "type": 3, "required": True, "autocomplete": True, "description": "the turn"},
            {"name": "match", "type": 4, "autocomplete": True, "description": "which match"},
        ],
    },
    {
        "name": "play",
        "description": "Start a match",
        "options": [
            {
                "name": "game",
                "type": 3,
                "required": True,
                "description": "which game",
                "choices": [{"name": "Bide", "value": "bide"}, {"name": "Begird", "value": "begird"}],
            },
            {"name": "opponent", "type": 6, "description": "invite"},
            {"name": "seats", "type": 4, "description": "seats"},
            {"name": "options", "type": 3, "description": "key=value"},
        ],
    },
    {"name": "history", "description": "Moves", "options": [{"name": "gif", "type": 5, "description": "replay"}]},
    {
        "name": "premove",
        "description": "Conditional moves",
        "options": [
            {"name": "line", "type": 3, "autocomplete": True, "description": "a line"},
            {"name": "clear", "type": 5, "description": "remove them"},
            {"name": "match", "type": 4, "autocomplete": True, "description": "which match"},
        ],
    },
]
USERS = {"alice": 1, "bob": 2}


def labels(text):
    return [s.label for s in suggest(text, COMMANDS, list(USERS)).suggestions]


def test_the_popup_offers_commands_then_options_then_values():
    assert labels("/") == ["/history", "/move", "/play", "/premove"]
    assert labels("/pl") == ["/play"]
    assert labels("/play ") == ["game:", "opponent:", "seats:", "options:"]  # required first
    assert labels("/play game:") == ["Bide", "Begird"]
    assert labels("/play game:bid") == ["Bide"]
    assert labels("/play game:bide op") == ["opponent:", "options:"]
    assert labels("/play game:bide opponent:b") == ["bob"]
    assert labels("/history gif:") == ["true", "false"]
    picked = suggest("/play game:B", COMMANDS, list(USERS)).suggestions[0]
    assert picked.text == "/play game:bide "


def test_values_the_bot_autocompletes_are_asked_of_the_bot():
    pending = suggest("/move match:3 move:e5,d", COMMANDS, list(USERS))
    assert pending.ask_bot == "move" and pending.prefix == "/move match:3 move:"
    parsed = parse("/move match:3 move:e5,d", COMMANDS)
    assert lenient_values(parsed, USERS, "move") == {"match": 3, "move": "e5,d"}
    # An option not understood yet is left out of the autocomplete request rather than refused.
    parsed = parse("/move match:x move:e", COMMANDS)
    assert lenient_values(parsed, USERS, "move") == {"move": "e"}


def test_a_premove_line_goes_on_after_a_semicolon_and_its_space_as_the_bot_writes_it():
    """Issue 37: "/premove line:e5; " offered option names instead of the bot's next turns, and "e5; c" offered
    clear:, so a line could not be continued from the pop-up as the bot writes lines ("e5; d4")."""
    for typed in ("/premove line:e5; ", "/premove line:e5;", "/premove line:e5; c", "/premove line:e5, "):
        pending = suggest(typed, COMMANDS, list(USERS))
        assert pending.ask_bot == "line" and pending.prefix == "/premove line:", typed
    assert lenient_values(parse("/premove line:e5; ", COMMANDS), USERS, "line") == {"line": "e5;"}
    assert labels("/premove line:e5 ") == ["clear:", "match:"]  # a whole value, then a space: the next option
    assert labels("/premove line:e5 c") == ["clear:"]


def test_options_are_read_as_discord_would_send_them():
    parsed = parse("/play game:bide opponent:@Bob seats:3 options:side=4 rule=x", COMMANDS)
    assert option_values(parsed, USERS) == {"game": "bide", "opponent": 2, "seats": 3, "options": "side=4 rule=x"}
    assert option_values(parse("/history gif:yes", COMMANDS), USERS) == {"gif": True}
    assert option_values(parse("/history gif:false", COMMANDS), USERS) == {"gif": False}
    for text, reason in [
        ("/move", "Missing: move:"),
        ("/nope", "no command /nope"),
        ("/play game:bide seats:two", "whole number"),
        ("/play game:bide opponent:zed", "no user 'zed'"),
        ("/history gif:maybe", "true or false"),
        ("/move e5", "name:value"),
        ("/move move:a move:b", "twice"),
        ("hello", "start with /"),
    ]:
        with pytest.raises(ComposerError, match=reason):
            option_values(parse(text, COMMANDS), USERS)


def test_the_bot_clock_follows_the_sandbox_clock_file(tmp_path):
    path = tmp_path / "sandbox.clock"
    bot_clock = OffsetFileClock(str(path))
    assert abs(bot_clock.now() - OffsetFileClock(str(tmp_path / "none")).now()) < 1  # no file: real time
    sandbox_clock = ClockFile(path)
    sandbox_clock.advance(3600)
    assert bot_clock.offset() == 3600
    sandbox_clock.advance(86400)  # a second write is seen too (the file is replaced)
    assert bot_clock.offset() == 90000
    assert ClockFile(path).offset == 90000  # kept for the next start
    for bad in ("garbage", "nan"):  # written as the sandbox writes: a new file renamed over the old
        (tmp_path / "new").write_text(bad)
        os.replace(tmp_path / "new", path)
        assert bot_clock.offset() == 0


async def test_the_world_is_saved_and_restored_with_the_same_ids(tmp_path):
    saved = world.WorldFile(tmp_path / "world.json")
    async with DiscordEmulator() as emu:
        world.build(emu)
        games = next(c for c in emu.store.channels.values() if c.name == world.CHANNEL_NAME)
        alice = next(u for u in emu.store.users.values() if u.name == "alice")
        message = await emu.user_message(alice, games, f"hello <@{alice.id}>")
        thread = emu.store.add_thread(games, name="Bide #1", kind=11, owner_id=emu.bot.id, auto_archive_duration=60)
        picture = emu.store.add_attachment("board.png", b"\x89PNG\r\n\x1a\n" + bytes(8) + (30).to_bytes(4, "big") * 2)
        board = emu.store.add_message(thread, emu.bot, content="board", attachments=[picture])
        emu.store.add_message(thread, emu.bot, content="secret", flags=1 << 6)  # ephemeral: not kept
        saved.save(emu)
        application_id = emu.application_id
    assert saved.saved_application_id() == application_id
    async with DiscordEmulator(application_id=application_id) as again:
        assert saved.load_into(again)
        assert again.bot.id == application_id
        assert [u.name for u in again.store.users.values() if not u.bot] == list(world.PLAYERS)
        assert {u.name: u.locale for u in again.store.users.values()}["amelie"] == "fr"  # her Discord's language
        assert again.message(message.id).content == message.content
        assert again.message(message.id).pinged == [alice.id]
        assert [t.id for t in again.threads(games.id)] == [thread.id]
        kept = again.messages(thread.id, include_ephemeral=True)
        assert [m.content for m in kept] == ["board"]
        assert kept[0].id == board.id and kept[0].attachments[0].data == picture.data
        assert kept[0].attachments[0].width == 30
        assert world.add_players(again) == 0
    assert not world.WorldFile(tmp_path / "other.json").load_into(DiscordEmulator())


def _shared_with_others(root: Path) -> list[str]:
    """Every path under ``root`` (itself included) that other users may read or enter."""
    paths = [root, *root.rglob("*")]
    return [f"{p} {stat.S_IMODE(p.stat().st_mode):o}" for p in paths if p.stat().st_mode & 0o077]


async def test_the_sandbox_data_folder_and_everything_it_writes_are_private(tmp_path):
    """The emulated Discord holds every player's DMs: a new data folder is 0700 and each file the sandbox
    writes 0600 (its lock, the world and its attachments, the clock, the processes' logs), under any umask."""
    import asyncio

    from sandbox.fleet import ChildSpec, Fleet
    from sandbox.runner import SandboxRunner

    data = tmp_path / "data"
    old_umask = os.umask(0o022)  # the usual one: files 0644 and folders 0755 unless the code says otherwise
    try:
        runner = SandboxRunner(data, 0)
        runner._lock().close()
        (data / "sandbox-discord.tmp").write_text("left by a sandbox that was killed")  # replaced, not reused
        async with DiscordEmulator() as emu:
            world.build(emu)
            alice = next(u for u in emu.store.users.values() if u.name == "alice")
            picture = emu.store.add_attachment("board.png", b"\x89PNG\r\n\x1a\n" + bytes(16))
            emu.store.add_message(emu.dm_channel(alice), emu.bot, content="your turn", attachments=[picture])
            runner.world_file.save(emu)
        runner.clock.advance(3600)
        child = ChildSpec("bot-0", "bot", ("-c", "print('a line')"), dict(os.environ))
        fleet = Fleet([child], log_dir=data / "logs", echo=lambda name, line: None)
        await fleet.start()
        log = data / "logs" / "bot-0.log"
        for _ in range(200):
            if log.exists() and b"a line" in log.read_bytes():
                break
            await asyncio.sleep(0.05)
        await fleet.stop()
    finally:
        os.umask(old_umask)
    assert [p.name for p in (data / "sandbox-discord-files").iterdir()] == [str(picture.id)]
    assert {p.name for p in data.iterdir()} >= {"sandbox.lock", "sandbox-discord.json", "sandbox.clock", "logs"}
    assert b"a line" in log.read_bytes()
    assert _shared_with_others(data) == []


async def test_a_world_saved_before_amelie_gets_her_in_every_server(tmp_path):
    async with DiscordEmulator() as emu:
        world.build(emu, guilds=2)
        old = next(u for u in emu.store.users.values() if u.name == "amelie")
        del emu.store.users[old.id]
        for guild in emu.store.guilds.values():
            guild.member_ids = [i for i in guild.member_ids if i != old.id]
        assert world.add_players(emu) == 1
        amelie = next(u for u in emu.store.users.values() if u.name == "amelie")
        assert amelie.locale == "fr" and all(amelie.id in g.member_ids for g in emu.store.guilds.values())


async def test_private_replies_and_dms_are_shown_to_their_user_only(tmp_path):
    bot_world = await BotWorld(tmp_path / "hexplay.sqlite3", users=2).start()
    try:
        face = WebFace(bot_world.emu, ClockFile(tmp_path / "clock"))
        alice, bob = bot_world.users
        result = await bot_world.emu.invoke(alice, bot_world.channel, "rules", {"game": "bide"})
        private = result.messages[0]
        assert private.ephemeral
        assert face.views.can_see(alice, private) and not face.views.can_see(bob, private)
        shown = face.views.message_json(private)
        assert shown["used"] == {"user": "alice", "command": "/rules"} and shown["embeds"]
        lobby = await bot_world.challenge(alice, [bob])
        assert f"<@{alice.id}>" in lobby.response.content  # named, but only the invited player is pinged:
        assert face.views.message_json(lobby.response)["pinged"] == [str(bob.id)]
        _match_id, thread = await bot_world.start_two_player()
        replay = await bot_world.emu.invoke(alice, thread, "history", {"gif": True})
        assert replay.deferred
        gif = await replay.wait_message(timeout=15)
        shown = face.views.message_json(gif)
        assert gif.edited_at is not None  # the emulator filled the deferral in by an edit…
        assert shown["attachments"][0]["type"] == "image/gif" and not shown["edited"]  # …which the page does not mark
        dm = bot_world.emu.dm_channel(alice)
        letter = bot_world.emu.store.add_message(dm, bot_world.emu.bot, content="your turn")
        assert face.views.can_see(alice, letter) and not face.views.can_see(bob, letter)
    finally:
        await bot_world.stop()


async def test_connected_line_names_the_bot_servers_sync_and_invite_link(tmp_path):
    bot_world = await BotWorld(tmp_path / "hexplay.sqlite3", users=1).start()
    try:
        bot = bot_world.bot
        line = bot.connected_line()
        assert "Connected as Hexplay" in line and "in 1 server;" in line
        assert f"dev servers {bot_world.guild.id}" in line
        assert (
            f"https://discord.com/oauth2/authorize?client_id={bot_world.emu.application_id}"
            f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
        ) in line
        bot.settings.dev_guild_ids = []
        assert "synced globally" in bot.connected_line()
    finally:
        await bot_world.stop()


def test_invite_permissions_are_the_ones_the_readme_lists():
    view, send, embed, attach, history = 1 << 10, 1 << 11, 1 << 14, 1 << 15, 1 << 16
    public_threads, send_in_threads = 1 << 35, 1 << 38
    assert view | send | embed | attach | history | public_threads | send_in_threads == INVITE_PERMISSIONS
    readme = Path(__file__).resolve().parents[1] / "README.md"
    assert str(INVITE_PERMISSIONS) in readme.read_text(encoding="utf-8")


async def test_emulator_observers_see_every_visible_change_and_cannot_break_it(tmp_path):
    bot_world = await BotWorld(tmp_path / "hexplay.sqlite3", users=2).start()
    try:
        seen: list[tuple[str, object]] = []
        bot_world.emu.observers.append(lambda event, obj: seen.append((event, obj)))
        bot_world.emu.observers.append(lambda event, obj: 1 / 0)  # a broken observer is logged, not fatal
        _match_id, thread = await bot_world.start_two_player()
        events = [event for event, _ in seen]
        assert "message_created" in events and "message_updated" in events  # lobby posted, then edited
        assert ("channel_created", thread) in seen
        private = await bot_world.emu.invoke(bot_world.users[0], thread, "board", {})
        assert private.ephemeral and ("message_created", private.messages[0]) in seen
        chat = await bot_world.emu.user_message(bot_world.users[1], thread, "good luck!")
        assert ("message_created", chat) in seen
        loading: list[bool] = []
        bot_world.emu.observers.insert(0, lambda event, obj: loading.append(getattr(obj, "loading", False)))
        replay = await bot_world.emu.invoke(bot_world.users[0], thread, "history", {"gif": True})
        await replay.wait_message(timeout=15)
        assert loading[0] is True and loading[-1] is False  # "thinking…" shown first, then the answer
        assert not bot_world.emu.violations
    finally:
        await bot_world.stop()


def test_a_damaged_world_file_stops_with_a_clear_reason(tmp_path):
    path = tmp_path / "world.json"
    path.write_text('{"format": 1, "applic')
    with pytest.raises(SystemExit, match="damaged; move it away"):
        world.WorldFile(path).saved_application_id()


async def test_bad_requests_to_the_page_api_get_a_reason_not_a_crash(tmp_path):
    from aiohttp.test_utils import TestClient, TestServer

    async with DiscordEmulator() as emu:
        world.build(emu)
        face = WebFace(emu, ClockFile(tmp_path / "clock"))
        async with TestClient(TestServer(face.app)) as client:
            for path, body, status in [
                ("/api/press", {"user": "alice", "message": "x", "custom_id": "a"}, 400),
                ("/api/press", {"user": "zed", "message": "1", "custom_id": "a"}, 404),
                ("/api/select", {"user": "alice", "message": "1", "custom_id": "a", "values": "no"}, 400),
                ("/api/send", {"user": "alice", "channel": "nope", "text": "/play"}, 404),
                ("/api/clock", {"user": "alice", "hours": -5}, 400),
                ("/api/clock", {"user": "alice", "hours": "soon"}, 400),
            ]:
                response = await client.post(path, json=body)
                assert response.status == status, (path, body, await response.text())
            response = await client.post("/api/press", json={"user": "alice", "message": "12", "custom_id": "a"})
            assert "does not exist" in (await response.json())["error"]
            malformed = await client.post("/api/send", data=b"{not json", headers={"Content-Type": "application/json"})
            assert malformed.status == 400
            assert (await client.get("/nobody")).status == 404
            assert (await client.get("/", allow_redirects=False)).headers["Location"] == "/alice"
            emu.violations.append("POST /channels/1/messages: 50035 Invalid Form Body")
            state = await (await client.get("/api/state?user=alice")).json()
            assert state["violations"] == 1
            debug = await (await client.get("/api/debug")).json()
            assert debug["violations"] == emu.violations and isinstance(debug["rate_limits"], list)


async def test_only_the_sandboxs_own_page_on_this_machine_may_act_or_listen(tmp_path):
    """Another site's page (a text/plain POST needs no CORS preflight) or a foreign Host (DNS rebinding:
    evil.example resolving to 127.0.0.1) must not play as a sandbox user nor read its DMs."""
    from aiohttp import WSServerHandshakeError
    from aiohttp.test_utils import TestClient, TestServer

    async with DiscordEmulator() as emu:
        world.build(emu)
        face = WebFace(emu, ClockFile(tmp_path / "clock"))
        games = face.games_channel(face.guild_named(None))
        async with TestClient(TestServer(face.app, host="127.0.0.1")) as client:
            own = f"http://127.0.0.1:{client.port}"
            body = b'{"user": "alice", "text": "sent by another site"}'
            for headers, status in [
                ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403),
                ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
                ({"Content-Type": "application/json", "Origin": "null"}, 403),
                ({"Content-Type": "text/plain"}, 415),
                ({"Content-Type": "application/x-www-form-urlencoded", "Origin": own}, 415),
                ({"Content-Type": "application/json", "Host": f"evil.example:{client.port}"}, 403),
            ]:
                response = await client.post("/api/send", data=body, headers=headers)
                assert response.status == status, (headers, await response.text())
            assert not emu.messages(games.id), "another site's request was acted on"
            rebound = await client.get("/api/state?user=alice", headers={"Host": f"evil.example:{client.port}"})
            assert rebound.status == 403
            with pytest.raises(WSServerHandshakeError) as refused:
                await client.ws_connect("/api/live?user=alice", headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
            for host in (f"localhost:{client.port}", f"[::1]:{client.port}", "127.0.0.1"):
                assert (await client.get("/api/state?user=alice", headers={"Host": host})).status == 200, host
            sent = await client.post("/api/send", json={"user": "alice", "text": "mine"}, headers={"Origin": own})
            assert (await sent.json()).get("ok") and [m.content for m in emu.messages(games.id)] == ["mine"]
            socket = await client.ws_connect("/api/live?user=alice", headers={"Origin": own})
            await socket.close()


async def test_the_sandbox_has_a_french_player_who_types_and_reads_french(tmp_path):
    """amelie's Discord speaks French: the page offers her the French commands, she may type them (or the
    English ones), and the bot answers her in French while the server's posts stay in its English."""
    from aiohttp.test_utils import TestClient, TestServer

    bot_world = await BotWorld(tmp_path / "hexplay.sqlite3", users=2).start()
    try:
        bot_world.add_user("amelie", locale=world.LOCALES["amelie"])
        face = WebFace(bot_world.emu, ClockFile(tmp_path / "clock"))
        channel = str(bot_world.channel.id)
        async with TestClient(TestServer(face.app)) as client:
            offered = await (await client.post("/api/suggest", json={"user": "amelie", "text": "/jo"})).json()
            assert [item["text"] for item in offered["items"]] == ["/jouer "]
            for typed in ("/plateau", "/board"):
                sent = await client.post("/api/send", json={"user": "amelie", "channel": channel, "text": typed})
                assert (await sent.json()).get("ok"), typed
            answers = [m for m in bot_world.emu.messages(channel, include_ephemeral=True) if m.ephemeral]
            assert [m.content.split(".")[0] for m in answers] == ["Vous n’avez aucune partie en cours ici"] * 2
            lobby = await client.post(
                "/api/send", json={"user": "amelie", "channel": channel, "text": "/jouer jeu:Bide adversaire:bob"}
            )
            assert (await lobby.json()).get("ok")
            posted = bot_world.emu.messages(channel)[-1]  # the lobby: for the whole (English) server
            assert [b["label"] for b in posted.buttons()][:2] == ["Accept", "Decline"]
    finally:
        await bot_world.stop()


def test_the_start_line_counts_in_the_singular_for_one():
    url = "postgresql://u:p@127.0.0.1:5432/db"
    assert Layout(4, 2, 1, url).described() == "4 servers, 2 bot processes (2 shards), 1 worker"
    assert Layout(1, 1, 0, url, shards=3).described() == "1 server, 1 bot process (3 shards), 0 workers"
    assert Layout(2, 1, 2, url, shards=1).described() == "2 servers, 1 bot process (1 shard), 2 workers"
