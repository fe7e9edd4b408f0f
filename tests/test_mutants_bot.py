"""Rules of bot/ that `make mutation` found unpinned (docs/testing.md, "Mutation testing").

Each test is named for the rule it pins; its docstring names the mutants it kills (mutmut's names for
the layout by layer: bot/service/, bot/domain/, bot/store/sqlite/). Fast tests only, on a real SQLite
file and a manual clock, like tests/test_service.py.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math

import pytest

from bot.chat.words import errors as error_words
from bot.chat.words import offers as offer_words
from bot.domain.bank import BankClock
from bot.domain.clock import ManualClock
from bot.domain.errors import DamagedMatch, DamagedTournament, StalePosition, VersionConflict
from bot.domain.model import OfferRow, Preferences, SeatRow
from bot.domain.seats import game_of, picture_name, player_names, user_to_move
from bot.service.challenge_limits import CAPS, Challenge, StoredChallengeLimits, first_broken_rule
from bot.service.challenges import MAX_BLOCKS, ChallengeRefusals
from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.service.ratings import Ratings
from bot.service.replay_gate import ReplayGate
from bot.service.timelimits import OUTAGE_GRACE, TimeLimits
from bot.store.challenges import ChallengeCounts
from bot.store.rows import clock_from, move_from, seat_from, tournament_from
from bot.store.sqlite import SqliteStore
from tests import test_damaged_rows as damaged_rows
from tests.said import refusal_text, refused

GUILD, OTHER_GUILD, CHANNEL, THREAD = 9000, 9100, 9001, 9002
ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
HOUR, DAY = 3600.0, 86400.0


@pytest.fixture
async def world(tmp_path):
    clock = ManualClock()
    store = await SqliteStore.open(tmp_path / "hexplay.sqlite3")
    try:
        yield MatchService(store, clock, default_reminder_hours=24), clock
    finally:
        await store.close()


@pytest.fixture
async def service(world):
    return world[0]


async def started(service: MatchService, players=(ALICE, BOB), *, game="bide", guild=GUILD, **options):
    """A match in play between ``players`` (the first one created it)."""
    service.clock.advance(61)  # past the challenge rate limit
    lobby = await service.create(
        game_id=game, creator=players[0], invited=list(players[1:]), guild_id=guild, channel_id=CHANNEL, **options
    )
    for user in players[1:]:
        await service.accept(lobby.id, user[0])
    return await service.get(lobby.id)


async def finished(service: MatchService, players=(ALICE, BOB), *, turns=2, **options):
    """A Bide match of ``turns`` turns (e5, d4, …) that the player to move then resigns (after two turns
    between two players: the first, so the second wins); the match as stored."""
    match = await started(service, players, **options)
    for number, text in enumerate(["e5", "d4", "c3", "f6"][:turns]):
        await service.play(match.id, players[number % len(players)][0], text)
    mover = user_to_move(match, game_of(await service.get(match.id)))
    await service.resign(match.id, mover)
    return await service.get(match.id)


async def set_state(service: MatchService, match_id: int, state: dict) -> None:
    """The stored position replaced by hand (an operator's repair, or damage)."""
    async with service.store.transaction() as db:
        await db.execute("UPDATE matches SET state = ? WHERE id = ?", (json.dumps(state), match_id))


# -- what pytest cannot reselect under mutmut ----------------------------------------------------


@pytest.mark.parametrize("table,column", [("seats", "name"), ("moves", "notation")])
async def test_text_that_cannot_be_decoded_sets_its_match_aside_like_any_damage(world, table, column, caplog):
    """test_damaged_rows' two ``b'\\xff'`` cases under ids without a backslash.

    pytest escapes such an id once more at every collection after the first in a process, so
    mutmut's forked runs cannot select those two cases (tools/mutation_run.py leaves them out);
    these run the same check for mutmut.
    """
    await damaged_rows.test_a_damaged_column_sets_its_match_aside_and_every_pass_goes_on(
        world, table, column, b"\xff", caplog
    )


# -- finding a match (bot/service/core.py) ---------------------------------------------------------


async def test_a_replay_asked_from_another_server_names_the_match_it_did_not_find(service):
    """core ``check_guild`` 3: the refusal names the match asked for."""
    match = await started(service)
    with refused(match=rf"^There is no match #{match.id} in this server\.$"):
        await service.history_gif(match.id, ALICE[0], guild_id=OTHER_GUILD)


async def test_a_command_typed_in_a_cancelled_lobbys_thread_means_the_players_match_in_play(service):
    """core ``resolve`` 16: the thread of a cancelled lobby names no match."""
    playing = await started(service)
    service.clock.advance(61)
    lobby = await service.create(game_id="bide", creator=ALICE, invited=[CAROL], guild_id=GUILD, channel_id=CHANNEL)
    await service.set_thread(lobby.id, THREAD)
    await service.cancel(lobby.id, ALICE[0])
    assert (await service.resolve(ALICE[0], GUILD, THREAD, None)).id == playing.id


async def test_a_command_typed_in_a_paused_matchs_thread_says_it_is_paused(service):
    """core ``resolve`` 24: the refusal is "paused", worded as such."""
    match = await started(service)
    await service.set_thread(match.id, THREAD)
    await service.set_aside(match.id, "its stored state differs from what its move log replays to")
    with refused(match=rf"^Match #{match.id} is paused: its saved move list does not lead"):
        await service.resolve(ALICE[0], GUILD, THREAD, None)


# -- the lobby (bot/service/lobby.py) ---------------------------------------------------------------


async def test_an_option_without_a_name_is_refused(service):
    """lobby ``parse_options`` 15: ``=4`` has a separator and a value but no key."""
    with refused(match="^Options are written key=value, like side=4; `=4` is not.$"):
        await service.create(
            game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, options_text="=4"
        )


async def test_too_many_invited_players_without_computers_is_refused_in_the_engines_words_only(service):
    """lobby ``create`` 76: the count "(you, n invited players and m computer seats)" is added only when
    computer seats were counted in."""
    invited = [(200 + i, f"p{i}") for i in range(6)]
    with refused() as raised:
        await service.create(game_id="bide", creator=ALICE, invited=invited, guild_id=GUILD, channel_id=CHANNEL)
    text = refusal_text(raised.value)
    assert raised.value.reason == "player_count" and "invited" not in text and "computer" not in text


# -- play (bot/service/play.py) -----------------------------------------------------------------------


async def test_a_half_built_turn_is_previewed_as_the_position_after_its_actions_with_their_events(service, monkeypatch):
    """play ``preview`` 51 (the picture lost the actions' events) and 53 (the preview lost its position)."""
    drawn = []

    def fake_png(game, **kwargs):
        drawn.append((game, kwargs))
        return b"png"

    monkeypatch.setattr("bot.service.pictures.render_png", fake_png)
    match = await started(service, game="playbai", days_per_move=2, options_text="expert=true")
    tried = await service.preview(match.id, ALICE[0], "e2-e1")
    assert tried.unfinished and tried.notation == "e2-e1" and tried.png == b"png"
    assert tried.game is not None and tried.game.turn_in_progress() and tried.events
    game, kwargs = drawn.pop()
    assert game is tried.game
    assert [e.to_json() for e in kwargs["last_events"]] == [e.to_json() for e in tried.events]
    assert (await service.get(match.id)).version == match.version  # nothing stored


# -- looking at a match (bot/service/history.py) --------------------------------------------------


async def test_an_announcement_that_fails_is_logged_with_its_match_and_the_others_are_still_made(
    service, monkeypatch, caplog
):
    """history ``claim_missed``: the operator's log names the match whose announcement failed, and its claim is
    given back."""
    broken = await started(service)
    fine = await started(service, (CAROL, BOB))
    await service.play(broken.id, ALICE[0], "e5")
    await service.play(fine.id, CAROL[0], "e5")
    missed = service.missed

    async def failing(match_id):
        if match_id == broken.id:
            raise RuntimeError("the picture could not be drawn")
        return await missed(match_id)

    monkeypatch.setattr(service, "missed", failing)
    caplog.set_level(logging.ERROR, logger="bot")
    outcomes = [outcome for i, _ in await service.unannounced() if (outcome := await service.claim_missed(i))]
    assert [o.match.id for o in outcomes] == [fine.id]
    assert [r.getMessage() for r in caplog.records] == [f"match {broken.id}: skipped in this pass"]
    monkeypatch.setattr(service, "missed", missed)
    assert await service.claim_missed(broken.id) is not None  # not held: the next try takes it


# -- reminders (bot/service/reminders.py) ---------------------------------------------------------


async def test_refused_tries_of_a_notice_are_counted_per_version_of_the_match(service):
    """reminders ``refused_try`` 3 and 5, store ``count_refused_try`` 14: a notice no place takes is
    counted at one version of the match, and counting starts again at the next."""
    match = await started(service)
    other = await started(service, (CAROL, BOB))
    assert [await service.refused_try(match.id, "reminder", match.version) for _ in range(3)] == [1, 2, 3]
    assert await service.refused_try(match.id, "deadline", match.version) == 1
    assert await service.refused_try(other.id, "reminder", other.version) == 1
    assert await service.refused_try(match.id, "reminder", match.version + 1) == 1
    assert await service.refused_try(match.id, "reminder", match.version + 1) == 2


# -- start-up verification (bot/service/verify.py) ----------------------------------------------------


async def test_a_state_that_its_log_does_not_replay_to_is_set_aside_with_that_reason_and_put_back_once_repaired(
    service, caplog
):
    """verify ``replay_problem`` 27 and 28 (the reason's words) and ``verify_all`` 8 (the log line when a
    repaired match is put back)."""
    match = await started(service)
    await service.play(match.id, ALICE[0], "e5")
    good = (await service.get(match.id)).state
    broken = json.loads(json.dumps(good))
    broken["position"]["board"] = {}
    await set_state(service, match.id, broken)
    assert await service.verify_all() == [match.id]
    paused = await service.read(match.id)
    assert paused.quarantine == "its stored state differs from what its move log replays to"
    assert "its saved move list does not lead to its saved position" in error_words.quarantine_notice(paused)
    await set_state(service, match.id, good)
    caplog.set_level(logging.WARNING, logger="bot")
    assert await service.verify_all() == []
    assert f"match {match.id}: its move log replays to its state again; back in play" in [
        r.getMessage() for r in caplog.records
    ]


# -- offers (bot/service/offers.py) ---------------------------------------------------------------


async def test_an_offer_is_answered_only_at_the_log_length_it_was_made_at_whatever_the_store_kept(service):
    """offers ``_answer`` 11: an offer row a store kept past a move (at_seq behind the log) is closed."""
    match = await started(service, game="bump")
    moved = await service.play(match.id, ALICE[0], game_of(match).legal_notations()[0])
    stale = OfferRow(match.id, "draw", ALICE[0], 0, [], service.clock.now())
    await service.store.make_offer(match.id, moved.match.version, stale)
    with pytest.raises(StalePosition, match="offer_closed"):
        await Offers(service).answer(match.id, BOB[0], "draw", 0, True)
    assert (await service.get(match.id)).status == "active"


async def test_the_maker_withdraws_their_own_offer_and_it_is_gone(service):
    """offers ``_answer`` 26: withdrawing calls the store with the match."""
    match = await started(service, game="bump")
    offers = Offers(service)
    notice = await offers.offer(match.id, ALICE[0], "draw")
    answer = await offers.answer(match.id, ALICE[0], "draw", notice.at_seq, False)
    assert (answer.kind, answer.closed, answer.user_id) == ("withdrawn", True, ALICE[0])
    assert await service.store.get_offer(match.id, "draw") is None


async def test_a_declined_and_an_agreed_offer_say_so(service):
    """offers ``_answer`` 72 (kind "declined"), 129 (the agreed answer's match) and 141 (kind "agreed"),
    ``_draw`` 31 (an agreed draw is logged as the move ``draw``)."""
    match = await started(service, game="bump")
    offers = Offers(service)
    notice = await offers.offer(match.id, ALICE[0], "draw")
    declined = await offers.answer(match.id, BOB[0], "draw", notice.at_seq, False)
    assert (declined.kind, declined.closed, declined.match.id) == ("declined", True, match.id)
    assert offer_words.offer_answer(declined, 0.0).startswith(f"<@{BOB[0]}> declined a draw")
    notice = await offers.offer(match.id, ALICE[0], "draw")
    agreed = await offers.answer(match.id, BOB[0], "draw", notice.at_seq, True)
    assert (agreed.kind, agreed.closed, agreed.match.id) == ("agreed", True, match.id)
    assert agreed.outcome is not None and agreed.outcome.finished
    last = (await service.store.moves(match.id))[-1]
    assert (last.kind, last.notation, last.user_id) == ("draw", "draw", ALICE[0])


async def test_an_offer_pings_the_people_asked_and_leaves_computer_seats_to_the_computer(service):
    """offers ``_offer`` 96: computer seats are asked, never pinged."""
    service.clock.advance(61)
    lobby = await service.create(
        game_id="bump", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, computer="easy"
    )
    match = (await service.start_if_ready(lobby.id)).match
    notice = await Offers(service).offer(match.id, ALICE[0], "draw")
    assert notice.answerer_ids == [] and notice.computer_ids == (-1,) and notice.asked_ids == (-1,)


async def test_the_activity_lists_the_offers_open_on_the_position_only(service):
    """offers ``open_offers`` 7 (the kind not asked for) and 14 (the offers of other positions listed instead)."""
    match = await started(service, game="bump")
    moved = await service.play(match.id, ALICE[0], game_of(match).legal_notations()[0])
    kept = OfferRow(match.id, "undo", ALICE[0], 0, [], service.clock.now())  # a row a store kept past the move
    await service.store.make_offer(match.id, moved.match.version, kept)
    offers = Offers(service)
    assert await offers.open_offers(match.id) == []
    notice = await offers.offer(match.id, BOB[0], "draw")
    assert [(o.kind, o.user_id, o.at_seq) for o in await offers.open_offers(match.id)] == [("draw", BOB[0], 1)]
    assert notice.at_seq == 1


# -- time limits, vacations, outages (bot/service/timelimits.py) --------------------------------------


async def test_a_claim_for_a_turn_that_has_moved_on_is_out_of_date(service):
    """timelimits ``_claim`` 14: a claim made for another ply is refused even while someone is to move."""
    match = await started(service, days_per_move=1)
    await service.play(match.id, ALICE[0], "e5")
    service.clock.advance(2 * DAY)
    with pytest.raises(StalePosition, match="claim_out_of_date"):
        await TimeLimits(service).claim(match.id, ALICE[0], 0)
    assert (await service.get(match.id)).status == "active"


async def test_a_time_limit_warning_goes_to_the_mover_their_way_and_a_time_out_is_announced_to_all(service):
    """timelimits ``_job`` 52, 61 (a time-out: ``left`` and "ping"), 70 and 72 (a warning: the mover and
    their way of being told)."""
    match = await started(service, days_per_move=2)
    await service.set_preferences(BOB[0], GUILD, reminders=True, delay_hours=None, via="dm")
    await service.play(match.id, ALICE[0], "e5")
    limits = TimeLimits(service)
    service.clock.advance(2 * DAY - 2 * HOUR)
    (warning,) = await limits.due()
    assert (warning.level, warning.user_id, warning.via, warning.left) == (1, BOB[0], "dm", 2 * HOUR)
    assert warning.claimant_ids == [ALICE[0]]
    await limits.done(warning)
    service.clock.advance(3 * HOUR)
    (timeout,) = await limits.due()
    assert (timeout.level, timeout.user_id, timeout.via, timeout.left) == (3, BOB[0], "ping", -HOUR)


async def test_a_connection_gap_within_the_grace_is_no_outage(service):
    """timelimits ``connection_gap`` 4."""
    limits = TimeLimits(service)
    now = service.clock.now()
    assert await limits.connection_gap(now - OUTAGE_GRACE) is False
    assert await service.store.outages() == []
    assert await limits.connection_gap(now - OUTAGE_GRACE - 1) is True
    assert await service.store.outages() == [(now - OUTAGE_GRACE - 1, now)]


async def test_a_long_stop_gives_running_clocks_their_time_back_at_start_up(service):
    """timelimits ``recover_outage`` 11: the outage recorded runs from the last heartbeat to now."""
    match = await started(service, days_per_move=1)
    limits = TimeLimits(service)
    await limits.heartbeat()
    last = service.clock.now()
    service.clock.advance(HOUR)
    assert await limits.recover_outage() == HOUR
    assert await service.store.outages() == [(last, last + HOUR)]
    assert (await service.get(match.id)).deadline_at == match.deadline_at + HOUR


async def test_a_vacation_pauses_the_clocks_where_it_is_your_move_and_says_how_many_days_are_left(service):
    """timelimits ``vacation`` 61 (the player's matches are found) and 39 (the refusal counts the days)."""
    waiting = await started(service, days_per_move=3)
    not_mine = await started(service, (BOB, ALICE), days_per_move=3)
    await service.play(not_mine.id, BOB[0], "e5")  # now alice is to move there too
    other = await started(service, (BOB, CAROL), days_per_move=3)
    limits = TimeLimits(service, vacation_days_per_year=10)
    until, left, paused = await limits.vacation(ALICE[0], 4)
    assert (until, left, paused) == (service.clock.now() + 4 * DAY, 6, 2)
    assert (await service.get(waiting.id)).deadline_at == waiting.deadline_at + 4 * DAY
    assert (await service.get(other.id)).deadline_at == other.deadline_at
    service.clock.advance(5 * DAY)
    with refused(match=r"^You have 6 vacation days left in the last 365 days \(the allowance is 10 a year\)\.$"):
        await limits.vacation(ALICE[0], 7)


async def test_a_time_limit_warning_in_the_movers_quiet_hours_waits_for_their_morning(service):
    """timelimits ``_job`` 72 (the quiet hours not read: the warning sent in the night)."""
    match = await started(service, days_per_move=2)
    await service.set_preferences(
        BOB[0], GUILD, reminders=None, delay_hours=None, via="dm", quiet_zone="UTC", quiet_hours="22:00-07:00"
    )
    await service.play(match.id, ALICE[0], "e5")
    limits = TimeLimits(service)
    service.clock.advance(2 * DAY - 2 * HOUR)  # 06:01 UTC: two hours left, in bob's night
    assert await limits.due() == []
    morning = (await service.get(match.id)).warnings_held_until
    assert morning is not None and 0 < morning - service.clock.now() <= HOUR
    service.clock.advance(HOUR)
    (warning,) = await limits.due()
    assert (warning.user_id, warning.via, warning.left) == (BOB[0], "dm", HOUR)


async def test_a_process_running_some_shards_makes_good_each_shards_own_outage(service, caplog):
    """timelimits ``recover_outage`` 31 (a shard's own heartbeat not read), 48 and 50 (the log line's counts)."""
    match = await started(service, days_per_move=1)  # GUILD is on shard 0 of 2
    first = TimeLimits(service)
    first.shards = (2, (0,))
    await first.heartbeat()
    service.clock.advance(HOUR)
    with caplog.at_level(logging.WARNING, logger="bot.service.timelimits"):
        assert await first.recover_outage() == HOUR
    assert (await service.get(match.id)).deadline_at == match.deadline_at + HOUR
    assert [r.getMessage() for r in caplog.records] == ["shard 0 was down for 3600 s; 1 running clocks extended"]
    caplog.clear()
    second = TimeLimits(service)  # shard 1 never beat: the bot's last heartbeat stands for it
    second.shards = (2, (1,))
    service.clock.advance(2 * HOUR)
    with caplog.at_level(logging.WARNING, logger="bot.service.timelimits"):
        assert await second.recover_outage() == 2 * HOUR
    assert [r.getMessage() for r in caplog.records] == ["shard 1 was down for 7200 s; 0 running clocks extended"]
    assert (await service.get(match.id)).deadline_at == match.deadline_at + HOUR  # not on shard 1


# -- ratings (bot/service/ratings.py) ------------------------------------------------------------------


async def test_a_rated_game_between_people_moves_both_ratings_in_the_server_and_counts_the_result(service):
    """ratings ``_counts`` 2 and 11 (rated, two turns played), ``_rated_rows`` 21, 24 (a new player's row:
    the server, the name), 33 (who left), 65, 67, 71 (the new mu and sigma), ``settle`` 20."""
    ratings = Ratings(service)
    match = await finished(service)
    assert await ratings.settle(match) is True
    assert await ratings.settle(match) is False  # once
    name, board = await ratings.leaderboard(GUILD, "bide")
    assert name == "Bide"
    rows = {row.user_id: row for row in board}
    winner, loser = rows[BOB[0]], rows[ALICE[0]]  # alice, to move after two turns, resigned
    assert (winner.guild_id, winner.name, winner.games, winner.wins, winner.losses) == (GUILD, "bob", 1, 1, 0)
    assert (loser.guild_id, loser.name, loser.games, loser.wins, loser.losses) == (GUILD, "alice", 1, 0, 1)
    mu, sigma = ratings.model.mu, ratings.model.sigma  # a new player's rating
    assert winner.mu > mu > loser.mu and winner.sigma < sigma and loser.sigma < sigma
    assert await service.store.leaderboard(OTHER_GUILD, "bide") == []


async def test_an_unrated_game_or_one_ended_before_two_turns_is_settled_without_counting(service):
    """ratings ``settle`` 20 and ``_counts`` 2 and 11."""
    ratings = Ratings(service)
    unrated = await finished(service, rated=False)
    aborted = await finished(service, (CAROL, BOB), turns=1)
    assert await ratings.settle(unrated) is False and await ratings.settle(aborted) is False
    assert await service.store.unrated_finished_ids() == []
    assert (await ratings.leaderboard(GUILD, "bide"))[1] == []


async def test_the_leaderboard_of_a_game_the_bot_does_not_play_is_refused_in_the_engines_words(service):
    """ratings ``leaderboard`` 6 and 7."""
    with refused() as raised:
        await Ratings(service).leaderboard(GUILD, "chess")
    assert raised.value.reason == "game_says" and "chess" in refusal_text(raised.value)


async def test_a_profile_ranks_the_player_in_each_game_of_this_server_and_lists_their_matches_here(service):
    """ratings ``profile`` 3, 18, 22 and 26."""
    ratings = Ratings(service)
    await ratings.settle(await finished(service))
    await ratings.settle(await finished(service, (CAROL, BOB)))
    playing = await started(service)
    await started(service, guild=OTHER_GUILD)
    profile = await ratings.profile(GUILD, BOB[0])
    assert profile.user_id == BOB[0] and [m.id for m in profile.playing] == [playing.id]
    ((row, rank, count),) = profile.ratings  # bob won both
    assert (row.user_id, row.game, row.games, row.wins, rank, count) == (BOB[0], "bide", 2, 2, 1, 3)
    ((row, rank, count),) = (await ratings.profile(GUILD, CAROL[0])).ratings
    assert (row.user_id, row.games, rank in (2, 3), count) == (CAROL[0], 1, True, 3)


async def test_an_unrated_game_between_rated_players_is_settled_at_once(service, caplog):
    """ratings ``settle`` 14 (the games counts read for a game that does not count: "stale" for ever)."""
    ratings = Ratings(service)
    assert await ratings.settle(await finished(service)) is True  # alice and bob now have ratings
    unrated = await finished(service, rated=False)
    with caplog.at_level(logging.WARNING, logger="bot.service.ratings"):
        assert await ratings.settle(unrated) is False
    assert caplog.records == []  # settled, not given up on as changing under it
    assert await service.store.unrated_finished_ids() == []
    assert [row.games for row in (await ratings.leaderboard(GUILD, "bide"))[1]] == [1, 1]


# -- server settings and rematches (bot/service/guilds.py) ---------------------------------------


async def test_server_settings_keep_what_is_set_within_range_and_refuse_the_rest(service):
    """guilds ``configure`` 11 (0 and None are allowed: no limit, inherit), 15 (the range), 34 and 37
    (the reminder delay, up to 336 hours), 45 and 48 (what is stored)."""
    guilds = Guilds(service)
    for days in (0, None, 1, 30):
        assert (await guilds.configure(GUILD, is_admin=True, days_per_move=days)).days_per_move == days
    for days in (0.5, 31, math.inf, math.nan):
        with refused(match="1 to 30 days per move"):
            await guilds.configure(GUILD, is_admin=True, days_per_move=days)
    for hours in (1, 12, 336, None):
        assert (await guilds.configure(GUILD, is_admin=True, reminder_hours=hours)).reminder_hours == hours
    for hours in (0.5, 337, math.inf):
        with refused(match=r"between 1 hour and 14 days"):
            await guilds.configure(GUILD, is_admin=True, reminder_hours=hours)
    await guilds.configure(GUILD, is_admin=True, match_channel_id=77, days_per_move=3, reminder_hours=336)
    stored = await guilds.settings(GUILD)
    assert (stored.match_channel_id, stored.days_per_move, stored.reminder_hours) == (77, 3, 336)
    assert (await guilds.settings(OTHER_GUILD)).days_per_move is None


async def test_a_rematch_keeps_the_time_limit(service):
    """guilds ``rematch`` 78."""
    old = await finished(service, days_per_move=2)
    new = await Guilds(service).rematch(old.id, BOB[0])
    assert new.status == "lobby" and new.days_per_move == 2 and (new.rated, new.hints) == (old.rated, old.hints)


async def test_a_servers_default_clock_is_set_and_turned_off(service):
    """guilds ``configure`` 48 ("off" and None read as a clock: refused)."""
    guilds = Guilds(service)
    for off in ("off", None):
        set_on = await guilds.configure(GUILD, is_admin=True, clock_text="1d+12h max 2d")
        assert set_on.clock == BankClock(DAY, 12 * HOUR, 2 * DAY)
        assert (await guilds.configure(GUILD, is_admin=True, clock_text=off)).clock is None
        assert (await guilds.settings(GUILD)).clock is None


# -- who takes challenges (bot/service/challenges.py) -----------------------------------------------


async def test_blocks_stop_at_the_most_but_blocking_someone_again_is_never_refused(service):
    """challenges ``check`` 20."""
    refusals = ChallengeRefusals(service.store, service.clock)
    async with service.store.transaction() as db:
        for i in range(MAX_BLOCKS):
            await db.execute(
                "INSERT INTO challenge_blocks (user_id, blocked_id, since) VALUES (?, ?, ?)", (ALICE[0], 1000 + i, 1.0)
            )
    await refusals.update(ALICE[0], GUILD, block=(1000, "someone"))  # already blocked: no change
    with refused(match=str(MAX_BLOCKS)):
        await refusals.update(ALICE[0], GUILD, block=(BOB[0], "bob"))
    assert len(await service.store.blocked_by(ALICE[0])) == MAX_BLOCKS


async def test_refusing_challenges_in_a_server_keeps_that_servers_reminder_preferences(service):
    """challenges ``update`` 12: the server's own row is changed, not rebuilt from the global one."""
    await service.set_preferences(ALICE[0], GUILD, reminders=False, delay_hours=5, via="ping")
    await ChallengeRefusals(service.store, service.clock).update(ALICE[0], GUILD, challenges="nobody")
    prefs = await service.preferences(ALICE[0], GUILD)
    assert (prefs.challenges, prefs.reminders, prefs.delay_hours, prefs.via) == ("nobody", False, 5, "ping")
    assert (await service.preferences(ALICE[0], OTHER_GUILD)).challenges == Preferences().challenges


# -- soft limits (bot/service/challenge_limits.py) -----------------------------------------------------------------


def test_a_first_replay_never_waits_whatever_the_clock_reads():
    """limits ``ReplayGate.wait_for`` 10: someone who never asked waits 0 s, even on a clock near 0."""
    gate = ReplayGate()
    assert [gate.wait_for(1, now) for now in (0.0, 10.0, 1e9)] == [0.0, 0.0, 0.0]
    gate.asked(1, 10.0)
    assert gate.wait_for(1, 20.0) == gate.cooldown - 10.0 and gate.wait_for(2, 20.0) == 0.0


def test_a_cap_of_zero_challenges_waits_a_whole_window():
    """challenge_limits ``_until_one_ages_out`` 3 (no challenge counted: no oldest to wait for)."""
    caps = dataclasses.replace(CAPS, per_window=0)
    counts = ChallengeCounts(frozenset(), frozenset(), 0, (0, None), {BOB[0]: (0, None)}, {BOB[0]: 0})
    refusal = first_broken_rule(counts, [BOB[0]], 1000.0, caps)
    assert (refusal.rule, refusal.wait) == ("rate", caps.window)


# -- when things fall due (bot/service/schedule.py) ------------------------------------------------------


async def test_a_person_playing_only_the_computer_has_no_clock(service):
    """schedule ``deadline_for`` 13: nobody could claim their time."""
    service.clock.advance(61)
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, computer="easy", days_per_move=1
    )
    match = (await service.start_if_ready(lobby.id)).match
    assert match.days_per_move == 1 and match.deadline_at is None
    people = await started(service, days_per_move=1)
    assert people.deadline_at == service.clock.now() + DAY


