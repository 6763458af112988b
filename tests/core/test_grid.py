"""Square-grid geometry on hand-checked cases (drawn on squared paper)."""

from __future__ import annotations

import pytest

from meadhall.core import grid
from meadhall.core.grid import edge, line_of_sight, sq, trace


def test_square_names_round_trip() -> None:
    for s in [(0, 0), (4, 4), (25, 9), (26, 0), (51, 99)]:
        assert sq(grid.name(s)) == s
    assert grid.name((26, 0)) == "AA1"
    with pytest.raises(ValueError, match="square name"):
        sq("5E")


def test_adjacency_and_distances() -> None:
    a = sq("C3")
    assert set(grid.neighbours(a)) == {sq("C2"), sq("D3"), sq("C4"), sq("B3")}
    assert len(set(grid.neighbours(a, diagonal=True))) == 8
    assert grid.is_diagonal(a, sq("D4")) and not grid.is_orthogonal(a, sq("D4"))
    assert grid.manhattan(sq("A1"), sq("D3")) == 5  # orthogonal steps; a diagonal counts as 2
    assert grid.diagonal_as_two(sq("A1"), sq("B2")) == 2
    assert grid.chebyshev(sq("A1"), sq("D3")) == 3
    assert set(grid.side_squares(sq("B2"), sq("C3"))) == {sq("C2"), sq("B3")}


def test_straight_lines_pass_every_square_between() -> None:
    t = trace(sq("A1"), sq("A4"))
    assert t.squares == (sq("A1"), sq("A2"), sq("A3"), sq("A4"))
    assert t.between == (sq("A2"), sq("A3"))
    assert t.corners == ()


def test_exact_diagonal_touches_only_corners_of_side_squares() -> None:
    t = trace(sq("A1"), sq("C3"))
    assert t.squares == (sq("A1"), sq("B2"), sq("C3"))
    assert t.corners == ((sq("A2"), sq("B1")), (sq("B3"), sq("C2")))


def test_knight_like_line_passes_through_a_grid_point() -> None:
    # From A1 centre (1,1) to D2 centre (7,3) in doubled coordinates: slope 1/3 passes the
    # grid point (4,2) between B1/C2 ... checked on paper: squares A1, B1, C2, D2.
    t = trace(sq("A1"), sq("D2"))
    assert t.squares == (sq("A1"), sq("B1"), sq("C2"), sq("D2"))
    assert t.corners == ((sq("B2"), sq("C1")),)


def test_shallow_line_enters_squares_without_corners() -> None:
    # A1 → C2: passes A1, B1, B2, C2; the point (2,1)→ no grid point on the way.
    t = trace(sq("A1"), sq("C2"))
    assert t.squares == (sq("A1"), sq("B1"), sq("B2"), sq("C2"))
    assert t.corners == ()


def test_trace_is_symmetric_as_a_set() -> None:
    for a, b in [("A1", "E3"), ("B7", "F2"), ("C3", "C3"), ("A1", "D4")]:
        t1, t2 = trace(sq(a), sq(b)), trace(sq(b), sq(a))
        assert set(t1.squares) == set(t2.squares)
        assert set(t1.corners) == set(t2.corners)


def test_los_ignores_corner_touches_by_default() -> None:
    # Niflheim: "If a LOS only hits the corner of a square, that square is not considered."
    blocked = {sq("A2"), sq("B1")}
    assert line_of_sight(sq("A1"), sq("C3"), lambda s: s in blocked)


def test_los_between_two_blocked_squares_is_blocked_when_both_count() -> None:
    # Runaljod: a line passing between two blocked squares is blocked.
    blocked = {sq("A2"), sq("B1")}
    sight = line_of_sight(sq("A1"), sq("C3"), lambda s: s in blocked, corners="both")
    assert not sight and "between" in sight.reason
    assert line_of_sight(sq("A1"), sq("C3"), lambda s: s == sq("A2"), corners="both")
    assert not line_of_sight(sq("A1"), sq("C3"), lambda s: s == sq("A2"), corners="either")


def test_los_blocked_by_a_square_on_the_line() -> None:
    sight = line_of_sight(sq("A1"), sq("E1"), lambda s: s == sq("C1"))
    assert not sight and sight.blocker == sq("C1")
    assert "C1" in sight.reason


def test_ends_never_block_their_own_line() -> None:
    assert line_of_sight(sq("A1"), sq("B1"), lambda s: True)


def test_walls_on_edges_block_lines_that_cross_them() -> None:
    wall = edge(sq("B1"), sq("C1"))
    assert not line_of_sight(sq("A1"), sq("D1"), lambda s: False, walls=[wall])
    assert line_of_sight(sq("A2"), sq("D2"), lambda s: False, walls=[wall])
    # A diagonal through the wall's end point only touches it.
    wall2 = edge(sq("A1"), sq("B1"))
    assert line_of_sight(sq("A2"), sq("B1"), lambda s: False, walls=[wall2])
    assert not line_of_sight(sq("A2"), sq("B1"), lambda s: False, walls=[wall2], corners="either")
    assert line_of_sight(sq("A1"), sq("B2"), lambda s: False, walls=[wall2])
    with pytest.raises(ValueError):
        edge(sq("A1"), sq("B2"))


def test_walls_meeting_at_a_corner_block_the_diagonal_when_corners_count() -> None:
    walls = [edge(sq("A1"), sq("B1")), edge(sq("A1"), sq("A2"))]
    assert line_of_sight(sq("A1"), sq("B2"), lambda s: False, walls=walls)
    assert not line_of_sight(sq("A1"), sq("B2"), lambda s: False, walls=walls, corners="both")
