"""The computer player in the service layer (no Discord): its turn races a person's change to the match.

Each trial lets the computer's answer arrive and, a gap later (event-loop turns, then 0–4 ms),
the person resigns. Whichever comes first wins; the other is refused or looks again, the
computer never plays twice or after the end, and the stored log replays to the stored state.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.chat.words import offers as offer_words
from bot.domain.clock import ManualClock
from bot.domain.errors import Refusal
from bot.domain.seats import computer_to_move, game_of, user_to_move
from bot.service.computer import ComputerPlayer
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.store import open_store
from games import load_state
from tests.racing import NoChallengeLimits, gaps, log_matches_state, race
from tests.said import words

pytestmark = pytest.mark.both_backends

ALICE = (101, "alice")
GUILD, CHANNEL = 9000, 9001
TRIALS = 30


class GatedThinker:
    """Answers the first legal turn of the position it was given, once its gate opens."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.asked = 0

    async def turn(self, state, level, seed):
        self.asked += 1
        await self.gate.wait()
        return {"turn": load_state(state).legal_notations()[0], "level": level, "seconds": 0.0, "simulations": 0}

    async def draw(self, state, player, seed):
        return True

    def close(self) -> None:
        pass


@pytest.fixture
async def world(database):
    store = await open_store(database)
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    thinker = GatedThinker()
    computer = ComputerPlayer(service, Offers(service), thinker)
    service.events.on_change(computer.changed)  # as bot/runtime.py wires it
    computer.announce_wait = 0.0  # nothing posts boards here
    yield service, computer, thinker
    await computer.close()
    await store.close()


async def until(predicate, timeout: float = 5.0) -> None:
    async def wait():
        while not predicate():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(wait(), timeout)


async def computer_to_answer(service: MatchService, computer: ComputerPlayer, thinker: GatedThinker) -> int:
    """A new match of alice against the computer, alice's first turn played, the computer thinking."""
    service.limits = NoChallengeLimits()  # many trials in a minute: the challenge limits are not tested here
    thinker.gate = asyncio.Event()
    thinker.asked = 0
    match = await service.create(
        game_id="bide",
        creator=ALICE,
        invited=[],
        guild_id=GUILD,
        channel_id=CHANNEL,
        options_text="side=4",
        computer="easy",
    )
    started = await service.start_if_ready(match.id)
    assert started is not None and started.mention_user_id == ALICE[0]
    await service.play(match.id, ALICE[0], "d4")
    await until(lambda: thinker.asked == 1)
    assert computer.thinking(match.id)
    return match.id


async def test_the_computer_plays_its_turn_through_the_service(world):
    service, computer, thinker = world
    match_id = await computer_to_answer(service, computer, thinker)
    thinker.gate.set()
    await until(lambda: not computer.thinking(match_id))
    moves = await service.store.moves(match_id)
    assert [m.user_id for m in moves] == [ALICE[0], -1]
    match = await service.get(match_id)
    assert user_to_move(match, game_of(match)) == ALICE[0]
    assert (await service.store.get_reminder(match_id)).user_id == ALICE[0]


async def test_the_computers_turn_races_a_resignation(world):
    service, computer, thinker = world
    orders = set()
    for trial, gap in enumerate(gaps(TRIALS)):
        match_id = await computer_to_answer(service, computer, thinker)
        task = computer._tasks[match_id]

        async def answer():
            thinker.gate.set()
            await task

        async def resign():
            return await service.resign(match_id, ALICE[0])

        results = await race(answer, resign, gap)
        assert not any(isinstance(r, Exception) and not isinstance(r, Refusal) for r in results), results
        assert not computer.thinking(match_id)
        same, _ = await log_matches_state(service, match_id)
        assert same, trial
        moves = await service.store.moves(match_id)
        kinds = [(m.user_id, m.kind) for m in moves]
        assert kinds in (
            [(ALICE[0], "turn"), (-1, "turn"), (ALICE[0], "resign")],
            [(ALICE[0], "turn"), (ALICE[0], "resign")],
        ), (trial, kinds)
        assert (await service.store.get_match(match_id)).status == "finished"
        orders.add(len(kinds))
    assert orders == {2, 3}  # both orders happened: the race was real


async def test_clocks_run_only_between_people(world):
    """With two people and the computer, each person has a clock, the computer none, and only people claim."""
    from bot.service.timelimits import TimeLimits

    service, computer, thinker = world
    bob = (102, "bob")
    match = await service.create(
        game_id="bide",
        creator=ALICE,
        invited=[bob],
        guild_id=GUILD,
        channel_id=CHANNEL,
        options_text="side=4",
        computer="hard",
        days_per_move=1,
    )
    assert [(s.user_id, s.accepted, s.computer) for s in match.seats] == [
        (ALICE[0], True, None),
        (bob[0], False, None),
        (-1, True, "hard"),
    ]
    assert await service.start_if_ready(match.id) is None  # bob has not answered
    started = await service.accept(match.id, bob[0])
    assert started.started and started.match.deadline_at is not None  # alice's clock runs
    await service.play(match.id, ALICE[0], "d4")
    await service.play(match.id, bob[0], "a1")
    match = await service.get(match.id)
    assert computer_to_move(match, game_of(match)).user_id == -1
    assert match.deadline_at is None and await service.store.get_reminder(match.id) is None
    thinker.gate.set()
    await until(lambda: not computer.thinking(match.id))
    match = await service.get(match.id)
    assert user_to_move(match, game_of(match)) == ALICE[0] and match.deadline_at is not None
    service.clock.advance(2 * 86400)
    jobs = await TimeLimits(service).due()
    assert [(j.user_id, j.claimant_ids) for j in jobs] == [(ALICE[0], [bob[0]])]  # never the computer
    assert "<@-" not in words(service).text(jobs[0])


async def test_a_draw_offer_lapsed_by_the_computers_turn_gets_no_answer(world):
    """The computer weighs a draw offer while its own turn is played: the turn lapses the offer, so the
    answer finds it gone and changes nothing."""
    service, computer, thinker = world
    service.limits = NoChallengeLimits()
    match = await service.create(
        game_id="bump", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, computer="easy"
    )
    await service.start_if_ready(match.id)
    game = game_of(await service.get(match.id))
    await service.play(match.id, ALICE[0], game.legal_notations()[0])
    await until(lambda: thinker.asked == 1)
    notice = await computer.offers.offer(match.id, ALICE[0], "draw")
    assert notice.answerer_ids == [] and notice.computer_ids == (-1,) and "<@-" not in offer_words.offer(notice)
    weighing = asyncio.Event()

    async def slow_draw(state, player, seed):
        weighing.set()
        await asyncio.sleep(0.05)  # meanwhile the computer's turn is stored
        return True

    thinker.draw = slow_draw
    answer = asyncio.ensure_future(computer.answer_offer(match.id, "draw", notice.at_seq, -1))
    await weighing.wait()
    thinker.gate.set()
    assert await answer is None
    await until(lambda: not computer.thinking(match.id))
    match = await service.get(match.id)
    assert match.status == "active" and await service.store.get_offer(match.id, "draw") is None
    assert [m.kind for m in await service.store.moves(match.id)] == ["turn", "turn"]
