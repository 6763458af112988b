"""The fast line walk agrees with a slow, obviously-correct reference on every pair of squares."""

from __future__ import annotations

from fractions import Fraction

from meadhall.core import grid


def reference(a: grid.Sq, b: grid.Sq) -> tuple[set, set]:
    """Squares whose open interior the segment enters, and squares touched only at a corner,
    by testing every square of the bounding box with exact fractions."""
    x0, y0, x1, y1 = 2 * a[0] + 1, 2 * a[1] + 1, 2 * b[0] + 1, 2 * b[1] + 1
    dx, dy = x1 - x0, y1 - y0

    def slab(lo: int, p0: int, d: int):  # type: ignore[no-untyped-def]
        if d == 0:
            return (Fraction(-1), Fraction(2)) if lo < p0 < lo + 2 else None
        t1, t2 = Fraction(lo - p0, d), Fraction(lo + 2 - p0, d)
        return (min(t1, t2), max(t1, t2))

    passed = set()
    for i in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for j in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            sx, sy = slab(2 * i, x0, dx), slab(2 * j, y0, dy)
            if sx and sy and max(sx[0], sy[0], 0) < min(sx[1], sy[1], 1):
                passed.add((i, j))
    corner = set()
    for gx in range(min(a[0], b[0]) + 1, max(a[0], b[0]) + 1):
        for gy in range(min(a[1], b[1]) + 1, max(a[1], b[1]) + 1):
            if (2 * gx - x0) * dy == (2 * gy - y0) * dx:
                around = {(gx - 1, gy - 1), (gx, gy - 1), (gx - 1, gy), (gx, gy)}
                corner |= around - passed
    return passed, corner


def test_walk_matches_reference_on_all_pairs_of_a_9x9_board() -> None:
    cells = [(x, y) for x in range(9) for y in range(9)]
    for a in cells:
        for b in cells:
            t = grid.trace(a, b)
            passed, corner = reference(a, b)
            assert set(t.squares) == passed, (a, b)
            assert {s for pair in t.corners for s in pair} == corner, (a, b)
