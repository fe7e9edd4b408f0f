"""A match played in French through the Discord emulator: French commands, answers, boards and pictures.

The server's preferred locale is French, so everything posted for everyone is French: the lobby, the
thread's boards, the pictures (their drawn words and their descriptions) and the result. Each person's
private answers follow their own Discord (or /settings language), and a DM follows the language stored
from their last interaction. No English word may appear where French is due.
"""

from __future__ import annotations

import asyncio

from i18n import speaking
from tests.botworld import BotWorld
from tests.test_service_texts import ENGLISH_ONLY, readable_words

HOUR = 3600.0


def english_in(text: str) -> list[str]:
    """English words in a French text (code, mentions, times, numbers, names and game options left out)."""
    return [word for word in readable_words(text) if word.lower() in ENGLISH_ONLY]


def button(message, label: str) -> dict:
    return next(b for b in message.buttons() if b["label"] == label)


async def test_a_begird_match_in_a_french_server_is_french_from_the_lobby_to_the_result(database):
    world = await BotWorld(database, guild_locale="fr").start()
    try:
        emu, salon = world.emu, world.channel
        amelie, bruno = world.add_user("amelie", locale="fr"), world.add_user("bruno", locale="fr")
        carol = world.users[2]  # her Discord is in English
        lobby = await emu.invoke(amelie, salon, "jouer", {"jeu": "Begird", "adversaire": bruno})
        invitation = lobby.response
        assert invitation is not None and not lobby.ephemeral
        assert english_in(invitation.content) == [] and "Begird" in invitation.content
        accept = button(invitation, "Accepter")["custom_id"]
        accepted = await emu.press(bruno, invitation, accept)
        assert not accepted.ephemeral and english_in(accepted.text) == []
        match_id = int(accept.rsplit(":", 1)[1])
        fil = await world.wait_thread(match_id)

        first = next(m for m in emu.messages(fil) if m.attachments)
        picture = first.attachments[0]
        assert english_in(first.content) == [] and "amelie" in first.content
        assert picture.description and english_in(picture.description) == []
        match = await world.service.get(match_id)
        game = await world.game(match_id)
        with speaking("fr"):
            french = await world.service.render(match, game)
        with speaking("en"):
            english = await world.service.render(match, game)
        assert picture.data == french != english  # the words drawn in the picture are French

        mover = amelie if await world.user_to_move(match_id) == amelie else bruno
        other = bruno if mover is amelie else amelie
        refused = await emu.invoke(mover, fil, "coup", {"coup": "zz99"})
        assert refused.ephemeral and english_in(refused.text) == [] and "zz99" in refused.text
        outsider = await emu.invoke(carol, fil, "move", {"move": "e5"})  # carol's answer: her own language
        assert outsider.ephemeral and "not a player" in outsider.text

        played = await emu.invoke(mover, fil, "coup", {"coup": "e5"})
        board = next(m for m in reversed(emu.messages(fil)) if m.attachments)
        assert board.id != first.id and "e5" in board.content and english_in(board.content) == []
        assert english_in(board.attachments[0].description or "") == []
        assert english_in(played.text) == []

        resign = await emu.invoke(other, fil, "abandon", {})
        assert resign.ephemeral and english_in(resign.text) == []
        confirm = next(b for b in resign.response.buttons() if "resign" in b["custom_id"])
        assert english_in(confirm["label"]) == []
        await emu.press(other, resign.response, confirm["custom_id"])
        await asyncio.sleep(0.05)
        result = emu.messages(fil)[-1]
        assert (await world.service.get(match_id)).status == "finished"
        assert english_in(result.content) == [] and english_in(result.attachments[0].description or "") == []
        for message in emu.messages(fil) + emu.messages(salon):
            assert english_in(message.content) == [], message.content
            for each in message.buttons():
                assert english_in(each["label"]) == [], each["label"]
    finally:
        violations = list(world.emu.violations)
        await world.stop()
    assert violations == []


async def test_each_person_reads_their_own_language_and_a_dm_keeps_it_after_a_restart(database):
    world = await BotWorld(database).start()  # an English server
    try:
        emu, channel = world.emu, world.channel
        alice, amelie = world.users[0], world.add_user("amelie", locale="fr")
        lobby = await world.challenge(alice, [amelie], game="bide")
        assert "days per move" in lobby.response.content or "Bide" in lobby.response.content
        assert "Accept" in [b["label"] for b in lobby.response.buttons()]  # public: the server's English
        board = await emu.invoke(amelie, channel, "plateau", {})  # no match in play yet: refused, in French
        assert board.ephemeral and english_in(board.text) == []
        settings = await emu.invoke(amelie, channel, "reglages", {"langue": "English"})
        assert settings.ephemeral and "Language: English (your choice" in settings.text
        again = await emu.invoke(amelie, channel, "board", {})
        assert "no match in progress" in again.text  # her choice now wins over her Discord's French
        back = await emu.invoke(amelie, channel, "reglages", {"langue": "Langue de mon Discord"})
        assert "Langue\u202f: Français, celle de votre Discord." in back.text

        accept = button(lobby.response, "Accept")
        await emu.press(amelie, lobby.response, accept["custom_id"])
        match_id = int(accept["custom_id"].rsplit(":", 1)[1])
        await world.wait_thread(match_id)
        await world.restart_bot()  # the DM below comes from a process that never saw amelie's locale
        world.clock.advance(30 * HOUR)
        if await world.user_to_move(match_id) == alice:
            thread = await world.wait_thread(match_id)
            await emu.invoke(alice, thread, "move", {"move": "e5"})
            world.clock.advance(30 * HOUR)
        await world.bot.reminders.run_once()
        for _ in range(100):
            if emu.dms(amelie):
                break
            await asyncio.sleep(0.02)
        [reminder] = emu.dms(amelie)
        assert english_in(reminder.content) == [] and reminder.content
    finally:
        violations = list(world.emu.violations)
        await world.stop()
    assert violations == []
