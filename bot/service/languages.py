"""Which language Hexplay speaks to whom, and what Discord says people and servers use.

- A private answer: the person's own choice (``/settings language``), else their Discord's language.
- A public post in a server: the server's choice (``/config language``), else its preferred locale.
- A DM or reminder (no interaction to read a locale from): the person's choice, else the language of their
  latest interaction, stored so any process, after any restart, can write to them in it.

Every interaction carries the person's locale and the server's: both are noted in the store when they change,
with one read per person and server per process to know whether they did. Choices are cached for a minute: a
choice made through another process reaches this one within that time.
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import DEFAULT, LANGUAGES, language_of

from ..domain.clock import Clock
from ..domain.errors import Refusal
from ..domain.model import Languages as Stored
from ..store.base import Store

FRESH_FOR = 60.0  # seconds a stored choice is trusted in this process


@dataclass(frozen=True)
class Spoken:
    """The two languages of an interaction: its answers' and its server's posts'."""

    private: str
    public: str


class LanguageLookup:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store, self.clock = store, clock
        self._players: dict[int, tuple[float, Stored]] = {}
        self._guilds: dict[int, tuple[float, Stored]] = {}

    async def interaction(
        self, user_id: int, locale: str | None, guild_id: int | None, guild_locale: str | None
    ) -> Spoken:
        """The languages of an interaction, noting the locales it came with."""
        player = await self._player(user_id)
        seen = language_of(locale) if locale else None
        if seen is not None and seen != player.seen:
            await self.store.see_player_language(user_id, seen, self.clock.now())
            player = self._remember(self._players, user_id, Stored(player.chosen, seen))
        private = player.chosen or seen or player.seen or DEFAULT
        if guild_id is None:
            return Spoken(private, private)
        guild = await self._guild(guild_id)
        guild_seen = language_of(guild_locale) if guild_locale else None
        if guild_seen is not None and guild_seen != guild.seen:
            await self.store.see_guild_language(guild_id, guild_seen, self.clock.now())
            guild = self._remember(self._guilds, guild_id, Stored(guild.chosen, guild_seen))
        return Spoken(private, guild.chosen or guild_seen or guild.seen or DEFAULT)

    async def of_player(self, user_id: int) -> str:
        """The language of a DM or reminder to this person."""
        player = await self._player(user_id)
        return player.chosen or player.seen or DEFAULT

    async def stored(self, user_id: int) -> Stored:
        """What is stored of a person's languages (their choice, and their Discord's)."""
        return await self._player(user_id)

    async def of_guild(self, guild_id: int | None) -> str:
        """The language of a public post in this server (English outside any)."""
        if guild_id is None:
            return DEFAULT
        guild = await self._guild(guild_id)
        return guild.chosen or guild.seen or DEFAULT

    async def choose(self, user_id: int, language: str | None) -> Stored:
        """A person's choice (None: their Discord's language again)."""
        check(language)
        await self.store.choose_player_language(user_id, language, self.clock.now())
        player = await self._player(user_id)
        return self._remember(self._players, user_id, Stored(language, player.seen))

    def forget_guild(self, guild_id: int) -> None:
        """The server's choice changed here (/config): read it again."""
        self._guilds.pop(guild_id, None)

    async def _player(self, user_id: int) -> Stored:
        return self._fresh(self._players, user_id) or self._remember(
            self._players, user_id, await self.store.player_languages(user_id)
        )

    async def _guild(self, guild_id: int) -> Stored:
        return self._fresh(self._guilds, guild_id) or self._remember(
            self._guilds, guild_id, await self.store.guild_languages(guild_id)
        )

    def _fresh(self, cache: dict[int, tuple[float, Stored]], key: int) -> Stored | None:
        cached = cache.get(key)
        return cached[1] if cached is not None and cached[0] > self.clock.now() else None

    def _remember(self, cache: dict[int, tuple[float, Stored]], key: int, value: Stored) -> Stored:
        cache[key] = (self.clock.now() + FRESH_FOR, value)
        return value


def check(language: str | None) -> None:
    """A language Hexplay can speak, or None (no choice)."""
    if language is not None and language not in LANGUAGES:
        raise Refusal("unknown_language", language=language, known=LANGUAGES)
