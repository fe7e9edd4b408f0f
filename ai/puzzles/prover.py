"""The bounded prover: an exact AND/OR search, depth-limited, over one game's *tactics*.

Why not proof-number search: the horizons here are one to three of the attacker's turns, and each game's
tactics already cut the tree to the turns that can matter, proven by the rules (:class:`Tactics`), so the
trees are small; what a puzzle needs is not one proof found fast but **every** winning first turn (a
puzzle's answer must be the only one) and every best defence after it. A depth-first AND/OR search with
iterative deepening answers exactly that: the shortest horizon at which the attacker wins, the full set of
turns winning at it, and for each defender reply how long it resists. Proof-number search would still need
this enumeration on top, and its transposition handling (graph-history interaction) buys nothing at these
depths. Transpositions are remembered per position as the shortest horizon known to win and the longest
known to fail (winning within ``n`` turns implies winning within ``n + 1``).

Every answer is exact or "unknown": the :class:`~ai.puzzles.budget.Meter` raises
:class:`~ai.puzzles.budget.OverBudget` when the proof has spent its nodes or CPU, and no verdict is kept.

Terms: the *attacker* is the seat to move at the root, the one the puzzle is for; the *defender* is the
other. ``turns`` always counts the attacker's turns still allowed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from .budget import Meter

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class Verdict(Enum):
    """Where a position stands for the attacker right after a turn."""

    WIN = "win"
    """The attacker has reached its goal (won, scored, or the defender's turn has passed with the attacker
    on its centre)."""
    LOSS = "loss"
    """The defender has reached its own goal: the attacker's line failed."""
    OPEN = "open"


class Tactics(Protocol[StateT, MoveT]):
    """One game's rules as the prover needs them, for one attacker.

    The two move generators may leave out a turn only when the rules prove it cannot change the answer:
    :meth:`attacker_turns` may omit turns that cannot win within ``turns``, :meth:`defender_replies` replies
    that cannot stop the attacker winning within ``turns`` (a reply it omits loses at least as fast as one
    it keeps). Each comes most promising first: the search stops at the first proof.
    """

    #: Whether the attacker's goal is reached only when the defender's turn passes (Bump: the victory phase
    #: comes at the start of the attacker's next turn), so an attacker's last turn is followed by every reply.
    wins_on_reply: bool

    def attacker_turns(self, state: StateT, turns: int, meter: Meter) -> Sequence[MoveT]:
        """The attacker's turns (distinct results) that may win within ``turns``; the attacker is to move."""
        ...

    def defender_replies(self, state: StateT, turns: int, meter: Meter) -> Iterable[MoveT]:
        """The defender's replies (never none) that may stop the attacker winning within ``turns``, possibly
        made lazily (the search stops at the first that refutes)."""
        ...

    def play(self, state: StateT, move: MoveT) -> StateT:
        """The position after ``move`` (a new object)."""
        ...

    def verdict(self, state: StateT) -> Verdict: ...

    def key(self, state: StateT) -> Hashable:
        """Equal for positions that are the same to the prover (whose turn included)."""
        ...

    def notation(self, state: StateT, move: MoveT) -> str:
        """``move`` in the game's notation, as played from ``state``."""
        ...

    def resistance(self, state: StateT, winners: Sequence[MoveT]) -> float:
        """After a defender's reply (attacker to move, winning with ``winners`` at the shortest horizon): how
        hard the reply makes it, higher is harder; ties between replies resisting equally long are broken
        by it (Begird: fewer winning cells left)."""
        ...


class NotUnique(Exception):
    """After one of the defender's best defences the attacker has more than one way on: no puzzle."""


@dataclass
class SolutionNode:
    """The attacker's turn at one point of a solution and, unless it ends the puzzle, the defences after it."""

    turn: str
    """The attacker's turn in notation: the only one that wins here (at a final node, one of those that do)."""
    final: bool
    """Whether this turn reaches the goal (then every turn in ``also`` is accepted too)."""
    also: list[str] = field(default_factory=list)
    """At a final node, the other turns that reach the goal at once (any is right, as any mate is)."""
    replies: list[tuple[str, SolutionNode]] = field(default_factory=list)
    """The defender's best defences (each resisting longest; ties broken by :meth:`Tactics.resistance`,
    every reply still equal kept), each with the attacker's next turn."""

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"turn": self.turn, "final": self.final}
        if self.also:
            doc["also"] = list(self.also)
        if self.replies:
            doc["replies"] = [{"reply": reply, "next": node.to_json()} for reply, node in self.replies]
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> SolutionNode:
        if not isinstance(doc, dict) or not isinstance(doc.get("turn"), str) or not isinstance(doc.get("final"), bool):
            raise ValueError("a solution node needs a turn (text) and final (true or false)")
        also = doc.get("also", [])
        replies = doc.get("replies", [])
        if not isinstance(also, list) or not all(isinstance(a, str) for a in also) or not isinstance(replies, list):
            raise ValueError("a solution node's also and replies must be lists")
        parsed = []
        for entry in replies:
            if not isinstance(entry, dict) or not isinstance(entry.get("reply"), str):
                raise ValueError("each reply of a solution node needs its notation")
            parsed.append((entry["reply"], cls.from_json(entry.get("next"))))
        if doc["final"] == bool(parsed):
            raise ValueError("a final node has no replies, and any other node has at least one")
        return cls(doc["turn"], doc["final"], list(also), parsed)

    @property
    def depth(self) -> int:
        """The attacker's turns from here to the goal along the longest defence."""
        return 1 + max((node.depth for _, node in self.replies), default=0)

    def size(self) -> int:
        """The attacker's turns in the whole tree."""
        return 1 + sum(node.size() for _, node in self.replies)


