"""Server settings (/config), the server's match list (/games all:true) and rematches.

Settings are typed columns with None = inherit, resolved field by field in one
order: the match's own option, then the server's setting, then the
environment's default. Only members with Manage Server may change
them: the command is hidden from others by Discord, and checked again here.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from ..domain.errors import Refusal
from ..domain.model import GuildSettings, MatchRow, SeatRow
from ..store.matches import MatchStore
from ..store.preferences import PreferenceStore
from .languages import check as check_language
from .lobby import MAX_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE
from .matches import MatchService
from .time_input import is_off, parse_bank_clock

KEEP: Any = object()  # an argument left out: the setting stays as it is


class GuildData(PreferenceStore, MatchStore, Protocol):
    """The parts of the store this module uses (typing only: one store object implements them all)."""


class Guilds:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store: GuildData = service.store

    # -- /config ---------------------------------------------------------------------------

    async def configure(
        self,
        guild_id: int,
        *,
        is_admin: bool,
        match_channel_id: Any = KEEP,
        days_per_move: Any = KEEP,
        reminder_hours: Any = KEEP,
        clock_text: Any = KEEP,
        analysis: Any = KEEP,
        language: Any = KEEP,
        share_puzzles: Any = KEEP,
    ) -> GuildSettings:
        """Change the server's settings (each left out stays); ``clock_text``: the default bank clock, as
        ``72h+36h max 120h``, or "off" (matches then get the default days per move). A refusal changes nothing."""
        if not is_admin:
            raise Refusal("config_needs_manage_server")
        settings = await self.store.guild_settings(guild_id)
        if match_channel_id is not KEEP:
            settings.match_channel_id = match_channel_id
        if days_per_move is not KEEP:
            if (
                days_per_move is not None
                and days_per_move != 0
                and not (math.isfinite(days_per_move) and MIN_DAYS_PER_MOVE <= days_per_move <= MAX_DAYS_PER_MOVE)
            ):
                raise Refusal("default_time_limit_range", low=MIN_DAYS_PER_MOVE, high=MAX_DAYS_PER_MOVE)
            settings.days_per_move = days_per_move
        if language is not KEEP:
            check_language(language)
            settings.language = language
        if reminder_hours is not KEEP:
            if reminder_hours is not None and not (math.isfinite(reminder_hours) and 1 <= reminder_hours <= 336):
                raise Refusal("reminder_delay_range")
            settings.reminder_hours = reminder_hours
        if clock_text is not KEEP:
            settings.clock = None if clock_text is None or is_off(clock_text) else parse_bank_clock(clock_text)
        if analysis is not KEEP:  # conditional moves and analysis boards by default (None: allowed)
            settings.analysis = analysis
        if share_puzzles is not KEEP:  # its puzzles given to servers that share theirs, and theirs taken
            settings.share_puzzles = share_puzzles
        await self.service.stored_or_refused(
            self.store.set_guild_settings(guild_id, settings, self.service.clock.now())
        )
        return settings

    async def settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    # -- /games all:true ---------------------------------------------------------------------

    async def server_matches(self, guild_id: int) -> list[MatchRow]:
        """The server's matches in play (those that can be served), latest first."""
        return await self.service.usable_only(await self.store.active_matches_of_guild(guild_id))

    # -- rematch ---------------------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int) -> MatchRow:
        """A new lobby with the same players, seats rotated by one, the same options; the presser is ready."""
        service = self.service
        old = await service.get(match_id)
        if old.status != "finished":
            raise Refusal("not_over_yet", match=old)
        if old.seat_of(user_id) is None:
            raise Refusal("only_players_rematch", match=old)
        invited = [(s.user_id, s.name) for s in old.seats if not s.is_computer and s.user_id != user_id]
        await service.check_challenge(user_id, old.guild_id, invited)
        ordered = sorted(old.seats, key=lambda s: s.seat)
        rotated = ordered[1:] + ordered[:1]
        seats = [
            SeatRow(i + 1, s.user_id, s.name, accepted=s.user_id == user_id or s.is_computer, computer=s.computer)
            for i, s in enumerate(rotated)
        ]
        new_id = await service.stored_or_refused(
            self.store.create_match(
                game=old.game,
                options=old.options,
                players=len(seats),
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                creator_id=user_id,
                seats=seats,
                now=service.clock.now(),
                days_per_move=old.days_per_move,
                rated=old.rated,
                hints=old.hints,
                analysis=old.analysis,
                clock=old.clock,
            )
        )
        return await service.get(new_id)
