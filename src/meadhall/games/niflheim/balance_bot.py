"""A greedy heuristic party for measuring the balance of Gates of Niflheim's authored content.

Not a rules module: it only reads the state and picks among ``legal_actions()`` texts.
Strategy: go for the primary objective (pick up the item to carry, do the special actions it
needs, slay the undead it names, then exit), opening and forcing doors on the way; attack
whenever an attack is available (the best chance first), stand still to attack an adjacent
undead (+2), cover when nothing is in reach and always make a covering attack when offered;
otherwise players' choices take their defaults.

Run: ``python -m meadhall.games.niflheim.balance_bot [games] [scenario] [heroes...]``.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.core.protocol import PLAYERS
from meadhall.games.niflheim import combat, heroes
from meadhall.games.niflheim.figures import Hero
from meadhall.games.niflheim.state import NO_COVER, NiflheimState


def _passable(s: NiflheimState, q: Sq) -> bool:
    return s.board.inside(q) and (not s.board.blocks_move(q) or s.board.at(q) in "+L")


def path_dist(s: NiflheimState, goals: list[Sq], avoid: bool = True) -> dict[Sq, int]:
    """Steps from every square to the nearest goal over terrain (doors count as passable),
    around undead when ``avoid`` (a way blocked by undead costs 6 more per undead)."""
    block = {u.at for u in s.undead.values()} if avoid else set()
    goals = [g for g in goals if s.board.inside(g) and not s.board.blocks_move(g)]
    dist = {g: 0 for g in goals}
    todo = deque(goals)
    while todo:
        a = todo.popleft()
        for b in grid.neighbours(a, diagonal=True):
            if not _passable(s, b) or s.board.step_walled(a, b):
                continue
            if grid.is_diagonal(a, b) and (s.board.at(a) in "+L" or s.board.at(b) in "+L"):
                continue  # the bot goes through doors straight
            nd = dist[a] + 1 + (1 if s.board.hindering(b) else 0) + (6 if b in block else 0)
            if b in dist and dist[b] <= nd:
                continue
            if grid.is_diagonal(a, b) and not any(
                    _passable(s, x) and not s.board.blocks_move(x) for x in grid.side_squares(a, b)):
                continue
            dist[b] = nd
            todo.append(b)
    return dist


def goal(s: NiflheimState, h: Hero) -> tuple[list[Sq], str]:
    """Squares the hero heads for and why: the item to carry, a special square, a named undead,
    or the exit."""
    obj = s.scenario.objective
    if obj.carry and not any(x.carries(obj.carry) for x in s.heroes.values() if x.on_map):
        sq = [q for q, items in s.items.items() if obj.carry in items]
        if sq:
            return [q for q0 in sq for q in [q0, *grid.neighbours(q0)]], "item"
    todo = [lab for lab in obj.after if lab not in s.done]
    if todo:
        sp = s.scenario.specials[todo[0]]
        q = grid.sq(sp.square)
        return ([q] if not sp.figure else []) + list(grid.neighbours(q)), "special"
    foes = [u.at for u in s.undead.values() if u.kind in obj.kill]
    if foes:
        return [n for f in foes for n in grid.neighbours(f)], "kill"
    if obj.carry and not h.carries(obj.carry):
        carrier = [x.at for x in s.heroes.values() if x.on_map and x.carries(obj.carry)]
        if carrier:
            return [n for c in carrier for n in grid.neighbours(c)], "carrier"
    return [grid.sq(e.square) for e in s.scenario.exits], "exit"


class NiflheimBot:
    """Picks an action text for a Gates of Niflheim state (see the module docstring)."""

    def choose(self, s: NiflheimState) -> str:
        opts = [a.text for a in s.legal_actions()]
        d = s.decision()
        assert d is not None
        if s.choice is not None:
            kind = s.choice["kind"]
            if kind == "cover":
                attacks = [o for o in opts if o != NO_COVER]
                return self.best_attack(s, attacks) if attacks else NO_COVER
            if kind == "initiative":
                return "heroes go first"
            if d.seat == PLAYERS and d.default:
                return d.default
            return opts[0]
        h = s.heroes[s.active]  # type: ignore[index]
        return self.act(s, h, opts)

    # ------------------------------------------------------------ attacks
    def chance(self, s: NiflheimState, text: str) -> float:
        """A rough value of an attack: chance to wound (x2) plus chance to stun."""
        hid = text.split()[1] if text.startswith("cover: ") else s.active
        h = s.heroes[hid]  # type: ignore[index]
        prefix = f"cover: {hid} " if text.startswith("cover: ") else ""
        p = next((p for p in combat.plans(s, h, prefix=prefix) if p.text == text), None)
        if p is None:
            return 0.0
        u = s.undead[p.undead]
        cover = h.marker.split()[1] if prefix and h.marker else None
        drm = sum(m for m, _ in combat.modifiers(s, h, u, p, cover))
        def ok(n: int) -> float:
            return max(0, min(11, 13 - (n - drm))) / 12
        return 2 * ok(p.wound) + ok(p.stun) - (0.5 if p.skill else 0)

    def best_attack(self, s: NiflheimState, attacks: list[str]) -> str:
        return max(attacks, key=lambda a: self.chance(s, a))

    # ------------------------------------------------------------ a hero's activation
    def act(self, s: NiflheimState, h: Hero, opts: list[str]) -> str:
        assert h.at is not None
        if h.intent is None:
            return self.declare(s, h, opts)
        specials = [o for o in opts if o.startswith(("rescue", "search", "force locked"))]
        if specials:
            return specials[0]
        swap = self.swap(s, h, opts)
        if swap:
            return swap
        attacks = [o for o in opts if o.startswith("attack")]
        if attacks and self.chance(s, self.best_attack(s, attacks)) > 0.3:
            return self.best_attack(s, attacks)
        phials = [o for o in opts if o.startswith("throw")]
        if phials and h.intent == "stationary":
            return phials[0]
        obj = s.scenario.objective
        for o in opts:
            if o.startswith("pick up") and any(
                    i == obj.carry or s.content.armoury[i].kind == "weapon"
                    for i in s.items.get(grid.sq(o.split()[-1]), [])):
                return o
        if any(o.startswith("exit") for o in opts):
            g, why = goal(s, h)
            if why == "exit":
                return next(o for o in opts if o.startswith("exit"))
        for o in opts:
            if o.startswith("ready ") and "off hand" not in o and h.ready is None:
                return o
        step = self.step(s, h, opts)
        if step:
            return step
        if attacks:
            return self.best_attack(s, attacks)
        return "end activation"

    def swap(self, s: NiflheimState, h: Hero, opts: list[str]) -> str | None:
        """Ready the best H2H weapon next to an undead, a ranged one otherwise."""
        if h.marker is not None:
            return None
        arm = s.content.armoury
        assert h.at is not None
        close = any(u.kind and grid.is_orthogonal(u.at, h.at) for u in s.undead.values())

        def h2h(w: str | None) -> int:
            v = arm[w].h2h if w else combat.UNARMED
            return v[0] if v else 13

        def rng(w: str | None) -> int:
            v = arm[w].r if w else None
            return v[0] if v else 13
        score = h2h if close else rng
        best = min((o for o in opts if o.startswith("ready ") and "off hand" not in o),
                   key=lambda o: score(o.split()[1]), default=None)
        if best and score(best.split()[1]) < score(h.ready):
            return best
        return None

    def declare(self, s: NiflheimState, h: Hero, opts: list[str]) -> str:
        assert h.at is not None
        if h.locked_by is not None:
            return "declare stationary"
        here = heroes.specials_here(s, h)
        g, why = goal(s, h)
        needed = [lab for lab in s.scenario.objective.after if lab not in s.done]
        if any(x.split()[1] in needed for x in here):
            return "declare stationary"
        if any(s.board.at(d) == "L" for d in grid.neighbours(h.at)):
            dist = path_dist(s, g)
            if any(s.board.at(d) == "L" and dist.get(d, 99) < dist.get(h.at, 99)
                   for d in grid.neighbours(h.at)):
                return "declare stationary"
        adjacent = [u for u in s.undead.values() if u.kind and grid.is_orthogonal(u.at, h.at)]
        dist = path_dist(s, g)
        occ = s.occupancy()
        free_way = any(dist.get(q, 99) < dist.get(h.at, 99) and q not in occ
                       and not s.board.blocks_move(q) for q in grid.neighbours(h.at, True))
        if adjacent and not free_way and s.scenario.attacks and combat.plans(s, h):
            if self.swap(s, h, [f"ready {w}" for w in h.gear
                                if s.content.armoury[w].kind == "weapon"]):
                return "declare walking"  # 1 MP to ready a better H2H weapon
            return "declare stationary"
        near = [u for u in s.undead.values() if u.kind and grid.manhattan(u.at, h.at) <= 4]
        if not near and "declare running" in opts:
            return "declare running"
        return "declare walking"

    def step(self, s: NiflheimState, h: Hero, opts: list[str]) -> str | None:
        assert h.at is not None
        g, why = goal(s, h)
        dist = path_dist(s, g)
        here = dist.get(h.at, 99)
        if here == 0:
            return None
        for o in opts:
            if o.startswith("open door") and dist.get(grid.sq(o.split()[-1]), 99) < here:
                return o
        best: tuple[Any, ...] | None = None
        for o in opts:
            if not o.startswith("move "):
                continue
            q = grid.sq(o.split()[1])
            d = dist.get(q, 99)
            if d >= here:
                continue
            # Keep out of zones of control unless it is the goal itself.
            danger = 3 if d > 0 and any(
                u.kind is not None and not u.stunned and grid.is_orthogonal(u.at, q)
                for u in s.undead.values()) else 0
            key = (d + danger, o.count("past"))
            if best is None or key < best[0]:
                best = (key, o)
        return best[1] if best else None


def measure(games: int, setup: dict[str, Any], first_seed: int = 0) -> dict[str, int]:
    """Play ``games`` games with the bot; count wins, losses and unfinished games."""
    from meadhall.games.niflheim.game import GAME

    bot = NiflheimBot()
    out = {"win": 0, "loss": 0, "unfinished": 0}
    for seed in range(first_seed, first_seed + games):
        s = GAME.new_game(setup, seed)
        for _ in range(3000):
            if s.outcome().over or s.decision() is None:
                break
            s.apply(bot.choose(s))
        r = s.outcome().result
        out[r if r in out else "unfinished"] += 1
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    sc = sys.argv[2] if len(sys.argv) > 2 else "1"
    hs = sys.argv[3:] or ["frida"]
    chars = [x for x in hs if x not in ("gunnar", "archer", "shield_maiden")]
    husk = [x for x in hs if x in ("gunnar", "archer", "shield_maiden")]
    print(sc, hs, measure(n, {"scenario": sc, "heroes": chars, "huskarls": husk}))
