"""An independent reference implementation of Bide, written from docs RULES.md §0 and §1.

It shares no code with ``games/``: it exists to be compared with the project's
engine (see ``test_bide_differential.py``). It favours obviousness over speed:
the board is a dict keyed by axial ``(q, r)``, every rule is applied literally.

Seats are numbered from 1. Internally lists are indexed by ``seat - 1``.
"""

from __future__ import annotations

import copy
import math
import random

# The six directions, clockwise on screen (pointy-top, y down): E SE SW W NW NE.
DIRECTIONS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]

# Discs per colour in the equipment (seats 1-6), for the 61-point board.
BASE_POOLS = [32, 32, 22, 17, 15, 12]


def hex_distance(a, b):
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


class RefBide:
    def __init__(self, players: int, side: int = 5):
        if not 2 <= players <= 6:
            raise ValueError("Bide is played by 2 to 6 players")
        if side not in (4, 5, 6):
            raise ValueError("side must be 4, 5 or 6")
        self.players = players
        self.side = side
        radius = side - 1

        # --- the board's points -------------------------------------------------
        self.points = []
        for r in range(-radius, radius + 1):
            for q in range(-radius, radius + 1):
                if hex_distance((q, r), (0, 0)) <= radius:
                    self.points.append((q, r))
        point_set = set(self.points)

        # --- names: rows lettered from the top (smallest r), cells numbered from the left (smallest q)
        self.name_of = {}
        self.point_of = {}
        rows = sorted({r for (_, r) in self.points})
        for row_index, r in enumerate(rows):
            letter = "abcdefghijklmnopqrstuvwxyz"[row_index]
            cells = sorted(q for (q, rr) in self.points if rr == r)
            for k, q in enumerate(cells):
                name = f"{letter}{k + 1}"
                self.name_of[(q, r)] = name
                self.point_of[name] = (q, r)

        # --- value of a point: its distance from the nearest edge point ---------
        edge = [p for p in self.points if any((p[0] + dq, p[1] + dr) not in point_set for dq, dr in DIRECTIONS)]
        self.value = {p: min(hex_distance(p, e) for e in edge) for p in self.points}

        # --- state ----------------------------------------------------------------
        self.board = {}  # (q, r) -> seat
        self.hands = [0] * players
        self.pools = [math.ceil(BASE_POOLS[i] * len(self.points) / 61) for i in range(players)]
        self.owed = set()
        self.resigned = set()
        self.current = 1  # seat whose turn it is (meaningless once over)
        self.over = False
        self.winners = ()
        self.moves = []  # the turns applied so far, as written

        self._start_turn_of(1)

    # ------------------------------------------------------------------ helpers

    def empty_points(self):
        return [p for p in self.points if p not in self.board]

    def board_full(self):
        return len(self.board) == len(self.points)

    def has_any_disc(self, seat):
        return self.pools[seat - 1] > 0 or self.hands[seat - 1] > 0

    def _start_turn_of(self, seat):
        """Make ``seat`` the seat to move, skipping seats that must pass, and draw its disc.

        Seats with no disc at all pass automatically (which settles a debt).
        If no non-resigned seat holds any disc, the game ends.
        """
        for _ in range(self.players + 1):
            if seat in self.resigned:
                seat = seat % self.players + 1
                continue
            active = [s for s in range(1, self.players + 1) if s not in self.resigned]
            if not any(self.has_any_disc(s) for s in active):
                self._finish()
                return
            if not self.has_any_disc(seat):
                self.owed.discard(seat)  # an automatic pass settles the debt
                seat = seat % self.players + 1
                continue
            self.current = seat
            if self.pools[seat - 1] > 0:
                self.pools[seat - 1] -= 1
                self.hands[seat - 1] += 1
            return
        raise AssertionError("no seat can move")  # pragma: no cover

    def _finish(self):
        self.over = True
        self.winners = self._compute_winners()

    # -------------------------------------------------------------- shock wave

    def _line(self, start, direction):
        """Points leading away from ``start`` in ``direction`` up to the edge: c1 … cm."""
        dq, dr = direction
        line = []
        q, r = start[0] + dq, start[1] + dr
        while (q, r) in self.value:
            line.append((q, r))
            q, r = q + dq, r + dr
        return line

    def _place(self, seat, point):
        """Put a disc of ``seat`` on empty ``point`` and resolve its shock wave."""
        assert point not in self.board
        self.board[point] = seat
        for direction in DIRECTIONS:
            c = [None] + self._line(point, direction)  # 1-based like the pseudo-code
            m = len(c) - 1
            i = 1
            while i <= m and c[i] in self.board:
                j = None
                for k in range(i + 1, m + 1):
                    if c[k] not in self.board:
                        j = k
                        break
                if j is None:
                    break  # full to the edge: nothing moves
                # shift c_i … c_(j-1) one point outwards, farthest first
                for k in range(j - 1, i - 1, -1):
                    self.board[c[k + 1]] = self.board.pop(c[k])
                i = j + 1

    # ------------------------------------------------------------------ queries

    def can_bide(self):
        seat = self.current
        if self.over:
            return False
        if seat in self.owed:
            return False
        return not (self.pools[seat - 1] == 0 and self.hands[seat - 1] > 0)

    def legal_turn_starts(self):
        if self.over:
            return set()
        starts = {self.name_of[p] for p in self.empty_points()}
        if self.can_bide():
            starts.add("bide")
        return starts

    def scores_of(self, board):
        """Best group score per seat for a board dict (seat 1 first)."""
        best = [0] * self.players
        seen = set()
        for p in board:
            if p in seen:
                continue
            colour = board[p]
            group_sum = 0
            stack = [p]
            seen.add(p)
            while stack:
                x = stack.pop()
                group_sum += self.value[x]
                for dq, dr in DIRECTIONS:
                    y = (x[0] + dq, x[1] + dr)
                    if y in board and y not in seen and board[y] == colour:
                        seen.add(y)
                        stack.append(y)
            best[colour - 1] = max(best[colour - 1], group_sum)
        return best

    @property
    def scores(self):
        return tuple(self.scores_of(self.board))

    def _compute_winners(self):
        candidates = [s for s in range(1, self.players + 1) if s not in self.resigned]
        if not candidates:
            return ()
        board = dict(self.board)
        ring = 0
        while True:
            sc = self.scores_of(board)
            top = max(sc[s - 1] for s in candidates)
            candidates = [s for s in candidates if sc[s - 1] == top]
            if len(candidates) == 1 or not board:
                return tuple(sorted(candidates))
            # remove the next outer ring (values are not renumbered)
            board = {p: s for p, s in board.items() if self.value[p] != ring}
            ring += 1

    def position(self):
        return {
            "board": {self.name_of[p]: s for p, s in self.board.items()},
            "hands": list(self.hands),
            "pools": list(self.pools),
            "to_move": None if self.over else self.current,
            "owed": sorted(self.owed),
        }

    # ------------------------------------------------------------------- moves

    def _parse(self, text):
        if not isinstance(text, str):
            raise ValueError("a turn is a string")
        tokens = [t for t in text.replace(",", " ").split() if t]
        if not tokens:
            raise ValueError("empty turn")
        return [t.lower() for t in tokens]

    def apply_turn(self, text):
        """Apply one whole turn; raise ValueError (and change nothing) if it is illegal."""
        if self.over:
            raise ValueError("the game is over")
        tokens = self._parse(text)
        trial = copy.deepcopy(self)
        trial._apply_tokens(tokens)
        trial.moves.append(",".join(tokens))
        self.__dict__.update(trial.__dict__)

    def _apply_tokens(self, tokens):
        seat = self.current
        hand = self.hands[seat - 1]
        owing = seat in self.owed

        if tokens[0] in ("bide", "pass"):
            if len(tokens) != 1:
                raise ValueError("bide is a whole turn")
            if not self.can_bide():
                raise ValueError("you may not bide now")
            self._end_turn()
            return

        for t in tokens:
            if t not in self.point_of:
                raise ValueError(f"{t!r} is not a point")

        n = len(tokens)
        if n > hand:
            raise ValueError("more cells than discs in hand")
        kind = ("forced" if owing else "play") if n == 1 else "forced" if owing else "release"
        # With several discs: a release (forced or not) places every disc in the hand.
        # A seat owing a release places every disc too, even a single one.
        must_place = hand if (owing or n >= 2) else 1

        placed = 0
        for t in tokens:
            if self.board_full():
                raise ValueError("the board is already full")
            point = self.point_of[t]
            if point in self.board:
                raise ValueError(f"{t} is occupied")
            self._place(seat, point)
            self.hands[seat - 1] -= 1
            placed += 1
            if self.board_full():
                break
        if placed != n:
            raise ValueError("cells written after the board became full")

        self.owed.discard(seat)  # this turn settles the seat's own debt

        if self.board_full():
            self._finish()  # the game ends at once, even mid-release
            return

        if placed != must_place:
            raise ValueError(f"must place {must_place} discs, not {placed}")

        if kind == "release":
            for s in range(1, self.players + 1):
                if s != seat and s not in self.resigned:
                    self.owed.add(s)
        self._end_turn()

    def _end_turn(self):
        self.owed.discard(self.current)
        self._start_turn_of(self.current % self.players + 1)

    # ------------------------------------------------------------- random play

    def random_turn(self, rng: random.Random, p_bide=0.35, p_release=0.5):
        """A legal random turn (notation) for the current position."""
        assert not self.over
        seat = self.current
        hand = self.hands[seat - 1]
        owing = seat in self.owed
        if self.can_bide() and rng.random() < p_bide:
            return rng.choice(["bide", "bide", "bide", "pass"])
        count = hand if owing or (hand >= 2 and rng.random() < p_release) else 1
        sim = copy.deepcopy(self)
        cells = []
        while len(cells) < count and not sim.board_full():
            point = rng.choice(sim.empty_points())
            cells.append(sim.name_of[point])
            sim._place(seat, point)
        return ",".join(cells)
