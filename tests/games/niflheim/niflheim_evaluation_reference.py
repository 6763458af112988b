"""The evaluation's scores as written before they were made faster (a reference for
``test_niflheim_evaluation.py``): walking fields, objective stages, progress, health and
safety computed plainly, nothing remembered but the board's walking fields."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.games.niflheim.figures import Hero

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

FAR = 99
STEP_COST = {".": 1, "/": 1, "%": 2, "+": 2, "^": 4, "L": 5}
"""The MP a hero pays to enter a square on the way to a goal: a closed door costs its opening,
a locked door stands for the special action that forces it, fire for the wound it burns."""

def walk_field(s: NiflheimState, goals: Iterable[Sq]) -> dict[Sq, int]:
    """MP from every square to the nearest goal over the map, figures ignored (diagonals 2, as
    the Movement Actions table prices them; a diagonal past two blocked squares is no step).
    Cached on terrain, red lines and goals: the map changes only when a door does."""
    board = s.board
    goal_t = tuple(sorted(set(goals)))
    key = ("reference walk", goal_t)
    got = board.cache.get(key)
    if got is not None:
        return got
    dist: dict[Sq, int] = {}
    heap = [(0, g) for g in goal_t if board.inside(g) and board.at(g) in STEP_COST]
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if a in dist:
            continue
        dist[a] = d
        cost_a = STEP_COST[board.at(a)]
        for b in grid.neighbours(a, diagonal=True):
            if b in dist or not board.inside(b) or board.at(b) not in STEP_COST:
                continue
            if board.step_walled(a, b):
                continue
            diagonal = grid.is_diagonal(a, b)
            if diagonal and not any(board.at(q) in "./%^" for q in grid.side_squares(a, b)):
                continue
            # Moving from b to a costs entering a (the field is walked backwards).
            heapq.heappush(heap, (d + cost_a + (1 if diagonal else 0), b))
    return board.remember(key, dist)


def _near(q: Sq, figure: bool) -> list[Sq]:
    """Where a hero may act on ``q``: on or adjacent to it (only adjacent to a figure)."""
    return list(grid.neighbours(q)) + ([] if figure else [q])


def tasks(s: NiflheimState) -> tuple[int, int, list[tuple[list[Sq], str | None]]]:
    """The primary objective as stages: (done, total, goals of the stages open now). Each goal
    is the squares that complete it and the hero who must reach them (``None``: any)."""
    sc = s.scenario
    obj = sc.objective
    done = total = 0
    open_: list[tuple[list[Sq], str | None]] = []
    carrier: str | None = None
    if obj.carry:
        total += 1
        holders = [h for h in s.heroes.values() if h.status != "dead" and h.carries(obj.carry)]
        if holders:
            done += 1
            carrier = holders[0].id
        else:
            where = [q for q, items in s.items.items() if obj.carry in items]
            open_ += [(_near(q, False), None) for q in where]
    for label in obj.after:
        total += 1
        if label in s.done:
            done += 1
        else:
            sp = sc.specials[label]
            open_.append((_near(grid.sq(sp.square), sp.figure), None))
    for kind in obj.kill:
        total += 1
        foes = [u for u in s.undead.values() if u.kind == kind]
        if not foes:
            done += 1
        else:
            open_ += [([n for n in grid.neighbours(u.at)], None) for u in foes]
    total += 1  # leaving by the exit
    if not open_ and done == total - 1:
        exits = [grid.sq(e.square) for e in sc.exits]
        open_.append((exits, carrier))
    return done, total, open_


def progress(s: NiflheimState) -> float:
    """Share of the primary objective done, the stage under way counted by how close the
    nearest able hero is (0..1)."""
    done, total, open_ = tasks(s)
    best = 0.0
    for squares, who in open_:
        heroes = [s.heroes[who]] if who else [h for h in s.heroes.values() if h.on_map]
        field = walk_field(s, squares)
        for h in heroes:
            if not h.on_map:
                continue
            d = field.get(h.at, FAR)  # type: ignore[arg-type]
            best = max(best, 1.0 / (1.0 + d / 3.0))
    if s.active is not None and _special_ready(s, s.heroes[s.active]):
        best = max(best, 1.2)
    return min(1.0, (done + 0.8 * min(best, 1.2) / 1.2) / total)


def _special_ready(s: NiflheimState, h: Hero) -> bool:
    """The active hero stands stationary where a needed special action (or a locked door on its
    way) can be performed now: the stage is as good as done."""
    if h.intent != "stationary" or h.acted or h.marker is not None or not h.on_map:
        return False
    needed = [lab for lab in s.scenario.objective.after if lab not in s.done]
    for lab in needed:
        sp = s.scenario.specials[lab]
        q = grid.sq(sp.square)
        if grid.is_orthogonal(q, h.at) or (q == h.at and not sp.figure):  # type: ignore[arg-type]
            return True
    return any(s.board.at(d) == "L" for d in grid.neighbours(h.at))  # type: ignore[arg-type]


def health(s: NiflheimState) -> float:
    """The party's health, dead heroes counting nothing (0..1)."""
    present = [h for h in s.heroes.values() if h.status in ("active", "exited", "dead")]
    top = sum(h.max_health for h in present)
    return sum(max(0, h.health) for h in present if h.status != "dead") / top if top else 0.0


def danger(s: NiflheimState, h: Hero) -> float:
    """How exposed a hero is: a lock, undead next to it (they lock and wound), undead one
    move away; stunned undead threaten little."""
    assert h.at is not None
    d = 1.5 if h.locked_by is not None else 0.0
    for u in s.undead.values():
        reach = grid.chebyshev(u.at, h.at)
        w = 0.3 if u.stunned else 1.0
        if grid.is_orthogonal(u.at, h.at):
            d += w
        elif reach <= 1:
            d += 0.3 * w
    return d * (2.0 if h.health <= 1 else 1.0)


def safety(s: NiflheimState) -> float:
    """Heroes out of the undead's reach, few undead on the map, covering and armed heroes
    (0..1)."""
    heroes = [h for h in s.heroes.values() if h.on_map]
    if not heroes:
        return 0.0
    exposed = sum(danger(s, h) for h in heroes) / len(heroes)
    threat = sum(0.5 if u.stunned else 1.0 for u in s.undead.values())
    cover = sum(1 for h in heroes if h.marker and h.marker.startswith("cover"))
    armed = sum(1 for h in heroes if h.ready)
    return (0.6 / (1.0 + exposed) + 0.3 / (1.0 + 0.3 * threat)
            + 0.05 * (cover + armed) / len(heroes))


def scenario_value(s: NiflheimState) -> float:
    """The prospects in the scenario under way (0..1)."""
    o = s.scenario_outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    v = 0.03 + W[0] * progress(s) + W[1] * health(s) + W[2] * safety(s)
    if s.active is not None:
        v += 0.001 * s.heroes[s.active].mp  # MP still to spend are worth a little
    return max(0.01, min(0.99, v))


W = [0.7, 0.15, 0.1]