class Prover(Generic[StateT, MoveT]):
    """Exact answers about one attacker's forced wins, within a :class:`Meter`'s budget."""

    def __init__(self, tactics: Tactics[StateT, MoveT], meter: Meter) -> None:
        self.tactics = tactics
        self.meter = meter
        # per position: (attacker to move) the fewest turns known to win / the most known to fail;
        # (defender to move) the same for "every reply loses within n".
        self._win_at: dict[Hashable, int] = {}
        self._fail_at: dict[Hashable, int] = {}
        self._forced_at: dict[Hashable, int] = {}
        self._escape_at: dict[Hashable, int] = {}

    # -- the AND/OR search ---------------------------------------------------------------

    def wins_within(self, state: StateT, turns: int) -> bool:
        """Whether the attacker, to move in ``state``, wins within ``turns`` of its turns whatever the defender does."""
        if turns <= 0:
            return False
        key = self.tactics.key(state)
        if self._win_at.get(key, turns + 1) <= turns:
            return True
        if self._fail_at.get(key, 0) >= turns:
            return False
        won = any(self.turn_wins(state, move, turns) for move in self.tactics.attacker_turns(state, turns, self.meter))
        if won:
            self._win_at[key] = min(turns, self._win_at.get(key, turns))
        else:
            self._fail_at[key] = max(turns, self._fail_at.get(key, 0))
        return won

    def turn_wins(self, state: StateT, move: MoveT, turns: int) -> bool:
        """Whether the attacker's ``move`` from ``state`` wins within ``turns`` (this one included)."""
        self.meter.tick()
        after = self.tactics.play(state, move)
        verdict = self.tactics.verdict(after)
        if verdict is not Verdict.OPEN:
            return verdict is Verdict.WIN
        return self.forced(after, turns - 1)

    def forced(self, state: StateT, turns: int) -> bool:
        """Whether every reply of the defender, to move in ``state``, lets the attacker win within ``turns``."""
        if turns <= 0 and not self.tactics.wins_on_reply:
            return False
        key = self.tactics.key(state)
        if self._forced_at.get(key, turns + 1) <= turns:
            return True
        if self._escape_at.get(key, -1) >= turns:
            return False
        forced = True
        for reply in self.tactics.defender_replies(state, turns, self.meter):
            self.meter.tick()
            after = self.tactics.play(state, reply)
            verdict = self.tactics.verdict(after)
            if verdict is Verdict.WIN:
                continue
            if verdict is Verdict.LOSS or not self.wins_within(after, turns):
                forced = False
                break
        if forced:
            self._forced_at[key] = min(turns, self._forced_at.get(key, turns))
        else:
            self._escape_at[key] = max(turns, self._escape_at.get(key, -1))
        return forced

    def winners(self, state: StateT, turns: int, limit: int | None = None) -> list[MoveT]:
        """The attacker's turns from ``state`` that win within ``turns`` (the first ``limit`` of them)."""
        found: list[MoveT] = []
        for move in self.tactics.attacker_turns(state, turns, self.meter):
            if self.turn_wins(state, move, turns):
                found.append(move)
                if limit is not None and len(found) >= limit:
                    break
        return found

    def shortest(self, state: StateT, most: int, limit: int | None = None) -> tuple[int, list[MoveT]]:
        """The fewest turns within which the attacker wins (up to ``most``) and the turns that do; (0, []) when
        it does not within ``most``."""
        for turns in range(1, most + 1):
            found = self.winners(state, turns, limit)
            if found:
                return turns, found
        return 0, []

    # -- the solution tree -------------------------------------------------------------------

    def solution(self, state: StateT, turns: int, winners: Sequence[MoveT]) -> SolutionNode:
        """The solution tree from ``state``, where the attacker wins in ``turns`` with exactly ``winners``.

        A final node (``turns == 1``) accepts every winning turn; any other must have one winner (else
        :class:`NotUnique`), after which each of the defender's best defences gets its own node.
        """
        tactics = self.tactics
        names = [tactics.notation(state, move) for move in winners]
        if turns == 1:
            return SolutionNode(names[0], True, also=names[1:])
        if len(winners) != 1:
            raise NotUnique(f"{len(winners)} turns win in {turns}: {', '.join(names[:4])}")
        after = tactics.play(state, winners[0])
        graded: list[tuple[int, float, str, StateT, list[MoveT]]] = []
        for reply in tactics.defender_replies(after, turns - 1, self.meter):
            self.meter.tick()
            then = tactics.play(after, reply)
            if tactics.verdict(then) is not Verdict.OPEN:
                continue  # loses at once (Bump: the attacker's centre piece stays): no defence
            lasts, found = self.shortest(then, turns - 1, limit=SOLUTION_WINNERS)
            if not lasts:  # cannot happen when ``winners`` is right; a guard against a tactics' bug
                raise AssertionError("a winning turn was refuted while its tree was built")
            graded.append((lasts, tactics.resistance(then, found), tactics.notation(after, reply), then, found))
        if not graded:
            raise AssertionError("a winning turn that is not final has no reply left to play")
        longest = max(g[0] for g in graded)
        hardest = max(g[1] for g in graded if g[0] == longest)
        replies = [
            (name, self.solution(then, lasts, found))
            for lasts, hard, name, then, found in graded
            if lasts == longest and hard == hardest
        ]
        return SolutionNode(names[0], False, replies=replies)


#: Winning turns looked for after a defence: one more than a non-final node may have, so a second is seen.
SOLUTION_WINNERS = 8
