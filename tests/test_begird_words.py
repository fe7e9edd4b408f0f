"""Begird in words: action hints, the text board, and the suggestions' order."""

from __future__ import annotations

from games.begird import SWAP, Begird
from games.begirdboard import layout
from tests.begird_helpers import game, group_touching, play_group_last_stone

# -- words and suggestions ---------------------------------------------------------------------


def test_describe_action_hints():
    g = game()
    assert g.describe_action(g.board.parse("e13")) == "e13 — touches island 1"
    assert g.describe_action(g.board.parse("a1")) == "a1 — touches islands 12 and 13"
    assert g.describe_action(g.board.parse("b2")) == "b2 — 1 cell from islands 12 and 13"
    g.play_turn("e5")
    assert g.describe_action(SWAP).startswith("swap — take Black")
    lay = layout("y")
    board = {f"{letter}1": 1 for letter in "abcdefghijkl"}
    y = Begird.from_position(2, {"board": "y"}, {"board": board, "to_move": 1})
    assert y.describe_action(lay.board.parse("m1")).endswith("wins the game")


def test_render_text_shows_islands_and_the_winner():
    g = game("small")
    text = g.render_text()
    assert text.splitlines()[1].startswith("a")
    assert "Black to move" in text
    lay = layout("small")
    g = play_group_last_stone("small", group_touching(lay, [1, 4, 7]))
    text = g.render_text()
    assert "Black wins" in text and "X" in text and "islands 1, 4, 7" in text


def test_rank_actions_puts_swap_then_wins_then_blocks_first():
    g = game()
    g.play_turn("e5")
    assert g.rank_actions(g.legal_actions())[0] == SWAP
    lay = layout("y")
    board = {f"{letter}1": 1 for letter in "abcdefghijkl"}
    board.update({f"{letter}2": 2 for letter in "bcdefghijkl"})
    board["m3"] = 2
    y = Begird.from_position(2, {"board": "y"}, {"board": board, "to_move": 2})
    ranked = y.rank_actions(y.legal_actions())
    # Black wins next at m1 or m2: White's suggestions start with those blocks.
    assert set(ranked[:2]) == {lay.board.parse("m1"), lay.board.parse("m2")}
    assert "blocks" in y.describe_action(ranked[0]) and "blocks" not in y.describe_action(ranked[2])
    assert sorted(ranked) == sorted(y.legal_actions())


def y_race(to_move: int) -> Begird:
    """The game of Y with Black's stones along row 1: m1 and m2 win for Black."""
    board = {f"{letter}1": 1 for letter in "abcdefghijkl"}
    return Begird.from_position(2, {"board": "y"}, {"board": board, "to_move": to_move})


def test_hints_name_the_stone_a_swap_takes_the_nearest_islands_and_what_a_cell_decides():
    g = game()
    g.play_turn("e5")
    assert g.describe_action(SWAP) == "swap — take Black and its stone on e5; the other player places next as White"
    assert g.describe_action(g.board.parse("c4")) == "c4 — 2 cells from island 13"
    assert g.describe_action(g.board.parse("c3")) == "c3 — 2 cells from islands 12 and 13"
    black, white = y_race(1), y_race(2)
    m1 = black.board.parse("m1")
    assert black.describe_action(m1) == "m1 — touches islands 2 and 3; wins the game"
    assert white.describe_action(m1) == "m1 — touches islands 2 and 3; blocks a winning cell of the opponent"
    over = play_group_last_stone("small", group_touching(layout("small"), [1, 4, 7]))
    assert over.describe_action(over.board.parse("a1")) == "a1 — touches island 8"  # the game is over: no verdict


def test_a_hint_far_from_many_islands_teaches_the_winning_rule_instead_of_listing_them():
    """Issue 26: "i9 — 8 cells from islands 1 and 2 and 10 and 11 and …" taught nothing. Issue 37: the rule came
    on every such line, worded otherwise than the picture: now once in a list, in the picture's words."""
    g = game()
    i9 = g.describe_action(g.board.parse("i9"))
    assert i9 == "i9 — 8 cells from 8 islands"
    middle = [g.board.parse(name) for name in ("i9", "h9", "i10", "j9")]
    said = g.describe_actions(middle)
    rule = "To win, a group leaves no 7 islands in a row untouched"
    assert said[0] == f"i9 — 8 cells from 8 islands. {rule}" and all(rule not in s for s in said[1:]), said
    for variant in ("standard", "small", "y"):
        board = Begird.new(2, {"board": variant})
        for cell in range(len(board.board.names)):
            hint = board.describe_action(cell)
            assert hint.count(" and ") <= 1 and len(hint) <= 100, hint


def test_suggestions_swap_then_wins_then_blocks_then_cells_next_to_own_stones_deepest_first():
    g = game()
    g.play_turn("e5")
    assert g.rank_actions(g.legal_actions())[0] == SWAP
    for to_move in (1, 2):
        y = y_race(to_move)
        names, nbrs, depth = y.board.names, y.layout.neighbours, y.board.edge_distance
        ranked = y.rank_actions(y.legal_actions())
        assert [names[a] for a in ranked[:2]] == ["m1", "m2"]  # Black's two winning cells: win, or block
        rest = ranked[2:]
        touching = [a for a in rest if any(y.cells[n] == to_move for n in nbrs[a])]
        assert bool(touching) == (to_move == 1)  # White has no stone yet
        assert rest[: len(touching)] == touching
        for part in (touching, rest[len(touching) :]):
            assert [depth[a] for a in part] == sorted((depth[a] for a in part), reverse=True)


def test_text_board_of_a_won_game_and_the_island_labels():
    g = play_group_last_stone("small", group_touching(layout("small"), [1, 4, 7]))
    assert g.render_text() == "\n".join(
        [
            "         8 8 8 9 9 9",
            "a       8 . . . . . 9",
            "b      7 . . . . . . 1",
            "c     7 . . . . . . . 1",
            "d    7 X . . . . . . X 1",
            "e   6 . X . . . . . X . 2",
            "f  6 . . X . . . . X . . 2",
            "g   6 . . X . . . X . . 2",
            "h    6 . . X . . X . . 2",
            "i     5 . . X X X . . 3",
            "j      5 . . . X . . 3",
            "        5 5 4 4 4 3 3",
            "",
            "Game over: Black wins by connection.",
            "Winning group touches islands 1, 4, 7.",
        ]
    )
    board = "\n".join(game().render_text().splitlines()[:-2])  # the standard board: islands 10-15 are A-F
    assert [board.count(label) for label in "123456789ABCDEF"] == [len(i) for i in layout("standard").islands]
    g = game()
    g.play_turn("e5")
    g.play_turn("e6")
    cells = "".join(line[3:] for line in g.render_text().splitlines()[:-2])  # without the row letters
    assert (cells.count("x"), cells.count("o"), cells.count("X"), cells.count("O")) == (1, 1, 0, 0)


def test_rank_actions_after_the_end_keeps_the_order_given():
    g = game()
    actions = g.legal_actions()[:5][::-1]
    g.resign(1)
    assert g.rank_actions(actions) == actions