async def test_a_tables_deadline_is_the_days_per_move_from_now(service):
    """schedule ``deadline_for`` 3 (the time it counts from dropped); the tournament rounds ask it."""
    match = await started(service, days_per_move=3)
    now = service.clock.now() + HOUR
    assert await service.schedule.deadline_for(match, game_of(match), now) == now + 3 * DAY


# -- seats (bot/domain/seats.py) --------------------------------------------------------------------------


def test_computer_seats_are_named_short_on_pictures():
    """seats ``picture_name`` 6."""
    hard = SeatRow(2, -1, "Hexplay (hard)", computer="hard")
    second = SeatRow(3, -2, "Hexplay 2 (easy)", computer="easy")
    assert (picture_name(hard), picture_name(second)) == ("⚙ AI hard", "⚙ AI 2 easy")


async def test_nobody_is_to_move_in_a_finished_match(service):
    """seats ``user_to_move`` 2."""
    match = await finished(service)
    assert user_to_move(match, game_of(match)) is None
    assert player_names(match) == ["alice", "bob"]


# -- the SQLite store (bot/store/sqlite/) -------------------------------------------------------------------


async def test_the_same_player_challenged_too_often_may_be_challenged_again_when_the_oldest_challenge_ages_out(
    service,
):
    """store ``_challenge_refusal`` 97 (now service.challenge_limits ``first_broken_rule``): the wait is until
    the oldest of the day's challenges is a day old."""
    limits = StoredChallengeLimits(service.store, CAPS)
    challenge = Challenge(GUILD, ALICE[0], (BOB,))
    start = service.clock.now()
    for i in range(CAPS.same_player):
        assert await limits.admit(challenge, start + i * HOUR) is None
    now = start + CAPS.same_player * HOUR
    refusal = await limits.admit(challenge, now)
    assert (refusal.rule, refusal.user_id, refusal.wait) == ("same_player", BOB[0], start + DAY - now)


