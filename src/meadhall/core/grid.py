"""Square-grid geometry: coordinates, adjacency, distances, exact line of sight, edge walls.

Squares are ``(x, y)`` tuples, ``x`` the column from 0 (A) and ``y`` the row from 0 (printed 1).
Line of sight is traced centre to centre with exact integer arithmetic; the trace lists every square
the segment passes through, and separately the pairs of squares it only touches at a shared corner,
because the games disagree about those (Niflheim ignores them; Runaljod blocks a line that passes
between two blocked squares).

>>> sq("E5"), name((4, 4))
((4, 4), 'E5')
>>> trace((0, 0), (2, 2)).corners
(((0, 1), (1, 0)), ((1, 2), (2, 1)))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

Sq = tuple[int, int]
Edge = frozenset[Sq]

ORTHOGONAL: tuple[Sq, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[Sq, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
KING: tuple[Sq, ...] = ORTHOGONAL + DIAGONAL


@lru_cache(maxsize=4096)
def col_name(x: int) -> str:
    """Column letters: 0 → A, 25 → Z, 26 → AA."""
    s = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        s = chr(65 + r) + s
    return s


@lru_cache(maxsize=4096)
def name(s: Sq) -> str:
    """Printed name of a square: column letter(s) then row number from 1."""
    return f"{col_name(s[0])}{s[1] + 1}"


def sq(text: str) -> Sq:
    """Parse a square name such as ``E5`` or ``AA12``.

    >>> sq("a1")
    (0, 0)
    """
    t = text.strip().upper()
    i = 0
    while i < len(t) and t[i].isalpha():
        i += 1
    letters, digits = t[:i], t[i:]
    if not letters or not digits.isdigit() or int(digits) < 1:
        raise ValueError(f"{text!r} is not a square name like E5")
    x = 0
    for ch in letters:
        x = x * 26 + (ord(ch) - 64)
    return (x - 1, int(digits) - 1)


def edge(a: Sq, b: Sq) -> Edge:
    """The edge between two orthogonally adjacent squares (e.g. a wall)."""
    if manhattan(a, b) != 1:
        raise ValueError(f"{name(a)} and {name(b)} are not orthogonally adjacent")
    return frozenset((a, b))


def add(a: Sq, d: Sq) -> Sq:
    return (a[0] + d[0], a[1] + d[1])


def neighbours(s: Sq, diagonal: bool = False) -> Iterator[Sq]:
    for d in KING if diagonal else ORTHOGONAL:
        yield (s[0] + d[0], s[1] + d[1])


def is_orthogonal(a: Sq, b: Sq) -> bool:
    return manhattan(a, b) == 1


def is_diagonal(a: Sq, b: Sq) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def side_squares(a: Sq, b: Sq) -> tuple[Sq, Sq]:
    """The two squares a diagonal step from ``a`` to ``b`` passes between."""
    if not is_diagonal(a, b):
        raise ValueError(f"{name(a)}→{name(b)} is not a diagonal step")
    return ((b[0], a[1]), (a[0], b[1]))


def manhattan(a: Sq, b: Sq) -> int:
    """Orthogonal steps; also Niflheim's range, where a diagonal counts as 2."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: Sq, b: Sq) -> int:
    """King-move distance: a diagonal counts as 1."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


diagonal_as_two = manhattan


@dataclass(frozen=True, slots=True)
class Trace:
    """A centre-to-centre line: squares passed through (in order, both ends included), pairs of
    squares touched only at a corner, and the square edges the line crosses."""

    start: Sq
    end: Sq
    squares: tuple[Sq, ...]
    corners: tuple[tuple[Sq, Sq], ...]
    edges: tuple[Edge, ...]
    corner_points: tuple[Sq, ...]
    """Grid points (in square-corner coordinates) the line passes through exactly."""

    @property
    def between(self) -> tuple[Sq, ...]:
        """Squares strictly between the two ends."""
        return self.squares[1:-1]


@lru_cache(maxsize=65536)
def trace(a: Sq, b: Sq) -> Trace:
    """Trace the segment from the centre of ``a`` to the centre of ``b`` exactly.

    Coordinates are doubled so centres are odd integers and square ``(i, j)`` spans
    ``[2i, 2i+2] × [2j, 2j+2]``. The walk steps from square to square, comparing the parameters at
    which the line meets the next vertical and horizontal grid lines by cross-multiplying
    integers, so no rounding can misplace a corner. Geometry depends only on the two squares,
    so results are cached.
    """
    x0, y0 = 2 * a[0] + 1, 2 * a[1] + 1
    dx, dy = 2 * (b[0] - a[0]), 2 * (b[1] - a[1])
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    cx, cy = a
    squares = [a]
    corners: list[tuple[Sq, Sq]] = []
    points: list[Sq] = []
    edges: list[Edge] = []
    while (cx, cy) != b:
        # distance along each axis to the next grid line, scaled so they compare as t values
        tx = abs(2 * cx + (2 if sx > 0 else 0) - x0) * ady if sx else None
        ty = abs(2 * cy + (2 if sy > 0 else 0) - y0) * adx if sy else None
        if ty is None or (tx is not None and tx < ty):
            nxt = (cx + sx, cy)
            edges.append(frozenset(((cx, cy), nxt)))
        elif tx is None or ty < tx:
            nxt = (cx, cy + sy)
            edges.append(frozenset(((cx, cy), nxt)))
        else:
            nxt = (cx + sx, cy + sy)
            p, q = sorted(((cx + sx, cy), (cx, cy + sy)))
            corners.append((p, q))
            points.append((cx + (1 if sx > 0 else 0), cy + (1 if sy > 0 else 0)))
        cx, cy = nxt
        squares.append(nxt)
    return Trace(a, b, tuple(squares), tuple(corners), tuple(edges), tuple(points))


@dataclass(frozen=True, slots=True)
class Sight:
    """The answer to a line-of-sight question, with the reason when blocked."""

    clear: bool
    blocker: Sq | Edge | tuple[Sq, Sq] | None = None
    reason: str = ""

    def __bool__(self) -> bool:
        return self.clear


def line_of_sight(
    a: Sq,
    b: Sq,
    blocks: Callable[[Sq], bool],
    walls: Iterable[Edge] = (),
    corners: str = "ignore",
) -> Sight:
    """Is there an unblocked line from the centre of ``a`` to the centre of ``b``?

    ``blocks(square)`` says whether a square between the ends blocks; ``walls`` are blocked edges.
    ``corners`` is the corner policy: ``"ignore"`` (corner-only touches never block),
    ``"both"`` (blocked when both squares at a touched corner block), or ``"either"``.
    A wall blocks when the line crosses it or passes exactly through one of its ends while the
    corner policy counts that corner.

    >>> wall_sq = {(1, 1)}
    >>> bool(line_of_sight((0, 0), (2, 2), lambda s: s in wall_sq))
    False
    >>> bool(line_of_sight((0, 0), (2, 2), lambda s: s in {(0, 1)}))
    True
    >>> bool(line_of_sight((0, 0), (2, 2), lambda s: s in {(0, 1), (1, 0)}, corners="both"))
    False
    """
    if corners not in ("ignore", "both", "either"):
        raise ValueError(f"unknown corner policy {corners!r}")
    t = trace(a, b)
    for s in t.between:
        if blocks(s):
            return Sight(False, s, f"{name(s)} blocks the line")
    wall_set = set(walls)
    for e in t.edges:
        if e in wall_set:
            p, q = sorted(e)
            return Sight(False, e, f"the wall between {name(p)} and {name(q)} blocks the line")
    if corners != "ignore":
        for p, q in t.corners:
            bp, bq = blocks(p), blocks(q)
            if (bp and bq) or (corners == "either" and (bp or bq)):
                return Sight(False, (p, q), f"the line passes between {name(p)} and {name(q)}")
        if wall_set:
            for gx, gy in t.corner_points:
                ends = _walls_at_point(gx, gy, wall_set)
                if ends >= (2 if corners == "both" else 1):
                    return Sight(False, None, "the line passes through the end of a wall")
    return Sight(True)


def _walls_at_point(gx: int, gy: int, walls: set[Edge]) -> int:
    """How many walls meet at grid point ``(gx, gy)`` (corner coordinates)."""
    around = [
        frozenset(((gx - 1, gy - 1), (gx, gy - 1))), frozenset(((gx - 1, gy), (gx, gy))),
        frozenset(((gx - 1, gy - 1), (gx - 1, gy))), frozenset(((gx, gy - 1), (gx, gy))),
    ]
    return sum(1 for e in around if e in walls)


def in_bounds(s: Sq, width: int, height: int) -> bool:
    return 0 <= s[0] < width and 0 <= s[1] < height


def parse_rows(rows: list[str]) -> dict[Sq, str]:
    """Read an ASCII map (one string per row, one character per square, top row = row 1)."""
    return {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row)}


def check_rows(rows: list[str], allowed: str | None = None, what: str = "row") -> None:
    """An ASCII map must be rectangular and use only ``allowed`` characters; raises
    ``ValueError`` naming the first bad row (pydantic validators turn it into a field error).

    >>> check_rows(["..#", ".x."], ".#")
    Traceback (most recent call last):
    ValueError: row 2 has unknown terrain 'x'
    """
    if not rows:
        raise ValueError("a map needs at least one row")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{what} {i + 1} is {len(row)} squares wide, expected {width}")
        bad = set(row) - set(allowed) if allowed is not None else set()
        if bad:
            raise ValueError(f"{what} {i + 1} has unknown terrain {''.join(sorted(bad))!r}")
