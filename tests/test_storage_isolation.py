"""Every write touches only its own match: bystander matches in the same database stay byte-for-byte the same.

Each test builds the same crowd of matches in two servers (active two-seat
and three-seat matches with reminders, lobbies of two and of three seats),
performs one operation on a target match and compares every other match's
rows in every table before and after. A write that lost its ``WHERE
match_id`` condition fails here.
"""

from __future__ import annotations

import pytest

from bot.domain.model import ExplorationRow, PremoveRow
from bot.domain.seats import game_of
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.store import Store
from tests import backends

pytestmark = pytest.mark.both_backends

GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001
ALICE, BOB, CAROL, DAN, ERIN = (101, "alice"), (102, "bob"), (103, "carol"), (104, "dan"), (105, "erin")

TABLES = {
    "matches": "id",
    "seats": "match_id",
    "moves": "match_id",
    "reminders": "match_id",
    "offers": "match_id",
    "quarantine": "match_id",
    "premoves": "match_id",
    "explorations": "match_id",
    "reviews": "match_id",
}


async def rows_of(store: Store, match_id: int) -> dict[str, list[tuple]]:
    snapshot = {}
    for table, key in TABLES.items():
        snapshot[table] = await backends.fetch(store, f"SELECT * FROM {table} WHERE {key} = ? ORDER BY 1, 2", match_id)
    return snapshot


async def lobby(service: MatchService, **kwargs):
    service.clock.advance(61)  # past the challenge rate limit (3 a minute per user)
    return await service.create(**kwargs)


async def active(
    service: MatchService, players, guild=GUILD, first_move: str | None = "e5", days=None, clock_text=None
):
    service.clock.advance(61)  # past the challenge rate limit (3 a minute per user)
    match = await service.create(
        game_id="bide",
        creator=players[0],
        invited=list(players[1:]),
        guild_id=guild,
        channel_id=CHANNEL,
        days_per_move=days,
        clock_text=clock_text,
    )
    for user in players[1:]:
        await service.accept(match.id, user[0])
    if first_move:
        await service.play(match.id, players[0][0], first_move)
    return await service.get(match.id)


async def crowd(service: MatchService) -> list[int]:
    """Bystanders in both servers, each with moves, seats and (for active ones) a reminder."""
    ids = []
    for guild in (GUILD, OTHER_GUILD):
        timed = await active(service, (ALICE, BOB), guild, days=3)  # a deadline, and a pending takeback offer
        await Offers(service).offer(timed.id, ALICE[0], "undo")
        ids.append(timed.id)
        ids.append((await active(service, (ALICE, BOB), guild)).id)
        ids.append((await active(service, (ALICE, BOB, CAROL), guild)).id)
        ids.append(
            (
                await lobby(
                    service,
                    game_id="bide",
                    creator=ALICE,
                    invited=[BOB, CAROL],
                    guild_id=guild,
                    channel_id=CHANNEL,
                    players=3,
                )
            ).id
        )
        ids.append(
            (await lobby(service, game_id="bide", creator=ALICE, invited=[BOB], guild_id=guild, channel_id=CHANNEL)).id
        )
    return ids


async def assert_untouched(service: MatchService, bystanders: list[int], operation) -> None:
    before = {i: await rows_of(service.store, i) for i in bystanders}
    await operation()
    after = {i: await rows_of(service.store, i) for i in bystanders}
    for i in bystanders:
        assert after[i] == before[i], f"match {i} changed"


async def test_a_move_resets_only_its_own_turn_clock_and_reminder(service):
    target = await active(service, (CAROL, DAN), first_move=None)
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.play(target.id, CAROL[0], "e5"))
    reminder = await service.store.get_reminder(target.id)
    assert reminder is not None and reminder.user_id == DAN[0]


async def test_a_timed_move_lapses_and_times_only_its_own_match(service):
    target = await active(service, (CAROL, DAN), days=3)
    await Offers(service).offer(target.id, CAROL[0], "undo")
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.play(target.id, DAN[0], "d4"))
    assert await service.store.get_offer(target.id, "undo") is None  # the move lapsed the offer


async def test_an_accepted_takeback_changes_only_its_own_match(service):
    target = await active(service, (CAROL, DAN), days=3)
    notice = await Offers(service).offer(target.id, CAROL[0], "undo")
    bystanders = await crowd(service)
    await assert_untouched(
        service, bystanders, lambda: Offers(service).answer(target.id, DAN[0], "undo", notice.at_seq, True)
    )
    assert game_of(await service.get(target.id)).ply == 0


