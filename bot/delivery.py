"""Getting a stored turn's board to the players, whatever Discord does meanwhile.

Once a turn is committed it is announced in the match's thread. When the thread is
gone, the board goes to the match's channel and a new thread is opened on it; when
the thread refuses posts (locked), the board goes to the channel, and so do the next
ones until the thread is usable again (bot/homes.py). When Discord fails
(5xx, timeouts), the announcement is retried in the background with backoff until
it lands, and a board is recorded as delivered only after Discord accepted it, so a
restart neither loses one nor posts one twice (before re-posting, the channel's
latest board is checked: a stop between a post and its record must not duplicate it).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiohttp
import discord

from .homes import MatchHomes, describe_failure
from .service import Outcome
from .domain.model import MatchRow
from .ui import board_view, mention_only, png_file

if TYPE_CHECKING:
    from .app import HexplayBot

log = logging.getLogger(__name__)

TASK_PREFIX = "hexplay-announce"


class Undelivered(Exception):
    """The board could not be posted anywhere right now; the message says why, for the player."""


@dataclass
class Delivered:
    message: discord.Message
    note: str = ""  # for the mover when the board is not where they would look first


class Announcer:
    attempt_timeout = 8.0  # seconds one post may take before it counts as failed (and is retried)
    answer_within = 2.0  # seconds the mover waits for the post before being told the truth anyway
    retry_delays: tuple[float, ...] = (2, 5, 15, 30, 60, 120, 300, 600, 600, 600, 600, 600)  # about an hour

    def __init__(self, bot: "HexplayBot") -> None:
        self.bot = bot
        self.homes = MatchHomes(bot)
        self._retrying: dict[int, asyncio.Task] = {}

    # -- one attempt ----------------------------------------------------------------

    async def announce(self, outcome: Outcome, prefix: str = "", unless_superseded: bool = False) -> Delivered | None:
        """Post the outcome's board (thread, else channel) and record it; on failure retry in the background.

        With ``unless_superseded`` (catch-up boards), nothing is posted once a later turn was stored:
        that turn's own board shows the position, and an older board after it would mislead.
        """
        match = outcome.match
        if unless_superseded and await self._superseded(match):
            return None
        try:
            delivered = await self._post(match, prefix + outcome.line, outcome)
        except Undelivered as error:
            log.warning("match %s: board of version %s not delivered (%s); retrying in the background",
                        match.id, match.version, error)
            self.retry_later(match.id)
            raise
        await self.bot.store.mark_announced(match.id, match.version, delivered.message.channel.id,
                                            delivered.message.id)
        return delivered

    async def _superseded(self, match: MatchRow) -> bool:
        current = await self.bot.store.get_match(match.id)
        return current is None or current.version > match.version

    async def _post(self, match: MatchRow, content: str, outcome: Outcome) -> Delivered:
        assert outcome.game is not None
        png = await self.bot.service.render(match, outcome.game, outcome.events)

        async def send(channel: discord.abc.Messageable, text: str) -> discord.Message:
            kwargs: dict = dict(file=png_file(png), allowed_mentions=mention_only(outcome.mention_user_ids))
            view = board_view(outcome)
            if view is not None:
                kwargs["view"] = view
            return await asyncio.wait_for(channel.send(text[:2000], **kwargs), self.attempt_timeout)

        in_thread = match.thread_id is not None
        home, problem = await self.homes.first_place(match)
        if home is not None:
            try:
                return Delivered(await send(home, content))
            except discord.HTTPException as error:
                if not in_thread and isinstance(error, discord.NotFound):
                    raise Undelivered("the match's channel is gone") from None
                if isinstance(error, discord.DiscordServerError) or not in_thread:
                    raise Undelivered(describe_failure(error)) from None
                problem = self.homes.thread_refused(match, error)
            except (asyncio.TimeoutError, aiohttp.ClientError, OSError) as error:
                raise Undelivered(describe_failure(error)) from None
        if not in_thread:
            raise Undelivered(problem)
        parent = await self.homes.channel(match.channel_id)
        if parent is None:
            raise Undelivered(f"{problem} and its channel is gone too")
        try:
            message = await send(parent, content)
        except (discord.HTTPException, asyncio.TimeoutError, aiohttp.ClientError, OSError) as error:
            raise Undelivered(f"{problem}, and the channel refused it too ({describe_failure(error)})") from None
        note = f"({problem[0].upper()}{problem[1:]}, so the board was posted in <#{match.channel_id}>"
        if "deleted" in problem:
            note += await self._new_thread(match, message)
        return Delivered(message, note + ".)")

    async def _new_thread(self, match: MatchRow, message: discord.Message) -> str:
        """Open a new thread for a match whose thread was deleted; the match plays on there."""
        names = " vs ".join(s.name for s in match.seats)
        try:
            thread = await message.create_thread(name=f"{self.bot.service.title(match)}: {names}"[:100],
                                                 auto_archive_duration=10080)
        except discord.HTTPException as error:
            log.info("match %s: no new thread (%s); playing in the channel", match.id, error)
            await self.bot.store.update_match_fields(match.id, thread_id=None)
            return "; play on there"
        await self.bot.store.update_match_fields(match.id, thread_id=thread.id)
        return f" with a new thread for the match: <#{thread.id}>"

    # -- in the background ---------------------------------------------------------------

    def retry_later(self, match_id: int) -> None:
        """Keep trying to post the match's latest board until it lands (one task per match)."""
        running = self._retrying.get(match_id)
        if running is not None and not running.done():
            return
        self._retrying[match_id] = asyncio.create_task(self._retry(match_id), name=f"{TASK_PREFIX}-{match_id}")

    async def _retry(self, match_id: int) -> None:
        for attempt, delay in enumerate(self.retry_delays, start=1):
            await asyncio.sleep(delay)
            match = await self.bot.store.get_match(match_id)
            if match is None or match.quarantine is not None or match.announced_version >= match.version:
                return  # delivered meanwhile (a later turn's board, or a restart's catch-up)
            try:
                outcome = await self.bot.service.missed(match_id)
                if await self.already_shown(outcome) or await self._superseded(outcome.match):
                    return
                delivered = await self._post(outcome.match, "(Delayed by a Discord problem.) " + outcome.line,
                                             outcome)
            except Undelivered as error:
                log.warning("match %s: board still not delivered after %d tries (%s)", match_id, attempt, error)
                continue
            except Exception:
                log.exception("match %s: retrying its board failed", match_id)
                continue
            await self.bot.store.mark_announced(match_id, outcome.match.version, delivered.message.channel.id,
                                                delivered.message.id)
            log.info("match %s: board delivered on try %d", match_id, attempt)
            return
        log.error("match %s: board still not delivered after %d tries; the next start-up will post it",
                  match_id, len(self.retry_delays))

    async def already_shown(self, outcome: Outcome) -> bool:
        """Whether the home channel's latest board already shows this outcome (a stop came between post and
        record); if so it is recorded as delivered."""
        match = outcome.match
        home = await self.bot.channel_by_id(match.home_channel_id)
        if home is None or self.bot.user is None or not hasattr(home, "history"):
            return False
        try:
            async for message in home.history(limit=20):
                if message.author.id != self.bot.user.id or not message.attachments:
                    continue
                if outcome.line in message.content:  # the latest board is this one
                    await self.bot.store.mark_announced(match.id, match.version, message.channel.id, message.id)
                    return True
                return False
        except discord.HTTPException:
            return False
        return False

    async def close(self) -> None:
        for task in self._retrying.values():
            task.cancel()
        self._retrying.clear()

