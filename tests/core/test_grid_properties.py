"""Properties of the exact line trace, checked on many random lines (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from meadhall.core import grid

coord = st.tuples(st.integers(0, 14), st.integers(0, 14))


@given(coord, coord)
def test_trace_is_a_connected_chain_from_start_to_end(a: grid.Sq, b: grid.Sq) -> None:
    t = grid.trace(a, b)
    assert t.squares[0] == a and t.squares[-1] == b
    for p, q in zip(t.squares, t.squares[1:], strict=False):
        # consecutive squares share an edge, or a corner the line passes exactly through
        assert grid.is_orthogonal(p, q) or (grid.is_diagonal(p, q) and any(
            {p, q}.isdisjoint(pair) and len({*pair, p, q}) == 4 for pair in t.corners))


@given(coord, coord)
def test_corner_only_squares_are_never_passed_through(a: grid.Sq, b: grid.Sq) -> None:
    t = grid.trace(a, b)
    passed = set(t.squares)
    for pair in t.corners:
        assert passed.isdisjoint(pair)


@given(coord, coord)
def test_crossed_edges_join_consecutive_squares(a: grid.Sq, b: grid.Sq) -> None:
    t = grid.trace(a, b)
    ortho_steps = {frozenset((p, q)) for p, q in zip(t.squares, t.squares[1:], strict=False)
                   if grid.is_orthogonal(p, q)}
    assert set(t.edges) == ortho_steps
