"""The undead: spawning, revealing, activation order, zone of control, movement and attacks
(chapter Undead; Undead Attacks, Locks and Wounds from scenario 2's chapter)."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.figures import Hero, Undead

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

INF = 10**9


def uname(s: NiflheimState, u: Undead) -> str:
    """``Draugr 3`` or ``undead marker 3`` while face down."""
    if u.kind is None:
        return f"undead marker {u.id}"
    return f"{s.content.undead[u.kind].name} {u.id}"


# ----------------------------------------------------------------------------- revealing
def reveal(s: NiflheimState, events: list[Event]) -> None:
    """Flip every face-down marker a hero has LOS to, drawing its identity from the pool now
    (Revealing Undead: immediately, whenever it happens)."""
    heroes = [h.at for h in s.heroes.values() if h.on_map]
    for u in s.undead.values():
        if u.kind is not None:
            continue
        seer = next((h for h in s.heroes.values() if h.on_map and s.board.sees(h.at, u.at)),
                    None)
        if seer is None or not heroes:
            continue
        kind = draw(s)
        if kind is None:  # cannot happen: every face-down marker's identity is in the pool
            raise RuntimeError("undead pool is empty while a face-down marker is on the map")
        u.kind = kind
        events.append(Event("reveal", f"{seer.name} sees the marker on {grid.name(u.at)}: "
                            f"it is a {s.content.undead[kind].name} ({uname(s, u)})", S.REVEALING,
                            {"undead": u.id, "kind": kind, "at": grid.name(u.at)}))


def draw(s: NiflheimState) -> str | None:
    """Draw an identity from the pool (Revealing Undead). A pool holding one kind only is no
    chance event: the kernel's ``Chance.pick`` takes a single distinct option without asking."""
    return s.pool.draw(s.chance, S.REVEALING)


def physical_pool(s: NiflheimState) -> int:
    """Markers still in the undead pool (the pool deck also holds face-down board markers)."""
    return len(s.pool) - sum(1 for u in s.undead.values() if u.kind is None)


# ----------------------------------------------------------------------------- geometry
def zoc(s: NiflheimState) -> dict[Sq, set[int]]:
    """Zone of Control: the four squares adjacent to each undead that is not stunned."""
    out: dict[Sq, set[int]] = {}
    for u in s.undead.values():
        if u.stunned:
            continue
        for n in grid.neighbours(u.at):
            out.setdefault(n, set()).add(u.id)
    return out


def _enterable(s: NiflheimState, q: Sq, occ: dict[Sq, str], ignore_undead: bool) -> bool:
    """Undead may not move into obstructive or hindering terrain (nor fire), nor figures."""
    if not s.board.inside(q) or s.board.at(q) not in "./":
        return False
    who = occ.get(q)
    if who is None:
        return True
    return ignore_undead and who.startswith("u")


def _side_ok(s: NiflheimState, q: Sq, occ: dict[Sq, str], ignore_undead: bool) -> bool:
    """A side square an undead may slip past: unoccupied and clear (see rulings)."""
    if not s.board.inside(q) or s.board.at(q) not in "./":
        return False
    who = occ.get(q)
    return who is None or (ignore_undead and who.startswith("u"))


def can_step(s: NiflheimState, a: Sq, b: Sq, occ: dict[Sq, str], ignore_undead: bool) -> bool:
    """One undead move from a to b (orthogonal or diagonal, each one move)."""
    if not _enterable(s, b, occ, ignore_undead) or s.board.step_walled(a, b):
        return False
    if grid.is_diagonal(a, b):
        s1, s2 = grid.side_squares(a, b)
        if s.board.fire(s1) or s.board.fire(s2):
            return False  # never diagonally across the corner of a fire square
        if not (_side_ok(s, s1, occ, ignore_undead) or _side_ok(s, s2, occ, ignore_undead)):
            return False
    return True


def _bfs(s: NiflheimState, starts: list[Sq], occ: dict[Sq, str]) -> dict[Sq, int]:
    """Fewest undead moves from ``starts`` to every square, ignoring blocking undead."""
    dist = {q: 0 for q in starts}
    todo = deque(starts)
    while todo:
        a = todo.popleft()
        d = dist[a] + 1
        for b in grid.neighbours(a, diagonal=True):
            if b not in dist and can_step(s, a, b, occ, True):
                dist[b] = d
                todo.append(b)
    return dist


