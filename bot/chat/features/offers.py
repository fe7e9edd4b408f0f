"""Draw offers and takeback requests: /draw, /undo, and their Accept / Decline buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from ...domain.errors import Refusal, StalePosition
from ...domain.outcome import OfferNotice
from ..commands import match_autocomplete, resolve_match_id
from ..context import Chat, chat_of
from ..door import handle_press
from ..homes import channel_by_id
from ..outgoing import mention_only
from ..speech import in_public, privately, publicly
from ..timely import PUBLIC
from ..words import offers as words

log = logging.getLogger(__name__)


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:offer:(?P<kind>draw|undo):(?P<answer>yes|no):(?P<match>\d+):(?P<seq>\d+)",
):
    """Accept or Decline a draw offer or takeback request; the custom id names the log length it was made at."""

    def __init__(self, kind: str, accept: bool, match_id: int, at_seq: int) -> None:
        label, style = (
            (t("Accept"), discord.ButtonStyle.success) if accept else (t("Decline"), discord.ButtonStyle.danger)
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"hx:offer:{kind}:{'yes' if accept else 'no'}:{match_id}:{at_seq}"
            )
        )
        self.kind, self.accept, self.match_id, self.at_seq = kind, accept, match_id, at_seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> OfferButton:
        return cls(match["kind"], match["answer"] == "yes", int(match["match"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        pressed = (interaction, self.kind, self.match_id, self.at_seq, self.accept)
        await handle_press(interaction, lambda: publicly(interaction, offer_pressed(*pressed)))


ITEMS = (OfferButton,)


def offer_view(match_id: int, kind: str, at_seq: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OfferButton(kind, True, match_id, at_seq))
    view.add_item(OfferButton(kind, False, match_id, at_seq))
    return view


async def offer_and_announce(interaction: discord.Interaction, match_id: int, kind: str) -> None:
    """/draw and /undo: post the offer in the match's home with Accept / Decline (in the server's language)."""
    chat = chat_of(interaction)
    notice = await chat.offers.offer(match_id, interaction.user.id, kind)
    await publicly(interaction, _post_offer(interaction, chat, notice, match_id, kind))


async def _post_offer(
    interaction: discord.Interaction, chat: Chat, notice: OfferNotice, match_id: int, kind: str
) -> None:
    view = offer_view(match_id, kind, notice.at_seq)
    mentions = mention_only(notice.answerer_ids)
    text = words.offer(notice)
    if interaction.channel_id == notice.match.home_channel_id:
        response = await interaction.response.send_message(text, view=view, allowed_mentions=mentions)
        channel_id, message_id = notice.match.home_channel_id, response.message_id
    else:
        home = await channel_by_id(interaction.client, notice.match.home_channel_id)
        if home is None:
            raise Refusal("offer_thread_gone")
        message = await home.send(text, view=view, allowed_mentions=mentions)
        with privately():
            sent_in = words.sent_in(notice.match.home_channel_id)
        await interaction.response.send_message(sent_in, ephemeral=True)
        channel_id, message_id = message.channel.id, message.id
    if message_id is not None:
        await chat.offers.posted(notice, channel_id, message_id)
    if notice.computer_ids and message_id is not None:  # the computer answers for its seats, in the background
        chat.computer.run_soon(
            computer_answers(chat, interaction.client, notice, channel_id, message_id), f"offer-{notice.match.id}"
        )


async def computer_answers(
    chat: Chat, client: discord.Client, notice: OfferNotice, channel_id: int, message_id: int
) -> None:
    """The computer's seats answer an offer (thought off the event loop); the offer message shows it."""
    async with in_public(chat.service.languages, notice.match.guild_id):
        await _computer_answers(chat, client, notice, channel_id, message_id)


async def _computer_answers(
    chat: Chat, client: discord.Client, notice: OfferNotice, channel_id: int, message_id: int
) -> None:
    for user_id in notice.computer_ids:
        answer = await chat.computer.answer_offer(notice.match.id, notice.kind, notice.at_seq, user_id)
        if answer is None:
            return
        if answer.outcome is not None:  # this message says what happened: no "lapsed" note on it
            answer.outcome.lapsed_offers = tuple(o for o in answer.outcome.lapsed_offers if o[1] != message_id)
        try:
            channel = await channel_by_id(client, channel_id)
            if channel is not None:
                message = await channel.fetch_message(message_id)
                view = None if answer.closed else offer_view(notice.match.id, notice.kind, notice.at_seq)
                said = words.offer_answer(answer, chat.now())
                await message.edit(
                    content=f"{message.content}\n{said}"[:2000], view=view, allowed_mentions=mention_only(None)
                )
        except discord.HTTPException as error:  # the answer is stored; the board below still says it
            log.info("match %s: could not show the computer's answer on the offer (%s)", notice.match.id, error)
        if answer.outcome is not None:
            await chat.announcer.announce_in_home(answer.outcome)
        if answer.closed:
            return


async def offer_pressed(interaction: discord.Interaction, kind: str, match_id: int, at_seq: int, accept: bool) -> None:
    chat = chat_of(interaction)
    try:
        answer = await chat.offers.answer(match_id, interaction.user.id, kind, at_seq, accept)
    except Refusal as error:
        if isinstance(error, StalePosition) or error.reason == "over":  # a dead offer loses its buttons
            await interaction.response.edit_message(view=None)
        raise
    original = interaction.message.content if interaction.message else ""
    view = None if answer.closed else offer_view(match_id, kind, at_seq)
    if answer.outcome is not None and interaction.message is not None:  # this message says what happened
        answer.outcome.lapsed_offers = tuple(o for o in answer.outcome.lapsed_offers if o[1] != interaction.message.id)

    async def show() -> None:
        said = words.offer_answer(answer, chat.now())
        await interaction.response.edit_message(
            content=f"{original}\n{said}"[:2000], view=view, allowed_mentions=mention_only(None)
        )
        if answer.outcome is not None:
            await chat.announcer.announce_in_home(answer.outcome)

    if answer.outcome is None:
        await show()
    else:  # the draw or takeback is stored: whatever Discord does now, the presser learns the truth
        await chat.announcer.after_commit(interaction, answer.outcome, show)


class OffersCog(commands.Cog, name="Offers"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="draw", description="Offer a draw (games that can be drawn); the others accept or decline", extras=PUBLIC
    )
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def draw(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await offer_and_announce(interaction, match_id, "draw")

    @app_commands.command(name="undo", description="Ask the other players to take back your last turn", extras=PUBLIC)
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def undo(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await offer_and_announce(interaction, match_id, "undo")
