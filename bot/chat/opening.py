"""A started match gets its thread and its first board; at start-up, what a stop left unsaid is said.

The thread opens on the lobby message (or on a short starter post in the server's chosen channel).
Without a thread the match is played in its channel; if the bot may not post there either, the
interaction that started the match is answered instead (interactions need no channel permission),
so a match is always announced. At start-up, boards stored but never posted are posted (or found
already posted and recorded), a match stopped between its start and its thread gets its thread, and
the players of newly paused matches are told once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..domain.model import MatchRow
from ..domain.outcome import Outcome
from ..service.guilds import Guilds
from ..service.matches import MatchService
from .announce import Announcer, Undelivered
from .homes import channel_by_id, games_channel
from .outgoing import mention_only, png_file
from .speech import in_public
from .words import errors, outcomes, posting

log = logging.getLogger(__name__)

THREAD_ALREADY_CREATED = 160004


class MatchOpening:
    def __init__(self, client: discord.Client, service: MatchService, guilds: Guilds, announcer: Announcer) -> None:
        self.client = client
        self.service = service
        self.guilds = guilds
        self.announcer = announcer

    async def open_match(
        self,
        interaction: discord.Interaction,
        match: MatchRow,
        outcome: Outcome,
        lobby_message: discord.Message | None = None,
    ) -> int:
        """Give a started match its thread (when the channel allows it) and post the first board.

        Returns the id of the channel or thread the first board went to (where the match is played). Everything
        is said in the server's language, even the fallback answer to the interaction (the players read it).

        The opening holds the match's board claim, as every catch-up does: a start-up's catch-up (this process's
        or another's, which finds the start stored and its board unposted) or a look never opens the thread and
        posts the first board too. If one of them claimed it first, it opens the match and this path leaves it.
        """
        if not await self.service.claim_announcement(match.id):
            return await self._opened_elsewhere(match)
        try:
            async with in_public(self.service.languages, match.guild_id):
                return await self._open_match(interaction, match, outcome, lobby_message)
        finally:
            await self.service.release_announcement(match.id)  # posted: the claim ended already; else a look posts it

    async def _opened_elsewhere(self, match: MatchRow) -> int:
        """Where a match that a catch-up is opening (or has opened) is played, as far as is stored now."""
        current = await self.service.read(match.id)
        if current is None:
            return match.channel_id
        return current.board_channel_id or current.thread_id or current.channel_id

    async def _open_match(
        self, interaction: discord.Interaction, match: MatchRow, outcome: Outcome, lobby_message: discord.Message | None
    ) -> int:
        target = await self._match_thread(match, lobby_message or interaction.message)
        text, kwargs, png = await self._first_board(match, outcome)
        message: discord.Message | None = None
        if target is not None:
            try:
                message = await target.send(text, **kwargs)
            except discord.HTTPException as error:
                log.info("cannot post in the channel of match %s (%s); answering the interaction", match.id, error)
        if message is None:
            kwargs["file"] = png_file(
                png, description=self.announcer.description(outcome)
            )  # a File is consumed by a failed send
            message = await interaction.followup.send(text, wait=True, **kwargs)
        await self.service.mark_announced(match.id, match.version, message.channel.id, message.id)
        return message.channel.id

    async def open_missed_match(self, outcome: Outcome, after_restart: bool = True) -> None:
        """At start-up: a match that started just before a stop, its thread never opened, gets it now.

        Without this it would play in the channel for good. Its first board is posted there (retried in the
        background if Discord refuses it now). A match the bot started by itself (a tournament's round) opens
        by the same path, without saying it was a restart.
        """
        async with in_public(self.service.languages, outcome.match.guild_id):
            await self._open_missed_match(outcome, posting.posted_after_restart() if after_restart else "")

    async def _open_missed_match(self, outcome: Outcome, prefix: str) -> None:
        match = outcome.match
        channel = await channel_by_id(self.client, match.channel_id)
        lobby = None
        if match.lobby_message_id and channel is not None:
            try:
                lobby = await channel.fetch_message(match.lobby_message_id)
            except discord.HTTPException:
                lobby = None  # deleted: a thread is opened on a new starter message in the channel
        if lobby is None and channel is not None:
            lobby = await self._starter_post(channel, match)
        target = await self._match_thread(match, lobby)
        text, kwargs, _ = await self._first_board(match, outcome)
        message: discord.Message | None = None
        if target is not None:
            try:
                message = await target.send(prefix + text, **kwargs)
            except discord.HTTPException as error:
                log.warning("match %s: its first board was refused after a restart (%s)", match.id, error)
        if message is None:
            self.announcer.retry_later(match.id, match.version)  # until it lands, as any board Discord refused
            return
        await self.service.mark_announced(match.id, match.version, message.channel.id, message.id)

    async def _match_thread(self, match: MatchRow, lobby_message: discord.Message | None) -> Any | None:
        """Open the match's thread on its lobby message (or in the server's chosen channel) and store it.

        Returns where the match is played: its thread, else its channel (None if that is gone too).
        """
        chosen = (await self.guilds.settings(match.guild_id)).match_channel_id
        # /config: match threads open in the server's chosen channel; else in the match's channel, or the
        # parent of the thread it was asked for in (no thread inside a thread: issue 26)
        place = await games_channel(self.client, chosen or match.channel_id)
        if place is None and chosen:
            place = await games_channel(self.client, match.channel_id)
        if place is not None and (lobby_message is None or lobby_message.channel.id != place.id):
            starter = await self._starter_post(place, match)
            if starter is not None:
                lobby_message = starter
            elif lobby_message is not None and isinstance(lobby_message.channel, discord.Thread):
                lobby_message = None  # no thread inside a thread: played where it was asked for
        if lobby_message is not None:
            thread: Any | None
            try:
                thread = await lobby_message.create_thread(name=posting.thread_name(match), auto_archive_duration=10080)
            except discord.HTTPException as error:
                # opened before a stop that came before it was stored: a message's thread has the message's id
                thread = (
                    await channel_by_id(self.client, lobby_message.id) if error.code == THREAD_ALREADY_CREATED else None
                )
                if thread is None:
                    log.info("no thread for match %s (%s); playing in the channel", match.id, error)
            if thread is not None:
                await self.service.set_thread(match.id, thread.id)
                match.thread_id = thread.id
                return thread
        return await channel_by_id(self.client, match.channel_id)

    async def _first_board(self, match: MatchRow, outcome: Outcome) -> tuple[str, dict[str, Any], bytes]:
        """The first board of a match: its text, its send() arguments, and the picture."""
        assert outcome.game is not None
        png = await self.service.render(match, outcome.game)
        kwargs = self.announcer.board_message(outcome, png)
        kwargs["allowed_mentions"] = mention_only(match.human_ids())
        return outcomes.begins(match, outcome.game, self.service.clock.now()), kwargs, png

    async def _starter_post(self, channel: Any, match: MatchRow) -> discord.Message | None:
        """A short post naming the match, for its thread to open on (None if the bot may not post there)."""
        try:
            message: discord.Message = await channel.send(posting.starter(match), allowed_mentions=mention_only(None))
            return message
        except discord.HTTPException as error:
            log.info("cannot post a match's starter message in %s (%s)", getattr(channel, "id", "?"), error)
            return None

    # -- at start-up --------------------------------------------------------------------------------

    async def announce_missed(self, started_at: float) -> None:
        """Post the boards of moves that were stored but never shown (a stop between the two).

        Each board is claimed as its turn comes and given back if it was not posted: a stop half-way holds up
        nothing (this process's claims end with it). A board that was posted just before a stop, but not yet
        recorded, is found in the channel and recorded instead of being posted twice.
        """
        # changed since this start: its own command is announcing it (the periodic look catches any it did not)
        for match_id, _ in await self.service.unannounced(changed_by=started_at):
            outcome = await self.service.claim_missed(match_id)
            if outcome is None:
                continue  # posted meanwhile, or a live process is posting it
            try:
                await self.service.for_one_match(match_id, self._announce_missed(outcome))
            finally:
                await self.service.release_announcement(match_id)  # not posted: a later look or retry takes it

    async def _announce_missed(self, outcome: Outcome) -> None:
        if outcome.game is None or await self.announcer.already_shown(outcome):
            return
        if outcome.started and outcome.match.thread_id is None and outcome.match.announced_version == 0:
            await self.open_missed_match(outcome)  # stopped between its start and its thread
            return
        try:
            async with in_public(self.service.languages, outcome.match.guild_id):
                prefix = posting.posted_after_restart()
            await self.announcer.announce(outcome, prefix=prefix, unless_superseded=True)
        except Undelivered:
            return  # logged, and retried in the background
        await self.announcer.notify_ending(outcome)

    async def tell_paused(self) -> None:
        """Tell the players of each newly paused (quarantined) match, once, in its thread."""
        for match_id in await self.service.paused_untold():
            await self.service.for_one_match(match_id, self._tell_paused(match_id))

    async def _tell_paused(self, match_id: int) -> None:
        match = await self.service.read(match_id)
        if match is None or not match.home_channel_id:
            log.error(
                "match %s is paused but its row does not say where it is played: its players cannot be told", match_id
            )
            await self.service.paused_told(match_id)  # said once in the log, not at every pass
            return
        home = await channel_by_id(self.client, match.home_channel_id)
        if home is None:
            await self.service.paused_not_told(match_id)  # a later pass tries again
            return
        mentions = " ".join(f"<@{u}>" for u in match.human_ids())
        async with in_public(self.service.languages, match.guild_id):
            notice = errors.quarantine_notice(match)
        try:
            await home.send(f"{mentions} {notice}", allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException as error:
            log.warning("match %s: could not tell its players it is paused (%s)", match_id, error)
            await self.service.paused_not_told(match_id)
            return
        await self.service.paused_told(match_id)
