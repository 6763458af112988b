"""The undead: spawning, revealing, activation order, zone of control, movement and attacks
(chapter Undead; Undead Attacks, Locks and Wounds from scenario 2's chapter)."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from meadhall.core import grid, words
from meadhall.core.grid import Sq
from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.board import UNDEAD_TERRAIN, Board, name, special_figures
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
    heroes: list[Hero] | None = None  # gathered at the first face-down marker
    sees = s.board.sees
    for u in s.undead.values():
        if u.kind is not None:
            continue
        if heroes is None:
            heroes = [h for h in s.heroes.values() if h.status == "active" and h.at is not None]
            if not heroes:
                return
        at = u.at
        seer = next((h for h in heroes if sees(h.at, at)), None)  # type: ignore[arg-type]
        if seer is None:
            continue
        kind = draw(s)
        if kind is None:  # cannot happen: every face-down marker's identity is in the pool
            raise RuntimeError("undead pool is empty while a face-down marker is on the map")
        u.kind = kind
        events.append(Event("reveal", f"{seer.name} sees the marker on {name(u.at)}: "
                            f"it is {words.a(s.content.undead[kind].name)} ({uname(s, u)})", S.REVEALING,
                            {"undead": u.id, "kind": kind, "at": name(u.at)}))


def draw(s: NiflheimState) -> str | None:
    """Draw an identity from the pool (Revealing Undead). A pool holding one kind only is no
    chance event: the kernel's ``Chance.pick`` takes a single distinct option without asking."""
    return s.own_pool().draw(s.chance, S.REVEALING)


def physical_pool(s: NiflheimState) -> int:
    """Markers still in the undead pool (the pool deck also holds face-down board markers)."""
    return len(s.pool) - sum(1 for u in s.undead.values() if u.kind is None)


# ----------------------------------------------------------------------------- geometry
def zoc(s: NiflheimState) -> dict[Sq, set[int]]:
    """Zone of Control: the four squares adjacent to each undead that is not stunned (not
    across a red line, which it cannot attack through)."""
    got = s._zoc
    if got is not None and got[0] is s.board:
        return got[1]
    out: dict[Sq, set[int]] = {}
    near = s.board.near
    for u in s.undead.values():
        if u.stunned:
            continue
        for n in near.get(u.at, ()):
            got = out.get(n)
            if got is None:
                out[n] = {u.id}
            else:
                got.add(u.id)
    s._zoc = (s.board, out)
    return out


def _free(board: Board, q: Sq, occ: dict[Sq, str], ignore_undead: bool) -> bool:
    """Clear terrain an undead may enter or slip past: not obstructive, hindering or fire, and
    unoccupied (other undead do not count when ``ignore_undead``)."""
    if board.terrain.get(q) not in UNDEAD_TERRAIN:
        return False
    who = occ.get(q)
    return who is None or (ignore_undead and who[0] == "u")


def can_step(s: NiflheimState, a: Sq, b: Sq, occ: dict[Sq, str], ignore_undead: bool) -> bool:
    """One undead move from a to b (orthogonal or diagonal, each one move): never into
    obstructive or hindering terrain, fire or a figure; a diagonal needs a side square that is
    unoccupied and clear, and never crosses the corner of a fire square (see rulings)."""
    board = s.board
    if not _free(board, b, occ, ignore_undead) or board.step_walled(a, b):
        return False
    if a[0] != b[0] and a[1] != b[1]:
        s1, s2 = (b[0], a[1]), (a[0], b[1])
        terrain = board.terrain
        if terrain.get(s1) == "^" or terrain.get(s2) == "^":
            return False  # never diagonally across the corner of a fire square
        if not (_free(board, s1, occ, ignore_undead) or _free(board, s2, occ, ignore_undead)):
            return False
    return True


