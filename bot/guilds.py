"""Server settings (/config), the server's match list (/games all:true) and rematches.

Settings are typed columns with None = inherit, resolved field by field in one
order: the match's own option, then the server's setting, then the
environment's default (STYLE §5). Only members with Manage Server may change
them: the command is hidden from others by Discord, and checked again here.
"""

from __future__ import annotations

import math

from .service import MAX_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE, MatchService, ServiceError, seat_name
from .domain.model import GuildSettings, MatchRow, SeatRow
from .text import escape

KEEP = object()  # an argument left out: the setting stays as it is


class Guilds:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store = service.store

    # -- /config ---------------------------------------------------------------------------

    async def configure(self, guild_id: int, *, is_admin: bool, match_channel_id=KEEP, days_per_move=KEEP,
                        reminder_hours=KEEP) -> GuildSettings:
        if not is_admin:
            raise ServiceError("Only members with the Manage Server permission can change Hexplay's server "
                               "settings; /config without options shows them.")
        settings = await self.store.guild_settings(guild_id)
        if match_channel_id is not KEEP:
            settings.match_channel_id = match_channel_id
        if days_per_move is not KEEP:
            if days_per_move is not None and days_per_move != 0 and not (
                    math.isfinite(days_per_move) and MIN_DAYS_PER_MOVE <= days_per_move <= MAX_DAYS_PER_MOVE):
                raise ServiceError(f"The default time limit is 0 (none) or {MIN_DAYS_PER_MOVE:g} to "
                                   f"{MAX_DAYS_PER_MOVE:g} days per move.")
            settings.days_per_move = days_per_move
        if reminder_hours is not KEEP:
            if reminder_hours is not None and not (math.isfinite(reminder_hours) and 1 <= reminder_hours <= 336):
                raise ServiceError("The default reminder delay must be between 1 hour and 14 days (336 hours).")
            settings.reminder_hours = reminder_hours
        await self.store.set_guild_settings(guild_id, settings, self.service.clock.now())
        return settings

    async def describe(self, guild_id: int) -> str:
        settings = await self.store.guild_settings(guild_id)
        channel = f"<#{settings.match_channel_id}>" if settings.match_channel_id else \
            "the channel where /play is used (default)"
        if settings.days_per_move is None or settings.days_per_move == 0:
            days = "none (default)" if settings.days_per_move is None else "none"
        else:
            days = f"{settings.days_per_move:g} days per move"
        hours = settings.reminder_hours or self.service.default_reminder_hours
        origin = "" if settings.reminder_hours else " (default)"
        return (f"**Hexplay settings of this server**\n• Match threads open in: {channel}\n"
                f"• Default time limit: {days} (a player may choose another at /play)\n"
                f"• Default reminder delay: {hours:g} h{origin} (each player may set their own with /settings)")

    # -- /games all:true ---------------------------------------------------------------------

    async def server_matches(self, guild_id: int) -> list[str]:
        service = self.service
        lines = []
        for match in await service.usable_only(await self.store.active_matches_of_guild(guild_id)):
            game = service.game_of(match)
            names = " vs ".join(escape(seat_name(s)) for s in sorted(match.seats, key=lambda s: s.seat))
            mover = escape(service.player_row(match, game, game.to_move).name) if game.to_move else "?"
            link = f"https://discord.com/channels/{match.guild_id}/{match.home_channel_id}"
            lines.append(f"• {service.title(match)}: {names} — {mover} to move"
                         f"{service.time_note(match, ', ')} — <#{match.home_channel_id}> ({link})")
        return lines

    # -- rematch ---------------------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int) -> MatchRow:
        """A new lobby with the same players, seats rotated by one, the same options; the presser is ready."""
        service = self.service
        old = await service.get(match_id)
        if old.status != "finished":
            raise ServiceError(f"{service.title(old)} is not over yet.")
        if old.seat_of(user_id) is None:
            raise ServiceError(f"Only the players of {service.title(old)} can ask for a rematch.")
        invited = [(s.user_id, s.name) for s in old.seats if s.user_id != user_id and not s.is_computer]
        await service._check_challenge_limits(user_id, old.guild_id, invited)  # a rematch pings them as /play does
        ordered = sorted(old.seats, key=lambda s: s.seat)
        rotated = ordered[1:] + ordered[:1]
        seats = [SeatRow(i + 1, s.user_id, s.name, accepted=s.user_id == user_id or s.is_computer, computer=s.computer)
                 for i, s in enumerate(rotated)]
        new_id = await self.store.create_match(
            game=old.game, options=old.options, players=len(seats), guild_id=old.guild_id,
            channel_id=old.channel_id, creator_id=user_id, seats=seats,
            now=service.clock.now(),
            days_per_move=old.days_per_move, rated=old.rated, hints=old.hints,
        )
        return await service.get(new_id)
