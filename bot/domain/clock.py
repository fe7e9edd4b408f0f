"""Time, injectable so tests can move it by hand."""

from __future__ import annotations

import math
import os
import time
from typing import Protocol

# A bot process beats (``Store.beat``, naming its incarnation: its start) at least every BEAT_SECONDS of the
# lease clock; one not seen for STALE_SECONDS is gone, and the claims it named are free to any other process
# (docs/scale.md). A restart names a new incarnation at once: its old claims are free from its first beat.
BEAT_SECONDS = 10.0
STALE_SECONDS = 30.0


class Clock(Protocol):
    def now(self) -> float:
        """The time the games are played in: turns, deadlines, reminders."""
        ...

    def lease_now(self) -> float:
        """The time a claim's lease runs in (how long a process may hold a duty before another takes it):
        the wall clock, even when the sandbox moves the game's clock days ahead, since what a lease
        measures is whether the holding process is still alive."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def lease_now(self) -> float:
        return time.time()


class ManualClock:
    """A clock tests move by hand."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.current = start

    def now(self) -> float:
        return self.current

    def lease_now(self) -> float:
        return self.current  # tests move leases by hand too

    def advance(self, seconds: float) -> None:
        self.current += seconds


class OffsetFileClock:
    """System time plus an offset in seconds read from a file another process may rewrite.

    The sandbox's "advance clock" control writes the file (HEXPLAY_CLOCK_OFFSET_FILE) so a bot
    in its own process sees reminders fall due; a missing or unreadable file means no offset.
    The file is re-read only when it changes.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._offset = 0.0

    def offset(self) -> float:
        try:
            status = os.stat(self.path)
            # Writers replace the file (a new inode), so a change within the mtime's granularity is seen.
            stamp = (status.st_mtime_ns, status.st_ino, status.st_size)
        except OSError:
            self._stamp, self._offset = None, 0.0
            return 0.0
        if stamp != self._stamp:
            try:
                with open(self.path, encoding="utf-8") as file:
                    self._offset = float(file.read().strip() or 0)
                if not math.isfinite(self._offset):
                    raise ValueError("not a number of seconds")
            except (OSError, ValueError):
                self._offset = 0.0
            self._stamp = stamp
        return self._offset

    def now(self) -> float:
        return time.time() + self.offset()

    def lease_now(self) -> float:
        return time.time()
