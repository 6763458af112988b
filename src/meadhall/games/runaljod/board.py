"""The board: tiles in play, terrain, occupancy, movement steps and line of sight.

Sections: Movement, Terrain, Attack (Line of sight, Counting spaces), Sight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from meadhall.core import grid
from meadhall.core.grid import Sq

from .model import Enemy, Hero, PlacedTile

if TYPE_CHECKING:
    from .content import RunaljodContent

class BoardMap:
    """The tiles in play as lookup tables built once per arrangement of tiles and shared by
    every state and clone (they never change): square → terrain letter, the open
    (non-obstacle) squares and each square's neighbours on the board."""

    __shared__ = True  # fastcopy shares it instead of copying

    __slots__ = ("terrain", "open", "nbrs", "difficult", "walk", "leap", "exits", "tile",
                 "_rows", "_marked")

    def __init__(self, terrain: dict[Sq, str]) -> None:
        self.terrain = terrain
        self.open = frozenset(s for s, ch in terrain.items() if ch != "#")
        self.difficult = frozenset(s for s, ch in terrain.items() if ch == "g")
        self.nbrs: dict[Sq, tuple[Sq, ...]] = {
            s: tuple(n for n in grid.neighbours(s, diagonal=True) if n in terrain)
            for s in terrain}
        self.walk: dict[Sq, tuple[tuple[Sq, tuple[Sq, ...]], ...]] = {}
        """Steps to open neighbours, each with the open squares beside a diagonal step (it
        squeezes past if one of them is free; () for an orthogonal step); diagonals between
        two obstacles are left out (Movement)."""
        self.leap: dict[Sq, tuple[tuple[Sq, tuple[Sq, ...]], ...]] = {}
        """Steps to every open neighbour, for figures that jump over what is between."""
        for s in terrain:
            walk, leap = [], []
            for n in self.nbrs[s]:
                if n not in self.open:
                    continue
                leap.append((n, ()))
                if n[0] != s[0] and n[1] != s[1]:
                    beside = tuple(c for c in ((n[0], s[1]), (s[0], n[1])) if c in self.open)
                    if beside:
                        walk.append((n, beside))
                else:
                    walk.append((n, ()))
            self.walk[s], self.leap[s] = tuple(walk), tuple(leap)
        self.exits: tuple[Sq, ...] = ()
        """The exit squares of the last tile (set by :func:`board_map`)."""
        self.tile: dict[Sq, int] = {}
        """Each square's tile, by its index in the list of tiles in play (set by
        :func:`board_map`)."""
        self._rows: tuple[int, int, tuple[str, ...]] | None = None
        self._marked: dict[tuple[tuple[Sq, str], ...], tuple[str, ...]] = {}
        """The board as text rows with figures and tokens marked, by the marks
        (``RunaljodState.board_rows``)."""

    def rows(self) -> tuple[int, int, tuple[str, ...]]:
        """The terrain as text rows (``" "`` off the tiles) from the westmost column: (west
        column, east column, rows); built once per board."""
        if self._rows is None:
            t = self.terrain
            if not t:
                self._rows = (0, -1, ())
            else:
                x0 = min(x for x, _ in t)
                x1 = max(x for x, _ in t)
                h = max(y for _, y in t) + 1
                self._rows = (x0, x1, tuple(
                    "".join(t.get((x, y), " ") for x in range(x0, x1 + 1)) for y in range(h)))
        return self._rows

    def clone(self) -> BoardMap:
        return self


_BOARD_CACHE: dict[tuple, tuple[object, BoardMap]] = {}


