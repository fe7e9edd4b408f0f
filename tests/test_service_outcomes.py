"""What the service reports after a change: results, hooks when a game ends, missed announcements,
durations, autocomplete lengths, and lists that stay in their server."""

from __future__ import annotations

import asyncio
import logging
import threading
from types import SimpleNamespace

import pytest

from bot.chat.words import outcomes as outcome_words
from bot.chat.words.shared import waited
from bot.domain.clock import ManualClock
from bot.domain.errors import Refusal, VersionConflict
from bot.domain.model import MoveRow, Preferences, SeatRow
from bot.domain.seats import game_of
from bot.service.lobby import parse_options
from bot.service.matches import MatchService
from bot.service.suggestions import MAX_CHOICES
from bot.store import open_store
from games import Event
from tests import backends
from tests.said import refusal_text, refused, said, words

pytestmark = pytest.mark.both_backends

GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001
ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
HOUR = 3600.0


async def active(service: MatchService, players=(ALICE, BOB), guild=GUILD):
    service.clock.advance(61)  # past the challenge rate limit
    match = await service.create(
        game_id="bide", creator=players[0], invited=list(players[1:]), guild_id=guild, channel_id=CHANNEL
    )
    for user in players[1:]:
        await service.accept(match.id, user[0])
    return await service.get(match.id)


@pytest.mark.parametrize(
    "seconds, text",
    [
        (0, "1 min"),
        (59, "1 min"),
        (150, "2 min"),
        (3599, "59 min"),
        (3600, "1 h"),
        (7000, "2 h"),
        (47 * HOUR + 1800, "48 h"),
        (48 * HOUR, "2 days"),
        (84 * HOUR, "4 days"),
    ],
)
def test_how_long_a_turn_has_waited(seconds, text):
    match = SimpleNamespace(turn_started_at=1000.0, created_at=0.0)
    assert waited(match, 1000.0 + seconds) == text
    assert waited(SimpleNamespace(turn_started_at=None, created_at=1000.0), 1000.0 + seconds) == text


class FakeEnd:
    """A finished game as result_line sees it: winners, scores, seats."""

    def __init__(self, winners, scores):
        self.winners, self._scores = winners, scores

    def scores(self):
        return self._scores

    @staticmethod
    def player_of_seat(seat):
        return seat


@pytest.mark.parametrize(
    "winners, scores, text",
    [
        ([1, 2], [3, 3, 1], "Game over: **alice** (Red) and **bob** (Blue) share the win (alice 3, bob 3, carol 1)."),
        ([2], [1.5, 2.25, 0], "Game over: **bob** (Blue) wins (alice 1.5, bob 2.25, carol 0)."),
        ([3], None, "Game over: **carol** (Yellow) wins."),
        ([], None, "Game over: a draw."),
    ],
)
def test_the_result_names_every_winner_and_every_score(winners, scores, text):
    match = SimpleNamespace(
        game="bide", id=1, seats=[SeatRow(i + 1, u[0], u[1]) for i, u in enumerate((ALICE, BOB, CAROL))]
    )
    match.user_of = lambda seat: next(s for s in match.seats if s.seat == seat)
    assert outcome_words.result_line(match, FakeEnd(winners, scores)) == text


async def test_a_finished_game_calls_each_hook_with_the_stored_match_and_a_failing_hook_loses_nothing(service, caplog):
    seen = []

    async def failing(match):
        raise RuntimeError("ratings are down")

    async def recording(match):
        seen.append((match.id, match.status))

    service.events.on_finish(failing)
    service.events.on_finish(recording)
    match = await active(service)
    caplog.set_level(logging.ERROR, logger="bot")
    outcome = await service.resign(match.id, BOB[0])
    assert outcome.finished and seen == [(match.id, "finished")]
    assert [r.getMessage() for r in caplog.records] == [
        f"match {match.id}: a finish listener failed (it is retried at start-up)"
    ]
    assert (await service.get(match.id)).status == "finished"


async def test_moves_never_shown_are_announced_after_a_restart_once(service):
    shown = await active(service)
    missed = await active(service)
    set_aside = await active(service)
    for match in (shown, missed, set_aside):
        await service.play(match.id, ALICE[0], "e5")
    done = await service.get(shown.id)
    await service.store.mark_announced(done.id, done.version, 1, 2)
    await service.store.quarantine(set_aside.id, "broken", 1.0)
    outcomes = [outcome for i, _ in await service.unannounced() if (outcome := await service.claim_missed(i))]
    assert [(o.match.id, said(o)) for o in outcomes] == [
        (missed.id, f"**alice** (Red) played `e5`. <@{BOB[0]}>, your move.")
    ]
    assert outcomes[0].mention_user_ids == [BOB[0]]


