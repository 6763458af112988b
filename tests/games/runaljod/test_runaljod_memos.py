"""What the speed work remembers or bounds answers exactly what a fresh, unbounded computation
answers, at every step of random games: the board's shared tables (steps, exits, tiles of
squares) against tables built afresh from the tiles in play, a hero's cached skills against a
fresh reading of the content, a hero's step tables against the step rule, and the enemies'
bounded searches (Movement, Sight, the closest hero) against reference versions that search the
whole board with a plain Dijkstra over ``enemy_cost_fn``, the step rule written out square by
square."""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable
from typing import Any

import pytest

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.games.runaljod import GAME
from meadhall.games.runaljod.board import BoardMap
from meadhall.games.runaljod.model import Enemy, Hero
from meadhall.games.runaljod.state import RunaljodState

INF = float("inf")


class Reference(RunaljodState):
    """The enemies' evaluation as first written: whole-board fields from the step rule."""

    def ref_field(self, e: Enemy, starts: Iterable[Sq], reverse: bool = False,
                  limit: int | None = None) -> dict[Sq, float]:
        cost = self.enemy_cost_fn(e)
        t = self.terrain
        dist: dict[Sq, float] = {}
        heap = [(0, s) for s in starts]
        for _, s in heap:
            dist[s] = 0
        heapq.heapify(heap)
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist[n]:
                continue
            for m in grid.neighbours(n, diagonal=True):
                if m not in t:
                    continue
                c = cost(m, n) if reverse else cost(n, m)
                if c is None or (limit is not None and d + c > limit):
                    continue
                if d + c < dist.get(m, INF):
                    dist[m] = d + c
                    heapq.heappush(heap, (d + c, m))
        return dist

    def reach(self, e: Enemy, toward: Sq | None = None) -> dict[Sq, float]:  # type: ignore[override]
        mp = self.enemy_data(e).move + sum(r.value for r in self.active_rules()
                                           if r.kind == "enemy_move")
        return self.ref_field(e, [self.lead(e, toward)], limit=mp)

    def closest_heroes(self, e: Enemy, pool: list[Hero]) -> list[Hero]:
        if len(pool) <= 1:
            return list(pool)
        dist = self.ref_field(e, e.squares)

        def d(h: Hero) -> float:
            best = min(dist.get(n, INF) for n in grid.neighbours(h.at, diagonal=True))
            return best if best < INF else 100 + min(grid.chebyshev(q, h.at)
                                                     for q in e.squares)
        ds = [d(h) for h in pool]
        return [h for h, x in zip(pool, ds, strict=True) if x == min(ds)]

    def move_choices(self, e: Enemy, targets: list[str]) -> Any:
        h = self.move_target(e, targets)
        if h is None:
            return [], [], "no hero to move toward"
        near = next((o for o in self.heroes_for(e)
                     if o.held_by == e.uid or any(self.adjacent(q, o.at) for q in e.squares)),
                    None)
        if near is not None:
            return [], [], f"already adjacent to {self.hname(near)}"
        stands = self.stands_within(e, h.at)
        why = f"toward {self.hname(h)}"
        at_goal = [fp for fp in stands if any(self.adjacent(q, h.at) for q in fp)]
        if at_goal:
            occ = self.occupied() - set(e.squares)
            allowed = self.best(at_goal, lambda fp: (-self.heroes_adjacent(fp, e),
                                                     not self.attacks_from(e, fp, h, occ)))
            return (self.best(allowed, stands.__getitem__), allowed,
                    why + f", ending adjacent to {self.hname(h)}")
        goals = [n for n in grid.neighbours(h.at, diagonal=True) if self.enemy_can_end(e, n)]
        to_goal = self.ref_field(e, goals, reverse=True)
        lefts = {fp: min(to_goal.get(q, INF) for q in fp) for fp in stands}
        moving = [fp for fp in stands if lefts[fp] < INF]
        if not moving:
            allowed = self.best(list(stands),
                                lambda fp: min(grid.chebyshev(q, h.at) for q in fp))
            return (self.best(allowed, stands.__getitem__), allowed,
                    why + " (no route: nearest possible space)")
        allh = [x.at for x in self.heroes_for(e)]
        allowed = self.best(moving, lambda fp: (lefts[fp], -self.heroes_adjacent(fp, e)))
        return (self.best(allowed, lambda fp: (
            sum(min(grid.chebyshev(q, a) for q in fp) for a in allh), stands[fp])),
            allowed, why)

    def sight_options(self, e: Enemy, targets: list[str]) -> Any:
        order = self.icon_heroes(targets, e)
        rest = [h for h in self.closest_heroes(e, self.heroes_for(e)) if h not in order]
        moved = self.occupied() - set(e.squares)  # lines from a new space: it has left
        for h in order + rest:
            if any(self.sees(q, h.at) for q in e.squares):
                return [], f"it already sees {self.hname(h)}"
            stands = self.stands_within(e, h.at)
            why = f"to sight {self.hname(h)}"
            ok = [fp for fp in stands if any(self.sees(q, h.at, moved) for q in fp)]
            if ok:
                return self.best(ok, stands.__getitem__), why
            can_end = self.enemy_end_test(e)
            seeing = [s for s in self.terrain if can_end(s) and self.sees(s, h.at, moved)]
            if not seeing:
                continue
            to_goal = self.ref_field(e, seeing, reverse=True)
            cand = [fp for fp in stands if any(q in to_goal for q in fp)]
            if cand:
                return self.best(cand, lambda fp, t=to_goal, st=stands: (
                    min(t.get(q, INF) for q in fp), st[fp])), why
        return [], "no space from which it can see a hero"


