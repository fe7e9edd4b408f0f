"""Conditional moves (/premove) and the private analysis board (/explore): the service's rules.

"If they play X, I answer Y": the answer is stored at once as the player's turn, marked conditional; a turn
no line expected clears them (the player is told); a takeback clears them; bad lines are refused whole.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.errors import Refusal
from bot.service.premove_lines import MAX_BRANCHES, MAX_EXPLORED_TURNS
from tests.racing import NoChallengeLimits, log_matches_state
from tests.said import refusal_text

ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
GUILD, CHANNEL = 9000, 9001


async def two_player(service, **options):
    service.limits = NoChallengeLimits()
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, **options
    )
    await service.accept(match.id, BOB[0])
    return match.id


def refused_with(error: pytest.ExceptionInfo[Refusal]) -> str:
    return refusal_text(error.value)


async def test_a_matching_turn_is_answered_at_once_and_marked_conditional(service):
    match_id = await two_player(service)
    shown = await service.add_premove(match_id, BOB[0], "e5; d4")
    assert [[t for t, _ in line.turns] for line in shown.lines] == [["e5", "d4"]]
    assert [[mine for _, mine in line.turns] for line in shown.lines] == [[False, True]]
    assert (await service.line_picture(shown)).startswith(b"\x89PNG")
    outcome = await service.play(match_id, ALICE[0], "e5")
    assert outcome.answered is not None and outcome.answered.changes[0].conditional
    assert outcome.mention_user_id is None  # bob already answered: no ping for him
    moves = await service.store.moves(match_id)
    assert [(m.notation, m.conditional) for m in moves] == [("e5", False), ("d4", True)]
    assert (await service.premoves(match_id, BOB[0])).lines == []  # the line is used up
    assert (await log_matches_state(service, match_id))[0]


async def test_a_line_several_turns_deep_answers_each_turn_it_expected(service):
    match_id = await two_player(service)
    await service.add_premove(match_id, BOB[0], "e5; d4; c3; b2")
    await service.add_premove(match_id, BOB[0], "e5; d4; a1; b2")  # a second branch after d4
    assert len((await service.premoves(match_id, BOB[0])).lines) == 2
    await service.play(match_id, ALICE[0], "e5")
    assert len((await service.premoves(match_id, BOB[0])).lines) == 2  # both go on after d4
    outcome = await service.play(match_id, ALICE[0], "a1")
    assert outcome.answered is not None and outcome.answered.changes[0].notation == "b2"
    moves = await service.store.moves(match_id)
    assert [(m.notation, m.conditional) for m in moves][-2:] == [("a1", False), ("b2", True)]
    assert (await service.premoves(match_id, BOB[0])).lines == []


async def test_an_unexpected_turn_clears_every_line_and_says_so(service):
    match_id = await two_player(service)
    await service.add_premove(match_id, BOB[0], "e5; d4")
    await service.add_premove(match_id, BOB[0], "c3; d4")
    outcome = await service.play(match_id, ALICE[0], "a1")
    assert outcome.answered is None and outcome.premoves_cleared == ((BOB[0], "unexpected"),)
    assert outcome.mention_user_id == BOB[0]  # his turn to play by hand: pinged as ever
    assert (await service.premoves(match_id, BOB[0])).lines == []
    assert len(await service.store.moves(match_id)) == 1


async def test_a_takeback_clears_them(service):
    from bot.service.offers import Offers

    offers = Offers(service)
    match_id = await two_player(service)
    await service.play(match_id, ALICE[0], "e5")
    await service.play(match_id, BOB[0], "a1")
    await service.add_premove(match_id, BOB[0], "b2; d4")  # bob waits for alice
    notice = await offers.offer(match_id, BOB[0], "undo")  # and asks to take back a1
    answer = await offers.answer(match_id, ALICE[0], "undo", notice.at_seq, True)
    assert answer.outcome is not None and answer.outcome.answered is None
    assert await service.store.premoves_of(match_id, BOB[0]) is None
    # his own takeback cleared them: he is told which turn went and that it is his to play again (issue 37)
    assert answer.outcome.premoves_cleared == ((BOB[0], "takeback"),)
    told = cleared_notice(answer.outcome, BOB[0])
    assert "were cleared" in told and "`a1` was taken back" in told and "your turn now" in told, told
    await service.play(match_id, BOB[0], "a1")
    assert len(await service.store.moves(match_id)) == 4  # e5, a1, takeback, a1: nothing conditional played


def cleared_notice(outcome, user_id: int) -> str:
    """The DM a player whose conditional moves ``outcome`` cleared reads (as the announcer words it)."""
    from bot.chat.words import premoves as words

    why = dict(outcome.premoves_cleared)[user_id]
    return words.premoves_cleared(outcome.match, user_id, why, outcome.changes[-1].notation)


async def test_a_move_that_ends_the_game_clears_them_without_a_notice(service):
    match_id = await two_player(service)
    await service.add_premove(match_id, BOB[0], "e5; d4")
    outcome = await service.resign(match_id, ALICE[0])  # the result pings bob: the game is over, nothing to plan
    assert outcome.finished and outcome.premoves_cleared == ()
    assert await service.store.premoves_of(match_id, BOB[0]) is None


async def test_with_three_seats_the_notice_says_your_turn_only_when_it_is(service):
    service.limits = NoChallengeLimits()
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB, CAROL], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    await service.accept(match.id, BOB[0])
    await service.accept(match.id, CAROL[0])
    await service.add_premove(match.id, CAROL[0], "e5; d4; c3")
    outcome = await service.play(match.id, ALICE[0], "a1")  # unexpected; bob is to move, not carol
    told = cleared_notice(outcome, CAROL[0])
    assert "`a1`" in told and "matched none of your lines" in told and "your turn" not in told, told


async def test_a_new_answer_to_the_same_position_replaces_the_old_one(service):
    match_id = await two_player(service)
    await service.add_premove(match_id, BOB[0], "e5; d4")
    shown = await service.add_premove(match_id, BOB[0], "e5; c3")
    assert shown.replaced == 1 and [[t for t, _ in line.turns] for line in shown.lines] == [["e5", "c3"]]


async def test_bad_lines_are_refused_whole_with_the_reason(service):
    match_id = await two_player(service)
    with pytest.raises(Refusal) as illegal:
        await service.add_premove(match_id, BOB[0], "e5; d4; q9; a1")
    said = refused_with(illegal)
    assert "Turn 3" in said and "q9" in said and "alice" in said, said
    with pytest.raises(Refusal) as no_answer:
        await service.add_premove(match_id, BOB[0], "e5")
    assert "none of your turns" in refused_with(no_answer)
    with pytest.raises(Refusal) as own_turn:
        await service.add_premove(match_id, ALICE[0], "e5; d4")
    assert "your turn" in refused_with(own_turn)
    with pytest.raises(Refusal) as stranger:
        await service.add_premove(match_id, CAROL[0], "e5; d4")
    assert "not a player" in refused_with(stranger)
    assert await service.store.premoves_of(match_id, BOB[0]) is None  # nothing stored by any of them
    await service.resign(match_id, ALICE[0])
    with pytest.raises(Refusal) as over:
        await service.add_premove(match_id, BOB[0], "e5; d4")
    assert "is over" in refused_with(over)


async def test_more_than_64_branches_are_refused(service):
    match_id = await two_player(service)
    from bot.domain.seats import game_of

    game = game_of(await service.get(match_id))
    lines = []
    for first in ("a1", "b1"):  # alice's first turn, bob's bide, then each of alice's second turns
        after = game.copy()
        after.play_turn(first)
        after.play_turn("bide")
        lines += [f"{first}; bide; {n}; bide" for n in after.legal_notations() if n != "bide"]
    match = await service.get(match_id)
    held = [[turn.strip() for turn in line.split(";")] for line in lines[: MAX_BRANCHES - 1]]
    await service.store.set_premoves(match_id, BOB[0], match.version, held, 0.0)  # 63 held…
    await service.add_premove(match_id, BOB[0], lines[MAX_BRANCHES - 1])  # …and the 64th is taken
    assert len((await service.premoves(match_id, BOB[0])).lines) == MAX_BRANCHES
    with pytest.raises(Refusal) as too_many:
        await service.add_premove(match_id, BOB[0], lines[MAX_BRANCHES])
    assert "64" in refused_with(too_many)
    assert len((await service.premoves(match_id, BOB[0])).lines) == MAX_BRANCHES


async def test_multi_seat_bide_keys_a_branch_on_every_turn_until_yours(service):
    service.limits = NoChallengeLimits()
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB, CAROL], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    await service.accept(match.id, BOB[0])
    await service.accept(match.id, CAROL[0])
    match_id = match.id
    await service.add_premove(match_id, CAROL[0], "e5; d4; c3")  # alice, then bob, then carol answers
    await service.play(match_id, ALICE[0], "e5")
    assert [[t for t, _ in line.turns] for line in (await service.premoves(match_id, CAROL[0])).lines] == [["d4", "c3"]]
    outcome = await service.play(match_id, BOB[0], "d4")
    assert outcome.answered is not None and outcome.answered.changes[0].user_id == CAROL[0]
    assert [m.conditional for m in await service.store.moves(match_id)] == [False, False, True]
    assert (await log_matches_state(service, match_id))[0]


async def test_a_match_can_forbid_premoves_and_exploration(service):
    match_id = await two_player(service, analysis=False)
    for attempt in (
        service.add_premove(match_id, BOB[0], "e5; d4"),
        service.explore(match_id, BOB[0]),
    ):
        with pytest.raises(Refusal) as forbidden:
            await attempt
        assert "forbids" in refused_with(forbidden)


async def test_exploration_plays_both_sides_steps_back_branches_and_saves_a_line(service):
    match_id = await two_player(service)
    opened = await service.explore(match_id, BOB[0])
    assert opened.shown == 0 and opened.png.startswith(b"\x89PNG")
    await service.explore(match_id, BOB[0], turn="e5")  # alice's turn, played by bob on his copy
    after = await service.explore(match_id, BOB[0], turn="d4")
    assert [n for n, _ in after.turns] == ["e5", "d4"] and after.game.ply == 2
    back = await service.explore(match_id, BOB[0], "back")
    assert back.shown == 1 and back.game.ply == 1
    branch = await service.explore(match_id, BOB[0], turn="c3")  # a new branch replaces what followed
    assert [n for n, _ in branch.turns] == ["e5", "c3"]
    saved = await service.explore(match_id, BOB[0], "save")
    assert saved.saved is not None and [[t for t, _ in line.turns] for line in saved.saved.lines] == [["e5", "c3"]]
    assert saved.saved.dropped == []
    assert len(await service.store.moves(match_id)) == 0  # nothing reached the match
    with pytest.raises(Refusal) as illegal:
        await service.explore(match_id, BOB[0], turn="q9")
    assert "not a legal move" in refused_with(illegal)
    outcome = await service.play(match_id, ALICE[0], "e5")
    assert outcome.answered is not None and outcome.answered.changes[0].notation == "c3"


async def test_saving_a_line_that_ends_on_their_turn_says_what_was_not_saved(service):
    from bot.chat.words import premoves as words

    match_id = await two_player(service)
    for turn in ("e5", "d4", "c3"):  # alice, bob, alice: the last turn has no answer of bob's after it
        await service.explore(match_id, BOB[0], turn=turn)
    saved = await service.explore(match_id, BOB[0], "save")
    assert saved.saved is not None and [[t for t, _ in line.turns] for line in saved.saved.lines] == [["e5", "d4"]]
    assert saved.saved.dropped == ["c3"]
    said = words.exploration(saved)
    assert "Not saved: `c3`" in said and "Saved." in said, said
    typed = await service.add_premove(match_id, BOB[0], "e5; d4; c3")  # /premove line: the same
    assert typed.dropped == ["c3"] and "Not saved: `c3`" in words.premoves(typed)


async def test_an_exploration_past_500_turns_is_refused(service):
    from bot.domain.model import ExplorationRow
    from bot.domain.seats import game_of

    match_id = await two_player(service)
    match = await service.get(match_id)
    turns = ["bide"] * MAX_EXPLORED_TURNS  # a board that long (the games end sooner: it is the stored limit)
    kept = ExplorationRow(match_id, BOB[0], match.version, game_of(match).to_json(), turns, len(turns))
    await service.store.put_exploration(kept, 0.0)
    with pytest.raises(Refusal) as too_long:
        await service.explore(match_id, BOB[0], turn="bide")
    assert "500" in refused_with(too_long)
    assert len((await service.store.get_exploration(match_id, BOB[0])).turns) == MAX_EXPLORED_TURNS


# -- invariants of a tree of lines (pure: bot/service/premove_lines.py) ---------------------------------------


def _random_line(game, rng_choices, depth):
    """A legal line of ``depth`` turns from ``game`` (choices picked by index)."""
    trial = game.copy()
    line = []
    for pick in rng_choices[:depth]:
        if trial.is_over:
            break
        legal = trial.legal_notations()
        trial.play_turn(legal[pick % len(legal)])
        line.append(trial.last_turn_notation)
    return line


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.lists(st.integers(0, 3), min_size=8, max_size=8)), max_size=12))
def test_a_tree_of_lines_keeps_one_answer_per_position_and_the_latest_line(picks):
    from bot.domain.model import MatchRow, SeatRow
    from bot.domain.seats import user_to_move
    from bot.service.premove_lines import checked_line, movers, with_line
    from games import get as get_game

    game = get_game("bide").new(2, {"side": 4})
    match = MatchRow(1, "bide", {}, 2, 1, 1, None, None, None, None, 1, "active", game.to_json(), 3, 0, 0, 0, None)
    match.seats = [SeatRow(1, ALICE[0], "alice"), SeatRow(2, BOB[0], "bob")]
    assert user_to_move(match, game) == ALICE[0]
    lines: list[list[str]] = []
    for depth, choices in picks:
        line = _random_line(game, choices, depth * 2)
        try:
            line, _ = checked_line(match, game, BOB[0], line)
        except Refusal:
            continue  # no turn of bob's in it: refused, nothing kept
        lines, _ = with_line(match, game, BOB[0], lines, line)
        assert any(held[: len(line)] == line for held in lines)  # the latest line is held
        assert len(lines) <= MAX_BRANCHES
        for a in lines:
            for b in lines:
                if a is b:
                    continue
                assert a[: len(b)] != b  # no line is the start of another
                split = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
                assert movers(match, game, a)[split] != BOB[0]  # bob never has two answers to one position


async def test_a_servers_default_forbids_them_unless_the_match_says_otherwise(service):
    from bot.service.guilds import Guilds

    guilds = Guilds(service)
    await guilds.configure(GUILD, is_admin=True, analysis=False)
    forbidden = await two_player(service)
    allowed = await two_player(service, analysis=True)
    with pytest.raises(Refusal) as refused:
        await service.add_premove(forbidden, BOB[0], "e5; d4")
    assert "forbids" in refused_with(refused)
    assert (await service.add_premove(allowed, BOB[0], "e5; d4")).added
    await guilds.configure(GUILD, is_admin=True, analysis=None)  # back to the default: allowed
    assert (await service.get(await two_player(service))).analysis
