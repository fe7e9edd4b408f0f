"""Post-game reviews on the ground floor (issue 23): the real search finds a known blunder; accuracy is
Lichess's formula; the pictures are readable at a phone's width. (The bot's side: test_review_service.py,
test_bot_review.py.)"""

from __future__ import annotations

import io
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from ai import review
from ai.accuracy import player_accuracy, turn_accuracy, volatility_weights, window_size
from ai.knowledge import knowledge_for
from ai.mcts import MCTS, Node
from ai.review import BLUNDER, PositionView, ReviewBudget, assess, chances_filled, chances_shown, judge
from games.registry import new_game
from render.review import evaluation_graph, turn_overlay

# made by tests/review_games.py (python -m tests.review_games), which finds a costly blunder in a computer game
BLUNDERS = json.loads((Path(__file__).parent / "data" / "review_blunders.json").read_text())
# A test budget: a tenth of the bot's, enough for a blunder (the search proves what it leaves open).
TEST_BUDGET = ReviewBudget(simulations=40, seconds=0.1)


def reviewed(case: dict, budget: ReviewBudget = TEST_BUDGET):
    game = new_game(case["game"], 2, case["options"])
    views, movers, positions = [], [], []
    for k, notation in enumerate(case["turns"]):
        positions.append(game.copy())
        movers.append(game.player_of_seat(game.to_move))
        views.append(assess(game, notation, budget, seed=k))
        game.play_turn(notation)
    views.append(assess(game, None, budget))
    return judge(views, case["turns"], movers, 2), positions


@pytest.mark.parametrize("case", BLUNDERS, ids=[case["game"] for case in BLUNDERS])
def test_a_known_blunder_is_the_biggest_drop(case):
    """Games played by the computer on both sides but for one turn that leaves a win open (Begird: the mover's
    own win at once, not taken; Play Bai: a goal that wins the game left to the opponent)."""
    blunder = case["blunder"]
    review, positions = reviewed(case)
    # the premise, checked: the win left open is there
    before = positions[blunder]
    know = knowledge_for(before)
    rng = random.Random(0)
    if case["missed"]:
        win = know.winning_turn(before, know.turns(before, rng))
        assert win is not None and win.notation != case["turns"][blunder]
    else:
        after = positions[blunder + 1]
        assert know.winning_turn(after, know.turns(after, rng)) is not None
    worst = max(review.turns, key=lambda t: t.drop)
    assert worst.index == blunder, [(t.index, round(t.drop, 2)) for t in review.turns if t.drop > 0.05]
    assert worst.label == "blunder" and worst.drop >= BLUNDER
    assert worst.best is not None and worst.best != worst.played
    assert blunder in review.turning_points
    mover = worst.player
    assert review.accuracy[mover] < review.accuracy[3 - mover]  # the blunderer played worse
    assert all(0 <= a <= 100 for a in review.accuracy.values())
    for chances in review.chances:  # real chances: each position's sum to 1
        assert math.isclose(sum(chances), 1.0, abs_tol=1e-6)
    assert review.chances[-1][mover - 1] == 0.0  # the game's result, exactly


# -- accuracy: Lichess's curve and means ------------------------------------------------------------


def test_turn_accuracy_is_lichess_curve():
    assert turn_accuracy(50, 50) == 100 and turn_accuracy(40, 60) == 100
    # 103.1668 · e^(−0.04354 · drop) − 3.1669, plus Lichess's 1 point for the analysis's uncertainty
    for drop in (5, 10, 20, 40):
        expected = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1
        assert math.isclose(turn_accuracy(70, 70 - drop), expected)
    assert turn_accuracy(100, 0) == 0  # clipped


@settings(max_examples=40)
@given(st.floats(0, 100), st.floats(0, 100), st.floats(0, 100))
def test_turn_accuracy_falls_with_the_drop(before, after, other):
    a = turn_accuracy(before, after)
    assert 0 <= a <= 100
    if before - after <= before - other:  # a smaller drop is at least as accurate
        assert a >= turn_accuracy(before, other)


