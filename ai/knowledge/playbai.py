"""Play Bai for the search: every turn's result judged at once, one turn looked ahead at the leaves.

Random Play Bai turns almost never score, so playouts say nothing: a position is estimated from the
goals and the set in play, as a chance to win the match (:func:`match_chance`): who holds the ball and
how close it is to the end zones it attacks gives the chance to score the set's goal, and the goals
scored say what that goal is worth (one goal is far from the game at 0–0, the game itself at 2–2).

A node is expanded at its first visit (``expand_after`` 0): the engine lists its turns' results
without their actions (:func:`games.playbaikeys.result_keys`), each result is estimated from its key
alone (the mover's cells and the ball: a few table look-ups), the children start from those values
(``initial_visits``) and the node's own value is its mover's best result — so a leaf whose mover can
score is seen to be one, and a turn that leaves the opponent a goal is seen at the first look at it.
The engine names a goal (``GOAL``) and the winning goal (``("win", …)``) among the results, so both are
known without playing them; a result is played by the engine's ``apply_result_quiet`` and only the
chosen turn's actions are looked up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from functools import cache
from typing import Any

from games.hexgrid import distance
from games.playbai import GOALS_TO_WIN, KEY_SHIFT, PlayBai, field
from games.playbaikeys import result_keys

from ..turns import Turn, returns_of
from .base import Expansion, GameKnowledge, SearchSettings

CELLS = (1 << KEY_SHIFT) - 1
#: The weight of a goal (or the winning goal) in the prior, against 1 to 4 for keeping the ball.
GOAL_WEIGHT = 60.0


@cache
def zone_distance(side: int, seat: int) -> tuple[int, ...]:
    """Per cell: hex distance to the nearest end zone ``seat`` attacks (the opponent's)."""
    fld = field(side)
    cells = fld.board.cells
    targets = [cells[i] for i in fld.zones[2 - seat]]
    return tuple(min(distance(c, t) for t in targets) for c in cells)


@cache
def _closeness(side: int, seat: int) -> tuple[float, ...]:
    """Per cell: 1 on an end zone ``seat`` attacks, 0 on the farthest cell."""
    dist = zone_distance(side, seat)
    far = max(dist) or 1
    return tuple(1 - d / far for d in dist)


def _wins(label: Any) -> bool:
    """Whether the engine's name for a turn's result is the winning goal (``("win", …)``)."""
    return type(label) is tuple and label[:1] == ("win",)


@cache
def _match_table(expert: bool) -> dict[tuple[int, int, int | None], float]:
    """Seat 1's chance to win from (goals of seat 1, goals of seat 2, last scorer), every later goal
    even: the race to three goals, or (expert) to two in a row."""
    table: dict[tuple[int, int, int | None], float] = {}
    if expert:  # only the last scorer matters: W1 = 1/2 + W2/2, W2 = W1/2
        for a in range(8):
            for b in range(8):
                table[(a, b, None)] = 0.5
                table[(a, b, 1)] = 2 / 3
                table[(a, b, 2)] = 1 / 3
        return table
    for a in range(GOALS_TO_WIN, -1, -1):
        for b in range(GOALS_TO_WIN, -1, -1):
            for last in (None, 1, 2):
                if a >= GOALS_TO_WIN:
                    table[(a, b, last)] = 1.0
                elif b >= GOALS_TO_WIN:
                    table[(a, b, last)] = 0.0
                else:
                    table[(a, b, last)] = 0.5 * table[(a + 1, b, 1)] + 0.5 * table[(a, b + 1, 2)]
    return table


def match_chance(goals: tuple[int, int] | list[int], last_goal: int | None, expert: bool, next_goal: float) -> float:
    """Seat 1's chance to win the match when it scores the set's goal with chance ``next_goal``."""
    table = _match_table(expert)
    a, b = goals
    if expert:
        first = 1.0 if last_goal == 1 else table[(a, b, 1)]
        second = 0.0 if last_goal == 2 else table[(a, b, 2)]
    else:
        first = table[(min(a + 1, GOALS_TO_WIN), b, 1)]
        second = table[(a, min(b + 1, GOALS_TO_WIN), 2)]
    return next_goal * first + (1 - next_goal) * second


#: How far the ball's place sways the chance to score the set's goal (a logistic's slope): the leaves look
#: one turn ahead, so a goal within reach is seen as one, and the ball's place is only a lean.
SET_SLOPE = 1.0


def set_chance(carrier: int | None, closeness: float, carrier_moves: bool) -> float:
    """Seat 1's chance to score the set's goal, from who holds the ball and how close it is to the zones
    it attacks (``closeness``, 0 to 1), and whether the carrier moves next (the hand-set lean, before
    :data:`SET_WEIGHTS`; ``PlayBaiKnowledge.fitted_set_chance`` False)."""
    if not carrier:
        return 0.5
    lead = SET_SLOPE * (0.3 + 1.0 * closeness + (0.8 * closeness if carrier_moves else 0.0))
    lead = lead if carrier == 1 else -lead
    return 1.0 / (1.0 + math.exp(-lead))


#: The fitted lean (``benchmarks/fit_playbai_eval.py``, a logistic fitted to who scored each set's goal from
#: the positions of recorded arena games): the carrier's log-odds are ``SET_WEIGHTS[0]`` plus
#: ``SET_WEIGHTS[1]`` times the ball's closeness to the zones it attacks, minus ``SET_WEIGHTS[2]`` when the
#: opponent moves next with a playballer next to the carrier: such a carrier lost its set's goal 310 times
#: of 328 (a jump over the carrier takes the ball, a bounce off the edge included). Whether the carrier moves
#: next weighed nothing once these were known; an opponent at distance 2 or 3 fitted the games better but
#: misjudged reach (a jump crosses a line of playballers in one move), so it is left out (docs/ai.md).
SET_WEIGHTS = (1.58, 1.10, 5.10)


def fitted_set_chance(
    carrier: int | None, closeness: float, threatened: bool, weights: tuple[float, ...] = SET_WEIGHTS
) -> float:
    """Seat 1's chance to score the set's goal by :data:`SET_WEIGHTS`; ``threatened``: an opponent stands
    next to the carrier and moves next."""
    if not carrier:
        return 0.5
    lead = weights[0] + weights[1] * closeness - (weights[2] if threatened else 0.0)
    lead = lead if carrier == 1 else -lead
    return 1.0 / (1.0 + math.exp(-lead))


@cache
def cell_distances(side: int) -> tuple[tuple[int, ...], ...]:
    """Hex distance between every two cells of the field of ``side``."""
    cells = field(side).board.cells
    return tuple(tuple(distance(a, b) for b in cells) for a in cells)


def next_to(distances: tuple[int, ...], opponents: list[int]) -> bool:
    """Whether one of ``opponents`` stands next to the carrier (``distances``: its row of
    :func:`cell_distances`)."""
    return any(distances[c] == 1 for c in opponents)


class PlayBaiKnowledge(GameKnowledge[PlayBai]):
    rollout_turns = 0  # static evaluation at the leaves (see the module's docstring)
    # the budget counts listed moves (simulation_moves): easy is the minimum (10 units) and medium 100, which beat
    # it 10 of 10 (at 0.09, 45 units: 6 of 10) for 0.11 s a turn (docs/ai.md, "What each level costs")
    simulation_scale = 0.2
    # share_expansions: every goal leads to the same set-up, so a search near a goal lists it again and again
    # (a defence against a run: 1,787 listings of 582 positions); listed once, the same budget buys 7 times the
    # simulations there (docs/ai.md, "Figures (issue 39)")
    settings = SearchSettings(
        c_puct=1.5, expand_after=0, initial_visits=1.0, simulation_moves=700, share_expansions=True
    )

    # Time by need: the first goal decides a match (its scorer won 68 of 78 recorded arena games, docs/ai.md),
    # so a search before it may be given more of the budget and one after it less (1 and 1: off).
    budget_before_first_goal = 1.0
    budget_after_first_goal = 1.0

    # The set's chance from the fitted lean (SET_WEIGHTS: the ball's place and an opponent next to the carrier)
    # rather than the hand-set one (set_chance); docs/ai.md, "Figures (issue 39)"
    fitted_set_chance = True

    # A post-game review's budget (docs/review.md, "Play Bai's review"): a quarter of the review's (100 simulations,
    # 20 units of listed moves). Its listings are a review's cost: so it stays within the old search's review's CPU
    # (64-92% of it on four games), nearer a 3,000-simulation search than the old review on all four
    review_share = 0.25
    # A review shows each position's value one turn ahead (its mover's best result as judge values it, exact where
    # the search proved it) rather than the mean over the turns tried, which is mostly the opponent's best replies:
    # on eight games 3.9 points from a 3,000-simulation search instead of 8.4, half the zig-zag around it
    # (docs/review.md, "One turn ahead")
    review_by_listing = True

    def simulation_share(self, game: PlayBai) -> float:
        return self.budget_after_first_goal if any(game.goals) else self.budget_before_first_goal

    def expand(self, game: PlayBai, rng: random.Random) -> Expansion:
        """The engine's distinct results, each valued for the mover from its key: no object per candidate,
        no actions (a node lists hundreds of results and plays few)."""
        keys = result_keys(game)
        if not keys:
            raise RuntimeError("playbai: no complete turn from a position that is not over")
        seat = game.to_move
        assert seat is not None
        # the goals are the only keys that are not ints: look at those alone (a node lists hundreds)
        win = next((key for key in keys if type(key) is not int and _wins(key)), None)
        if win is not None:
            return Expansion([win], solved=returns_of(self.play(game, win)))
        values, weights = self.judge(game, keys)
        best = max(values)
        value = (best, 1.0 - best) if seat == 1 else (1.0 - best, best)
        return Expansion(keys, weights, values=values, value=value)

    def judge(self, game: PlayBai, keys: list[Any]) -> tuple[list[float], list[float]]:
        """Per result key: the mover's chance to win after it (:func:`match_chance`) and its prior weight
        (a goal first, then keeping the ball near the zones it attacks)."""
        seat = game.to_move
        assert seat is not None
        other = 3 - seat
        side = game.options["side"]
        expert = game.options["expert"]
        goals = game.goals
        last = game.last_goal
        near_mine = _closeness(side, seat)
        near_theirs = _closeness(side, other)
        fitted = self.fitted_set_chance
        distances = cell_distances(side)
        cells = game.seat_of
        # the mover's turn moves none of the opponent's playballers: their cells are known before the keys
        opponents = [c for c, s in enumerate(cells) if s == other]

        def mine(chance: float) -> float:  # seat 1's chance to win -> the mover's
            return chance if seat == 1 else 1.0 - chance

        scored = list(goals)
        scored[seat - 1] += 1
        after_goal = mine(match_chance(scored, seat, expert, 0.5))  # a new set, even
        # after an ordinary turn the opponent moves: held by the mover, by the opponent, or loose
        held_mine: dict[int, float] = {}
        held_theirs: dict[int, float] = {}
        loose = mine(match_chance(goals, last, expert, 0.5))
        values: list[float] = []
        weights: list[float] = []
        for key in keys:
            if type(key) is not int:
                values.append(1.0 if _wins(key) else after_goal)
                weights.append(GOAL_WEIGHT)
                continue
            ball = key >> KEY_SHIFT
            if key >> ball & 1:
                v = held_mine.get(ball)
                if v is None:
                    if fitted:
                        chance = fitted_set_chance(seat, near_mine[ball], next_to(distances[ball], opponents))
                    else:
                        chance = set_chance(seat, near_mine[ball], False)
                    v = held_mine[ball] = mine(match_chance(goals, last, expert, chance))
                values.append(v)
                weights.append(1.0 + 3.0 * near_mine[ball])
            elif cells[ball] == other:
                v = held_theirs.get(ball)
                if v is None:
                    if fitted:
                        chance = fitted_set_chance(other, near_theirs[ball], False)
                    else:
                        chance = set_chance(other, near_theirs[ball], True)
                    v = held_theirs[ball] = mine(match_chance(goals, last, expert, chance))
                values.append(v)
                weights.append(0.6)
            else:
                values.append(loose)
                weights.append(0.6)
        return values, weights

    def key(self, game: PlayBai) -> Hashable:
        """Everything a turn's listing and its values depend on: the cells, the ball, the mover, whether it
        kicks off, the goals and who scored last (a faster :func:`ai.turns.position_key`)."""
        return (bytes(game.seat_of), game.ball, game.to_move, game.kickoff, tuple(game.goals), game.last_goal)

    def play(self, game: PlayBai, move: Any) -> PlayBai:
        after = game.copy()
        after.apply_result_quiet(move)
        return after

    def turn_of(self, game: PlayBai, move: Any) -> Turn[PlayBai]:
        return Turn(tuple(game.turn_results()[move]), game, label=move)

    def winning_turn(self, game: PlayBai, turns: list[Turn[PlayBai]]) -> Turn[PlayBai] | None:
        return next((t for t in turns if _wins(t.label)), None)

    def prior(self, game: PlayBai, turns: list[Turn[PlayBai]]) -> list[float]:
        return self.judge(game, [t.label for t in turns])[1]

    def estimate(self, game: PlayBai) -> tuple[float, ...]:
        carrier = game.carrier()
        side = game.options["side"]
        closeness = _closeness(side, carrier)[game.ball] if carrier else 0.0
        if not self.fitted_set_chance:
            chance = set_chance(carrier, closeness, game.to_move == carrier)
        elif carrier and game.to_move != carrier:
            opponents = [c for c, s in enumerate(game.seat_of) if s == 3 - carrier]
            chance = fitted_set_chance(carrier, closeness, next_to(cell_distances(side)[game.ball], opponents))
        else:
            chance = fitted_set_chance(carrier, closeness, False)
        v = match_chance(game.goals, game.last_goal, game.options["expert"], chance)
        return (v, 1.0 - v)

    def evaluate(self, game: PlayBai, rng: random.Random) -> tuple[float, ...]:
        if game.is_over:
            return super().evaluate(game, rng)
        return self.estimate(game)