def _moves(board: Board, a: Sq) -> list[tuple[Sq, tuple[Sq, ...]]]:
    """The undead moves out of ``a`` that terrain and red lines allow, figures not considered:
    (square, the clear side squares a diagonal may slip past; empty for an orthogonal step).
    Kept with the board; :func:`can_step` gives the same answers."""
    key = ("undead moves", a)
    got = board.cache.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    terrain = board.terrain
    out: list[tuple[Sq, tuple[Sq, ...]]] = []
    for b in board.n8.get(a, ()):
        if terrain[b] not in UNDEAD_TERRAIN or board.step_walled(a, b):
            continue
        if a[0] == b[0] or a[1] == b[1]:
            out.append((b, ()))
            continue
        s1, s2 = (b[0], a[1]), (a[0], b[1])
        if terrain[s1] == "^" or terrain[s2] == "^":
            continue
        sides = tuple(q for q in (s1, s2) if terrain[q] in UNDEAD_TERRAIN)
        if sides:
            out.append((b, sides))
    return board.remember(key, out)  # type: ignore[no-any-return]


def steps_from(s: NiflheimState, a: Sq, occ: dict[Sq, str]) -> list[Sq]:
    """Squares an undead on ``a`` can move to now (other figures block), neighbour order."""
    out = []
    for b, sides in _moves(s.board, a):
        if b in occ:
            continue
        if sides and sides[0] in occ and (len(sides) == 1 or sides[1] in occ):
            continue  # a diagonal past two occupied (or one occupied, one blocked) squares
        out.append(b)
    return out


class Reach:
    """What undead distances depend on in one position, remembered until a hero or a special
    figure moves (or the board changes): every figure but the undead, and for each square an
    undead stands on, the moves it needs to reach each hero. Never changed once a state has
    replaced it, so clones may share it."""

    __shared__ = True
    __slots__ = ("board", "still", "heroes", "dist", "fields", "nearest")

    def __init__(self, s: NiflheimState) -> None:
        self.board = s.board
        self.heroes: tuple[tuple[str, Sq], ...] = tuple(
            (h.id, h.at) for h in s.heroes.values() if h.status == "active" and h.at is not None)
        still = tuple(q for _, q in self.heroes)
        figs = special_figures(s.scenario)
        if figs:
            still += tuple(q for label, q in figs if label not in s.done)
        self.still: tuple[Sq, ...] = still
        """The squares undead distances depend on: heroes on the map and special figures not
        yet rescued."""
        self.dist: dict[Sq, dict[str, int]] = {}
        self.fields: dict[Sq, dict[Sq, int]] = {}
        self.nearest: dict[Sq, int] = {}
        """For each square asked about, the fewest moves from it to reach any hero."""


def reach(s: NiflheimState) -> Reach:
    """The state's :class:`Reach`, built once per position of the heroes."""
    got = s._reach
    if got is None or got.board is not s.board:
        got = s._reach = Reach(s)
    return got


def _still(s: NiflheimState) -> tuple[Sq, ...]:
    """The squares undead distances depend on: every figure but the undead (heroes on the map,
    special figures not yet rescued)."""
    return reach(s).still


def _field(s: NiflheimState, hero_at: Sq, occ: dict[Sq, str],
           still: tuple[Sq, ...] | None = None) -> dict[Sq, int]:
    """Fewest undead moves from every square to a square adjacent to the hero, ignoring
    undead (steps are symmetric, so one search from the hero's side serves every undead).
    Kept with the board, keyed on the other figures' squares."""
    board = s.board
    key = ("ufield", _still(s) if still is None else still, hero_at)
    got = board.cache.get(key)
    if got is not None:
        return got
    starts = [q for q in board.near.get(hero_at, ()) if _free(board, q, occ, True)]
    dist = {q: 0 for q in starts}
    todo = deque(starts)
    n8 = board.n8
    while todo:
        a = todo.popleft()
        d = dist[a] + 1
        for b in n8[a]:
            if b not in dist and can_step(s, a, b, occ, True):
                dist[b] = d
                todo.append(b)
    return board.remember(key, dist)