@settings(max_examples=40)
@given(st.lists(st.floats(1, 100), min_size=1, max_size=40), st.data())
def test_player_accuracy_is_pulled_below_its_means(accuracies, data):
    """(The harmonic mean takes each accuracy as at least 1, as Lichess's does: hence from 1 here.)"""
    weights = data.draw(st.lists(st.floats(0.5, 12), min_size=len(accuracies), max_size=len(accuracies)))
    figure = player_accuracy(accuracies, weights)
    assert figure is not None
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    arithmetic = sum(accuracies) / len(accuracies)
    # half the volatility-weighted mean, half the harmonic one (never above the arithmetic mean)
    assert min(accuracies) - 1e-9 <= figure <= (weighted + arithmetic) / 2 + 1e-9
    if len(set(accuracies)) == 1:
        assert math.isclose(figure, accuracies[0])


def test_one_blunder_costs_more_than_its_share():
    """The harmonic half: one blunder in twenty turns pulls the figure far below the arithmetic mean."""
    turns = [100.0] * 19 + [10.0]
    figure = player_accuracy(turns, [1.0] * 20)
    assert figure is not None and figure < sum(turns) / 20 - 10
    assert player_accuracy([], []) is None


@settings(max_examples=40)
@given(st.lists(st.floats(0, 100), min_size=2, max_size=120))
def test_volatility_weights_one_per_turn_within_bounds(series):
    weights = volatility_weights(series)
    assert len(weights) == len(series) - 1
    assert all(0.5 <= w <= 12 for w in weights)
    assert 2 <= window_size(len(series) - 1) <= 8


def test_a_calm_slip_weighs_less_than_one_in_a_sharp_game():
    calm = [50.0] * 21
    sharp = [50.0 + (30 if k % 2 else -30) for k in range(21)]
    assert volatility_weights(calm)[10] == 0.5 and volatility_weights(sharp)[10] == 12


# -- pictures ------------------------------------------------------------------------------------


def test_the_pictures_are_phone_sized_pngs(tmp_path):
    case = BLUNDERS[0]
    review, positions = reviewed(case, ReviewBudget(simulations=10, seconds=0.05))
    marks = [(i + 1, review.turns[i].label or "") for i in review.turning_points]
    graph = evaluation_graph(review.chances, ["alice", "Ωmega bob"], marks, "#1 · Begird")
    before = positions[case["blunder"]]
    turn = review.turns[case["blunder"]]
    played = before.copy().play_turn(turn.played)
    best = before.copy().play_turn(turn.best)
    overlay = turn_overlay(before, played, best, legend=("red: alice played a1", "green: the computer: e9"))
    for png in (graph, overlay):
        picture = Image.open(io.BytesIO(png))
        assert picture.format == "PNG" and 600 <= picture.width <= 1080
    (tmp_path / "graph.png").write_bytes(graph)
    (tmp_path / "overlay.png").write_bytes(overlay)


# -- the graph as a phone reads it (issue 37) ---------------------------------------------------------


def rising(players: int, turns: int = 20) -> list[tuple[float, ...]]:
    """Chances where the last player's rise from an even share to certain, the others' fall evenly."""
    out = []
    for k in range(turns + 1):
        last = 1 / players + (1 - 1 / players) * k / turns
        out.append(tuple([(1 - last) / (players - 1)] * (players - 1) + [last]))
    return out


@pytest.fixture
def graph_drawing(monkeypatch):
    """The graph's texts (through textdraw.draw_text) and its lines (ImageDraw's) as they are drawn."""
    from PIL import ImageDraw

    from render import textdraw as td

    texts: list[tuple[str, tuple[int, int, int, int] | None]] = []
    lines: list[tuple[list, object]] = []
    real_text, real_line = td.draw_text, ImageDraw.ImageDraw.line

    def text(im, xy, words, size, fill, **kw):
        box = real_text(im, xy, words, size, fill, **kw)
        texts.append((words, box))
        return box

    def line(self, xy, fill=None, width=0, joint=None):
        lines.append((list(xy), fill))
        return real_line(self, xy, fill, width, joint)

    monkeypatch.setattr(td, "draw_text", text)
    monkeypatch.setattr(ImageDraw.ImageDraw, "line", line)
    return texts, lines


def curves(lines) -> list[list]:
    """The players' curves among the lines drawn: in a player's colour, through every position."""
    from render.review import LINE_COLOURS

    return [points for points, fill in lines if fill in LINE_COLOURS and len(points) > 2]


