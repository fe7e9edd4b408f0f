"""Begird's tactics for the prover: threats, double threats and the replies that can stop them.

Three facts of the rules (RULES.md §2, games/begird.py) make the search exact and cheap:

1. **A stone wins only by joining a group**: a cell wins for a colour when its own islands and those of
   the colour's groups next to it make a winning set. So a *threat* (a winning cell) lies next to that
   colour's stones, and a stone creates new threats only next to the group it makes.
2. **The other colour's stones never help**: they only take cells. A threat is stopped only by taking its
   cell (or by winning first), and whatever the attacker can force after a defender's stone it could force
   without it (the *null move* is an upper bound). So a turn that threatens nothing wins in three only if
   the attacker, moving again at once, would have a double threat (checked exactly, never guessed).
3. **Two threats cannot both be stopped** by one stone: a double threat wins next turn unless the
   defender wins first.

The search goes at most three of the attacker's turns deep (:data:`MOST_TURNS`): a win at once, a double
threat (win in 2), or a forcing turn or quiet set-up followed by a double threat (win in 3). The defender's
replies it tries are exactly those the rules leave any chance: its own winning cell, a block of every threat
(if there is one), and, against a coming double threat, the cells of those double threats (the stone that
would make one, or one of its two threats) and the defender's own forcing stones (those that threaten a
win, which the attacker must answer). Every other reply loses within the horizon by fact 2.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from games.begird import Begird, Layout

from .budget import Meter
from .prover import Verdict

#: The longest horizon (the attacker's turns) this module proves.
MOST_TURNS = 3


class Groups:
    """One colour's groups on a Begird board (a pure function of the cells): which group each stone is
    in, the islands each group touches, each group's empty neighbours."""

    __slots__ = ("cells", "colour", "empties", "group", "layout", "libs", "masks", "reach_of")

    def __init__(self, lay: Layout, cells: Sequence[int], colour: int) -> None:
        self.layout = lay
        self.cells = cells
        self.colour = colour
        nbrs = lay.neighbours
        cell_masks = lay.cell_masks
        group = [-1] * len(cells)
        masks: list[int] = []
        libs: list[set[int]] = []
        for start, owner in enumerate(cells):
            if owner != colour or group[start] >= 0:
                continue
            ident = len(masks)
            group[start] = ident
            stack = [start]
            mask = 0
            empty: set[int] = set()
            while stack:
                p = stack.pop()
                mask |= cell_masks[p]
                for n in nbrs[p]:
                    v = cells[n]
                    if v == colour:
                        if group[n] < 0:
                            group[n] = ident
                            stack.append(n)
                    elif not v:
                        empty.add(n)
            masks.append(mask)
            libs.append(empty)
        self.group = group
        self.masks = masks
        self.libs = libs
        self.empties = [i for i, v in enumerate(cells) if not v]
        self.reach_of: dict[int, int] = {}

    def reach(self, cell: int) -> int:
        """The islands a stone of this colour on empty ``cell`` would have in its group."""
        found = self.reach_of.get(cell)
        if found is None:
            found = self.layout.cell_masks[cell]
            group, masks = self.group, self.masks
            for n in self.layout.neighbours[cell]:
                g = group[n]
                if g >= 0:
                    found |= masks[g]
            self.reach_of[cell] = found
        return found

    def winning_cells(self) -> list[int]:
        """The empty cells where a stone of this colour wins at once."""
        table = self.layout.win_table
        near: set[int] = set()
        for empty in self.libs:
            near |= empty
        return sorted(c for c in near if table[self.reach(c)])

    def threats_after(self, stone: int, existing: Sequence[int], enough: int = 99) -> list[int]:
        """The winning cells after a stone of this colour on empty ``stone`` (``existing``: the winning
        cells now), up to ``enough`` of them.

        A cell's reach changes only if it is next to ``stone`` or to a group the stone joins, so the other
        winning cells are those of now.
        """
        lay = self.layout
        table = lay.win_table
        cell_masks = lay.cell_masks
        nbrs = lay.neighbours
        group, masks, cells = self.group, self.masks, self.cells
        joined = {group[n] for n in nbrs[stone] if group[n] >= 0}
        merged = cell_masks[stone]
        for g in joined:
            merged |= masks[g]
        near = {n for n in nbrs[stone] if not cells[n]}
        for g in joined:
            near |= self.libs[g]
        near.discard(stone)
        found = [c for c in existing if c != stone and c not in near]
        # Fast refusal: even every nearby cell's islands together do not win.
        potential = merged
        for c in near:
            potential |= self.reach(c)
        if not table[potential]:
            return found[:enough]
        for c in sorted(near):
            if len(found) >= enough:
                break
            mask = cell_masks[c] | merged  # next to the stone or to a group it joins: in its group
            for n in nbrs[c]:
                g = group[n]
                if g >= 0 and g not in joined:
                    mask |= masks[g]
            if table[mask]:
                found.append(c)
        return found[:enough]

    def double_threats(self, existing: Sequence[int], meter: Meter) -> dict[int, list[int]]:
        """Each empty cell where this colour's stone makes two or more winning cells, with those cells."""
        out = {}
        for stone in self.empties:
            meter.tick()
            found = self.threats_after(stone, existing)
            if len(found) >= 2:
                out[stone] = found
        return out


