"""Monte Carlo tree search over complete turns, for any number of seats: a lean tree.

Game-blind (after OpenSpiel's ``mcts.py``): candidates, priors and playouts come
from a :class:`~ai.knowledge.base.GameKnowledge`, and so do the search's settings
(:class:`~ai.knowledge.base.SearchSettings`, one value per game from an arena).

- **A lean tree.** A node keeps its children as parallel arrays (prior,
  visits, value sums; numpy, so choosing among 220 children is a few array
  operations rather than a Python loop over objects); a child's node is made
  only when it is first selected, and a leaf is expanded (its turns listed,
  its knowledge computed) only after ``expand_after`` visits (at once, with
  ``expand_urgent``, where the knowledge says the mover must answer a threat).
- **Shared listings** (``share_expansions``): a position reached again within one search (a
  transposition; in Play Bai the set-up every goal leads to) takes its first node's listing instead
  of listing its moves again; each node keeps its own visits.
- **Values by player.** Each node keeps the sum of *each player's* returns and
  an edge the sum of its chooser's, so a node chooses by the component of the
  player to move there (max^n backup): 3–6 seat Bide needs no special case.
  By player, not seat: after Begird's swap the player who answered White owns
  Black, so the swap must be judged by Black's results (``Game.player_of_seat``).
- **RAVE** (``rave_weight``; Begird): a child's value blends its own mean with
  its all-moves-as-first mean, from the playouts through the node that filled
  the child's cell with the mover's colour.
- **A solver** (``solver``): a node whose mover can win at once, or where
  every turn ends the game, is exact at its expansion; a proven win for a
  node's mover proves the node, and a node all of whose children are proven
  takes the best of them. Proven children are never explored again, a proven
  root ends the search, and the final choice takes a proven win and skips
  turns that lose at once whenever another exists.
- **A forced win first** (``forced_win_budget``; Bump): the root is checked
  exactly for a short forced win (the knowledge's ``forced_win``, within a
  budget that grows with the search's, its CPU not taken from the tree
  search's cap); one found is played at once. The solver proves such wins
  too, but late where every reply must be shown to lose, and it takes the
  first proof it completes, maybe a longer win.
- **Time by need**: the search stops once the most visited turn cannot be
  overtaken with the simulations left, or the root is proven.

All randomness comes from the ``random.Random`` given to :class:`MCTS`; with a
simulation budget the result is a function of the seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.interface import AnyGame

from .knowledge.base import Expansion, GameKnowledge
from .turns import Turn, by_player, returns_of

#: A proven loss is never selected while another child remains (its score).
LOST = -1e9
NO_CHILDREN = np.zeros(0)


class Node:
    """One position of the tree; its children as arrays, their nodes made when first selected."""

    __slots__ = (
        "amaf_keys",
        "amaf_n",
        "amaf_w",
        "kids",
        "mover",
        "moves",
        "n",
        "prior",
        "proven",
        "seat",
        "solved",
        "state",
        "value",
        "visits",
        "w",
        "w0",
    )

    def __init__(self, state: AnyGame, players: int) -> None:
        self.state = state
        self.visits = 0
        self.value = [0.0] * players  # per-player sums of returns through this node
        self.solved: tuple[float, ...] | None = None  # exact value (by player), when known
        self.moves: list[Any] | None = None  # set at expansion
        self.kids: list[Node | None] = []
        self.proven: dict[int, float] = {}  # child index -> its exact value for this node's mover
        # the children, in parallel arrays (set at expansion): prior, visits, the mover's sum of returns
        self.prior: np.ndarray = NO_CHILDREN
        self.n: np.ndarray = NO_CHILDREN
        self.w: np.ndarray = NO_CHILDREN
        # the children's initial values times SearchSettings.initial_visits (None: not valued at expansion)
        self.w0: np.ndarray | None = None
        # RAVE (when the knowledge reports who filled what): each child's key and its AMAF visits and sums
        self.amaf_keys: np.ndarray | None = None
        self.amaf_n: np.ndarray = NO_CHILDREN
        self.amaf_w: np.ndarray = NO_CHILDREN
        if state.is_over:
            self.solved = by_player(state, returns_of(state))
            self.seat = self.mover = -1
        else:
            self.seat = state.to_move or 0
            self.mover = state.player_of_seat(self.seat) - 1  # index into per-player tuples

    @property
    def expanded(self) -> bool:
        return self.moves is not None

    def mean(self, player: int) -> float:
        """``player``'s (0-based) mean return through this node."""
        return self.value[player] / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class _Listing:
    """One position's expansion as its nodes keep it: the children in the tree's order (a random order
    of equal children), their priors, RAVE keys and initial values (read-only: nodes may share them)."""

    moves: list[Any]
    prior: np.ndarray
    amaf_keys: np.ndarray | None
    w0: np.ndarray | None
    solved: tuple[float, ...] | None  # by player
    value: tuple[float, ...] | None  # by seat, as the knowledge gave it


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
    # the chosen turn's subtree (the position after it, the next seat to move), kept for reuse on a later
    # turn of the same game (ai.search.TreeCache); None when the turn was forced
    subtree: Node | None = None
    # each player's value of the position one turn ahead (by player): its mover's best result, each turn's as
    # the listing valued it or exact where the search proved it (ai.review's for knowledge with review_by_listing:
    # Play Bai); () where the listing gave no values, with more than two players, and when the root is solved
    listing_values: tuple[float, ...] = ()