def test_a_two_player_graph_draws_one_line_from_the_viewers_side(graph_drawing):
    """The second line of a two-player graph was the first mirrored (100 − p): it said nothing more. One
    line now, the chance of the player whose side it is drawn from (``side``: 0 or 1)."""
    texts, lines = graph_drawing
    chances = rising(2)  # the second player's chance rises
    for side in (0, 1):
        lines.clear()
        evaluation_graph(chances, ["alice", "bob"], [(5, "blunder")], "Begird #2", side=side)
        [curve] = curves(lines)
        ys = [y for _, y in curve]
        assert len(curve) == len(chances)
        assert (ys[-1] < ys[0]) == (side == 1)  # y grows downwards: bob's line rises, alice's falls
    assert any(words.startswith("bob") for words, _ in texts)  # the legend names whose chance it is


def test_a_graph_of_three_players_draws_each_players_own_chance(graph_drawing):
    _, lines = graph_drawing
    evaluation_graph(rising(3), ["a", "b", "c"], [], "Bide #3")
    assert len(curves(lines)) == 3


def test_the_graphs_turn_axis_is_labelled(graph_drawing):
    """Under the turn numbers, across the middle of the plot: what they count."""
    texts, _ = graph_drawing
    evaluation_graph(rising(2, 40), ["alice", "bob"], [], "Begird #2")
    ticks = {words: box for words, box in texts if words.isdigit()}
    assert {"0", "40"} <= set(ticks)
    [(_, label)] = [(words, box) for words, box in texts if words == "Turn"]
    assert label is not None
    lowest_tick = max(box[3] for box in ticks.values() if box is not None)
    assert label[1] >= lowest_tick  # below the numbers
    assert ticks["0"][0] < (label[0] + label[2]) / 2 < ticks["40"][2]


# -- per game: what a position's search spends and how its chance is scored --------------------------


def _searches_of_a_review(monkeypatch, case: dict, budget: ReviewBudget):
    """Each position's (budget, search result, view) as ``assess`` reviews ``case``'s game."""
    seen = []
    real = review.search

    def spy(game, budget, seed=0, knowledge=None, trees=None):
        result = real(game, budget, seed, knowledge, trees)
        seen.append((budget, result))
        return result

    monkeypatch.setattr(review, "search", spy)
    game = new_game(case["game"], 2, case["options"])
    searches = []
    for k, notation in enumerate(case["turns"]):
        before = len(seen)
        view = assess(game, notation, budget, seed=k)
        if len(seen) > before:
            searches.append((*seen[-1], view))
        game.play_turn(notation)
    return searches


def _share(values):
    return tuple(v / sum(values) for v in values)


def test_a_play_bai_review_spends_its_share_of_the_budget_and_shows_each_position_one_turn_ahead(monkeypatch):
    """Play Bai's review (docs/review.md): a quarter of the review's simulations (its listings are its cost), and
    each position shown as its mover's best result one turn ahead (the search's listing values), not as the mean
    over the turns tried, which leans towards the player not to move."""
    case = next(c for c in BLUNDERS if c["game"] == "playbai")
    assert knowledge_for(new_game("playbai", 2, case["options"])).review_share == 0.25
    searches = _searches_of_a_review(monkeypatch, case, ReviewBudget(simulations=400, seconds=None))
    assert len(searches) >= len(case["turns"]) // 2
    listed = [(result, view) for budget, result, view in searches if result.listing_values]
    assert len(listed) >= len(searches) - 2  # all but a solved position or two
    for budget, result, view in searches:
        assert budget.simulations == 100
        expected = result.listing_values or result.position_values  # solved: its exact value, as every game's
        assert view.chances == pytest.approx(_share(expected))
    # and the two differ: the mean over the turns tried leans towards the player not to move
    assert max(abs(r.listing_values[0] - _share(r.position_values)[0]) for r, _ in listed) > 0.05


def test_listing_values_are_the_movers_best_turn_exact_where_the_search_proved_it():
    game = new_game("playbai", 2, {})  # player 1 moves
    mcts = MCTS(knowledge_for(game), random.Random(0))
    mcts.players = 2
    root = Node(game, 2)
    listing = np.array([0.3, 0.9, 0.5]) * mcts.initial_visits
    root.w0 = listing
    assert mcts._listing_values(root) == pytest.approx((0.9, 0.1))
    root.proven = {1: 0.0}  # the best-looking turn lets the opponent win at once
    assert mcts._listing_values(root) == pytest.approx((0.5, 0.5))
    root.proven = {1: 0.0, 0: 1.0}  # another was proven to win
    assert mcts._listing_values(root) == pytest.approx((1.0, 0.0))
    assert list(root.w0) == list(listing) and list(listing / mcts.initial_visits) == [0.3, 0.9, 0.5]  # not changed
    root.solved = (1.0, 0.0)
    assert mcts._listing_values(root) == ()  # a solved root has its exact value
    root.solved, root.w0 = None, None
    assert mcts._listing_values(root) == ()  # a listing without values (the other games)
    case = next(c for c in BLUNDERS if c["game"] == "playbai")
    second = new_game("playbai", 2, case["options"])
    second.play_turn(case["turns"][0])
    root = Node(second, 2)  # player 2 moves
    root.w0 = listing
    assert mcts._listing_values(root) == pytest.approx((0.1, 0.9))


