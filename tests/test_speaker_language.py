"""The speaker's languages are decided once per interaction (issue 38 item 3): at the door, both the person's
(its answers) and the server's (what it posts for everyone); the work the interaction sets off reads the
server's from there instead of looking it up again. Only work no interaction started looks a language up."""

from __future__ import annotations

import asyncio

from bot.chat.speech import in_public
from i18n import Voice, answering, current, voice
from tests.botworld import BotWorld
from tests.test_bot_french import english_in

GUILD, OTHER_GUILD = 1, 2


class CountingLookup:
    """The bot's own LanguageLookup, with each look-up of a server's or a person's language counted."""

    def __init__(self, languages) -> None:
        self.languages = languages
        self.asked: list[tuple[str, int | None]] = []

    async def of_guild(self, guild_id: int | None) -> str:
        self.asked.append(("server", guild_id))
        return await self.languages.of_guild(guild_id)

    async def of_player(self, user_id: int) -> str:
        self.asked.append(("person", user_id))
        return await self.languages.of_player(user_id)


def legal_turn(game) -> str:
    return next(n for n in game.legal_notations() if _plays(game, n))


def _plays(game, notation: str) -> bool:
    try:
        game.copy().play_turn(notation)
    except Exception:
        return False
    return True


async def test_a_move_and_its_board_in_a_french_server_look_no_language_up_after_the_door(database):
    """Before: the board posted in reply to a /move looked the server's language up again (announce.py)."""
    world = await BotWorld(database, guild_locale="fr").start()
    try:
        alice, bob = world.users[0], world.users[1]  # English Discords (en-US) in a French server
        lobby = (await world.challenge(alice, [bob], game="begird")).response
        accept = next(b for b in lobby.buttons() if b["label"] == "Accepter")["custom_id"]  # posted: French
        await world.emu.press(bob, lobby, accept)
        match_id = int(accept.rsplit(":", 1)[1])
        thread = await world.wait_thread(match_id)
        languages = world.service.languages
        asked: list[str] = []
        real_of_guild, real_of_player = languages.of_guild, languages.of_player

        async def of_guild(guild_id):
            asked.append(f"server {guild_id}")
            return await real_of_guild(guild_id)

        async def of_player(user_id):
            asked.append(f"person {user_id}")
            return await real_of_player(user_id)

        languages.of_guild, languages.of_player = of_guild, of_player  # counted on the bot's own instance
        mover = await world.user_to_move(match_id)
        refused = await world.emu.invoke(mover, thread, "move", {"move": "zz99"})
        assert refused.ephemeral and "is not a legal move" in refused.text  # the person's own language
        played = await world.emu.invoke(mover, thread, "move", {"move": legal_turn(await world.game(match_id))})
        assert not played.ephemeral and played.response is not None
        assert english_in(played.response.content) == [], played.response.content  # the server's: French
        assert asked == []
    finally:
        await world.stop()


async def test_work_no_interaction_started_looks_the_servers_language_up_and_an_interactions_work_does_not(service):
    languages = service.languages
    await languages.interaction(7, "en-US", GUILD, "fr")  # the server's Discord is French
    counted = CountingLookup(languages)
    async with in_public(counted, GUILD) as said:  # a reminder's pass, a catch-up board: looked up
        assert said == "fr" == current()
    assert counted.asked == [("server", GUILD)]

    async def an_interactions_task() -> None:  # its own task, as every interaction's handler is
        answering("en", "fr", GUILD)  # what the door decided for an interaction from that server
        async with in_public(counted, GUILD) as said:
            assert said == "fr"
        assert counted.asked == [("server", GUILD)]  # no second look-up
        async with in_public(counted, OTHER_GUILD) as said:  # another server's post: its own language
            assert said == "en"
        assert counted.asked == [("server", GUILD), ("server", OTHER_GUILD)]
        assert current() == "en" and (voice().private, voice().public) == ("en", "fr")

    await asyncio.create_task(an_interactions_task())
    assert voice() == Voice()  # the interaction's languages stayed in its task
