"""The opponent's move and a premove edit at the same instant never play a stale premove.

Bob's conditional moves answer alice's turn X with Y; as alice plays X, bob changes the answer to Z.
Whichever lands first, the answer played is the one stored when the move was: Z if the edit was accepted
for the position alice moved from, Y if it was refused (or was made for a later position). Half the trials
go through two services over one store (two processes: no shared lock), so the store's compare-and-set on
the version alone decides; half start the edit first. Gaps: each of the first event-loop turns, then 0–5 ms.
"""

from __future__ import annotations

import pytest

from bot.domain.errors import Refusal
from bot.domain.seats import game_of
from bot.service.matches import MatchService
from tests.racing import NoChallengeLimits, log_matches_state, race

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
TRIALS = 100
GAPS_MS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0)


def gap(trial: int) -> float | int:
    """Event-loop turns 0..23 first (each await point of the other operation in turn), then 0–5 ms."""
    return trial if trial < 24 else GAPS_MS[trial % len(GAPS_MS)] / 1000


async def a_match(service: MatchService) -> int:
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2)
    await service.accept(match.id, BOB[0])
    return match.id


async def test_a_premove_edit_racing_the_opponents_move_never_plays_a_stale_answer(service):
    service.limits = NoChallengeLimits()
    other = MatchService(service.store, service.clock, default_reminder_hours=24)  # another process
    seen = {"edit first": 0, "move first": 0}
    match_id = await a_match(service)
    for trial in range(TRIALS):
        match = await service.get(match_id)
        game = game_of(match)
        cells = [n for n in game.legal_notations() if n != "bide" and "," not in n]
        if game.is_over or len(cells) < 4:  # a match runs about 25 trials (two cells each)
            match_id = await a_match(service)
            match = await service.get(match_id)
            game = game_of(match)
            cells = [n for n in game.legal_notations() if n != "bide" and "," not in n]
        theirs = cells[0]
        after = game.copy()
        after.play_turn(theirs)
        old, new = [n for n in after.legal_notations() if n != "bide" and "," not in n][:2]  # bob's answers
        logged_before = len(await service.store.moves(match_id))
        await service.store.set_premoves(match_id, BOB[0], match.version, [[theirs, old]], 0.0)
        editor = other if trial % 2 else service

        def play():
            return service.play(match_id, ALICE[0], theirs)

        def edit():
            return editor.add_premove(match_id, BOB[0], f"{theirs}; {new}")

        if trial % 4 < 2:
            move, edited = await race(play, edit, gap(trial))
        else:
            edited, move = await race(edit, play, gap(trial))
        assert not isinstance(move, BaseException), (trial, move)
        assert not isinstance(edited, BaseException) or isinstance(edited, Refusal), (trial, edited)
        counted = not isinstance(edited, BaseException) and edited.match.version == match.version
        moves = (await service.store.moves(match_id))[logged_before:]
        assert [(m.notation, m.conditional) for m in moves] == [(theirs, False), (new if counted else old, True)], (
            trial,
            gap(trial),
            edited,
            moves,
        )
        seen["edit first" if counted else "move first"] += 1
        consistent, _ = await log_matches_state(service, match_id)
        assert consistent, trial
    assert seen["edit first"] and seen["move first"], seen  # both orders happened: the race was run