def test_other_games_reviews_spend_the_whole_budget(monkeypatch):
    case = next(c for c in BLUNDERS if c["game"] == "begird")
    assert knowledge_for(new_game("begird", 2, case["options"])).review_share == 1.0
    searches = _searches_of_a_review(monkeypatch, {**case, "turns": case["turns"][:6]}, TEST_BUDGET)
    assert len(searches) == 6
    for budget, result, view in searches:
        assert budget.simulations == TEST_BUDGET.simulations
        assert view.chances == pytest.approx(_share(result.position_values))


# -- the chances shown: at least what the turn played led to -------------------------------------------


def _view(chances):
    return PositionView(tuple(chances), None, False, 0.0)


def test_a_position_whose_mover_did_better_than_its_search_saw_shows_the_next_positions_chances():
    views = [_view((0.3, 0.7)), _view((0.6, 0.4)), _view((0.8, 0.2)), _view((1.0, 0.0))]  # the last: 1 won
    review = judge(views, ["a", "b", "c"], [1, 2, 1], 2)
    # player 1's first turn led to 60% for them: the position before it was worth at least that
    assert review.chances == [(0.6, 0.4), (0.6, 0.4), (0.8, 0.2), (1.0, 0.0)]
    assert [t.drop for t in review.turns] == [0.0, pytest.approx(0.2), 0.0]  # each turn's own drop as without it
    views = [_view((0.6, 0.4)), _view((0.7, 0.3)), _view((0.5, 0.5)), _view((1.0, 0.0))]
    review = judge(views, ["a", "b", "c"], [1, 2, 1], 2)
    assert review.chances[:3] == [(0.6, 0.4), (0.5, 0.5), (0.5, 0.5)]  # player 2's turn led to 50% for them
    assert review.turns[0].drop == pytest.approx(0.1)  # so player 1's turn before it left them 50%, not 70%


def test_the_last_position_bounds_nothing_it_may_follow_a_resignation():
    """Player 2 resigned after player 1's last turn: the position before that turn keeps its own chances, and
    player 2's turn before it is no blunder."""
    views = [_view((0.5, 0.5)), _view((0.5, 0.5)), _view((1.0, 0.0))]
    review = judge(views, ["a", "b"], [2, 1], 2)
    assert review.chances == [(0.5, 0.5), (0.5, 0.5), (1.0, 0.0)]
    assert [t.drop for t in review.turns] == [0.0, 0.0]


def test_with_more_players_the_chances_shown_are_the_searches():
    """With three players or more a resignation may come between two turns: no position is bounded."""
    views = [_view((0.2, 0.3, 0.5)), _view((0.4, 0.3, 0.3)), _view((0.3, 0.4, 0.3)), _view((0.0, 1.0, 0.0))]
    assert chances_shown(views, [1, 3, 1], 3) == chances_filled(views, 3)


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans(), st.booleans()), min_size=1, max_size=30))
def test_the_chances_shown_are_the_searches_and_never_below_the_turn_played(positions):
    """Each position shows its own search's chances or the next position's, the last its own, and no mover is
    shown worse off before their turn than after it, but for the last turn (the last position may follow a
    resignation)."""
    views = [_view(() if forced else (p, 1 - p)) for p, forced, _ in positions] + [_view((1.0, 0.0))]
    movers = [1 if first else 2 for _, _, first in positions]
    filled = chances_filled(views, 2)
    shown = chances_shown(views, movers, 2)
    assert shown[-1] == (1.0, 0.0) and shown[-2] == filled[-2]
    for k, mover in enumerate(movers):
        assert shown[k] in (filled[k], shown[k + 1])
        if k < len(movers) - 1:
            assert shown[k][mover - 1] >= shown[k + 1][mover - 1]
