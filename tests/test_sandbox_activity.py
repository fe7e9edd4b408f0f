"""The sandbox serves the Activity on its own origin (docs/activity.md, "The sandbox"): the Discord client's part
of the sign-in (authorize, authenticate), the page's requests proxied to the bot's Activity server (HTTP and
WebSocket), Open board's LAUNCH_ACTIVITY in /api/press's answer, and the App Launcher."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp

from tests.sandbox_process import SandboxProcess


def _call(url: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url,
        method="POST" if body is not None else "GET",
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _until(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def test_the_sandbox_serves_the_activity_on_its_own_origin(tmp_path: Path) -> None:
    sandbox = SandboxProcess(tmp_path / "data")
    sandbox.keep_reading()
    try:
        url = sandbox.url
        status, config = _call(f"{url}/activity/.proxy/api/activity/config")  # proxied to the bot's server
        assert status == 200 and config["scopes"] == ["identify"]
        status, body = _call(f"{url}/api/activity/authorize", {"user": "bob", "client_id": config["client_id"]})
        assert status == 200
        status, signed = _call(f"{url}/.proxy/api/activity/token", {"code": body["code"]})
        assert status == 200 and signed["user"]["name"] == "bob"
        status, who = _call(f"{url}/api/activity/authenticate", {"access_token": signed["access_token"]})
        assert status == 200 and who["user"]["username"] == "bob" and who["scopes"] == ["identify"]
        assert _call(f"{url}/api/activity/authenticate", {"access_token": "forged"})[0] == 401
        assert _call(f"{url}/activity/.proxy/api/activity/me", token="forged")[0] == 401

        # bob plays carol; Open board on the board's post opens the Activity (LAUNCH_ACTIVITY) on that match
        state = sandbox.call("/api/state?user=bob")
        games = next(c["id"] for c in state["channels"] if not c["thread"])
        sandbox.call("/api/send", {"user": "bob", "channel": games, "text": "/play game:begird opponent:carol"})
        lobby = _until(
            lambda: [
                m
                for m in sandbox.call(f"/api/messages?user=carol&channel={games}")
                if any(b.get("label") == "Accept" for b in _buttons(m))
            ]
        )[-1]
        accept = next(b for b in _buttons(lobby) if b.get("label") == "Accept")
        sandbox.call("/api/press", {"user": "carol", "message": lobby["id"], "custom_id": accept["custom_id"]})

        def board() -> dict | None:
            threads = [c for c in sandbox.call("/api/state?user=bob")["channels"] if c["thread"]]
            for thread in threads:
                posts = sandbox.call(f"/api/messages?user=bob&channel={thread['id']}")
                found = [m for m in posts if any(b.get("label") == "Open board" for b in _buttons(m))]
                if found:
                    return found[-1]
            return None

        post = _until(board)
        button = next(b for b in _buttons(post) if b.get("label") == "Open board")
        pressed = sandbox.call("/api/press", {"user": "bob", "message": post["id"], "custom_id": button["custom_id"]})
        activity = pressed["activity"]
        assert activity["channel_id"] == post["channel_id"] and activity["application_id"] == config["client_id"]
        status, me = _call(
            f"{url}/activity/.proxy/api/activity/me?instance_id={activity['instance_id']}",
            token=signed["access_token"],
        )
        assert status == 200 and me["launched"] == me["matches"][0]["id"]
        launched = sandbox.call("/api/launch", {"user": "bob"})  # the App Launcher, in #games
        assert launched["activity"]["channel_id"] == games

        async def live() -> dict:
            async with aiohttp.ClientSession() as session:
                path = f"{url}/activity/.proxy/api/activity/matches/{me['launched']}/live"
                async with session.ws_connect(path) as socket:
                    await socket.send_str(json.dumps({"token": signed["access_token"]}))
                    return json.loads((await socket.receive(timeout=10)).data)

        assert asyncio.run(live())["type"] == "hello"  # the WebSocket goes through the proxy too
    finally:
        sandbox.interrupt()


def _buttons(message: dict) -> list[dict]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]
