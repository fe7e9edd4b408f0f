"""The computer opponent: complete turns, tactics in one, determinism, many seats.

Budgets are simulation counts (never time), so every result is a function of the seed.
"""

from __future__ import annotations

import functools
import math
import random

import pytest

from ai import choose_turn
from ai.knowledge import GameKnowledge, knowledge_for
from ai.knowledge.bide import MARGIN_TEMPERATURE, bide_key, margin_returns
from ai.mcts import MCTS
from ai.turns import apply_turn, enumerate_turns, returns_of
from games import new_game
from games.begird import Begird
from games.bide import Bide

# -- positions ------------------------------------------------------------------------

# Small Begird board: a Black line across row f from island 6 to island 2, bent up to
# island 9, with one gap at f5. Black to move wins there; White to move must fill it.
BEGIRD_GAP = {
    "board": {
        **dict.fromkeys(("f1", "f2", "f3", "f4", "f6", "f7", "f8", "f9", "f10", "e8", "d7", "c6", "b5", "a5"), 1),
        **dict.fromkeys(("i2", "i3", "i4", "i5", "h3", "h5", "j4", "g3", "c2", "c3", "b2", "b3", "d2"), 2),
    },
}

# Side-4 Bide board with three empty points (b2, b4, e3) and three discs in Red's hand,
# Red 7 to Blue 14: a release fills the board (pushes open other points on the way,
# e.g. c3), and of its three distinct outcomes only e3,b2,c3 wins.
BIDE_FINISH = {
    "board": {
        "a1": 1,
        "a2": 2,
        "a3": 1,
        "a4": 2,
        "b1": 1,
        "b3": 2,
        "b5": 1,
        "c1": 1,
        "c2": 1,
        "c3": 1,
        "c4": 1,
        "c5": 1,
        "c6": 2,
        "d1": 1,
        "d2": 2,
        "d3": 2,
        "d4": 2,
        "d5": 2,
        "d6": 1,
        "d7": 1,
        "e1": 1,
        "e2": 2,
        "e4": 2,
        "e5": 2,
        "e6": 2,
        "f1": 2,
        "f2": 2,
        "f3": 1,
        "f4": 2,
        "f5": 1,
        "g1": 2,
        "g2": 2,
        "g3": 1,
        "g4": 1,
    },
    "hands": [3, 3],
    "pools": [0, 0],
    "to_move": 1,
    "owed": [],
}

# Side-4 Bide board with two empty points (b4, d4): Red holds one disc. Playing either
# point leaves one empty point to Blue, who fills the board and wins; biding is the only
# turn that does not lose at once.
BIDE_DANGER = {
    "board": {
        "a1": 1,
        "a2": 1,
        "a3": 1,
        "a4": 1,
        "b1": 2,
        "b2": 1,
        "b3": 1,
        "b5": 2,
        "c1": 2,
        "c2": 1,
        "c3": 2,
        "c4": 2,
        "c5": 1,
        "c6": 2,
        "d1": 1,
        "d2": 1,
        "d3": 2,
        "d5": 2,
        "d6": 1,
        "d7": 2,
        "e1": 2,
        "e2": 1,
        "e3": 2,
        "e4": 1,
        "e5": 1,
        "e6": 2,
        "f1": 2,
        "f2": 2,
        "f3": 1,
        "f4": 2,
        "f5": 1,
        "g1": 1,
        "g2": 1,
        "g3": 2,
        "g4": 2,
    },
    "hands": [1, 0],
    "pools": [5, 5],
    "to_move": 1,
    "owed": [],
}


def begird_gap(to_move: int) -> Begird:
    return Begird.from_position(2, {"board": "small"}, {**BEGIRD_GAP, "to_move": to_move})


def search(game, simulations=40, seed=1):
    return MCTS(knowledge_for(game), random.Random(seed), simulations=simulations).search(game).turn


# -- the turn adapter -------------------------------------------------------------------


def test_begird_turns_are_the_empty_cells_and_swap_on_the_second_turn():
    game = new_game("begird", options={"board": "small"})
    assert len(enumerate_turns(game)) == 75
    game.play_turn("e5")
    notations = [t.notation for t in enumerate_turns(game)]
    assert "swap" in notations and len(notations) == 75


