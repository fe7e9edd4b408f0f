"""/play: start a match; the lobby's buttons are answered in HexplayBot.lobby_button."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from games import GAMES
from games import get as get_game

from ..service import COMPUTER_LEVELS, ServiceError
from ..ui import lobby_view, mention_only
from .common import GAME_CHOICES, bot_of, guild_only


class PlayCog(commands.Cog, name="Play"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Start a match: invite opponents, or leave seats open for anyone")
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
        rated="Count this match for the leaderboard (default yes)",
        computer="Play against the computer at this level (inviting the bot itself plays it at medium)",
        computers="Bide: how many seats the computer takes (default 1)",
        hints="Allow /hint (the medium computer's move, privately) for every player; joining agrees to it",
    )
    @app_commands.choices(computer=[app_commands.Choice(name=level, value=level) for level in COMPUTER_LEVELS])
    @app_commands.choices(game=GAME_CHOICES, days=[app_commands.Choice(name="No time limit", value=0)] + [
        app_commands.Choice(name=f"{d} day{'s' * (d != 1)} per move", value=d) for d in (1, 3, 7, 14)])
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: Optional[discord.Member] = None,
        opponent2: Optional[discord.Member] = None,
        opponent3: Optional[discord.Member] = None,
        opponent4: Optional[discord.Member] = None,
        opponent5: Optional[discord.Member] = None,
        seats: Optional[app_commands.Range[int, 2, 6]] = None,
        options: Optional[str] = None,
        days: Optional[app_commands.Choice[int]] = None,
        rated: Optional[bool] = None,
        computer: Optional[app_commands.Choice[str]] = None,
        computers: Optional[app_commands.Range[int, 1, 5]] = None,
        hints: Optional[bool] = None,
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
                raise ServiceError(f"{member.display_name} is a bot and cannot play; to play the computer, "
                                   f"invite {me.display_name if me else 'Hexplay'} or use the computer option.")
            invited.append((member.id, member.display_name))
        bot = bot_of(interaction)
        service = bot.service
        match = await service.create(
            game_id=game.value, creator=(interaction.user.id, interaction.user.display_name), invited=invited,
            guild_id=guild_id, channel_id=interaction.channel_id or 0, players=seats, options_text=options,
            days_per_move=float(days.value) if days else None, rated=True if rated is None else rated,
            computer=computer.value if computer else None, computers=computers, with_bot=with_bot,
            hints=bool(hints),
        )
        invitees = " ".join(f"<@{uid}>" for uid, _ in invited)
        text = service.lobby_text(match)
        if invitees:
            text = f"{invitees}: <@{interaction.user.id}> invites you to play {get_game(match.game).name}.\n{text}"
        response = await interaction.response.send_message(
            text, view=lobby_view(match, service),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u, _ in invited]))
        if response.message_id is not None:
            await bot.store.update_match_fields(match.id, lobby_message_id=response.message_id)
        started = await service.start_if_ready(match.id)  # you against the computer: nobody to wait for
        if started is not None:
            lobby = await interaction.original_response()
            await lobby.edit(content=service.lobby_text(started.match) + "\n" + started.line, view=None,
                             allowed_mentions=mention_only(None))
            await bot.open_match(interaction, started.match, started, lobby_message=lobby)

    @play.autocomplete("options")
    async def options_autocomplete(self, interaction: discord.Interaction, current: str):
        game_id = getattr(interaction.namespace, "game", None)
        infos = [GAMES[game_id]] if game_id in GAMES else list(GAMES.values())
        choices = []
        for info in infos:
            for spec in info.options:
                for value in spec.allowed:
                    shown = str(value).lower() if isinstance(value, bool) else value
                    text = f"{spec.key}={shown}"
                    if current.lower() in text:
                        label = f"{text} — {spec.description}" + (" (default)" if value == spec.default else "")
                        choices.append(app_commands.Choice(name=label[:100], value=text))
        return choices[:25]

