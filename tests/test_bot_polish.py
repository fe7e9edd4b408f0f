"""Issue 26's chat items through the real bot and the emulator: what a new player found, each pinned."""

import asyncio
import re

import discord
import pytest

from bot.chat.words import refusal
from bot.domain.errors import Refusal
from bot.domain.model import RatingRow
from games import GAMES
from games.interface import GameError
from tests.racing import NoChallengeLimits
from tests.test_bot_computer import humans_turn_or_over, until

THREAD_IN_A_THREAD = 50024


async def threads_in(world, channel, count: int, timeout: float = 5.0):
    """The channel's threads once there are ``count`` of them, each with its first board."""

    async def enough():
        while True:
            threads = world.emu.threads(channel)
            if len(threads) >= count and all(
                any(m.attachments for m in world.emu.messages(t)) for t in threads[:count]
            ):
                return threads
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(enough(), timeout)


async def button_in(world, channel, label: str, timeout: float = 5.0):
    """The latest message in the channel with a button of that label, and the button."""

    async def posted():
        while True:
            for message in reversed(world.emu.messages(channel)):
                button = next((b for b in message.buttons() if b["label"] == label), None)
                if button is not None:
                    return message, button
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(posted(), timeout)


async def test_play_inside_a_match_thread_opens_the_new_match_in_the_games_channel(world):
    """Issue 26 item 1: /play (and Rematch) typed in a match's thread open the new match's thread in the
    thread's parent channel, never a thread inside a thread, and the answer says where."""
    alice = world.users[0]
    world.service.limits = NoChallengeLimits()  # four matches in a minute: the limits have their own tests
    first_id, first_thread = await world.start_two_player()
    assert first_thread.parent_id == world.channel.id
    # the emulator refuses a thread inside a thread as Discord does (400, code 50024)
    in_thread = await world.bot.get_channel(first_thread.id).fetch_message(world.emu.messages(first_thread)[0].id)
    with pytest.raises(discord.HTTPException) as refused:
        await in_thread.create_thread(name="a thread in a thread")
    assert refused.value.status == 400 and refused.value.code == THREAD_IN_A_THREAD
    world.emu.rejections.clear()
    world.emu.violations.clear()  # asked on purpose: the fixture fails a test on any other
    result = await world.emu.invoke(alice, first_thread, "play", {"game": "bide", "computer": "easy"})
    assert not result.ephemeral, result.text
    threads = await threads_in(world, world.channel, 2)
    second = await world.store.match_by_thread(threads[-1].id)
    assert second is not None and second.id != first_id and second.channel_id == world.channel.id
    assert [r for r in world.emu.rejections if r.code == THREAD_IN_A_THREAD] == []
    where = f"Played in <#{threads[-1].id}>."  # the answer says where the match is played

    async def lobby_says_where():
        return where in world.emu.message(result.response.id).content

    await until(lobby_says_where, timeout=5)
    # an invitation typed in the thread, accepted there: the same
    bob = world.users[1]
    invited = await world.emu.invoke(alice, first_thread, "play", {"game": "bide", "opponent": bob})
    accept = next(b for b in invited.response.buttons() if b["label"] == "Accept")
    await world.emu.press(bob, invited.response, accept["custom_id"])
    accepted = await threads_in(world, world.channel, 3)
    where = f"Played in <#{accepted[-1].id}>."

    async def accepted_says_where():
        return where in world.emu.message(invited.response.id).content

    await until(accepted_says_where, timeout=5)
    # Rematch pressed on its final board: again a thread of its own in the games channel
    await humans_turn_or_over(world, second.id, alice.id)
    asked = await world.emu.invoke(alice, threads[-1], "resign", {})
    confirm = next(b for b in asked.response.buttons() if b["label"] == "Yes, resign")
    await world.emu.press(alice, asked.response, confirm["custom_id"])
    final, rematch = await button_in(world, threads[-1], "Rematch")
    answer = await world.emu.press(alice, final, rematch["custom_id"])
    assert answer.ephemeral and f"<#{world.channel.id}>" in answer.text, answer.text
    assert len(await threads_in(world, world.channel, 4)) == 4
    assert [r for r in world.emu.rejections if r.code == THREAD_IN_A_THREAD] == []


