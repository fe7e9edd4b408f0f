"""Claims on PostgreSQL: when one may be taken (shared by every section of the store)."""

from __future__ import annotations

from ...domain.clock import STALE_SECONDS


def free_claim(claim: str, now: str, me: str) -> str:
    """SQL: the claim in the columns ``claim``_until and ``claim``_by may be taken (``now``: the parameter of the
    lease clock's time, ``me``: of this incarnation). It was given back, its lease ran out, or the process
    that took it is gone: no shard heartbeat has named its incarnation for STALE_SECONDS (killed, or started
    again under a new one). A claim of this process is held by it whatever its heartbeat says."""
    return (
        f"({claim}_until IS NULL OR {claim}_until <= {now} OR ({claim}_by IS NOT NULL AND {claim}_by <> {me}"
        f" AND NOT EXISTS (SELECT 1 FROM shard_heartbeats h WHERE h.incarnation = {claim}_by"
        f" AND h.incarnation_seen > {now} - {float(STALE_SECONDS)})))"
    )
