"""What the chat layer works with: the services, and the announcer that posts what they decide.

Built once by the composition root (``bot/runtime.py``) and held by the client; a command or a button
reaches it through its interaction (:func:`chat_of`), never through the client's methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, cast

import discord

from ..config import Settings
from ..service.challenges import ChallengeRefusals
from ..service.computer import ComputerPlayer
from ..service.guilds import Guilds
from ..service.matches import MatchService
from ..service.offers import Offers
from ..service.ratings import Ratings
from ..service.review import Reviews
from ..service.timelimits import TimeLimits
from ..service.tournaments import Tournaments
from .announce import Announcer
from .opening import MatchOpening
from .pacing import RequestBudget


class Tally(Protocol):
    """What the chat layer counts for the process's metrics (bot/observe/metrics.py ``BotMetrics``)."""

    def move_answered(self, seconds: float) -> None:
        """A /move was answered, this long after its interaction arrived (a refusal too)."""

    def reminder_sent(self) -> None:
        """A turn reminder was delivered."""


class Uncounted:
    """Counts nothing (a chat built without metrics)."""

    def move_answered(self, seconds: float) -> None:
        pass

    def reminder_sent(self) -> None:
        pass


@dataclass
class Chat:
    settings: Settings
    service: MatchService
    offers: Offers
    timelimits: TimeLimits
    ratings: Ratings
    guilds: Guilds
    challenges: ChallengeRefusals
    computer: ComputerPlayer
    reviews: Reviews
    """Post-game reviews (/review), searched where the computer's turns are."""
    announcer: Announcer
    opening: MatchOpening
    budget: RequestBudget
    """Discord's global request limit, shared by whatever sends in bulk (reminders, catch-up posts)."""
    tournaments: Tournaments
    tally: Tally = field(default_factory=Uncounted)
    """The process's metrics: /move answer times, reminders sent."""

    def now(self) -> float:
        return self.service.clock.now()


class HasChat(Protocol):
    chat: Chat


def chat_of(interaction: discord.Interaction) -> Chat:
    """The chat context of the client this interaction came to."""
    return cast(HasChat, interaction.client).chat
