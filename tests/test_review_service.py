"""Post-game reviews in the service (issue 23), on SQLite and on a real PostgreSQL: only finished matches of
the asker's server, one search per match (claimed in the store), stored so the next request is instant, one
review at a time per user, and a place in line for the others."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ai.review import ReviewBudget
from ai.worker import Thinker
from bot.domain.errors import Refusal
from bot.domain.seats import game_of, player_names, user_to_move
from bot.service.review import Review, ReviewProgress, Reviews

pytestmark = pytest.mark.both_backends

GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001
PEOPLE = [(101 + k, name) for k, name in enumerate(["alice", "bob", "carol", "dave"])]
ALICE, BOB = PEOPLE[0], PEOPLE[1]
BLUNDERS = {c["game"]: c for c in json.loads((Path(__file__).parent / "data" / "review_blunders.json").read_text())}
TEST_BUDGET = ReviewBudget(simulations=40, seconds=0.1)


class CountingThinker(Thinker):
    """The real process pool, counting the positions searched (one search per match is the promise)."""

    def __init__(self) -> None:
        super().__init__()
        self.positions = 0

    async def assess(self, *args, **kwargs):
        self.positions += 1
        return await super().assess(*args, **kwargs)


@pytest.fixture
async def reviews(service):
    thinker = CountingThinker()
    made = Reviews(service, thinker, TEST_BUDGET)
    made.poll_seconds = 0.02
    yield made
    await made.close()
    thinker.close()


async def a_match(service, players=(ALICE, BOB), guild=GUILD, game="begird", options="board=small"):
    service.clock.advance(86_401)  # past the challenge limits (one pair may meet a few times a day)
    match = await service.create(
        game_id=game,
        creator=players[0],
        invited=list(players[1:]),
        guild_id=guild,
        channel_id=CHANNEL,
        options_text=options,
    )
    for user in players[1:]:
        await service.accept(match.id, user[0])
    return await service.get(match.id)


async def play(service, match_id, turns):
    for notation in turns:
        match = await service.get(match_id)
        await service.play(match_id, user_to_move(match, game_of(match)), notation)
    return await service.get(match_id)


async def finished_blunder_game(service):
    case = BLUNDERS["begird"]
    match = await a_match(service)
    match = await play(service, match.id, case["turns"])
    assert match.status == "finished"
    return match, case


async def resigned_after(service, turns, players=(ALICE, BOB), guild=GUILD):
    match = await a_match(service, players, guild)
    await play(service, match.id, turns)
    await service.resign(match.id, players[1][0])
    return await service.get(match.id)


@pytest.mark.sqlite_only  # on PostgreSQL: the store's claim below, and a worker's job in test_review_workers.py
async def test_a_review_is_searched_once_stored_and_then_instant(service, reviews):
    match, case = await finished_blunder_game(service)
    ticket = await reviews.request(ALICE[0], GUILD, CHANNEL, match.id)
    assert not ticket.ready and ticket.total == len(case["turns"]) + 1
    seen: list[ReviewProgress] = []

    async def progress(now: ReviewProgress) -> None:
        seen.append(now)

    again = await reviews.request(BOB[0], GUILD, CHANNEL, match.id)  # a second asker joins the same search
    done, joined = await asyncio.gather(reviews.wait(ticket, ALICE[0], progress), reviews.wait(again, BOB[0], progress))
    assert reviews.thinker.positions == len(case["turns"])  # searched once (the last position is the result)
    assert joined.result == done.result
    assert seen and all(p.done <= p.total for p in seen)
    worst = max(done.result.turns, key=lambda t: t.drop)
    assert worst.index == case["blunder"] and worst.label == "blunder"
    stored = await service.store.get_review(match.id)
    assert stored is not None and stored.data is not None and stored.done == stored.total
    # instant the second time: nothing searched again
    ticket = await reviews.request(ALICE[0], GUILD, CHANNEL, match.id)
    assert ticket.ready
    assert await reviews.search(match.id)
    assert reviews.thinker.positions == len(case["turns"])
    # in the match's thread, no id is needed
    await service.store.update_match_fields(match.id, thread_id=4242)
    assert (await reviews.request(BOB[0], GUILD, 4242, None)).ready
    point = await reviews.turning_point(done, done.worst_first.index(case["blunder"]), ("red", "green"))
    assert point.turn.index == case["blunder"] and point.png.startswith(b"\x89PNG")


async def test_bad_requests_get_a_clear_reason_and_change_nothing(service, reviews):
    playing = await a_match(service)
    await play(service, playing.id, ["e5", "f6"])
    elsewhere = await resigned_after(service, ["e5"], guild=OTHER_GUILD)
    asked = [
        (playing.id, CHANNEL, "review_not_finished"),
        (elsewhere.id, CHANNEL, "no_match_here"),
        (987654, CHANNEL, "no_match"),
        (None, CHANNEL, "review_which_match"),
    ]
    for match_id, channel, reason in asked:
        with pytest.raises(Refusal) as refused:
            await reviews.request(ALICE[0], GUILD, channel, match_id)
        assert refused.value.reason == reason
    no_turns = await a_match(service)
    await service.resign(no_turns.id, BOB[0])
    with pytest.raises(Refusal, match="review_no_turns"):
        await reviews.request(ALICE[0], GUILD, CHANNEL, no_turns.id)
    for match_id in (playing.id, elsewhere.id, no_turns.id):
        assert await service.store.get_review(match_id) is None
    assert reviews.thinker.positions == 0
    with pytest.raises(Refusal, match="review_not_ready"):  # a button of a review that was never made
        await reviews.stored(elsewhere.id, OTHER_GUILD)


@pytest.mark.sqlite_only  # the line is a process's own (with PostgreSQL the workers' queue is the line)
async def test_ten_reviews_at_once_by_one_user_and_a_place_in_line_for_others(service, reviews):
    matches = [await resigned_after(service, ["e5", "f6"]) for _ in range(12)]
    answers = await asyncio.gather(
        *(reviews.request(ALICE[0], GUILD, CHANNEL, m.id) for m in matches[:10]), return_exceptions=True
    )
    tickets = [a for a in answers if not isinstance(a, BaseException)]
    refused = [a for a in answers if isinstance(a, Refusal)]
    assert len(tickets) == 1 and len(refused) == 9
    assert {r.reason for r in refused} == {"review_one_at_a_time"}
    assert {r.facts["match_id"] for r in refused} == {tickets[0].match.id}
    # others wait in line, each told their place
    bob = await reviews.request(BOB[0], GUILD, CHANNEL, matches[10].id)
    carol = await reviews.request(PEOPLE[2][0], GUILD, CHANNEL, matches[11].id)
    assert (tickets[0].ahead, bob.ahead, carol.ahead) == (0, 1, 2)
    reviews.max_waiting = 3
    with pytest.raises(Refusal, match="review_queue_full"):
        await reviews.request(PEOPLE[3][0], GUILD, CHANNEL, matches[5].id)

    async def quiet(now):
        pass

    for ticket, user in ((tickets[0], ALICE), (bob, BOB), (carol, PEOPLE[2])):
        assert (await reviews.wait(ticket, user[0], quiet)).result.turns
    # alice's review is done: she may ask for another
    assert not (await reviews.request(ALICE[0], GUILD, CHANNEL, matches[3].id)).ready


async def test_the_store_claims_a_review_for_one_process(service):
    store = service.store
    match = await resigned_after(service, ["e5"])
    now = 1_000.0
    assert await store.claim_review(match.id, 3, now, 60)
    assert not await store.claim_review(match.id, 3, now + 1, 60)  # held
    assert await store.review_progress(match.id, 2, now + 10, 60)
    row = await store.get_review(match.id)
    assert (row.done, row.total, row.data) == (2, 3, None) and row.claimed_until == now + 70
    assert await store.claim_review(match.id, 3, now + 71, 60)  # its holder went silent: taken over
    assert (await store.get_review(match.id)).done == 0
    await store.save_review(match.id, {"review": {"x": 1}})
    row = await store.get_review(match.id)
    assert row.data == {"review": {"x": 1}} and row.done == 3 and row.claimed_until is None
    assert not await store.claim_review(match.id, 3, now + 1_000, 60)  # finished: never searched again
    assert not await store.review_progress(match.id, 1, now, 60)
    await store.release_review(match.id)
    assert await store.get_review(match.id) is None


@pytest.mark.sqlite_only  # (the same wait, with a worker's job, on PostgreSQL)
async def test_a_review_whose_searcher_died_is_searched_again(service, reviews):
    """A process killed mid-review leaves its claim: once the lease runs out, whoever waits has it searched."""
    match = await resigned_after(service, ["e5", "f6", "g5"])
    assert await service.store.claim_review(match.id, 4, service.clock.lease_now(), 60)  # the dead process's
    ticket = await reviews.request(ALICE[0], GUILD, CHANNEL, match.id)
    seen = []

    async def progress(now):
        seen.append(now)
        if len(seen) == 1:  # the claim holds it: nothing moves until its lease runs out
            service.clock.advance(61)

    review = await asyncio.wait_for(reviews.wait(ticket, ALICE[0], progress), 10)
    assert len(review.result.turns) == 3 and reviews.thinker.positions == 3


# -- what the review's pictures say (issue 37) --------------------------------------------------------------


@pytest.fixture
def drawn_texts(monkeypatch):
    """Every text the pictures write through ``textdraw.draw_text`` (also from the drawing thread)."""
    from render import textdraw as td

    seen: list[str] = []
    real = td.draw_text

    def recording(im, xy, text, size, fill, **kw):
        seen.append(text)
        return real(im, xy, text, size, fill, **kw)

    monkeypatch.setattr(td, "draw_text", recording)
    return seen


def given_review(match, case) -> Review:
    """The match's review as if searched: the known blunder its one turning point (nothing searched)."""
    from ai.review import GameReview, TurnReview

    blunder = case["blunder"]
    turns = [
        TurnReview(k, 1 + k % 2, notation, notation, 0.9, 0.1 if k == blunder else 0.9)
        for k, notation in enumerate(case["turns"])
    ]
    chances = [(0.5, 0.5)] * (len(turns) + 1)
    return Review(match, GameReview(2, chances, turns, {1: 50.0, 2: 50.0}, [blunder]), player_names(match), {}, 0.0)


