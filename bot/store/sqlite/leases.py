"""Claims on SQLite: when one may be taken (shared by every section of the store)."""

from __future__ import annotations


def free_claim(claim: str) -> str:
    """SQL: the claim in the columns ``claim``_until and ``claim``_by may be taken (two ``?``: the lease clock's
    time, this start). It was given back, its lease ran out, or an earlier start took it: one process serves
    the file (ProcessLock), so a start that is not this one has ended, killed or not."""
    return f"({claim}_until IS NULL OR {claim}_until <= ? OR {claim}_by IS NULL OR {claim}_by <> ?)"
