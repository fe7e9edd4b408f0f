"""The request budget that whatever sends in bulk spends from (bot/pacing.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.chat.pacing import GLOBAL_LIMIT_PER_SECOND, LocalRequestBudget


async def spend_all(budget: LocalRequestBudget, count: int) -> list[float]:
    """``count`` single requests at once; when each was let through."""
    times: list[float] = []

    async def one() -> None:
        await budget.spend()
        times.append(time.monotonic())

    await asyncio.gather(*(one() for _ in range(count)))
    return sorted(times)


async def test_no_window_lets_through_more_than_a_burst_and_the_rate():
    budget = LocalRequestBudget(per_second=200, burst=5)
    times = await spend_all(budget, 80)
    assert times[-1] - times[0] >= (80 - 5) / 200 * 0.95  # paced, not all at once
    window = 0.1
    busiest = max(sum(1 for u in times if t <= u < t + window) for t in times)
    assert busiest <= 5 + 200 * window + 2, busiest  # (2: the event loop wakes late at times)


async def test_the_default_budget_stays_under_discords_global_limit():
    budget = LocalRequestBudget()
    assert budget.burst + budget.per_second < GLOBAL_LIMIT_PER_SECOND


async def test_a_spend_beyond_the_burst_is_owed_by_the_next_one():
    budget = LocalRequestBudget(per_second=100, burst=3)
    started = time.monotonic()
    await budget.spend(10)
    assert time.monotonic() - started < 0.05  # a full bucket lets it start at once
    await budget.spend(1)
    assert time.monotonic() - started >= (10 - 3 + 1) / 100 * 0.95


def test_a_budget_without_a_rate_or_a_burst_is_refused():
    with pytest.raises(ValueError):
        LocalRequestBudget(per_second=0)
    with pytest.raises(ValueError):
        LocalRequestBudget(burst=0)
