"""Invariants of bank clocks and quiet hours, for any clock, any sequence of turns and any moment."""

from __future__ import annotations

import math
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.words.shared import bank_clock_text
from bot.domain.bank import BankClock, settle
from bot.domain.errors import Refusal
from bot.domain.quiet import in_night, morning_after
from bot.service.time_input import MAX_CLOCK, MIN_BANK, parse_bank_clock

HOUR = 3600.0
hours = st.integers(min_value=1, max_value=24 * 365)


@st.composite
def clocks(draw):
    initial = draw(hours)
    cap = draw(st.integers(min_value=initial, max_value=24 * 365))
    increment = draw(st.integers(min_value=0, max_value=24 * 365))
    return BankClock(initial * HOUR, increment * HOUR, cap * HOUR)


# a turn: the time it cost (seconds of thinking: a vacation's or an outage's time was already given back by
# pushing the deadline, see the end-to-end tests) and whether the player completed it (a takeback or a
# time-out earns no increment)
turns = st.lists(
    st.tuples(st.floats(min_value=0, max_value=400 * 24 * HOUR, allow_nan=False), st.booleans()), max_size=40
)


@settings(max_examples=150, deadline=None)
@given(clocks(), turns)
def test_a_bank_never_exceeds_its_cap_never_goes_negative_and_accounts_for_every_second(clock, played_turns):
    bank = clock.initial
    earned = used = forfeited = 0.0
    for thinking, completed in played_turns:
        step = settle(clock, bank, bank - thinking, played=completed)  # the deadline's distance when they moved
        assert 0.0 <= step.bank <= clock.cap
        assert 0.0 <= step.used <= bank  # never more than the bank held
        assert math.isclose(step.used, min(thinking, bank), rel_tol=1e-9, abs_tol=1e-6)
        earned += clock.increment if completed else 0.0
        used += step.used
        forfeited += step.forfeited
        bank = step.bank
    # every second: what it started with, plus what it earned, less what was spent and what the cap refused
    assert math.isclose(clock.initial + earned - used - forfeited, bank, rel_tol=1e-9, abs_tol=1e-3)


@settings(max_examples=60, deadline=None)
@given(clocks())
def test_a_clock_written_back_reads_as_itself(clock):
    assert parse_bank_clock(bank_clock_text(clock)) == clock


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789.+-hdmax ", max_size=24))
def test_any_text_is_a_sound_clock_or_refused(text):
    try:
        clock = parse_bank_clock(text)
    except Refusal as refusal:
        assert refusal.reason.startswith("clock_")
        return
    assert MIN_BANK <= clock.initial <= clock.cap <= MAX_CLOCK and 0 <= clock.increment <= MAX_CLOCK


@pytest.mark.parametrize(
    "text", ["0h+1h max 2h", "2h+1h max 0h", "-1h+1h max 2h", "2h+-1h max 3h", "366d+0h max 366d", "5h+1h max 4h"]
)
def test_an_empty_negative_absurd_or_inverted_clock_is_refused(text):
    with pytest.raises(Refusal):
        parse_bank_clock(text)


ZONES = ["Europe/London", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(ZONES),
    st.integers(min_value=0, max_value=1439),
    st.integers(min_value=0, max_value=1439),
    st.floats(min_value=1.7e9, max_value=2.2e9, allow_nan=False),
)
def test_a_night_ends_within_a_day_at_its_morning_and_a_day_is_never_held(zone, start, end, now):
    if start == end:
        return
    morning = morning_after(zone, start, end, now)
    local = datetime.fromtimestamp(now, ZoneInfo(zone))
    if not in_night(local.hour * 60 + local.minute, start, end):
        assert morning is None
        return
    assert morning is not None and now <= morning <= now + 25 * HOUR  # a clock change may lengthen a night
    after = datetime.fromtimestamp(morning, ZoneInfo(zone))
    assert not in_night(after.hour * 60 + after.minute, start, end) or morning == now
