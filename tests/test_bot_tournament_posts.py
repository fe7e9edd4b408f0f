"""What a tournament posts, through the emulator (issue 37, items 1, 2 and 6): the podium picture's description
names the players, a round robin's notice links every game's thread, the announcement states the options,
/tournament standings answers privately with a Share button, and the standings after each Swiss round are
posted once, after the answer of the command that ended the round, across restarts."""

from __future__ import annotations

import asyncio
import re

from bot.service.matches import MatchService
from bot.service.tournaments import Tournaments
from bot.store import open_store
from tests.test_answer_in_time import SlowPictures
from tests.test_bot_tournaments import button, create, opened, until

DAY = 86400.0
AFTER = re.compile(r"After round (\d) of (\d)")


async def joined_event(world, users, **options):
    """An event created by the first of ``users`` and joined by all of them: (announcement, tournament id)."""
    announcement = await create(world, users[0], **options)
    join = button(announcement, "Join")["custom_id"]
    for user in users:
        pressed = await world.emu.press(user, announcement, join)
        assert not pressed.ephemeral, pressed.text
    return announcement, int(join.rsplit(":", 1)[1])


def posts(world, check):
    return [m for m in world.emu.messages(world.channel) if check(m)]


def round_standings(world):
    """The standings posted after Swiss rounds, as (round, message), in the channel's order."""
    found = []
    for message in world.emu.messages(world.channel):
        heading = message.content.split("\n", 1)[0]
        if (after := AFTER.search(heading)) and message.attachments:
            found.append((int(after.group(1)), message))
    return found


async def test_the_podium_pictures_description_names_the_players_on_it(world7):
    """Item 1: the description said "🥇 a player (1)" (every ping replaced by "a player")."""
    world = world7
    users = world.users[:3]
    _, tournament_id = await joined_event(world, users, game="begird", format="swiss", rounds=1)
    await world.emu.invoke(users[0], world.channel, "tournament start", {})
    (match,) = await opened(world, tournament_id, 1, 1)
    winner, loser = match.seats[0], match.seats[1]
    await world.service.resign(match.id, loser.user_id)
    podium = await until(lambda: _first(world, lambda m: "is over!" in m.content and m.attachments))
    described = podium.attachments[0].description
    assert f"🥇 {winner.name} (1)" in described, described
    assert "a player" not in described, described
    assert f"<@{winner.user_id}>" in podium.content  # the post itself still pings the podium


async def every_match_opened(world, tournament_id, count):
    """The event's matches (every round), once each has its thread and first board."""
    games = await world.bot.chat.service.store.tournament_games(tournament_id)
    matches = [await world.service.read(g.match_id) for g in games if g.match_id is not None]
    if len(matches) == count and all(m.thread_id and m.board_message_id for m in matches):
        return matches
    return None


async def _first(world, check):
    found = posts(world, check)
    return found[0] if found else None


async def test_a_round_robins_notice_links_every_games_thread_while_the_pass_looks_during_the_opening(world7):
    """Item 2: opening a round takes a while under Discord's per-channel limit; the pass (every 2 s in the
    sandbox, or another process) claimed the notice meanwhile and linked only the threads opened so far."""
    world = world7
    world.emu.rate_limits.enabled = True  # as Discord: 5 posts in 5 s per channel
    desk = world.bot.get_cog("Tournaments").desk
    users = world.users[:4]
    announcement, tournament_id = await joined_event(world, users, game="bump", format="round-robin")
    started = await world.emu.invoke(users[0], world.channel, "tournament start", {})
    assert not started.ephemeral, started.text

    async def pass_while_opening():
        while True:
            await desk.tend(tournament_id)  # the periodic pass, as another process's would
            await asyncio.sleep(0.05)

    looking = asyncio.create_task(pass_while_opening())
    try:
        games = await until(lambda: every_match_opened(world, tournament_id, 6), timeout=60)
        notice = await until(lambda: _first(world, lambda m: "has started: all 6 games at once" in m.content))
    finally:
        looking.cancel()
    await desk.tend(tournament_id)
    assert len(posts(world, lambda m: "has started: all 6 games" in m.content)) == 1
    threads = {match.thread_id for match in games}
    linked = {int(n) for n in re.findall(r"<#(\d+)>", notice.content)}
    assert linked == threads and len(threads) == 6, notice.content
    shown = next(m for m in world.emu.messages(world.channel) if m.id == announcement.id)
    assert "Under way" in shown.content and shown.buttons() == []  # no Join/Leave on a started round robin