def fresh_board(st: RunaljodState) -> BoardMap:
    """The board's tables built from the tiles in play, without the shared cache."""
    terrain: dict[Sq, str] = {}
    tile: dict[Sq, int] = {}
    for i, t in enumerate(st.tiles):
        for y, row in enumerate(st.content.tiles[t.tile].rows):
            for x, ch in enumerate(row):
                terrain[(t.x + x, y)] = ch
                tile.setdefault((t.x + x, y), i)
    m = BoardMap(terrain)
    last = st.tiles[-1]
    m.exits = tuple((last.x + x, y) for y, r in enumerate(st.content.tiles[last.tile].rows)
                    for x, ch in enumerate(r) if ch == "x")
    m.tile = tile
    return m


def board_answers(m: BoardMap) -> dict[str, Any]:
    # the text rows are built on first use: compared as the board answers them (the marked
    # rows are a cache of RunaljodState.board_rows, compared with a fresh build elsewhere)
    return {**{k: getattr(m, k) for k in BoardMap.__slots__ if k not in ("_rows", "_marked")},
            "rows": m.rows()}


def check_position(st: RunaljodState) -> None:
    if st.tiles:
        assert board_answers(st.board) == board_answers(fresh_board(st))
    for h in st.heroes.values():
        skills, passives, bonus = st._skill_set(h)
        want = st.board_skills(h) + [(s, st.content.skills[s]) for s in h.skills]
        assert skills == want
        assert passives == [sk.passive for _, sk in want if sk.passive is not None]
        assert bonus == sum(p.value for p in passives if p.kind == "move_bonus")
        if h.at is not None:  # the step tables allow what the step rule allows
            for kw in ((), ("quick",), ("jump",)):
                cost, steps = st.hero_cost_fn(h, kw), st.hero_steps_fn(h, kw)
                for a in (h.at, *st.board.nbrs[h.at]):
                    want = [(b, cost(a, b)) for b in st.board.nbrs.get(a, ())]
                    assert steps(a) == [(b, c) for b, c in want if c is not None]
    if not st.enemies:
        return
    ref = st.clone()
    ref.__class__ = Reference
    heroes = st.standing_heroes()
    for e in st.enemies:
        er = next(x for x in ref.enemies if x.uid == e.uid)
        assert [h.id for h in st.closest_heroes(e, heroes)] == \
            [h.id for h in ref.closest_heroes(er, ref.standing_heroes())]
        for targets in [[h.id] for h in heroes] + [[]]:
            assert st.move_choices(e, targets) == ref.move_choices(er, targets)
            assert st.sight_options(e, targets) == ref.sight_options(er, targets)


@pytest.mark.parametrize(("heroes", "seeds"), [
    (None, range(5)),
    (["volva", "berserk", "hunter", "warrior"], range(2)),
    (["hunter", "warrior"], range(2)),
], ids=["default", "four-heroes", "hunter-warrior"])
def test_memos_and_bounded_searches_answer_as_fresh_computations(
        heroes: list[str] | None, seeds: range) -> None:
    setup = None if heroes is None else {**GAME.default_setup(), "heroes": heroes}
    for seed in seeds:
        st = GAME.new_game(setup, seed)
        assert isinstance(st, RunaljodState)
        rng = random.Random(seed)
        step = 0
        while st.decision() is not None:
            # every step of the enemies' turn, one step in three of the heroes' turn
            if st.phase == "enemies" or step % 3 == 0:
                check_position(st)
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
            step += 1
