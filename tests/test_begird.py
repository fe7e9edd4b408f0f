"""Begird (RULES.md §2): the boards, the islands and the win rule.

The turns, the pie rule, serialization and the CLI are tested in test_begird_turns.py, the words
and suggestions in test_begird_words.py; the independent reference (RULES.md's shore tables and a
from-scratch BFS win test) is tests/begird_reference.py, shared with test_begird_properties.py.
"""

from __future__ import annotations

import random

import pytest

from games import IllegalMove, StateError
from games.begird import Begird, winning_group
from games.begirdboard import VARIANTS, clockwise_ring, layout, shores, split_into_islands
from games.hexgrid import HexBoard, distance, neighbours
from tests.begird_helpers import _mask, group_touching, lone_shore_cell, path_between, play_group_last_stone
from tests.begird_reference import SHORES, covering_run, wins

# ----------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------


def test_standard_board_cells_and_rows():
    lay = layout("standard")
    board = lay.board
    assert len(board) == 243
    assert [len(r) for r in board.rows] == list(range(9, 19)) + list(range(17, 9, -1))
    assert board.row_letters() == "abcdefghijklmnopqr"
    assert len(board.rows[0]) == 9 and len(board.rows[9]) == 18 and len(board.rows[17]) == 10
    for q, r in board.cells:
        assert -10 <= q <= 7 and -8 <= r <= 9 and -8 <= -q - r <= 9


def test_small_board_cells_and_rows():
    board = layout("small").board
    assert len(board) == 75
    assert [len(r) for r in board.rows] == [5, 6, 7, 8, 9, 10, 9, 8, 7, 6]


def test_y_board_is_a_triangle_of_side_13():
    board = layout("y").board
    assert len(board) == 91
    assert [len(r) for r in board.rows] == list(range(1, 14))
    top = board.cells[board.parse("a1")]
    m1, m13 = board.cells[board.parse("m1")], board.cells[board.parse("m13")]
    # a1 on top, centred above the bottom row; the three corners are 12 apart.
    assert top[1] < m1[1] == m13[1]
    assert distance(top, m1) == distance(top, m13) == distance(m1, m13) == 12
    # Row k's cells are the k cells of a straight horizontal line.
    for row in board.rows:
        qs = [board.cells[i][0] for i in row]
        assert qs == list(range(qs[0], qs[0] + len(qs)))
    # Every corner has exactly 2 neighbours on the board.
    for name in ("a1", "m1", "m13"):
        assert len(board.neighbour_indices[board.parse(name)]) == 2


@pytest.mark.parametrize(
    "variant,ring,sizes",
    [
        ("standard", 57, [3, 4, 4, 4, 4] * 3),
        ("small", 33, [3, 4, 4] * 3),
        ("y", 42, [14, 14, 14]),
    ],
)
def test_islands_partition_the_outside_ring_clockwise(variant, ring, sizes):
    lay = layout(variant)
    outside = set(lay.board.outside_ring())
    assert len(outside) == ring
    assert [len(i) for i in lay.islands] == sizes
    walk = [c for island in lay.islands for c in island]
    assert len(walk) == len(set(walk)) == ring and set(walk) == outside
    for a, b in zip(walk, walk[1:] + walk[:1], strict=False):
        assert distance(a, b) == 1  # consecutive all the way round, no gaps


@pytest.mark.parametrize("variant", ["standard", "small", "y"])
def test_shores_equal_the_rules_table(variant):
    expected = {k: sorted(v.split()) for k, v in SHORES[variant].items()}
    got = {k + 1: sorted(s) for k, s in enumerate(shores(variant))}
    assert got == expected
    lay = layout(variant)
    for k in range(1, lay.island_count + 1):
        assert sorted(lay.shore_names(k)) == expected[k]


@pytest.mark.parametrize("variant", ["standard", "small", "y"])
def test_each_pair_of_consecutive_islands_is_touched_by_exactly_one_cell(variant):
    lay = layout(variant)
    n = lay.island_count
    for k in range(n):
        both = (1 << k) | (1 << ((k + 1) % n))
        assert sum(1 for m in lay.cell_masks if m & both == both) == 1
    # No cell touches two islands that are not consecutive, and no cell touches three.
    for m in lay.cell_masks:
        assert bin(m).count("1") <= 2


def test_y_corners_touch_two_islands():
    lay = layout("y")
    at = {name: lay.islands_of(lay.cell_masks[lay.board.parse(name)]) for name in ("a1", "m1", "m13")}
    assert at == {"a1": [1, 3], "m1": [2, 3], "m13": [1, 2]}


