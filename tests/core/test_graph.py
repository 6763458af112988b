"""Shortest paths with ties, area graphs with walls, hexes and tile networks."""

from __future__ import annotations

from meadhall.core import grid
from meadhall.core.graph import (
    AreaGraph,
    TileNetwork,
    all_shortest_paths,
    distances,
    first_steps,
    hex_distance,
    hex_line,
    hex_neighbours,
    nearest,
)


def open_grid(width: int, height: int, blocked: set[grid.Sq] = frozenset()):  # type: ignore[assignment]
    def step(s: grid.Sq):
        for n in grid.neighbours(s):
            if grid.in_bounds(n, width, height) and n not in blocked:
                yield n, 1

    return step


def test_equal_length_ties_are_all_returned() -> None:
    step = open_grid(3, 3)
    paths = all_shortest_paths((0, 0), (1, 1), step)
    assert paths == [[(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (1, 1)]]
    assert first_steps((0, 0), {(2, 2)}, step) == {(1, 0), (0, 1)}


def test_first_steps_toward_several_equally_near_goals() -> None:
    step = open_grid(5, 1)
    assert first_steps((2, 0), {(0, 0), (4, 0)}, step) == {(1, 0), (3, 0)}
    assert first_steps((2, 0), {(0, 0), (3, 0)}, step) == {(3, 0)}


def test_obstacles_lengthen_paths_and_unreachable_goals_give_nothing() -> None:
    step = open_grid(3, 3, {(1, 0), (1, 1)})
    assert distances((0, 0), step)[(2, 0)] == 6
    walled = open_grid(3, 1, {(1, 0)})
    assert first_steps((0, 0), {(2, 0)}, walled) == set()
    assert nearest((0, 0), [(2, 0)], walled) == (float("inf"), [])


def test_pluggable_step_costs() -> None:
    def step(s: grid.Sq):
        for n in grid.neighbours(s, diagonal=True):
            if grid.in_bounds(n, 3, 3):
                yield n, 2 if grid.is_diagonal(s, n) else 1

    assert distances((0, 0), step)[(2, 2)] == 4
    assert len(all_shortest_paths((0, 0), (1, 1), step)) == 3


def test_area_graph_walls_and_inaccessible_areas() -> None:
    g = AreaGraph.from_edges([("a", "b"), ("b", "c"), ("a", "d"), ("d", "c")],
                             walls=[("b", "c")], inaccessible=["d"])
    assert g.borders("b", "c") and g.walled("b", "c")
    assert g.open_neighbours("b") == ["a"]
    assert g.walking_distance("a", "c") == float("inf")


def test_hex_geometry() -> None:
    assert hex_distance((0, 0), (2, -1)) == 2
    assert all(hex_distance((0, 0), h) == 1 for h in hex_neighbours((0, 0)))
    assert hex_line((0, 0), 1, lambda h: h[0] <= 3) == [(1, 0), (2, 0), (3, 0)]


def test_tile_network_clockwise_order() -> None:
    t = TileNetwork()
    t.connect("gate", "N", "t1", "S")
    t.connect("t1", "E", "t2", "W")
    t.connect("t1", "W", "t3", "E")
    t.connect("t1", "N", "t4", "S")
    assert t.neighbours("t1") == ["t4", "t2", "gate", "t3"]
    assert t.clockwise_from("t1", "S") == [("W", "t3"), ("N", "t4"), ("E", "t2")]
    assert t.distance("gate", "t2") == 2