async def test_a_match_that_cannot_be_rebuilt_does_not_stop_the_other_announcements(service, caplog):
    broken = await active(service)
    fine = await active(service)
    for match in (broken, fine):
        await service.play(match.id, ALICE[0], "e5")
    await backends.execute(service.store, "UPDATE moves SET events = '[{' WHERE match_id = ?", broken.id)  # damaged
    caplog.set_level(logging.ERROR, logger="bot")
    outcomes = [outcome for i, _ in await service.unannounced() if (outcome := await service.claim_missed(i))]
    assert [o.match.id for o in outcomes] == [fine.id]
    assert any(
        f"match {broken.id} set aside: its logged move 1 cannot be read" in r.getMessage() for r in caplog.records
    )
    assert await service.store.quarantined_ids() == [broken.id]


async def test_a_new_match_missed_before_its_first_move_is_announced_as_started(service):
    match = await active(service)
    outcome = await service.missed(match.id)
    assert outcome.started and outcome.mention_user_id == ALICE[0]
    assert said(outcome) == f"Bide #{match.id}, turn 1: **alice** (Red) to move."
    assert outcome.game is not None and outcome.game.to_move == 1  # the board is drawn from it


async def test_the_end_is_sent_by_dm_only_to_those_with_reminders_on_by_dm(service):
    match = await active(service, players=(ALICE, BOB, CAROL))
    await service.store.set_preferences(ALICE[0], GUILD, Preferences(reminders=True, via="ping"))
    await service.store.set_preferences(BOB[0], GUILD, Preferences(reminders=False, via="dm"))
    await service.resign(match.id, BOB[0])
    outcome = await service.resign(match.id, ALICE[0])
    assert outcome.finished and outcome.ending_user_ids == (ALICE[0], BOB[0], CAROL[0])
    assert outcome.game.is_over and outcome.game.winners == (3,)  # the final board is drawn from it
    assert outcome.ending_dm_user_ids == (CAROL[0],)


async def test_a_rated_game_ending_before_its_second_turn_says_with_its_result_that_it_is_not_rated(service):
    """Issue 37: an abort was silently unrated, even in a rated event; the result now says so (and why)."""
    from bot.service.ratings import Ratings

    ratings = Ratings(service)
    aborted = await active(service)
    await service.play(aborted.id, ALICE[0], "e5")
    outcome = await service.resign(aborted.id, BOB[0])  # before the second turn: an abort
    assert outcome.finished and outcome.unrated == "too_short"
    assert "Not rated: the game ended before its second turn" in said(outcome)
    assert not await ratings.settle(await service.get(aborted.id))  # the rule the ratings apply is the one said
    played = await active(service)
    await service.play(played.id, ALICE[0], "e5")
    await service.play(played.id, BOB[0], "d4")
    outcome = await service.resign(played.id, ALICE[0])
    assert outcome.unrated is None and "Not rated" not in said(outcome)
    assert await ratings.settle(await service.get(played.id))
    service.clock.advance(61)
    unrated = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, rated=False
    )
    await service.accept(unrated.id, BOB[0])
    outcome = await service.resign(unrated.id, ALICE[0])  # never meant to be rated: nothing to explain
    assert outcome.unrated is None and "Not rated" not in said(outcome)


async def test_a_reminder_tells_the_time_left_when_the_match_has_a_limit(service):
    service.clock.advance(61)
    await service.store.set_preferences(ALICE[0], GUILD, Preferences(delay_hours=2))
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, days_per_move=1
    )
    match = (await service.accept(lobby.id, BOB[0])).match
    service.clock.advance(2 * HOUR + 1)
    (job,) = await service.due_reminders()
    assert f"(waiting 2 h; time runs out <t:{int(match.deadline_at)}:R>)." in words(service).text(job)


async def test_a_move_in_a_lobby_or_a_paused_match_is_refused_with_the_reason(service):
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    with refused() as raised:
        await service.play(lobby.id, ALICE[0], "e5")
    assert refusal_text(raised.value) == f"Bide #{lobby.id} has not started yet."
    paused = await active(service)
    await service.store.quarantine(paused.id, "broken", 1.0)
    with refused() as raised:
        await service.play(paused.id, ALICE[0], "e5")
    assert refusal_text(raised.value).endswith(
        "(they have been told; see the log). Your other matches are not affected."
    )


