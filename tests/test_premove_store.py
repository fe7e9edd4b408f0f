"""The store's side of conditional moves and analysis boards, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import pytest

from bot.domain.errors import StoreUnavailable, VersionConflict
from bot.domain.model import ExplorationRow
from bot.service.matches import MatchService
from tests import backends
from tests.racing import NoChallengeLimits, log_matches_state

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")


async def started(service, **options):
    service.limits = NoChallengeLimits()
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2, **options)
    await service.accept(match.id, BOB[0])
    return await service.get(match.id)


async def test_premoves_are_stored_only_at_the_matchs_version_and_taken_once(service):
    store = service.store
    match = await started(service)
    with pytest.raises(VersionConflict):
        await store.set_premoves(match.id, BOB[0], match.version - 1, [["e5", "d4"]], 1.0)
    assert await store.premoves_of(match.id, BOB[0]) is None  # a refused edit stores nothing
    await store.set_premoves(match.id, BOB[0], match.version, [["e5", "d4"], ["c3", "b2"]], 1.0)
    await store.set_premoves(match.id, ALICE[0], match.version, [["a1", "a2"]], 1.0)
    held = await store.premoves_of(match.id, BOB[0])
    assert held is not None and (held.version, held.lines) == (match.version, [["e5", "d4"], ["c3", "b2"]])
    await store.set_premoves(match.id, ALICE[0], match.version, [], 1.0)  # none: removed
    assert await store.premoves_of(match.id, ALICE[0]) is None
    taken = await store.take_premoves(match.id, match.version)
    assert [(p.user_id, p.lines) for p in taken] == [(BOB[0], [["e5", "d4"], ["c3", "b2"]])]
    assert await store.take_premoves(match.id, match.version) == []  # taken once


async def test_kept_lines_go_only_to_the_current_version_and_never_over_newer_ones(service):
    store = service.store
    match = await started(service)
    assert not await store.keep_premoves(match.id, BOB[0], match.version + 1, [["d4"]], 1.0)  # not there yet
    assert await store.keep_premoves(match.id, BOB[0], match.version, [["e5", "d4"]], 1.0)
    await store.set_premoves(match.id, BOB[0], match.version, [["c3", "b2"]], 2.0)  # the player's newer word
    assert not await store.keep_premoves(match.id, BOB[0], match.version, [["e5", "d4"]], 3.0)
    held = await store.premoves_of(match.id, BOB[0])
    assert held is not None and held.lines == [["c3", "b2"]]


async def test_unreadable_premoves_are_never_played(service):
    store = service.store
    match = await started(service)
    await store.set_premoves(match.id, BOB[0], match.version, [["e5", "d4"]], 1.0)
    await backends.execute(store, "UPDATE premoves SET lines = ? WHERE match_id = ?", '[["e5", 7]]', match.id)
    assert await store.premoves_of(match.id, BOB[0]) is None
    assert await store.take_premoves(match.id, match.version) == []


async def test_an_exploration_round_trips_and_is_dropped(service):
    store = service.store
    match = await started(service)
    assert await store.get_exploration(match.id, BOB[0]) is None
    board = ExplorationRow(match.id, BOB[0], match.version, match.state or {}, ["e5", "d4"], 1)
    await store.put_exploration(board, 1.0)
    assert await store.get_exploration(match.id, BOB[0]) == board
    moved_on = ExplorationRow(match.id, BOB[0], match.version, match.state or {}, ["e5"], 0)
    await store.put_exploration(moved_on, 2.0)
    assert await store.get_exploration(match.id, BOB[0]) == moved_on
    await store.drop_exploration(match.id, BOB[0])
    assert await store.get_exploration(match.id, BOB[0]) is None


async def test_the_conditional_mark_and_the_matchs_analysis_option_read_back(service):
    match = await started(service, analysis=False)
    assert not match.analysis and (await started(service)).analysis
    await service.store.set_premoves(match.id, BOB[0], match.version, [["e5", "d4"]], 1.0)  # set by the store
    await service.play(match.id, ALICE[0], "e5")
    assert [(m.notation, m.conditional) for m in await service.store.moves(match.id)] == [("e5", False), ("d4", True)]


async def test_a_servers_default_for_premoves_reads_back(service):
    from bot.domain.model import GuildSettings

    store = service.store
    assert (await store.guild_settings(1)).analysis is None
    await store.set_guild_settings(1, GuildSettings(days_per_move=3, analysis=False), 1.0)
    assert await store.guild_settings(1) == GuildSettings(days_per_move=3, analysis=False)
    await store.set_guild_settings(1, GuildSettings(analysis=True), 2.0)
    assert (await store.guild_settings(1)).analysis is True


class ProcessDied(BaseException):
    """The process stopped here (a kill -9 between two of its transactions: no handler of errors runs)."""


class DiesAt:
    """The store as a process sees it that dies when it reaches ``method``: every earlier write is stored."""

    def __init__(self, store, method: str) -> None:
        self._store, self._method = store, method

    def __getattr__(self, name: str):
        if name == self._method:
            raise ProcessDied(name)
        return getattr(self._store, name)


async def test_a_stop_between_a_move_and_its_conditional_answer_loses_nothing_and_repeats_nothing(service):
    match_id = (await started(service)).id
    await service.add_premove(match_id, BOB[0], "e5; d4")
    store = service.store
    service.store = DiesAt(store, "premoves_at")  # the move is stored, then the process dies
    with pytest.raises(ProcessDied):
        await service.play(match_id, ALICE[0], "e5")
    service.store = store
    assert [m.notation for m in await store.moves(match_id)] == ["e5"]
    restarted = MatchService(store, service.clock, default_reminder_hours=24)
    [outcome] = await restarted.follow_left_conditionals()
    assert outcome.answered is not None and outcome.answered.changes[0].conditional
    assert [(m.notation, m.conditional) for m in await store.moves(match_id)] == [("e5", False), ("d4", True)]
    assert (await log_matches_state(restarted, match_id))[0]
    assert await restarted.follow_left_conditionals() == []  # a second start-up plays nothing again
    assert len(await store.moves(match_id)) == 2


async def test_a_stop_after_the_answer_was_stored_plays_nothing_twice_and_tells_nobody(service):
    match_id = (await started(service)).id
    await service.add_premove(match_id, BOB[0], "e5; d4")
    store = service.store
    service.store = DiesAt(store, "take_premoves")  # answered, then dead before the lines were let go
    with pytest.raises(ProcessDied):
        await service.play(match_id, ALICE[0], "e5")
    service.store = store
    assert [m.notation for m in await store.moves(match_id)] == ["e5", "d4"]
    restarted = MatchService(store, service.clock, default_reminder_hours=24)
    assert await restarted.follow_left_conditionals() == []  # stale: dropped without a word
    assert await store.premoves_left_behind() == []
    assert len(await store.moves(match_id)) == 2


class FailsAt(DiesAt):
    """The store as a process sees it whose database fails once it reaches ``method`` (the process lives on)."""

    def __getattr__(self, name: str):
        if name == self._method:
            raise StoreUnavailable("the database went away")
        return getattr(self._store, name)


async def test_a_database_failure_after_the_move_was_stored_reports_the_move_played_and_keeps_the_lines(service):
    match_id = (await started(service)).id
    await service.add_premove(match_id, BOB[0], "e5; d4")
    store = service.store
    service.store = FailsAt(store, "premoves_at")
    outcome = await service.play(match_id, ALICE[0], "e5")  # told as played: it was stored
    service.store = store
    assert outcome.match.version == (await store.get_match(match_id)).version and outcome.answered is None
    assert [m.notation for m in await store.moves(match_id)] == ["e5"]
    [later] = await service.follow_left_conditionals()  # the catch-up answers it
    assert later.answered is not None
    assert [(m.notation, m.conditional) for m in await store.moves(match_id)] == [("e5", False), ("d4", True)]
    assert (await log_matches_state(service, match_id))[0]


async def test_a_match_stops_looking_for_conditional_moves_once_none_are_left(service):
    """``premoves_held`` is what makes a move look for conditional moves (two more trips to the database): it
    is cleared when the last line is followed or dropped, and set again by the next one stored or kept."""
    match_id = (await started(service)).id
    await service.add_premove(match_id, BOB[0], "e5; d4")
    assert (await service.get(match_id)).premoves_held
    await service.play(match_id, ALICE[0], "c3")  # a turn the line did not expect: cleared
    assert not (await service.get(match_id)).premoves_held
    await service.add_premove(match_id, ALICE[0], "e5; d4; a1; b2")
    await service.play(match_id, BOB[0], "e5")  # answered with d4, the rest of the line kept for a1
    match = await service.get(match_id)
    assert match.premoves_held and (await service.store.premoves_of(match_id, ALICE[0])).version == match.version
    await service.play(match_id, BOB[0], "a1")  # answered with b2: the line is used up
    assert [m.notation for m in await service.store.moves(match_id)][-2:] == ["a1", "b2"]
    assert not (await service.get(match_id)).premoves_held


async def test_a_line_stored_while_the_last_ones_are_taken_keeps_the_match_looking(service, database):
    """Two processes: one takes the lines of a position the match has left, the other stores a line for the
    position it is at. Whichever lands first, a stored line always has ``premoves_held`` set (else the next
    move would never look for it). Gaps: each of the first event-loop turns, then 0–5 ms."""
    from bot.store import open_store
    from tests.racing import race
    from tests.test_premove_races import gap

    other = await open_store(database)  # the other process, with a connection of its own
    try:
        match_id = (await started(service)).id
        for trial in range(60):
            match = await service.get(match_id)
            await backends.execute(service.store, "UPDATE matches SET premoves_held = 1 WHERE id = ?", match_id)
            await backends.execute(
                service.store,
                "INSERT INTO premoves (match_id, user_id, version, lines, updated_at) VALUES (?, ?, ?, ?, 0)",
                match_id,
                ALICE[0],
                match.version - 1,
                '[["a1"]]',
            )  # a line of a position the match has left
            await service.store.set_premoves(match_id, BOB[0], match.version, [], 0.0)

            def take(version=match.version - 1):
                return service.store.take_premoves(match_id, version)

            def store_line(version=match.version):
                return other.set_premoves(match_id, BOB[0], version, [["e5", "d4"]], 1.0)

            results = await (race(take, store_line, gap(trial)) if trial % 2 else race(store_line, take, gap(trial)))
            assert not any(isinstance(r, BaseException) for r in results), (trial, results)
            assert await service.store.premoves_of(match_id, BOB[0]) is not None
            assert (await service.get(match_id)).premoves_held, (trial, gap(trial))
            await service.store.set_premoves(match_id, BOB[0], match.version, [], 0.0)  # for the next trial
    finally:
        await other.close()


async def test_two_processes_following_the_same_lines_left_behind_answer_once_and_tell_once(service, database):
    """Every live process's look follows conditional moves a stop left behind, so two may follow the same lines
    at the same instant: the answer is stored once (its version check), a player whose lines did not expect the
    move is told once (by the process whose take found them), and the log replays. Half the trials leave an
    answer to play, half lines to clear; gaps: each of the first event-loop turns, then 0–5 ms."""
    from bot.store import open_store
    from tests.racing import race
    from tests.test_premove_races import gap

    other_store = await open_store(database)  # the other process
    other = MatchService(other_store, service.clock, default_reminder_hours=24)
    try:
        for trial in range(30):
            match_id = (await started(service)).id
            expected = trial % 2 == 0
            await service.add_premove(match_id, BOB[0], "e5; d4" if expected else "c3; d4")
            store = service.store
            service.store = DiesAt(store, "premoves_at")  # the move is stored, then its process dies
            with pytest.raises(ProcessDied):
                await service.play(match_id, ALICE[0], "e5")
            service.store = store
            first, second = await race(service.follow_left_conditionals, other.follow_left_conditionals, gap(trial))
            assert not isinstance(first, BaseException) and not isinstance(second, BaseException), (first, second)
            outcomes = [o for o in (*first, *second) if o.match.id == match_id]
            moves = await store.moves(match_id)
            if expected:
                assert [(m.notation, m.conditional) for m in moves] == [("e5", False), ("d4", True)], trial
                assert sum(o.answered is not None for o in outcomes) == 1, trial  # one board of the answer
            else:
                assert [m.notation for m in moves] == ["e5"], trial
                told = [cleared for o in outcomes for cleared in o.premoves_cleared]
                assert told == [(BOB[0], "unexpected")], (trial, told)  # told once
            assert await store.premoves_left_behind() == [], trial
            assert (await log_matches_state(service, match_id))[0], trial
    finally:
        await other_store.close()
