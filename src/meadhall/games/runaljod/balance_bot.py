"""A greedy heuristic bot for measuring the balance of Runaljod's authored content.

Not a rules module: it only reads the state and picks among ``legal_actions()`` texts.
Strategy: buy attack skills, recover when fallen, attack whenever possible (skill attacks
first, the weakest or final enemy first), otherwise search, heal, help, then walk toward the
enemies (melee: next to one; range: a space that sees one) or, with no enemy left, to the exit
of the last tile and explore. Basic actions spend face down runes first, keeping face up runes
for skills and checks. Players' choices take their defaults.

Run: ``python -m meadhall.games.runaljod.balance_bot [games] [scenario] [heroes...]``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from meadhall.core import grid
from meadhall.core.graph import distances
from meadhall.core.grid import Sq
from meadhall.core.protocol import PLAYERS, GameState

from .model import Hero
from .state import RunaljodState

SKILL_PREFERENCE = ("war_cry", "frenzy", "spirit_bolt", "volley", "quick_shot", "cleave",
                    "shield_bash", "seidr", "bloodlust", "second_wind", "trapper", "veil",
                    "rune_sight", "charge", "stalk", "leap", "norns_weave")


def _rune_of(text: str) -> str:
    return text.rpartition(" using ")[2] if " using " in text else ""


class GreedyBot:
    """Picks an action text for a Runaljod state (see the module docstring)."""

    def choose(self, st: RunaljodState) -> str:
        opts = [a.text for a in st.legal_actions()]
        d = st.decision()
        assert d is not None
        if d.seat == PLAYERS and d.default:
            return d.default
        ask = st.ask
        if ask is not None:
            return self.sub_choice(st, ask, opts)
        return self.action(st, st.heroes[st.active], opts)

    # ------------------------------------------------------------ sub-decisions
    def sub_choice(self, st: RunaljodState, ask: dict, opts: list[str]) -> str:
        kind = ask["kind"]
        if kind == "prep":
            for sid in SKILL_PREFERENCE:
                for o in opts:
                    if o == f"buy {st.names.skill[sid]}":
                        return o
            return opts[-1]
        if kind == "recover":
            return "recover on my own"
        if kind == "rethrow":
            h = st.heroes[ask["seat"]]
            up = sum(1 for r in h.pool() if r.face_up)
            return "keep the throw" if up >= 2 else opts[-1]
        if kind == "move":
            return self.step(st, st.heroes[ask["seat"]], opts)
        if kind in ("cond", "hold", "ice"):
            for o in opts:
                if o.startswith(("remove the wound", "physical check", "place ")):
                    return o
            return opts[0]
        if kind == "mark":
            faces = ask["ctx"]["faces"]
            return opts[-1] if sum(f != "blank" for f in faces) <= len(faces) // 2 else opts[0]
        if kind == "found":
            return opts[0]
        if kind == "odin":
            return opts[0]
        return opts[0]

    # ------------------------------------------------------------ actions phase
    def action(self, st: RunaljodState, h: Hero, opts: list[str]) -> str:
        def pick(cands: list[str]) -> str | None:
            if not cands:
                return None
            down = {st.rname(r) for r in h.pool() if not r.face_up}
            return min(cands, key=lambda t: (_rune_of(t) not in down, t))

        def target_key(t: str) -> tuple:
            where = t.split("attack ")[1].split()[0]
            e = st.enemy_at(grid.sq(where))
            if e is None:
                return (9, 99)
            d = st.enemy_data(e)
            return (0 if d.final else 1, d.life - e.damage)

        attacks = [o for o in opts if ": attack " in o or o.startswith(("attack ", "reduced "))]
        skill_attacks = [o for o in attacks if o.startswith("skill ")]
        for group in (skill_attacks, [o for o in attacks if o.startswith("attack ")],
                      [o for o in attacks if o.startswith("reduced attack ")]):
            if group:
                best = min(target_key(o) for o in group)
                a = pick([o for o in group if target_key(o) == best])
                if a:
                    return a
        up = {st.rname(r) for r in h.pool() if r.face_up}
        for o in opts:
            if o.startswith("assist ") and _rune_of(o) in up:
                return o
        a = pick([o for o in opts if o.startswith("assist ")])
        if a:
            return a
        if h.damage >= 3:
            for o in opts:
                if o.startswith(("skill bloodlust", "skill second wind", "skill seidr")) \
                        or o.startswith("use healing herbs"):
                    return o
        if st.enemies and any(o.startswith("invoke thor on every enemy") for o in opts) \
                and len(st.enemies) >= 2:
            return next(o for o in opts if o.startswith("invoke thor on every enemy"))
        a = pick([o for o in opts if o.startswith("explore using")])
        if a:
            return a
        a = pick([o for o in opts if o.startswith("search ")])
        if a:
            return a
        goal = self.goal(st, h)
        if goal and h.at not in goal:
            moves = [o for o in opts if o.startswith("move ")]
            first = f"move {st.move_spaces(h)[0][1]} " if moves else ""
            a = pick([o for o in moves if o.startswith(first)]) or pick(moves)
            if a:
                return a
        for o in opts:
            if o.startswith("2-player card: heal") and h.damage >= 2:
                return o
        return "pass"

    # ------------------------------------------------------------ movement
    def goal(self, st: RunaljodState, h: Hero) -> set[Sq]:
        """Where the hero wants to stand: next to an enemy (melee) or seeing one (range);
        with no enemy, next to the exit of the last tile."""
        free = [s for s in st.terrain if not st.is_obstacle(s)]
        if st.enemies:
            ranged = any("range" in st.content.items[w].keywords for w in st.weapons(h))
            out = set()
            for e in st.enemies:
                for q in e.squares:
                    for s in free:
                        if ranged and st.sees(s, q) and grid.chebyshev(s, q) <= 5 or \
                                grid.chebyshev(s, q) == 1:
                            out.add(s)
            return out
        last = st.tiles[-1]
        rows = st.content.tiles[last.tile].rows
        exits = [(last.x + x, y) for y, r in enumerate(rows) for x, ch in enumerate(r)
                 if ch == "x"]
        return {s for s in free for x in exits if grid.chebyshev(s, x) <= 1}

    def dist(self, st: RunaljodState, h: Hero, frm: Sq, goal: set[Sq]) -> float:
        def step(a: Sq) -> Iterator[tuple[Sq, int]]:
            for n in grid.neighbours(a, diagonal=True):
                c = st.hero_step_cost(h, a, n)
                if c is not None:
                    yield n, c
        d = distances(frm, step, limit=40)
        return min((d.get(s, float("inf")) for s in goal), default=float("inf"))

    def step(self, st: RunaljodState, h: Hero, opts: list[str]) -> str:
        goal = self.goal(st, h)
        assert h.at is not None
        here = self.dist(st, h, h.at, goal) if "end move" in opts else float("inf")
        best, best_d = "end move" if "end move" in opts else opts[0], here
        for o in opts:
            if o.startswith("step "):
                s = grid.sq(o.split()[1])
                if s in st.bonfires:
                    continue
                dd = self.dist(st, h, s, goal)
                if dd < best_d:
                    best, best_d = o, dd
        return best


def play(state: GameState, bot: GreedyBot, max_steps: int = 4000) -> GameState:
    for _ in range(max_steps):
        if state.outcome().over:
            break
        state.apply(bot.choose(state))  # type: ignore[arg-type]
    return state


def main(argv: list[str]) -> None:
    from meadhall import games

    n = int(argv[0]) if argv else 100
    scenario = argv[1] if len(argv) > 1 else "adventure"
    heroes = argv[2:] or ["berserk", "volva"]
    g = games.get("runaljod")
    res: dict[str, int] = {}
    rounds = []
    for seed in range(n):
        st = play(g.new_game({"scenario": scenario, "heroes": heroes}, seed), GreedyBot())
        r = st.outcome().result
        res[r] = res.get(r, 0) + 1
        rounds.append(st.round)  # type: ignore[attr-defined]
    print(scenario, heroes, res, f"mean rounds {sum(rounds) / len(rounds):.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