async def test_the_announcement_states_the_events_options(world7):
    """Item 6: the variant (board=small) was left out of the announcement."""
    world = world7
    announcement = await create(world, world.users[0], game="begird", format="swiss", options="board=small")
    assert "Options: board=small." in announcement.content, announcement.content
    plain = await create(world, world.users[1], game="begird", format="swiss")
    assert "Options: board=standard." in plain.content, plain.content


async def test_standings_answer_privately_and_share_posts_them_for_everyone_once_per_press(world7):
    """Item 6: /tournament standings answered for everyone. Now privately, in the asker's language, with a Share
    button that posts the same table publicly in the server's language, one post a press, after a restart too."""
    world = world7
    users = world.users[:4]
    amelie = world.add_user("amelie", locale="fr")
    _, tournament_id = await joined_event(world, users, game="bump", format="swiss", rounds=2)
    await world.emu.invoke(users[0], world.channel, "tournament start", {})
    first = await opened(world, tournament_id, 1, 2)
    await world.service.resign(first[0].id, first[0].seats[1].user_id)  # one game of round 1 over

    answer = await world.emu.invoke(users[1], world.channel, "tournament standings", {})
    assert answer.ephemeral, answer.text
    assert "Round 1 of 2" in answer.text and "1 game of this round still in play." in answer.text
    assert answer.response.attachments[0].filename == "standings.png"
    share = button(answer.response, "Share")["custom_id"]
    assert share == f"hx:tour:share:{tournament_id}:1"
    french = await world.emu.invoke(amelie, world.channel, "tournoi classement", {})
    assert french.ephemeral and "Ronde 1 sur 2" in french.text, french.text
    before = len(world.emu.messages(world.channel))

    await world.restart_bot()
    shared = await world.emu.press(amelie, french.response, button(french.response, "Partager")["custom_id"])
    assert not shared.ephemeral, shared.text
    assert "Round 1 of 2" in shared.text, shared.text  # the server's language: a post everyone reads
    public = world.emu.messages(world.channel)[before:]
    assert len(public) == 1 and public[0].attachments[0].filename == "standings.png"
    assert public[0].content == shared.response.content

    await world.service.resign(first[1].id, first[1].seats[1].user_id)  # round 1 ends, round 2 starts
    await opened(world, tournament_id, 2, 2)
    again = await world.emu.press(users[1], answer.response, share)  # the table it showed: round 1, complete
    assert not again.ephemeral and "After round 1 of 2" in again.text, again.text
    assert "still in play" not in again.text
    presses = (shared.interaction_id, again.interaction_id)
    assert len([m for m in world.emu.messages(world.channel) if m.interaction_id in presses]) == 2  # one a press


