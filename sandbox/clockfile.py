"""The sandbox's clock offset, shared with the bot process through a file (bot.clock.OffsetFileClock)."""

from __future__ import annotations

import os
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
        self.offset += seconds
        temporary = self.path.with_suffix(".tmp")
        write_private(temporary, repr(self.offset).encode("ascii"))
        os.replace(temporary, self.path)  # the bot never reads a half-written number
        return self.offset
