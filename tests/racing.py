"""Adversarial races on one match, shared by tests/test_races.py and benchmarks/soak_races.py.

A trial starts two operations on the same match ``gap`` seconds apart and then checks
the invariants that matter: how many were applied, and that the stored move log
replays to the stored state.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from bot.domain.replay import replay
from bot.service.challenge_limits import CAPS
from bot.service.matches import MatchService

Operation = Callable[[], Awaitable[Any]]


class NoChallengeLimits:
    """Admits every challenge: race trials make dozens of challenges a minute between the same two players, and
    the limits have their own tests (tests/test_challenge_limits.py)."""

    caps = CAPS

    async def admit(self, challenge: Any, now: float) -> None:
        return None


async def race(first: Operation, second: Operation, gap: float | int) -> list[Any]:
    """Run ``first``, then ``second`` concurrently after a gap; exceptions are returned.

    A float gap is seconds; an int gap is that many turns of the event loop, which lands the
    second operation at each await point of the first in turn, independent of machine speed.
    """

    async def delayed() -> Any:
        if isinstance(gap, int):
            for _ in range(gap):
                await asyncio.sleep(0)
        elif gap > 0:
            await asyncio.sleep(gap)
        return await second()

    return list(await asyncio.gather(first(), delayed(), return_exceptions=True))


async def log_matches_state(service: MatchService, match_id: int) -> tuple[bool, int]:
    """(the stored log replays to the stored state, number of logged moves)."""
    match = await service.store.get_match(match_id)
    assert match is not None and match.state is not None
    moves = await service.store.moves(match_id)
    try:
        rebuilt = replay(match, moves)
    except Exception:  # a log that does not even replay
        return False, len(moves)
    same = json.dumps(rebuilt.to_json(), sort_keys=True) == json.dumps(match.state, sort_keys=True)
    return same, len(moves)


# Gaps from 0 to 4 ms, denser below 1 ms where a single turn's transaction is open.
GAPS_MS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)


def gap_for(trial: int) -> float:
    """The gap of a trial in seconds, cycling through GAPS_MS so every run covers the same spread."""
    return GAPS_MS[trial % len(GAPS_MS)] / 1000


def gaps(trials: int, loop_turns: int = 24) -> list[float | int]:
    """Gaps for ``trials`` trials: first 0..loop_turns-1 event-loop turns, then GAPS_MS cycling."""
    return [t if t < loop_turns else gap_for(t) for t in range(trials)]
