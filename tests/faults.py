"""Discord misbehaving, for tests: threads deleted or locked by moderators, 5xx answers on posts,
slow answers.

Test-side helpers over the emulator's public objects; PostFaults and SlowRequests must be
installed before the emulator starts (its routes and middleware bind the handlers then).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

from emulator import DiscordEmulator
from emulator.gateway import GUILDS


def delete_thread(emu: DiscordEmulator, thread) -> None:
    """A moderator deletes the match's thread."""
    thread.deleted = True
    emu.gateway.dispatch("THREAD_DELETE", emu.store.channel_payload(thread), intents=GUILDS)


def lock_thread(emu: DiscordEmulator, thread) -> None:
    """A moderator locks the match's thread: only moderators may post in it."""
    thread.locked = True
    emu.gateway.dispatch("THREAD_UPDATE", emu.store.channel_payload(thread), intents=GUILDS)


def unlock_thread(emu: DiscordEmulator, thread) -> None:
    """A moderator unlocks the match's thread (it stays archived if it was)."""
    thread.locked = False
    emu.gateway.dispatch("THREAD_UPDATE", emu.store.channel_payload(thread), intents=GUILDS)


class SlowRequests:
    """Discord's round trip: each REST request of the bot for which ``which(request)`` holds (all of them
    by default) waits ``seconds`` before the emulator takes it, as a request crossing the internet does."""

    def __init__(
        self, emu: DiscordEmulator, seconds: float, which: Callable[[web.Request], bool] | None = None
    ) -> None:
        self.seconds = seconds
        original = emu.rest.middleware

        @web.middleware
        async def middleware(request: web.Request, handler) -> web.StreamResponse:
            if request.path.startswith("/api/") and (which is None or which(request)):
                await asyncio.sleep(self.seconds)
            return await original(request, handler)

        emu.rest.middleware = middleware  # type: ignore[method-assign]


def dm_posts(emu: DiscordEmulator) -> Callable[[web.Request], bool]:
    """For SlowRequests: the bot's posts in direct messages."""

    def which(request: web.Request) -> bool:
        channel_id = request.match_info.get("channel_id", "")
        channel = emu.store.channels.get(int(channel_id)) if channel_id.isdigit() else None
        return request.method == "POST" and request.path.endswith("/messages") and bool(channel and channel.is_dm)

    return which


class PostFaults:
    """Answer the bot's channel posts with a server error in chosen channels until healed."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.failing: dict[int, int] = {}  # channel id -> HTTP status
        self.refused = 0
        original = emu.rest.post_message

        async def post_message(request: web.Request) -> web.Response:
            status = self.failing.get(int(request.match_info["channel_id"]))
            if status is not None:
                self.refused += 1
                return web.json_response({"message": f"{status}: Server Error", "code": 0}, status=status)
            return await original(request)

        emu.rest.post_message = post_message  # type: ignore[method-assign]

    def fail(self, channel_id: int, status: int = 500) -> None:
        self.failing[channel_id] = status

    def heal(self, channel_id: int) -> None:
        self.failing.pop(channel_id, None)
