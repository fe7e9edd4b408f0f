"""Errors every layer may raise or catch: the store's, and (below) the refusals players read."""

from __future__ import annotations


class StoreUnavailable(Exception):
    """The database cannot be used; the message is one line for the operator."""

class VersionConflict(Exception):
    """The match changed since it was read: the caller's action was not applied."""

class StorageFull(Exception):
    """The disk (or the database's size limit) is full: the change was rolled back, nothing of it is stored."""

class DamagedMatch(Exception):
    """Part of a match's stored data cannot be read; the match is set aside, nothing else is affected."""

    def __init__(self, match_id: int, reason: str) -> None:
        super().__init__(f"match {match_id}: {reason}")
        self.match_id = match_id
        self.reason = reason