async def test_a_match_id_past_sixty_four_bits_names_no_match(service):
    """store ``get_match`` 10."""
    match = await started(service)
    for forged in (2**63, 2**64, -(2**63) - 1, 2**63 - 1, -(2**63)):
        assert await service.store.get_match(forged) is None
    assert (await service.store.get_match(match.id)).id == match.id


async def test_an_offer_made_on_an_old_version_or_a_finished_match_is_refused(service):
    """store ``make_offer`` 9."""
    store = service.store
    match = await started(service)
    offer = OfferRow(match.id, "draw", ALICE[0], 0, [], service.clock.now())
    with pytest.raises(VersionConflict):
        await store.make_offer(match.id, match.version - 1, offer)
    over = await finished(service, (CAROL, BOB))
    with pytest.raises(VersionConflict):
        await store.make_offer(over.id, over.version, OfferRow(over.id, "draw", CAROL[0], 3, [], 0.0))
    assert await store.get_offer(match.id, "draw") is None and await store.get_offer(over.id, "draw") is None


# -- reading rows back (bot/store/rows.py) ----------------------------------------------------------------


async def test_a_damaged_match_row_reads_with_defaults_and_names_each_damaged_value(service):
    """rows ``_decode`` 8 (the damage says what the value is not), ``_match_from`` 15 (a damaged column
    reads as its kind's default), ``_shown`` 5 (a value is quoted whole up to 40 characters)."""
    match = await started(service)
    forty = "a" * 38  # repr() is 40 characters
    await damaged_rows.damage(service.store, match.id, "matches", "players", forty)
    await damaged_rows.damage(service.store, match.id, "matches", "version", "x" * 39)
    await damaged_rows.damage(service.store, match.id, "matches", "created_at", "soon")
    await damaged_rows.damage(service.store, match.id, "matches", "options", "[5]")
    read = await service.store.get_match(match.id)
    assert (read.players, read.version, read.created_at, read.options) == (0, 0, 0.0, {})
    assert read.damage == (
        f"its stored row cannot be read (options holds '[5]', not a JSON object; "
        f"players holds {forty!r}, not a whole number; version holds '{'x' * 36}..., not a whole number; "
        "created_at holds 'soon', not a number)"
    )


