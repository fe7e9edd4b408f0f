"""Time limits: the Claim button of a time-out, /vacation, and the process's heartbeat (outages are measured
from it)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from ...domain.clock import BEAT_SECONDS
from ...domain.errors import Refusal, StalePosition
from ..context import Chat, chat_of
from ..door import handle_press
from ..words import timelimits as words


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:claim:(?P<match>\d+):(?P<ply>\d+)"):
    """Claim a time-out: the custom id names the turn (ply) that ran out, so a later turn's claim is refused."""

    def __init__(self, match_id: int, ply: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t("Claim win"), style=discord.ButtonStyle.danger, custom_id=f"hx:claim:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ClaimButton:
        return cls(int(match["match"]), int(match["ply"]), getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: claim_pressed(interaction, self.match_id, self.ply))


ITEMS = (ClaimButton,)

log = logging.getLogger(__name__)


class Heartbeat:
    """The process beats every ``BEAT_SECONDS`` from its start, whatever else it is doing (a long reminder pass,
    a look posting many boards): on PostgreSQL a process not seen for ``STALE_SECONDS`` is gone and its claims
    are taken over, so the beat must not wait behind the work it holds claims for."""

    def __init__(self, chat: Chat, every: float = BEAT_SECONDS) -> None:
        self.chat = chat
        self.every = every
        self._stopping = False

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self._stopping:
                return
            try:
                await self.chat.timelimits.heartbeat()
            except Exception as error:  # the database is away: every duty fails with it, and says so
                log.warning("could not record the heartbeat (%s)", error)

    async def stop(self, grace: float) -> None:
        self._stopping = True  # the clean stop records the last one


async def claim_pressed(interaction: discord.Interaction, match_id: int, ply: int) -> None:
    chat = chat_of(interaction)
    try:
        outcome = await chat.timelimits.claim(match_id, interaction.user.id, ply)
    except Refusal as error:
        if isinstance(error, StalePosition) or error.reason == "over":  # a dead claim loses its button
            await interaction.response.edit_message(view=None)
        raise

    async def show() -> None:
        await interaction.response.edit_message(view=None)
        await chat.announcer.announce_in_home(outcome)

    await chat.announcer.after_commit(interaction, outcome, show)


class TimeLimitsCog(commands.Cog, name="Time limits"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(name="vacation", description="Pause your clocks in every match for some days")
    @app_commands.describe(days="How many days (your yearly allowance is shown if it is not enough)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None:
        until, left, paused = await self.chat.timelimits.vacation(interaction.user.id, days)
        await interaction.response.send_message(words.vacation(until, days, left, paused), ephemeral=True)
