"""The scenario map: terrain, doors, red lines, line of sight and the geometry both heroes and
undead use (sections Terrain, Line of Sight, Adjacency)."""

from __future__ import annotations

from collections.abc import Iterable

from meadhall.core import grid
from meadhall.core.grid import Sq

CLEAR = frozenset(".")
HINDERING = frozenset("%")
FIRE = frozenset("^")
BLOCKS_LOS = frozenset("#+L")
BLOCKS_MOVE = frozenset("#+L:")
DOORS = frozenset("+/L")


class Board:
    """Terrain rows (mutable: doors open and close) and the red-line walls on edges."""

    __slots__ = ("rows", "walls")

    def __init__(self, rows: Iterable[str], walls: Iterable[grid.Edge] = ()) -> None:
        self.rows: list[str] = list(rows)
        self.walls: frozenset[grid.Edge] = frozenset(walls)

    def clone(self) -> Board:
        return Board(self.rows, self.walls)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def inside(self, s: Sq) -> bool:
        return 0 <= s[0] < len(self.rows[0]) and 0 <= s[1] < len(self.rows)

    def at(self, s: Sq) -> str:
        """Terrain character of a square; off the map reads as wall."""
        if not self.inside(s):
            return "#"
        return self.rows[s[1]][s[0]]

    def set(self, s: Sq, ch: str) -> None:
        row = self.rows[s[1]]
        self.rows[s[1]] = row[: s[0]] + ch + row[s[0] + 1:]

    def walled(self, a: Sq, b: Sq) -> bool:
        """A red line between two orthogonally adjacent squares."""
        return frozenset((a, b)) in self.walls

    def blocks_move(self, s: Sq) -> bool:
        """Obstructive terrain, closed or locked doors, and dotted red outlines block movement."""
        return self.at(s) in BLOCKS_MOVE

    def hindering(self, s: Sq) -> bool:
        return self.at(s) in HINDERING

    def fire(self, s: Sq) -> bool:
        return self.at(s) in FIRE

    def clear(self, s: Sq) -> bool:
        return self.at(s) in ".\u002f"

    def step_walled(self, a: Sq, b: Sq) -> bool:
        """Does a step from a to b (orthogonal or diagonal) cross a red line?"""
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
        a line that only touches a corner ignores that square."""
        return bool(grid.line_of_sight(a, b, lambda s: self.at(s) in BLOCKS_LOS, self.walls,
                                       corners="ignore"))
