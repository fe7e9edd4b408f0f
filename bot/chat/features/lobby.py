"""/play and the lobby's buttons (Accept, Decline, Join, Start, Cancel), and Rematch on a final board."""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from games import GAMES
from i18n import N_, t

from ...domain.errors import Refusal
from ...domain.model import MatchRow
from ...domain.outcome import Change
from ...domain.seats import COMPUTER_LEVELS
from ...service.lobby import can_start_early
from ..commands import GAME_CHOICES, guild_only
from ..context import Chat, chat_of
from ..door import handle_press
from ..game_words import option_description
from ..homes import games_channel
from ..outgoing import mention_only
from ..speech import privately, publicly
from ..timely import PUBLIC
from ..words import lobby as words
from ..words import outcomes

DAY_CHOICES: list[app_commands.Choice[int]] = [app_commands.Choice(name="No time limit", value=0)] + [
    app_commands.Choice(name=f"{d} day{'s' * (d != 1)} per move", value=d) for d in (1, 3, 7, 14)
]


def lobby_text(match: MatchRow) -> str:
    return words.lobby_text(match, can_start_early(match))


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:lobby:(?P<action>accept|decline|join|start|cancel):(?P<match>\d+)",
):
    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": (N_("Accept"), discord.ButtonStyle.success),
        "decline": (N_("Decline"), discord.ButtonStyle.danger),
        "join": (N_("Join"), discord.ButtonStyle.primary),
        "start": (N_("Start"), discord.ButtonStyle.success),
        "cancel": (N_("Cancel"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, match_id: int) -> None:
        label, style = self.STYLES[action]
        super().__init__(discord.ui.Button(label=t(label), style=style, custom_id=f"hx:lobby:{action}:{match_id}"))
        self.action = action
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> LobbyButton:
        return cls(match["action"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(
            interaction, lambda: publicly(interaction, lobby_pressed(interaction, self.action, self.match_id))
        )


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:rematch:(?P<match>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=t("Rematch"), style=discord.ButtonStyle.primary, custom_id=f"hx:rematch:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> RematchButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: publicly(interaction, rematch_pressed(interaction, self.match_id)))


ITEMS = (LobbyButton, RematchButton)


def lobby_view(match: MatchRow) -> discord.ui.View | None:
    """The lobby's buttons: Accept/Decline while invitations are open, Join for open seats, Start, Cancel."""
    if match.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    if any(not s.accepted for s in match.seats):
        view.add_item(LobbyButton("accept", match.id))
        view.add_item(LobbyButton("decline", match.id))
    if len(match.seats) < match.players:
        view.add_item(LobbyButton("join", match.id))
    if can_start_early(match):
        view.add_item(LobbyButton("start", match.id))
    view.add_item(LobbyButton("cancel", match.id))
    return view


async def lobby_pressed(interaction: discord.Interaction, action: str, match_id: int) -> None:
    chat = chat_of(interaction)
    service = chat.service
    user = (interaction.user.id, interaction.user.display_name)
    try:
        service.check_guild(await service.get(match_id), interaction.guild_id)  # as commands do
        if action == "accept":
            outcome = await service.accept(match_id, user[0])
        elif action == "decline":
            outcome = await service.decline(match_id, user[0])
        elif action == "join":
            outcome = await service.join(match_id, user)
        elif action == "start":
            outcome = await service.start(match_id, user[0])
        else:
            outcome = await service.cancel(match_id, user[0])
    except Refusal:
        await _retire_stale_lobby(interaction, chat, match_id)
        raise
    match = outcome.match
    said = chat.announcer.text_of(outcome)
    if outcome.started:
        content = lobby_text(match) + "\n" + said
        await interaction.response.edit_message(content=content, view=None, allowed_mentions=mention_only(None))
        home = await chat.opening.open_match(interaction, match, outcome)
        if interaction.message is not None and home not in (interaction.message.id, interaction.message.channel.id):
            await interaction.edit_original_response(
                content=content + "\n" + words.played_in(home), allowed_mentions=mention_only(None)
            )
    elif match.status == "lobby":
        await interaction.response.edit_message(
            content=lobby_text(match) + "\n" + said, view=lobby_view(match), allowed_mentions=mention_only(None)
        )
    else:
        await interaction.response.edit_message(content=said, view=None, allowed_mentions=mention_only(None))


async def _retire_stale_lobby(interaction: discord.Interaction, chat: Chat, match_id: int) -> None:
    """A button pressed on a lobby that is no longer one: take its buttons away, then explain privately."""
    stored = await chat.service.read(match_id)
    if stored is None or stored.status == "lobby" or interaction.response.is_done():
        return
    if stored.status == "cancelled":
        content = outcomes.change_line(stored, None, Change("cancelled"))
    else:
        content = lobby_text(stored)
    await interaction.response.edit_message(content=content, view=None, allowed_mentions=mention_only(None))


async def rematch_pressed(interaction: discord.Interaction, match_id: int) -> None:
    """Rematch on a final board: a new lobby in the match's channel, the presser ready, the others invited."""
    chat = chat_of(interaction)
    service = chat.service
    service.check_guild(await service.get(match_id), interaction.guild_id)
    match = await chat.guilds.rematch(match_id, interaction.user.id)
    invited = [u for u in match.human_ids() if u != interaction.user.id]
    text = words.rematch_asked(interaction.user.id, invited, lobby_text(match))
    channel = await games_channel(interaction.client, match.channel_id)  # never a thread: no thread in a thread
    if channel is None:
        raise Refusal("channel_gone")
    message = await channel.send(text[:2000], view=lobby_view(match), allowed_mentions=mention_only(invited))
    await service.set_lobby_message(match.id, message.id)
    started = await service.start_if_ready(match.id)  # against the computer: nobody else to wait for
    with privately():
        where = words.rematch_where(channel.id, started is not None)
    await interaction.response.send_message(where, ephemeral=True)
    if started is None:
        return
    await message.edit(
        content=lobby_text(started.match) + "\n" + chat.announcer.text_of(started),
        view=None,
        allowed_mentions=mention_only(None),
    )
    await chat.opening.open_match(interaction, started.match, started, lobby_message=message)


def games_channel_id(interaction: discord.Interaction) -> int:
    """Where a match asked for here lives: this channel, or the parent of the thread it was asked in."""
    if isinstance(interaction.channel, discord.Thread):
        return interaction.channel.parent_id
    return interaction.channel_id or 0


class LobbyCog(commands.Cog, name="Play"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="play", description="Start a match: invite opponents, or leave seats open for anyone", extras=PUBLIC
    )
    @app_commands.describe(
        game="Which game to play",
        opponent="Invite a player (they accept or decline with buttons), or the bot itself to play the computer",
        opponent2="Invite another player (games with more seats)",
        opponent3="Invite another player",
        opponent4="Invite another player",
        opponent5="Invite another player",
        seats="Number of seats; open seats are filled with the Join button",
        options="Game options as key=value, e.g. side=4",
        days="Time limit: days per move (a player out of time can be claimed against); the server's default otherwise",
        clock="Or a bank clock in hours: initial bank + increment per turn, max the cap, e.g. 72h+36h max 120h",
        rated="Count this match for the leaderboard (default yes)",
        computer="Play against the computer at this level (inviting the bot itself plays it at medium)",
        computers="Bide: how many seats the computer takes (default 1)",
        hints="Allow /hint (the medium computer's move, privately) for every player; joining agrees to it",
        premoves="Allow conditional moves (/premove) and private analysis boards (/explore) (default yes)",
    )
    @app_commands.choices(computer=[app_commands.Choice(name=level, value=level) for level in COMPUTER_LEVELS])
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(days=DAY_CHOICES)
    async def start_match(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.Member | None = None,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        opponent5: discord.Member | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        options: str | None = None,
        days: app_commands.Choice[int] | None = None,
        clock: app_commands.Range[str, 1, 60] | None = None,
        rated: bool | None = None,
        computer: app_commands.Choice[str] | None = None,
        computers: app_commands.Range[int, 1, 5] | None = None,
        hints: bool | None = None,
        premoves: bool | None = None,
    ) -> None:
        guild_id = guild_only(interaction)
        invited = []
        with_bot = False
        me = interaction.client.user
        for member in (opponent, opponent2, opponent3, opponent4, opponent5):
            if member is None:
                continue
            if me is not None and member.id == me.id:  # opponent:@Hexplay — the computer takes a seat
                with_bot = True
                continue
            if member.bot:
                raise Refusal("a_bot_cannot_play", name=member.display_name, me=me.display_name if me else "Hexplay")
            invited.append((member.id, member.display_name))
        service = self.chat.service
        match = await service.create(
            game_id=game.value,
            creator=(interaction.user.id, interaction.user.display_name),
            invited=invited,
            guild_id=guild_id,
            channel_id=games_channel_id(interaction),
            players=seats,
            options_text=options,
            days_per_move=float(days.value) if days else None,
            rated=True if rated is None else rated,
            computer=computer.value if computer else None,
            computers=computers,
            with_bot=with_bot,
            hints=bool(hints),
            analysis=premoves,
            clock_text=clock,
        )
        await publicly(interaction, self._post_lobby(interaction, match, invited))

    async def _post_lobby(
        self, interaction: discord.Interaction, match: MatchRow, invited: list[tuple[int, str]]
    ) -> None:
        """The new match's lobby, for everyone in the channel; against the computer, its start at once."""
        service = self.chat.service
        text = words.invitation(match, interaction.user.id, [uid for uid, _ in invited], lobby_text(match))
        view = lobby_view(match)
        assert view is not None  # a new match is a lobby
        response = await interaction.response.send_message(
            text,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u, _ in invited]),
        )
        if response.message_id is not None:
            await service.set_lobby_message(match.id, response.message_id)
        started = await service.start_if_ready(match.id)  # you against the computer: nobody to wait for
        if started is not None:
            lobby = await interaction.original_response()
            content = lobby_text(started.match) + "\n" + self.chat.announcer.text_of(started)
            await lobby.edit(content=content, view=None, allowed_mentions=mention_only(None))
            home = await self.chat.opening.open_match(interaction, started.match, started, lobby_message=lobby)
            if home not in (lobby.id, lobby.channel.id):  # opened away from the lobby: say where
                await lobby.edit(content=content + "\n" + words.played_in(home), allowed_mentions=mention_only(None))

    @start_match.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        infos = [GAMES[game_id]] if game_id in GAMES else list(GAMES.values())
        choices = []
        for info in infos:
            for spec in info.options:
                for value in spec.allowed:
                    shown = str(value).lower() if isinstance(value, bool) else value
                    text = f"{spec.key}={shown}"
                    if current.lower() in text:
                        described = option_description(spec)
                        if value == spec.default:
                            # TRANSLATORS: a /play options: choice, the default, e.g. "side=4 — Board size (default)".
                            label = t("{option} — {description} (default)", option=text, description=described)
                        else:
                            # TRANSLATORS: a choice for /play options:, e.g. "side=6 — Board size".
                            label = t("{option} — {description}", option=text, description=described)
                        choices.append(app_commands.Choice(name=label[:100], value=text))
        return choices[:25]
