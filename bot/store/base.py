"""The store's API: what the service may ask of the database, whatever the database is.

Each method is one unit of work: a read of committed data, or one transaction. Changes to a match
are compare-and-set on its ``version`` (and status), so two processes acting at the same instant
never both apply (the loser gets VersionConflict). ``tests/test_store_contract.py`` is the definition
every implementation must pass.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import ConstraintBreach
from .boards import BoardStore
from .challenges import ChallengeStore
from .deadlines import DeadlineStore
from .languages import LanguageStore
from .lobby import LobbyStore
from .matches import MatchStore
from .offers import OfferStore
from .preferences import PreferenceStore
from .premoves import PremoveStore
from .puzzles import PuzzleStore
from .quarantine import QuarantineStore
from .ratings import RatingStore
from .reminders import ReminderStore
from .reviews import ReviewStore
from .shards import ShardStore
from .tournaments import TournamentStore


class Store(
    ReviewStore,
    MatchStore,
    BoardStore,
    LobbyStore,
    ChallengeStore,
    QuarantineStore,
    PremoveStore,
    ReminderStore,
    PreferenceStore,
    LanguageStore,
    OfferStore,
    DeadlineStore,
    ShardStore,
    RatingStore,
    TournamentStore,
    PuzzleStore,
    Protocol,
):
    shared: bool
    """Whether several bot processes may use this database at once (PostgreSQL), or one only (SQLite)."""
    incarnation: str
    """This opening of the store: one process's start. Every claim it takes names it, and a claim is free once
    its incarnation is gone, whatever its lease says: on SQLite (one process holds the file) any claim another
    start took; on PostgreSQL one whose incarnation no shard heartbeat has named for ``STALE_SECONDS`` of the
    lease clock (bot.domain.clock; ``beat`` names it). A claim is always given back by the one who took it."""

    async def close(self) -> None:
        """Release the connection(s); nothing may be asked afterwards."""
        ...

    async def damage(self) -> str | None:
        """What a check of the storage itself left for after opening found (SQLite's integrity check of a
        large file); None when sound. The runtime stops the bot on an answer: it must not serve damage."""
        ...

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        """Stored rows a check of the storage found breaking one of the schema's constraints (SQLite's
        quick_check; PostgreSQL checks every write, so none): the service sets each one's match or event aside
        and the bot starts. None while that check still runs beside a large file (``damage()`` waits for it)."""
        ...

    async def schema_version(self) -> int: ...

    async def ping(self) -> None:
        """``SELECT 1``: raises if the database does not answer (a health check bounds how long it waits)."""
        ...
