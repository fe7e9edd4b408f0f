"""The Activity from Discord's side (issue 35): the **Open board** button on every board, the Entry Point command
of the App Launcher, and what a change made in the Activity shows in the match's thread (docs/activity.md).

Both open the Activity by answering the interaction with LAUNCH_ACTIVITY (callback type 12): Discord opens the
page in the channel or thread where it was pressed. The button's instance is noted with its match, so the page
opens that match first; the Entry Point opens the player's list.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from i18n import t

from ...domain.errors import Refusal
from ...domain.outcome import OfferAnswer, OfferNotice, Outcome
from ...service.launches import Launches
from ..context import Chat, chat_of
from ..door import handle_press
from ..homes import channel_by_id
from ..launcher import serves_activity
from ..outgoing import mention_only
from ..speech import in_public
from ..words import offers as offer_words
from .offers import computer_answers, offer_view

log = logging.getLogger(__name__)


class OpenBoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:ob:(?P<match>\d+)"):
    """Opens the Activity on this match, in the channel or thread where it is pressed (anyone may watch)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=t("Open board"), style=discord.ButtonStyle.secondary, custom_id=f"hx:ob:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> OpenBoardButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: launch(interaction, self.match_id))


ITEMS = (OpenBoardButton,)


def open_board(client: discord.Client, chat: Chat, match_id: int) -> OpenBoardButton | None:
    """The button, when this bot serves an Activity (else None: no dead button)."""
    return OpenBoardButton(match_id) if serves_activity(client, chat.settings) else None


def open_board_view(client: discord.Client, chat: Chat, match_id: int) -> discord.ui.View | None:
    button = open_board(client, chat, match_id)
    if button is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    return view


async def launch(interaction: discord.Interaction, match_id: int | None) -> None:
    """Answer with LAUNCH_ACTIVITY, and note which match the instance was opened for."""
    chat = chat_of(interaction)
    if not serves_activity(interaction.client, chat.settings):
        raise Refusal("no_activity")
    if match_id is not None:
        match = await chat.service.get(match_id)
        if match.guild_id != interaction.guild_id:
            raise Refusal("no_match_here", match_id=match_id)
    response = await interaction.response.launch_activity()
    client = interaction.client
    cog = client.get_cog(ActivityCog.__cog_name__) if isinstance(client, commands.bot.BotBase) else None
    if isinstance(cog, ActivityCog):
        cog.launches.note(response.activity_id, match_id, interaction.channel_id or 0)


class ActivityCog(commands.Cog, name="Activity"):
    def __init__(self, chat: Chat, launches: Launches) -> None:
        self.chat = chat
        self.launches = launches

    @commands.Cog.listener()
    async def on_entry_point(self, interaction: discord.Interaction) -> None:
        """The App Launcher's Entry Point command (dispatched by the command tree): the player's list."""
        await handle_press(interaction, lambda: launch(interaction, None))


class ActivityEffects:
    """What a change made in the Activity shows on Discord: the same posts as the commands' (the Activity's
    server calls these after the change is stored; bot/web/access.py)."""

    def __init__(self, client: discord.Client, chat: Chat) -> None:
        self.client, self.chat = client, chat

    async def announce(self, outcome: Outcome) -> None:
        """The board in the match's home, as after /move (and a conditional move's answer after it)."""
        await self.chat.announcer.announce_in_home(outcome)

    async def post_offer(self, notice: OfferNotice) -> None:
        """The offer in the match's home with Accept / Decline, as /draw and /undo post it."""
        chat, match = self.chat, notice.match
        async with in_public(chat.service.languages, match.guild_id):
            home = await channel_by_id(self.client, match.home_channel_id)
            if home is None:
                log.info("match %s: its home is gone; the offer stays open without a message", match.id)
                return
            message = await home.send(
                offer_words.offer(notice),
                view=offer_view(match.id, notice.kind, notice.at_seq),
                allowed_mentions=mention_only(notice.answerer_ids),
            )
        await chat.offers.posted(notice, message.channel.id, message.id)
        if notice.computer_ids:
            chat.computer.run_soon(
                computer_answers(chat, self.client, notice, message.channel.id, message.id), f"offer-{match.id}"
            )

    async def offer_answered(self, answer: OfferAnswer) -> None:
        """An answer given in the Activity, said in the match's home; the draw or takeback's board if it agreed."""
        chat, match = self.chat, answer.match
        async with in_public(chat.service.languages, match.guild_id):
            home = await channel_by_id(self.client, match.home_channel_id)
            if home is not None:
                await home.send(
                    offer_words.offer_answer(answer, chat.now())[:2000], allowed_mentions=mention_only(None)
                )
        if answer.outcome is not None:
            await chat.announcer.announce_in_home(answer.outcome)
