import pytest

from games.hexgrid import (
    DIRECTIONS,
    CellNameError,
    HexBoard,
    direction_index,
    distance,
    hexagon_cells,
    neighbours,
    ring,
    step,
)


def test_directions_are_numbered_clockwise_as_rules_say():
    assert DIRECTIONS == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    assert direction_index("ne") == 5 and direction_index("SE") == 1 and direction_index("3") == 3
    with pytest.raises(ValueError):
        direction_index("north")


def test_distance_is_the_axial_hex_distance():
    assert distance((0, 0), (3, -1)) == 3
    assert distance((0, 0), (-2, 3)) == 3
    assert distance((1, 1), (1, 1)) == 0
    for d in range(6):
        assert distance((0, 0), step((0, 0), d, 4)) == 4


def test_neighbours_and_rings():
    assert len(set(neighbours((2, -1)))) == 6
    assert all(distance((2, -1), n) == 1 for n in neighbours((2, -1)))
    for radius in range(5):
        cells = ring((0, 0), radius)
        assert len(cells) == max(1, 6 * radius)
        assert all(distance((0, 0), c) == radius for c in cells)


@pytest.mark.parametrize("side,count", [(4, 37), (5, 61), (6, 91)])
def test_hexhex_sizes(side, count):
    assert len(HexBoard.hexhex(side)) == count


def test_side5_names_rows_and_centre():
    board = HexBoard.hexhex(5)
    assert [len(r) for r in board.rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert board.cell_name((0, 0)) == "e5"
    assert board.cell_name((0, -4)) == "a1"
    assert board.cell_name((4, -4)) == "a5"
    assert board.cell_name((-4, 0)) == "e1"
    assert board.cell_name((0, 4)) == "i5"
    assert board.parse("E5") == board.index[(0, 0)]


def test_values_are_distance_to_the_edge():
    board = HexBoard.hexhex(5)
    assert board.distance_to_edge(board.parse("e5")) == 4
    assert board.distance_to_edge(board.parse("a1")) == 0
    assert board.distance_to_edge(board.parse("b2")) == 1
    assert len(board.cells_at_edge_distance(0)) == 24
    assert len(board.cells_at_edge_distance(4)) == 1


def test_rays_run_to_the_edge():
    board = HexBoard.hexhex(5)
    e5 = board.parse("e5")
    assert [board.name(i) for i in board.ray(e5, 0)] == ["e6", "e7", "e8", "e9"]
    assert [board.name(i) for i in board.ray(e5, 3)] == ["e4", "e3", "e2", "e1"]
    assert board.ray(board.parse("e9"), 0) == ()


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("z1", "no row z"),
        ("a6", "row a has cells a1–a5"),
        ("e", "not a cell name"),
        ("", "empty"),
        ("55", "not a cell name"),
    ],
)
def test_parse_errors_are_precise(text, fragment):
    with pytest.raises(CellNameError, match=fragment):
        HexBoard.hexhex(5).parse(text)


def test_general_hexagon_and_outside_ring():
    cells = hexagon_cells((-10, 7), (-8, 9), (-8, 9))
    board = HexBoard(tuple(cells))
    assert len(board) == 243 and len(board.rows) == 18
    assert len(board.outside_ring()) == 57
    assert len(HexBoard.hexhex(5).outside_ring()) == 30


def test_direction_numbers_stop_at_5_and_the_refusal_lists_the_names():
    with pytest.raises(ValueError, match=r"^unknown direction '6': use one of e, se, sw, w, nw, ne$"):
        direction_index("6")


def test_step_counts_directions_round_the_clock():
    assert step((0, 0), 6) == step((0, 0), 0) == (1, 0)
    assert step((0, 0), -1) == step((0, 0), 5) == (1, -1)


def test_cells_are_ordered_row_by_row_and_each_has_six_rays():
    board = HexBoard(((0, 1), (1, 0), (0, 0)))
    assert board.cells == ((0, 0), (1, 0), (0, 1))
    assert board.names == ("a1", "a2", "b1")
    assert all(len(rays) == 6 for rays in board.rays)


def test_boards_up_to_26_rows_of_99_cells_can_be_named():
    assert HexBoard(tuple((q, r) for r in range(26) for q in range(99))).names[-1] == "z99"
    with pytest.raises(ValueError, match="board too large to name"):
        HexBoard(tuple((q, r) for r in range(26) for q in range(100 if r == 0 else 99)))
    with pytest.raises(ValueError, match="at most 26 rows"):
        HexBoard(tuple((0, r) for r in range(27)))


def test_a_board_contains_exactly_its_cells():
    board = HexBoard(((0, 1), (1, 0), (0, 0)))
    assert (1, 0) in board and (0, 0) in board
    assert (1, 1) not in board and "a1" not in board


def test_a_board_of_more_than_26_rows_is_refused():
    with pytest.raises(ValueError, match="^a board has at most 26 rows$"):
        HexBoard(tuple((0, r) for r in range(27)))
