"""Where puzzles come from: a position of a finished match where the mover missed a proven win, or any
position of the computer's games against itself.

:func:`try_position` is the one decision: a cheap filter (:func:`worth_proving`), then the game's exact,
bounded proof; a puzzle only when the proof found a goal reached by force with a unique first turn (and, for
a match, the turn played was not it). Everything else says why not (:class:`Attempt`), so the benchmark can
count what was kept and what was not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.begird import Begird
from games.bide import Bide
from games.bump import Bump
from games.hexgrid import distance
from games.interface import AnyGame
from games.playbai import PlayBai
from games.registry import load_state, new_game

from ..player import choose_turn
from ..review import GameReview
from ..turns import apply_turn
from . import bide as bide_puzzles
from .begird import MOST_TURNS as BEGIRD_TURNS
from .begird import BegirdTactics
from .budget import Meter, OverBudget, ProofBudget
from .bump import BumpTactics, centre_taken, saving_turns
from .difficulty import estimate
from .playbai import MOST_TURNS as PLAYBAI_TURNS
from .playbai import PlayBaiTactics
from .prover import NotUnique, Prover, SolutionNode
from .puzzle import Goal, Puzzle

#: What one candidate's proof may spend by default.
DEFAULT_BUDGET = ProofBudget()

Outcome = Literal["puzzle", "no win", "not unique", "not missed", "unknown", "filtered"]


@dataclass(frozen=True)
class Attempt:
    """What trying one position gave."""

    outcome: Outcome
    """``puzzle``; ``filtered`` (the cheap filter saw nothing to prove); ``no win`` (proven: no forced goal
    within the horizon, or no clear margin); ``not unique`` (two turns reach it, or two ways on after a best
    defence); ``not missed`` (the turn played was the solution); ``unknown`` (over budget)."""
    seconds: float
    """CPU seconds of the filter and the proof (the difficulty's quick searches not included)."""
    nodes: int
    puzzle: Puzzle | None = None


@dataclass(frozen=True)
class Proof:
    goal: Goal
    solution: SolutionNode


# -- the cheap filter ------------------------------------------------------------------------------

#: Begird: the mover's stones before a position is looked at (a win needs a group touching islands nine apart).
MIN_STONES = 3
#: Play Bai: the ball's distance to the nearest end zone the mover attacks, beyond which no forced goal is
#: looked for (a turn moves a playballer at most three steps, or further only by jumping over others).
PLAYBAI_REACH = 5


def worth_proving(game: AnyGame) -> bool:
    """A cheap look at whether ``game``'s position may hold a puzzle (never a proof: it only spares the
    prover positions where nothing is going on; docs/puzzles.md measures what it lets through and misses)."""
    seat = game.to_move
    if seat is None or game.turn_in_progress():
        return False
    if isinstance(game, Begird):
        # No cheaper look than the proof itself (a tenth of a second): a quiet stone that sets up a double
        # threat shows nothing a filter could see. Only the opening is passed over.
        return not game.swap_allowed() and sum(1 for v in game.cells if v == seat) >= MIN_STONES
    if isinstance(game, PlayBai):
        if game.scoring_turn() is not None:
            return True
        carrier = game.carrier()
        if carrier is not None and carrier != seat:
            return False
        cells = game.board.cells
        zones = game.field.zones[2 - seat]
        return min(distance(cells[game.ball], cells[z]) for z in zones) <= PLAYBAI_REACH
    if isinstance(game, Bide):
        return game.players == 2 and game.empty_count <= len(game.cells) // 4
    return isinstance(game, Bump)


# -- the proofs --------------------------------------------------------------------------------------


def prove(game: AnyGame, meter: Meter) -> Proof | Outcome:
    """The goal and solution tree of ``game``'s position, or why there is none (:class:`OverBudget` passes)."""
    seat = game.to_move
    assert seat is not None
    try:
        if isinstance(game, Begird):
            return _forced(Prover(BegirdTactics(seat), meter), game, BEGIRD_TURNS, "win")
        if isinstance(game, PlayBai):
            return _forced(Prover(PlayBaiTactics(seat, game), meter), game, PLAYBAI_TURNS, "goal")
        if isinstance(game, Bump):
            if centre_taken(game, seat):
                saves = saving_turns(game, meter, enough=2)
                if len(saves) != 1:
                    return "no win" if not saves else "not unique"
                return Proof(Goal("save", 1), SolutionNode(game.format_action(saves[0]), True))
            return _forced(Prover(BumpTactics(seat), meter), game, 1, "take")
        if isinstance(game, Bide):
            verdict = bide_puzzles.best_turn(game, meter)
            if verdict is None or verdict.lead is None or verdict.lead < bide_puzzles.MARGIN:
                return "no win"
            return Proof(Goal("points", 1, verdict.lead), SolutionNode(verdict.best.notation, True))
    except NotUnique:
        return "not unique"
    return "no win"


def _forced(
    prover: Prover[Any, Any], game: AnyGame, most: int, kind: Literal["win", "goal", "take"]
) -> Proof | Outcome:
    turns, winners = prover.shortest(game, most, limit=2)
    if not turns:
        return "no win"
    if len(winners) > 1:
        return "not unique"
    return Proof(Goal(kind, turns), prover.solution(game, turns, winners))


# -- one position, one game ----------------------------------------------------------------------------


def try_position(
    game: AnyGame, played: str | None = None, budget: ProofBudget = DEFAULT_BUDGET, *, filtered: bool = True
) -> Attempt:
    """Whether ``game``'s position (before the turn ``played``, if a player's turn is known) is a puzzle.

    With ``played``, the turn must have missed the solution (a puzzle is a win the player did not see).
    ``filtered``: ask :func:`worth_proving` first.
    """
    meter = Meter(budget)
    if game.is_over or game.to_move is None or (filtered and not worth_proving(game)):
        return Attempt("filtered", meter.seconds, 0)
    try:
        proof = prove(game, meter)
    except OverBudget:
        return Attempt("unknown", meter.seconds, meter.nodes)
    seconds, nodes = meter.seconds, meter.nodes
    if not isinstance(proof, Proof):
        return Attempt(proof, seconds, nodes)
    puzzle = Puzzle(
        game.info.id,
        game.to_json(),
        game.to_move,
        proof.goal,
        proof.solution,
        estimate(game, proof.solution.turn, proof.solution.depth),
    )
    if played is not None and puzzle.check(played).status != "wrong":
        return Attempt("not missed", seconds, nodes)
    return Attempt("puzzle", seconds, nodes, puzzle)


def find_puzzle(
    game_before_turn: AnyGame, played_turn: str | None, budget: ProofBudget = DEFAULT_BUDGET
) -> Puzzle | None:
    """The puzzle in ``game_before_turn`` that ``played_turn`` missed, if the proof finds one within ``budget``.

    No filter: the caller already chose the position (a review's drop).
    """
    return try_position(game_before_turn, played_turn, budget, filtered=False).puzzle


def find_puzzle_document(state: dict[str, Any], played: str) -> dict[str, Any] | None:
    """:func:`find_puzzle` over plain data, for a worker process: the position's state document and the turn
    played there in, the puzzle's document (or None) out; the cheap filter first, as for a whole game."""
    attempt = try_position(load_state(state), played)
    return None if attempt.puzzle is None else attempt.puzzle.to_json()


def review_turns(review: GameReview) -> list[int]:
    """The turns of a reviewed game worth trying: its turning points (each player's biggest drops)."""
    return list(review.turning_points)


def positions(start: AnyGame, moves: Sequence[str]) -> Iterable[tuple[int, AnyGame, str]]:
    """Each turn's index, the position before it, and the turn, replaying ``moves`` from ``start``."""
    game = start.copy()
    for index, move in enumerate(moves):
        if game.is_over:
            return
        yield index, game, move
        game = game.copy()
        game.play_turn(move)


def candidates_from_game(
    start: AnyGame,
    moves: Sequence[str],
    budget: ProofBudget = DEFAULT_BUDGET,
    turns: Iterable[int] | None = None,
    *,
    missed: bool = True,
) -> list[Puzzle]:
    """The puzzles of a whole game: each position (or only those before the turns ``turns``, e.g. a review's
    drops) is filtered cheaply, then proven. Each puzzle's source is ``{"turn": index}``; with ``missed``
    the turn played there must have missed the solution."""
    return [a.puzzle for a in attempts_from_game(start, moves, budget, turns, missed=missed) if a.puzzle is not None]


def attempts_from_game(
    start: AnyGame,
    moves: Sequence[str],
    budget: ProofBudget = DEFAULT_BUDGET,
    turns: Iterable[int] | None = None,
    *,
    missed: bool = True,
    filtered: bool = True,
) -> list[Attempt]:
    """:func:`candidates_from_game` with every attempt, kept or not (for the benchmark)."""
    wanted = None if turns is None else set(turns)
    out = []
    for index, game, move in positions(start, moves):
        if wanted is not None and index not in wanted:
            continue
        attempt = try_position(game, move if missed else None, budget, filtered=filtered)
        if attempt.puzzle is not None:
            attempt.puzzle.source["turn"] = index
        out.append(attempt)
    return out


# -- the computer against itself ---------------------------------------------------------------------------

SELF_PLAY_LEVEL = "easy"


def self_play_game(
    game_id: str, seed: int, level: str = SELF_PLAY_LEVEL, options: dict[str, Any] | None = None
) -> tuple[AnyGame, list[str]]:
    """A game of the computer at ``level`` against itself, from ``seed`` (two seats): its start and turns."""
    start = new_game(game_id, 2, options)
    game = start.copy()
    moves: list[str] = []
    most = game.info.max_turns
    while not game.is_over and (most is None or len(moves) < most):
        turn = choose_turn(game, level, seed=seed * 100_003 + len(moves)).turn
        moves.append(turn.notation)
        game = apply_turn(game.copy(), turn.actions)
    return start, moves


def self_play_candidates(
    game_id: str,
    seed: int,
    budget: ProofBudget = DEFAULT_BUDGET,
    level: str = SELF_PLAY_LEVEL,
    options: dict[str, Any] | None = None,
) -> list[Puzzle]:
    """The puzzles of one game of the computer against itself (whatever it played: a position is a puzzle
    for a person whether or not the computer found its answer). Each source is
    ``{"self_play": {"seed", "level"}, "turn": index}``."""
    start, moves = self_play_game(game_id, seed, level, options)
    puzzles = candidates_from_game(start, moves, budget, missed=False)
    for puzzle in puzzles:
        puzzle.source["self_play"] = {"seed": seed, "level": level, "options": dict(options or {})}
    return puzzles