class MCTS:
    """One search: ``MCTS(knowledge, rng, simulations=..., seconds=...).search(game)``."""

    #: CPU seconds past the cap that the final "does it lose at once?" checks may use.
    final_check_grace: float = 0.5
    #: Simulations between two checks of whether the answer is settled (:meth:`_decided`).
    check_every: int = 16

    def __init__(
        self,
        knowledge: GameKnowledge[Any],
        rng: random.Random,
        simulations: int = 1000,
        seconds: float | None = None,
    ) -> None:
        self.knowledge = knowledge
        self.rng = rng
        self.simulations = simulations
        self.seconds = seconds  # CPU seconds (process time); None: simulations only
        settings = knowledge.settings
        self.c_puct = settings.c_puct
        self.expand_after = max(0, settings.expand_after)
        self.initial_visits = settings.initial_visits
        self.expand_urgent = settings.expand_urgent
        self.simulation_moves = settings.simulation_moves
        self.listed = 0  # moves listed by expansions (simulation_moves' budget)
        self.share_expansions = settings.share_expansions
        self._listings: dict[Hashable, _Listing] = {}  # by position key, with share_expansions
        self.rave = settings.rave_weight
        self.solver = settings.solver
        self.forced_win_budget = settings.forced_win_budget
        self.players = 0
        self._numpy: np.random.Generator | None = None

    # -- tree ----------------------------------------------------------------

    def _numpy_rng(self) -> np.random.Generator:
        """numpy's draws, seeded from the search's ``random.Random`` (so a seed still decides everything)."""
        if self._numpy is None:
            self._numpy = np.random.default_rng(self.rng.getrandbits(64))
        return self._numpy

    def _new_node(self, state: AnyGame) -> Node:
        return Node(state, self.players)

    def _expand(self, node: Node) -> tuple[float, ...] | None:
        """List ``node``'s moves; the expansion's per-seat value of the position, if it gave one."""
        state = node.state
        assert not state.is_over
        key = self.knowledge.key(state) if self.share_expansions else None
        listing = self._listings.get(key) if key is not None else None
        if listing is None:
            listing = self._listing(state)
            if key is not None:
                self._listings[key] = listing
        if listing.solved is not None:
            node.solved = listing.solved
        node.moves = listing.moves
        node.prior = listing.prior
        count = len(listing.moves)
        node.n = np.zeros(count)
        node.w = np.zeros(count)
        node.kids = [None] * count
        node.amaf_keys = listing.amaf_keys
        if listing.amaf_keys is not None:
            node.amaf_n = np.zeros(count)
            node.amaf_w = np.zeros(count)
        node.w0 = listing.w0
        return listing.value

    def _listing(self, state: AnyGame) -> _Listing:
        """The knowledge's expansion of ``state`` as the tree keeps it (shared, read-only, by the nodes of
        one position when ``share_expansions``)."""
        expansion: Expansion = self.knowledge.expand(state, self.rng)
        moves = list(expansion.moves)
        count = len(moves)
        self.listed += count
        if not count:
            raise RuntimeError(f"{state.info.id}: no complete turn from a position that is not over")
        solved = by_player(state, expansion.solved) if expansion.solved is not None else None
        priors = expansion.priors
        prior = np.ones(count) if priors is None else np.asarray(priors, dtype=float)
        total = prior.sum()
        prior = prior / total if total > 0 else np.full(count, 1.0 / count)
        # A random order of equal children, against a bias towards the engine's move order.
        order = self._numpy_rng().permutation(count)
        amaf_keys = None
        if self.rave and expansion.amaf_keys is not None:
            amaf_keys = np.asarray(expansion.amaf_keys, dtype=np.intp)[order]
        w0 = None
        if self.initial_visits and expansion.values is not None:
            w0 = np.asarray(expansion.values, dtype=float)[order] * self.initial_visits
        return _Listing([moves[i] for i in order], prior[order], amaf_keys, w0, solved, expansion.value)

    def _child(self, node: Node, index: int) -> Node:
        kid = node.kids[index]
        if kid is None:
            assert node.moves is not None
            kid = self._new_node(self.knowledge.play(node.state, node.moves[index]))
            node.kids[index] = kid
            if kid.solved is not None:
                self._note_proven(node, index, kid)
        return kid

    def _select(self, node: Node) -> int:
        n = node.n
        visits = node.visits
        fpu = node.value[node.mover] / visits if visits else 0.5  # first-play urgency: the node's own value
        if node.w0 is not None:  # each child valued at expansion, as if visited initial_visits times
            q = (node.w + node.w0) / (n + self.initial_visits)
        else:
            q = np.where(n > 0, node.w / np.maximum(n, 1.0), fpu)
        if node.amaf_keys is not None:
            an = node.amaf_n
            beta = an / (an + n + n * an / self.rave + 1e-12)
            q = q + beta * (node.amaf_w / np.maximum(an, 1.0) - q)
        score = q + (self.c_puct * math.sqrt(visits)) * node.prior / (1.0 + n)
        if node.proven:
            for index, value in node.proven.items():
                score[index] = value if value > 0.0 else LOST
        return int(score.argmax())

    def _note_proven(self, node: Node, index: int, kid: Node) -> None:
        """``kid`` (child ``index`` of ``node``) is exact: record it, and prove ``node`` when that follows."""
        solved = kid.solved
        assert solved is not None
        mover = node.mover
        node.proven[index] = solved[mover]
        if not self.solver or node.solved is not None:
            return
        if solved[mover] >= 1.0:  # the mover has a winning turn
            node.solved = solved
        elif node.moves is not None and len(node.proven) == len(node.moves):
            # every turn proven: the mover takes the best of them
            best = max(range(len(node.moves)), key=lambda i: node.proven[i])
            best_kid = node.kids[best]
            assert best_kid is not None and best_kid.solved is not None
            node.solved = best_kid.solved

    def _simulate(self, root: Node) -> None:
        node = root
        path: list[tuple[Node, int]] = []
        while True:
            if node.solved is not None:
                returns = node.solved
                owner = None
                break
            if not node.expanded:
                if (
                    node.visits >= self.expand_after
                    or node is root
                    or (self.expand_urgent and self.knowledge.urgent(node.state))
                ):
                    value = self._expand(node)
                    if node.solved is not None:
                        returns = node.solved
                        owner = None
                        break
                    if not self.expand_after and node is not root:
                        # expanded at its first visit: the leaf's return is its expansion's value (one turn
                        # looked ahead) where given, else a playout from it, as an unexpanded leaf's
                        if value is not None:
                            returns = by_player(node.state, value)
                            owner = None
                        else:
                            by_seat, owner = self.knowledge.playout(node.state, self.rng)
                            returns = by_player(node.state, by_seat)
                        break
                else:
                    by_seat, owner = self.knowledge.playout(node.state, self.rng)
                    returns = by_player(node.state, by_seat)
                    break
            index = self._select(node)
            path.append((node, index))
            node = self._child(node, index)
        # backup: the leaf, then each node on the path and its edge
        self._add(node, returns)
        for parent, index in reversed(path):
            self._add(parent, returns)
            parent.n[index] += 1.0
            parent.w[index] += returns[parent.mover]
            if owner is not None and parent.amaf_keys is not None:
                hit = owner[parent.amaf_keys] == parent.seat
                parent.amaf_n += hit
                parent.amaf_w += hit * returns[parent.mover]
            kid = parent.kids[index]
            if kid is not None and kid.solved is not None and index not in parent.proven:
                self._note_proven(parent, index, kid)

    @staticmethod
    def _add(node: Node, returns: tuple[float, ...]) -> None:
        node.visits += 1
        value = node.value
        for i, r in enumerate(returns):
            value[i] += r

    # -- the search ------------------------------------------------------------

    def search(self, game: AnyGame, root: Node | None = None) -> SearchResult:
        """Choose a turn for ``game``; ``root``, when given, is a kept tree of the same position (reused:
        its visits count as if this search had made them, and the budget buys that many more)."""
        if game.is_over:
            raise ValueError("the game is over: there is no turn to choose")
        self.players = game.players
        if self.forced_win_budget:  # bounded by its own budget: the cap below is the tree search's alone
            forced = self.knowledge.forced_win(game, int(self.forced_win_budget * self.simulations))
            if forced is not None:
                return self._forced_result(game, forced)
        start = time.process_time()  # the cap counts the root expansion (Play Bai's can be long)
        if root is None:
            root = self._new_node(game.copy())
        if not root.expanded:
            self._expand(root)
        assert root.moves is not None
        mover = root.mover
        if root.solved is not None or len(root.moves) == 1:
            turn = self.knowledge.turn_of(root.state, root.moves[0])
            solved = root.solved or ()
            value = root.solved[mover] if root.solved else 0.5
            return SearchResult(turn, 0, 0, value, len(root.moves), solved, solved)
        done = 0
        spent = 0.0  # simulations, or with simulation_moves the moves listed in simulations' worth
        floor = self.simulation_moves / 20
        while spent < self.simulations and root.solved is None:
            if self.seconds is not None and time.process_time() - start > self.seconds:
                break
            if done % self.check_every == 0 and done and self._decided(root, done, start, spent):
                break
            if self.simulation_moves:
                before = self.listed
                self._simulate(root)
                spent += max(self.listed - before, floor) / self.simulation_moves
            else:
                self._simulate(root)
                spent += 1
            done += 1
        deadline = None if self.seconds is None else start + self.seconds + self.final_check_grace
        index = self._final_choice(root, deadline)
        chosen = self._child(root, index)
        value = chosen.mean(mover) if chosen.visits else (chosen.solved[mover] if chosen.solved else 0.0)
        means = tuple(v / root.visits for v in root.value) if root.visits else ()
        return SearchResult(
            self.knowledge.turn_of(root.state, root.moves[index]),
            done,
            int(root.n[index]),
            value,
            len(root.moves),
            means,
            self._position_values(root, chosen),
            chosen,
            self._listing_values(root),
        )

    def _forced_result(self, game: AnyGame, forced: Expansion) -> SearchResult:
        """The result of a search that found a forced win before searching: its turn, its exact value."""
        assert forced.solved is not None
        solved = by_player(game, forced.solved)
        mover = game.player_of_seat(game.to_move or 0) - 1
        turn = self.knowledge.turn_of(game, forced.moves[0])
        return SearchResult(turn, 0, 0, solved[mover], len(forced.moves), solved, solved)

    def _decided(self, root: Node, done: int, start: float, spent: float = 0.0) -> bool:
        """Whether the rest of the budget can no longer change the most visited turn.

        The final choice ranks turns by visits; once the leader is ahead of the runner-up
        by more than the simulations left, spending them changes nothing but the clock.
        With a CPU cap, the simulations left are what the pace so far fits in the time
        left (doubled, against a slow spell), so a search the cap will stop ends as soon
        as its answer is settled; without one, stopping early keeps a seed's answer.
        """
        if self.simulation_moves:  # ``spent``: the budget spent; the simulations the rest buys at the pace so far
            left = int((self.simulations - spent) * done / spent) + 1 if spent else self.simulations
        else:
            left = self.simulations - done
        if self.seconds is not None:
            elapsed = time.process_time() - start
            if elapsed > 0:
                left = min(left, int(2 * done * (self.seconds - elapsed) / elapsed) + 1)
        n = root.n
        if len(n) < 2:
            return False
        leader = int(n.argmax())
        first = n[leader]
        second = np.partition(n, -2)[-2]
        kid = root.kids[leader]
        # The final choice skips a leader that loses at once; only an expanded leader is known not to.
        if kid is None or not (kid.expanded or kid.solved is not None) or self._known_to_lose(root, leader):
            return False
        return bool(first - second > left)

    def _final_choice(self, root: Node, deadline: float | None = None) -> int:
        """The index of the most visited turn that does not lose at once, if one exists.

        Checking an unexpanded turn means listing the next seat's turns; in a lost
        position every turn is checked, which can take seconds (577 Play Bai turns,
        each answered by a winning goal). So past ``deadline`` (CPU) unexpanded turns
        are no longer checked: the first turn not known to lose is played.
        """
        assert root.moves is not None
        for index, value in root.proven.items():  # a turn proven to win
            if value >= 1.0:
                return index
        means = np.where(root.n > 0, root.w / np.maximum(root.n, 1.0), 0.0)
        ranked = sorted(range(len(root.moves)), key=lambda i: (root.n[i], means[i], root.prior[i]), reverse=True)
        for index in ranked:
            kid = root.kids[index]
            if deadline is not None and (kid is None or not kid.expanded) and time.process_time() > deadline:
                return next((i for i in ranked if not self._known_to_lose(root, i)), ranked[0])
            if not self._loses_at_once(root, index):
                return index
        return ranked[0]

    def _position_values(self, root: Node, chosen: Node) -> tuple[float, ...]:
        """Each player's value of the root: the simulations' mean over the turns not proven to lose.

        A turn the search proved losing is no choice a player would make: counting its simulations would
        make a position where one turn saves the game look lost. The mean over the other turns is steadier
        than the chosen turn's own (a few hundred simulations spread over many turns): it leans a little
        towards the opponent, before and after a turn alike.
        """
        totals = [0.0] * self.players
        visits = 0
        for index, kid in enumerate(root.kids):
            if kid is None or not kid.visits or self._known_to_lose(root, index):
                continue
            # proven: every simulation through it counts as its exact value
            values = [v * kid.visits for v in kid.solved] if kid.solved is not None else kid.value
            totals = [t + v for t, v in zip(totals, values, strict=True)]
            visits += kid.visits
        if visits:
            return tuple(t / visits for t in totals)
        if chosen.solved is not None:
            return chosen.solved
        return tuple(v / chosen.visits for v in chosen.value) if chosen.visits else ()

    def _listing_values(self, root: Node) -> tuple[float, ...]:
        """Each player's value of the root one turn ahead: its mover's best turn, each turn valued as the
        listing valued its result (``Expansion.values``) or exactly where the search proved it (a turn that
        lets the opponent win at once counts as lost). The search's value of the root as a leaf, made
        exact where it looked deeper."""
        if root.w0 is None or self.players != 2 or root.solved is not None:
            return ()
        values = root.w0 / self.initial_visits  # a new array: the listing's stays as it is
        for index, value in root.proven.items():
            values[index] = value
        best = float(values.max())
        return tuple(best if player == root.mover else 1.0 - best for player in range(2))

    @staticmethod
    def _known_to_lose(root: Node, index: int) -> bool:
        kid = root.kids[index]
        return kid is not None and kid.solved is not None and kid.solved[root.mover] == 0.0

    def _loses_at_once(self, root: Node, index: int) -> bool:
        kid = self._child(root, index)
        if kid.solved is None and not kid.expanded:
            self._expand(kid)
            if kid.solved is not None:
                self._note_proven(root, index, kid)
        return self._known_to_lose(root, index)
