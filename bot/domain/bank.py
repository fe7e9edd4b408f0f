"""Clocks with a bank (a Fischer clock counted in hours): each player's time left, spent while it is their
turn, refilled by an increment after each turn they play, never above a cap.

Pure arithmetic on seconds, shared by the service (which charges a turn in the move's transaction) and the
tests of its invariants; the wording (``72h+36h max 120h``) lives in the chat layer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BankClock:
    """A match's clock: what every player starts with, gets back after each turn, and may hold at most."""

    initial: float
    """Seconds each player's bank holds when the match starts."""
    increment: float
    """Seconds added to a player's bank after each turn they play (0: a plain bank)."""
    cap: float
    """The most a bank may hold, in seconds (never less than ``initial``)."""


@dataclass(frozen=True)
class Settled:
    """A turn's effect on the bank of the player whose turn it was."""

    bank: float
    """Seconds in the bank afterwards."""
    used: float
    """Seconds the turn took from the bank (at most what the bank held)."""
    forfeited: float
    """Seconds of the increment the cap did not let in."""


def settle(clock: BankClock, bank: float, left: float, *, played: bool) -> Settled:
    """The bank after a turn that began with ``bank`` seconds and ended with ``left`` seconds still to go (the
    deadline's distance, which vacations and outages pushed back); ``played``: the player completed a turn
    and earns the increment (a takeback or a time-out earns nothing)."""
    remaining = min(bank, max(0.0, left))  # thinking never adds time; an overdrawn bank is empty
    refilled = remaining + (clock.increment if played else 0.0)
    kept = min(clock.cap, refilled)
    return Settled(kept, bank - remaining, refilled - kept)
