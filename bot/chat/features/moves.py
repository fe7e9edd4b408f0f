"""Playing: /move, /preview, /hint, /turn and /resign; the board's quick buttons and the turn builder."""

from __future__ import annotations

import contextlib
import time
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from i18n import N_, t

from ...domain.errors import BuilderExpired, Refusal
from ...domain.model import MatchRow
from ...domain.seats import game_of
from ...service.describe import last_turn
from ...service.turn_builder import BuilderState, Choice, decode, encode
from ..announce import Undelivered
from ..commands import match_autocomplete, resolve_match, resolve_match_id
from ..context import Chat, chat_of
from ..door import handle_press
from ..outgoing import png_file
from ..timely import PUBLIC
from ..words import boards, refusal, shared
from ..words import moves as words


class QuickActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:q:(?P<match>\d+):(?P<version>\d+):(?P<notation>[a-z0-9]+)",
):
    """A whole turn in one tap (Bide's "Bide", Begird's "Swap")."""

    def __init__(self, match_id: int, version: int, notation: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or notation.capitalize(),
                style=discord.ButtonStyle.primary,
                custom_id=f"hx:q:{match_id}:{version}:{notation}",
            )
        )
        self.match_id, self.version, self.notation = match_id, version, notation

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> QuickActionButton:
        return cls(int(match["match"]), int(match["version"]), match["notation"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(
            interaction,
            lambda: play_and_announce(interaction, self.match_id, self.notation, expected_version=self.version),
        )


class ResignConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:resign:(?P<match>\d+):(?P<user>\d+)"
):
    def __init__(self, match_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Yes, resign"), style=discord.ButtonStyle.danger, custom_id=f"hx:resign:{match_id}:{user_id}"
            )
        )
        self.match_id, self.user_id = match_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ResignConfirmButton:
        return cls(int(match["match"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            if interaction.user.id != self.user_id:
                raise Refusal("not_your_confirmation")
            await resign_and_announce(interaction, self.match_id)

        await handle_press(interaction, run)


class ResignCancelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:keep:(?P<match>\d+):(?P<user>\d+)"
):
    """Cancel on the resign confirmation: nothing is played, the question is closed."""

    def __init__(self, match_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Cancel"), style=discord.ButtonStyle.secondary, custom_id=f"hx:keep:{match_id}:{user_id}"
            )
        )
        self.match_id, self.user_id = match_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ResignCancelButton:
        return cls(int(match["match"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            if interaction.user.id != self.user_id:
                raise Refusal("not_your_confirmation")
            match = await chat_of(interaction).service.get(self.match_id)
            await interaction.response.edit_message(content=words.resign_cancelled(match), view=None)

        await handle_press(interaction, run)


class TurnBuilderButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:tb:(?P<op>open|undo|end):(?P<match>\d+):(?P<version>\d+):(?P<picks>[0-9a-f.]*)",
):
    """Open the turn builder, Undo its last action, or End the turn (see :mod:`bot.service.turn_builder`)."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "open": (N_("Build your turn"), discord.ButtonStyle.primary),
        "undo": (N_("Undo last action"), discord.ButtonStyle.secondary),
        "end": (N_("End turn"), discord.ButtonStyle.success),
    }

    def __init__(self, op: str, match_id: int, version: int, picks: str = "", disabled: bool = False) -> None:
        label, style = self.LABELS[op]
        super().__init__(
            discord.ui.Button(
                label=t(label), style=style, disabled=disabled, custom_id=f"hx:tb:{op}:{match_id}:{version}:{picks}"
            )
        )
        self.op, self.match_id, self.version, self.picks = op, match_id, version, picks

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TurnBuilderButton:
        return cls(match["op"], int(match["match"]), int(match["version"]), match["picks"])

    async def callback(self, interaction: discord.Interaction) -> None:
        picks = decode(self.picks) if self.op != "open" else []
        await handle_press(interaction, lambda: turn_builder(interaction, self.op, self.match_id, self.version, picks))


class TurnBuilderSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"hx:tb:pick(?P<menu>\d):(?P<match>\d+):(?P<version>\d+):(?P<picks>[0-9a-f.]*)",
):
    """One menu of next actions; the chosen option's value is its index among the legal actions."""

    def __init__(
        self,
        menu: int,
        match_id: int,
        version: int,
        picks: str,
        choices: list[Choice] | None = None,
        placeholder: str | None = None,
    ) -> None:
        options = [
            discord.SelectOption(label=c.label, value=str(c.index), description=words.choice_description(c) or None)
            for c in (choices or [])
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"hx:tb:pick{menu}:{match_id}:{version}:{picks}",
                placeholder=placeholder or t("Next action"),
                options=options,
                min_values=1,
                max_values=1,
            )
        )
        self.match_id, self.version, self.picks = match_id, version, picks

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TurnBuilderSelect:
        made = cls(int(match["menu"]), int(match["match"]), int(match["version"]), match["picks"])
        if isinstance(item, discord.ui.Select):  # the options as the message had them: their labels are the menu
            made.item.options = item.options
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            data = cast(dict[str, Any], interaction.data or {})
            values = data.get("values") or []
            if not values or not str(values[0]).isdigit():
                raise Refusal("pick_an_action")
            picks = decode(self.picks) + [int(values[0])]
            await turn_builder(interaction, "pick", self.match_id, self.version, picks)

        await handle_press(interaction, run)


ITEMS = (QuickActionButton, ResignConfirmButton, ResignCancelButton, TurnBuilderButton, TurnBuilderSelect)


def builder_view(match_id: int, version: int, state: BuilderState) -> discord.ui.View:
    """Up to 4 menus of next actions (25 options each) and a row of Undo / End turn."""
    view = discord.ui.View(timeout=None)
    picks = encode(state.picks)
    menus = state.menus()
    for k, chunk in enumerate(menus):
        first, last = chunk[0].index + 1, chunk[-1].index + 1
        # TRANSLATORS: the placeholder of one of several menus of next actions: which of them it lists.
        placeholder = t("Next action") if len(menus) == 1 else t("Next action ({first}–{last})", first=first, last=last)
        select = TurnBuilderSelect(k, match_id, version, picks, chunk, placeholder)
        select.item.row = k
        view.add_item(select)
    row = len(menus)
    for op, disabled in (("undo", not state.picks), ("end", not state.can_end)):
        button = TurnBuilderButton(op, match_id, version, picks, disabled=disabled)
        button.item.row = row
        view.add_item(button)
    return view


# -- flows -------------------------------------------------------------------------------------------


async def play_and_announce(
    interaction: discord.Interaction,
    match_id: int,
    text: str,
    expected_version: int | None = None,
    seen: MatchRow | None = None,
) -> None:
    chat = chat_of(interaction)
    outcome = await chat.service.play(match_id, interaction.user.id, text, expected_version=expected_version, seen=seen)
    await chat.announcer.after_commit(interaction, outcome, lambda: chat.announcer.post_board(interaction, outcome))


async def turn_builder(
    interaction: discord.Interaction, op: str, match_id: int, version: int | None, picks: list[int]
) -> None:
    """The private turn builder: open it, pick or undo an action, or end (play) the turn."""
    chat = chat_of(interaction)
    if op == "undo":
        picks = picks[:-1]
    if op == "end":
        await submit_built_turn(interaction, chat, match_id, version, picks)
        return
    try:
        match, state = await chat.service.builder(match_id, interaction.user.id, version, picks, t)
    except BuilderExpired as expired:  # close the old builder rather than leave dead menus
        await interaction.response.edit_message(content=refusal(expired), attachments=[], view=None)
        return
    # A picture takes a moment: acknowledge first (Discord allows 3 s), then show it.
    if op == "open":
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    png = await chat.service.render(match, state.game, state.events)
    content = words.turn_builder(match, words.builder_summary(state), state.more, state.full)
    view = builder_view(match.id, match.version, state)
    file = png_file(png, "turn.png", description=boards.preview_description(match, state.game, last_turn(state.events)))
    if op == "open":
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)
    else:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)