@pytest.mark.parametrize(
    ("column", "index"), [("seq", 0), ("seat", 2), ("user_id", 3), ("kind", 4), ("notation", 5), ("created_at", 7)]
)
def test_a_logged_move_that_cannot_be_read_names_the_column_at_fault(column, index):
    """rows ``move_from`` 7, 11, 19: the operator's log says which column of the move cannot be read."""
    good = [3, 2, 1, ALICE[0], "turn", "e5", "[]", 12.5, "e5", 0]
    damaged = [*good[:index], [None], *good[index + 1 :]]  # a list: neither a number nor text
    with pytest.raises(DamagedMatch) as raised:
        move_from(7, damaged)
    shown = "3" if column != "seq" else "[None]"
    assert raised.value.reason == f"its logged move {shown} cannot be read ({column} holds [None], not " + (
        "a whole number)"
        if column in ("seq", "seat", "user_id")
        else "text)"
        if column in ("kind", "notation")
        else "a number)"
    )
    assert move_from(7, good).seat == 1


def test_a_bank_clock_reads_back_whole_or_is_named_partly_stored():
    """rows ``clock_from`` 5 and 10: all three columns make the clock (its bank first); any one missing among
    others set is a partly stored clock (False), whichever it is."""
    assert clock_from(600.0, 30.0, 900.0) == BankClock(600.0, 30.0, 900.0)
    assert clock_from(None, None, None) is None
    for partial in ((None, 30.0, 900.0), (600.0, None, 900.0), (600.0, 30.0, None), (None, None, 900.0)):
        assert clock_from(*partial) is False, partial


