"""The scenario map: terrain, doors, red lines, line of sight and the geometry both heroes and
undead use (sections Terrain, Line of Sight, Adjacency).

A :class:`Board` is immutable and interned: every state, clone and replay with the same terrain
and red lines shares one object, with its neighbour tables built once and its line-of-sight
answers and distance fields remembered. Opening a door gives another board.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from meadhall.core import grid
from meadhall.core.grid import Sq

if TYPE_CHECKING:
    from meadhall.games.niflheim.content import ScenarioData

CLEAR = frozenset(".")
HINDERING = frozenset("%")
FIRE = frozenset("^")
BLOCKS_LOS = frozenset("#+L")
BLOCKS_MOVE = frozenset("#+L:")
DOORS = frozenset("+/L")
UNDEAD_TERRAIN = frozenset("./")
"""Undead may not move into obstructive or hindering terrain (nor fire)."""

sq = lru_cache(maxsize=8192)(grid.sq)
""":func:`grid.sq`, remembered (action texts name the same squares over and over)."""
name = lru_cache(maxsize=8192)(grid.name)
""":func:`grid.name`, remembered."""

class Layout:
    """What a scenario's content lays out, parsed once and shared by every state playing it:
    its opening board, the squares of its markers, special figures and exits, and the start
    squares of the party (Setup)."""

    __shared__ = True
    __slots__ = ("board", "face_down", "orange", "items", "figures", "figure_squares",
                 "specials", "exits", "party")

    board: Board
    face_down: tuple[Sq, ...]
    orange: tuple[tuple[Sq, str], ...]
    items: tuple[tuple[Sq, tuple[str, ...]], ...]
    figures: tuple[tuple[str, Sq], ...]
    """Special squares holding a figure (the Jarl, a prisoner): (label, square)."""
    figure_squares: frozenset[Sq]
    specials: dict[str, Sq]
    exits: tuple[tuple[Sq, str], ...]
    party: tuple[Sq, ...]
    """Where the party is placed: V, then the free squares orthogonally adjacent to it, then
    the diagonal ones (see rulings), on the opening board."""

    def __init__(self, sc: ScenarioData) -> None:
        self.board = Board(sc.map, [grid.edge(grid.sq(a), grid.sq(b)) for a, b in sc.walls])
        self.face_down = tuple(grid.sq(q) for q in sc.face_down)
        self.orange = tuple((grid.sq(q), kind) for q, kind in sc.orange.items())
        self.items = tuple((grid.sq(q), tuple(v)) for q, v in sc.items.items())
        self.specials = {label: grid.sq(sp.square) for label, sp in sc.specials.items()}
        self.figures = tuple((label, self.specials[label])
                             for label, sp in sc.specials.items() if sp.figure)
        self.figure_squares = frozenset(q for _, q in self.figures)
        self.exits = tuple((grid.sq(e.square), e.direction) for e in sc.exits)
        self.party = self.start_squares(self.board, grid.sq(sc.start))

    def start_squares(self, board: Board, v: Sq) -> tuple[Sq, ...]:
        """V and the free squares around it on ``board``, orthogonal first (Setup)."""
        def free(q: Sq) -> bool:
            return board.inside(q) and not board.blocks_move(q) \
                and q not in self.figure_squares

        spots = [v] + [q for q in grid.neighbours(v) if free(q)]
        spots += [q for q in grid.neighbours(v, diagonal=True) if q not in spots and free(q)]
        return tuple(spots)


_LAYOUTS: dict[int, tuple[ScenarioData, Layout]] = {}


def layout(sc: ScenarioData) -> Layout:
    """The scenario's :class:`Layout`, built once per content object."""
    got = _LAYOUTS.get(id(sc))
    if got is None or got[0] is not sc:
        if len(_LAYOUTS) > 256:
            _LAYOUTS.clear()
        got = _LAYOUTS[id(sc)] = (sc, Layout(sc))
    return got[1]


def special_figures(sc: ScenarioData) -> tuple[tuple[str, Sq], ...]:
    """The scenario's special squares holding a figure (the Jarl, a prisoner), parsed once."""
    return layout(sc).figures


_BOARDS: dict[tuple[tuple[str, ...], frozenset[grid.Edge]], Board] = {}
CACHE_LIMIT = 50_000