def test_bide_turns_are_distinct_positions_and_replay_from_their_notation():
    game = Bide.from_position(2, {"side": 4}, BIDE_FINISH)
    turns = enumerate_turns(game, key=bide_key)
    keys = {bide_key(t.state) for t in turns}
    assert len(keys) == len(turns)  # one choice per resulting position
    releases = [t for t in turns if len(t.actions) == 3]
    assert len(releases) == 3  # 3! orders of the release, but only 3 distinct outcomes
    assert {len(t.actions) for t in turns} == {1, 3}  # three plays, three releases; no bide (pool empty)
    for turn in turns:
        replayed = game.copy()
        replayed.play_turn(turn.notation)
        assert bide_key(replayed) == bide_key(turn.state)


def test_bide_samples_releases_when_there_are_too_many_orders():
    game = new_game("bide")
    for turn in ("bide", "bide", "bide", "bide"):
        game.play_turn(turn)  # Red holds three discs among 61 empty points
    turns = knowledge_for(game).turns(game, random.Random(0))
    kinds = {len(t.actions) for t in turns}
    assert kinds == {1, 3}
    assert sum(1 for t in turns if t.notation == "bide") == 1
    assert sum(1 for t in turns if len(t.actions) == 1) == 62  # bide and every single play
    for turn in turns:
        game.copy().play_turn(turn.notation)  # every candidate is legal


def test_a_draw_is_worth_one_nth_to_each_seat_not_a_loss():
    game = new_game("bide", players=3)
    game._result = ()  # over without winners (as a draw by agreement would be)
    assert returns_of(game) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


# -- tactics in one ---------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_begird_plays_the_winning_stone(level):
    choice = choose_turn(begird_gap(to_move=1), level, seed=3)
    assert choice.turn.notation == "f5"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_begird_blocks_the_winning_stone(seed):
    game = begird_gap(to_move=2)
    assert search(game, simulations=30, seed=seed).notation == "f5"
    assert choose_turn(game, "easy", seed=seed).turn.notation == "f5"


def test_bide_finds_the_release_that_wins_the_finished_board():
    game = Bide.from_position(2, {"side": 4}, BIDE_FINISH)
    outcomes = {t.notation: t.state.winners for t in enumerate_turns(game, key=bide_key) if t.state.is_over}
    assert sorted(outcomes.values()).count((1,)) == 1  # the position is a real puzzle
    turn = choose_turn(game, "easy", seed=5).turn
    after = game.copy()
    after.play_turn(turn.notation)
    assert after.is_over and after.winners == (1,)


def test_bide_does_not_leave_the_last_point_to_an_opponent_who_wins_with_it():
    game = Bide.from_position(2, {"side": 4}, BIDE_DANGER)
    for play in ("b4", "d4"):  # the puzzle: either play loses at once
        after = game.copy()
        after.play_turn(play)
        replies = enumerate_turns(after, key=bide_key)
        assert any(r.state.winners == (2,) for r in replies)
    for seed in range(3):
        assert choose_turn(game, "easy", seed=seed).turn.notation == "bide"


def test_three_seat_bide_takes_the_winning_release_with_max_n_values():
    position = {**BIDE_FINISH, "hands": [3, 3, 3], "pools": [0, 0, 0]}
    game = Bide.from_position(3, {"side": 4}, position)
    turn = search(game, simulations=30)
    after = game.copy()
    after.play_turn(turn.notation)
    assert after.winners == (1,)


def test_four_seat_bide_search_returns_a_legal_turn_for_any_seat():
    game = new_game("bide", players=4, options={"side": 4})
    rng = random.Random(4)
    for _ in range(6):
        turn = search(game, simulations=25, seed=rng.randrange(1000))
        game.play_turn(turn.notation)
    assert game.ply == 6 and not game.is_over


