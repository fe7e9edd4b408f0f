"""Monte Carlo tree search over complete turns, for any number of seats.

Game-blind (after OpenSpiel's ``mcts.py``): turns, priors and
evaluations come from a :class:`~ai.knowledge.GameKnowledge`. Selection is
PUCT (uniform priors make it plain UCT-like exploration); every node keeps
the sum of *each seat's* returns and a node chooses by the component of the
seat to move there (max^n backup), so 3–6 seat Bide needs no special case.

Values are kept by *player* (``Game.player_of_seat``), not by seat: after
Begird's swap the player who answered White owns Black, so the swap must be
judged by Black's results.

A little solving on top: when a node is expanded, a turn that wins at once
for its mover — or, when every turn ends the game, the best of them — makes
the node *solved*: its value is that outcome, always. So a move that lets
the next seat win at once is seen as the loss it is, and one that leaves the
next seat only losing turns as the win it is. The final choice takes a
proven win, and skips moves that lose at once whenever another exists.

All randomness comes from the ``random.Random`` given to :class:`MCTS`;
with a simulation budget the result is a function of the seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from games.interface import AnyGame

from .knowledge.base import GameKnowledge
from .turns import Turn, by_player, player_to_move, returns_of


class Node:
    __slots__ = ("children", "prior", "solved", "state", "turn", "value", "visits")

    def __init__(self, turn: Turn | None, state: AnyGame | None, prior: float) -> None:
        self.turn = turn
        self.state = state  # computed when the node is first selected
        self.prior = prior
        self.visits = 0
        self.value: list[float] | None = None  # per-seat sums of returns
        self.children: list[Node] | None = None
        self.solved: tuple[float, ...] | None = None  # exact value, when known

    def mean(self, seat: int) -> float:
        assert self.value is not None
        return self.value[seat - 1] / self.visits


@dataclass
class SearchResult:
    turn: Turn
    simulations: int
    visits: int  # of the chosen turn
    value: float  # the mover's mean return after the chosen turn
    candidates: int
    root_values: tuple[float, ...] = ()  # each player's mean return over the search (by player)
    # each player's value of the position (by player): exact when solved, else the mean return of the
    # simulations through the turns not proven to lose (a post-game review's winning chances, docs/review.md);
    # () when the turn was forced
    position_values: tuple[float, ...] = ()


class MCTS:
    """One search: ``MCTS(knowledge, rng, simulations=..., seconds=...).search(game)``."""

    #: CPU seconds past the cap that the final "does it lose at once?" checks may use.
    final_check_grace: float = 0.5
    #: Simulations between two checks of whether the answer is settled (:meth:`_decided`).
    check_every: int = 16

    def __init__(
        self,
        knowledge: GameKnowledge,
        rng: random.Random,
        simulations: int = 1000,
        seconds: float | None = None,
        c_puct: float = 1.5,
    ) -> None:
        self.knowledge = knowledge
        self.rng = rng
        self.simulations = simulations
        self.seconds = seconds  # CPU seconds (process time); None: simulations only
        self.c_puct = c_puct

    # -- tree ----------------------------------------------------------------

    def _expand(self, node: Node) -> None:
        state = node.state
        assert state is not None and not state.is_over
        turns = self.knowledge.turns(state, self.rng)
        if not turns:
            raise RuntimeError(f"{state.info.id}: no complete turn from a position that is not over")
        win = self.knowledge.winning_turn(state, turns)
        if win is not None:
            # The mover takes the win: nothing else from here matters.
            after = win.result(state)
            node.solved = by_player(after, returns_of(after))
            node.children = [Node(win, after, 1.0)]
            return
        if all(t.state is not None and t.state.is_over for t in turns):
            # Every turn ends the game: the mover takes the best of them (max^n).
            mover = player_to_move(state)
            outcomes = [(by_player(s, returns_of(s)), t) for t in turns if (s := t.state) is not None]
            value, best = max(outcomes, key=lambda o: o[0][mover - 1])
            node.solved = value
            node.children = [Node(best, best.state, 1.0)]
            return
        weights = self.knowledge.prior(state, turns)
        if weights is None:
            weights = [1.0] * len(turns)
        total = sum(weights) or 1.0
        children = [Node(t, t.state, w / total) for t, w in zip(turns, weights, strict=True)]
        self.rng.shuffle(children)  # against a bias towards the engine's move order
        node.children = children

    @staticmethod
    def _after(parent: Node, child: Node) -> AnyGame:
        """The position after ``child``'s turn (only the root has no turn; a parent has a position)."""
        assert child.turn is not None and parent.state is not None
        return child.turn.result(parent.state)

    def _select(self, node: Node) -> Node:
        assert node.state is not None and node.children
        seat = player_to_move(node.state)
        c_sqrt = self.c_puct * math.sqrt(node.visits)
        fpu = node.mean(seat) if node.visits else 0.5  # first-play urgency: the parent's value
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            value = child.value  # set on a node's first visit, with its visit count
            q = value[seat - 1] / child.visits if value is not None else fpu
            score = q + c_sqrt * child.prior / (1 + child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _simulate(self, root: Node) -> None:
        node = root
        path = [root]
        while node.children is not None and node.solved is None:
            parent = node
            node = self._select(parent)
            if node.state is None:
                node.state = self._after(parent, node)
            path.append(node)
            if node.state.is_over:
                break
        state = node.state
        assert state is not None
        if state.is_over:
            returns = by_player(state, returns_of(state))
        elif node.solved is not None:
            returns = node.solved
        else:
            if node.visits > 0 or node is root:
                self._expand(node)  # second visit: grow the tree here
            if node.solved is not None:
                returns = node.solved
            else:
                returns = by_player(state, self.knowledge.evaluate(state, self.rng))
        for visited in path:
            visited.visits += 1
            if visited.value is None:
                visited.value = list(returns)
            else:
                value = visited.value
                for i, r in enumerate(returns):
                    value[i] += r

    # -- the search ------------------------------------------------------------

    def search(self, game: AnyGame) -> SearchResult:
        if game.is_over:
            raise ValueError("the game is over: there is no turn to choose")
        seat = player_to_move(game)
        start = time.process_time()  # the cap counts the root expansion (Play Bai's can be long)
        root = Node(None, game.copy(), 1.0)
        self._expand(root)
        assert root.children is not None
        if root.solved is not None or len(root.children) == 1:
            only = root.children[0]
            assert only.turn is not None
            solved = root.solved or ()
            return SearchResult(only.turn, 0, 0, 1.0 if root.solved else 0.5, len(root.children), solved, solved)
        done = 0
        while done < self.simulations:
            if self.seconds is not None and time.process_time() - start > self.seconds:
                break
            if done % self.check_every == 0 and done and self._decided(root, done, start):
                break
            self._simulate(root)
            done += 1
        deadline = None if self.seconds is None else start + self.seconds + self.final_check_grace
        chosen = self._final_choice(root, seat, deadline)
        value = chosen.mean(seat) if chosen.visits else 0.0
        means = tuple(v / root.visits for v in root.value) if root.value and root.visits else ()
        assert chosen.turn is not None
        return SearchResult(
            chosen.turn,
            done,
            chosen.visits,
            value,
            len(root.children),
            means,
            self._position_values(root, seat, chosen),
        )

    def _decided(self, root: Node, done: int, start: float) -> bool:
        """Whether the rest of the budget can no longer change the most visited turn.

        The final choice ranks turns by visits; once the leader is ahead of the runner-up
        by more than the simulations left, spending them changes nothing but the clock.
        With a CPU cap, the simulations left are what the pace so far fits in the time
        left (doubled, against a slow spell), so a search the cap will stop ends as soon
        as its answer is settled; without one, stopping early keeps a seed's answer.
        """
        left = self.simulations - done
        if self.seconds is not None:
            spent = time.process_time() - start
            if spent > 0:
                left = min(left, int(2 * done * (self.seconds - spent) / spent) + 1)
        assert root.state is not None and root.children is not None
        leader, first, second = None, 0, 0
        for child in root.children:
            if child.visits > first:
                leader, first, second = child, child.visits, first
            elif child.visits > second:
                second = child.visits
        # The final choice skips a leader that loses at once; only an expanded leader is known not to.
        if leader is None or leader.children is None or self._known_to_lose(leader, player_to_move(root.state)):
            return False
        return first - second > left

    def _final_choice(self, root: Node, seat: int, deadline: float | None = None) -> Node:
        """The most visited turn that does not lose at once, if one exists.

        Checking an unexpanded turn means listing the next seat's turns; in a lost
        position every turn is checked, which can take seconds (577 Play Bai turns,
        each answered by a winning goal). So past ``deadline`` (CPU) unexpanded turns
        are no longer checked: the first turn not known to lose is played.
        """
        children = root.children
        assert children
        for child in children:  # a turn proven to win (the next seat cannot avoid losing)
            if child.solved is not None and child.solved[seat - 1] == 1.0:
                return child
        ranked = sorted(children, key=lambda c: (c.visits, c.mean(seat) if c.visits else 0.0, c.prior), reverse=True)
        for child in ranked:
            if deadline is not None and child.children is None and time.process_time() > deadline:
                return next((c for c in ranked if not self._known_to_lose(c, seat)), ranked[0])
            if not self._loses_at_once(root, child, seat):
                return child
        return ranked[0]

    def _position_values(self, root: Node, seat: int, chosen: Node) -> tuple[float, ...]:
        """Each player's value of the root: the simulations' mean over the turns not proven to lose.

        A turn the search proved losing is no choice a player would make: counting its simulations would
        make a position where one turn saves the game look lost. The mean over the other turns is steadier
        than the chosen turn's own (a few hundred simulations spread over many turns): it leans a little
        towards the opponent, before and after a turn alike.
        """
        assert root.children is not None
        totals: list[float] | None = None
        visits = 0
        for child in root.children:
            if child.value is None or not child.visits or self._known_to_lose(child, seat):
                continue
            # proven: every simulation through it counts as its exact value
            values = [v * child.visits for v in child.solved] if child.solved is not None else child.value
            totals = list(values) if totals is None else [t + v for t, v in zip(totals, values, strict=True)]
            visits += child.visits
        if totals is not None and visits:
            return tuple(t / visits for t in totals)
        if self._known_to_lose(chosen, seat):
            state = chosen.state
            if state is not None and state.is_over:
                return by_player(state, returns_of(state))
            return chosen.solved or ()
        return tuple(v / chosen.visits for v in chosen.value) if chosen.value and chosen.visits else ()

    @staticmethod
    def _known_to_lose(child: Node, seat: int) -> bool:
        state = child.state
        if state is not None and state.is_over:
            return by_player(state, returns_of(state))[seat - 1] == 0.0
        return child.solved is not None and child.solved[seat - 1] == 0.0

    def _loses_at_once(self, root: Node, child: Node, seat: int) -> bool:
        if child.state is None:
            child.state = self._after(root, child)
        state = child.state
        if state.is_over:
            return by_player(state, returns_of(state))[seat - 1] == 0.0
        if child.children is None:
            self._expand(child)
        return child.solved is not None and child.solved[seat - 1] == 0.0