async def test_autocomplete_for_someone_waiting_keeps_the_full_number_of_choices(service):
    match = await active(service)
    game = game_of(match)
    theirs = words(service).suggestions(match, game, BOB[0], "")
    mine = words(service).suggestions(match, game, ALICE[0], "")
    assert len(mine) == len(theirs) == MAX_CHOICES
    assert theirs[0] == ("Not your turn: alice is to move", "-") and theirs[1:] == mine[: MAX_CHOICES - 1]


async def test_my_matches_and_my_only_match_stay_in_this_server(service):
    here = await active(service)
    elsewhere = await active(service, guild=OTHER_GUILD)
    assert [m.id for m, _, _ in await service.my_matches(ALICE[0], GUILD)] == [here.id]
    assert [m.id for m, _, _ in await service.my_matches(ALICE[0], OTHER_GUILD)] == [elsewhere.id]
    assert (await service.resolve(ALICE[0], GUILD, CHANNEL, None)).id == here.id
    with refused(match="no match in progress"):
        await service.resolve(CAROL[0], GUILD, CHANNEL, None)


async def test_with_several_matches_the_one_waiting_for_you_is_meant(service):
    waiting = await active(service)
    other = await active(service)
    await service.play(other.id, ALICE[0], "e5")
    assert (await service.resolve(ALICE[0], GUILD, CHANNEL, None)).id == waiting.id
    await service.play(waiting.id, ALICE[0], "e5")
    with refused() as several:
        await service.resolve(ALICE[0], GUILD, CHANNEL, None)
    assert refusal_text(several.value) == (
        f"You are in several matches (#{waiting.id} Bide, #{other.id} Bide): use the "
        "match option, or type the command in the match's thread."
    )
    await service.store.update_match_fields(other.id, thread_id=777)
    assert (await service.resolve(ALICE[0], GUILD, 777, None)).id == other.id


