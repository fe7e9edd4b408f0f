"""A puzzle as data: the position, who is to move, what to find, the solution tree, a difficulty; and the
check of a player's answer.

A puzzle is JSON (:meth:`Puzzle.to_json`, versioned by :data:`PUZZLE_FORMAT`), so the bot can store it and
read it back in another process or release (:meth:`Puzzle.from_json` refuses a document it cannot trust,
with a reason). Nothing here is worded for players: the goal is data (``{"kind": "win", "turns": 2}``) and
the bot says it in the player's language.

Answers are judged by the position they lead to, not by their spelling: a Play Bai turn written in another
order, or a Bump move whose bump choices are left to their defaults, is the same answer when it reaches the
same position. At the last turn of a solution every turn that reaches the goal at once is right (as any
mate is): Begird's other winning cell, Play Bai's other way to score, Bump's other piece onto the centre
that cannot be moved off. Before it, only the solution's turn is (it is the only one that wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from games.bump import Bump
from games.interface import AnyGame, GameError
from games.playbai import PlayBai
from games.registry import load_state

from ..turns import position_key
from .budget import Meter, OverBudget, ProofBudget
from .bump import BumpTactics
from .prover import Prover, SolutionNode

#: The version of :meth:`Puzzle.to_json`'s document.
PUZZLE_FORMAT = 1

GoalKind = Literal["win", "goal", "take", "save", "points"]
GOAL_KINDS: tuple[GoalKind, ...] = ("win", "goal", "take", "save", "points")
GAME_GOALS: dict[str, tuple[GoalKind, ...]] = {
    "begird": ("win",),
    "playbai": ("goal",),
    "bump": ("take", "save"),
    "bide": ("points",),
}
#: The budget of the re-proof a Bump answer other than the solution's gets (every reply to it, once).
CHECK_BUDGET = ProofBudget(nodes=5_000, seconds=2.0)


@dataclass(frozen=True)
class Goal:
    """What the player is asked to find."""

    kind: GoalKind
    """``win`` (Begird: win in ``turns``), ``goal`` (Play Bai: score within ``turns``), ``take`` (Bump: put a
    piece on the opponent's centre that no reply can move off), ``save`` (Bump: the only turn that clears
    your centre and leaves no such take), ``points`` (Bide: the turn leaving you furthest ahead after the
    best reply, by at least ``margin`` more than any other)."""
    turns: int
    """The player's turns in the solution, along the longest defence."""
    margin: int | None = None
    """``points`` only: how far the best turn's value is ahead of the next best's."""

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": self.kind, "turns": self.turns}
        if self.margin is not None:
            doc["margin"] = self.margin
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Goal:
        if not isinstance(doc, dict) or doc.get("kind") not in GOAL_KINDS:
            raise ValueError(f"a goal's kind is one of {', '.join(GOAL_KINDS)}")
        turns, margin = doc.get("turns"), doc.get("margin")
        if not _count(turns) or turns < 1:
            raise ValueError("a goal's turns is a whole number from 1")
        if (margin is None) != (doc["kind"] != "points") or (margin is not None and not _count(margin)):
            raise ValueError("a points goal has a margin (a whole number), and only it")
        return cls(doc["kind"], turns, margin)


