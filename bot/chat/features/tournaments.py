"""/tournament create|join|leave|start|standings|withdraw|cancel, the announcement's Join/Leave buttons, and the
desk that tells what the tournament service did: rounds opened in threads, forfeits, the podium.

The service decides and stores (bot/service/tournaments.py); here it is said. A round's matches open in
their threads by the same path as a match the bot finds started after a restart (``MatchOpening``), so a
stop between a round's storing and its threads loses nothing: start-up's catch-up opens what is left.
The round's notice and the podium are claimed in the store before they are posted (one process, once).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from i18n import N_, t

from ...domain.errors import Refusal, TournamentPaused
from ...domain.model import MatchRow
from ...domain.tournament import TournamentRow
from ...service.tournaments import Standings, TournamentNews, Tournaments
from ..commands import GAME_CHOICES, guild_only
from ..context import Chat, chat_of
from ..door import handle_press
from ..homes import channel_by_id
from ..outgoing import mention_only, png_file
from ..speech import in_public, publicly, to_person
from ..timely import PUBLIC, answering
from ..words import boards, standings
from ..words import tournaments as words
from .lobby import DAY_CHOICES

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round-robin"),
]
STANDINGS_FILE = "standings.png"
# A round's notice waits for its matches' threads (so that it links them all) at most this long (game clock).
ROUND_NOTICE_PATIENCE = 600.0
LOOK_BACK = 20  # the channel's latest posts looked at for standings a killed process posted but did not record
# A game's end by a command: the look at its event waits for the command's answer at most this long.
ANSWER_FIRST_SECONDS = 15.0


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:tour:(?P<action>join|leave):(?P<tournament>\d+)"
):
    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": (N_("Join"), discord.ButtonStyle.primary),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, tournament_id: int) -> None:
        label, style = self.STYLES[action]
        custom_id = f"hx:tour:{action}:{tournament_id}"
        super().__init__(discord.ui.Button(label=t(label), style=style, custom_id=custom_id))
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TournamentButton:
        return cls(match["action"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(
            interaction, lambda: publicly(interaction, button_pressed(interaction, self.action, self.tournament_id))
        )


class ShareStandingsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:tour:share:(?P<tournament>\d+):(?P<round>\d+)"
):
    """Under the private answer of /tournament standings: posts the same table for everyone, once per press. Its
    custom id carries the event and the last round the table counted, so a press after a restart, or after later
    games ended, shows that table again (a round that has ended since: the table as it stood after it)."""

    def __init__(self, tournament_id: int, through_round: int) -> None:
        custom_id = f"hx:tour:share:{tournament_id}:{through_round}"
        super().__init__(discord.ui.Button(label=t("Share"), style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.tournament_id = tournament_id
        self.through_round = through_round

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ShareStandingsButton:
        return cls(int(match["tournament"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: share_pressed(interaction, self.tournament_id, self.through_round))


ITEMS = (TournamentButton, ShareStandingsButton)


def share_view(table: Standings) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShareStandingsButton(table.tournament.id, table.through_round))
    return view


async def share_pressed(interaction: discord.Interaction, tournament_id: int, through_round: int) -> None:
    """Post the standings the pressed answer showed, for everyone in the server's language: the answer to this
    press (so one press posts once, and a slow picture is acknowledged in time like any answer)."""
    chat = chat_of(interaction)
    guild_id = guild_only(interaction)
    table = await chat.tournaments.standings(tournament_id, guild_id, through_round=through_round)
    async with in_public(chat.service.languages, guild_id):
        content, file = await standings_message(chat.tournaments, table)
    await interaction.response.send_message(content, file=file, allowed_mentions=mention_only(None))


async def standings_message(tournaments: Tournaments, table: Standings, lead: str = "") -> tuple[str, discord.File]:
    """A table's post: ``lead`` (the podium) and the table in words, and its picture described with the same
    words, every player named (a screen reader hears who stands where, never "a player")."""
    content = (lead + "\n" if lead else "") + standings.standings_text(table)
    headers, rows, withdrawn = standings.standings_rows(table)
    title, subtitle = standings.standings_title(table)
    png = await tournaments.picture(title, subtitle, headers, rows, withdrawn)
    names = {player.user_id: player.name for player in table.tournament.players}
    description = boards.described(standings.standings_picture(), content, names=names)
    return content, png_file(png, STANDINGS_FILE, description=description)


def announcement_view(tournament: TournamentRow) -> discord.ui.View | None:
    """Join while there is room, Leave while it is open; no buttons once it started."""
    if tournament.status != "open":
        return None
    view = discord.ui.View(timeout=None)
    if len(tournament.players) < tournament.max_players:
        view.add_item(TournamentButton("join", tournament.id))
    view.add_item(TournamentButton("leave", tournament.id))
    return view


async def button_pressed(interaction: discord.Interaction, action: str, tournament_id: int) -> None:
    chat = chat_of(interaction)
    guild_id = guild_only(interaction)
    user = (interaction.user.id, interaction.user.display_name)
    try:
        if action == "join":
            tournament = await chat.tournaments.join(tournament_id, guild_id, user)
        else:
            tournament = await chat.tournaments.leave(tournament_id, guild_id, user[0])
    except Refusal:
        stored = await chat.tournaments.get(tournament_id, guild_id)
        if stored.status != "open" and not interaction.response.is_done():  # a stale announcement: bring it up to date
            await interaction.message.edit(  # type: ignore[union-attr]
                content=words.tournament_announcement(stored, chat.now()),
                view=None,
                allowed_mentions=mention_only(None),
            )
        raise
    await interaction.response.edit_message(
        content=words.tournament_announcement(tournament, chat.now()),
        view=announcement_view(tournament),
        allowed_mentions=mention_only(None),
    )


class TournamentDesk:
    """Says what the tournament service did, and keeps each event's announcement current."""

    def __init__(self, client: discord.Client, chat: Chat) -> None:
        self.client = client
        self.chat = chat
        self.tournaments = chat.tournaments
        self._tasks: set[asyncio.Task[None]] = set()
        self._telling: dict[int, asyncio.Lock] = {}  # an event's looks one at a time here, telling included

    async def refresh_announcement(self, tournament: TournamentRow) -> None:
        if tournament.message_id is None:
            return
        channel = await channel_by_id(self.client, tournament.channel_id)
        if channel is None:
            return
        async with in_public(self.chat.service.languages, tournament.guild_id):
            content, view = words.tournament_announcement(tournament, self.chat.now()), announcement_view(tournament)
        try:
            await channel.get_partial_message(tournament.message_id).edit(
                content=content, view=view, allowed_mentions=mention_only(None)
            )
        except discord.HTTPException as error:  # deleted or not editable: the event goes on without it
            log.info("tournament %s: its announcement cannot be edited (%s)", tournament.id, error)

    async def post(
        self, tournament: TournamentRow, text: str, mentions: list[int], file: discord.File | None = None
    ) -> bool:
        """Post in the event's channel; False only when Discord failed for now (a later try may land it), True
        when it was posted or never can be (the channel is gone, or the bot may not post there)."""
        channel = await channel_by_id(self.client, tournament.channel_id)
        if channel is None:
            log.warning("tournament %s: its channel is gone", tournament.id)
            return True
        kwargs: dict[str, Any] = {"allowed_mentions": mention_only(mentions)}
        if file is not None:
            kwargs["file"] = file
        try:
            await channel.send(text, **kwargs)
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("tournament %s: a notice was refused (%s)", tournament.id, error)
        except discord.HTTPException as error:
            log.warning("tournament %s: a notice was refused (%s)", tournament.id, error)
            return False
        return True

    async def tell(self, news: TournamentNews) -> None:
        """Post what one look at an event did: forfeits in their threads, the standings after the round that
        ended, the new round's matches opened in theirs (the players pinged there), the round's notice and the
        podium in the event's channel, in the server's language. One event's telling at a time here (a command's
        and the look a game's end set off), so that what it posts comes in the order it happened."""
        async with self._telling.setdefault(news.tournament.id, asyncio.Lock()):
            await self._tell_now(news)

    async def _tell_now(self, news: TournamentNews) -> None:
        async with in_public(self.chat.service.languages, news.tournament.guild_id):
            await self._tell(news)

    async def _tell(self, news: TournamentNews) -> None:
        tournament = news.tournament
        for outcome in news.forfeits:
            await self.chat.announcer.announce_in_home(outcome)
        if news.withdrawn:
            await self.post(tournament, words.tournament_withdrawn(tournament, news.withdrawn, inactive=True), [])
        if news.started:
            await self.tell_round_standings(tournament.id)
        await self._open(news)
        if news.started:
            await self.tell_round(tournament.id)
        if news.final is not None:
            await self.tell_podium(news.final)
        # a round robin stores all its rounds at the start: its first news is of its last round
        starting = news.started and (news.round == 1 or tournament.format == "round-robin")
        if starting or news.final is not None or tournament.status == "cancelled":
            await self.refresh_announcement(tournament)

    async def _open(self, news: TournamentNews) -> None:
        """Open the new round's matches in their threads. Each first board is claimed first, all of them
        before the first opens (a large round takes a while under Discord's limits): another process's look
        for unposted boards must not post one meanwhile."""
        service = self.chat.service
        claimed = [outcome for outcome in news.started if await service.claim_announcement(outcome.match.id)]
        for outcome in claimed:
            match_id = outcome.match.id
            try:
                await self.chat.opening.open_missed_match(outcome, after_restart=False)
            except Exception:  # Discord failed: the retry, another process's look, or start-up's catch-up opens it
                log.exception("tournament %s: match %s could not be opened now", news.tournament.id, match_id)
            stored = await service.read(match_id)
            if stored is not None and stored.announced_version < stored.version:
                await service.release_announcement(match_id)  # not posted: whoever retries may claim it

    async def tell_round(self, tournament_id: int) -> None:
        """The current round's pairings in the event's channel, once (claimed in the store), when every one of
        its matches has its thread and first board, so that the notice links them all, and the standings after
        the round before are posted: until then (opening a round takes a while under Discord's limits) whoever
        looks leaves it to the look after the last opens, or, past ROUND_NOTICE_PATIENCE (a match that cannot be
        opened, standings that cannot be posted), tells it with what there is."""
        tournament = await self.tournaments.current(tournament_id)  # as stored now: its standings may be told
        if tournament is None or tournament.status != "running" or tournament.round == 0:
            return
        games = await self.tournaments.games(tournament)
        number = tournament.round if tournament.format == "swiss" else None
        tables: list[MatchRow] = []
        for game in games:
            if game.match_id is not None and (number is None or game.round == number):
                match = await self.chat.service.read(game.match_id)
                if match is not None:
                    tables.append(match)
        ready = all(m.board_message_id is not None for m in tables) and not self.tournaments.standings_owed(tournament)
        stored_at = min((m.created_at for m in tables), default=self.chat.now())  # when the round was stored
        if not ready and self.chat.now() - stored_at < ROUND_NOTICE_PATIENCE:
            return
        if not await self.chat.service.store.claim_tournament_notice(tournament.id, tournament.round):
            return
        byes = [g.bye_user_id for g in games if g.bye_user_id is not None and g.round == tournament.round]
        async with in_public(self.chat.service.languages, tournament.guild_id):
            notice = words.tournament_round(tournament, tournament.round, tables, byes)
        await self.post(tournament, notice, [])

    async def tell_round_standings(self, tournament_id: int) -> None:
        """The standings after the Swiss round that ended last, in the event's channel, once across processes and
        restarts: claimed in the store (for a lease), looked for among the channel's latest posts (a process
        killed between posting them and recording it), recorded once Discord took them, let go if it failed."""
        table = await self.tournaments.claim_round_standings(tournament_id)
        if table is None:
            return
        posted = False
        try:
            async with in_public(self.chat.service.languages, table.tournament.guild_id):
                content, file = await standings_message(self.tournaments, table)
            posted = await self._posted_already(table.tournament, content.split("\n", 1)[0])
            posted = posted or await self.post(table.tournament, content, [], file)
        finally:
            await self.tournaments.round_standings_posted(tournament_id, table.after_round, posted)

    async def _posted_already(self, tournament: TournamentRow, heading: str) -> bool:
        """Whether one of the channel's latest posts by the bot begins with ``heading``."""
        channel = await channel_by_id(self.client, tournament.channel_id)
        me = self.client.user
        if channel is None or me is None or not hasattr(channel, "history"):
            return False
        try:
            async for message in channel.history(limit=LOOK_BACK):
                if message.author.id == me.id and message.content.startswith(heading):
                    return True
        except discord.HTTPException:
            return False
        return False

    async def tell_podium(self, table: Standings) -> None:
        if not await self.chat.service.store.claim_tournament_notice(table.tournament.id, 0):
            return
        content, file = await standings_message(self.tournaments, table, lead=standings.podium(table))
        mentions = [r.user_id for r in table.rows if r.place <= 3]
        await self.post(table.tournament, content, mentions, file)

    # -- after a game, and the pass ------------------------------------------------------------------

    async def match_finished(self, match: MatchRow) -> None:
        """A game ended (the service's finish listener): if it is a tournament's, look at its event soon.
        Not awaited here: the mover's answer must not wait for a new round's threads."""
        tournament_id = await self.chat.service.store.tournament_of_match(match.id)
        if tournament_id is None:
            return
        task = asyncio.create_task(self._tend_after(answering(), tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tend_after(self, interaction_task: asyncio.Task[Any] | None, tournament_id: int) -> None:
        """Tend the event once the interaction that ended the game (if one did) has its answer: a new round's
        threads and the standings come after the mover's board, never before it."""
        if interaction_task is not None:
            await asyncio.wait({interaction_task}, timeout=ANSWER_FIRST_SECONDS)
        await self.tend(tournament_id)

    async def tend(self, tournament_id: int) -> None:
        """Look at an event and tell what was done; then tell what nobody has told yet (a stop came between a
        round's storing and its notices: its matches are opened by start-up's catch-up): the standings after
        the round that ended, the current round's pairings."""
        try:
            async with self._telling.setdefault(tournament_id, asyncio.Lock()):
                news = await self.tournaments.tend(tournament_id)
                if news is not None:
                    await self._tell_now(news)
                await self.tell_round_standings(tournament_id)
                await self.tell_round(tournament_id)
        except TournamentPaused:  # set aside meanwhile: its organizer is told by the pass
            pass
        except Exception:  # the pass looks again
            log.exception("tournament %s: tending it failed", tournament_id)

    async def tend_all(self) -> None:
        for tournament_id in await self.chat.service.store.tournaments_to_tend(self.chat.now()):
            await self.tend(tournament_id)
        await self.tell_set_aside()

    async def tell_set_aside(self) -> None:
        """Tell the organizer of each event newly set aside (its rows cannot be used), once, by DM."""
        for tournament_id, organizer_id in await self.tournaments.aside_untold():
            if organizer_id is None:
                log.error(
                    "tournament %s is set aside but its row does not say who organizes it: nobody can be told",
                    tournament_id,
                )
                await self.tournaments.aside_told(tournament_id)  # said once in the log, not at every pass
                continue
            async with to_person(self.chat.service.languages, organizer_id):
                text = words.tournament_set_aside(tournament_id)
            try:
                user = self.client.get_user(organizer_id) or await self.client.fetch_user(organizer_id)
                await user.send(text, allowed_mentions=mention_only(None))
            except discord.Forbidden as error:  # closed DMs: the log has said it; /tournament answers "paused"
                log.info("tournament %s: its organizer %s cannot be told (%s)", tournament_id, organizer_id, error)
            except discord.HTTPException as error:
                log.warning("tournament %s: could not tell its organizer (%s); trying later", tournament_id, error)
                await self.tournaments.aside_not_told(tournament_id)
                continue
            await self.tournaments.aside_told(tournament_id)

    async def settle(self) -> None:
        """Wait for the looks at events under way (tests, and a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


class TournamentLoop:
    """At start-up and then periodically: scheduled starts, rounds a stop left unadvanced, forfeits, podiums."""

    def __init__(self, client: discord.Client, desk: TournamentDesk, interval: float) -> None:
        self.client = client
        self.desk = desk
        self.interval = interval
        self._pass = asyncio.Lock()

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            async with self._pass:
                try:
                    await self.desk.tend_all()
                except Exception:
                    log.exception("tournament pass failed")
            await asyncio.sleep(self.interval)

    async def stop(self, grace: float) -> None:
        try:
            await asyncio.wait_for(self._pass.acquire(), grace)
        except TimeoutError:
            log.warning("a tournament pass was still running after %.0f s at shutdown", grace)
        try:
            await asyncio.wait_for(self.desk.settle(), grace)
        except TimeoutError:  # what it did not tell, the next start's pass and catch-up tell
            log.warning("a tournament's news was still being told after %.0f s at shutdown", grace)


class TournamentCog(commands.GroupCog, name="Tournaments", group_name="tournament"):
    """Round robin and Swiss events, run by the bot."""

    def __init__(self, chat: Chat, desk: TournamentDesk) -> None:
        self.chat = chat
        self.desk = desk
        super().__init__()

    @app_commands.command(
        name="create", description="Create a tournament in this channel: players join with its button", extras=PUBLIC
    )
    @app_commands.describe(
        game="Which game",
        format="Swiss (a set number of rounds, close scores meet) or round robin (everyone plays everyone)",
        rounds="Swiss: how many rounds (default 3)",
        days="Time limit per move in its games; the server's default otherwise",
        max_players="At most this many players (default 64)",
        start_in_hours="Start by itself this many hours from now; leave out to start it with /tournament start",
        rated="Its games count for the server's ratings (default yes)",
        options="Game options as key=value, e.g. side=4",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(format=FORMAT_CHOICES)
    @app_commands.choices(days=DAY_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 12] | None = None,
        days: app_commands.Choice[int] | None = None,
        max_players: app_commands.Range[int, 2, 64] | None = None,
        start_in_hours: app_commands.Range[int, 1, 720] | None = None,
        rated: bool | None = None,
        options: str | None = None,
    ) -> None:
        tournament = await self.chat.tournaments.create(
            organizer=interaction.user.id,
            guild_id=guild_only(interaction),
            channel_id=interaction.channel_id or 0,
            game_id=game.value,
            fmt=format.value,
            rounds=rounds,
            days_per_move=float(days.value) if days else None,
            max_players=max_players,
            start_in_hours=start_in_hours,
            rated=True if rated is None else rated,
            options_text=options,
        )
        async with in_public(self.chat.service.languages, tournament.guild_id):
            view = announcement_view(tournament)
            content = words.tournament_announcement(tournament, self.chat.now())
        assert view is not None  # a new tournament is open
        response = await interaction.response.send_message(content, view=view, allowed_mentions=mention_only(None))
        if response.message_id is not None:
            await self.chat.tournaments.set_message(tournament.id, response.message_id)

    @app_commands.command(name="join", description="Join a tournament before it starts")
    @app_commands.describe(tournament="The tournament's number (the server's only open one otherwise)")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("open",))
        user = (interaction.user.id, interaction.user.display_name)
        joined = await self.chat.tournaments.join(found.id, guild_id, user)
        await interaction.response.send_message(words.tournament_joined(joined, user[0], True), ephemeral=True)
        await self.desk.refresh_announcement(joined)

    @app_commands.command(name="leave", description="Leave a tournament before it starts")
    @app_commands.describe(tournament="The tournament's number (the server's only open one otherwise)")
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("open",))
        left = await self.chat.tournaments.leave(found.id, guild_id, interaction.user.id)
        await interaction.response.send_message(
            words.tournament_joined(left, interaction.user.id, False), ephemeral=True
        )
        await self.desk.refresh_announcement(left)

    @app_commands.command(
        name="start", description="Start your tournament now: its first games open at once", extras=PUBLIC
    )
    @app_commands.describe(tournament="The tournament's number (the server's only open one otherwise)")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("open",))
        news = await self.chat.tournaments.start(found.id, guild_id, interaction.user.id)
        async with in_public(self.chat.service.languages, guild_id):
            started = words.tournament_started(news.tournament)
        await interaction.response.send_message(started, allowed_mentions=mention_only(None))
        await self.desk.tell(news)

    @app_commands.command(name="standings", description="A tournament's table: points and tie-breaks")
    @app_commands.describe(tournament="The tournament's number (the server's only running one otherwise)")
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Answered privately, in the asker's language, with a Share button that posts it for everyone."""
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("running",), latest_finished=True)
        table = await self.chat.tournaments.standings(found.id, guild_id)
        content, file = await standings_message(self.chat.tournaments, table)
        await interaction.response.send_message(content, file=file, view=share_view(table), ephemeral=True)

    @app_commands.command(
        name="withdraw", description="Leave a tournament under way: your remaining games are forfeited"
    )
    @app_commands.describe(tournament="The tournament's number (the server's only running one otherwise)")
    async def withdraw(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("running",))
        news = await self.chat.tournaments.withdraw(found.id, guild_id, interaction.user.id)
        await interaction.response.send_message(words.you_withdrew(news.tournament, len(news.forfeits)), ephemeral=True)
        async with in_public(self.chat.service.languages, guild_id):
            withdrawn = words.tournament_withdrawn(news.tournament, [interaction.user.id], False)
        await self.desk.post(news.tournament, withdrawn, [])
        await self.desk.tell(news)

    @app_commands.command(
        name="cancel", description="Cancel a tournament (its organizer, or a server manager)", extras=PUBLIC
    )
    @app_commands.describe(tournament="The tournament's number (the server's only open or running one otherwise)")
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = guild_only(interaction)
        found = await self.chat.tournaments.resolve(guild_id, tournament, ("open", "running"))
        manager = bool(interaction.permissions.manage_guild)
        cancelled = await self.chat.tournaments.cancel(found.id, guild_id, interaction.user.id, manager)
        async with in_public(self.chat.service.languages, guild_id):
            said = words.tournament_cancelled(cancelled, interaction.user.id)
        await interaction.response.send_message(said, allowed_mentions=mention_only(None))
        await self.desk.refresh_announcement(cancelled)
