"""The Activity's page as the tests play it: an HTTP client of the bot's Activity server (docs/activity.md),
signed in as an emulator user the way the Embedded App SDK does it (authorize, then the code exchange)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from emulator import DiscordEmulator


class Page:
    """One user's page: ``await Page.open(url, emu, user)`` signs in; ``get``/``post`` answer (status, JSON)."""

    def __init__(self, url: str, token: str | None, session: aiohttp.ClientSession) -> None:
        self.url, self.token, self.session = url, token, session

    @classmethod
    async def open(cls, url: str, emu: DiscordEmulator, user: Any, session: aiohttp.ClientSession) -> Page:
        code = emu.oauth.authorize(user, emu.application_id, ["identify"])
        async with session.post(f"{url}/api/activity/token", json={"code": code}) as response:
            body = await response.json()
            assert response.status == 200, body
        return cls(url, body["access_token"], session)

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token is not None else {}

    async def get(self, path: str, **params: Any) -> tuple[int, Any]:
        query = {k: str(v) for k, v in params.items()}
        async with self.session.get(f"{self.url}/api/activity{path}", params=query, headers=self._headers()) as r:
            return r.status, await r.json()

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        async with self.session.post(f"{self.url}/api/activity{path}", json=body, headers=self._headers()) as r:
            return r.status, await r.json()

    async def view(self, match_id: int) -> dict[str, Any]:
        status, body = await self.get(f"/matches/{match_id}")
        assert status == 200, body
        return body

    async def play(self, match_id: int, version: int, *actions: str) -> tuple[int, Any]:
        return await self.post(f"/matches/{match_id}/play", {"version": version, "actions": list(actions)})

    async def live(self, match_id: int) -> Live:
        socket = await self.session.ws_connect(f"{self.url}/api/activity/matches/{match_id}/live")
        await socket.send_str(json.dumps({"token": self.token}))
        return Live(socket)


class Live:
    """A page's WebSocket: ``await live.next()`` is its next message (ping excluded)."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            message = await asyncio.wait_for(self.socket.receive(), timeout)
            if message.type != aiohttp.WSMsgType.TEXT:
                return {"type": "closed", "code": self.socket.close_code}
            data = json.loads(message.data)
            if data.get("type") != "ping":
                return data

    async def close(self) -> None:
        await self.socket.close()
