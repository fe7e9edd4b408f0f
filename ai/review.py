"""A finished game seen by the search, turn by turn: winning chances, mistakes, accuracy (docs/review.md).

Two steps, so that a caller can spread the work (one position per task of a process pool, a progress
report between two):

1. :func:`assess` searches one position at the review budget: each player's winning chance (the mean
   result of the simulations through the turns not proven to lose, or for a game whose knowledge says so
   (``review_by_listing``: Play Bai) the search's value of the position as a leaf; exact when the search
   solved it) and
   the search's preferred turn, and whether the turn actually played leads to the same position.
2. :func:`judge` puts the positions of a game together: each turn's drop in the mover's winning chance,
   its label on Lichess's thresholds, each player's accuracy (:mod:`ai.accuracy`), and the turning points.

No sigmoid and no made-up figure: every chance is a search's (or a finished game's) result.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.interface import AnyGame

from .accuracy import player_accuracy, turn_accuracy, volatility_weights
from .knowledge import knowledge_for
from .search import Budget, search
from .turns import by_player, position_key, returns_of


@dataclass(frozen=True)
class ReviewBudget(Budget):
    """The search spent on each position of a review (a :class:`~ai.search.Budget` with the review's defaults)."""

    simulations: int = 400
    """Before the game's ``simulation_scale`` (as a level's are); the search may stop sooner once settled."""
    seconds: float | None = 0.4
    """CPU cap per position: 61 positions of a 60-turn game stay under 30 s (benchmarks/bench_review.py)."""


REVIEW_BUDGET = ReviewBudget()

# Lichess's thresholds on winning chances −1..1 (0.1, 0.2, 0.3) are these drops of a winning percentage.
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
MISTAKES_PER_PLAYER = 3


@dataclass(frozen=True)
class PositionView:
    """What one search says of a position."""

    chances: tuple[float, ...]
    """Each player's winning chance (0..1, by player, summing to 1); () when the turn was forced (the
    search had nothing to choose: the position is worth what the next one is)."""
    best: str | None
    """The search's preferred turn in notation; None when the game is over."""
    best_is_played: bool
    """Whether the turn played here leads to the position the preferred turn does."""
    seconds: float
    """CPU seconds the search took."""


def assess(game: AnyGame, played: str | None, budget: ReviewBudget = REVIEW_BUDGET, seed: int = 0) -> PositionView:
    """Search ``game`` (the position before the turn ``played``, if one was) at ``budget``."""
    start = time.process_time()
    if game.is_over:
        chances = by_player(game, returns_of(game))
        return PositionView(chances, None, False, time.process_time() - start)
    know = knowledge_for(game)
    if know.review_share != 1.0:
        budget = replace(budget, simulations=max(1, round(budget.simulations * know.review_share)))
    result = search(game, budget, seed, know)
    values = result.position_values
    if know.review_by_listing and result.listing_values:
        # the mover's best result one turn ahead rather than the mean over the turns tried: where hundreds of
        # turns are each tried about once, that mean is their opponent's best replies and leans towards the
        # player not to move (docs/review.md, "Play Bai's review"); a solved or forced position keeps its
        # exact or empty value (it has no listing values)
        values = result.listing_values
    best = result.turn
    same = False
    if played is not None:
        after = game.copy()
        after.play_turn(played)
        same = position_key(after) == position_key(best.result(game))
    return PositionView(_normalised(values), best.notation, same, time.process_time() - start)


def _normalised(values: tuple[float, ...]) -> tuple[float, ...]:
    total = sum(values)
    return tuple(v / total for v in values) if total > 0 else values


@dataclass(frozen=True)
class TurnReview:
    """One turn of the game as the review judges it."""

    index: int
    """The turn's place in the game (0: the first turn; position ``index`` is the one before it)."""
    player: int
    played: str
    best: str | None
    before: float
    """The mover's winning chance before the turn, with the search's best play."""
    after: float
    """The mover's winning chance after the turn played (equal to ``before`` when it was the search's turn)."""

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def label(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy`` (Lichess's thresholds), or None."""
        for name, threshold in (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY)):
            if self.drop >= threshold - 1e-9:
                return name
        return None


@dataclass(frozen=True)
class GameReview:
    players: int
    chances: list[tuple[float, ...]]
    """Each position's winning chances by player (position 0 the start, position k after k turns)."""
    turns: list[TurnReview]
    accuracy: dict[int, float]
    """Each player's accuracy (0..100), for the players who played a turn."""
    turning_points: list[int]
    """Indices of the turns shown as turning points: each player's biggest drops, in the game's order."""


def chances_filled(views: Sequence[PositionView], players: int) -> list[tuple[float, ...]]:
    """Each position's chances; a forced turn's position takes the next one's (the last: an even share)."""
    filled: list[tuple[float, ...]] = [()] * len(views)
    following: tuple[float, ...] = tuple(1.0 / players for _ in range(players))
    for k in range(len(views) - 1, -1, -1):
        following = views[k].chances or following
        filled[k] = following
    return filled


def chances_shown(views: Sequence[PositionView], movers: Sequence[int], players: int) -> list[tuple[float, ...]]:
    """Each position's chances as the review shows them: :func:`chances_filled`, then, from the last position
    back, a position whose mover has a lower chance than after the turn they played takes the next position's
    chances. The turn played is one of the mover's choices, so the position is worth at least what it led to
    (minimax's bound): a search that underrated it (a short search leans towards the player not to move)
    does not show the mover worse off before a turn than after it.

    Only where the next position is the one the turn led to: in a two-player game, and never from the last
    position, which may follow a resignation, an agreed draw or a time-out (applied after the last turn;
    with more players a resignation may come between any two turns)."""
    chances = chances_filled(views, players)
    if players != 2:
        return chances
    for k in range(len(movers) - 2, -1, -1):
        mover = movers[k] - 1
        if chances[k + 1][mover] > chances[k][mover]:
            chances[k] = chances[k + 1]
    return chances


def judge(views: Sequence[PositionView], played: Sequence[str], movers: Sequence[int], players: int) -> GameReview:
    """The review of a game from its positions' views (one more than the turns ``played`` by ``movers``)."""
    return verdicts(chances_shown(views, movers, players), views, played, movers, players)


def verdicts(
    chances: list[tuple[float, ...]],
    views: Sequence[PositionView],
    played: Sequence[str],
    movers: Sequence[int],
    players: int,
) -> GameReview:
    """The review of a game whose positions show ``chances`` (:func:`judge`: :func:`chances_shown`)."""
    assert len(views) == len(chances) == len(played) + 1 == len(movers) + 1
    turns = []
    for k, (notation, player) in enumerate(zip(played, movers, strict=True)):
        before = chances[k][player - 1]
        after = before if views[k].best_is_played else chances[k + 1][player - 1]
        turns.append(TurnReview(k, player, notation, views[k].best, before, after))
    accuracy: dict[int, float] = {}
    points: list[int] = []
    for player in range(1, players + 1):
        own = [t for t in turns if t.player == player]
        weights = volatility_weights([100 * c[player - 1] for c in chances])
        figure = player_accuracy(
            [turn_accuracy(100 * t.before, 100 * t.after) for t in own], [weights[t.index] for t in own]
        )
        if figure is not None:
            accuracy[player] = figure
        worst = sorted((t for t in own if t.label is not None), key=lambda t: (-t.drop, t.index))
        points += [t.index for t in worst[:MISTAKES_PER_PLAYER]]
    return GameReview(players, chances, turns, accuracy, sorted(points))
