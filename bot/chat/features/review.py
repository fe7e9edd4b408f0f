"""Post-game reviews: /review, its progress, its summary and graph, and the buttons through its turning points."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...domain.errors import Refusal
from ...service.review import Review, ReviewProgress, ReviewTicket
from ..commands import guild_only
from ..context import Chat, chat_of
from ..door import handle_press
from ..outgoing import png_file
from ..speech import publicly
from ..timely import PUBLIC
from ..words import boards, refusal
from ..words import review as words


class TurningPointButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:rv:(?P<match>\d+):(?P<index>\d+):(?P<mode>[ne])",
):
    """Show turning point ``index`` of a match's stored review: privately as a new message (``n``, from the
    public review), or in place of the private one it is pressed in (``e``: Previous / Next)."""

    def __init__(self, match_id: int, index: int, mode: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=words.review_first_point() if label is None else label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"hx:rv:{match_id}:{index}:{mode}",
            )
        )
        self.match_id, self.index, self.mode = match_id, index, mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TurningPointButton:
        return cls(int(match["match"]), int(match["index"]), match["mode"], getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: show_turning_point(interaction, self.match_id, self.index, self.mode))


ITEMS = (TurningPointButton,)


def summary_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TurningPointButton(match_id, 0, "n"))
    return view


def stepping_view(match_id: int, index: int, count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TurningPointButton(match_id, (index - 1) % count, "e", words.review_previous()))
    view.add_item(TurningPointButton(match_id, (index + 1) % count, "e", words.review_next()))
    return view


async def show_turning_point(interaction: discord.Interaction, match_id: int, index: int, mode: str) -> None:
    reviews = chat_of(interaction).reviews
    review = await reviews.stored(match_id, interaction.guild_id)  # refused before any work
    if not review.result.turning_points:
        raise Refusal("review_no_turning_points", match=review.match)
    count = len(review.result.turning_points)
    index %= count
    if mode == "n":
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    point = await reviews.turning_point(review, index, words.review_legend(review, review.turning_point(index)))
    content = words.review_point(point)
    described = boards.described(words.review_point_picture(), content, review.match)
    file = png_file(point.png, "turning-point.png", description=described)
    view = stepping_view(match_id, index, count)
    if mode == "n":
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)
    else:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)


async def post_summary(interaction: discord.Interaction, chat: Chat, review: Review) -> None:
    graph = await chat.reviews.graph(review, interaction.user.id)  # from the asker's side, if they played
    view = summary_view(review.match.id) if review.result.turning_points else None
    content = words.review_summary(review)
    described = boards.described(words.review_graph_picture(), content, review.match)
    await interaction.edit_original_response(
        content=content, attachments=[png_file(graph, "review.png", description=described)], view=view
    )


class ReviewCog(commands.Cog, name="Review"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="review",
        description="The computer's review of a finished match: winning chances, mistakes, accuracy",
        extras=PUBLIC,
    )
    @app_commands.describe(match="Which finished match (only needed outside its thread)")
    async def review(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild_id = guild_only(interaction)
        reviews = self.chat.reviews
        ticket = await reviews.request(interaction.user.id, guild_id, interaction.channel_id or 0, match)
        await publicly(interaction, self._show(interaction, ticket))  # the review is posted for everyone

    async def _show(self, interaction: discord.Interaction, ticket: ReviewTicket) -> None:
        reviews, guild_id = self.chat.reviews, ticket.match.guild_id
        if ticket.ready:  # stored: answered at once
            await interaction.response.defer(thinking=True)
            await post_summary(interaction, self.chat, await reviews.stored(ticket.match.id, guild_id))
            return
        await interaction.response.send_message(words.review_progress(ticket.match, 0, ticket.total, ticket.ahead))

        async def progress(now: ReviewProgress) -> None:
            await interaction.edit_original_response(
                content=words.review_progress(ticket.match, now.done, now.total, now.ahead)
            )

        try:
            done = await reviews.wait(ticket, interaction.user.id, progress)
        except Refusal as error:  # the message is out already: it says what became of the review
            await interaction.edit_original_response(content=refusal(error))
            return
        await post_summary(interaction, self.chat, done)
