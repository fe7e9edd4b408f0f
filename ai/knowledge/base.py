"""What the search may ask about a game: its turns, priors and an evaluation.

The search (:mod:`ai.search`) knows nothing about any game; it calls an object
with this shape. :class:`GameKnowledge` is the generic, game-blind version —
uniform priors and random playouts, cut short after ``rollout_turns`` turns
and scored by :meth:`estimate` — and each game's module in this package
overrides what makes it play well (the evaluation lives apart from the search, so one
search serves every game).

The search sees a node's candidates through :meth:`GameKnowledge.expand` (an
:class:`Expansion`: moves, priors, an exact value when the position is already
decided), grows a child with :meth:`~GameKnowledge.play` and scores a leaf with
:meth:`~GameKnowledge.playout`. A *move* is whatever the knowledge chooses to
hand the search: a :class:`~ai.turns.Turn` here, a bare cell number in Begird's
knowledge (no object per candidate); :meth:`~GameKnowledge.turn_of` makes the
:class:`~ai.turns.Turn` of the one that is played. Each game's search settings
(:class:`SearchSettings`) live beside its knowledge, every value from an arena.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

import numpy as np

from ..turns import GameT, Turn, apply_turn, enumerate_turns, position_key, random_actions, returns_of


@dataclass(frozen=True)
class SearchSettings:
    """The search's named parameters; each game's values (``GameKnowledge.settings``) come from an arena.

    After MoHex's ``MoHexSearch``: every enhancement is a setting with its default here.
    """

    c_puct: float = 1.5
    """Exploration: PUCT's constant (the prior times sqrt(parent visits) / (1 + visits))."""
    expand_after: int = 1
    """A leaf is expanded (its turns listed, its knowledge computed) once it has had this many visits;
    before that each visit is one playout from it (MoHex: a threshold; the old search: 1). 0: at its
    first visit, the leaf's value then being its expansion's (:attr:`Expansion.value`, where given:
    one turn looked ahead instead of a playout)."""
    rave_weight: float = 0.0
    """0: no RAVE. Else the equivalence parameter k of RAVE's blend (Gelly and Silver): a child's value
    mixes its own mean with its all-moves-as-first mean, the latter weighing
    ``ñ / (ñ + n + n·ñ/k)`` (``n`` its visits, ``ñ`` its AMAF count). Needs a knowledge whose playouts
    report who filled what (:meth:`GameKnowledge.playout`)."""
    solver: bool = True
    """Proven wins and losses are propagated up the tree (MCTS-Solver); off: only a node's own
    immediate result is exact."""
    simulation_moves: int = 0
    """0: the budget counts simulations. Else it counts the moves the search lists: a simulation spends
    the moves its expansions listed (at least a twentieth of this number) over this number, a typical
    expansion's count, so a position with few turns (late in a game, a puzzle of a few pieces) gets
    more simulations for the same work, and a crowded one fewer (time by need, still a function of the
    seed)."""
    expand_urgent: bool = False
    """Off: every leaf waits ``expand_after`` visits. On: a leaf the knowledge calls urgent
    (:meth:`GameKnowledge.urgent`: its mover must answer a threat now, e.g. a Bump centre taken) is
    expanded at its first visit, so the search learns at once whether the threat is answerable (a
    position where every turn loses is proven at its expansion)."""
    initial_visits: float = 0.0
    """0: off. Else, where an expansion values its moves (:attr:`Expansion.values`), each child starts as
    if it had had this many visits at that value: the search judges a new child before it visits it
    (heuristic node initialisation), instead of spending a simulation on each child's first look."""
    share_expansions: bool = False
    """Off: every node lists its own moves. On: a position reached again within one search (by another
    path: a transposition, or the same set-up after any goal) takes the listing of its first node
    (:meth:`GameKnowledge.key`: the moves, priors and initial values, shared read-only) instead of
    listing them again; the new node still keeps its own visits. With ``simulation_moves`` a shared
    listing costs no listed moves (the simulation is charged the floor), so the budget buys more
    simulations where positions repeat; still a function of the seed (the table lives for one search)."""
    forced_win_budget: float = 0.0
    """0: off. Else the root is first checked exactly for a forced win (:meth:`GameKnowledge.forced_win`:
    Bump's wins within two of the mover's turns), with a budget of this many of the knowledge's units
    of work (Bump: turns listed) per simulation of the search's budget, so a level's check grows with its
    search; a win found is played at once (the tree is not searched), none found (or the budget spent)
    leaves the answer to the tree search. Deterministic: it draws nothing from the seed."""


@dataclass
class Expansion:
    """What a node's expansion tells the search."""

    moves: Sequence[Any]
    """The candidate moves (never empty); when ``solved``, the first is the one to play."""
    priors: Sequence[float] | np.ndarray | None = None
    """Any positive scale; None: uniform."""
    amaf_keys: Sequence[int] | None = None
    """Per move, its index in the owner array a playout reports (RAVE); None: no RAVE at this node."""
    solved: tuple[float, ...] | None = None
    """Per-seat exact value of the position when already decided (a win at once, every turn ending it)."""
    values: Sequence[float] | np.ndarray | None = None
    """Per move, the mover's estimated value (0 to 1) of the position after it (used with
    ``SearchSettings.initial_visits``); None: the children are judged only by visiting them."""
    value: tuple[float, ...] | None = None
    """Per-seat estimated value of the position itself (e.g. the mover's best of ``values``): a leaf's
    return when it is expanded at its first visit (``SearchSettings.expand_after`` 0)."""


