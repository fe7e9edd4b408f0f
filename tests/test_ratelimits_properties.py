"""Invariants of the emulator's rate limiter, with a fake clock (no server, no sleeping)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.ratelimits import RateLimiter, RateLimits, RouteLimit

ROUTE = "/channels/{channel_id}/messages"


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def limiter(limit: int, per: float, global_limit: int = 1000) -> tuple[RateLimiter, FakeClock]:
    clock = FakeClock()
    config = RateLimits(global_limit=global_limit, routes={"message-create": RouteLimit(limit, per)})
    return RateLimiter(config, clock=clock, wall_clock=lambda: 1_700_000_000 + clock.now), clock


gaps = st.lists(st.floats(min_value=0, max_value=2.0, allow_nan=False), min_size=1, max_size=60)


@settings(max_examples=200, deadline=None)
@given(gaps=gaps, limit=st.integers(1, 6), per=st.floats(0.1, 3.0), channels=st.integers(1, 3))
def test_no_window_admits_more_than_the_limit_and_headers_agree(gaps, limit, per, channels) -> None:
    rate, clock = limiter(limit, per)
    admitted: dict[str, list[float]] = {}
    for index, gap in enumerate(gaps):
        clock.now += gap
        channel = str(index % channels)
        decision = rate.check("POST", ROUTE, ROUTE, {"channel_id": channel}, bot=True)
        headers = decision.headers
        assert headers["X-RateLimit-Limit"] == str(limit) and headers["X-RateLimit-Bucket"] == "message-create"
        reset_after = float(headers["X-RateLimit-Reset-After"])
        assert 0 < reset_after <= per + 0.001
        if decision.refusal is None:
            admitted.setdefault(channel, []).append(clock.now)
            assert 0 <= int(headers["X-RateLimit-Remaining"]) < limit
        else:
            assert headers["X-RateLimit-Remaining"] == "0" and decision.refusal["global"] is False
            assert decision.refusal["retry_after"] == reset_after
    for times in admitted.values():  # however the windows fall, no span of `per` seconds holds more than
        for i, start in enumerate(times):  # twice the limit, and a fixed window never more than the limit
            assert sum(1 for t in times[i:] if t < start + per) <= 2 * limit


@settings(max_examples=200, deadline=None)
@given(burst=st.integers(1, 30), limit=st.integers(1, 5), per=st.floats(0.1, 3.0))
def test_waiting_retry_after_always_gets_through(burst, limit, per) -> None:
    rate, clock = limiter(limit, per)
    params = {"channel_id": "1"}
    outcomes = [rate.check("POST", ROUTE, ROUTE, params, bot=True) for _ in range(burst)]
    assert sum(o.refusal is None for o in outcomes) == min(burst, limit)  # one window: exactly the limit
    refused = [o for o in outcomes if o.refusal is not None]
    if refused:
        clock.now += refused[-1].refusal["retry_after"]
        assert rate.check("POST", ROUTE, ROUTE, params, bot=True).refusal is None


@settings(max_examples=100, deadline=None)
@given(burst=st.integers(1, 40), global_limit=st.integers(1, 10))
def test_the_global_limit_counts_the_bots_requests_but_not_interaction_answers(burst, global_limit) -> None:
    rate, _ = limiter(1000, 1.0, global_limit=global_limit)
    webhook = "/webhooks/{app}/{token}"
    for n in range(burst):  # interaction answers, each for its own interaction, never count
        token = {"app": "1", "token": f"t{n}"}
        assert rate.check("POST", webhook, webhook, token, bot=False).refusal is None
    outcomes = [
        rate.check("GET", "/channels/{channel_id}", "/x", {"channel_id": str(n)}, bot=True) for n in range(burst)
    ]
    assert sum(o.refusal is None for o in outcomes) == min(burst, global_limit)
    assert all(o.refusal["global"] and o.headers["X-RateLimit-Global"] == "true" for o in outcomes if o.refusal)