async def test_a_declined_offer_is_withdrawn_only_from_its_own_match(service):
    target = await active(service, (CAROL, DAN))
    notice = await Offers(service).offer(target.id, CAROL[0], "undo")
    bystanders = await crowd(service)
    await assert_untouched(
        service, bystanders, lambda: Offers(service).answer(target.id, DAN[0], "undo", notice.at_seq, False)
    )


async def test_a_two_seat_resignation_deletes_only_its_own_reminder(service):
    target = await active(service, (CAROL, DAN))
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.resign(target.id, DAN[0]))
    assert await service.store.get_reminder(target.id) is None
    for i in bystanders:
        match = await service.get(i)
        if match.status == "active":
            assert await service.store.get_reminder(i) is not None


async def test_a_multi_seat_resignation_marks_only_its_own_seat(service):
    target = await active(service, (CAROL, DAN, ERIN))
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.resign(target.id, DAN[0]))
    seats = (await service.get(target.id)).seats
    assert [s.resigned for s in seats] == [False, True, False]


async def test_marking_a_board_announced_touches_only_that_match(service):
    target = await active(service, (CAROL, DAN))
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.store.mark_announced(target.id, target.version, 77, 88))
    marked = await service.get(target.id)
    assert (marked.board_channel_id, marked.board_message_id, marked.announced_version) == (77, 88, target.version)


async def test_announced_version_never_goes_backwards(service):
    target = await active(service, (CAROL, DAN))
    await service.store.mark_announced(target.id, target.version, 77, 88)
    await service.store.mark_announced(target.id, target.version - 1, 77, 99)
    assert (await service.get(target.id)).announced_version == target.version


async def test_declining_a_seat_removes_only_that_seat(service):
    target = await service.create(
        game_id="bide", creator=CAROL, invited=[BOB, ERIN], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    bystanders = await crowd(service)  # bob is seated (and invited) in the bystanders too
    await assert_untouched(service, bystanders, lambda: service.decline(target.id, BOB[0]))
    assert [s.user_id for s in (await service.get(target.id)).seats] == [CAROL[0], ERIN[0]]


async def test_cancelling_a_lobby_cancels_only_that_lobby(service):
    target = await service.create(game_id="bide", creator=CAROL, invited=[DAN], guild_id=GUILD, channel_id=CHANNEL)
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.cancel(target.id, CAROL[0]))
    assert (await service.store.get_match(target.id)).status == "cancelled"


async def test_joining_and_starting_a_lobby_touch_only_that_lobby(service):
    target = await service.create(
        game_id="bide", creator=CAROL, invited=[], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.join(target.id, ALICE))
    await assert_untouched(service, bystanders, lambda: service.start(target.id, CAROL[0]))
    assert (await service.get(target.id)).status == "active"