ECHO_LIMIT = 40  # characters of a typed move a refusal may quote


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("typed", ["x" * 3000, "e5 " * 1000, "01," * 1000, "(" * 3000])
def test_a_very_long_move_is_answered_quoting_a_short_prefix(game_id, typed):
    """Issue 26 item 7: a 3,000-character move was answered with 405 characters of its own echo."""
    game = GAMES[game_id].new(2, None)
    with pytest.raises(GameError) as error:
        game.play_turn(typed)
    answer = refusal(Refusal("illegal_move", text=typed, why=str(error.value)))
    longest_echo = max(len(run) for run in re.findall(r"(?:x|e5 ?|01,?|\()+", answer) or [""])
    assert longest_echo <= ECHO_LIMIT and len(answer) <= 250, answer


async def test_a_very_long_move_through_the_bot(world):
    _, thread = await world.start_two_player()
    answer = await world.emu.invoke(world.users[0], thread, "move", {"move": "x" * 3000})
    assert answer.ephemeral and "x" * (ECHO_LIMIT + 1) not in answer.text and len(answer.text) <= 250, answer.text


async def test_move_in_one_matchs_thread_naming_another_match_is_refused(world):
    """Issue 26 item 7: `/move match:` naming another match, typed in a match's thread, played there."""
    alice = world.users[0]
    first_id, first_thread = await world.start_two_player(a=0, b=1)
    second_id, _ = await world.start_two_player(a=0, b=2)
    before = (await world.service.get(second_id)).version
    answer = await world.emu.invoke(alice, first_thread, "move", {"move": "e5", "match": second_id})
    await answer.wait_message()
    assert answer.ephemeral and f"#{second_id}" in answer.text and f"#{first_id}" in answer.text, answer.text
    assert (await world.service.get(second_id)).version == before
    suggested = await world.emu.autocomplete(
        alice, first_thread, "move", {"move": "e", "match": second_id}, focused="move"
    )
    assert [c["value"] for c in suggested] == ["-"], suggested


async def test_the_resign_confirmation_can_be_cancelled(world):
    """Issue 26 item 6: the resign confirmation had no Cancel."""
    alice = world.users[0]
    match_id, thread = await world.start_two_player()
    asked = await world.emu.invoke(alice, thread, "resign", {})
    cancel = next(b for b in asked.response.buttons() if b["label"] == "Cancel")
    pressed = await world.emu.press(alice, asked.response, cancel["custom_id"])
    assert pressed.errors == []
    shown = world.emu.message(asked.response.id)
    assert "not resigned" in shown.content.lower() and shown.buttons() == [], shown.content
    assert (await world.service.get(match_id)).status == "active"


async def test_ratings_are_shown_on_an_elo_like_scale_provisional_until_five_games(world):
    """Issue 26 item 6: "-1.8" after one loss puzzled; ratings read like Elo (1500 to start), marked
    provisional (?) until 5 rated games and listed after the settled ones, and /leaderboard says so."""
    alice, bob, carol = world.users[:3]
    rows = [
        RatingRow(world.guild.id, "bide", alice.id, "alice", 23.2, 8.0, 1, 0, 1, 0),  # one loss: ordinal -1.8
        RatingRow(world.guild.id, "bide", bob.id, "bob", 35.0, 7.0, 2, 2, 0, 0),  # lucky start: provisional
        RatingRow(world.guild.id, "bide", carol.id, "carol", 30.0, 2.0, 12, 8, 4, 0),  # settled
    ]
    async with world.store.transaction() as db:
        for r in rows:
            await db.execute(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws),
            )
    board = await world.emu.invoke(alice, world.channel, "leaderboard", {"game": "bide"})
    lines = board.text.splitlines()
    assert lines[1].startswith(f"1. <@{carol.id}> — 1650 (")
    assert lines[2].startswith(f"2. <@{bob.id}> — 1800? (")
    assert lines[3].startswith(f"3. <@{alice.id}> — 1446? (")
    assert "1500" in lines[-1] and "provisional" in lines[-1] and "5 rated games" in lines[-1]
    profile = await world.emu.invoke(alice, world.channel, "profile", {})
    assert "Bide: rating 1446? (provisional), #3 of 3" in profile.text, profile.text