def with_stone(cells: Sequence[int], cell: int, colour: int) -> list[int]:
    placed = list(cells)
    placed[cell] = colour
    return placed


class BegirdTactics:
    """Forced wins in Begird for ``attacker`` (a colour), up to :data:`MOST_TURNS` turns."""

    wins_on_reply = False

    def __init__(self, attacker: int) -> None:
        self.attacker = attacker
        self.defender = 3 - attacker

    # -- what the prover calls ---------------------------------------------------------------

    def attacker_turns(self, state: Begird, turns: int, meter: Meter) -> list[int]:
        lay = state.layout
        mine = Groups(lay, state.cells, self.attacker)
        wins = mine.winning_cells()
        if wins or turns <= 1:
            return wins
        theirs = Groups(lay, state.cells, self.defender)
        threats = theirs.winning_cells()
        if len(threats) >= 2:
            return []  # one stone blocks one of them: the defender wins next
        if threats:
            return threats  # the only turn that does not lose at once
        if turns > MOST_TURNS:
            return list(mine.empties)
        doubles: list[int] = []
        singles: list[int] = []
        quiet: list[int] = []
        for stone in mine.empties:
            meter.tick()
            count = len(mine.threats_after(stone, (), enough=2))
            (doubles if count >= 2 else singles if count == 1 else quiet).append(stone)
        if turns == 2:
            return doubles
        # A quiet stone wins in three only if the attacker, moving again at once, would have a double threat.
        setups = [
            stone
            for stone in quiet
            if Groups(lay, with_stone(state.cells, stone, self.attacker), self.attacker).double_threats((), meter)
        ]
        return doubles + singles + setups

    def defender_replies(self, state: Begird, turns: int, meter: Meter) -> list[int]:
        lay = state.layout
        theirs = Groups(lay, state.cells, self.defender)
        own_wins = theirs.winning_cells()
        if own_wins:
            return own_wins[:1]
        mine = Groups(lay, state.cells, self.attacker)
        threats = mine.winning_cells()
        if threats:
            return threats  # each blocks one; the attacker wins with any other
        if turns <= 1 or turns > MOST_TURNS - 1:
            # No threat: nothing the defender plays gives the attacker a win at once (fact 2), so any reply
            # refutes a win in one. Beyond the horizon: every reply.
            return mine.empties[:1] if turns <= 1 else list(mine.empties)
        doubles = mine.double_threats((), meter)
        if not doubles:
            return mine.empties[:1]  # no double threat now, none after any reply (fact 2)
        kills: set[int] = set()
        for stone, made in doubles.items():
            kills.add(stone)
            if len(made) == 2:
                kills.update(made)
        forcing = []
        for stone in theirs.empties:
            meter.tick()
            if theirs.threats_after(stone, (), enough=1):
                forcing.append(stone)
        both = [c for c in forcing if c in kills]
        return both + sorted(kills.difference(both)) + [c for c in forcing if c not in kills]

    def play(self, state: Begird, move: int) -> Begird:
        after = state.copy()
        after.apply_quiet(move)
        if not after.is_over:
            after.end_turn_quiet()
        return after

    def verdict(self, state: Begird) -> Verdict:
        if not state.is_over:
            return Verdict.OPEN
        return Verdict.WIN if state.winners == (self.attacker,) else Verdict.LOSS

    def key(self, state: Begird) -> Hashable:
        return (bytes(state.cells), state.to_move)

    def notation(self, state: Begird, move: int) -> str:
        return state.format_action(move)

    def resistance(self, state: Begird, winners: Sequence[int]) -> float:
        return -float(len(winners))  # a block that leaves fewer winning cells is the harder defence
