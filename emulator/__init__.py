"""A loopback Discord for testing a real, unmodified discord.py bot.

:class:`DiscordEmulator` is an aiohttp server on 127.0.0.1 that speaks the slice of
Discord's REST API and gateway a bot uses (login, command sync, interactions and their
webhooks, messages with files, threads, DMs, sharded sessions). It enforces Discord's limits
and deadlines, rate limits included (429s, ``emu.rate_limits``) and the gateway's session rules
(shards, session starts, identify pacing: ``emu.sharding``), and lists every broken rule in
``emu.violations``; docs/emulator.md says what it enforces. Point discord.py at it with two class
attributes (:func:`patch_discord`), then act as users::

    async with DiscordEmulator(bot_token="test-token") as emu:
        patch_discord(emu.api_base_url, emu.gateway_url)
        guild = emu.create_guild("Test Server")
        games = emu.create_text_channel(guild, "games")
        alice = emu.create_user("alice")

        task = asyncio.create_task(bot.start("test-token"))   # the bot under test
        await emu.wait_until_ready()
        result = await emu.invoke(alice, games, "move", {"move": "e5"})
        assert "e5" in result.text and not emu.violations
        await bot.close(); await task

A bot process finds the emulator through ``DISCORD_API_BASE_URL`` / ``DISCORD_GATEWAY_URL``
(passed to :func:`patch_discord`). ``python -m emulator`` runs a standalone sandbox.
"""

from .errors import ApiError, EmulatorError
from .gateway import SessionInfo
from .interactions import InteractionResult
from .models import Attachment, Channel, Guild, Message, User
from .ratelimits import RateLimitHit, RateLimits, RouteLimit
from .server import DiscordEmulator, Rejection, patch_discord
from .sharding import ShardingRules

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "DiscordEmulator",
    "EmulatorError",
    "Guild",
    "InteractionResult",
    "Message",
    "RateLimitHit",
    "RateLimits",
    "Rejection",
    "RouteLimit",
    "SessionInfo",
    "ShardingRules",
    "User",
    "patch_discord",
]