async def test_pictures_get_the_title_the_names_the_last_turn_and_the_zoom(service, monkeypatch):
    drawn = []

    def fake_png(game, **kwargs):
        drawn.append((game.ply, kwargs))
        return b"png"

    monkeypatch.setattr("bot.service.pictures.render_png", fake_png)  # drawn on a thread in tests (no worker processes)
    match = await active(service, (ALICE, BOB, CAROL))
    await service.play(match.id, ALICE[0], "e5")
    await service.play(match.id, BOB[0], "d4")
    _, _, png, _ = await words(service).board(match.id)
    assert png == b"png"
    ply, kwargs = drawn.pop()
    last = [e.kind for e in kwargs["last_events"]]
    assert ply == 2 and kwargs["title"] == f"Bide #{match.id}" and kwargs["zoom"] is None
    assert kwargs["player_names"] == ["alice", "bob", "carol"] and last[:2] == ["place", "push"]
    png, _ = await words(service).preview(match.id, CAROL[0], "c3")
    ply, kwargs = drawn.pop()
    assert (
        ply == 3 and kwargs["title"] == f"Bide #{match.id}" and next(e.kind for e in kwargs["last_events"]) == "place"
    )
    lobby = await service.create(game_id="bide", creator=CAROL, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    with refused(match=f"Bide #{lobby.id} has not started yet"):
        await words(service).board(lobby.id)

    service.clock.advance(61)
    begird = await service.create(
        game_id="begird", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, options_text="board=small"
    )
    await service.accept(begird.id, BOB[0])
    await words(service).board(begird.id, " Last ")
    assert drawn.pop()[1]["zoom"] == "Last"
    await words(service).board(begird.id, "a2")
    assert drawn.pop()[1]["zoom"] == "a2"
    with refused(match="`z99` is not a cell of this board: give a cell name such as `a1`, or"):
        await words(service).board(begird.id, "z99")


async def test_no_reminder_during_a_vacation_and_the_next_comes_a_delay_after_it(service):
    match = await active(service)
    store = service.store
    row = await store.get_reminder(match.id)
    service.clock.current = row.remind_at
    await store.add_vacation(ALICE[0], row.remind_at - 10, row.remind_at + 50 * HOUR)
    await store.add_vacation(BOB[0], row.remind_at - 10, row.remind_at + 99 * HOUR)  # not the one reminded
    assert await service.due_reminders() == []
    later = await store.get_reminder(match.id)
    assert (later.remind_at, later.last_sent_at) == (row.remind_at + 50 * HOUR + 24 * HOUR, row.remind_at)


async def test_with_reminders_off_none_is_sent_and_the_next_check_is_a_delay_later(service):
    match = await active(service)
    store = service.store
    await service.set_preferences(ALICE[0], GUILD, reminders=False, delay_hours=5, via=None)
    row = await store.get_reminder(match.id)
    service.clock.current = row.remind_at + 1
    assert await service.due_reminders() == []
    later = await store.get_reminder(match.id)
    assert (later.remind_at, later.last_sent_at) == (row.remind_at + 1 + 5 * HOUR, row.remind_at + 1)


@pytest.mark.parametrize("hours, allowed", [(0.99, False), (1, True), (336, True), (336.5, False)])
async def test_the_reminder_delay_is_one_hour_to_fourteen_days(service, hours, allowed):
    if allowed:
        assert (
            await service.set_preferences(ALICE[0], GUILD, reminders=None, delay_hours=hours, via=None)
        ).delay_hours == hours
    else:
        with refused(match="between 1 hour and 14 days"):
            await service.set_preferences(ALICE[0], GUILD, reminders=None, delay_hours=hours, via=None)


async def test_changing_one_preference_keeps_the_others_of_that_server(service):
    await service.set_preferences(ALICE[0], GUILD, reminders=False, delay_hours=5, via="ping")
    await service.set_preferences(ALICE[0], OTHER_GUILD, reminders=True, delay_hours=9, via="dm")
    await service.set_preferences(ALICE[0], GUILD, reminders=None, delay_hours=None, via="dm")
    here = await service.preferences(ALICE[0], GUILD)
    assert (here.reminders, here.delay_hours, here.via) == (False, 5, "dm")
    await service.set_preferences(BOB[0], GUILD, reminders=None, delay_hours=2, via=None)
    bob = await service.preferences(BOB[0], GUILD)
    assert (bob.reminders, bob.delay_hours, bob.via) == (True, 2, "dm")


async def test_a_quarantined_match_whose_row_is_gone_is_reported_as_such(service):
    assert await service.replay_problem(12345) == "the match row is missing"


async def test_a_reminder_that_does_not_match_the_turn_or_a_paused_match_is_never_sent(service):
    stale = await active(service)
    paused = await active(service)
    store = service.store
    # the right player, an old turn (a row out of step with the match)
    await backends.execute(store, "UPDATE reminders SET ply = 7, remind_at = 5.0 WHERE match_id = ?", stale.id)
    row = await store.get_reminder(paused.id)
    await store.quarantine(paused.id, "broken", 1.0)
    service.clock.current = row.remind_at + 1
    assert await service.due_reminders() == []


async def test_a_missed_announcement_names_who_moved_even_after_a_swap(service):
    service.clock.advance(61)
    lobby = await service.create(
        game_id="begird", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, options_text="board=small"
    )
    await service.accept(lobby.id, BOB[0])
    await service.play(lobby.id, ALICE[0], "a1")
    await service.play(lobby.id, BOB[0], "swap")  # bob now owns the first seat's stones
    played = await service.play(lobby.id, ALICE[0], "a2")
    assert said(played).startswith("**alice** (White) played `a2`")
    assert said(await service.missed(lobby.id)) == said(played)


async def test_the_board_line_adds_nothing_when_nobody_is_on_vacation(service):
    match = await active(service)
    _, _, _, line = await words(service).board(match.id)
    assert line == f"Bide #{match.id}, turn 1: **alice** (Red) to move."


async def test_a_lobby_has_no_replay_yet(service):
    lobby = await service.create(game_id="bide", creator=CAROL, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    with refused() as raised:
        await service.history_gif(lobby.id)
    assert refusal_text(raised.value) == f"Bide #{lobby.id} has not started yet."


async def test_a_finished_match_stores_its_result_and_the_final_outcome_keeps_its_events(service):
    match = await active(service, (ALICE, BOB, CAROL))
    await service.play(match.id, ALICE[0], "e5")
    await service.resign(match.id, CAROL[0])
    outcome = await service.resign(match.id, ALICE[0])
    assert outcome.finished and [e.kind for e in outcome.events] == ["resign", "end"]
    ended = await service.get(match.id)
    game = game_of(ended)
    assert ended.result == {"winners": [2], "scores": list(game.scores())} and list(game.winners) == [2]
    assert (await service.get(match.id)).version == outcome.match.version


async def test_apply_move_returns_the_version_it_stored(service):
    match = await active(service)
    game = game_of(match)
    events = game.play_turn("e5")
    move = MoveRow(0, 0, 1, ALICE[0], "turn", "e5", [e.to_json() for e in events], 0.0)
    version = await service.store.apply_move(
        match.id,
        match.version,
        move=move,
        state=game.to_json(),
        finished=False,
        result=None,
        turn_changed=True,
        resigned_seat=None,
        reminder=None,
        now=5.0,
    )
    assert version == match.version + 1 == (await service.get(match.id)).version


def test_options_are_separated_by_spaces_or_commas_and_a_bad_one_is_quoted_short():
    assert parse_options("Side=4,board=small  expert=true") == {"side": "4", "board": "small", "expert": "true"}
    assert parse_options(None) == {}
    with refused() as raised:
        parse_options("x" * 60)
    assert refusal_text(raised.value) == f"Options are written key=value, like side=4; `{'x' * 39}…` is not."


async def test_without_a_configured_delay_a_reminder_comes_after_24_hours(database):
    store = await open_store(database)
    try:
        service = MatchService(store, ManualClock())
        assert await service.schedule.reminder_delay(ALICE[0], GUILD) == 24 * HOUR
    finally:
        await store.close()


async def test_the_deadline_itself_is_already_out_of_time(service):
    service.clock.advance(61)
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, days_per_move=1
    )
    match = (await service.accept(lobby.id, BOB[0])).match
    service.clock.current = match.deadline_at - 1
    assert words(service).time_note(match) == f"time runs out <t:{int(match.deadline_at)}:R>"
    service.clock.current = match.deadline_at
    assert words(service).time_note(match, "; ") == "; out of time"


async def test_a_time_out_that_ends_a_two_player_game_says_lost_on_time_and_with_three_out_of_the_game(service):
    """Issue 37: "ran out of time and is out of the game" read oddly where the game simply ended."""
    from bot.service.timelimits import TimeLimits

    limits = TimeLimits(service)
    service.clock.advance(61)
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, days_per_move=1
    )
    match = (await service.accept(lobby.id, BOB[0])).match
    service.clock.current = match.deadline_at + 1
    outcome = await limits.claim(match.id, BOB[0], 0)
    assert outcome.finished and said(outcome).startswith(f"**alice** (Red) lost on time (claimed by <@{BOB[0]}>).")
    assert "out of the game" not in said(outcome)
    service.clock.advance(61)
    lobby = await service.create(
        game_id="bide",
        creator=ALICE,
        invited=[BOB, CAROL],
        guild_id=GUILD,
        channel_id=CHANNEL,
        days_per_move=1,
        players=3,
    )
    await service.accept(lobby.id, BOB[0])
    match = (await service.accept(lobby.id, CAROL[0])).match
    service.clock.current = match.deadline_at + 1
    outcome = await limits.claim(match.id, CAROL[0], 0)
    assert not outcome.finished and "ran out of time and is out of the game" in said(outcome)


