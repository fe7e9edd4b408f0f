"""The Store protocol's part for matches set aside (their data cannot be served), and the claims on
telling their players.

bot/store/base.py's ``Store`` includes it; sqlite/quarantine.py and postgres/quarantine.py implement it.
"""

from __future__ import annotations

from typing import Protocol


class QuarantineStore(Protocol):
    async def quarantine(self, match_id: int, reason: str, now: float) -> bool:
        """Set a match aside; False if it already was."""
        ...

    async def release_quarantine(self, match_id: int) -> None: ...

    async def quarantined_ids(self) -> list[int]: ...

    async def claim_paused_untold(self, now: float, lease: float) -> list[int]:
        """Set-aside matches whose players have not been told yet, claimed for ``lease`` seconds."""
        ...

    async def release_paused_notice(self, match_id: int) -> None: ...

    async def quarantine_told(self, match_id: int) -> None: ...