def test_multi_seat_bide_playouts_are_scored_by_margin_two_seats_by_winner():
    # Four seats: a playout's result is graded by its final scores (a softmax), so a
    # close second is worth more than a distant last; a resigned seat (which cannot
    # win) gets nothing. Two seats keep the winner-only result.
    four = new_game("bide", players=4, options={"side": 4})
    for turn in ("d4", "a1", "g4", "c3"):
        four.play_turn(turn)
    scores = four.group_scores()
    values = margin_returns(four)
    weights = [math.exp(s / MARGIN_TEMPERATURE) for s in scores]
    assert values == pytest.approx([w / sum(weights) for w in weights])
    assert len(set(scores)) > 1  # the position tells the seats apart
    order = sorted(range(4), key=lambda k: scores[k])
    assert [values[k] for k in order] == sorted(values)  # a higher score is never worth less
    four.resign(2)
    assert margin_returns(four)[1] == 0.0 and sum(margin_returns(four)) == pytest.approx(1.0)
    know = knowledge_for(four)
    graded = {know.evaluate(four, random.Random(seed)) for seed in range(5)}
    assert any(0.0 < v < 1.0 for values in graded for v in values)
    two = new_game("bide", options={"side": 4})
    two.play_turn("bide")
    for seed in range(5):  # a playout that reaches the end is scored by its winner alone
        ended = two.copy()
        rng = random.Random(seed)
        while not ended.is_over:
            know.rollout_step(ended, rng)
        assert sorted(know.playout_value(ended)) in ([0.0, 1.0], [0.5, 0.5])


# -- determinism and budgets --------------------------------------------------------------


@pytest.mark.parametrize(
    "game_id,moves",
    [
        ("begird", ["j9", "swap", "k9"]),
        ("bide", ["bide", "bide", "e5,e4"]),
        ("bump", ["01,03", "09,07"]),
        ("playbai", ["e2-d2,h2-h1"]),
    ],
)
def test_same_seed_same_turn(game_id, moves):
    game = new_game(game_id)
    for move in moves:
        game.play_turn(move)
    first = [choose_turn(game, "easy", seed=s).turn.notation for s in range(3)]
    again = [choose_turn(game, "easy", seed=s).turn.notation for s in range(3)]
    assert first == again


def test_search_never_changes_the_game_it_is_given():
    game = new_game("bide", options={"side": 4})
    game.play_turn("bide")
    before = game.to_json()
    search(game, simulations=30)
    assert game.to_json() == before


def test_game_blind_search_still_blocks_a_loss_in_one():
    # The game-blind knowledge has no win/block shortcut beyond the search itself; with a
    # budget it still blocks, because the loss in one is found when the children expand.
    game = begird_gap(to_move=2)
    blind = GameKnowledge()
    turn = MCTS(blind, random.Random(0), simulations=400).search(game).turn
    assert turn.notation == "f5"


def test_random_level_plays_legal_turns_to_the_end():
    game = new_game("begird", options={"board": "y"})
    seed = 0
    while not game.is_over:
        choice = choose_turn(game, "random", seed=seed)
        apply_turn(game, choice.turn.actions)
        seed += 1
    assert len(game.winners) == 1


# -- Bump -------------------------------------------------------------------------------

# Blue's piece on 09 stands next to Orange's centre; Orange's two pieces are far away in
# Blue's area, so a Blue piece that steps onto C2 (facing anything but 3) cannot be removed.
BUMP_STEP_IN = {
    "pieces": {"09": [1, 0], "31": [2, 1], "44": [2, 4], "22": [1, 4], "13": [1, 4]},
    "to_move": 1,
    "reserves": [0, 0],
}
# An Orange piece stands on Blue's centre: unless Blue bumps it off this turn, Orange wins
# when the turn passes. 8 of Blue's 222 turns do (e.g. 01-3 turns 01's bumper onto it).
BUMP_CENTRE_TAKEN = {
    "pieces": {"C1": [2, 1], "01": [1, 0], "31": [1, 3], "33": [1, 2], "09": [2, 3], "19": [2, 4]},
    "to_move": 1,
    "reserves": [0, 0],
}


def bump(position):
    from games.bump import Bump

    return Bump.from_position(2, {}, position)


def every_reply_loses(state, seat):
    return all(r.result(state).winners == (seat,) for r in enumerate_turns(state))


