"""A tournament's rounds as data: who sits where (from ``pairing.py``), each table's first position, clock and
reminder ready to store, and what the finished games gave (points by placement, for ``standings.py``).

Nothing here stores: ``tournaments.py`` stores a round in one compare-and-set and decides when.
"""

from __future__ import annotations

import logging
import math

from games import get as get_game

from ..domain.model import MatchRow, SeatRow
from ..domain.replay import apply_logged, effective_moves, replay
from ..domain.seats import game_of, player_row
from ..domain.tournament import NewRound, NewTable, TournamentGame, TournamentPlayer, TournamentRow
from ..store.matches import MatchStore
from .matches import MatchService
from .pairing import Entrant, berger_rounds, bide_tables, divisions, swiss_round
from .standings import GameResult, placement_points, standings

log = logging.getLogger(__name__)


class Rounds:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store: MatchStore = service.store
        self.clock = service.clock

    async def round_robin(self, tournament: TournamentRow) -> NewRound:
        """Every round at once: Berger tables within each rating-seeded division."""
        seeded = [p.user_id for p in self.by_seed(tournament)]
        tables, rounds = [], 0
        for number, group in enumerate(divisions(seeded), start=1):
            schedule = berger_rounds(group)
            rounds = max(rounds, len(schedule))
            for r, games in enumerate(schedule, start=1):
                for board, pair in enumerate(games, start=1):
                    tables.append(await self.table(tournament, r, board + 100 * (number - 1), number, list(pair)))
        return NewRound(round=rounds, tables=tables, byes=[], rounds=rounds)

    @staticmethod
    def by_seed(tournament: TournamentRow) -> list[TournamentPlayer]:
        """Strongest first by the rating read at the start; then who joined first."""
        return sorted(tournament.players, key=lambda p: (-(p.rating or 0.0), p.joined_at, p.user_id))

    async def table(
        self, tournament: TournamentRow, round_number: int, board: int, division: int, user_ids: list[int]
    ) -> NewTable:
        """A table ready to store: seats in first-move order, the new position, its first reminder and deadline."""
        names = {p.user_id: p.name for p in tournament.players}
        seats = [SeatRow(i + 1, uid, names[uid]) for i, uid in enumerate(user_ids)]
        game = get_game(tournament.game).new(len(seats), tournament.options)
        now = self.clock.now()
        draft = MatchRow(
            id=0,
            game=tournament.game,
            options=tournament.options,
            players=len(seats),
            guild_id=tournament.guild_id,
            channel_id=tournament.channel_id,
            thread_id=None,
            lobby_message_id=None,
            board_channel_id=None,
            board_message_id=None,
            creator_id=tournament.organizer_id,
            status="active",
            state=None,
            version=1,
            created_at=now,
            updated_at=now,
            turn_started_at=now,
            result=None,
            seats=seats,
            days_per_move=tournament.days_per_move,
            rated=tournament.rated,
        )
        return NewTable(
            round=round_number,
            board=board,
            division=division,
            seats=seats,
            state=game.to_json(),
            reminder=self.service.schedule.reminder_for(draft, game),
            deadline_at=await self.service.schedule.deadline_for(draft, game, now),
        )

    async def swiss(
        self, tournament: TournamentRow, number: int, games: list[TournamentGame], results: list[GameResult]
    ) -> NewRound:
        """Round ``number`` of a Swiss among the players still in: pairs and a bye (two-seat games, as a
        maximum-weight matching) or tables of 3–4 (Bide), from the standings and meetings so far."""
        active = tournament.active_players
        table = standings(
            [(p.user_id, p.name, p.withdrawn) for p in tournament.players],
            results,
            [g.bye_user_id for g in games if g.bye_user_id is not None],
            tournament.format,
        )
        points = {row.user_id: row.points for row in table}
        seed_rank = {p.user_id: i for i, p in enumerate(self.by_seed(tournament))}
        ordered = sorted(active, key=lambda p: (-points.get(p.user_id, 0.0), seed_rank[p.user_id]))
        opponents: dict[int, set[int]] = {p.user_id: set() for p in tournament.players}
        balance = dict.fromkeys(opponents, 0)
        met: dict[frozenset[int], int] = {}
        for result in results:
            for uid in result.players:
                opponents[uid].update(o for o in result.players if o != uid)
            for i, a in enumerate(result.players):
                for b in result.players[i + 1 :]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            balance[result.players[0]] += 1
            if len(result.players) == 2:
                balance[result.players[1]] -= 1
        byes = {p.user_id: sum(g.bye_user_id == p.user_id for g in games) for p in tournament.players}
        entrants = [
            Entrant(
                p.user_id,
                points.get(p.user_id, 0.0),
                rank,
                frozenset(opponents[p.user_id]),
                balance[p.user_id],
                byes[p.user_id],
            )
            for rank, p in enumerate(ordered)
        ]
        tables: list[NewTable] = []
        bye: list[tuple[int, int]] = []
        if get_game(tournament.game).max_players > 2:
            for board, seated in enumerate(bide_tables(entrants, met), start=1):
                tables.append(await self.table(tournament, number, board, 1, seated))
        else:
            paired = swiss_round(entrants, number)
            if paired.relaxed:
                log.info("tournament %s round %s: relaxed %s", tournament.id, number, ", ".join(paired.relaxed))
            for board, pair in enumerate(paired.pairs, start=1):
                tables.append(await self.table(tournament, number, board, 1, list(pair)))
            if paired.bye is not None:
                bye.append((number, paired.bye))
        return NewRound(round=number, tables=tables, byes=bye)

    async def matches(self, games: list[TournamentGame]) -> dict[int, MatchRow]:
        """The event's matches as stored now, by id."""
        found = {}
        for game in games:
            if game.match_id is not None:
                match = await self.store.get_match(game.match_id)
                if match is not None:
                    found[game.match_id] = match
        return found

    async def results(self, games: list[TournamentGame], matches: dict[int, MatchRow]) -> list[GameResult]:
        """The finished games' points, players in first-move order."""
        results = []
        for game in games:
            match = matches.get(game.match_id or 0)
            if match is not None and match.status == "finished" and match.state is not None:
                seated = tuple(s.user_id for s in sorted(match.seats, key=lambda s: s.seat))
                results.append(GameResult(game.round, seated, await self.points(match)))
        return results

    async def points(self, match: MatchRow) -> dict[int, float]:
        """Points by placement: the winners first, then those still playing at the end (by score, when the game
        keeps one), then those who resigned or ran out of time, the later to leave the better."""
        game = game_of(match)
        holder = {seat: player_row(match, game, seat).user_id for seat in range(1, game.players + 1)}
        winners = [holder[s] for s in game.winners]
        position = replay(match, [])
        leavers: list[int] = []
        for move in effective_moves(await self.store.moves(match.id)):
            if move.kind in ("resign", "timeout"):
                leavers.append(player_row(match, position, move.seat).user_id)
            apply_logged(position, move)
        scores = game.scores()
        stayed = [holder[s] for s in holder if holder[s] not in winners and holder[s] not in leavers]
        order: list[list[int]] = [winners] if winners else []
        by_score: dict[float, list[int]] = {}
        for seat, uid in holder.items():
            if uid in stayed:
                key = scores[seat - 1] if scores is not None and winners else 0.0
                by_score.setdefault(-key if not math.isnan(key) else 0.0, []).append(uid)
        order += [by_score[k] for k in sorted(by_score)]
        order += [[uid] for uid in reversed(leavers) if uid not in winners]
        return placement_points([group for group in order if group])
