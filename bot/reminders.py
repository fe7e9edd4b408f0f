"""The reminder loop: asks the service what is due and delivers it."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from .service import ReminderJob
from .timelimits import TIMED_OUT, DeadlineJob
from .ui import ClaimButton, SnoozeButton, mention_only

if TYPE_CHECKING:
    from .app import HexplayBot

log = logging.getLogger(__name__)


class ReminderLoop:
    give_up_after = 3  # failed tries (DMs closed and the match's thread gone) before a turn's reminder stops

    def __init__(self, bot: "HexplayBot") -> None:
        self.bot = bot
        self._pass = asyncio.Lock()  # one pass at a time, so a reminder is never sent twice
        self._failures: dict[tuple[int, int], int] = {}  # (match, ply) -> failed tries

    async def stop(self, grace: float) -> None:
        """Let a pass under way finish (bounded): cut half-way, a reminder sent but not yet marked sent
        would be sent again after the restart."""
        try:
            await asyncio.wait_for(self._pass.acquire(), grace)
        except asyncio.TimeoutError:
            log.warning("a reminder pass was still running after %.0f s at shutdown", grace)
            return
        # holding the pass lock for good: no new pass starts before the loop is cancelled

    async def run_forever(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            await asyncio.sleep(self.bot.settings.reminder_check_seconds)
            try:
                await self.run_once()
            except Exception:
                log.exception("reminder pass failed")

    async def run_once(self) -> int:
        """Deliver every due reminder, time-limit warning and time-out; returns how many were sent."""
        sent = 0
        async with self._pass:
            await self.bot.timelimits.heartbeat()
            for job in await self.bot.service.due_reminders():
                if await self.deliver(job):
                    self._failures.pop((job.match.id, job.ply), None)
                    await self.bot.service.reminder_done(job)
                    sent += 1
                else:
                    await self._failed(job)
            for deadline in await self.bot.timelimits.due():
                if await self.deliver_deadline(deadline):
                    await self.bot.timelimits.done(deadline)
                    sent += 1
            await self.bot.tell_paused()  # matches set aside since the last pass (damage found while serving)
        return sent

    async def _failed(self, job: ReminderJob) -> None:
        key = (job.match.id, job.ply)
        tries = self._failures[key] = self._failures.get(key, 0) + 1
        if tries < self.give_up_after:
            log.info("match %s: reminder for %s not delivered (try %d)", job.match.id, job.user_id, tries)
            return
        del self._failures[key]
        log.warning("match %s: giving up the reminder for %s on this turn after %d failed tries "
                    "(no DM, no way to post in the match)", job.match.id, job.user_id, tries)
        await self.bot.store.snooze(job.match.id, job.user_id, job.ply)  # the next turn gets a new one

    async def deliver_deadline(self, job: DeadlineJob) -> bool:
        """A warning goes to the player to move (as their reminders do); a time-out to the match, with Claim."""
        view = discord.ui.View(timeout=None)
        if job.level == TIMED_OUT:
            label = "Claim win" if len(job.claimant_ids) == 1 else "Claim: drop the seat"
            view.add_item(ClaimButton(job.match.id, job.ply, label))
            channel = await self.bot.channel_by_id(job.match.home_channel_id)
            if channel is None:
                return False
            try:
                await channel.send(job.text, view=view, allowed_mentions=mention_only(job.claimant_ids + [job.user_id]))
            except discord.HTTPException:
                log.exception("could not announce the time-out in match %s", job.match.id)
                return False
            return True
        view.add_item(discord.ui.Button(label="Open the board", url=self._link(job)))
        if job.via == "dm":
            try:
                user = self.bot.get_user(job.user_id) or await self.bot.fetch_user(job.user_id)
                await user.send(job.text, view=view)
                return True
            except discord.HTTPException:
                log.info("no DM for %s; warning in the match instead", job.user_id)
        channel = await self.bot.channel_by_id(job.match.home_channel_id)
        if channel is None:
            return False
        try:
            await channel.send(f"<@{job.user_id}> {job.text}", view=view, allowed_mentions=mention_only(job.user_id))
        except discord.HTTPException:
            return False
        return True

    def _link(self, job: ReminderJob | DeadlineJob) -> str:
        match = job.match
        if match.board_message_id and match.board_channel_id:
            return f"https://discord.com/channels/{match.guild_id}/{match.board_channel_id}/{match.board_message_id}"
        return f"https://discord.com/channels/{match.guild_id}/{match.home_channel_id}"

    async def deliver(self, job: ReminderJob) -> bool:
        view = discord.ui.View(timeout=None)
        view.add_item(SnoozeButton(job.match.id, job.ply))
        view.add_item(discord.ui.Button(label="Open the board", url=self._link(job)))
        text = f"{job.text}\nBoard: {self._link(job)}"
        if job.via == "dm":
            try:
                user = self.bot.get_user(job.user_id) or await self.bot.fetch_user(job.user_id)
                await user.send(text, view=view)
                return True
            except discord.Forbidden:
                log.info("DMs closed for %s; pinging in the match instead", job.user_id)
            except discord.HTTPException:
                log.exception("could not DM %s", job.user_id)
        channel = await self.bot.channel_by_id(job.match.home_channel_id)
        if channel is None:
            return False
        try:
            await channel.send(f"<@{job.user_id}> {text}", view=view, allowed_mentions=mention_only(job.user_id))
        except discord.HTTPException:
            log.exception("could not ping %s in match %s", job.user_id, job.match.id)
            return False
        return True