class Board:
    """Terrain rows and the red-line walls on edges, with geometry tables (immutable)."""

    __shared__ = True
    __slots__ = ("rows", "walls", "width", "height", "terrain", "n4", "n8", "near", "cache")

    rows: tuple[str, ...]
    walls: frozenset[grid.Edge]
    terrain: dict[Sq, str]
    n4: dict[Sq, tuple[Sq, ...]]
    """Orthogonal neighbours on the map, in the order N, E, S, W."""
    n8: dict[Sq, tuple[Sq, ...]]
    """All eight neighbours on the map (orthogonal first, as :func:`grid.neighbours`)."""
    near: dict[Sq, tuple[Sq, ...]]
    """Adjacent squares (orthogonal, on the map) not behind a red line: a red line blocks
    movement and attacks, so figures on its two sides are not adjacent (see rulings)."""
    cache: dict[Any, Any]
    """Answers that depend only on this board (line of sight, distance fields)."""

    def __new__(cls, rows: Iterable[str], walls: Iterable[grid.Edge] = ()) -> Board:
        key = (tuple(rows), frozenset(walls))
        got = _BOARDS.get(key)
        if got is not None:
            return got
        if len(_BOARDS) > 2_000:
            _BOARDS.clear()
        b = object.__new__(cls)
        b.rows, b.walls = key
        b.height = len(b.rows)
        b.width = len(b.rows[0]) if b.rows else 0
        b.terrain = {(x, y): ch for y, row in enumerate(b.rows) for x, ch in enumerate(row)}
        inside = b.terrain
        b.n4 = {q: tuple(n for n in grid.neighbours(q) if n in inside) for q in inside}
        b.n8 = {q: tuple(n for n in grid.neighbours(q, diagonal=True) if n in inside)
                for q in inside}
        b.near = {q: tuple(n for n in ns if frozenset((q, n)) not in b.walls)
                  for q, ns in b.n4.items()} if b.walls else b.n4
        b.cache = {}
        _BOARDS[key] = b
        return b

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board, (self.rows, self.walls))

    def clone(self) -> Board:
        return self

    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def remember(self, key: Any, value: Any) -> Any:
        """Keep a derived answer in :attr:`cache` (bounded)."""
        if len(self.cache) > CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = value
        return value

    def inside(self, s: Sq) -> bool:
        return s in self.terrain

    def at(self, s: Sq) -> str:
        """Terrain character of a square; off the map reads as wall."""
        return self.terrain.get(s, "#")

    def with_square(self, s: Sq, ch: str) -> Board:
        """The board with one square changed (a door opened, closed or forced)."""
        row = self.rows[s[1]]
        rows = list(self.rows)
        rows[s[1]] = row[: s[0]] + ch + row[s[0] + 1:]
        return Board(rows, self.walls)

    def adjacent(self, a: Sq, b: Sq) -> bool:
        """Adjacency (orthogonal, section Adjacency) with no red line between the squares: what
        attacks, locks, zones of control, pushes, passing gear and special actions need."""
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and not (
            self.walls and frozenset((a, b)) in self.walls)

    def walled(self, a: Sq, b: Sq) -> bool:
        """A red line between two orthogonally adjacent squares."""
        return bool(self.walls) and frozenset((a, b)) in self.walls

    def blocks_move(self, s: Sq) -> bool:
        """Obstructive terrain, closed or locked doors, and dotted red outlines block movement."""
        return self.terrain.get(s, "#") in BLOCKS_MOVE

    def hindering(self, s: Sq) -> bool:
        return self.terrain.get(s) == "%"

    def fire(self, s: Sq) -> bool:
        return self.terrain.get(s) == "^"

    def clear(self, s: Sq) -> bool:
        return self.terrain.get(s, "#") in ".\u002f"

    def step_walled(self, a: Sq, b: Sq) -> bool:
        """Does a step from a to b (orthogonal or diagonal) cross a red line?"""
        if not self.walls:
            return False
        if grid.is_orthogonal(a, b):
            return self.walled(a, b)
        s1, s2 = grid.side_squares(a, b)
        # A diagonal step crosses the edges between a and a side square or between a side
        # square and b; it is blocked when it cannot pass on either side of the corner.
        left = self.walled(a, s1) or self.walled(s1, b)
        right = self.walled(a, s2) or self.walled(s2, b)
        return left and right

    def sees(self, a: Sq, b: Sq) -> bool:
        """Line of Sight: centre to centre, blocked by obstructive terrain and red lines;
        a line that only touches a corner ignores that square, and the end of a red line, but
        a line through the joint where red lines continue across its path is blocked."""
        key = ("los", a, b) if a <= b else ("los", b, a)
        got = self.cache.get(key)
        if got is None:
            terrain = self.terrain
            got = bool(grid.line_of_sight(a, b, lambda s: terrain.get(s, "#") in BLOCKS_LOS,
                                          self.walls, corners="ignore"))
            if got and self.walls:
                got = not self._through_joint(a, b)
            self.remember(key, got)
        return got

    def _through_joint(self, a: Sq, b: Sq) -> bool:
        """Does the line pass exactly through a grid point where red lines bar its way? At a
        point the line goes from one quadrant to the opposite one; it could slip by on either
        side, and is blocked only when a red line stands in the way on both."""
        sx = (b[0] > a[0]) - (b[0] < a[0])
        sy = (b[1] > a[1]) - (b[1] < a[1])
        for gx, gy in grid.trace(a, b).corner_points:
            ul, ur, dl, dr = (gx - 1, gy - 1), (gx, gy - 1), (gx - 1, gy), (gx, gy)
            up = self.walled(ul, ur)
            down = self.walled(dl, dr)
            left = self.walled(ul, dl)
            right = self.walled(ur, dr)
            if sx == sy:  # between the upper-left and lower-right quadrants
                if (up or right) and (left or down):
                    return True
            elif (left or up) and (down or right):  # lower-left to upper-right
                return True
        return False
