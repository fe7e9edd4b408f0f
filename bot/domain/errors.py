"""Errors every layer may raise or catch: the store's, and (below) the refusals players read."""

from __future__ import annotations


class StoreUnavailable(Exception):
    """The database cannot be used; the message is one line for the operator."""


class TokenRefused(Exception):
    """Discord refused the bot's token at login: the operator must set a valid one."""


class DiscordUnreachable(Exception):
    """Discord's API could not be reached at start (the network, or DISCORD_API_BASE_URL): one line."""


class CannotListen(Exception):
    """The health and metrics port (HEXPLAY_METRICS_PORT) cannot be listened on: said in one line at start."""


class VersionConflict(Exception):
    """The match changed since it was read: the caller's action was not applied."""


class StorageDown(Exception):
    """The database did not answer (the connection dropped, the server restarts): the operation did not
    complete, or, for a write whose answer was lost, its outcome is not known yet."""


class StorageFull(Exception):
    """The disk (or the database's size limit) is full: the change was rolled back, nothing of it is stored."""


class StorageReadOnly(Exception):
    """The database refuses writes (its file or folder became read-only): the change was rolled back, nothing
    of it is stored."""


class DamagedMatch(Exception):
    """Part of a match's stored data cannot be read; the match is set aside, nothing else is affected."""

    def __init__(self, match_id: int, reason: str) -> None:
        super().__init__(f"match {match_id}: {reason}")
        self.match_id = match_id
        self.reason = reason


class DamagedTournament(Exception):
    """Part of a tournament's stored rows cannot be read; the event is set aside (its matches play on)."""

    def __init__(self, tournament_id: int, reason: str) -> None:
        super().__init__(f"tournament {tournament_id}: {reason}")
        self.tournament_id = tournament_id
        self.reason = reason


class Refusal(Exception):
    """A request refused for a reason the player can act on; the refusal itself changed nothing.

    ``reason`` names the refusal and ``facts`` hold what its wording needs (a match, a seat, a number):
    the service decides, the chat layer says it (``bot/chat/words/``, one sentence per reason), so no
    layer below chat writes a sentence for Discord. Kinds that callers act on are subclasses.
    """

    def __init__(self, reason: str, **facts: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.facts = facts

    def __str__(self) -> str:  # for logs; players read chat/words/'s wording
        shown = ", ".join(f"{k}={v!r}"[:60] for k, v in self.facts.items() if k not in ("match", "game"))
        return f"{self.reason}({shown})"


class StalePosition(Refusal):
    """A button, offer or claim made for a position the match has left: it is out of date, not wrong."""


class BuilderExpired(StalePosition):
    """A turn builder opened on a position that has changed since."""


class MatchPaused(Refusal):
    """The match is set aside (its data cannot be read or does not replay): nothing is served in it."""


class TournamentPaused(Refusal):
    """The event is set aside (its stored rows cannot be used): nothing is done in it; its matches play on."""
