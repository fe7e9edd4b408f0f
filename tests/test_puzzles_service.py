"""Puzzles in the store and the service (issue 36, docs/puzzles.md), on SQLite and on a real PostgreSQL: a
finished match searched once and its missed win stored once, for its server only; an attempt answered, the
opponent's reply played, the rating changed once; answers raced; a damaged puzzle set aside."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from ai.puzzles import find_puzzle_document
from ai.worker import self_play_puzzle_documents
from bot.domain.errors import Refusal
from bot.domain.puzzles import NewPuzzle
from bot.service.guilds import Guilds
from bot.service.puzzles import Puzzles
from tests import backends
from tests.test_puzzles_cases import BLACK, WHITE
from tests.test_review_service import ALICE, BOB, GUILD, OTHER_GUILD, PEOPLE, a_match, play

pytestmark = pytest.mark.both_backends

CAROL = PEOPLE[2]
MISSED = "j6"
THIRD_GUILD = 9200  # Black's turn instead of e4, which wins in two (tests/test_puzzles_cases.py)


async def inline_search(state, played):
    """The bot's search, in this process (the bot runs the same function in the computer's pool)."""
    return await asyncio.to_thread(find_puzzle_document, state, played)


async def missed_win_match(service, guild=GUILD):
    """A small-board Begird match where Black missed a win in two (e4), then resigned."""
    match = await a_match(service, guild=guild)
    turns = [stone for pair in zip(BLACK, (*WHITE, "f4"), strict=True) for stone in pair]
    await play(service, match.id, [*turns, MISSED])
    await service.resign(match.id, ALICE[0])
    finished = await service.get(match.id)
    assert finished.status == "finished"
    return finished, len(turns)


async def test_a_stored_match_with_a_missed_win_in_two_becomes_that_puzzle_once(service):
    match, ply = await missed_win_match(service)
    puzzles = Puzzles(service, inline_search)
    assert await service.store.matches_to_scan(service.clock.lease_now(), 10) == [match.id]
    stored = await puzzles.scan_pending()
    assert stored >= 1
    assert await service.store.matches_to_scan(service.clock.lease_now(), 10) == []
    assert await puzzles.scan(match.id) is None  # searched: never again
    rows = await backends.fetch(service.store, "SELECT document, source_ply, guild_id FROM puzzles")
    found = {row[1]: json.loads(row[0]) for row in rows}
    assert found[ply]["solution"]["turn"] == "e4" and found[ply]["goal"] == {"kind": "win", "turns": 2}
    assert found[ply]["source"] == {"match": match.id, "turn": ply}
    assert {row[2] for row in rows} == {GUILD}
    # a repeated end of the same scan (a lease lost mid-search) stores nothing twice
    again = [NewPuzzle("begird", found[ply], 1500.0, ply)]
    assert await service.store.finish_puzzle_scan(match.id, GUILD, again, service.clock.now()) == 0
    assert len(await backends.fetch(service.store, "SELECT id FROM puzzles")) == len(rows)


async def test_a_scan_claimed_by_a_live_process_is_not_taken_until_its_lease_passes(service):
    match, _ = await missed_win_match(service)
    store, now = service.store, service.clock.lease_now()
    assert await store.claim_puzzle_scan(match.id, now, 600.0)
    assert not await store.claim_puzzle_scan(match.id, now + 1, 600.0)
    assert await store.matches_to_scan(now + 1, 10) == []
    assert await store.matches_to_scan(now + 601, 10) == [match.id]  # its process died: another takes it
    assert await store.claim_puzzle_scan(match.id, now + 601, 600.0)


async def solved_setup(service):
    match, ply = await missed_win_match(service)
    puzzles = Puzzles(service, inline_search)
    await puzzles.scan(match.id)
    (puzzle_id,) = (await backends.fetch(service.store, "SELECT id FROM puzzles WHERE source_ply = ?", ply))[0]
    await backends.execute(service.store, "DELETE FROM puzzles WHERE id <> ?", puzzle_id)  # just this one
    return puzzles, puzzle_id, match


async def test_a_puzzle_solved_right_the_reply_played_the_rating_changed_once(service):
    puzzles, puzzle_id, match = await solved_setup(service)
    view = await puzzles.start(BOB[0], GUILD)
    assert view.row.id == puzzle_id and view.goal.kind == "win" and view.turns_left == 2
    assert view.row.document["source"]["match"] == match.id
    assert (await puzzles.start(BOB[0], GUILD)).attempt == view.attempt  # the same puzzle until it is done
    first = await puzzles.answer(BOB[0], puzzle_id, view.attempt.version, "E4")
    assert first.check.status == "continue" and first.check.reply in ("e5", "f5")
    assert first.view.turns_left == 1 and first.rating_change is None
    winning = {"e5": "f5", "f5": "e5"}[first.check.reply]
    last = await puzzles.answer(BOB[0], puzzle_id, first.view.attempt.version, winning)
    assert last.check.status == "right" and last.solution[0] == "e4" and len(last.solution) == 3
    assert last.rating_change is not None and last.rating_change > 0
    player = await puzzles.player(BOB[0])
    assert (player.solved, player.failed, player.streak) == (1, 0, 1)
    assert player.rating == pytest.approx(1500 + last.rating_change)
    with pytest.raises(Refusal, match="puzzle_finished"):  # once: an answer after the end changes nothing
        await puzzles.answer(BOB[0], puzzle_id, None, winning)
    assert (await puzzles.player(BOB[0])) == player
    (rating, attempts) = (await backends.fetch(service.store, "SELECT rating, attempts FROM puzzles"))[0]
    assert attempts == 1 and rating < view.row.rating  # the puzzle lost to the player
    with pytest.raises(Refusal, match="puzzle_none_left"):  # never the same puzzle twice
        await puzzles.start(BOB[0], GUILD)
    assert [p.user_id for p in await puzzles.leaderboard(GUILD)] == [BOB[0]]
    assert await puzzles.leaderboard(OTHER_GUILD) == []


async def test_a_wrong_answer_ends_the_attempt_and_an_illegal_one_counts_as_nothing(service):
    puzzles, puzzle_id, _ = await solved_setup(service)
    view = await puzzles.start(CAROL[0], GUILD)
    with pytest.raises(Refusal, match="illegal_move"):
        await puzzles.answer(CAROL[0], puzzle_id, view.attempt.version, "e1")  # occupied
    with pytest.raises(Refusal, match="puzzle_not_yours"):
        await puzzles.answer(BOB[0], puzzle_id, None, "e4")
    wrong = await puzzles.answer(CAROL[0], puzzle_id, view.attempt.version, "j5")
    assert wrong.check.status == "wrong" and wrong.check.expected == "e4"
    assert wrong.rating_change is not None and wrong.rating_change < 0
    player = await puzzles.player(CAROL[0])
    assert (player.solved, player.failed, player.streak) == (0, 1, 0)


async def test_another_servers_games_feed_no_puzzles_here(service):
    await solved_setup(service)
    with pytest.raises(Refusal, match="puzzle_none_left"):
        await Puzzles(service, inline_search).start(BOB[0], OTHER_GUILD)


@pytest.mark.parametrize("trial", range(12))
async def test_two_answers_at_once_are_recorded_once(service, trial):
    puzzles, puzzle_id, _ = await solved_setup(service)
    view = await puzzles.start(BOB[0], GUILD)
    rng = random.Random(trial)

    async def answer(text):
        await asyncio.sleep(rng.uniform(0, 0.005))
        return await puzzles.answer(BOB[0], puzzle_id, view.attempt.version, text)

    results = await asyncio.gather(answer("e4"), answer("j5"), return_exceptions=True)
    refused = [r for r in results if isinstance(r, Refusal)]
    done = [r for r in results if not isinstance(r, BaseException)]
    # the loser read the attempt before the winner's answer (moved on) or after it ended it (finished)
    assert len(done) == 1 and len(refused) == 1, results
    assert refused[0].reason in ("puzzle_moved_on", "puzzle_finished"), results
    attempt = await service.store.get_puzzle_attempt(puzzle_id, BOB[0])
    assert attempt.version == view.attempt.version + 1
    player = await puzzles.player(BOB[0])
    assert player.solved + player.failed == (1 if done[0].check.status == "wrong" else 0)


async def test_a_damaged_puzzle_is_set_aside_with_a_reason_and_the_player_goes_on(service):
    puzzles, puzzle_id, _ = await solved_setup(service)
    await backends.execute(service.store, "UPDATE puzzles SET document = ? WHERE id = ?", "{not json", puzzle_id)
    with pytest.raises(Refusal, match="puzzle_unreadable"):
        await puzzles.start(BOB[0], GUILD)
    assert await service.store.open_puzzle_attempt(BOB[0]) is None  # not stuck on it
    assert (await puzzles.player(BOB[0])).failed == 0  # no rating moved
    with pytest.raises(Refusal, match="puzzle_none_left"):
        await puzzles.start(BOB[0], GUILD)


async def test_a_hint_costs_the_gain(service):
    puzzles, puzzle_id, _ = await solved_setup(service)
    await puzzles.start(BOB[0], GUILD)
    with pytest.raises(Refusal, match="puzzle_finished"):  # an old puzzle's button: nothing hinted
        await puzzles.hint(BOB[0], puzzle_id + 1)
    assert not (await puzzles.current(BOB[0])).attempt.hinted
    _, hint = await puzzles.hint(BOB[0], puzzle_id)
    assert (hint.kind, hint.value) == ("row", "e")
    view = await puzzles.current(BOB[0])
    first = await puzzles.answer(BOB[0], puzzle_id, view.attempt.version, "e4")
    winning = {"e5": "f5", "f5": "e5"}[first.check.reply]
    last = await puzzles.answer(BOB[0], puzzle_id, None, winning)
    assert last.check.status == "right" and last.rating_change == 0
    assert (await puzzles.player(BOB[0])).solved == 1


async def self_play_inline(game, seed):
    """The bot's self-play search, in this process (the bot runs it in its puzzles' own pool)."""
    return await asyncio.to_thread(self_play_puzzle_documents, game, seed)


async def test_a_new_server_is_given_puzzles_of_the_computers_own_games_after_its_own(service):
    puzzles = Puzzles(service, inline_search, self_play_inline)
    with pytest.raises(Refusal, match="puzzle_none_left"):
        await puzzles.start(BOB[0], GUILD)
    stored = await puzzles.grow_shared(("bide",), seed=0, target=1)
    assert stored >= 1 and await service.store.shared_puzzle_count("bide") == stored
    assert await puzzles.grow_shared(("bide",), seed=0, target=10**6) == 0  # the same game again: stored once
    assert await puzzles.grow_shared(("bide",), seed=1, target=1) == 0  # enough of them: nothing played
    shared = await puzzles.start(BOB[0], OTHER_GUILD)  # a server with no finished games has puzzles
    assert shared.row.guild_id == 0 and shared.row.source_match_id is None and shared.goal.kind == "points"
    assert shared.row.document["source"]["self_play"] == {"seed": 0, "level": "easy"}
    match, _ = await missed_win_match(service)
    await puzzles.scan(match.id)
    own = await puzzles.start(CAROL[0], GUILD)  # the server's own puzzles first
    assert own.row.guild_id == GUILD and own.row.source_match_id == match.id


@pytest.mark.parametrize(
    ("here", "there", "given"),
    [(None, None, False), (True, None, False), (None, True, False), (False, True, False), (True, True, True)],
)
async def test_a_servers_puzzles_are_given_elsewhere_only_when_both_servers_share(service, here, there, given):
    """/config share_puzzles: a server that shares draws from the puzzles of every server that shares too; one
    that does not, or whose source server does not, gets none of theirs."""
    _, puzzle_id, _ = await solved_setup(service)
    guilds = Guilds(service)
    for guild_id, share in ((GUILD, there), (OTHER_GUILD, here)):
        if share is not None:
            await guilds.configure(guild_id, is_admin=True, share_puzzles=share)
    assert (await guilds.settings(OTHER_GUILD)).share_puzzles is here
    puzzles = Puzzles(service, inline_search)
    if given:
        view = await puzzles.start(CAROL[0], OTHER_GUILD)
        assert view.row.id == puzzle_id and view.row.guild_id == GUILD
    else:
        with pytest.raises(Refusal, match="puzzle_none_left"):
            await puzzles.start(CAROL[0], OTHER_GUILD)
    assert (await puzzles.start(BOB[0], GUILD)).row.id == puzzle_id  # its own server's players get it either way


async def test_a_sharing_server_takes_its_own_and_shared_puzzles_at_the_players_level_before_self_play(service):
    await solved_setup(service)
    guilds = Guilds(service)
    for guild_id in (GUILD, OTHER_GUILD, THIRD_GUILD):
        await guilds.configure(guild_id, is_admin=True, share_puzzles=guild_id != THIRD_GUILD)
    (document,) = (await backends.fetch(service.store, "SELECT document FROM puzzles"))[0]
    doc = json.loads(document)
    match, _ = await missed_win_match(service, guild=OTHER_GUILD)
    await service.store.finish_puzzle_scan(match.id, OTHER_GUILD, [NewPuzzle("begird", doc, 1700.0, 1)], 1.0)
    third, _ = await missed_win_match(service, guild=THIRD_GUILD)
    await service.store.finish_puzzle_scan(third.id, THIRD_GUILD, [NewPuzzle("begird", doc, 1500.0, 1)], 1.0)
    await service.store.add_shared_puzzles([("self-play key", NewPuzzle("begird", doc, 1500.0, 2))], 1.0)
    rows = await backends.fetch(service.store, "SELECT id, guild_id, rating FROM puzzles ORDER BY id")
    by_guild = {guild_id: pid for pid, guild_id, _ in rows}
    store = service.store
    given = [await store.pick_puzzle(OTHER_GUILD, CAROL[0], 1500.0, None)]  # the nearest of its own and shared
    await store.start_puzzle_attempt(given[-1].id, CAROL[0], OTHER_GUILD, 2.0)
    await backends.execute(store, "UPDATE puzzle_attempts SET status = 'solved'")
    given.append(await store.pick_puzzle(OTHER_GUILD, CAROL[0], 1500.0, None))
    await store.start_puzzle_attempt(given[-1].id, CAROL[0], OTHER_GUILD, 3.0)
    await backends.execute(store, "UPDATE puzzle_attempts SET status = 'solved'")
    given.append(await store.pick_puzzle(OTHER_GUILD, CAROL[0], 1500.0, None))  # then the computer's own
    await store.start_puzzle_attempt(given[-1].id, CAROL[0], OTHER_GUILD, 4.0)
    await backends.execute(store, "UPDATE puzzle_attempts SET status = 'solved'")
    assert [p.id for p in given] == [by_guild[GUILD], by_guild[OTHER_GUILD], by_guild[0]]
    assert await store.pick_puzzle(OTHER_GUILD, CAROL[0], 1500.0, None) is None  # never the third's: it keeps its own


async def test_a_shared_puzzle_solved_counts_on_the_leaderboard_of_the_server_it_was_solved_in(service):
    puzzles, puzzle_id, _ = await solved_setup(service)
    for guild_id in (GUILD, OTHER_GUILD):
        await Guilds(service).configure(guild_id, is_admin=True, share_puzzles=True)
    view = await puzzles.start(CAROL[0], OTHER_GUILD)
    first = await puzzles.answer(CAROL[0], puzzle_id, view.attempt.version, "e4")
    winning = {"e5": "f5", "f5": "e5"}[first.check.reply]
    assert (await puzzles.answer(CAROL[0], puzzle_id, None, winning)).check.status == "right"
    assert [p.user_id for p in await service.store.puzzle_leaderboard(OTHER_GUILD, 10)] == [CAROL[0]]
    assert await service.store.puzzle_leaderboard(GUILD, 10) == []  # its source server: not one of its players
    await backends.execute(service.store, "UPDATE puzzle_attempts SET guild_id = NULL")  # made before 0024
    assert [p.user_id for p in await service.store.puzzle_leaderboard(GUILD, 10)] == [CAROL[0]]
