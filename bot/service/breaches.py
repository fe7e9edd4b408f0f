"""Rows that break one of the schema's constraints set their match or event aside, and the bot starts.

A check of the storage (SQLite's quick_check, at open or beside a large file) names each stored row that breaks
a CHECK or NOT NULL constraint, with the match or event it belongs to (``Store.constraint_breaches``). Such a
row is one row's fault, as an unreadable value is: its match or event is set aside (paused, its players or
organizer told once) and everything else is served (issue 34, item 4). A row of neither (a player's settings,
a rating) is named in the log for the operator and left as it is.
Then what was set aside before is looked at again: whatever reads (and replays) again, and breaks nothing, is
back in play.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ..domain.model import ConstraintBreach
from .matches import MatchService
from .tournaments import Tournaments

log = logging.getLogger(__name__)


async def recheck_set_aside(
    matches: MatchService, tournaments: Tournaments, breaches: Sequence[ConstraintBreach]
) -> tuple[list[int], list[int]]:
    """Set aside the matches and events of ``breaches``, then put back in play what was set aside and reads
    again. The matches, then the events, still set aside."""
    breached_matches: set[int] = set()
    breached_events: set[int] = set()
    for breach in breaches:
        if breach.tournament_id is not None:
            breached_events.add(breach.tournament_id)
            await tournaments.set_aside(breach.tournament_id, breach.describe())
        elif breach.match_id is not None:
            breached_matches.add(breach.match_id)
            await matches.set_aside(breach.match_id, breach.describe())
        else:
            log.error(
                "the database's row %s of %s breaks the schema's rule %s; it belongs to no match or event, so it is "
                "left as it is: repair or delete it",
                breach.rowid,
                breach.table,
                breach.rule,
            )
    paused = await matches.recheck_paused(keep=frozenset(breached_matches))
    events = await tournaments.recheck_set_aside(keep=frozenset(breached_events))
    return paused, events
