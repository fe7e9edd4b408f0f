"""The replay gate: soft limits on GIF replays (docs/rules.md, "Limits"), kept in this process."""

from __future__ import annotations

# GIF replays are slow to draw: drawn apart from boards (Pictures.gif), one at a time per match, and a user
# waits between two.
GIF_COOLDOWN_SECONDS = 30.0


class ReplayGate:
    """Soft limits on GIF replays, kept in this process: one drawing per match at a time, a wait per user.

    A seam like ChallengeLimits: per process is enough here (a replay is read-only, and a second process
    drawing one more costs a little CPU, nothing else).
    """

    def __init__(self, cooldown: float = GIF_COOLDOWN_SECONDS) -> None:
        self.cooldown = cooldown
        self._drawing: set[int] = set()
        self._asked: dict[int, float] = {}

    def wait_for(self, user_id: int, now: float) -> float:
        """Seconds the user must still wait (0: they may ask now); a clock stepped back waits no longer."""
        asked = min(self._asked.get(user_id, -self.cooldown), now)
        return max(0.0, self.cooldown - (now - asked))

    def asked(self, user_id: int, now: float) -> None:
        self._asked[user_id] = now

    def drawing(self, match_id: int) -> bool:
        return match_id in self._drawing

    def start(self, match_id: int) -> None:
        self._drawing.add(match_id)

    def done(self, match_id: int) -> None:
        self._drawing.discard(match_id)
