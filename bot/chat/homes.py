"""Where a match lives: its thread, or its channel when it has none or the thread cannot take posts.

A thread refuses posts once a moderator locks it (160005, or 50083 when it is also archived:
only a moderator can reopen it). discord.py's copy of the thread does not always say so (an
archived thread is not cached, and a missed THREAD_UPDATE leaves the copy stale), so a refusal
is remembered: the match's next posts go straight to the channel instead of meeting the same
refusal first each time. The thread is tried again once Discord reports it unlocked
(THREAD_UPDATE), or when the memory lapses, in case that report was missed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from ..domain.model import MatchRow
from .pacing import RequestBudget, Unpaced
from .words import posting

LOCKED_CODES = (160005, 50083)  # the thread is locked; the thread is archived (and, for the bot, locked)
# Failures that say nothing about the place: Discord or the network was down, the next try may land.
TRANSIENT = (discord.DiscordServerError, asyncio.TimeoutError, aiohttp.ClientError, OSError)
UNPACED = Unpaced()


class Refused(Exception):
    """Discord refused the post in every place it may go (gone, locked, forbidden); the message says why."""


class LockedThreads:
    """Threads known to refuse posts, each until Discord reports it unlocked or ``remember_for`` passes.

    Long enough to span several moves of a correspondence game; short enough that an unlock whose
    report was missed costs hours of boards in the channel (still delivered), not the match's life.
    """

    def __init__(self, remember_for: float = 6 * 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.remember_for = remember_for
        self._clock = clock
        self._until: dict[int, float] = {}

    def remember(self, thread_id: int) -> None:
        now = self._clock()
        self._until = {t: until for t, until in self._until.items() if until > now}  # stays as small as its use
        self._until[thread_id] = now + self.remember_for

    def known(self, thread_id: int) -> bool:
        return self._until.get(thread_id, 0.0) > self._clock()

    def forget(self, thread_id: int) -> None:
        self._until.pop(thread_id, None)


class MatchHomes:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.locked = LockedThreads()

    async def thread_updated(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord reports a thread changed: one unlocked takes posts again (the client's event)."""
        metadata = payload.data.get("thread_metadata") or {}
        if not metadata.get("locked", False):
            self.locked.forget(payload.thread_id)

    async def thread_deleted(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.locked.forget(payload.thread_id)

    async def first_place(self, match: MatchRow, pace: RequestBudget = UNPACED) -> tuple[Any | None, str]:
        """The match's home to post in, or None and why it cannot take a post."""
        in_thread = match.thread_id is not None
        if match.thread_id is not None and self.locked.known(match.thread_id):
            return None, posting.thread_locked()
        home = await self.channel(match.home_channel_id, pace)
        if home is None:
            return None, posting.thread_deleted() if in_thread else posting.channel_gone()
        if in_thread and getattr(home, "locked", False):
            self.locked.remember(home.id)
            return None, posting.thread_locked()
        return home, ""

    def thread_refused(self, match: MatchRow, error: discord.HTTPException) -> str:
        """Note a refusal of the match's thread; why it refused, for the players."""
        if match.thread_id is not None and error.code in LOCKED_CODES:
            self.locked.remember(match.thread_id)
        if isinstance(error, discord.NotFound):
            return posting.thread_deleted()
        return posting.thread_refuses(describe_failure(error))

    async def channel(self, channel_id: int, pace: RequestBudget = UNPACED) -> Any | None:
        if self.client.get_channel(channel_id) is None:
            await pace.spend()  # not cached: discord.py fetches it
        return await channel_by_id(self.client, channel_id)

    async def post(
        self, match: MatchRow, text: str, *, pace: RequestBudget = UNPACED, channel_fallback: bool = True, **send: Any
    ) -> discord.Message:
        """Post in the match's home, else (its thread gone or refusing) in its channel if ``channel_fallback``.

        Raises Refused when no place takes it; Discord's transient failures (TRANSIENT) as they come.
        """
        home, problem = await self.first_place(match, pace)
        if home is not None:
            try:
                await pace.spend()
                return await home.send(text, **send)
            except TRANSIENT:
                raise
            except discord.HTTPException as error:
                if match.thread_id is None:
                    raise Refused(posting.channel_refused(describe_failure(error))) from None
                problem = self.thread_refused(match, error)
        if match.thread_id is None or not channel_fallback:
            raise Refused(problem)
        parent = await self.channel(match.channel_id, pace)
        if parent is None:
            raise Refused(posting.and_channel_gone(problem))
        try:
            await pace.spend()
            return await parent.send(text, **send)
        except TRANSIENT:
            raise
        except discord.HTTPException as error:
            raise Refused(posting.and_channel_refused(problem, describe_failure(error))) from None


def describe_failure(error: BaseException) -> str:
    """Why Discord did not take a post, for players and the log."""
    if isinstance(error, asyncio.TimeoutError):
        return posting.discord_failure("timeout")
    if isinstance(error, discord.HTTPException):
        if error.code == 160005:
            return posting.discord_failure("locked")
        if error.code == 50083:
            return posting.discord_failure("archived")
        if isinstance(error, discord.DiscordServerError):
            return posting.discord_failure("server", error.status)
        return posting.discord_failure("other", error.status, error.text)
    return posting.discord_failure("unreachable")


async def channel_by_id(client: discord.Client, channel_id: int) -> Any | None:
    """A channel or thread from the cache, else fetched; None if Discord does not have it (or refuses)."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return channel


async def games_channel(client: discord.Client, channel_id: int) -> Any | None:
    """The channel a match's thread opens in: the channel itself, or a thread's parent.

    Discord refuses a thread inside a thread (400, code 50024), so a match begun from another
    match's thread opens beside it, in the channel that thread belongs to.
    """
    channel = await channel_by_id(client, channel_id)
    if isinstance(channel, discord.Thread):
        return await channel_by_id(client, channel.parent_id)
    return channel
