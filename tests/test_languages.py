"""Which language Hexplay speaks to whom, stored on SQLite and on PostgreSQL: a person's choice and their
Discord's language, a server's choice and its preferred locale, and what each process caches of them."""

from __future__ import annotations

import pytest

from bot.domain.errors import Refusal
from bot.domain.model import GuildSettings, Languages
from bot.service.guilds import Guilds
from bot.service.languages import FRESH_FOR, LanguageLookup

pytestmark = pytest.mark.both_backends
GUILD, ALICE = 9000, 101


async def test_a_persons_language_is_their_choice_else_their_discords_last(service):
    languages = service.languages
    assert await languages.of_player(ALICE) == "en"  # nobody seen yet
    spoken = await languages.interaction(ALICE, "fr", GUILD, "en-US")
    assert (spoken.private, spoken.public) == ("fr", "en")
    assert await service.store.player_languages(ALICE) == Languages(None, "fr")
    assert await languages.of_player(ALICE) == "fr"  # a reminder, later, with no interaction
    await languages.choose(ALICE, "en")
    assert (await languages.interaction(ALICE, "fr", GUILD, "en-US")).private == "en"  # the choice wins
    assert await languages.of_player(ALICE) == "en"
    await languages.choose(ALICE, None)
    assert await languages.of_player(ALICE) == "fr"
    assert await service.store.player_languages(ALICE) == Languages(None, "fr")


async def test_another_process_reads_the_stored_languages_after_a_restart(service):
    await service.languages.interaction(ALICE, "fr", GUILD, "fr")
    fresh = LanguageLookup(service.store, service.clock)  # another process, or this one restarted
    assert await fresh.of_player(ALICE) == "fr"
    assert await fresh.of_guild(GUILD) == "fr"
    assert await fresh.of_guild(None) == "en"


async def test_a_servers_choice_overrides_its_locale_and_keeps_its_other_settings(service):
    guilds = Guilds(service)
    await guilds.configure(GUILD, is_admin=True, days_per_move=3)
    await service.languages.interaction(ALICE, "en-US", GUILD, "fr")
    assert await service.languages.of_guild(GUILD) == "fr"
    assert (await guilds.settings(GUILD)).days_per_move == 3  # noting the locale left the settings alone
    await guilds.configure(GUILD, is_admin=True, language="en")
    service.languages.forget_guild(GUILD)
    assert await service.languages.of_guild(GUILD) == "en"
    assert await guilds.settings(GUILD) == GuildSettings(days_per_move=3, language="en")
    await guilds.configure(GUILD, is_admin=True, language=None)
    service.languages.forget_guild(GUILD)
    assert await service.languages.of_guild(GUILD) == "fr"


async def test_an_unknown_language_is_refused_and_nothing_is_stored(service):
    with pytest.raises(Refusal) as refused:
        await Guilds(service).configure(GUILD, is_admin=True, language="xx", days_per_move=3)
    assert refused.value.reason == "unknown_language"
    assert await service.store.guild_settings(GUILD) == GuildSettings()
    with pytest.raises(Refusal):
        await service.languages.choose(ALICE, "klingon")
    assert await service.store.player_languages(ALICE) == Languages()


async def test_a_choice_made_in_another_process_arrives_within_a_minute(service):
    here, there = service.languages, LanguageLookup(service.store, service.clock)
    await here.interaction(ALICE, "fr", None, None)
    await there.choose(ALICE, "en")
    assert await here.of_player(ALICE) == "fr"  # cached here, briefly
    service.clock.advance(FRESH_FOR + 1)
    assert await here.of_player(ALICE) == "en"


async def test_an_unchanged_locale_is_not_written_again(service):
    writes = []
    store = service.store
    original = store.see_player_language

    async def counted(*args):
        writes.append(args)
        await original(*args)

    store.see_player_language = counted
    for _ in range(5):
        await service.languages.interaction(ALICE, "fr", None, None)
    await service.languages.interaction(ALICE, "en-GB", None, None)
    assert [w[1] for w in writes] == ["fr", "en"]


async def test_a_choice_racing_a_noted_locale_keeps_both(service):
    """Two processes at once: one notes the person's Discord language, the other stores their choice; each
    write touches its own column, so neither undoes the other, whatever the order (0-5 ms apart)."""
    import asyncio

    here, there = service.languages, LanguageLookup(service.store, service.clock)
    for trial in range(20):
        user = 500 + trial
        gap = (trial % 6) / 1000

        async def later(work):
            await asyncio.sleep(gap)
            return await work

        noted = here.interaction(user, "fr" if trial % 2 else "en-US", GUILD, "fr")
        chosen = there.choose(user, "en" if trial % 2 else "fr")
        await asyncio.gather(*((noted, later(chosen)) if trial % 4 < 2 else (later(noted), chosen)))
        stored = await service.store.player_languages(user)
        assert stored == Languages("en" if trial % 2 else "fr", "fr" if trial % 2 else "en"), trial
