"""The daily puzzle (issue 36, docs/puzzles.md): one of a server's puzzles posted once a day in the channel it
chose, at the hour it chose (UTC) (``/config puzzle_channel: puzzle_hour:``, or its shortcut ``/puzzle daily``:
one rule, :meth:`DailyPuzzles.planned`), with a Solve button; each player solves it privately and the post keeps
the count of solvers and the fastest.

Once a day across every process: the day's post is claimed in the store (its puzzle chosen at the first claim
and kept), the claim naming the process start that holds it as every claim does (``free_claim``), posted with
the day as its Discord nonce (``enforce_nonce``: a repost of the same nonce within Discord's window returns the
first message), then marked posted. A process killed between the post and the mark leaves the claim to the
next look once it is known gone (at once on SQLite, once its heartbeat is stale on PostgreSQL); the next
claimer posts with the same nonce and Discord hands back the message already there, so the channel sees one
post. The lease, which only bounds a live holder, is shorter than the nonce's window.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from ai.puzzles import Puzzle
from games import AnyGame

from ..domain.errors import Refusal
from ..domain.puzzles import DailyPuzzleRow
from .puzzles import Puzzles, PuzzleView

log = logging.getLogger(__name__)

DAILY_LEASE = 60.0  # seconds: well inside Discord's nonce window of a few minutes
DEFAULT_HOUR = 12  # UTC: the hour of a daily puzzle whose channel is set without one
KEEP: Any = object()  # a part of the setting left out: it stays as it is
SKIPPED = 0  # the message id recorded for a day whose puzzle could not be read: nothing posted, never retried


def day_and_hour(now: float) -> tuple[str, int]:
    moment = dt.datetime.fromtimestamp(now, dt.UTC)
    return moment.date().isoformat(), moment.hour


def nonce_of(day: str) -> str:
    """The post's nonce: the day (Discord checks nonces per channel and author)."""
    return "pz" + day.replace("-", "")


@dataclass(frozen=True)
class DailyPost:
    """A claimed daily post, to be made."""

    row: DailyPuzzleRow
    puzzle: Puzzle
    game: AnyGame
    nonce: str


class DailyPuzzles:
    def __init__(self, puzzles: Puzzles) -> None:
        self.puzzles = puzzles
        self.store = puzzles.store
        self.clock = puzzles.service.clock

    async def setting(self, guild_id: int) -> tuple[int, int] | None:
        """Where and at which hour (UTC) the server's daily puzzle is posted; None when it is not."""
        stored = await self.store.daily_puzzle_settings(guild_id)
        if stored is None or stored[0] is None:
            return None
        return stored[0], stored[1]

    async def planned(
        self,
        guild_id: int,
        *,
        is_manager: bool,
        channel_id: Any = KEEP,
        hour: Any = KEEP,
        bot_can_post: bool = True,
    ) -> tuple[int | None, int]:
        """The server's daily puzzle setting after this change (``channel_id`` None: no daily post), checked,
        not stored: ``/config`` checks all its changes before storing any. The one rule of both commands:
        Manage Server only (Discord does not enforce a subcommand's default permissions, so the service
        does), an hour from 0 to 23, a channel the bot can post in, and an hour alone only for a server that
        has a channel."""
        if not is_manager:
            raise Refusal("puzzle_daily_needs_manage_server")
        if hour is not KEEP and not (isinstance(hour, int) and 0 <= hour <= 23):
            raise Refusal("puzzle_daily_hour", hour=hour)
        stored = await self.store.daily_puzzle_settings(guild_id)
        old_channel, old_hour = stored if stored is not None else (None, DEFAULT_HOUR)
        channel = old_channel if channel_id is KEEP else channel_id
        if channel is None:
            if channel_id is KEEP and hour is not KEEP:  # an hour for a daily puzzle that has no channel
                raise Refusal("puzzle_daily_needs_channel")
            return None, old_hour if hour is KEEP else hour
        if channel_id is not KEEP and not bot_can_post:
            raise Refusal("puzzle_daily_cannot_post", channel=channel)
        return channel, old_hour if hour is KEEP else hour

    async def change(
        self,
        guild_id: int,
        *,
        is_manager: bool,
        channel_id: Any = KEEP,
        hour: Any = KEEP,
        bot_can_post: bool = True,
    ) -> tuple[int | None, int]:
        """Check (:meth:`planned`) and store the server's daily puzzle setting; the setting stored (``/config``'s
        puzzle options, and ``/puzzle daily``'s channel and hour at once)."""
        channel, hour = await self.planned(
            guild_id, is_manager=is_manager, channel_id=channel_id, hour=hour, bot_can_post=bot_can_post
        )
        await self.store.set_daily_puzzle(guild_id, channel, hour)
        return channel, hour

    async def due(self) -> list[tuple[int, int]]:
        day, hour = day_and_hour(self.clock.now())
        return await self.store.daily_puzzles_due(day, hour, self.clock.lease_now())

    async def claim(self, guild_id: int, channel_id: int) -> DailyPost | None:
        """Claim today's post of the server; None when another process has it, it is done, or no puzzle is
        left."""
        day, _ = day_and_hour(self.clock.now())
        row = await self.store.claim_daily_puzzle(guild_id, day, channel_id, self.clock.lease_now(), DAILY_LEASE)
        if row is None:
            return None
        stored = await self.store.get_puzzle(row.puzzle_id)
        try:
            if stored is None:
                raise ValueError("the puzzle is gone")
            puzzle = Puzzle.from_json(stored.document)
        except ValueError as error:
            log.warning(
                "server %s: the daily puzzle %s cannot be read (%s): none today", guild_id, row.puzzle_id, error
            )
            await self.store.daily_puzzle_posted(guild_id, day, SKIPPED)
            return None
        return DailyPost(row, puzzle, puzzle.start(), nonce_of(day))

    async def posted(self, post: DailyPost, message_id: int) -> None:
        await self.store.daily_puzzle_posted(post.row.guild_id, post.row.day, message_id)

    async def skip(self, post: DailyPost) -> None:
        """No post today (its channel cannot take it): the day is done, its puzzle stays the day's."""
        await self.store.daily_puzzle_posted(post.row.guild_id, post.row.day, SKIPPED)

    async def release(self, post: DailyPost) -> None:
        await self.store.release_daily_puzzle(post.row.guild_id, post.row.day)

    async def solve(self, user_id: int, guild_id: int, puzzle_id: int) -> PuzzleView:
        """The Solve button: the player's own attempt at a daily puzzle of this server."""
        daily = await self.store.daily_of_puzzle(puzzle_id)
        if daily is None or daily.guild_id != guild_id:
            raise Refusal("puzzle_not_daily")
        return await self.puzzles.start_puzzle(user_id, puzzle_id, guild_id)

    async def post_of(self, puzzle_id: int) -> DailyPuzzleRow | None:
        """The daily post a puzzle was given in (to show its new count after a solve)."""
        daily = await self.store.daily_of_puzzle(puzzle_id)
        return None if daily is None or daily.message_id in (None, SKIPPED) else daily