def _distance(s: NiflheimState, at: Sq, field: dict[Sq, int], occ: dict[Sq, str]) -> int:
    best = INF
    for b in s.board.n8.get(at, ()):
        d = field.get(b)
        if d is not None and d + 1 < best and can_step(s, at, b, occ, True):
            best = d + 1
    return best


def hero_fields(s: NiflheimState) -> dict[Sq, dict[Sq, int]]:
    """For each hero's square, the undead moves from every square to reach that hero."""
    r = reach(s)
    fields = r.fields
    if len(fields) < len(r.heroes):
        occ = s.occupancy()
        for _, hat in r.heroes:
            if hat not in fields:
                fields[hat] = _field(s, hat, occ, r.still)
    return fields


def distances_from(s: NiflheimState, at: Sq) -> dict[str, int]:
    """Moves an undead on ``at`` needs to reach (move adjacent to) each hero on the map,
    regardless of undead blocking the path; 0 when already adjacent. The answer is shared:
    never change it."""
    r = reach(s)
    got = r.dist.get(at)
    if got is not None:
        return got
    board = s.board
    occ = s.occupancy()
    fields = hero_fields(s)
    got = {}
    for hid, hat in r.heroes:
        if board.adjacent(at, hat):
            got[hid] = 0
            continue
        key = ("udist", r.still, hat, at)
        d = board.cache.get(key)
        if d is None:
            d = board.remember(key, _distance(s, at, fields[hat], occ))
        got[hid] = d
    r.dist[at] = got
    return got


def hero_distances(s: NiflheimState, u: Undead) -> dict[str, int]:
    """Moves the undead needs to reach (move adjacent to) each hero, regardless of undead
    blocking the path; 0 when already adjacent."""
    return dict(distances_from(s, u.at))


def closest(s: NiflheimState, u: Undead) -> tuple[int, list[str]]:
    """The fewest moves to reach a hero and the heroes that close."""
    d = distances_from(s, u.at)
    if not d:
        return INF, []
    best = min(d.values())
    return best, [h for h, v in d.items() if v == best and v < INF]


def move_options(s: NiflheimState, u: Undead) -> tuple[int, list[Sq], str]:
    """The first option of the movement list the undead can complete, with every square that
    qualifies: (option number 1-3, squares, explanation); (0, [], why) when it does not move."""
    opt, squares, why = move_choice(s, u)
    return opt, squares, why_text(s, why)


Why = tuple[str, list[str], int]
"""Why an undead moves as it does, to be worded by :func:`why_text`: the case, the heroes
it heads for and their distance."""


def why_text(s: NiflheimState, why: Why) -> str:
    """The explanation :func:`move_options` gives."""
    case, targets, best = why
    if case == "none":
        return "no hero can be reached"
    if case == "adjacent":
        return "it is already adjacent to a hero"
    if case == "1":
        return f"moves adjacent to {_names(s, targets)}"
    if case == "2":
        return f"moves diagonally adjacent to {_names(s, targets)}"
    if case == "3":
        return (f"moves towards {_names(s, targets)} ({best} moves away) by the shortest "
                "path")
    return f"every square towards {_names(s, targets)} is occupied or inaccessible"