class GameKnowledge(Generic[GameT]):
    """Game-blind defaults; subclasses specialise one game (``BideKnowledge(GameKnowledge[Bide])``)."""

    #: Playout turns before a non-final position is scored by :meth:`estimate`.
    rollout_turns: int = 400
    #: Budget multiplier for the levels: < 1 for games whose playouts are slow.
    simulation_scale: float = 1.0
    #: The search's settings for this game (:class:`SearchSettings`).
    settings: SearchSettings = SearchSettings()
    #: A post-game review's budget for this game, as a share of the review's (``ai.review.REVIEW_BUDGET``,
    #: before ``simulation_scale``); play never reads it.
    review_share: float = 1.0
    #: Whether a review shows a position's value as its listing gives it (its mover's best result one turn
    #: ahead, by :meth:`expand`'s values: what the search scores the position as a leaf) rather than the
    #: mean over the turns searched; for games whose expansion values its results (Play Bai, docs/review.md).
    review_by_listing: bool = False

    # -- what the search calls ---------------------------------------------------------

    def expand(self, game: GameT, rng: random.Random) -> Expansion:
        """The candidates of ``game`` (not over), or its exact value when a turn wins at once or every
        turn ends the game (the mover takes the best of them, max^n)."""
        turns = self.turns(game, rng)
        if not turns:
            raise RuntimeError(f"{game.info.id}: no complete turn from a position that is not over")
        win = self.winning_turn(game, turns)
        if win is not None:
            return Expansion([win], solved=returns_of(win.result(game)))
        if all(t.state is not None and t.state.is_over for t in turns):
            seat = game.to_move
            assert seat is not None
            outcomes = [(returns_of(s), t) for t in turns if (s := t.state) is not None]
            value, best = max(outcomes, key=lambda o: o[0][seat - 1])
            return Expansion([best], solved=value)
        return Expansion(turns, self.prior(game, turns))

    def play(self, game: GameT, move: Any) -> GameT:
        """The position after ``move`` from ``game`` (a new object; ``game`` is unchanged)."""
        turn: Turn[GameT] = move
        return turn.result(game)

    def turn_of(self, game: GameT, move: Any) -> Turn[GameT]:
        """The :class:`Turn` of ``move`` played from ``game``."""
        turn: Turn[GameT] = move
        return turn

    def key(self, game: GameT) -> Hashable:
        """Equal for equal positions (a kept tree is found by it); engines' knowledge may do it faster."""
        return position_key(game)

    def playout(self, game: GameT, rng: random.Random) -> tuple[tuple[float, ...], Any]:
        """Per-seat value of a leaf (:meth:`evaluate`) and, for RAVE, who filled what: an array indexed by
        :attr:`Expansion.amaf_keys` holding the seat that owns each at the playout's end (None: no RAVE)."""
        return self.evaluate(game, rng), None

    def forced_win(self, game: GameT, budget: int) -> Expansion | None:
        """A turn that forces a win from ``game``, found exactly within ``budget`` units of work (the
        knowledge's own: :attr:`SearchSettings.forced_win_budget`), as a solved :class:`Expansion` (the
        turn, the per-seat exact value); None when none was found. None here: no game-blind check."""
        return None

    def simulation_share(self, game: GameT) -> float:
        """The share of a budget's simulations a search of ``game`` gets (time by need: fewer where the
        position matters less, more where it decides the game); 1 here, every position alike."""
        return 1.0

    def urgent(self, game: GameT) -> bool:
        """Whether the mover of ``game`` must answer a threat now (expanded at its first visit when
        ``SearchSettings.expand_urgent`` is on); cheap, it is asked of every new leaf."""
        return False

    def turns(self, game: GameT, rng: random.Random) -> list[Turn[GameT]]:
        """The complete turns the search considers from ``game`` (never empty while it goes on)."""
        return enumerate_turns(game)

    def prior(self, game: GameT, turns: list[Turn[GameT]]) -> list[float] | None:
        """Prior weights of ``turns`` (any positive scale), or ``None`` for uniform."""
        return None

    def winning_turn(self, game: GameT, turns: list[Turn[GameT]]) -> Turn[GameT] | None:
        """A turn after which the mover alone has won at once, if there is one."""
        mover = game.to_move
        for turn in turns:
            after = turn.result(game)
            if after.is_over and after.winners == (mover,):
                return turn
        return None

    def rollout_step(self, game: GameT, rng: random.Random) -> None:
        """Play one quick turn of a playout in place."""
        apply_turn(game, random_actions(game, rng))

    def estimate(self, game: GameT) -> tuple[float, ...]:
        """Each seat's chance to win a position that is not over (summing to 1)."""
        return tuple(1.0 / game.players for _ in range(game.players))

    def evaluate(self, game: GameT, rng: random.Random) -> tuple[float, ...]:
        """Per-seat value of ``game``: a playout, cut short and estimated if it runs long."""
        if game.is_over:
            return returns_of(game)
        state = game.copy()
        for _ in range(self.rollout_turns):
            self.rollout_step(state, rng)
            if state.is_over:
                break
        return self.playout_value(state)

    def playout_value(self, state: GameT) -> tuple[float, ...]:
        """Per-seat value of where a playout stopped: the result if it ended, else :meth:`estimate`."""
        return returns_of(state) if state.is_over else self.estimate(state)
