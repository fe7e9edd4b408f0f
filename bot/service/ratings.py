"""Ratings and the leaderboard: OpenSkill (Plackett-Luce) per server and game.

OpenSkill rather than Glicko-2: Bide seats two to six players, and
Plackett-Luce rates a free-for-all from its ranking directly, where Glicko-2
only knows pairs. Each finished match is settled once (``rated_matches``),
right after it ends and again at start-up for any the bot missed, so a
crash between the last move and the rating never loses or doubles it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games import GameError
from games import get as get_game

from ..domain.errors import Refusal
from ..domain.model import MatchRow, RatingRow
from ..domain.replay import apply_logged, effective_moves, replay
from ..domain.seats import game_of, player_row
from .matches import MatchService
from .rating_rules import unrated_reason

log = logging.getLogger(__name__)

# Settling retries this often when the players' ratings change between its read and its write.
SETTLE_TRIES = 5


@dataclass
class Profile:
    """A player's standing in a server: (rating, rank or None, of how many) per game, and matches in play."""

    user_id: int
    ratings: list[tuple[RatingRow, int | None, int]]
    playing: list[MatchRow]


class Ratings:
    def __init__(self, service: MatchService, computer_ids: set[int] | None = None) -> None:
        self.service = service
        self.store = service.store
        self.model = PlackettLuce()
        self.computer_ids = computer_ids if computer_ids is not None else set()  # computer players: never rated

    # -- settling a finished match -------------------------------------------------------

    async def settle(self, match: MatchRow) -> bool:
        """Rate a finished match (once); returns whether it counted.

        The new ratings are computed from the players' ratings as read, and stored only if those are still
        the same (a compare-and-set on each player's games count): two matches of the same players ending
        at once, in one process or two, each settle on the other's result instead of overwriting it.
        """
        if match.status != "finished":
            return False
        counted = await self._counts(match)
        for _ in range(SETTLE_TRIES):
            current = await self._current(match) if counted else {}
            read_games = (
                {s.user_id: (current[s.user_id].games if s.user_id in current else None) for s in match.seats}
                if counted
                else {}
            )  # before the rows are updated in place
            rows = self._rated_rows(match, current, await self._leaving_order(match)) if counted else []
            settled = await self.store.settle_rating(match.id, counted, rows, self.service.clock.now(), read_games)
            if settled != "stale":
                return settled == "settled" and counted
        log.warning("match %s: its rating kept changing under it; it is settled at the next start-up", match.id)
        return False

    async def catch_up(self) -> int:
        """Settle finished matches the bot stopped before rating."""
        done = 0
        for match_id in await self.store.unrated_finished_ids():
            done += bool(await self.service.for_one_match(match_id, self._catch_up(match_id)))
        return done

    async def _catch_up(self, match_id: int) -> bool:
        match = await self.store.get_match(match_id)
        return match is not None and await self.service.usable(match) and await self.settle(match)

    async def _counts(self, match: MatchRow) -> bool:
        """Rated matches between people that got past their first turn (an earlier end is an abort, and its result
        says so: :func:`rating_rules.unrated_reason`)."""
        if not match.rated or any(s.is_computer or s.user_id in self.computer_ids for s in match.seats):
            return False
        return unrated_reason(match, await self.store.moves(match.id)) is None

    async def _current(self, match: MatchRow) -> dict[int, RatingRow]:
        return await self.store.ratings_of(match.guild_id, match.game, [s.user_id for s in match.seats])

    def _rated_rows(self, match: MatchRow, current: dict[int, RatingRow], leavers: list[int]) -> list[RatingRow]:
        game = game_of(match)
        winners = {player_row(match, game, seat).user_id for seat in game.winners}
        seats = sorted(match.seats, key=lambda s: s.seat)
        rows = [
            current.get(s.user_id)
            or RatingRow(match.guild_id, match.game, s.user_id, s.name, self.model.mu, self.model.sigma)
            for s in seats
        ]
        # winners first; then those still playing at the end; then those who resigned or ran out of
        # time, the later to leave the better
        ranks: list[float] = []
        for s in seats:
            if s.user_id in winners or not winners:
                ranks.append(1)
            elif s.user_id in leavers:
                ranks.append(2 + len(leavers) - leavers.index(s.user_id))
            else:
                ranks.append(2)
        teams = [[self.model.create_rating([r.mu, r.sigma], name=str(r.user_id))] for r in rows]
        updated = self.model.rate(teams, ranks=ranks)
        for row, seat, (new,) in zip(rows, seats, updated, strict=True):
            row.name = seat.name
            row.mu, row.sigma = float(new.mu), float(new.sigma)
            row.games += 1
            if not winners:
                row.draws += 1
            elif seat.user_id in winners:
                row.wins += 1
            else:
                row.losses += 1
        return rows

    async def _leaving_order(self, match: MatchRow) -> list[int]:
        """Players who resigned or ran out of time, first to leave first (replayed: a swap moves seats)."""
        game = replay(match, [])
        order = []
        for move in effective_moves(await self.store.moves(match.id)):
            if move.kind in ("resign", "timeout"):
                order.append(player_row(match, game, move.seat).user_id)
            apply_logged(game, move)
        return order

    # -- reading ---------------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, game_id: str) -> tuple[str, list[RatingRow]]:
        """(the game's name, everyone rated in this server's game, best first)."""
        try:
            info = get_game(game_id)
        except GameError as error:
            raise Refusal("game_says", why=error) from None
        return info.name, leaderboard_order(await self.store.leaderboard(guild_id, info.id))

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        rows = await self.store.ratings_of_user(guild_id, user_id)
        ranked = []
        for row in rows:
            board = leaderboard_order(await self.store.leaderboard(guild_id, row.game))
            rank = next((i for i, r in enumerate(board, start=1) if r.user_id == user_id), None)
            ranked.append((row, rank, len(board)))
        current = await self.service.usable_only(await self.store.matches_of_user(user_id, guild_id, ("active",)))
        return Profile(user_id, ranked, current)


def leaderboard_order(board: list[RatingRow]) -> list[RatingRow]:
    """Settled ratings first, then provisional ones (a lucky first win does not top the board), each by
    the rating shown, best first; ties keep the store's order (the conservative skill)."""
    return sorted(board, key=lambda row: (row.provisional, -row.rating))
