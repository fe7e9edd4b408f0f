"""Begird (RULES.md §2): board, islands, win rule, pie rule, serialization, CLI.

The first part is an independent reference used here and by
``test_begird_properties.py``: RULES.md's shore tables typed in, and a
from-scratch BFS win test that shares nothing with the engine's island
construction or union-find.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import deque

import pytest

from games import IllegalMove, StateError, get, load_state, new_game
from games.begird import SWAP, Begird, winning_group
from games.begirdboard import VARIANTS, clockwise_ring, layout, shores, split_into_islands
from games.cli import main as cli_main
from games.hexgrid import HexBoard, distance, neighbours

# ----------------------------------------------------------------------------
# Reference: shore tables and a BFS win test
# ----------------------------------------------------------------------------

STANDARD_SHORES = {
    1: "d12 e13 f14 g15",
    2: "g15 h16 i17 j18",
    3: "j18 k17 l16 m15 n14",
    4: "n14 o13 p12 q11 r10",
    5: "r7 r8 r9 r10",
    6: "r4 r5 r6 r7",
    7: "r1 r2 r3 r4",
    8: "n1 o1 p1 q1 r1",
    9: "j1 k1 l1 m1 n1",
    10: "g1 h1 i1 j1",
    11: "d1 e1 f1 g1",
    12: "a1 b1 c1 d1",
    13: "a1 a2 a3 a4 a5",
    14: "a5 a6 a7 a8 a9",
    15: "a9 b10 c11 d12",
}

SMALL_SHORES = {
    1: "b6 c7 d8 e9",
    2: "e9 f10 g9 h8",
    3: "h8 i7 j5 j6",
    4: "j2 j3 j4 j5",
    5: "h1 i1 j1 j2",
    6: "e1 f1 g1 h1",
    7: "b1 c1 d1 e1",
    8: "a1 a2 a3 b1",
    9: "a3 a4 a5 b6",
}


def y_shores(side: int = 13) -> dict[int, str]:
    letters = "abcdefghijklmnopqrstuvwxyz"[:side]
    right = " ".join(f"{letter}{k + 1}" for k, letter in enumerate(letters))
    bottom = " ".join(f"{letters[-1]}{k}" for k in range(1, side + 1))
    left = " ".join(f"{letter}1" for letter in letters)
    return {1: right, 2: bottom, 3: left}


SHORES = {"standard": STANDARD_SHORES, "small": SMALL_SHORES, "y": y_shores()}


def covering_run(touched: set[int], n: int) -> int:
    """Brute force: the shortest run of consecutive islands (1..n, cyclic) containing ``touched``."""
    if not touched:
        return 0
    best = n
    for start in range(1, n + 1):
        for length in range(1, n + 1):
            arc = {(start - 1 + k) % n + 1 for k in range(length)}
            if touched <= arc:
                best = min(best, length)
                break
    return best


def wins(touched: set[int], n: int) -> bool:
    return len(touched) >= 3 and 2 * covering_run(touched, n) >= n + 3


class Reference:
    """Touch tables by cell index for one engine board (names from the engine's board)."""

    def __init__(self, board, variant: str) -> None:
        self.board = board
        table = SHORES[variant]
        self.n = len(table)
        self.touch: list[set[int]] = [set() for _ in board.cells]
        for island, names in table.items():
            for name in names.split():
                self.touch[board.parse(name)].add(island)
        self.nbrs = board.neighbour_indices
        self._wins: dict[frozenset[int], bool] = {}

    def _win(self, touched: set[int]) -> bool:
        key = frozenset(touched)
        if key not in self._wins:
            self._wins[key] = wins(set(key), self.n)
        return self._wins[key]

    def winning_groups(self, cells: list[int], colour: int) -> list[set[int]]:
        """Every group of ``colour`` that wins, found by BFS from scratch."""
        seen = [False] * len(cells)
        found = []
        for start, v in enumerate(cells):
            if v != colour or seen[start]:
                continue
            seen[start] = True
            group = {start}
            touched: set[int] = set()
            queue = deque([start])
            while queue:
                p = queue.popleft()
                touched |= self.touch[p]
                for q in self.nbrs[p]:
                    if not seen[q] and cells[q] == colour:
                        seen[q] = True
                        group.add(q)
                        queue.append(q)
            if self._win(touched):
                found.append(group)
        return found

    def has_win(self, cells: list[int], colour: int) -> bool:
        return bool(self.winning_groups(cells, colour))


# ----------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------


def game(variant: str = "standard") -> Begird:
    return new_game("begird", 2, {"board": variant})


def names(lay, indices) -> list[str]:
    return [lay.board.names[i] for i in indices]


def path_between(lay, a: int, b: int, allowed) -> list[int]:
    """A shortest path of cell indices from a to b through cells for which allowed(i) holds."""
    prev = {a: None}
    queue = deque([a])
    while queue:
        p = queue.popleft()
        if p == b:
            break
        for q in lay.neighbours[p]:
            if q not in prev and (q == b or allowed(q)):
                prev[q] = p
                queue.append(q)
    assert b in prev, "no path"
    out = []
    node = b
    while node is not None:
        out.append(node)
        node = prev[node]
    return out[::-1]


def lone_shore_cell(lay, island: int) -> int:
    """A shore cell of ``island`` that touches no other island (the middle one)."""
    only = [i for i in lay.shores[island - 1] if lay.cell_masks[i] == 1 << (island - 1)]
    return only[len(only) // 2]


def group_touching(lay, islands: list[int]) -> list[int]:
    """A connected set of cells touching exactly ``islands``, joined through inner cells."""
    ends = [lone_shore_cell(lay, k) for k in islands]
    cells: list[int] = [ends[0]]
    for a, b in itertools.pairwise(ends):
        cells += path_between(lay, a, b, lambda i: lay.cell_masks[i] == 0)[1:]
    group = list(dict.fromkeys(cells))
    assert set(lay.islands_of(_mask(lay, group))) == set(islands)
    return group


def _mask(lay, cells) -> int:
    m = 0
    for i in cells:
        m |= lay.cell_masks[i]
    return m


def play_group_last_stone(variant: str, group: list[int], colour: int = 1) -> Begird:
    """Set up ``group`` minus one middle stone for ``colour``, then place that stone."""
    lay = layout(variant)
    last = group[len(group) // 2]
    board = {lay.board.names[i]: colour for i in group if i != last}
    g = Begird.from_position(2, {"board": variant}, {"board": board, "to_move": colour})
    assert not g.is_over
    g.play_turn(lay.board.names[last])
    return g


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


# ----------------------------------------------------------------------------
# Turns and the pie rule
# ----------------------------------------------------------------------------


def test_black_places_first_and_players_alternate():
    g = game()
    assert g.to_move == 1 and g.ply == 0 and not g.swapped
    assert "swap" not in g.legal_notations()
    assert len(g.legal_actions()) == 243
    g.play_turn("e5")
    assert g.to_move == 2 and g.ply == 1
    g.play_turn("F6")
    assert g.position() == {"board": {"e5": 1, "f6": 2}, "to_move": 1, "swapped": False}
    with pytest.raises(IllegalMove, match="occupied by a Black stone"):
        g.play_turn("e5")
    with pytest.raises(IllegalMove, match="off the board"):
        g.play_turn("a10")
    with pytest.raises(IllegalMove, match="one stone per turn|cannot be placed|remove"):
        g.play_turn("g7 g8")
    assert g.ply == 2 and g.position()["board"] == {"e5": 1, "f6": 2}
    assert g.scores() is None


def test_swap_exchanges_the_players_and_white_places_next():
    g = game()
    g.play_turn("e5")
    assert "swap" in g.legal_notations() and SWAP in g.legal_actions()
    assert g.legal_notations()[0] == "swap"
    events = g.play_turn("swap")
    assert [e.kind for e in events] == ["swap"]
    assert g.swapped and g.ply == 2
    # The board is unchanged: the black stone stays black, now owned by the second player.
    assert g.position() == {"board": {"e5": 1}, "to_move": 2, "swapped": True}
    assert g.player_of_colour(1) == 2 and g.player_of_colour(2) == 1
    assert g.colour_of_player(1) == 2 and g.colour_of_player(2) == 1
    # White (the player who joined first) makes the next placement.
    g.play_turn("f6")
    assert g.position()["board"] == {"e5": 1, "f6": 2} and g.to_move == 1
    assert "swap" not in g.legal_notations()
    with pytest.raises(IllegalMove, match="only once|second turn"):
        g.play_turn("swap")


def test_without_swap_players_keep_their_colours():
    g = game()
    g.play_turn("e5")
    g.play_turn("f6")
    assert g.player_of_colour(1) == 1 and g.colour_of_player(2) == 2


def test_swap_refused_on_the_first_turn():
    g = game()
    with pytest.raises(IllegalMove, match="second turn"):
        g.play_turn("swap")
    with pytest.raises(IllegalMove, match="second turn"):
        g.apply_action(SWAP)
    assert g.ply == 0 and not g.swapped


def test_swap_refused_on_the_third_turn():
    g = game()
    g.play_turn("e5")
    g.play_turn("f6")
    with pytest.raises(IllegalMove, match="second turn.*too late"):
        g.play_turn("swap")
    with pytest.raises(IllegalMove):
        g.apply_action(SWAP)
    assert not g.swapped and g.ply == 2


def test_swap_refused_after_a_placement_on_the_second_turn():
    g = game()
    g.play_turn("e5")
    with pytest.raises(IllegalMove):
        g.play_turn("f6 swap")
    assert g.ply == 1 and g.position()["board"] == {"e5": 1}
    g.apply_action(g.parse_action("f6"))
    assert g.legal_actions() == [] and g.can_end_turn()
    with pytest.raises(IllegalMove, match="one stone per turn"):
        g.apply_action(SWAP)
    with pytest.raises(IllegalMove):
        g.parse_action("swap")
    g.end_turn()
    assert not g.swapped and g.to_move == 1


def test_each_refused_swap_says_why():
    g = game()
    with pytest.raises(
        IllegalMove, match="^swap is only possible on the second turn, as White's answer to Black's first stone$"
    ):
        g.apply_action(SWAP)
    g.play_turn("e5")
    g.apply_action(g.parse_action("f6"))
    with pytest.raises(IllegalMove, match="^one stone per turn: swap must be the whole turn$"):
        g.parse_action("swap")
    g.end_turn()
    with pytest.raises(
        IllegalMove,
        match=r"^swap \(the pie rule\) is only possible on the second turn of the game; it is too late now$",
    ):
        g.apply_action(SWAP)
    g = game()
    g.play_turn("e5")
    g.play_turn("swap")
    with pytest.raises(IllegalMove, match="^the colours have already been swapped; swap can be used only once$"):
        g.apply_action(SWAP)


def test_resignation_gives_the_opponent_the_win():
    g = game()
    g.play_turn("e5")
    events = g.resign(1)
    assert g.is_over and g.winners == (2,) and g.to_move is None
    assert [e.kind for e in events] == ["resign", "end"]
    pos = g.position()
    assert pos["resigned"] == [1]
    back = Begird.from_position(2, None, pos)
    assert back.is_over and back.winners == (2,)
    g = game()
    events = g.resign(2)  # on Black's turn: allowed
    assert g.winners == (1,) and g.end_reason == "resignation"
    assert [(e.kind, e.seat, e.data) for e in events] == [("resign", 2, ()), ("end", 1, (("reason", "resignation"),))]
    with pytest.raises(IllegalMove, match="^the game is over$"):
        g.resign(1)
    with pytest.raises(IllegalMove, match="^seat 3 is not in play$"):
        game().resign(3)


# ----------------------------------------------------------------------------
# Serialization, registry, CLI, hints
# ----------------------------------------------------------------------------


def _random_moves(g: Begird, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if g.is_over:
            return
        g.play_turn(g.format_action(rng.choice(g.legal_actions())))


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_and_state_json_round_trip(variant):
    rng = random.Random(11)
    for moves in (0, 1, 2, 7, 40, 400):
        g = game(variant)
        if moves >= 2:
            g.play_turn(g.format_action(rng.choice(g.empties)))
            g.play_turn("swap")
        _random_moves(g, rng, moves)
        doc = json.loads(json.dumps(g.to_json()))
        back = load_state(doc)
        assert isinstance(back, Begird)
        assert back.position() == g.position() and back.to_json() == doc
        assert back.ply == g.ply and back.winners == g.winners and back.swapped == g.swapped
        assert sorted(back.legal_actions()) == sorted(g.legal_actions())
        pos = json.loads(json.dumps(g.position()))
        again = Begird.from_position(2, {"board": variant}, pos)
        assert again.position() == g.position() and again.is_over == g.is_over
        # Both continue identically.
        if not g.is_over:
            seed = rng.randrange(10**6)
            _random_moves(g, random.Random(seed), 1000)
            _random_moves(back, random.Random(seed), 1000)
            assert back.position() == g.position() and back.winners == g.winners


def test_position_after_one_stone_still_allows_the_swap():
    g = Begird.from_position(2, None, {"board": {"e5": 1}, "to_move": 2, "swapped": False})
    assert g.ply == 1 and "swap" in g.legal_notations()
    g = Begird.from_position(2, None, {"board": {"e5": 1}, "swapped": True})
    assert g.ply == 2 and g.to_move == 2 and "swap" not in g.legal_notations()


def test_registry_entry():
    info = get("begird")
    assert info.name == "Begird" and info.min_players == info.max_players == 2
    assert info.seat_names == ("Black", "White")
    assert info.option("board").allowed == ("standard", "small", "y")
    assert info.option("board").default == "standard"
    assert [q.notation for q in info.quick_actions] == ["swap"]
    assert len(info.summary) < 900
    assert isinstance(new_game("begird"), Begird)


def test_cli_replay_with_swap(capsys):
    assert cli_main(["replay", "begird", "--moves", "e5; swap; f6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "begird" and out["ply"] == 3 and out["to_move"] == 1
    assert out["position"] == {"board": {"e5": 1, "f6": 2}, "to_move": 1, "swapped": True}
    assert out["scores"] is None and out["winners"] == [] and not out["over"]
    assert "swap" not in out["legal"] and len(out["legal"]) == 241


def test_cli_errors_and_variants(capsys):
    assert cli_main(["replay", "begird", "--moves", "swap", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert "second turn" in out["error"]
    assert cli_main(["replay", "begird", "--option", "board=y", "--moves", "a1; m13", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"] == {"board": "y"} and len(out["legal"]) == 89
    assert cli_main(["replay", "begird", "--option", "board=small", "--moves", "e5"]) == 0
    text = capsys.readouterr().out
    assert "White to move" in text
    assert cli_main(["random", "begird", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and len(out["winners"]) == 1


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


def test_player_of_seat_follows_the_swap():
    g = game()
    assert g.player_of_seat(1) == 1 and g.player_of_seat(2) == 2
    g.play_turn("e5")
    g.play_turn("swap")
    assert g.player_of_seat(1) == 2 and g.player_of_seat(2) == 1
    back = load_state(json.loads(json.dumps(g.to_json())))
    assert back.player_of_seat(1) == 2 and back.swapped


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


def test_apply_action_refuses_what_is_not_a_cell_of_the_board():
    g = game()
    for bad in (-5, 10_000, "e5", 2.0, None):
        with pytest.raises(IllegalMove, match="no such cell"):
            g.apply_action(bad)
    assert g.position() == game().position()


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


# -- words and suggestions ---------------------------------------------------------------------


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


def test_pie_is_another_word_for_swap():
    g = game()
    g.play_turn("e5")
    assert g.parse_action("pie") == g.parse_action("swap") == SWAP


@pytest.mark.parametrize(
    "doc, reason",
    [
        ({"board": {"a1": True}}, "^a1: colour True is not 1 \\(Black\\) or 2 \\(White\\)$"),
        ({"board": {}, "swapped": "yes"}, "^swapped must be true or false$"),
        ({"board": {}, "resigned": [3]}, "^resigned must list one seat, 1 or 2$"),
        ({"board": {}, "swapped": True}, "^a swap needs Black's first stone on the board$"),
    ],
)
def test_bad_positions_are_refused_with_the_reason_word_for_word(doc, reason):
    with pytest.raises(StateError, match=reason):
        Begird.from_position(2, {"board": "small"}, doc)