@dataclass(frozen=True)
class Difficulty:
    """How hard the puzzle looks, and the rating it starts with (:mod:`ai.puzzles.difficulty`)."""

    rating: int
    depth: int
    """The player's turns along the longest defence."""
    legal_turns: int
    """The distinct turns the player can choose from at the start."""
    plausible: int
    """The solution's rank among those turns by the computer's first impression (its prior): 1 when it is
    the turn that looks best at a glance."""
    found: float
    """The share of quick searches (the easy computer, several seeds) that play the solution."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "depth": self.depth,
            "legal_turns": self.legal_turns,
            "plausible": self.plausible,
            "found": self.found,
        }

    @classmethod
    def from_json(cls, doc: Any) -> Difficulty:
        if not isinstance(doc, dict):
            raise ValueError("a difficulty is an object")
        rating, depth, legal, plausible = (doc.get(k) for k in ("rating", "depth", "legal_turns", "plausible"))
        found = doc.get("found")
        if not (_count(rating) and _count(depth) and _count(legal) and _count(plausible)):
            raise ValueError("a difficulty has a rating, depth, legal_turns and plausible, whole numbers")
        if not isinstance(found, int | float) or isinstance(found, bool) or not 0 <= found <= 1:
            raise ValueError("a difficulty's found is a share from 0 to 1")
        return cls(rating, depth, legal, plausible, float(found))


@dataclass(frozen=True)
class Check:
    """What an answer was: ``right`` (the puzzle is solved), ``wrong``, or ``continue`` (right so far: the
    opponent's ``reply`` is played and the next turn is asked)."""

    status: Literal["right", "wrong", "continue"]
    expected: str
    """The turn the solution has here (the answer itself when it was right)."""
    reply: str | None = None
    """``continue``: the opponent's reply, to play before asking again."""
    progress: tuple[str, ...] = ()
    """The turns played from the puzzle's position after this answer (and the reply): the next check's
    ``progress``. For ``wrong``, the progress before the answer."""


@dataclass
class Puzzle:
    """A position with a proven, unique solution (docs/puzzles.md)."""

    game: str
    state: dict[str, Any]
    """The position (``Game.to_json()``); the player plays seat ``to_move``."""
    to_move: int
    goal: Goal
    solution: SolutionNode
    difficulty: Difficulty
    source: dict[str, Any] = field(default_factory=dict)
    """Where it came from, filled in by whoever found it (a match and turn, or ``{"self_play": seed}``)."""

    def start(self) -> AnyGame:
        """The puzzle's position as a game."""
        return load_state(self.state)

    # -- the answer ----------------------------------------------------------------------------

    def check(self, answer: str, progress: Sequence[str] = (), choice: int = 0) -> Check:
        """Judge ``answer`` (notation) after the turns ``progress`` (from earlier checks).

        ``choice`` picks among the opponent's equally good replies (any is handled: the bot may vary it).
        An answer that is not a legal turn raises the engine's :class:`~games.interface.IllegalMove`, with
        its reason, and counts as nothing; a ``progress`` that does not follow the solution raises
        :class:`ValueError`.
        """
        game, node = self._follow(progress)
        after = _played(game, answer)
        if node.final:
            right = self._reaches_goal(game, after, node)
        else:
            right = position_key(after) == position_key(_played(game, node.turn))
        if not right:
            return Check("wrong", node.turn, progress=tuple(progress))
        if node.final:
            return Check("right", answer, progress=(*progress, answer))
        reply, _ = node.replies[choice % len(node.replies)]
        return Check("continue", answer, reply, (*progress, answer, reply))

    def _follow(self, progress: Sequence[str]) -> tuple[AnyGame, SolutionNode]:
        """The position after ``progress`` and the solution node the player is at."""
        if len(progress) % 2:
            raise ValueError("progress holds the player's turns each with the reply played after it")
        game = self.start()
        node = self.solution
        for k in range(0, len(progress), 2):
            turn, reply = progress[k], progress[k + 1]
            try:
                after = _played(game, turn)
            except GameError as error:
                raise ValueError(f"progress turn {k + 1} is not legal: {error}") from None
            if node.final or position_key(after) != position_key(_played(game, node.turn)):
                raise ValueError(f"progress turn {k + 1} does not follow the solution")
            following = next((child for name, child in node.replies if _same(after, name, reply)), None)
            if following is None:
                raise ValueError(f"progress turn {k + 2} is not a reply the solution has")
            game, node = _played(after, reply), following
        return game, node

    def _reaches_goal(self, game: AnyGame, after: AnyGame, node: SolutionNode) -> bool:
        """Whether a final answer reaches the goal at once."""
        kind = self.goal.kind
        if kind == "win":
            return after.is_over and after.winners == (self.to_move,)
        if kind == "goal":
            assert isinstance(game, PlayBai) and isinstance(after, PlayBai)
            return after.goals[self.to_move - 1] > game.goals[self.to_move - 1]
        if kind == "take":
            reached = position_key(after)
            if any(reached == position_key(_played(game, turn)) for turn in (node.turn, *node.also)):
                return True
            assert isinstance(after, Bump)
            if after.is_over:
                return False
            try:  # another piece onto the centre: proven here, every reply tried (a few dozen bumps)
                return Prover(BumpTactics(self.to_move), Meter(CHECK_BUDGET)).forced(after, 0)
            except OverBudget:  # never seen: CHECK_BUDGET is ten times what one position's replies take
                return False
        return position_key(after) == position_key(_played(game, node.turn))  # save, points: one answer

    # -- as data -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PUZZLE_FORMAT,
            "game": self.game,
            "state": self.state,
            "to_move": self.to_move,
            "goal": self.goal.to_json(),
            "solution": self.solution.to_json(),
            "difficulty": self.difficulty.to_json(),
            "source": dict(self.source),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Puzzle:
        """A puzzle from its document; :class:`ValueError` (with the reason) for one that cannot be trusted:
        another format, a game that does not load, a goal of another game, a solution whose first turn is
        not legal there."""
        if not isinstance(doc, Mapping) or doc.get("format") != PUZZLE_FORMAT:
            raise ValueError(f"not a puzzle of format {PUZZLE_FORMAT}")
        game_id = doc.get("game")
        state = doc.get("state")
        if not isinstance(game_id, str) or not isinstance(state, dict) or state.get("game") != game_id:
            raise ValueError("a puzzle's state must be its game's")
        try:
            game = load_state(state)
        except (GameError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"the puzzle's position does not load: {error}") from None
        goal = Goal.from_json(doc.get("goal"))
        if goal.kind not in GAME_GOALS.get(game_id, ()):
            raise ValueError(f"{game_id} has no {goal.kind} puzzles")
        to_move = doc.get("to_move")
        if game.is_over or not _count(to_move) or to_move != game.to_move:
            raise ValueError("the puzzle's player must be the seat to move")
        solution = SolutionNode.from_json(doc.get("solution"))
        try:
            _played(game, solution.turn)
        except GameError as error:
            raise ValueError(f"the solution's first turn is not legal: {error}") from None
        source = doc.get("source", {})
        if not isinstance(source, dict):
            raise ValueError("a puzzle's source is an object")
        return cls(game_id, state, to_move, goal, solution, Difficulty.from_json(doc.get("difficulty")), source)


def _played(game: AnyGame, notation: str) -> AnyGame:
    after = game.copy()
    after.play_turn(notation)
    return after


def _same(after: AnyGame, a: str, b: str) -> bool:
    """Whether replies ``a`` and ``b`` from ``after`` are the same turn (the same position)."""
    try:
        return position_key(_played(after, a)) == position_key(_played(after, b))
    except GameError:
        return False


def _count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
