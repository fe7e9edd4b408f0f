"""Discord misbehaving, for tests: threads deleted or locked by moderators, 5xx answers on posts.

Test-side helpers over the emulator's public objects; PostFaults must be installed before
the emulator starts (its routes bind the handlers then).
"""

from __future__ import annotations

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


class PostFaults:
    """Answer the bot's channel posts with a server error in chosen channels until healed."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.failing: dict[int, int] = {}  # channel id -> HTTP status
        self.refused = 0
        original = emu.rest.post_message

        async def post_message(request: web.Request) -> web.StreamResponse:
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
