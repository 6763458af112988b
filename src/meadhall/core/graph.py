"""Graphs: area maps with walls, hex geometry, tile networks, and shortest paths with ties.

Path functions take a ``neighbours(node)`` callback yielding ``(next_node, step_cost)``, so one
implementation serves square grids (with each game's diagonal rules), BattleForge's hex areas and
Midhalla's tiles. Where rules let players choose between equally short routes, :func:`all_shortest_paths`
and :func:`first_steps` return every option, in a deterministic order.

>>> g = AreaGraph.from_edges([("a", "b"), ("b", "d"), ("a", "c"), ("c", "d")])
>>> all_shortest_paths("a", "d", g.step)
[['a', 'b', 'd'], ['a', 'c', 'd']]
>>> sorted(first_steps("a", {"d"}, g.step))
['b', 'c']
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from itertools import count
from typing import Generic, TypeVar

N = TypeVar("N", bound=Hashable)
Neighbours = Callable[[N], Iterable[tuple[N, float]]]


def distances(start: N, neighbours: Neighbours[N], limit: float | None = None) -> dict[N, float]:
    """Cheapest cost from ``start`` to every reachable node (Dijkstra), up to ``limit``."""
    return distances_from_any([start], neighbours, limit)


def distances_from_any(starts: Iterable[N], neighbours: Neighbours[N],
                       limit: float | None = None) -> dict[N, float]:
    """Cheapest cost from the nearest of ``starts`` to every reachable node.

    With symmetric steps this is also every node's distance *to* the nearest start: one search
    from the goals serves every mover (a "distance field").

    >>> g = AreaGraph.from_edges([("a", "b"), ("b", "c"), ("c", "d")])
    >>> distances_from_any(["a", "d"], g.step)
    {'a': 0, 'd': 0, 'b': 1, 'c': 1}
    """
    tie = count()
    dist: dict[N, float] = {}
    heap: list[tuple[float, int, N]] = []
    for s in starts:
        dist[s] = 0
        heap.append((0, next(tie), s))
    while heap:
        d, _, n = heapq.heappop(heap)
        if d > dist.get(n, float("inf")):
            continue
        for m, c in neighbours(n):
            nd = d + c
            if limit is not None and nd > limit:
                continue
            if nd < dist.get(m, float("inf")):
                dist[m] = nd
                heapq.heappush(heap, (nd, next(tie), m))
    return dist


def nearest(start: N, targets: Iterable[N], neighbours: Neighbours[N]) -> tuple[float, list[N]]:
    """The cost to the closest of ``targets`` and every target at that cost (ties kept).

    Returns ``(inf, [])`` when none is reachable.
    """
    goal = set(targets)
    dist = distances(start, neighbours)
    reach = [(dist[t], t) for t in goal if t in dist]
    if not reach:
        return float("inf"), []
    best = min(d for d, _ in reach)
    return best, sorted((t for d, t in reach if d == best), key=repr)


def _predecessors(start: N, neighbours: Neighbours[N]) -> tuple[dict[N, float], dict[N, list[N]]]:
    dist: dict[N, float] = {start: 0}
    preds: dict[N, list[N]] = {start: []}
    tie = count()
    heap: list[tuple[float, int, N]] = [(0, next(tie), start)]
    done: set[N] = set()
    while heap:
        d, _, n = heapq.heappop(heap)
        if n in done:
            continue
        done.add(n)
        for m, c in neighbours(n):
            nd = d + c
            old = dist.get(m, float("inf"))
            if nd < old:
                dist[m] = nd
                preds[m] = [n]
                heapq.heappush(heap, (nd, next(tie), m))
            elif nd == old and n not in preds[m]:
                preds[m].append(n)
    return dist, preds


def all_shortest_paths(
    start: N, goal: N, neighbours: Neighbours[N], limit: int = 1000
) -> list[list[N]]:
    """Every cheapest path from ``start`` to ``goal`` (at most ``limit``), sorted by ``repr``."""
    dist, preds = _predecessors(start, neighbours)
    if goal not in dist:
        return []
    out: list[list[N]] = []

    def walk(n: N, suffix: list[N]) -> None:
        if len(out) >= limit:
            return
        if n == start:
            out.append([start, *suffix])
            return
        for p in preds[n]:
            walk(p, [n, *suffix])

    walk(goal, [])
    return sorted(out, key=lambda p: [repr(x) for x in p])


def first_steps(start: N, goals: Iterable[N], neighbours: Neighbours[N]) -> set[N]:
    """Every first step that lies on a cheapest path from ``start`` to the nearest goal(s)."""
    dist, preds = _predecessors(start, neighbours)
    goal_set = [g for g in goals if g in dist and g != start]
    if not goal_set:
        return set()
    best = min(dist[g] for g in goal_set)
    frontier = [g for g in goal_set if dist[g] == best]
    steps: set[N] = set()
    seen: set[N] = set()
    while frontier:
        n = frontier.pop()
        if n in seen:
            continue
        seen.add(n)
        for p in preds[n]:
            if p == start:
                steps.add(n)
            else:
                frontier.append(p)
    return steps


@dataclass
class AreaGraph(Generic[N]):
    """Areas joined by borders; a wall on a border blocks crossing it, inaccessible areas can
    never be entered (BattleForge's map)."""

    adjacent: dict[N, set[N]] = field(default_factory=dict)
    walls: set[frozenset[N]] = field(default_factory=set)
    inaccessible: set[N] = field(default_factory=set)

    @classmethod
    def from_edges(cls, edges: Iterable[tuple[N, N]], walls: Iterable[tuple[N, N]] = (),
                   inaccessible: Iterable[N] = ()) -> AreaGraph[N]:
        g: AreaGraph[N] = cls()
        for a, b in edges:
            g.adjacent.setdefault(a, set()).add(b)
            g.adjacent.setdefault(b, set()).add(a)
        for a, b in walls:
            g.walls.add(frozenset((a, b)))
        g.inaccessible = set(inaccessible)
        return g

    def borders(self, a: N, b: N) -> bool:
        """Do ``a`` and ``b`` share a border (walled or not)?"""
        return b in self.adjacent.get(a, ())

    def walled(self, a: N, b: N) -> bool:
        return frozenset((a, b)) in self.walls

    def open_neighbours(self, a: N) -> list[N]:
        """Areas reachable from ``a`` in one step: bordering, no wall, not inaccessible."""
        return sorted((b for b in self.adjacent.get(a, ()) if not self.walled(a, b)
                       and b not in self.inaccessible), key=repr)

    def step(self, a: N) -> Iterable[tuple[N, float]]:
        """Unit-cost neighbour callback for the path functions."""
        return ((b, 1) for b in self.open_neighbours(a))

    def walking_distance(self, a: N, b: N) -> float:
        return distances(a, self.step).get(b, float("inf"))


# Hex geometry (axial coordinates q, r); directions listed clockwise from north-east.
Hex = tuple[int, int]
HEX_DIRECTIONS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def hex_neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in HEX_DIRECTIONS]


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_line(start: Hex, direction: int, inside: Callable[[Hex], bool]) -> list[Hex]:
    """Hexes in a straight line from ``start`` (exclusive) in ``direction`` while ``inside``."""
    dq, dr = HEX_DIRECTIONS[direction % 6]
    out: list[Hex] = []
    h = (start[0] + dq, start[1] + dr)
    while inside(h):
        out.append(h)
        h = (h[0] + dq, h[1] + dr)
    return out