def test_a_damaged_seat_names_its_columns_and_values():
    """rows ``seat_from`` 11 and 24: the problem names each column at fault and quotes its value."""
    seat, problem = seat_from(("one", ALICE[0], 5, 1, 0, None, None))
    assert problem == "seat holds 'one'; name holds 5"
    assert (seat.seat, seat.name) == (0, "?")


def test_an_event_stored_with_an_unknown_format_names_itself_and_the_value():
    """rows ``tournament_from`` 34: the DamagedTournament names the event, so that event (only) is set aside."""
    row = (7, GUILD, CHANNEL, None, ALICE[0], "begird", "{}", "league", 3, None, 16, None, 1, "open", 0, 1, 0.0, 0)
    with pytest.raises(DamagedTournament) as raised:
        tournament_from((*row, None), [])
    assert raised.value.tournament_id == 7
    assert raised.value.reason == "its stored row cannot be read (format holds 'league')"
    assert tournament_from((*row[:7], "swiss", *row[8:], None), []).format == "swiss"  # the same row, readable


async def test_a_logged_move_that_cannot_be_read_names_its_match(service):
    """rows ``_move_from`` 23: the DamagedMatch names the match, so that match (only) is set aside."""
    match = await started(service)
    await service.play(match.id, ALICE[0], "e5")
    await damaged_rows.damage(service.store, match.id, "moves", "ply", "x")
    with pytest.raises(DamagedMatch) as raised:
        await service.store.moves(match.id)
    assert raised.value.match_id == match.id
    await service.paused_by(raised.value)
    assert await service.store.quarantined_ids() == [match.id]
