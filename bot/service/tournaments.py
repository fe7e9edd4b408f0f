"""Tournaments: an event of many matches in a server, round robin or Swiss, run by the bot over weeks.

The rules of the event live here; who plays whom is ``pairing.py`` and the points ``standings.py`` (both pure).
Every change is one compare-and-set on the event's version in the store: a round is stored with its matches
(started, clocks running) in one transaction, so whichever process advances the event, it advances once, and
a stop at any moment leaves either the whole round or none of it. Byes are rows of the round; a withdrawn
player's games are forfeited by resigning them, a move of each match's log (once: a match's version decides).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from games import GameError
from games import get as get_game
from render.standings import render_standings

from ..domain.errors import DamagedTournament, Refusal, TournamentPaused
from ..domain.model import MatchRow
from ..domain.outcome import Change, Outcome
from ..domain.replay import apply_logged, effective_moves, replay
from ..domain.seats import game_of, person_to_move, player_row
from ..domain.tournament import (
    FORMATS,
    LIVE_STATUSES,
    NewRound,
    TournamentGame,
    TournamentRow,
)
from .lobby import MAX_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE, parse_options
from .matches import MatchService
from .rounds import Rounds
from .standings import ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, Standing, standings

log = logging.getLogger(__name__)

DAY = 86400.0
MOST_LIVE_PER_ORGANIZER = 3  # open or running events one organizer may have in one server
MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 1, 12, 3
MIN_SIZE, MAX_SIZE = 2, 64
MAX_START_HOURS = 30 * 24
INACTIVE_DAYS = 30.0  # a player who lost on time and has not played a turn for this long is withdrawn
CHANGE_TRIES = 5  # a change that met another one (a join at the same instant) is read again and retried
STANDINGS_LEASE = 300.0  # seconds a process holds the posting of a round's standings before another may take it


@dataclass
class Standings:
    tournament: TournamentRow
    rows: list[Standing]
    tiebreaks: tuple[str, ...]
    games_left: int  # games of the current round (round robin: of the event) still being played
    after_round: int = 0  # the table as it stood when this round (Swiss) ended, later rounds left out; 0: as it stands
    through_round: int = 0  # the last round whose games count here: what a Share button shows again


@dataclass
class TournamentNews:
    """What one look at an event did, for the chat layer to tell: a round started, forfeits, the end."""

    tournament: TournamentRow
    round: int = 0  # the round that started (round robin: every round at once), 0 if none
    started: list[Outcome] = field(default_factory=list)  # the new matches, each to open in its thread
    byes: list[int] = field(default_factory=list)
    forfeits: list[Outcome] = field(default_factory=list)  # withdrawn players' games, resigned for them
    withdrawn: list[int] = field(default_factory=list)  # players withdrawn for inactivity before this round
    final: Standings | None = None  # the event is over: its final standings


class Tournaments:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store = service.store
        self.clock = service.clock
        self.rounds = Rounds(service)
        self._tending: dict[int, asyncio.Lock] = {}  # one look at an event at a time here (the store decides)

    # -- finding an event ------------------------------------------------------------------------

    async def get(self, tournament_id: int, guild_id: int | None = None) -> TournamentRow:
        tournament = await self._read(tournament_id)
        if tournament is None or (guild_id is not None and tournament.guild_id != guild_id):
            raise Refusal("no_tournament", tournament_id=tournament_id)
        return tournament

    async def _read(self, tournament_id: int) -> TournamentRow | None:
        """The event as stored (None if there is none); one whose rows cannot be used is set aside, once, and
        refused as paused (TournamentPaused), as a match is."""
        try:
            tournament = await self.store.get_tournament(tournament_id)
        except DamagedTournament as damaged:
            await self.set_aside(damaged.tournament_id, damaged.reason)
            raise TournamentPaused("tournament_paused", tournament_id=tournament_id) from None
        if tournament is None:
            return None
        problem = tournament.set_aside or self.unusable(tournament)
        if problem is not None:
            await self.set_aside(tournament.id, problem)
            raise TournamentPaused("tournament_paused", tournament_id=tournament.id)
        return tournament

    async def games(self, tournament: TournamentRow) -> list[TournamentGame]:
        """The event's games by round; rows that cannot be read set the event aside (TournamentPaused)."""
        try:
            return await self.store.tournament_games(tournament.id)
        except DamagedTournament as damaged:
            await self.set_aside(damaged.tournament_id, damaged.reason)
            raise TournamentPaused("tournament_paused", tournament_id=tournament.id) from None

    async def current(self, tournament_id: int) -> TournamentRow | None:
        """The event as stored now, or None when there is none or it is set aside (for the bot's own looks)."""
        try:
            return await self._read(tournament_id)
        except TournamentPaused:
            return None

    @staticmethod
    def unusable(tournament: TournamentRow) -> str | None:
        """Why a stored event that reads cannot be run (its game, its options, a value out of its range), or None."""
        try:
            info = get_game(tournament.game)
            info.resolve_options(tournament.options)
        except (GameError, TypeError, ValueError) as error:
            return f"its game or options cannot be used ({error})"
        if tournament.rounds < 0 or tournament.round < 0 or tournament.max_players < 2:
            return "its stored counts are out of range (rounds, round, max_players)"
        if tournament.days_per_move is not None and tournament.days_per_move <= 0:
            return "its stored time limit is not a positive number of days"
        return None

    # -- events set aside --------------------------------------------------------------------------

    async def set_aside(self, tournament_id: int, reason: str) -> bool:
        """Pause an event whose rows cannot be used (its organizer is told once, by the bot; its matches play
        on); True if it was not set aside before."""
        if not await self.store.set_tournament_aside(tournament_id, reason, self.clock.now()):
            return False
        log.error(
            "tournament %s set aside: %s; it is paused until repaired (its matches play on), other events are served",
            tournament_id,
            reason,
        )
        return True

    async def recheck_set_aside(self, keep: frozenset[int] = frozenset()) -> list[int]:
        """At start-up: put back in play each event set aside whose rows read again (an operator repaired them),
        except those in ``keep`` (a check of the storage still finds a fault in them). The ones still aside."""
        for tournament_id in await self.store.tournaments_set_aside():
            if tournament_id in keep:
                continue
            try:
                tournament = await self.store.get_tournament(tournament_id)
                if tournament is not None:
                    await self.store.tournament_games(tournament_id)
            except DamagedTournament:
                continue
            if tournament is None or self.unusable(tournament) is None:
                await self.store.release_tournament_aside(tournament_id)
                log.warning("tournament %s: its stored rows read again; back in play", tournament_id)
        return await self.store.tournaments_set_aside()

    async def aside_untold(self, lease: float = 300.0) -> list[tuple[int, int | None]]:
        """Events set aside whose organizer was not told yet, claimed (one process tells): (event, organizer)."""
        return await self.store.claim_tournaments_aside_untold(self.clock.lease_now(), lease)

    async def aside_told(self, tournament_id: int) -> None:
        await self.store.tournament_aside_told(tournament_id)

    async def aside_not_told(self, tournament_id: int) -> None:
        """Telling failed this time: the notice goes back for a later try."""
        await self.store.release_tournament_aside_notice(tournament_id)

    async def resolve(
        self, guild_id: int, tournament_id: int | None, statuses: tuple[str, ...], latest_finished: bool = False
    ) -> TournamentRow:
        """The event a command means: the one named, else the server's only one in ``statuses`` (with
        ``latest_finished``, when there is none, the one that finished last)."""
        if tournament_id is not None:
            return await self.get(tournament_id, guild_id)
        found = await self._of_guild(guild_id, statuses)
        if not found and latest_finished:
            found = (await self._of_guild(guild_id, ("finished",)))[-1:]
        if not found:
            raise Refusal("no_tournaments")
        if len(found) > 1:
            raise Refusal("which_tournament", ids=[t.id for t in found])
        return found[0]

    async def _of_guild(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]:
        """The server's events in ``statuses``; one whose rows cannot be read is set aside (the store lists
        no event set aside) and the list read again."""
        while True:
            try:
                return await self.store.tournaments_of_guild(guild_id, statuses)
            except DamagedTournament as damaged:
                if not await self.set_aside(damaged.tournament_id, damaged.reason):
                    raise  # set aside already, yet listed: a store fault, not one more event to set aside

    # -- before the start ------------------------------------------------------------------------

    async def create(
        self,
        *,
        organizer: int,
        guild_id: int,
        channel_id: int,
        game_id: str,
        fmt: str,
        rounds: int | None = None,
        days_per_move: float | None = None,
        max_players: int | None = None,
        start_in_hours: float | None = None,
        rated: bool = True,
        options_text: str | None = None,
    ) -> TournamentRow:
        try:
            info = get_game(game_id)
            options = info.resolve_options(parse_options(options_text))
        except GameError as error:
            raise Refusal("game_says", why=error) from None
        if fmt not in FORMATS:
            raise Refusal("tournament_format", formats=FORMATS)
        if fmt == "round-robin" and info.max_players > 2:
            raise Refusal("tournament_tables_swiss", game=info.name)
        if rounds is not None and fmt == "swiss" and not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
            raise Refusal("tournament_rounds", low=MIN_ROUNDS, high=MAX_ROUNDS)
        smallest = self.min_players(info.id)
        size = MAX_SIZE if max_players is None else max_players
        if not smallest <= size <= MAX_SIZE:
            raise Refusal("tournament_size", low=smallest, high=MAX_SIZE)
        if days_per_move is None:
            days_per_move = (await self.store.guild_settings(guild_id)).days_per_move
        days_per_move = days_per_move or None
        if days_per_move is not None and not MIN_DAYS_PER_MOVE <= days_per_move <= MAX_DAYS_PER_MOVE:
            raise Refusal("time_limit_range", low=MIN_DAYS_PER_MOVE, high=MAX_DAYS_PER_MOVE)
        if start_in_hours is not None and not 0 < start_in_hours <= MAX_START_HOURS:
            raise Refusal("tournament_start_hours", high=MAX_START_HOURS)
        now = self.clock.now()
        tournament_id = await self.store.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            organizer_id=organizer,
            game=info.id,
            options=options,
            fmt=fmt,
            rounds=(rounds or DEFAULT_ROUNDS) if fmt == "swiss" else 0,
            days_per_move=days_per_move,
            max_players=size,
            starts_at=None if start_in_hours is None else now + start_in_hours * 3600,
            rated=rated,
            now=now,
            most_live=MOST_LIVE_PER_ORGANIZER,
        )
        if tournament_id is None:
            raise Refusal("tournament_limit", most=MOST_LIVE_PER_ORGANIZER)
        return await self.get(tournament_id)

    @staticmethod
    def min_players(game_id: str) -> int:
        """Bide is played at tables of three or more; the others need two."""
        return 3 if get_game(game_id).max_players > 2 else 2

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self.store.set_tournament_message(tournament_id, message_id)

    async def join(self, tournament_id: int, guild_id: int, user: tuple[int, str]) -> TournamentRow:
        for _ in range(CHANGE_TRIES):
            tournament = await self.get(tournament_id, guild_id)
            self._check_open(tournament)
            if tournament.player(user[0]) is not None:
                raise Refusal("tournament_already_joined", tournament=tournament)
            if len(tournament.players) >= tournament.max_players:
                raise Refusal("tournament_full", tournament=tournament)
            now = self.clock.now()
            if await self.store.join_tournament(tournament.id, tournament.version, user[0], user[1], now):
                return await self.get(tournament.id)
        raise Refusal("changed_meanwhile")

    async def leave(self, tournament_id: int, guild_id: int, user_id: int) -> TournamentRow:
        for _ in range(CHANGE_TRIES):
            tournament = await self.get(tournament_id, guild_id)
            if tournament.status == "running":
                raise Refusal("tournament_leave_started", tournament=tournament)
            self._check_open(tournament)
            if tournament.player(user_id) is None:
                raise Refusal("tournament_not_joined", tournament=tournament)
            if await self.store.leave_tournament(tournament.id, tournament.version, user_id, self.clock.now()):
                return await self.get(tournament.id)
        raise Refusal("changed_meanwhile")

    @staticmethod
    def _check_open(tournament: TournamentRow) -> None:
        if tournament.status == "running":
            raise Refusal("tournament_started", tournament=tournament)
        if tournament.status != "open":
            raise Refusal("tournament_over", tournament=tournament)

    async def cancel(self, tournament_id: int, guild_id: int, user_id: int, manager: bool) -> TournamentRow:
        tournament = await self.get(tournament_id, guild_id)
        if user_id != tournament.organizer_id and not manager:
            raise Refusal("tournament_only_organizer_cancels", tournament=tournament)
        if tournament.status not in LIVE_STATUSES:
            raise Refusal("tournament_over", tournament=tournament)
        if not await self.store.end_tournament(tournament.id, tournament.version, "cancelled", self.clock.now()):
            raise Refusal("changed_meanwhile")
        return await self.get(tournament.id)

    # -- the start ---------------------------------------------------------------------------------

    async def start(self, tournament_id: int, guild_id: int, user_id: int) -> TournamentNews:
        tournament = await self.get(tournament_id, guild_id)
        if user_id != tournament.organizer_id:
            raise Refusal("tournament_only_organizer_starts", tournament=tournament)
        self._check_open(tournament)
        news = await self._start(tournament)
        if news is None:
            raise Refusal("changed_meanwhile")
        return news

    async def _start(self, tournament: TournamentRow) -> TournamentNews | None:
        """Pair the first round (round robin: every round) and start its matches; None if another change came first."""
        needed = self.min_players(tournament.game)
        if len(tournament.players) < needed:
            raise Refusal("tournament_too_few", tournament=tournament, needed=needed, joined=len(tournament.players))
        ratings = await self.store.ratings_of(
            tournament.guild_id, tournament.game, [p.user_id for p in tournament.players]
        )
        seeds = {p.user_id: (ratings[p.user_id].skill if p.user_id in ratings else 0.0) for p in tournament.players}
        for player in tournament.players:
            player.rating = seeds[player.user_id]
        if tournament.format == "round-robin":
            new = await self.rounds.round_robin(tournament)
        else:
            new = await self.rounds.swiss(tournament, 1, [], [])
            new.rounds = tournament.rounds
        new.seeds = seeds
        return await self._store(tournament, new)

    async def _store(self, tournament: TournamentRow, new: NewRound) -> TournamentNews | None:
        ids = await self.store_round(tournament, new)
        if ids is None:
            return None
        news = TournamentNews(await self.get(tournament.id), round=new.round, byes=[u for _, u in new.byes])
        for match_id in ids:
            match = await self.service.get(match_id)
            self.service.replayed.add(match_id)  # its position is the new game its empty log replays to
            self.service.events.changed(match)
            game = game_of(match)
            news.started.append(
                Outcome(match, game, (Change("started"),), mention_user_id=person_to_move(match, game), started=True)
            )
        return news

    async def store_round(self, tournament: TournamentRow, new: NewRound) -> list[int] | None:
        return await self.service.stored_or_refused(
            self.store.store_round(tournament.id, tournament.version, new, self.clock.now())
        )

    # -- Swiss rounds --------------------------------------------------------------------------------

    # -- tending an event: forfeits, the next round, the end ----------------------------------------

    async def tend(self, tournament_id: int) -> TournamentNews | None:
        """Whatever the event's state calls for now, done once: the scheduled start, the forfeits of withdrawn
        players, the withdrawal of the inactive, the next Swiss round once the last game of this one ended,
        the end. Any process may call it at any time (after a game ends, by a timer, at start-up)."""
        lock = self._tending.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            return await self._tend(tournament_id)

    async def _tend(self, tournament_id: int) -> TournamentNews | None:
        try:
            return await self._tend_readable(tournament_id)
        except TournamentPaused:  # set aside (now or before): nothing more is done in it
            return None

    async def _tend_readable(self, tournament_id: int) -> TournamentNews | None:
        tournament = await self._read(tournament_id)
        if tournament is None:
            return None
        now = self.clock.now()
        if tournament.status == "open":
            if tournament.starts_at is None or tournament.starts_at > now:
                return None
            if len(tournament.players) < self.min_players(tournament.game):  # nobody came: the event is called off
                if not await self.store.end_tournament(tournament.id, tournament.version, "cancelled", now):
                    return None  # another process decided first
                return TournamentNews(await self.get(tournament.id))
            return await self._start(tournament)
        if tournament.status == "finished":  # its podium may be untold (a stop came between): the desk claims it
            return TournamentNews(tournament, final=await self.standings(tournament.id, tournament.guild_id))
        if tournament.status != "running":
            return None
        news = TournamentNews(tournament)
        games = await self.games(tournament)
        matches = await self.rounds.matches(games)
        news.forfeits = await self._forfeit(tournament, matches)
        if news.forfeits:
            matches = await self.rounds.matches(games)
        current = [
            g for g in games if g.match_id is not None and (tournament.format != "swiss" or g.round == tournament.round)
        ]
        if any(matches[g.match_id].status == "active" for g in current if g.match_id in matches):
            return news
        results = await self.rounds.results(games, matches)
        if tournament.format == "swiss" and tournament.round < tournament.rounds:
            news.withdrawn = await self._withdraw_inactive(tournament, games, matches)
            if news.withdrawn:
                tournament = await self.get(tournament.id)
            if len(tournament.active_players) >= self.min_players(tournament.game):
                new = await self.rounds.swiss(tournament, tournament.round + 1, games, results)
                started = await self._store(tournament, new)
                if started is None:
                    return news  # another process advanced it first
                started.forfeits, started.withdrawn = news.forfeits, news.withdrawn
                return started
        if not await self.store.end_tournament(tournament.id, tournament.version, "finished", now):
            return news
        news.tournament = await self.get(tournament.id)
        news.final = await self.standings(tournament.id, tournament.guild_id)
        return news

    async def _forfeit(self, tournament: TournamentRow, matches: dict[int, MatchRow]) -> list[Outcome]:
        """Resign withdrawn players from the games they still sit in (each resignation a move: once)."""
        gone = {p.user_id for p in tournament.players if p.withdrawn}
        outcomes = []
        for match in matches.values():
            if match.status != "active":
                continue
            for seat in match.seats:
                if seat.user_id in gone and not seat.resigned:
                    try:
                        outcomes.append(await self.service.resign(match.id, seat.user_id))
                    except Refusal as refusal:  # over or resigned meanwhile (another process): nothing to do
                        log.info("tournament %s: no forfeit in match %s (%s)", tournament.id, match.id, refusal)
                    break
        return outcomes

    async def _withdraw_inactive(
        self, tournament: TournamentRow, games: list[TournamentGame], matches: dict[int, MatchRow]
    ) -> list[int]:
        """Players who lost a game of the event on time and have played no turn for INACTIVE_DAYS."""
        timed_out: set[int] = set()
        for game in games:
            match = matches.get(game.match_id or 0)
            if match is None or match.status != "finished":
                continue
            position = replay(match, [])
            for move in effective_moves(await self.store.moves(match.id)):
                if move.kind == "timeout":
                    timed_out.add(player_row(match, position, move.seat).user_id)
                apply_logged(position, move)
        now = self.clock.now()
        candidates = [p for p in tournament.active_players if p.user_id in timed_out]
        last = await self.store.last_turns([p.user_id for p in candidates])
        withdrawn = []
        for player in candidates:
            if max(last.get(player.user_id, 0.0), player.joined_at) < now - INACTIVE_DAYS * DAY:
                fresh = await self.get(tournament.id)
                if await self.store.withdraw_from_tournament(fresh.id, fresh.version, player.user_id, now):
                    withdrawn.append(player.user_id)
        return withdrawn

    # -- withdrawing ----------------------------------------------------------------------------------

    async def withdraw(self, tournament_id: int, guild_id: int, user_id: int) -> TournamentNews:
        """Leave a running event: its remaining games are forfeited, the played ones stand."""
        for _ in range(CHANGE_TRIES):
            tournament = await self.get(tournament_id, guild_id)
            if tournament.status == "open":
                raise Refusal("tournament_withdraw_before_start", tournament=tournament)
            if tournament.status != "running":
                raise Refusal("tournament_over", tournament=tournament)
            player = tournament.player(user_id)
            if player is None:
                raise Refusal("tournament_not_joined", tournament=tournament)
            if player.withdrawn:
                raise Refusal("tournament_already_withdrawn", tournament=tournament)
            if await self.store.withdraw_from_tournament(tournament.id, tournament.version, user_id, self.clock.now()):
                news = await self.tend(tournament.id)
                return news or TournamentNews(await self.get(tournament.id))
        raise Refusal("changed_meanwhile")

    async def picture(
        self, title: str, subtitle: str, headers: list[str], rows: list[list[str]], withdrawn: list[bool]
    ) -> bytes:
        """The standings table as a PNG, drawn off the event loop."""
        return await asyncio.to_thread(render_standings, title, subtitle, headers, rows, withdrawn)

    # -- standings --------------------------------------------------------------------------------------

    async def standings(self, tournament_id: int, guild_id: int, through_round: int | None = None) -> Standings:
        """The table as it stands, or (``through_round``) counting only the games of the rounds up to that one:
        once a later round has started, the table as it stood after that round."""
        tournament = await self.get(tournament_id, guild_id)
        through = tournament.round if through_round is None else max(0, min(through_round, tournament.round))
        games = [g for g in await self.games(tournament) if g.round <= through]
        matches = await self.rounds.matches(games)
        results = await self.rounds.results(games, matches)
        division_of: dict[int, int] = {}
        for game in games:
            match = matches.get(game.match_id or 0)
            for seat in match.seats if match is not None else ():
                division_of[seat.user_id] = game.division
        rows = standings(
            [(p.user_id, p.name, p.withdrawn) for p in tournament.players],
            results,
            [g.bye_user_id for g in games if g.bye_user_id is not None],
            tournament.format,
            division_of,
        )
        current = [g for g in games if tournament.format != "swiss" or g.round == tournament.round]
        left = sum(1 for g in current if g.match_id in matches and matches[g.match_id].status == "active")
        tiebreaks = SWISS_TIEBREAKS if tournament.format == "swiss" else ROUND_ROBIN_TIEBREAKS
        after = through if through < tournament.round else 0
        return Standings(tournament, rows, tiebreaks, left, after_round=after, through_round=through)

    async def claim_round_standings(self, tournament_id: int) -> Standings | None:
        """The standings after the last Swiss round that ended, when they are owed to the event's channel and
        this process claims their posting (for STANDINGS_LEASE seconds; ``round_standings_posted`` then records
        them, once across processes and restarts). None otherwise: not a running Swiss past its first round,
        posted already, or claimed by another process. The last round's table is the podium's."""
        tournament = await self.current(tournament_id)
        if tournament is None or not self.standings_owed(tournament):
            return None  # nothing owed (or posted already: no write at every look)
        ended = tournament.round - 1
        lease_now = self.clock.lease_now()
        if not await self.store.claim_tournament_standings(tournament.id, ended, lease_now, STANDINGS_LEASE):
            return None
        try:
            return await self.standings(tournament.id, tournament.guild_id, through_round=ended)
        except Exception:  # unreadable now: let the claim go for the next look (a cancellation lets its lease end)
            await self.round_standings_posted(tournament.id, ended, posted=False)
            raise

    @staticmethod
    def standings_owed(tournament: TournamentRow) -> bool:
        """Whether the standings after a Swiss round that ended are still to be posted (before the next round's
        notice: the channel reads in the order things happened)."""
        swiss = tournament.format == "swiss" and tournament.status == "running"
        return swiss and tournament.standings_told < tournament.round - 1

    async def round_standings_posted(self, tournament_id: int, round_number: int, posted: bool) -> None:
        """The claimed standings after ``round_number`` were posted (never again), or not (another look retries)."""
        await self.store.tournament_standings_posted(tournament_id, round_number, posted)
