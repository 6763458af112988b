"""The dungeon: map tiles on a grid joined through connectors, and the tile activation order.

Sections: "Placing Map Tiles", "Tile Activation Order (TAO)", "Range".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

SIDES = ("N", "E", "S", "W")
"""Clockwise, starting at the top: the order of TAO check 2 (top -> right -> bottom -> left)."""
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
GATE = "G"


def rotate(side: str, quarter_turns: int) -> str:
    """A side turned clockwise by ``quarter_turns``."""
    return SIDES[(SIDES.index(side) + quarter_turns) % 4]


@dataclass(frozen=True)
class Tile:
    """A map tile on the table: grid position, path letters by side, what lies on it.

    Immutable (``__shared__``): clones and the 3.3 snapshot share tiles, and a change puts a
    new tile in the state's ``tiles`` (``dataclasses.replace``); its dicts are never edited in
    place either, so copying a position copies no tile."""

    __shared__ = True

    id: str
    x: int
    y: int
    paths: dict[str, str] = field(default_factory=dict)
    """Path letters by absolute side (unexplored while no tile is linked on that side)."""
    links: dict[str, str] = field(default_factory=dict)
    fortified: bool = False
    curses: int = 0
    token: str | None = None
    """Spawn token: plus1, elite or none."""

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"at": [self.x, self.y]}
        if self.paths:
            d["paths"] = dict(self.paths)
        if self.links:
            d["links"] = dict(self.links)
        if self.fortified:
            d["fortified"] = True
        if self.curses:
            d["curses"] = self.curses
        if self.token:
            d["token"] = self.token
        return d

    @classmethod
    def from_json(cls, tid: str, d: dict[str, Any]) -> Tile:
        x, y = d["at"]
        return cls(tid, int(x), int(y), dict(d.get("paths", {})), dict(d.get("links", {})),
                   bool(d.get("fortified", False)), int(d.get("curses", 0)), d.get("token"))


class Topology:
    """The shape of the dungeon (which tile links to which), with every answer that depends
    only on it computed once: neighbours, distance fields, ranges, steps toward the gate and
    the tile activation order. Immutable once built and shared by clones (``__shared__``);
    the state builds a new one whenever a tile is placed or a position is loaded."""

    __shared__ = True

    def __init__(self, tiles: dict[str, Tile]) -> None:
        self.adj: dict[str, tuple[str, ...]] = {
            tid: tuple(t.links[s] for s in SIDES if s in t.links) for tid, t in tiles.items()}
        self._dist: dict[str, dict[str, int]] = {}
        self._within: dict[tuple[str, int | str], frozenset[str]] = {}
        self._steps: dict[str, tuple[str, ...]] = {}
        self._tao: tuple[str, ...] | None = None

    def neighbours(self, tid: str) -> tuple[str, ...]:
        """Linked tiles in clockwise order from the top."""
        return self.adj[tid]

    def distances_from(self, tid: str) -> dict[str, int]:
        """Map tiles reachable from ``tid`` by their distance in tiles (breadth first)."""
        d = self._dist.get(tid)
        if d is None:
            d = {tid: 0}
            frontier = [tid]
            adj = self.adj
            while frontier:
                nxt = []
                for n in frontier:
                    k = d[n] + 1
                    for m in adj.get(n, ()):
                        if m not in d:
                            d[m] = k
                            nxt.append(m)
                frontier = nxt
            self._dist[tid] = d
        return d

    def distance(self, a: str, b: str) -> float:
        return self.distances_from(a).get(b, float("inf"))

    def within(self, tid: str, rng: int | str) -> frozenset[str]:
        """Tiles in range: the same tile, up to ``rng`` tiles away, or anywhere (Range)."""
        key = (tid, rng)
        w = self._within.get(key)
        if w is None:
            if rng == "anywhere":
                w = frozenset(self.adj)
            else:
                r = int(rng)
                w = frozenset(t for t, d in self.distances_from(tid).items() if d <= r)
            self._within[key] = w
        return w

    def steps_toward_gate(self, tid: str) -> tuple[str, ...]:
        """Every first step on a shortest way to the gate, clockwise from the top."""
        steps = self._steps.get(tid)
        if steps is None:
            to_gate = self.distances_from(GATE) if GATE in self.adj else {}
            here = to_gate.get(tid)
            steps = () if not here else tuple(
                n for n in self.adj[tid] if to_gate.get(n) == here - 1)
            self._steps[tid] = steps
        return steps

    def tao(self) -> tuple[str, ...]:
        """Tile activation order: gate first, then TAO checks 1-3 (depth first, clockwise
        from the top at junctions, back to the last junction at dead ends)."""
        if self._tao is not None:
            return self._tao
        if GATE not in self.adj:
            self._tao = tuple(sorted(self.adj))
            return self._tao
        order = [GATE]
        seen = {GATE}
        trail = [GATE]  # the way back to earlier junctions (TAO check 3)
        while trail:
            here = trail[-1]
            options = [n for n in self.adj[here] if n not in seen]
            if not options:
                trail.pop()  # check 3: go back
                continue
            nxt = options[0]  # check 1 (one option) or check 2 (first clockwise from the top)
            order.append(nxt)
            seen.add(nxt)
            trail.append(nxt)
        # Tiles not connected to the gate (never in printed maps) come last, by id.
        order.extend(sorted(t for t in self.adj if t not in seen))
        self._tao = tuple(order)
        return self._tao


class Board:
    """Helpers over ``tiles`` (a dict kept in the state): placement, unexplored paths,
    fortification, and the :class:`Topology` answers (adjacency, TAO, distances).

    Not the kernel's ``TileNetwork``: tiles here also carry grid positions (for placement and
    rendering), and TAO check 2 orders a junction from the top (top, right, bottom, left), not
    clockwise from the side the order came in by (``TileNetwork.clockwise_from``)."""

    def __init__(self, tiles: dict[str, Tile], topology: Topology | None = None) -> None:
        self.tiles = tiles
        self.topo = topology or Topology(tiles)

    def neighbours(self, tid: str) -> list[str]:
        """Linked tiles in clockwise order from the top."""
        return list(self.topo.neighbours(tid))

    def distances_from(self, tid: str) -> dict[str, int]:
        return self.topo.distances_from(tid)

    def distance(self, a: str, b: str) -> float:
        return self.topo.distance(a, b)

    def within(self, tid: str, rng: int | str) -> set[str]:
        """Tiles in range: the same tile, up to ``rng`` tiles away, or anywhere (Range)."""
        return set(self.topo.within(tid, rng))

    def steps_toward_gate(self, tid: str) -> list[str]:
        """Every first step on a shortest way to the gate, clockwise from the top."""
        return list(self.topo.steps_toward_gate(tid))

    def unexplored(self) -> list[tuple[str, str, str]]:
        """(letter, tile, side) of every path with no map tile attached, by letter."""
        out = [(letter, t.id, side) for t in self.tiles.values()
               for side, letter in t.paths.items() if side not in t.links]
        return sorted(out)

    def place(self, tid: str, at_tile: str, side: str, attach: str,
              paths: dict[str, str]) -> Tile:
        """Place a tile so that its numbered side touches ``side`` of ``at_tile``
        (Placing Map Tiles); paths turn with the tile."""
        base = self.tiles[at_tile]
        dx, dy = DELTA[side]
        x, y = base.x + dx, base.y + dy
        for t in self.tiles.values():
            if (t.x, t.y) == (x, y):
                raise ValueError(f"map tile {tid} would overlap map tile {t.id} at ({x}, {y})")
        facing = OPPOSITE[side]
        turns = (SIDES.index(facing) - SIDES.index(attach)) % 4
        new = Tile(tid, x, y, {rotate(s, turns): letter for s, letter in paths.items()},
                   {facing: at_tile})
        self.tiles[at_tile] = replace(base, links={**base.links, side: tid})
        self.tiles[tid] = new
        return new

    def tao(self) -> list[str]:
        """Tile activation order (:meth:`Topology.tao`)."""
        return list(self.topo.tao())

    def adjacent_to_fortified(self, tid: str) -> bool:
        return any(self.tiles[n].fortified for n in self.topo.neighbours(tid))