async def submit_built_turn(
    interaction: discord.Interaction, chat: Chat, match_id: int, version: int | None, picks: list[int]
) -> None:
    """End turn: the picked actions go through the same service call as /move."""
    try:
        _, state = await chat.service.builder(match_id, interaction.user.id, version, picks, t)
    except BuilderExpired as expired:
        await interaction.response.edit_message(content=refusal(expired), attachments=[], view=None)
        return
    if not state.can_end:
        raise Refusal("turn_not_finished", why=state.why_not_end)
    outcome = await chat.service.play(match_id, interaction.user.id, state.notation, expected_version=version)

    async def announce() -> None:
        await interaction.response.edit_message(content=words.played(state.notation), attachments=[], view=None)
        if outcome.game is not None:
            with contextlib.suppress(Undelivered):  # logged and retried in the background; the mover was answered
                await chat.announcer.announce(outcome)
        await chat.announcer.notify_ending(outcome)

    await chat.announcer.after_commit(interaction, outcome, announce)


async def resign_and_announce(interaction: discord.Interaction, match_id: int) -> None:
    chat = chat_of(interaction)
    outcome = await chat.service.resign(match_id, interaction.user.id)

    async def announce() -> None:
        await interaction.response.edit_message(content=words.you_resigned(), view=None)
        if outcome.game is not None:
            with contextlib.suppress(Undelivered):  # logged and retried; the resignation itself is answered
                await chat.announcer.announce(outcome)
        await chat.announcer.notify_ending(outcome)

    await chat.announcer.after_commit(interaction, outcome, announce)