async def test_a_preview_and_its_description_never_say_played_for_a_turn_not_played(service):
    """Issue 37: "Preview (not played): alice played `e5`" (French "a joué") contradicted itself."""
    from bot.chat.words import boards
    from bot.service.describe import LastTurn
    from i18n import speaking
    from tests.said import previewed

    match = await active(service)
    for language, played, not_played in (("en", " played ", "would play"), ("fr", "a joué", "jouerait")):
        with speaking(language):
            _, line = await previewed(service, match.id, ALICE[0], "e5")
            assert not_played in line and played not in line, line
            tried = await service.preview(match.id, ALICE[0], "e5")
            turn = LastTurn(tried.seat, tried.notation, tuple(tried.events))
            described = boards.preview_description(tried.match, tried.game, turn)
            assert ("Last move" if language == "en" else "Dernier coup") not in described, described


async def test_a_change_that_lost_a_race_is_refused_with_the_truth():
    async def lost():
        raise VersionConflict(1)

    with refused() as raised:
        await MatchService.stored_or_refused(lost())
    assert refusal_text(raised.value) == (
        "The position changed at the same moment (another turn or button came first), "
        "so nothing was done: look at the latest board and try again."
    )


def test_effects_of_a_turn_are_counted_in_words():
    def events(*kinds):
        return [Event(kind) for kind in kinds]

    assert outcome_words._effects(events("place")) == ""
    assert outcome_words._effects(events("place", "push")) == " — 1 disc pushed"
    assert outcome_words._effects(events("push", "push", "capture", "release")) == (
        " — 2 discs pushed, 1 captured, a release: every opponent must release next turn"
    )
    assert outcome_words._effects(events("capture", "capture", "swap")) == " — 2 captured, the players swapped sides"