def move_choice(s: NiflheimState, u: Undead) -> tuple[int, list[Sq], Why]:
    """:func:`move_options` with its explanation not yet worded (:func:`why_text`)."""
    best, targets = closest(s, u)
    if not targets:
        return 0, [], ("none", targets, best)
    if best == 0:
        return 0, [], ("adjacent", targets, best)
    heroes = s.heroes
    tat: list[Sq] = [heroes[t].at for t in targets]  # type: ignore[misc]
    steps = steps_from(s, u.at, s.occupancy())
    opt1, opt2 = [], []
    if len(tat) == 1:
        # one closest hero (the common case): a square on the map is adjacent to it when it
        # is among its near squares (orthogonal, no red line between), as Board.adjacent says
        t = tat[0]
        tx, ty = t
        near1 = s.board.near.get(t, ())
        for b in steps:
            if b in near1:
                opt1.append(b)
            elif (b[0] - tx) in (1, -1) and (b[1] - ty) in (1, -1):
                opt2.append(b)
    else:
        adjacent = s.board.adjacent
        for b in steps:
            near = 3
            for t in tat:
                dx, dy = abs(b[0] - t[0]), abs(b[1] - t[1])
                if dx + dy == 1 and adjacent(b, t):
                    near = 1
                    break
                if dx == 1 and dy == 1:
                    near = 2
            if near == 1:
                opt1.append(b)
            elif near == 2:
                opt2.append(b)
    if opt1:
        return 1, _order(opt1), ("1", targets, best)
    if opt2:
        return 2, _order(opt2), ("2", targets, best)
    all_fields = hero_fields(s)
    fields = [all_fields[t] for t in tat]
    opt3 = []
    for b in steps:
        d = INF
        for f in fields:
            v = f.get(b, INF)
            if v < d:
                d = v
        if d == best - 1:
            opt3.append(b)
    if opt3:
        return 3, _order(opt3), ("3", targets, best)
    return 0, [], ("blocked", targets, best)


def _names(s: NiflheimState, hids: list[str]) -> str:
    return " and ".join(s.heroes[t].name for t in hids)


def _order(squares: list[Sq]) -> list[Sq]:
    if len(squares) == 1:
        return squares
    return sorted(squares, key=lambda q: (q[1], q[0]))


def move_value(s: NiflheimState, u: Undead) -> int:
    """MV; unrevealed undead move as draugr; Leader of the Pack gives MV 1 undead +1."""
    kind = u.kind or "draugr"
    mv = s.content.undead[kind].mv
    if mv == 1 and kind != "mardrom":
        for x in s.undead.values():  # (a loop: this runs at every undead activation)
            if x.kind == "mardrom" and x.id != u.id:
                return mv + 1
    return mv


# ----------------------------------------------------------------------------- activation
def activation_candidates(s: NiflheimState) -> list[int]:
    """Unactivated undead closest to a hero (ties: the players choose)."""
    best = INF
    ids: list[int] = []
    nearest = reach(s).nearest
    for u in s.undead.values():
        if u.activated:
            continue
        m = nearest.get(u.at)
        if m is None:
            d = distances_from(s, u.at)
            m = nearest[u.at] = min(d.values()) if d else INF
        if m < best:
            best, ids = m, [u.id]
        elif m == best:
            ids.append(u.id)
    if not ids:
        return []
    ids.sort()
    return ids if best < INF else ids[:1]


def attack_targets(s: NiflheimState, u: Undead) -> list[str]:
    """Heroes adjacent to the undead, not behind a red line (a locking undead always wounds the
    hero it locks)."""
    adjacent, at, uid = s.board.adjacent, u.at, u.id
    out = []
    for h in s.heroes.values():
        if h.status != "active" or h.at is None:
            continue
        if h.locked_by == uid:
            return [h.id]
        if adjacent(h.at, at):
            out.append(h.id)
    return out


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
    board = s.board
    key = ("by range", at)
    ring = board.cache.get(key)
    if ring is None:
        ring = board.remember(key, sorted((grid.manhattan(q, at), q[1], q[0])
                                          for q in board.terrain))
    best = INF
    out: list[Sq] = []
    for d, y, x in ring:
        if d > best:
            break
        if free((x, y)):
            best = d
            out.append((x, y))
    return out


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
        s.own_pool().add(s.discard)
        events.append(Event("pool", f"The undead pool ran out: {words.plural(len(s.discard), 'marker')} return "
                            "from the discard area", S.ELIMINATED))
        s.discard = []
    if physical_pool(s) <= 0:
        events.append(Event("spawn", f"No undead marker is left in the pool to place on "
                            f"{name(at)}", section))
        return None
    u = Undead(free_id(s), None, at)
    s.undead[u.id] = u
    s.moved(heroes=False)
    events.append(Event("spawn", f"A face-down undead marker ({uname(s, u)}) is placed on "
                        f"{name(at)}", section, {"undead": u.id, "at": name(at)}))
    reveal(s, events)
    return u.id
