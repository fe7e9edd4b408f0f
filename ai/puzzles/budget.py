"""What one proof may spend: a node count and a CPU cap; over either, the proof gives up ("unknown").

A *node* is a position the prover makes or a candidate turn it examines (each game's tactics counts its own
analysis too), so the node count bounds the work on any machine and the CPU cap (``time.process_time``)
bounds it on a slow one. A proof that runs out says nothing: the candidate is discarded, never kept on a
guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ProofBudget:
    """The most one candidate's proof may spend."""

    nodes: int = 60_000
    """Positions made and candidate turns examined."""
    seconds: float | None = 3.0
    """CPU seconds (``time.process_time``) from the proof's start; None: the nodes alone."""


class OverBudget(Exception):
    """The proof ran out of its budget: its answer is unknown."""


class Meter:
    """Counts one proof's nodes against its budget; :meth:`tick` raises :class:`OverBudget` past it."""

    #: Nodes between two looks at the clock (``process_time`` costs about a microsecond).
    CLOCK_EVERY = 64

    def __init__(self, budget: ProofBudget) -> None:
        self.budget = budget
        self.nodes = 0
        self.started = time.process_time()
        self._deadline = None if budget.seconds is None else self.started + budget.seconds
        self._next_look = self.CLOCK_EVERY

    def tick(self, count: int = 1) -> None:
        self.nodes += count
        if self.nodes > self.budget.nodes:
            raise OverBudget(f"more than {self.budget.nodes} nodes")
        if self._deadline is not None and self.nodes >= self._next_look:
            self._next_look = self.nodes + self.CLOCK_EVERY
            if time.process_time() > self._deadline:
                raise OverBudget(f"more than {self.budget.seconds} CPU seconds")

    @property
    def seconds(self) -> float:
        """CPU seconds spent so far."""
        return time.process_time() - self.started