# -- commands ----------------------------------------------------------------------------------------


class MovesCog(commands.Cog, name="Moves"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="move", description="Play your turn, e.g. e5 (autocomplete lists legal moves)", extras=PUBLIC
    )
    @app_commands.describe(
        move="Your turn in the game's notation; keep typing after a space or comma to add actions",
        match="Which match (only needed outside the match's thread)",
    )
    async def move(self, interaction: discord.Interaction, move: str, match: int | None = None) -> None:
        received = time.perf_counter()
        try:
            row = await resolve_match(interaction, match)
            await play_and_announce(interaction, row.id, move, seen=row)  # the read that found it is the turn's read
        finally:  # answered by now (a refusal's private answer goes out just after, from the tree's on_error)
            self.chat.tally.move_answered(time.perf_counter() - received)

    @app_commands.command(name="preview", description="Privately see the board after a move, without playing it")
    @app_commands.describe(
        move="The move to try (a whole turn, or its first actions)",
        match="Which match (only needed outside the match's thread)",
    )
    async def preview(self, interaction: discord.Interaction, move: str, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        png, line, described = await self._preview(match_id, interaction.user.id, move)
        file = png_file(png, "preview.png", description=described)
        await interaction.response.send_message(line, file=file, ephemeral=True)

    async def _preview(self, match_id: int, user_id: int, move: str, hint: bool = False) -> tuple[bytes, str, str]:
        """The picture after a turn not played, what is said beside it, and its description."""
        tried = await self.chat.service.preview(match_id, user_id, move)
        before = game_of(tried.match)
        line = words.preview_line(
            tried.match, before, tried.seat, tried.game, tried.notation, tried.events, tried.unfinished
        )
        turn = last_turn(tried.events, tried.notation)
        described = boards.preview_description(tried.match, tried.game, turn, hint=tried.notation if hint else "")
        return tried.png, line, described

    @app_commands.command(name="hint", description="Privately: the move the medium computer would play for you")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def hint(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        chat = self.chat
        chat.computer.check_hint(await chat.service.get(match_id), interaction.user.id)  # refused at once, privately
        await interaction.response.defer(ephemeral=True, thinking=True)  # thinking takes a second or two
        notation = await chat.computer.hint(match_id, interaction.user.id)
        png, line, described = await self._preview(match_id, interaction.user.id, notation, hint=True)
        await interaction.followup.send(
            words.hint(notation, line)[:2000], file=png_file(png, "hint.png", description=described), ephemeral=True
        )

    @app_commands.command(name="turn", description="Build your turn action by action from menus (privately)")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def turn(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await turn_builder(interaction, "open", match_id, None, [])

    @move.autocomplete("move")
    @preview.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.chat.service
        try:
            match_ref = getattr(interaction.namespace, "match", None)
            row = await service.resolve(
                interaction.user.id, interaction.guild_id or 0, interaction.channel_id or 0, match_ref
            )
            if row.status != "active":
                return [app_commands.Choice(name=shared.not_in_play(row), value="-")]
            suggested = service.suggestions(row, game_of(row), interaction.user.id, current)
        except Refusal as error:
            return [app_commands.Choice(name=shared.clip_choice(refusal(error)), value="-")]
        pairs = words.suggestion_choices(row, suggested.choices, suggested.note, suggested.mover, current)
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    @move.autocomplete("match")
    @preview.autocomplete("match")
    async def match_choice(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await match_autocomplete(interaction, current)

    @app_commands.command(name="resign", description="Resign from a match (asks for confirmation)")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        row = await self.chat.service.confirm_resign(match_id, interaction.user.id)  # non-players refused now
        view = discord.ui.View(timeout=None)
        view.add_item(ResignConfirmButton(match_id, interaction.user.id))
        view.add_item(ResignCancelButton(match_id, interaction.user.id))
        await interaction.response.send_message(words.resign_question(row), view=view, ephemeral=True)
