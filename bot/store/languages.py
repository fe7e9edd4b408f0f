"""The Store protocol's part for the languages of servers and players, chosen and seen.

bot/store/base.py's ``Store`` includes it; sqlite/languages.py and postgres/languages.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import Languages


class LanguageStore(Protocol):
    async def guild_languages(self, guild_id: int) -> Languages:
        """The server's chosen language (``/config language``) and its preferred locale as last seen."""
        ...

    async def see_guild_language(self, guild_id: int, language: str, now: float) -> None:
        """Note the server's preferred locale (its other settings untouched; a row made if there was none)."""
        ...

    async def player_languages(self, user_id: int) -> Languages:
        """The language a person chose (``/settings language``) and the one their Discord used last."""
        ...

    async def see_player_language(self, user_id: int, language: str, now: float) -> None:
        """Note the language of a person's latest interaction (their choice, if any, untouched)."""
        ...

    async def choose_player_language(self, user_id: int, language: str | None, now: float) -> None:
        """A person's own choice of language; None goes back to their Discord's."""
        ...