async def test_accepting_a_challenge_touches_only_that_challenge(service):
    target = await service.create(game_id="bide", creator=CAROL, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    bystanders = await crowd(service)  # bob is invited to lobbies there too: they stay unanswered
    await assert_untouched(service, bystanders, lambda: service.accept(target.id, BOB[0]))


async def test_a_reminder_marked_sent_or_snoozed_is_only_that_matchs(service):
    # bob is reminded at the same ply in the bystanders: only the match id tells them apart
    target = await active(service, (CAROL, BOB))
    bystanders = await crowd(service)
    reminder = await service.store.get_reminder(target.id)
    await assert_untouched(service, bystanders, lambda: service.store.reminder_sent(target.id, reminder.ply, 5.0, 10.0))
    await assert_untouched(service, bystanders, lambda: service.store.snooze(target.id, BOB[0], reminder.ply))
    assert (await service.store.get_reminder(target.id)).snoozed
    await assert_untouched(service, bystanders, lambda: service.store.postpone_reminder(target.id, reminder.ply, 99.0))
    assert (await service.store.get_reminder(target.id)).remind_at == 99.0


async def test_thread_and_lobby_message_ids_are_set_on_one_match(service):
    target = await service.create(game_id="bide", creator=CAROL, invited=[DAN], guild_id=GUILD, channel_id=CHANNEL)
    bystanders = await crowd(service)
    await assert_untouched(
        service, bystanders, lambda: service.store.update_match_fields(target.id, thread_id=5, lobby_message_id=6)
    )
    match = await service.get(target.id)
    assert (match.thread_id, match.lobby_message_id) == (5, 6)


async def test_each_match_has_its_own_move_log_numbered_from_one(service):
    await crowd(service)
    target = await active(service, (CAROL, DAN))
    await service.play(target.id, DAN[0], "d4")
    moves = await service.store.moves(target.id)
    assert [(m.seq, m.user_id, m.notation) for m in moves] == [(1, CAROL[0], "e5"), (2, DAN[0], "d4")]


async def test_setting_a_match_aside_telling_its_players_and_releasing_it_touch_only_that_match(service):
    target = await active(service, (CAROL, DAN))
    bystanders = await crowd(service)
    told, untold = bystanders[0], bystanders[1]  # two matches already set aside, their players told or not
    for match_id in (told, untold):
        await service.store.quarantine(match_id, "its log does not replay", 1.0)
    await service.store.quarantine_told(told)
    store = service.store
    await assert_untouched(service, bystanders, lambda: store.quarantine(target.id, "broken", 2.0))
    assert await store.claim_paused_untold(1.0, 1.0) == sorted([untold, target.id])
    await assert_untouched(service, bystanders, lambda: store.quarantine_told(target.id))
    assert await store.claim_paused_untold(5.0, 1.0) == [untold]
    await assert_untouched(service, bystanders, lambda: store.release_quarantine(target.id))
    assert await store.quarantined_ids() == sorted([told, untold])
    assert (await store.get_match(target.id)).quarantine is None


async def test_a_deadline_warning_or_a_vacation_moves_only_that_matchs_clock(service):
    # the timed bystanders have the same version and deadline level: only the match id tells them apart
    target = await active(service, (CAROL, DAN), days=3)
    bystanders = await crowd(service)
    store = service.store
    await assert_untouched(service, bystanders, lambda: store.set_deadline_notice(target.id, target.version, 1))
    assert (await store.get_match(target.id)).deadline_notice == 1
    await assert_untouched(service, bystanders, lambda: store.hold_warnings(target.id, target.version, 5000.0))
    assert (await store.get_match(target.id)).warnings_held_until == 5000.0
    await assert_untouched(service, bystanders, lambda: store.extend_deadline(target.id, target.version, 3600.0))
    extended = await store.get_match(target.id)
    assert (extended.deadline_at, extended.deadline_notice) == (target.deadline_at + 3600.0, 0)


async def test_posting_an_offer_and_a_move_that_lapses_it_take_only_that_matchs_buttons(service):
    target = await active(service, (CAROL, DAN))
    notice = await Offers(service).offer(target.id, CAROL[0], "undo")
    bystanders = await crowd(service)
    store = service.store
    posted = bystanders[0]  # a bystander's takeback request (same kind, same log length) is posted too
    await store.set_offer_message(posted, "undo", 1, 500, 501)
    await assert_untouched(
        service, bystanders, lambda: store.set_offer_message(target.id, "undo", notice.at_seq, 700, 701)
    )
    assert await store.offer_messages(target.id) == [(700, 701)]
    outcome = await service.play(target.id, DAN[0], "d4")
    assert outcome.lapsed_offers == ((700, 701),)  # the bystander's buttons stay
    assert await store.offer_messages(posted) == [(500, 501)]


async def test_an_acceptance_counts_only_in_its_own_match(service):
    target = await active(service, (CAROL, DAN, ERIN))
    notice = await Offers(service).offer(target.id, CAROL[0], "undo")
    bystanders = await crowd(service)
    await assert_untouched(
        service, bystanders, lambda: Offers(service).answer(target.id, DAN[0], "undo", notice.at_seq, True)
    )
    assert (await service.store.get_offer(target.id, "undo")).accepted == [DAN[0]]
    await service.store.withdraw_offer(target.id, "undo", notice.at_seq)
    # the bystanders' requests (same kind, same log length) are still open; this one is gone
    assert await service.store.accept_offer(target.id, "undo", notice.at_seq, ERIN[0]) is None


async def test_a_move_on_a_bank_clock_settles_only_its_own_movers_bank(service):
    # every bystander has a first seat too: only the match id tells the target's apart
    target = await active(service, (CAROL, DAN), first_move=None, clock_text="10h+4h max 12h")
    bystanders = await crowd(service)
    await assert_untouched(service, bystanders, lambda: service.play(target.id, CAROL[0], "e5"))
    assert [s.bank for s in (await service.get(target.id)).seats] == [12 * 3600.0, 10 * 3600.0]


async def test_conditional_moves_are_stored_read_and_taken_only_in_their_own_match(service):
    # bob holds lines at the same version in a bystander: only the match id tells them apart
    target = await active(service, (CAROL, BOB))
    bystanders = await crowd(service)
    versions = {i: (await service.get(i)).version for i in bystanders}
    twin = next(i for i in bystanders if versions[i] == target.version)
    store = service.store
    await store.set_premoves(twin, BOB[0], target.version, [["b2", "c3"]], 1.0)
    mine = PremoveRow(target.id, BOB[0], target.version, [["d4", "e5"]])

    await assert_untouched(
        service, bystanders, lambda: store.set_premoves(target.id, BOB[0], target.version, mine.lines, 2.0)
    )
    assert (await service.get(target.id)).premoves_held
    assert await store.premoves_of(target.id, BOB[0]) == mine
    assert await store.premoves_at(target.id, target.version) == [mine]
    assert await store.premoves_of(twin, BOB[0]) == PremoveRow(twin, BOB[0], target.version, [["b2", "c3"]])

    await assert_untouched(service, bystanders, lambda: store.take_premoves(target.id, target.version))
    assert await store.premoves_at(target.id, target.version) == []
    assert not (await service.get(target.id)).premoves_held  # none left here, whatever the bystander holds

    kept = [["a1", "b2"]]
    await assert_untouched(
        service, bystanders, lambda: store.keep_premoves(target.id, BOB[0], target.version, kept, 3.0)
    )
    assert await store.premoves_of(target.id, BOB[0]) == PremoveRow(target.id, BOB[0], target.version, kept)
    assert (await service.get(target.id)).premoves_held
    await assert_untouched(service, bystanders, lambda: store.set_premoves(target.id, BOB[0], target.version, [], 4.0))
    assert await store.premoves_of(target.id, BOB[0]) is None


async def test_an_analysis_board_is_read_and_dropped_only_in_its_own_match(service):
    # bob has a board in a bystander too: only the match id tells them apart
    target = await active(service, (CAROL, BOB))
    bystanders = await crowd(service)
    store = service.store
    theirs = ExplorationRow(bystanders[0], BOB[0], 1, {"cells": "theirs"}, ["a1"], 1)
    await store.put_exploration(theirs, 1.0)
    mine = ExplorationRow(target.id, BOB[0], target.version, {"cells": "mine"}, ["e5", "d4"], 1)
    await assert_untouched(service, bystanders, lambda: store.put_exploration(mine, 2.0))
    assert await store.get_exploration(target.id, BOB[0]) == mine
    assert await store.get_exploration(bystanders[0], BOB[0]) == theirs
    await assert_untouched(service, bystanders, lambda: store.drop_exploration(target.id, BOB[0]))
    assert await store.get_exploration(target.id, BOB[0]) is None


async def test_a_review_is_claimed_searched_saved_and_let_go_only_in_its_own_match(service):
    # the bystanders' reviews are running (claimed, no result yet): only the match id tells them apart
    target = await active(service, (CAROL, DAN))
    bystanders = await crowd(service)
    store = service.store
    for i in bystanders[:2]:
        assert await store.claim_review(i, 5, 100.0, 60.0)
    assert await store.get_review(target.id) is None
    await assert_untouched(service, bystanders, lambda: store.claim_review(target.id, 3, 100.0, 60.0))
    await assert_untouched(service, bystanders, lambda: store.review_progress(target.id, 2, 110.0, 60.0))
    running = await store.get_review(target.id)
    assert (running.match_id, running.done, running.total, running.data, running.claimed_until) == (
        target.id,
        2,
        3,
        None,
        170.0,
    )
    await assert_untouched(service, bystanders, lambda: store.save_review(target.id, {"turns": [1, 2]}))
    saved = await store.get_review(target.id)
    assert (saved.done, saved.total, saved.data, saved.claimed_until) == (3, 3, {"turns": [1, 2]}, None)
    assert (await store.get_review(bystanders[0])).data is None
    await assert_untouched(service, bystanders, lambda: store.release_review(target.id))
    assert await store.get_review(target.id) is None
