"""Begird's independent reference (tests/test_begird*.py, test_begird_properties.py): RULES.md's shore
tables typed in, and a from-scratch BFS win test that shares nothing with the engine's island
construction or union-find."""

from __future__ import annotations

from collections import deque

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