@pytest.mark.parametrize("variant,long_side", [("standard", 10), ("small", 6)])
def test_three_cell_islands_sit_on_the_middle_of_the_long_sides(variant, long_side):
    lay = layout(variant)
    cells = lay.board.cells
    qs, rs = [c[0] for c in cells], [c[1] for c in cells]
    ss = [-q - r for q, r in cells]
    sides = []
    for values in (qs, rs, ss):
        for bound in (min(values), max(values)):
            side = sorted(i for i, v in enumerate(values) if v == bound)
            sides.append(side)
    long_sides = [s for s in sides if len(s) == long_side]
    assert len(long_sides) == 3
    three = [k for k, island in enumerate(lay.islands) if len(island) == 3]
    assert three == [0, len(lay.islands) // 3, 2 * len(lay.islands) // 3]
    for k in three:
        shore = set(lay.shores[k])
        middle = lay.islands[k][1]
        touching_middle = {lay.board.index[c] for c in neighbours(middle) if c in lay.board.index}
        matches = [s for s in long_sides if shore <= set(s)]
        assert len(matches) == 1
        side = matches[0]
        h = long_side // 2
        # The middle ring cell touches the two middle cells of the side.
        assert touching_middle == {side[h - 1], side[h]}
        assert len(shore) == 4 and shore == set(side[h - 2 : h + 2])


def test_island_one_is_on_the_upper_right_side():
    assert shores("standard")[0] == ("d12", "e13", "f14", "g15")
    assert shores() == shores("standard")  # the standard board is the default
    assert "a9" in shores("standard")[14] and "j18" in shores("standard")[1]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shift", [(20, 0), (0, -15), (-30, 7)])
def test_islands_depend_on_the_board_s_shape_not_on_where_it_lies(variant, shift):
    # Clockwise is judged around the board's own centre: the same board moved
    # elsewhere on the plane gets the same islands, moved with it.
    dq, dr = shift
    lay = layout(variant)
    moved = HexBoard(tuple((q + dq, r + dr) for q, r in lay.board.cells))
    sizes = tuple(len(island) for island in lay.islands)
    expected = tuple(tuple((q + dq, r + dr) for q, r in island) for island in lay.islands)
    assert split_into_islands(moved, sizes) == expected


def test_the_island_construction_refuses_what_it_cannot_cut_and_says_why():
    # A new board variant with the wrong island sizes, or a board without one
    # outline, must fail with the reason, not with islands that are silently wrong.
    board = layout("standard").board
    with pytest.raises(ValueError) as wrong_total:
        split_into_islands(board, (3, 4))
    assert str(wrong_total.value) == "island sizes add up to 7, the ring has 57 cells"
    with pytest.raises(ValueError) as off_centre:  # 9 ring cells lie alongside: an island of 4 has no middle
        split_into_islands(board, (4, 53))
    assert str(off_centre.value) == "island 1 cannot be centred on the upper-right side"
    two_pieces = HexBoard(((0, 0), (10, 0)))
    with pytest.raises(ValueError) as not_a_loop:
        clockwise_ring(two_pieces)
    assert str(not_a_loop.value) == "the outside ring is not a simple loop"


# ----------------------------------------------------------------------------
# The win rule
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_win_table_matches_the_brute_force_covering_run(variant):
    lay = layout(variant)
    n = lay.island_count
    rng = random.Random(5)
    masks = range(1 << n) if n <= 9 else [rng.randrange(1 << n) for _ in range(3000)]
    for mask in masks:
        touched = {k + 1 for k in range(n) if mask >> k & 1}
        assert lay.win_table[mask] == int(wins(touched, n)), touched
        assert lay.covering_run(mask) == covering_run(touched, n)


@pytest.mark.parametrize("start", range(1, 16))
def test_standard_arc_of_exactly_nine_wins_and_eight_does_not(start):
    def isl(k):
        return (start - 1 + k) % 15 + 1

    lay = layout("standard")
    # Three islands spanning exactly 9 (first, fifth, ninth of the run): wins at the last stone.
    g = play_group_last_stone("standard", group_touching(lay, [isl(0), isl(4), isl(8)]))
    assert g.is_over and g.winners == (1,) and g.to_move is None
    _cells, islands = winning_group(g)
    assert sorted(islands) == sorted([isl(0), isl(4), isl(8)])
    # Spanning 8: no win.
    g = play_group_last_stone("standard", group_touching(lay, [isl(0), isl(4), isl(7)]))
    assert not g.is_over and g.winners == ()


def test_a_run_along_the_edge_through_nine_islands_wins_and_eight_does_not():
    lay = layout("standard")
    first = lone_shore_cell(lay, 1)
    for last_island, won in ((9, True), (8, False)):
        allowed_mask = sum(1 << (k - 1) for k in range(1, last_island + 1))
        target = lone_shore_cell(lay, last_island)
        path = path_between(
            lay,
            first,
            target,
            lambda i: lay.board.edge_distance[i] == 0 and lay.cell_masks[i] & ~allowed_mask == 0,
        )
        assert set(lay.islands_of(_mask(lay, path))) == set(range(1, last_island + 1))
        g = play_group_last_stone("standard", path, colour=2)
        assert g.is_over is won
        assert g.winners == ((2,) if won else ())


@pytest.mark.parametrize(
    "variant,pairs",
    [
        ("standard", [(1, 8), (1, 9), (3, 11), (5, 12)]),
        ("small", [(1, 5), (1, 6), (2, 7)]),
        ("y", [(1, 2), (2, 3), (1, 3)]),
    ],
)
def test_two_islands_never_win_however_far_apart(variant, pairs):
    lay = layout(variant)
    for a, b in pairs:
        g = play_group_last_stone(variant, group_touching(lay, [a, b]))
        assert not g.is_over


@pytest.mark.parametrize(
    "variant,clusters",
    [
        ("standard", [(1, 2, 3), (1, 4, 8), (13, 2, 5), (4, 5, 6, 7, 8, 9, 10, 11)]),
        ("small", [(1, 2, 3), (1, 3, 5), (8, 1, 3)]),
    ],
)
def test_three_or_more_islands_in_a_short_arc_do_not_win(variant, clusters):
    lay = layout(variant)
    for islands in clusters:
        g = play_group_last_stone(variant, group_touching(lay, list(islands)))
        assert not g.is_over, islands


@pytest.mark.parametrize(
    "variant,islands",
    [
        ("small", (1, 3, 6)),
        ("small", (2, 5, 7)),
        ("y", (1, 2, 3)),
    ],
)
def test_variant_wins(variant, islands):
    g = play_group_last_stone(variant, group_touching(layout(variant), list(islands)))
    assert g.is_over and g.winners == (1,)


def test_y_win_along_two_sides_through_a_corner():
    # The left side a1..m1 touches islands 3 (all), 1 (a1) and 2 (m1): a win.
    board = {f"{letter}1": 1 for letter in "abcdefghijkl"}
    g = Begird.from_position(2, {"board": "y"}, {"board": board, "to_move": 1})
    assert not g.is_over
    g.play_turn("m1")
    assert g.is_over and g.winners == (1,)
    assert winning_group(g)[1] == [1, 2, 3]


def test_the_game_ends_at_the_winning_placement():
    lay = layout("standard")
    group = group_touching(lay, [1, 6, 11])
    last = group[-1]
    board = {lay.board.names[i]: 1 for i in group[:-1]}
    board["e5"] = 2
    g = Begird.from_position(2, None, {"board": board, "to_move": 1})
    assert g.legal_actions() and not g.is_over
    g.play_turn(lay.board.names[last])
    assert g.is_over and g.winners == (1,) and g.to_move is None
    assert g.legal_actions() == [] and g.legal_notations() == []
    empty = next(i for i, v in enumerate(g.cells) if v == 0)
    for attempt in (
        lambda: g.play_turn(lay.board.names[empty]),
        lambda: g.apply_action(empty),
        lambda: g.parse_action("swap"),
        lambda: g.end_turn(),
        lambda: g.resign(2),
    ):
        with pytest.raises(IllegalMove, match="over"):
            attempt()
    assert g.position()["to_move"] is None


def test_from_position_detects_an_existing_win_and_rejects_two():
    lay = layout("small")
    group = group_touching(lay, [1, 4, 7])
    board = {lay.board.names[i]: 2 for i in group}
    g = Begird.from_position(2, {"board": "small"}, {"board": board})
    assert g.is_over and g.winners == (2,)
    assert sorted(winning_group(g)[0]) == sorted(board)
    with pytest.raises(StateError):
        Begird.from_position(2, {"board": "small"}, {"board": {"a1": 3}})
    with pytest.raises(StateError):
        Begird.from_position(2, {"board": "small"}, {"board": {"z1": 1}})
    with pytest.raises(StateError):
        Begird.from_position(2, {"board": "small"}, {"board": {"a1": 1, "A1": 2}})


def test_the_winning_stone_is_logged_with_the_end_of_the_game():
    lay = layout("standard")
    group = group_touching(lay, [1, 5, 9])
    last = group[len(group) // 2]
    board = {lay.board.names[i]: 2 for i in group if i != last}
    g = Begird.from_position(2, {"board": "standard"}, {"board": board, "to_move": 2})
    events = [e.to_json() for e in g.play_turn(lay.board.names[last])]
    assert events == [
        {"kind": "place", "seat": 2, "cell": lay.board.names[last]},
        {"kind": "end", "seat": 2, "data": {"reason": "connection"}},
    ]
    assert g.end_reason == "connection"
