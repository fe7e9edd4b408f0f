"""Bump rules that `make mutation` found unpinned (docs/testing.md, "Mutation testing")."""

from __future__ import annotations

import pytest

from games.bump import Bump
from games.bumpboard import C1, INDEX
from games.bumpresolve import ChoicePoint
from games.interface import IllegalMove, StateError


def finished_position() -> dict:
    game = Bump(2, Bump.info.resolve_options({}))
    game.resign(1)
    return game.position()


@pytest.mark.parametrize("winners", [[3], [0], [1, 2], [2, 2], "2", 2])
def test_a_finished_position_names_one_winning_seat_1_or_2_or_none(winners):
    """bump ``from_position`` 158 (a seat that is not 1 or 2) and 162 (two winners)."""
    position = finished_position()
    with pytest.raises(StateError, match="^winners lists one seat, or none for a draw$"):
        Bump.from_position(2, {}, {**position, "winners": winners})
    assert Bump.from_position(2, {}, position).winners == (2,)


def test_a_move_naming_no_space_is_refused_with_the_spaces_reason():
    """bump ``parse_action`` 57: the refusal keeps the space parser's words."""
    game = Bump(2, Bump.info.resolve_options({}))
    with pytest.raises(IllegalMove, match="^'zz' is not a space: write C1, C2 or digits"):
        game.parse_action("zz,04")
    with pytest.raises(IllegalMove, match="^99 is not a space: the axis 9 does not exist"):
        game.parse_action("03,99-0")


def test_a_choice_towards_the_space_c1_is_labelled_c1_and_only_the_wall_is_x():
    """bumpresolve ``ChoicePoint.label`` 11: C1 is space 0, a space like any other."""
    assert C1 == 0
    point = ChoicePoint(INDEX["011"], ((1, C1), (2, -1), (4, INDEX["02"])), (False, True, False), 1)
    assert [point.label(d) for d in (1, 2, 4)] == point.labels() == ["C1", "x", "02"]
    with pytest.raises(KeyError):
        point.label(3)