async def test_the_graphs_title_names_the_match_once_from_the_askers_side(service, reviews, drawn_texts):
    """It said "#2 · Begird #2"; drawn from the asker's side (bob's line for bob, the first player's for
    anyone who did not play)."""
    match, case = await finished_blunder_game(service)
    review = given_review(match, case)
    await reviews.graph(review, BOB[0])
    assert drawn_texts[0] == f"Begird #{match.id}" and all(f"#{match.id} ·" not in text for text in drawn_texts)
    assert any(text.startswith("bob") for text in drawn_texts) and not any(t.startswith("alice") for t in drawn_texts)
    drawn_texts.clear()
    await reviews.graph(review, PEOPLE[2][0])  # carol watched
    assert any(text.startswith("alice") for text in drawn_texts) and not any(t.startswith("bob") for t in drawn_texts)


async def test_a_turning_points_picture_says_the_turn_before_it(service, reviews, drawn_texts):
    """The board before a turn was drawn without the turn that led to it: "Last turn: —" mid-game."""
    match, case = await finished_blunder_game(service)
    blunder = case["blunder"]
    assert blunder > 0
    await reviews.turning_point(given_review(match, case), 0, ("red", "green"))
    said = " ".join(drawn_texts)
    assert "Last turn:" in said and "Last turn: —" not in said
    assert case["turns"][blunder - 1] in said[said.index("Last turn:") :], said
