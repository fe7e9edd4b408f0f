"""The computer's strength levels: each a search :class:`~ai.search.Budget` with a name.

``simulations`` keeps a level deterministic for a seed; ``seconds`` (CPU time,
``time.process_time``) is a safety cap so ``hard`` answers within 5 s of one
core even on a slow position (the cap leaves room for the root expansion and
the final checks) — when the cap is what stops the search, the result depends
on the machine's speed. Each game scales the simulations by its knowledge's
``simulation_scale`` (Bide's playouts cost more than Begird's).

``random`` (no simulations) picks a uniformly random candidate turn: a baseline for the arena.
"""

from __future__ import annotations

from dataclasses import dataclass

from .search import Budget


@dataclass(frozen=True)
class Level:
    name: str
    simulations: int
    seconds: float | None

    @property
    def budget(self) -> Budget:
        return Budget(self.simulations, self.seconds)


LEVELS: dict[str, Level] = {
    "random": Level("random", 0, None),
    "easy": Level("easy", 60, 1.0),
    "medium": Level("medium", 500, 2.5),
    "hard": Level("hard", 2500, 1.0),
    "expert": Level("expert", 12000, 4.0),
}
DEFAULT_LEVEL = "medium"


def get_level(name: str) -> Level:
    key = name.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}: choose one of {', '.join(LEVELS)}")
    return LEVELS[key]