@dataclass
class TileNetwork:
    """Tiles joined through named connectors (Midhalla): ``links[tile][side] = (other, side)``.

    ``sides`` gives the clockwise order of connector names, used where rules go clockwise.
    """

    sides: tuple[str, ...] = ("N", "E", "S", "W")
    links: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)

    def add_tile(self, tile: str) -> None:
        self.links.setdefault(tile, {})

    def connect(self, a: str, side_a: str, b: str, side_b: str) -> None:
        for t, s in ((a, side_a), (b, side_b)):
            if s not in self.sides:
                raise ValueError(f"unknown connector side {s!r}")
            if s in self.links.get(t, {}):
                raise ValueError(f"tile {t} already has a connection on side {s}")
        self.links.setdefault(a, {})[side_a] = (b, side_b)
        self.links.setdefault(b, {})[side_b] = (a, side_a)

    def neighbours(self, tile: str) -> list[str]:
        """Connected tiles in clockwise side order."""
        links = self.links.get(tile, {})
        return [links[s][0] for s in self.sides if s in links]

    def clockwise_from(self, tile: str, entry_side: str) -> list[tuple[str, str]]:
        """Other connections of ``tile`` in clockwise order starting after ``entry_side``."""
        links = self.links.get(tile, {})
        i = self.sides.index(entry_side)
        order = self.sides[i + 1:] + self.sides[:i]
        return [(s, links[s][0]) for s in order if s in links]

    def step(self, tile: str) -> Iterable[tuple[str, float]]:
        return ((t, 1) for t in self.neighbours(tile))

    def distance(self, a: str, b: str) -> float:
        return distances(a, self.step).get(b, float("inf"))
