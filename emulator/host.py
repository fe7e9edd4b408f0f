"""What the emulator's parts need from the emulator that holds them.

:class:`~emulator.server.DiscordEmulator` builds the gateway, the interaction
service and the REST API and hands itself to each. They see it through these
protocols rather than through the server's class, so no part imports the
server (which imports every part) and the package has no import circle.
"""

from __future__ import annotations

from typing import Any, Protocol

from .models import Message
from .store import Store


class Host(Protocol):
    """The state and the change hooks every part shares."""

    store: Store
    bot_token: str
    violations: list[str]  # breaches of Discord's rules by the bot (a test fails on any)

    @property
    def gateway_url(self) -> str: ...

    def _observe(self, event: str, obj: Any) -> None:
        """Tell the emulator's observers (a web face) about a change a user could see."""

    def _message_posted(self, message: Message) -> None: ...

    def _message_edited(self, message: Message) -> None: ...

    def _message_deleted(self, message: Message) -> None: ...