def board_map(content: RunaljodContent, tiles: list[PlacedTile]) -> BoardMap:
    """The lookup tables of the tiles in play (cached; tiles are immutable)."""
    key = (id(content.tiles), *((t.tile, t.x) for t in tiles))
    hit = _BOARD_CACHE.get(key)
    # the content is kept with the tables, so that a content object created later at the same
    # address (tests build their own) can never be mistaken for this one
    m = hit[1] if hit is not None and hit[0] is content.tiles else None
    if m is None:
        terrain: dict[Sq, str] = {}
        tile_of: dict[Sq, int] = {}
        for i, t in enumerate(tiles):
            for y, row in enumerate(content.tiles[t.tile].rows):
                for x, ch in enumerate(row):
                    terrain[(t.x + x, y)] = ch
                    tile_of.setdefault((t.x + x, y), i)
        m = BoardMap(terrain)
        m.tile = tile_of
        if tiles:
            last = tiles[-1]
            m.exits = tuple((last.x + x, y) for y, r in enumerate(content.tiles[last.tile].rows)
                            for x, ch in enumerate(r) if ch == "x")
        if len(_BOARD_CACHE) > 4096:
            _BOARD_CACHE.clear()
        _BOARD_CACHE[key] = (content.tiles, m)
    return m


def terrain_map(content: RunaljodContent, tiles: list[PlacedTile]) -> dict[Sq, str]:
    """Global square → terrain letter for the tiles in play (cached; tiles are immutable)."""
    return board_map(content, tiles).terrain