def _goals(s: NiflheimState, hero_at: Sq, occ: dict[Sq, str]) -> list[Sq]:
    return [q for q in grid.neighbours(hero_at) if _enterable(s, q, occ, True)]


_FIELDS: dict[tuple, dict[Sq, int]] = {}


def _field(s: NiflheimState, hero_at: Sq, occ: dict[Sq, str]) -> dict[Sq, int]:
    """Fewest undead moves from every square to a square adjacent to the hero, ignoring
    undead (steps are symmetric, so one search from the hero's side serves every undead).
    Cached on everything it depends on: terrain, red lines, hero and other figures' squares."""
    still = frozenset((q, w) for q, w in occ.items() if not w.startswith("u"))
    key = (tuple(s.board.rows), s.board.walls, still, hero_at)
    got = _FIELDS.get(key)
    if got is None:
        if len(_FIELDS) > 2_000:
            _FIELDS.clear()
        got = _bfs(s, _goals(s, hero_at, occ), occ)
        _FIELDS[key] = got
    return got


def _distance(s: NiflheimState, u: Undead, field: dict[Sq, int], occ: dict[Sq, str]) -> int:
    best = INF
    for b in grid.neighbours(u.at, diagonal=True):
        d = field.get(b)
        if d is not None and d + 1 < best and can_step(s, u.at, b, occ, True):
            best = d + 1
    return best


def hero_distances(s: NiflheimState, u: Undead, occ: dict[Sq, str] | None = None
                   ) -> dict[str, int]:
    """Moves the undead needs to reach (move adjacent to) each hero, regardless of undead
    blocking the path; 0 when already adjacent."""
    occ = s.occupancy() if occ is None else occ
    out: dict[str, int] = {}
    for h in s.heroes.values():
        if not h.on_map:
            continue
        assert h.at is not None
        if grid.is_orthogonal(u.at, h.at):
            out[h.id] = 0
            continue
        out[h.id] = _distance(s, u, _field(s, h.at, occ), occ)
    return out


def closest(s: NiflheimState, u: Undead, occ: dict[Sq, str] | None = None
            ) -> tuple[int, list[str]]:
    d = hero_distances(s, u, occ)
    if not d:
        return INF, []
    best = min(d.values())
    return best, [h for h, v in d.items() if v == best and v < INF]


def move_options(s: NiflheimState, u: Undead) -> tuple[int, list[Sq], str]:
    """The first option of the movement list the undead can complete, with every square that
    qualifies: (option number 1-3, squares, explanation); (0, [], why) when it does not move."""
    occ = s.occupancy()
    best, targets = closest(s, u, occ)
    if not targets:
        return 0, [], "no hero can be reached"
    if best == 0:
        return 0, [], "it is already adjacent to a hero"
    tat = [s.heroes[t].at for t in targets]
    steps = [b for b in grid.neighbours(u.at, diagonal=True) if can_step(s, u.at, b, occ, False)]
    names = " and ".join(s.heroes[t].name for t in targets)
    opt1 = [b for b in steps if any(grid.is_orthogonal(b, t) for t in tat)]
    if opt1:
        return 1, _order(opt1), f"moves adjacent to {names}"
    opt2 = [b for b in steps if any(grid.is_diagonal(b, t) for t in tat)]
    if opt2:
        return 2, _order(opt2), f"moves diagonally adjacent to {names}"
    fields = [_field(s, t, occ) for t in tat]  # type: ignore[arg-type]
    opt3 = [b for b in steps if min((f.get(b, INF) for f in fields), default=INF) == best - 1]
    if opt3:
        return 3, _order(opt3), f"moves towards {names} ({best} moves away) by the shortest path"
    return 0, [], f"every square towards {names} is occupied or inaccessible"


def _order(squares: list[Sq]) -> list[Sq]:
    return sorted(squares, key=lambda q: (q[1], q[0]))