async def test_games_with_more_matches_than_a_message_holds_pages_with_buttons(world):
    """Issue 26 item 8: /games with more than 24 matches ended in "… and more" with no way to the rest."""
    alice = world.users[0]
    world.service.limits = NoChallengeLimits()  # the limits have their own tests
    for _ in range(30):
        await world.service.create(
            game_id="bide",
            creator=(alice.id, "alice"),
            invited=[],
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            players=2,
            options_text=None,
            days_per_move=None,
            rated=True,
        )
    shown = await world.emu.invoke(alice, world.channel, "games", {})
    seen = set()
    message = shown.response
    pages = 1
    while True:
        text = world.emu.message(message.id).content
        assert "and more" not in text
        seen |= set(re.findall(r"Bide #(\d+)", text))
        labels = [b["label"] for b in world.emu.message(message.id).buttons()]
        if "Next" not in labels:
            break
        nxt = next(b for b in world.emu.message(message.id).buttons() if b["label"] == "Next")
        pressed = await world.emu.press(alice, world.emu.message(message.id), nxt["custom_id"])
        assert pressed.errors == [] and pages < 10
        pages += 1
    assert seen == {str(n) for n in range(1, 31)} and pages == 3
    assert "Page 3 of 3 (30 matches)" in world.emu.message(message.id).content


async def test_a_bump_turn_built_from_the_boards_button_piece_target_turn(world):
    """Issue 26 item 7: Bump boards had no Build your turn; its menus are piece, then target, then turn."""
    alice = world.users[0]
    match_id, thread = await world.start_two_player(game="bump")
    board, build = await button_in(world, thread, "Build your turn")
    opened = await world.emu.press(alice, board, build["custom_id"])
    builder = await opened.wait_message(timeout=15)
    for label in ("Piece on 01", "to 03", None):
        message = world.emu.message(builder.id)
        menus = message.selects()
        assert all(len(m["options"]) <= 25 for m in menus), [len(m["options"]) for m in menus]
        options = [(m, o) for m in menus for o in m["options"]]
        menu, option = next((m, o) for m, o in options if label is None or o["label"] == label)
        before = message.content
        await world.emu.select(alice, message, menu["custom_id"], [option["value"]])

        async def changed(before=before):
            return world.emu.message(builder.id).content != before

        await until(changed, timeout=10)
    message = world.emu.message(builder.id)
    end = next(b for b in message.buttons() if b["label"] == "End turn")
    played = await world.emu.press(alice, message, end["custom_id"])
    assert played.errors == []
    await until(lambda_is_bobs_turn(world, match_id), timeout=10)


def lambda_is_bobs_turn(world, match_id):
    async def bobs_turn():
        return (await world.game(match_id)).to_move == 2

    return bobs_turn


async def test_autocomplete_continues_a_turn_from_a_picked_suggestion(world):
    """Issue 26 item 7: after a pick, Discord moves on to the next option and, back in `move`, sends the
    picked value as it is (no separator after it): the suggestions must continue the turn from there."""
    alice = world.users[0]
    _, thread = await world.start_two_player(game="playbai", options="expert=false")
    for picked in ("e2-e3", "e2-e3 "):  # as picked; with the space Discord's box may add
        choices = await world.emu.autocomplete(alice, thread, "move", {"move": picked})
        values = [c["value"] for c in choices]
        assert values[0] == "e2-e3" and "end the turn here" in choices[0]["name"], choices[:3]
        assert sum(v.startswith("e2-e3,") for v in values) >= 10, values