async def test_replays_one_at_a_time_per_match_and_thirty_seconds_apart_per_player(service, monkeypatch):
    drawn = []
    finish = threading.Event()

    def fake_gif(frames, **kwargs):
        drawn.append((len(frames), kwargs["title"], kwargs["player_names"]))
        finish.wait(10)  # the first drawing lasts until the second request has been answered
        return b"GIF89a"

    monkeypatch.setattr("bot.service.pictures.render_gif", fake_gif)  # drawn on a thread in tests (no worker processes)
    match = await active(service)
    await service.play(match.id, ALICE[0], "e5")
    first = asyncio.create_task(service.history_gif(match.id))
    while not drawn:
        await asyncio.sleep(0.005)
    second = await asyncio.gather(service.history_gif(match.id), return_exceptions=True)
    finish.set()
    first, second = await first, second[0]
    assert first == b"GIF89a" and isinstance(second, Refusal)
    assert refusal_text(second) == (f"A replay of Bide #{match.id} is being drawn right now; ask again in a moment.")
    assert drawn == [(2, f"Bide #{match.id}", ["alice", "bob"])]
    assert await service.history_gif(match.id, ALICE[0], GUILD) == b"GIF89a"  # the first is done
    service.clock.advance(29.5)
    with refused(match=r"One replay every 30 s: try again in 1 s\."):
        await service.history_gif(match.id, ALICE[0], GUILD)
    assert await service.history_gif(match.id, BOB[0], GUILD) == b"GIF89a"  # each player has their own wait
    service.clock.advance(0.5)
    assert await service.history_gif(match.id, ALICE[0], GUILD) == b"GIF89a"
    with refused(match="no match"):
        await service.history_gif(match.id, CAROL[0], OTHER_GUILD)
    service.clock.advance(-3600)  # the system clock steps back an hour: the wait is never past the cooldown
    with refused(match=r"try again in (30|[12]?[0-9]) s\."):
        await service.history_gif(match.id, ALICE[0], GUILD)


@pytest.mark.parametrize(
    "described, line",
    [
        ("b2-c2 (took the ball)", "**alice**: b2-c2 (took the ball)."),
        ("b5^ne — GOAL! 2–1 and the game!", "**alice**: b5^ne — GOAL! 2–1 and the game!"),
        ("03-4 — bumps 06 to 07.", "**alice**: 03-4 — bumps 06 to 07."),
        ("e5", "**alice** played `e5`."),
        ("", "**alice** played `e5`."),
    ],
)
def test_a_turn_is_announced_in_the_engines_words_ending_as_a_sentence(described, line):
    game = SimpleNamespace(describe_turn=lambda events, notation, say=None: described)
    assert outcome_words.turn_line("**alice**", game, "e5", []) == line


async def test_a_missed_announcement_tells_the_turn_in_the_engines_words_as_it_was_told(service):
    match = await active(service)
    bump = await service.create(game_id="bump", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    await service.accept(bump.id, BOB[0])
    live = await service.play(bump.id, ALICE[0], "01-1")
    assert "bumps 011 to 012" in said(live) and live.game.ply == 1
    assert said(await service.missed(bump.id)) == said(live)
    assert words(service).status_line(match, game_of(match)) == f"Bide #{match.id}, turn 1: **alice** (Red) to move."
    over = (await service.resign(match.id, BOB[0])).match
    assert words(service).status_line(over, game_of(over)) == (
        f"Bide #{over.id}: {words(service).result_line(over, game_of(over))}"
    )


async def test_too_many_seats_with_computers_counts_who_was_asked_for(service):
    with refused() as raised:
        await service.create(
            game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, computers=5
        )
    assert refusal_text(raised.value) == (
        "Bide is played by 2 to 6 players, not 7 (you, 1 invited player and 5 computer seats)."
    )


async def test_every_player_on_vacation_is_named_in_the_board_line(service):
    match = await active(service, players=(ALICE, BOB, CAROL))
    now = service.clock.now()
    await service.store.add_vacation(ALICE[0], now, now + 2 * HOUR)
    await service.store.add_vacation(CAROL[0], now, now + 3 * HOUR)
    assert await words(service).vacation_note(match) == (
        f"alice is on vacation until <t:{int(now + 2 * HOUR)}:f>; "
        f"carol is on vacation until <t:{int(now + 3 * HOUR)}:f>"
    )