class BoardMixin:
    """Geometry shared by heroes and enemies; the state class supplies the fields."""

    content: RunaljodContent
    tiles: list[PlacedTile]
    heroes: dict[str, Hero]
    enemies: list[Enemy]
    bonfires: list[Sq]
    search_tokens: list[Sq]

    # ------------------------------------------------------------ terrain
    @property
    def board(self) -> BoardMap:
        """The tiles in play as shared lookup tables (recomputed only when the list of tiles
        or its ends change: exploring, loading, a test placing tiles)."""
        tl = self.tiles
        c = self.__dict__.get("_tcache")
        # tiles are immutable and shared by clones: the same first and last tile objects (at
        # most two tiles are in play) mean the same board
        if c is not None and c[1] == len(tl) and (
                not tl or (c[2] is tl[0] and c[3] is tl[-1])):
            return c[4]
        m = board_map(self.content, tl)
        self._tcache = (tl, len(tl), tl[0] if tl else None, tl[-1] if tl else None, m)
        return m

    @property
    def terrain(self) -> dict[Sq, str]:
        return self.board.terrain

    def on_board(self, s: Sq) -> bool:
        return s in self.terrain

    def is_obstacle(self, s: Sq) -> bool:
        """Obstacles (red dot) and squares off the tiles in play are blocked (Terrain)."""
        return s not in self.board.open

    def tile_of(self, s: Sq) -> int:
        """Index in ``self.tiles`` of the tile holding square ``s`` (-1 when off the board)."""
        return self.board.tile.get(s, -1)

    # ------------------------------------------------------------ occupancy
    def hero_at(self, s: Sq) -> Hero | None:
        for h in self.heroes.values():
            if h.at == s:
                return h
        return None

    def enemy_at(self, s: Sq) -> Enemy | None:
        for e in self.enemies:
            if e.at == s or e.also == s:
                return e
        return None

    def standing_heroes(self) -> list[Hero]:
        return [h for h in self.heroes.values() if not h.fallen and h.at is not None]

    def blocks_sight(self, s: Sq) -> bool:
        """Obstacles and miniatures block LoS; fallen heroes do not (Fallen Heroes)."""
        if s not in self.board.open:
            return True
        if self.enemy_at(s) is not None:
            return True
        h = self.hero_at(s)
        return h is not None and not h.fallen

    def occupied(self) -> set[Sq]:
        """Squares whose miniature blocks sight: enemies and standing heroes (Fallen Heroes).
        A fresh set: callers asking many sight questions of one position compute it once."""
        occ = {h.at for h in self.heroes.values() if not h.fallen and h.at is not None}
        for e in self.enemies:
            occ.add(e.at)
            if e.also is not None:
                occ.add(e.also)
        return occ

    def sees(self, a: Sq, b: Sq, occupied: set[Sq] | None = None) -> bool:
        """Line of sight (Attack - Line of sight): blocked by a blocked square on the line or
        by two blocked squares the line passes between; adjacent squares are always visible
        except diagonals between two blocked squares. Blocked: obstacles, squares off the
        board and miniatures, but not fallen heroes (Fallen Heroes). ``occupied``: the
        position's :meth:`occupied` squares when the caller has them already."""
        if a == b:
            return True
        open_ = self.board.open
        if occupied is None:
            occupied = self.occupied()
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1:
            if a[0] == b[0] or a[1] == b[1]:
                return True
            p, q = (b[0], a[1]), (a[0], b[1])
            return (p in open_ and p not in occupied) or (q in open_ and q not in occupied)
        t = grid.trace(a, b)  # the exact centre-to-centre line (cached geometry)
        for s in t.between:
            if s not in open_ or s in occupied:
                return False
        for p, q in t.corners:
            if (p not in open_ or p in occupied) and (q not in open_ or q in occupied):
                return False
        return True

    def spaces_within(self, a: Sq, b: Sq, n: int) -> bool:
        """Counting spaces: whether ``b`` is at most ``n`` spaces from ``a``, counting steps
        (diagonals allowed) around obstacles and ignoring other terrain and miniatures
        (Attack - Counting spaces). The search is bounded by the ``n`` the rule needs."""
        d = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        if d <= 1:
            return d <= n
        if d > n:
            return False
        bm = self.board
        nbrs, open_ = bm.nbrs, bm.open
        frontier = {a}
        seen = {a}
        for _ in range(n - 1):
            nxt = set()
            for s in frontier:
                for m in nbrs.get(s, ()):
                    if m in open_ and m not in seen:
                        seen.add(m)
                        nxt.add(m)
            frontier = nxt
            if any(max(abs(s[0] - b[0]), abs(s[1] - b[1])) <= 1 for s in frontier):
                return True
        return False

    def adjacent(self, a: Sq, b: Sq) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

    # ------------------------------------------------------------ hero movement
    def hero_step_cost(self, h: Hero, a: Sq, b: Sq, keywords: tuple[str, ...] = ()) -> int | None:
        """Cost of one hero step from ``a`` to ``b`` or None when forbidden (Movement, Terrain,
        Keywords: Quick, Jump, Obstruction)."""
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return None
        return self.hero_cost_fn(h, keywords)(a, b)

    def _foes_and_obstruction(self) -> tuple[set[Sq], set[Sq]]:
        """The squares enemies stand on, and the squares next to an enemy with Obstruction
        (Keywords: Obstruction), for a hero's step rules."""
        foes: set[Sq] = set()
        obstruct: set[Sq] = set()
        for e in self.enemies:
            foes.update(e.squares)
            if "obstruction" in self.content.enemies[e.kind].keywords:
                for q in e.squares:
                    obstruct.update(grid.neighbours(q, diagonal=True))
        return foes, obstruct

    def hero_cost_fn(self, h: Hero, keywords: tuple[str, ...] = ()
                     ) -> Callable[[Sq, Sq], int | None]:
        """:meth:`hero_step_cost` for steps between adjacent squares, with the board's rules
        looked up once (movement searches call it many times)."""
        bm = self.board
        t, open_ = bm.terrain, bm.open
        jump = "jump" in keywords
        quick = jump or "quick" in keywords
        foes, obstruct = self._foes_and_obstruction()

        def blocked(s: Sq) -> bool:
            return s not in open_ or (not quick and s in foes)

        def cost(a: Sq, b: Sq) -> int | None:
            if b not in t or (not jump and b not in open_):
                return None
            if not quick and b in foes:
                return None
            if a[0] != b[0] and a[1] != b[1] and not jump and \
                    blocked((b[0], a[1])) and blocked((a[0], b[1])):
                return None
            if jump:
                return 1
            c = 2 if t.get(a) == "g" else 1  # leaving difficult terrain costs 2 (Terrain)
            if a in obstruct:
                c += 1  # Obstruction: leaving a space adjacent to it costs 1 more
            return c
        return cost

    def hero_steps_fn(self, h: Hero, keywords: tuple[str, ...] = ()
                      ) -> Callable[[Sq], list[tuple[Sq, int]]]:
        """Every step a hero may take from a square, with its cost: the steps
        :meth:`hero_cost_fn` allows, read from the board's step tables (Movement, Terrain,
        Keywords: Quick, Jump, Obstruction)."""
        bm = self.board
        jump = "jump" in keywords
        quick = jump or "quick" in keywords
        foes, obstruct = self._foes_and_obstruction()
        if jump:  # over anything on the board, 1 point a step
            nbrs = bm.nbrs

            def leaps(a: Sq) -> list[tuple[Sq, int]]:
                return [(b, 1) for b in nbrs.get(a, ())]
            return leaps
        walk, difficult = bm.walk, bm.difficult
        crowd: set[Sq] = set() if quick else foes

        def steps(a: Sq) -> list[tuple[Sq, int]]:
            # leaving difficult terrain costs 2; Obstruction: leaving a space next to it 1 more
            c = (2 if a in difficult else 1) + (a in obstruct)
            return [(b, c) for b, beside in walk.get(a, ())
                    if b not in crowd and not (beside and beside[0] in crowd
                                               and beside[-1] in crowd)]
        return steps

    def hero_end_test(self, h: Hero) -> Callable[[Sq], bool]:
        """:meth:`hero_can_end` for one hero and the current board, with the occupied squares
        gathered once (movement searches ask it for many squares)."""
        open_ = self.board.open
        blocked = set(self.bonfires)
        blocked.update(o.at for o in self.heroes.values() if o is not h and o.at is not None)
        for e in self.enemies:
            if not (e.uid == h.captive and e.captor == h.id):
                blocked.update(e.squares)

        def can_end(s: Sq) -> bool:
            return s in open_ and s not in blocked
        return can_end

    def hero_can_end(self, h: Hero, s: Sq) -> bool:
        """A hero may not end on another character or on a bonfire (Movement, Terrain)."""
        if s not in self.board.open or s in self.bonfires:
            return False
        if any(o.at == s and o is not h for o in self.heroes.values()):
            return False
        e = self.enemy_at(s)
        return e is None or (e.uid == h.captive and e.captor == h.id)

    # ------------------------------------------------------------ enemy movement
    def enemy_step_cost(self, e: Enemy, a: Sq, b: Sq) -> int | None:
        """Cost of an enemy step: through allied enemies and fallen heroes, never through
        standing heroes (unless Quick) nor damaging spaces such as bonfires (Movement)."""
        return self.enemy_cost_fn(e)(a, b)

    def enemy_can_end(self, e: Enemy, s: Sq) -> bool:
        if s not in self.board.open or s in self.bonfires:
            return False
        hero = self.hero_at(s)
        if hero is not None and hero.held_by != e.uid:
            return False
        other = self.enemy_at(s)
        return other is None or other is e

    def enemy_end_test(self, e: Enemy) -> Callable[[Sq], bool]:
        """:meth:`enemy_can_end` for one enemy and the current board, with the occupied
        squares gathered once."""
        open_ = self.board.open
        blocked = set(self.bonfires)
        blocked.update(h.at for h in self.heroes.values()
                       if h.at is not None and h.held_by != e.uid)
        for o in self.enemies:
            if o is not e:
                blocked.update(o.squares)

        def can_end(s: Sq) -> bool:
            return s in open_ and s not in blocked
        return can_end

    def footprints(self, e: Enemy, lead: Sq,
                   can_end: Callable[[Sq], bool] | None = None) -> list[tuple[Sq, ...]]:
        """Where an enemy may stand with its counted space on ``lead``: itself, or for a large
        or giant enemy two orthogonally adjacent free spaces (Movement)."""
        ok = can_end or (lambda s: self.enemy_can_end(e, s))
        if not ok(lead):
            return []
        if e.also is None:
            return [(lead,)]
        out = []
        for n in grid.neighbours(lead):
            if ok(n):
                out.append(tuple(sorted((lead, n), key=lambda s: (s[1], s[0]))))
        return out

    def enemy_cost_fn(self, e: Enemy) -> Callable[[Sq, Sq], int | None]:
        """A fast equivalent of :meth:`enemy_step_cost` for one enemy and the current board
        (used by the path searches of the enemies' turn)."""
        t = self.terrain
        bonfires = set(self.bonfires)
        kw = self.content.enemies[e.kind].keywords
        # Large and giant enemies ignore difficult terrain unless their whole base is on it.
        large = e.also is not None
        whole = large and all(t.get(q) == "g" for q in e.squares)
        base = set(e.squares)
        quick = "quick" in kw
        jump = "jump" in kw
        heroes = {h.at for h in self.standing_heroes()}
        obstruct: set[Sq] = set()
        for h in self.standing_heroes():
            if any(p.kind == "obstruction" for p in self.hero_passives(h)):
                obstruct.update(grid.neighbours(h.at, diagonal=True))

        def blocked(s: Sq) -> bool:
            return t.get(s, "#") == "#" or (not quick and s in heroes)

        def cost(a: Sq, b: Sq) -> int | None:
            tb = t.get(b, "#")
            if tb == "#" or b in bonfires:
                return None
            if not quick and not jump and b in heroes:
                return None
            if a[0] != b[0] and a[1] != b[1] and not jump and \
                    blocked((b[0], a[1])) and blocked((a[0], b[1])):
                return None
            c = 1
            if not jump and t.get(a) == "g" and (not large or (whole and a in base)):
                c = 2
            if not jump and a in obstruct:
                c += 1
            return c
        return cost

    def _enemy_rules(self, e: Enemy) -> tuple[Any, ...]:
        """What an enemy's movement search needs, looked up once: the board's steps (every
        open neighbour for Jump), the squares no step ends on besides obstacles (bonfires, standing
        heroes unless Quick or Jump), those a diagonal step cannot squeeze past besides
        obstacles (standing heroes unless Quick), squares that cost 2 to leave (difficult
        terrain; for a large enemy only while its whole base is on it) and squares that cost 1
        more to leave (Obstruction). Small sets tested beside the board's shared
        tables, never copies of the whole board."""
        bm = self.board
        kw = self.content.enemies[e.kind].keywords
        quick = "quick" in kw
        jump = "jump" in kw
        standing = self.standing_heroes()
        heroes = {h.at for h in standing}
        bonfires = set(self.bonfires)
        closed = bonfires if quick or jump else bonfires | heroes
        crowd: frozenset[Sq] | set[Sq] = frozenset() if quick else heroes
        obstruct: set[Sq] = set()
        difficult: frozenset[Sq] | set[Sq]
        if jump:
            difficult = frozenset()
        else:
            for h in standing:
                if any(p.kind == "obstruction" for p in self.hero_passives(h)):
                    obstruct.update(grid.neighbours(h.at, diagonal=True))
            if e.also is not None:  # large: only when its whole base is on difficult terrain
                base = e.squares
                whole = all(q in bm.difficult for q in base)
                difficult = {q for q in base if q in bm.difficult} if whole else frozenset()
            else:
                difficult = bm.difficult
        return bm.leap if jump else bm.walk, closed, crowd, difficult, obstruct

    def enemy_field(self, e: Enemy, starts: Iterable[Sq], reverse: bool = False,
                    limit: int | None = None, until: list[set[Sq]] | None = None
                    ) -> dict[Sq, int]:
        """Cheapest movement cost for enemy ``e`` from the nearest of ``starts`` to every
        square it can reach (``reverse``: from every square to the nearest of ``starts``),
        up to ``limit``: the steps of :meth:`enemy_cost_fn` in one Dijkstra search over the
        board's tables, with each square's rules looked up once.

        ``until``: groups of squares; the search stops once every group has a square whose
        cost is final. The answer then holds every square settled so far with its exact
        cost and others with costs no lower than those settled, so the least cost over each
        group is exact (callers need only that)."""
        steps, closed, crowd, difficult, obstruct = self._enemy_rules(e)
        waiting: dict[Sq, list[int]] = {}
        left = 0
        if until is not None:
            for i, group in enumerate(until):
                for q in group:
                    waiting.setdefault(q, []).append(i)
            done = [False] * len(until)
            left = len(until)
        # Dial's algorithm: step costs are 1 to 3, so a list of buckets by distance replaces
        # the heap.
        dist: dict[Sq, int] = {}
        buckets: list[list[Sq]] = [[]]
        for s0 in starts:
            dist[s0] = 0
            buckets[0].append(s0)
        d = 0
        top = limit if limit is not None else 1 << 30
        get = dist.get
        while d < len(buckets):
            for n in buckets[d]:
                if dist[n] != d:
                    continue  # reached more cheaply since it was queued
                if until is not None:
                    for i in waiting.get(n, ()):
                        if not done[i]:
                            done[i] = True
                            left -= 1
                    if not left:
                        return dist
                if d >= top or reverse and (n in closed or n not in steps):
                    continue  # every step would cost too much, or no step ends on n
                if not reverse:  # costs are paid for leaving a square
                    nd0 = d + (2 if n in difficult else 1) + (n in obstruct)
                    if nd0 > top:
                        continue
                for m, beside in steps.get(n, ()):
                    if reverse:
                        nd = d + (2 if m in difficult else 1) + (m in obstruct)
                        if nd > top:
                            continue
                    elif m in closed:
                        continue
                    else:
                        nd = nd0
                    if beside and beside[0] in crowd and beside[-1] in crowd:
                        continue  # both sides of the diagonal blocked
                    if nd < get(m, nd + 1):
                        dist[m] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(m)
            d += 1
        return dist

    def enemy_nearest(self, e: Enemy, origins: Iterable[Sq], is_goal: Callable[[Sq], bool]
                      ) -> tuple[int, set[Sq]]:
        """The least movement cost for enemy ``e`` from any of ``origins`` to a square where
        ``is_goal`` holds, and the origins from which a goal is that cheap ((-1, set()) when
        no goal can be reached). One search outward from every origin at once that stops at
        the first cost where goals are met, asking ``is_goal`` only of the squares it
        settles: the same answer as a field from every goal square, without testing the
        whole board."""
        steps, closed, crowd, difficult, obstruct = self._enemy_rules(e)
        dist: dict[Sq, int] = {}
        came: dict[Sq, set[Sq]] = {}
        buckets: list[list[Sq]] = [[]]
        for s0 in origins:
            dist[s0] = 0
            came[s0] = {s0}
            buckets[0].append(s0)
        d = 0
        while d < len(buckets):
            found: set[Sq] = set()
            for n in buckets[d]:
                if dist[n] == d and is_goal(n):
                    found |= came[n]
            if found:
                return d, found
            for n in buckets[d]:
                if dist[n] != d:
                    continue
                src = came[n]
                nd = d + (2 if n in difficult else 1) + (n in obstruct)
                for m, beside in steps.get(n, ()):
                    if m in closed:
                        continue
                    if beside and beside[0] in crowd and beside[-1] in crowd:
                        continue
                    old = dist.get(m, nd + 1)
                    if nd < old:
                        dist[m] = nd
                        came[m] = set(src)
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(m)
                    elif nd == old:
                        came[m] |= src
            d += 1
        return -1, set()

    # Provided by the heroes' turn rules (heroes_turn.py) that every state also inherits.
    hero_passives: Callable[[Hero], list[Any]]