def move_value(s: NiflheimState, u: Undead) -> int:
    """MV; unrevealed undead move as draugr; Leader of the Pack gives MV 1 undead +1."""
    kind = u.kind or "draugr"
    mv = s.content.undead[kind].mv
    if mv == 1 and kind != "mardrom" and any(
            x.kind == "mardrom" for x in s.undead.values() if x.id != u.id):
        mv += 1
    return mv


# ----------------------------------------------------------------------------- activation
def activation_candidates(s: NiflheimState) -> list[int]:
    """Unactivated undead closest to a hero (ties: the players choose)."""
    todo = [u for u in s.undead.values() if not u.activated]
    if not todo:
        return []
    occ = s.occupancy()
    dist = {u.id: closest(s, u, occ)[0] for u in todo}
    best = min(dist.values())
    ids = sorted(i for i, d in dist.items() if d == best)
    return ids if best < INF else ids[:1]


def attack_targets(s: NiflheimState, u: Undead) -> list[str]:
    """Heroes adjacent to the undead (a locking undead always wounds the hero it locks)."""
    locked = [h.id for h in s.heroes.values() if h.on_map and h.locked_by == u.id]
    if locked:
        return locked[:1]
    return [h.id for h in s.heroes.values() if h.on_map and grid.is_orthogonal(h.at, u.at)]


def attack(s: NiflheimState, u: Undead, hero: Hero, events: list[Event]) -> None:
    """Undead Attacks / Locks and Wounds: lock an unlocked target, wound a locked one."""
    if hero.locked_by is None:
        hero.locked_by = u.id
        lost = hero.marker is not None and hero.marker.startswith("cover")
        if lost:
            hero.marker = "attacked"
        events.append(Event("lock", f"{uname(s, u)} attacks {hero.name} and locks them"
                            + (": the Cover marker becomes an Attacked marker" if lost else ""),
                            S.LOCKS, {"undead": u.id, "hero": hero.id}))
        return
    why = "the hero it locks" if hero.locked_by == u.id else "a locked hero"
    events.append(Event("wound", f"{uname(s, u)} attacks {hero.name}, {why}: 1 wound",
                        S.LOCKS, {"undead": u.id, "hero": hero.id}))
    s.wound_hero(hero, events, S.LOCKS, by=f"undead{u.id}", by_type=u.kind or "draugr")


def spawn_squares(s: NiflheimState, at: Sq) -> list[Sq]:
    """The spawn square, or the closest unoccupied and unobstructed squares to it."""
    occ = s.occupancy()

    def free(q: Sq) -> bool:
        return s.board.inside(q) and not s.board.blocks_move(q) and q not in occ

    if free(at):
        return [at]
    best = INF
    out: list[Sq] = []
    for y in range(s.board.height):
        for x in range(s.board.width):
            q = (x, y)
            if free(q):
                d = grid.manhattan(q, at)
                if d < best:
                    best, out = d, [q]
                elif d == best:
                    out.append(q)
    return _order(out)


def free_id(s: NiflheimState) -> int:
    """The number of a newly placed undead: the lowest not on the map (a marker's number is
    free again once its undead is eliminated, so numbers never exceed the scenario's forces)."""
    uid = 1
    while uid in s.undead:
        uid += 1
    return uid


def place_marker(s: NiflheimState, at: Sq, events: list[Event], section: str) -> int | None:
    """Draw a marker from the pool (face down: its identity is decided when revealed) and place
    it; when the pool has run out, the discard area returns to it first. Returns its number,
    or None when no marker is left."""
    if physical_pool(s) <= 0 and s.discard:
        s.pool.add(s.discard)
        events.append(Event("pool", f"The undead pool ran out: {len(s.discard)} markers return "
                            "from the discard area", S.ELIMINATED))
        s.discard = []
    if physical_pool(s) <= 0:
        events.append(Event("spawn", f"No undead marker is left in the pool to place on "
                            f"{grid.name(at)}", section))
        return None
    u = Undead(free_id(s), None, at)
    s.undead[u.id] = u
    events.append(Event("spawn", f"A face-down undead marker ({uname(s, u)}) is placed on "
                        f"{grid.name(at)}", section, {"undead": u.id, "at": grid.name(at)}))
    reveal(s, events)
    return u.id
