"""The sandbox's clock offset, shared with the bot process through a file (bot.clock.OffsetFileClock)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from .private import write_private


class ClockFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.offset = float(path.read_text(encoding="utf-8").strip() or 0)
        except (OSError, ValueError):
            self.offset = 0.0

    def advance(self, seconds: float) -> float:
        """Move the bot's clock forward; returns the new total offset in seconds."""
        return self._write(self.offset + seconds)

    def real_time(self) -> float:
        """Set the bot's clock back to the real time (no advance): the page's "real time" control. What fell due
        meanwhile stays done; deadlines and reminders set from the advanced clock are further away."""
        return self._write(0.0)

    def now(self) -> float:
        """The bot's time: the real time plus the advance."""
        return time.time() + self.offset

    def _write(self, offset: float) -> float:
        self.offset = offset
        temporary = self.path.with_suffix(".tmp")
        write_private(temporary, repr(self.offset).encode("ascii"))
        os.replace(temporary, self.path)  # the bot never reads a half-written number
        return self.offset