async def test_after_each_swiss_round_its_standings_are_posted_once_after_the_commands_answer(world7):
    """Item 6: nothing was posted between rounds. Now the standings after rounds 1 and 2 (of 3), each once, in
    the event's channel before the next round's games, and after the answer of the command that ended the round
    (round 1: a resignation, round 2: a withdrawal); after the last round, the podium's final table."""
    world = world7
    users = world.users[:4]
    _, tournament_id = await joined_event(world, users, game="bump", format="swiss", rounds=3)
    await world.emu.invoke(users[0], world.channel, "tournament start", {})
    quick = world.bot.chat.service.pictures
    for number, tables in ((1, 2), (2, 2), (3, 1)):  # a withdrawal in round 2 leaves three: a game and a bye
        matches = await opened(world, tournament_id, number, tables)
        world.clock.advance(DAY)
        for match in matches[:-1]:
            await world.service.resign(match.id, match.seats[1].user_id)
        last = matches[-1]
        leaver = next(u for u in users if u.id == last.seats[1].user_id)
        if number == 1:  # the round's last game ends by a command: its answer first, then the posts
            thread = world.emu.channel(last.thread_id)
            asked = await world.emu.invoke(leaver, thread, "resign", {})
            world.bot.chat.service.pictures = SlowPictures(1.0)  # its board is slow to draw: the posts still wait
            answer = await world.emu.press(leaver, asked.response, button(asked.response, "Yes, resign")["custom_id"])

            async def resignation_board(thread=thread):
                boards = [m for m in world.emu.messages(thread) if m.attachments]
                return boards[1] if len(boards) > 1 else None

            board = await until(resignation_board)
            answered = [answer.response.id, board.id]
            world.bot.chat.service.pictures = quick
        elif number == 2:
            answer = await world.emu.invoke(leaver, world.channel, "tournament withdraw", {})
            assert answer.ephemeral and "You withdrew" in answer.text, answer.text
            answered = [answer.response.id]
        else:
            await world.service.resign(last.id, last.seats[1].user_id)
            continue
        table = await until(lambda n=number: _round_standings_of(world, n))
        assert max(answered) < table.id, (answered, table.id)
    await until(lambda: _first(world, lambda m: "is over!" in m.content))
    told = round_standings(world)
    assert [n for n, _ in told] == [1, 2], [m.content for _, m in told]
    for number, message in told:
        later = posts(world, lambda m, n=number: f"round {n + 1} of 3 has started" in m.content)
        assert len(later) == 1 and message.id < later[0].id  # before the next round's notice
        assert message.attachments[0].filename == "standings.png"
    assert "(withdrawn)" in told[1][1].content and "(withdrawn)" not in told[0][1].content


async def _round_standings_of(world, number):
    return next((m for n, m in round_standings(world) if n == number), None)


async def test_the_standings_after_a_round_are_posted_once_across_restarts_and_a_killed_poster(world7):
    """The round ends while the bot is down: the start-up pass posts its standings once, before the next round's
    notice; restarts add none. A poster killed after Discord took the post (its record lost) is not repeated;
    one killed before posting leaves them to the next look once its claim's lease ends."""
    world = world7
    users = world.users[:4]
    _, tournament_id = await joined_event(world, users, game="bump", format="swiss", rounds=3)
    await world.emu.invoke(users[0], world.channel, "tournament start", {})
    first = await opened(world, tournament_id, 1, 2)
    await world.stop_bot()
    store = await open_store(str(world.db_path))
    bare = MatchService(store, world.clock)  # a process without the desk: nothing is posted
    for match in first:
        await bare.resign(match.id, match.seats[1].user_id)
    news = await Tournaments(bare).tend(tournament_id)
    assert news is not None and news.round == 2
    await store.close()
    await world.start_bot()
    await opened(world, tournament_id, 2, 2)  # by start-up's catch-up, as any match found unopened
    await world.bot.get_cog("Tournaments").desk.tend_all()  # the next pass tells what the start-up one could not
    await until(lambda: _first(world, lambda m: "round 2 of 3 has started" in m.content))
    assert [n for n, _ in round_standings(world)] == [1]
    notice = posts(world, lambda m: "round 2 of 3 has started" in m.content)[0]
    assert round_standings(world)[0][1].id < notice.id

    # killed after posting, before recording: the store forgets it was posted; the channel remembers
    await world.stop_bot()
    store = await open_store(str(world.db_path))
    async with store.transaction() as db:
        await db.execute("UPDATE tournaments SET standings_told = 0, standings_claimed_until = NULL")
    # and then a process claims them and is killed before posting (its lease runs 300 s)
    assert await store.claim_tournament_standings(tournament_id, 1, world.clock.lease_now(), 300)
    await store.close()
    await world.start_bot()
    desk = world.bot.get_cog("Tournaments").desk
    await desk.tend(tournament_id)
    world.clock.advance(301)  # the killed process's lease ends
    for _ in range(2):
        await desk.tend(tournament_id)
        await world.restart_bot()
        desk = world.bot.get_cog("Tournaments").desk
    assert [n for n, _ in round_standings(world)] == [1]  # found in the channel: recorded, not posted again
    async with world.store.transaction() as db:
        told = await db.execute_fetchall("SELECT standings_told FROM tournaments WHERE id = ?", (tournament_id,))
    assert told == [(1,)]