@pytest.mark.parametrize("seed", [0, 1])
def test_bump_steps_onto_the_centre_when_it_cannot_be_removed(seed):
    game = bump(BUMP_STEP_IN)
    turn = choose_turn(game, "easy", seed=seed).turn
    after = game.copy()
    after.play_turn(turn.notation)
    assert after.piece_at("C2")[0] == 1
    assert every_reply_loses(after, 1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bump_clears_its_own_centre(seed):
    game = bump(BUMP_CENTRE_TAKEN)
    turns = enumerate_turns(game)
    assert sum(1 for t in turns if not t.result(game).is_over) == 8  # the puzzle: most turns lose
    turn = choose_turn(game, "easy", seed=seed).turn
    after = game.copy()
    after.play_turn(turn.notation)
    assert not after.is_over and after.piece_at("C1") is None


def test_bump_a_taken_centre_lists_only_the_bumping_turns_and_every_other_turn_loses():
    from ai.knowledge.bump import BumpKnowledge

    game = bump(BUMP_CENTRE_TAKEN)
    listed = BumpKnowledge().turns(game, random.Random(0))
    assert sorted(t.actions[0] for t in listed) == sorted(game.bumping_turns())
    assert len(listed) < len(game.legal_actions()) // 4  # far fewer to play out than every turn
    bumping = set(game.bumping_turns())
    clearing = set()
    for action in game.legal_actions():  # exhaustive: the turns that save Blue are all listed
        after = apply_turn(game.copy(), (action,))
        if not after.is_over:
            clearing.add(action)
        else:
            assert action in bumping or after.winners == (2,)
    assert clearing and clearing <= {t.actions[0] for t in listed if not t.state.is_over}


# Blue's piece on 29 stands next to Orange's centre C2, but Orange's pieces around it push any Blue
# piece that steps on back off (eight such moves, none leaving Blue on C2): no threat.
BUMP_BOUNCES_OFF = {
    "pieces": {
        "11": [2, 2],
        "14": [1, 1],
        "221": [1, 0],
        "312": [2, 2],
        "32": [1, 3],
        "34": [1, 5],
        "411": [2, 2],
        "53": [1, 5],
        "15": [2, 4],
        "55": [2, 3],
        "193": [2, 3],
        "27": [2, 3],
        "29": [1, 0],
        "48": [2, 1],
        "49": [2, 4],
        "59": [2, 5],
    },
    "to_move": 1,
    "reserves": [0, 0],
}


def test_bump_a_move_onto_the_centre_that_is_pushed_back_off_is_no_threat_in_the_prior():
    from ai.knowledge.bump import BumpKnowledge
    from games.bump import C2

    game = bump(BUMP_BOUNCES_OFF)
    turns = enumerate_turns(game)
    onto = [i for i, t in enumerate(turns) if t.actions[0][0] == "move" and t.actions[0][2] == C2]
    assert len(onto) == 8 and not game.centre_takers()  # every one is pushed back off
    prior = BumpKnowledge().prior(game, turns)
    others = [w for i, w in enumerate(prior) if i not in onto]
    assert max(prior[i] for i in onto) <= max(others)  # it was 30 against at most ~5: tried again and again


def test_bump_playouts_are_cut_short_and_estimated():
    from ai.knowledge.bump import BumpKnowledge

    game = new_game("bump")
    value = BumpKnowledge().evaluate(game, random.Random(0))
    assert len(value) == 2 and sum(value) == pytest.approx(1.0) and 0 < value[0] < 1


# -- Play Bai ---------------------------------------------------------------------------

# Orange carries the ball on e6, three steps from Blue's end zone e9 with the way clear;
# of Orange's 1927 distinct turns exactly one scores (e6-e7,e7-e8,e8-e9). With Blue to
# move instead, only 23 of Blue's 772 turns stop that goal (most take the ball).
PLAYBAI_RUN = {
    "pieces": {"e6": 1, "c3": 1, "g3": 1, "b5": 2, "d5": 2, "h5": 2},
    "ball": "e6",
    "goals": [0, 0],
    "to_move": 1,
    "kickoff": False,
    "last_goal": None,
}


def playbai(**changes):
    from games.playbai import PlayBai

    return PlayBai.from_position(2, {}, {**PLAYBAI_RUN, **changes})


def can_score(game):
    from games.playbaisearch import GOAL

    return any(t.label == GOAL or (isinstance(t.label, tuple) and t.label[0] == "win") for t in enumerate_turns(game))


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_playbai_plays_the_scoring_turn(level):
    game = playbai()
    turn = choose_turn(game, level, seed=1).turn
    after = game.copy()
    after.play_turn(turn.notation)
    assert after.goals == [1, 0]


def test_playbai_winning_goal_is_taken_without_searching():
    game = playbai(goals=[2, 1], last_goal=2)
    choice = choose_turn(game, "hard", seed=0)
    after = game.copy()
    after.play_turn(choice.turn.notation)
    assert after.winners == (1,) and choice.simulations == 0


@pytest.mark.parametrize("seed", [0, 1])
def test_playbai_stops_a_goal_in_one(seed):
    game = playbai(to_move=2)
    assert can_score(playbai())  # the threat is real
    turn = choose_turn(game, "easy", seed=seed).turn
    after = game.copy()
    after.play_turn(turn.notation)
    assert not can_score(after)


def test_draw_offer_refused_when_winning_and_accepted_when_losing():
    from ai import accepts_draw

    # Blue (player 1) is about to step onto Orange's centre for good: Blue refuses,
    # Orange (player 2) is glad to accept.
    game = bump(BUMP_STEP_IN)
    assert accepts_draw(game, 1, level="easy") is False
    assert accepts_draw(game, 2, level="easy") is True


# -- the process pool -------------------------------------------------------------------


async def test_thinker_answers_from_a_stored_state_in_another_process():
    import asyncio
    import time

    from ai.worker import Thinker

    game = begird_gap(to_move=1)
    thinker = Thinker(processes=1)
    try:
        answer = await thinker.turn(game.to_json(), "easy", seed=1)
        assert answer["turn"] == "f5" and answer["level"] == "easy"
        # The loop stays free while the search runs elsewhere.
        task = asyncio.ensure_future(thinker.turn(new_game("bide").to_json(), "medium", seed=2))
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        assert time.perf_counter() - start < 0.5 and not task.done()
        answer = await task
        new_game("bide").copy().play_turn(answer["turn"])
    finally:
        thinker.close()


# -- the CPU cap ------------------------------------------------------------------------

# Play Bai, Orange to move, Blue on two goals holding the ball at e3 (seen in the arena,
# medium vs easy game 8): every one of Orange's 577 turns leaves Blue a winning goal, so
# checking them all ("does it lose at once?") took easy 2.9 s of CPU past its 1 s cap.
PLAYBAI_LOST = {
    "pieces": {"b2": 1, "e7": 1, "h2": 1, "b5": 2, "e3": 2, "e5": 2},
    "ball": "e3",
    "goals": [0, 2],
    "to_move": 1,
    "kickoff": False,
    "last_goal": 2,
}


class CountingMCTS(MCTS):
    expansions = 0

    def _expand(self, node):
        self.expansions += 1
        super()._expand(node)


def test_final_checks_of_a_lost_position_stop_at_the_cap():
    from games.registry import load_state

    game = load_state(
        {
            "format": 1,
            "game": "playbai",
            "players": 2,
            "options": {"side": 5, "expert": False, "first": 1},
            "position": PLAYBAI_LOST,
        }
    )
    search = CountingMCTS(knowledge_for(game), random.Random(1), simulations=24, seconds=0.05)
    search.final_check_grace = 0.0
    result = search.search(game)
    after = game.copy()
    after.play_turn(result.turn.notation)  # a legal turn all the same
    assert result.candidates == 577 and search.expansions < 100  # not one per turn


class SlowRoot(GameKnowledge):
    """Begird's turns, but listing them at the root costs 0.2 s of CPU."""

    def __init__(self):
        self.calls = 0

    def turns(self, game, rng):
        import time

        self.calls += 1
        if self.calls == 1:
            end = time.process_time() + 0.2
            while time.process_time() < end:
                pass
        return super().turns(game, rng)


def test_the_cap_counts_the_root_expansion():
    game = begird_gap(2)
    result = MCTS(SlowRoot(), random.Random(0), simulations=10_000, seconds=0.1).search(game)
    assert result.simulations == 0


# -- stopping once the answer is settled ----------------------------------------------------


BUDGET = 160


def _search(game, seed, check_every, simulations=BUDGET):
    class Search(MCTS):
        pass

    Search.check_every = check_every
    return Search(knowledge_for(game), random.Random(seed), simulations=simulations).search(game)


def _positions():
    """An early and a later position of each 2-seat game and of 4-seat Bide (random turns)."""
    for game_id, players in (("begird", 2), ("bide", 2), ("bide", 4), ("playbai", 2), ("bump", 2)):
        game = new_game(game_id, players)
        for ply in range(25):
            if game.is_over:
                break
            if ply in (4, 24):
                yield f"{game_id}-{players}p-{ply}", game.copy()
            apply_turn(game, choose_turn(game, "random", seed=ply).turn.actions)


@functools.cache
def _searched() -> dict[str, tuple]:
    """Each position searched with the full budget and with the early stop (once per session)."""
    return {
        name: (_search(game, seed=5, check_every=10**9), _search(game, seed=5, check_every=16))
        for name, game in _positions()
    }


@pytest.mark.parametrize("name", [name for name, _ in _positions()])
def test_the_early_stop_changes_the_clock_not_the_answer(name):
    full, early = _searched()[name]
    assert early.turn.notation == full.turn.notation
    assert early.simulations <= full.simulations


def test_the_search_stops_when_the_leader_cannot_be_caught():
    searched = _searched()
    # some answers settle before the budget (what the whole budget buys: the full search's simulations)
    assert any(0 < early.simulations < full.simulations for full, early in searched.values())
    for name, (full, early) in searched.items():
        if 0 < early.simulations < full.simulations:
            # Stopped at a check: the leader was ahead by more than the simulations left.
            assert early.simulations % 16 == 0
            if not knowledge_for(new_game(name.split("-")[0])).settings.simulation_moves:
                assert early.visits > BUDGET - early.simulations  # (else the simulations left are an estimate)


def test_a_leader_not_yet_expanded_or_known_to_lose_does_not_stop_the_search():
    game = new_game("begird", options={"board": "small"})
    game.play_turn("e5")
    game.play_turn("d7")
    search = MCTS(knowledge_for(game), random.Random(0), simulations=100)
    search.players = 2
    root = search._new_node(game.copy())
    search._expand(root)
    root.n[0], root.n[1] = 60, 5
    root.w[0], root.w[1] = 30.0, 2.5
    assert not search._decided(root, done=65, start=0.0)  # leader never made: it might lose at once
    leader = search._child(root, 0)
    assert not search._decided(root, done=65, start=0.0)  # made, not expanded
    search._expand(leader)
    assert leader.solved is None
    assert search._decided(root, done=65, start=0.0)  # 55 ahead, 35 left
    assert not search._decided(root, done=40, start=0.0)  # 55 ahead, 60 left
    leader.solved = (0.0, 1.0)  # White (player 2) wins after it: Black's leader loses
    assert not search._decided(root, done=65, start=0.0)


# -- every tactic in one at every level from medium (issue 39) ---------------------------------------


def _begird_wins(game, turn):
    return turn.notation == "f5"


def _bide_finishes(game, turn):
    after = game.copy()
    after.play_turn(turn.notation)
    return after.is_over and after.winners == (1,)


def _bump_steps_in(game, turn):
    after = game.copy()
    after.play_turn(turn.notation)
    return after.piece_at("C2")[0] == 1 and every_reply_loses(after, 1)


def _bump_clears(game, turn):
    after = game.copy()
    after.play_turn(turn.notation)
    return not after.is_over and after.piece_at("C1") is None


def _playbai_scores(game, turn):
    after = game.copy()
    after.play_turn(turn.notation)
    return after.goals == [1, 0]


def _playbai_stops(game, turn):
    after = game.copy()
    after.play_turn(turn.notation)
    return not can_score(after)


TACTICS_IN_ONE = {
    "begird-wins": (lambda: begird_gap(to_move=1), _begird_wins),
    "begird-blocks": (lambda: begird_gap(to_move=2), _begird_wins),
    "bide-finishes": (lambda: Bide.from_position(2, {"side": 4}, BIDE_FINISH), _bide_finishes),
    "bide-bides": (lambda: Bide.from_position(2, {"side": 4}, BIDE_DANGER), lambda g, t: t.notation == "bide"),
    "bump-steps-in": (lambda: bump(BUMP_STEP_IN), _bump_steps_in),
    "bump-clears": (lambda: bump(BUMP_CENTRE_TAKEN), _bump_clears),
    "playbai-scores": (lambda: playbai(), _playbai_scores),
    "playbai-stops": (lambda: playbai(to_move=2), _playbai_stops),
}


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
@pytest.mark.parametrize("case", sorted(TACTICS_IN_ONE))
def test_every_tactic_in_one_holds_from_medium_up(case, level):
    make, solved = TACTICS_IN_ONE[case]
    game = make()
    turn = choose_turn(game, level, seed=2).turn
    assert solved(game, turn), turn.notation
