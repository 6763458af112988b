"""Balance measurement for the authored stand-ins: a small heuristic bot and a win-rate runner.

Not a rule module and not a general bot (those live in ``meadhall.bots``): the heuristics read
this game's state directly. Run ``python -m meadhall.games.battleforge.balance [games]
[scenario]`` to measure the heuristic bot and the random bot on a scenario.

The heuristic ("sensible strategy"): keep the Action Cubes piled in one attack space, attack Thor
with the biggest pile (back faces and the weakest face first), kill minions that threaten the
scenario's points of interest or share the champion's area, heal when low, defend big hits with a
space that is not the attack pile, make offerings at altars on the way, and move next to Thor.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from meadhall.bots.random import RandomBot

from .state import BattleForgeState

EV = {"white": 0.625, "red": 1.0, "green": 0.625}  # expected damage per die, from the faces


class HeuristicBot:
    """Greedy one-decision-at-a-time play driven by the state; deterministic."""

    def choose(self, s: BattleForgeState) -> str:
        opts = [a.text for a in s.legal_actions()]
        ask = s.ask or {}
        h = ask.get("h")
        handler = getattr(self, "h_" + str(h), None)
        if handler is not None:
            pick = handler(s, opts, ask)
            if pick in opts:
                return pick
        d = s.decision()
        return d.default if d is not None and d.default in opts else opts[0]

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def pile(s: BattleForgeState, cid: str) -> int:
        """The space this champion piles cubes in: its biggest Ranged Attack space (Ranged
        reaches three of Thor's faces and minions next door)."""
        c = s.champs[cid]
        best, key = 0, (-1, -1)
        for i in range(6):
            icons = s.space_icons(cid, i)
            if "ranged" not in icons and "melee" not in icons:
                continue
            k = (1 if "ranged" in icons else 0,
                 len(c.rondel[i]) + s.boon_bonus(cid, i, "ranged") + s.boon_bonus(cid, i, "melee"))
            if k > key:
                best, key = i, k
        return best

    def attack_ev(self, s: BattleForgeState, cid: str, space: int, icon: str, target: str) -> float:
        c = s.champs[cid]
        white = len(c.rondel[space]) + s.boon_bonus(cid, space, icon)
        red = c.attrs["red"] + s.turn.get("add_red", 0)
        ev = white * EV["white"] + red * EV["red"] + c.attrs["green"] * EV["green"]
        if target.startswith("thor-"):
            face = target[5:]
            if face == "purple":
                ev += EV["white"]
            if face == "orange":
                ev -= EV["white"]
            ev -= len([f for f in s.thor["destroyed"] if f != face])
            if face == "yellow":
                ev = min(ev, 2.0)
        return max(0.0, ev)

    def goals(self, s: BattleForgeState) -> set[str]:
        """Areas to attack from: next to Thor where a Face in Ranged reach is not destroyed, or
        at/next to a minion that hunts the scenario's points of interest (AshFolk)."""
        out: set[str] = set()
        if s.thor["activated"]:
            faces = s.content.god.faces
            for a in s.board.adjacent(s.thor_area):
                d = s.board.direction(s.thor_area, a)
                if d is None:
                    continue
                i = faces.index(s.face_at(d))
                if any(faces[(i + k) % 6] not in s.thor["destroyed"] for k in (-1, 0, 1)):
                    out.add(a)
        for m in s.minions.values():
            if m.area is not None and s.minion_side(m.type).target != "champions":
                out.add(m.area)
                out.update(s.board.adjacent(m.area))
        out.discard(s.thor_area)
        return out

    def thor_distance(self, s: BattleForgeState, area: str) -> float:
        """Walking distance from ``area`` to the nearest goal area (0 if there is none)."""
        goals = self.goals(s)
        if not goals:
            return 0.0
        dist = s.board.walking(area)
        return min((dist.get(a, 99) for a in goals), default=99)

    # ------------------------------------------------------------------ decisions
    def h_turn(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        cid = ask["seat"]
        c = s.champs[cid]
        best: tuple[float, str] = (0.0, "end turn")
        hp = s.face_health()
        for o in opts:
            p = o.split()
            score = 0.0
            if p[0] in ("melee", "ranged"):
                space, target = int(p[2]) - 1, s.target_id(o.split(" at ", 1)[1])
                ev = self.attack_ev(s, cid, space, p[0], target)
                if target.startswith("thor-"):
                    left = hp - s.thor["damage"][target[5:]]
                    score = 10 + ev * 5 + (20 if ev >= left else 0)
                    if target[5:] == "red":
                        score -= 3
                    if ev < min(1.5, left):
                        score = 0
                else:
                    m = s.minions[target]
                    left = s.minion_side(m.type).health - m.damage
                    threat = s.minion_side(m.type).target != "champions"
                    score = (30 if threat else 4) + ev * 3 + (10 if ev >= left else 0)
                    if ev < 1.5:
                        score -= 8
                    if not threat and space == self.pile(s, cid):
                        score -= 6
            elif p[0] == "heal" and len(p) == 3:
                n = len(c.rondel[int(p[2]) - 1]) + s.boon_bonus(cid, int(p[2]) - 1, "heal")
                if c.health <= 6:
                    score = 30 + n
            elif p[0] == "ritual":
                if c.area in s.board.altars and c.area not in c.offerings:
                    score = 25
                elif int(p[2]) - 1 != self.pile(s, cid) and min(c.charges.values()) < 3 and (
                        c.form == "berserker" or c.charges["human"] < 3):
                    score = 6
            elif p[0] == "move":
                space = int(p[2]) - 1
                need = self.thor_distance(s, c.area)
                if need > 0:
                    n = len(c.rondel[space]) + c.attrs["movement"]
                    score = 12 - abs(n - need) - (5 if space == self.pile(s, cid) else 0)
            elif p[0] == "relocate":
                pile = self.pile(s, cid)
                spare = sum(len(x) for i, x in enumerate(c.rondel) if i != pile) - sum(
                    x.count("f") for i, x in enumerate(c.rondel) if i != pile)
                score = 2 if spare else 0
            elif p[0] == "skill":
                score = self.skill_score(s, cid, " ".join(p[1:]), opts)
            elif p[0] == "taunt":
                score = 1
            if score > best[0]:
                best = (score, o)
        if best[1] not in opts:
            # The 3 Actions are compulsory: the most harmless one (cubes into the pile, else a
            # Move from the smallest space other than the pile, then standing still).
            if "relocate" in opts:
                return "relocate"
            pile = self.pile(s, cid)
            moves = [o for o in opts if o.startswith("move ") and int(o.split()[2]) - 1 != pile]
            if moves:
                return min(moves, key=lambda o: len(c.rondel[int(o.split()[2]) - 1]))
        return best[1]

    def skill_score(self, s: BattleForgeState, cid: str, name: str, opts: list[str]) -> float:
        form = "human" if s.skill_of(cid, "human").name == name else "berserker"
        eff = s.skill_of(cid, form).effect
        attacks = [o for o in opts if o.split()[0] in ("melee", "ranged")
                   and " at Thor's " in o]
        if eff in ("temp_cube",):
            return 40
        if eff == "heal_1_temp":
            return 40 if s.champs[cid].health < 15 else 0
        if eff in ("add_red_2", "long_reach"):
            return 40 if attacks and s.turn["actions"] > 0 else 0
        if eff == "heal_other":
            return 40 if any(s.champs[o].health <= 6 for o in s.heal_others(cid)) else 0
        return 0

    def h_step(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        cid = ask["seat"]
        here = self.thor_distance(s, s.champs[cid].area)
        if here == 0 and "stop moving" in opts:
            return "stop moving"
        best = None
        for o in opts:
            if o.startswith("step "):
                d = self.thor_distance(s, o.split()[-1])
                if best is None or d < best[0]:
                    best = (d, o)
        if best is not None and best[0] < here:
            return best[1]
        return "stop moving" if "stop moving" in opts else None

    def h_relocate(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        cid = ask["seat"]
        c = s.champs[cid]
        to = self.pile(s, cid)
        moves = [o for o in opts if o.startswith("relocate ") and int(o.split()[-1]) - 1 == to]
        if not moves:
            return "done relocating" if "done relocating" in opts else None
        return min(moves, key=lambda o: len(c.rondel[int(o.split()[-4]) - 1]))

    def h_place(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        return f"place in space {self.pile(s, ask['seat']) + 1}"

    def h_boon(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        """Greater Boon on the attack pile first, then a Ranged (or Melee) Boon next to it."""
        pile = self.pile(s, ask["seat"]) + 1

        def key(o: str) -> tuple[int, int]:
            space = int(o.split()[-1])
            near = min((space - pile) % 6, (pile - space) % 6)
            if o.startswith("greater"):
                return (0 if space == pile else 2, near)
            sym = o.split()[0]
            return (1 if sym in ("ranged", "melee") else 3, near)

        return min(opts, key=key) if opts else None

    def h_defend(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        cid = ask["seat"]
        c = s.champs[cid]
        t = s.tasks[0]
        n = t["n"]
        for o in opts:
            if o.startswith("skill "):
                return o
        if n < 2 and c.health > 3:
            return None
        pile = self.pile(s, cid)
        best = None
        for o in opts:
            if o.startswith("defend with space "):
                i = int(o.split()[-1]) - 1
                st = len(c.rondel[i]) + s.boon_bonus(cid, i, "defense")
                key = (i != pile or c.health - n <= 2, min(st, n), -st)
                if best is None or key > best[0]:
                    best = (key, o)
        return best[1] if best else None

    def h_manage(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        dice = s.atk["dice"] if s.atk else []
        misses = sum(1 for d in dice if d[1] == "miss")
        for o in opts:
            if o.startswith("skill "):
                return o
        if misses:
            rer = [o for o in opts if o.startswith("reroll with space ")]
            if rer:
                return min(rer, key=lambda o: abs(len(s.champs[s.atk["c"]].rondel[
                    int(o.split()[-1]) - 1]) - misses))
        return "keep the dice"

    def h_pick(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        dice = s.atk["dice"]
        for o in opts:
            if " die " in o and dice[int(o.split()[-1]) - 1][1] == "miss":
                return o
        return next((o for o in opts if o.endswith("the chosen dice")), None)

    def h_window(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        return opts[0]

    def h_skill_prevent(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str:
        t = s.tasks[0]
        return opts[0] if t["n"] >= 2 and ask["seat"] not in t.get("used", []) else "pass"

    def h_anytime(self, s: BattleForgeState, opts: list[str], ask: dict[str, Any]) -> str | None:
        return next((o for o in opts if o.startswith("skill ")), None)


def play(game: Any, seed: int, setup: dict[str, Any], bot: Any, max_steps: int = 4000
         ) -> BattleForgeState:
    s = game.new_game(setup, seed)
    for _ in range(max_steps):
        if s.outcome().over:
            break
        s.apply(bot.choose(s) if isinstance(bot, HeuristicBot) else bot.choose(s).text)
    return s


def measure(n: int = 100, scenario: str = "last_flame", heroes: tuple[str, ...] = (
        "ragnar", "lagertha"), random_games: int | None = None) -> dict[str, Any]:
    """Win rates of the heuristic bot (seeds 0..n-1) and of the random bot, with loss reasons."""
    from meadhall import games

    g = games.get("battleforge")
    setup = {"scenario": scenario, "heroes": list(heroes)}
    out: dict[str, Any] = {}
    for name, count in (("heuristic", n), ("random", random_games if random_games is not None
                                           else n)):
        wins, reasons, rounds = 0, Counter[str](), 0
        for seed in range(count):
            bot = HeuristicBot() if name == "heuristic" else RandomBot(seed * 7919 + 1)
            s = play(g, seed, setup, bot)
            o = s.outcome()
            wins += o.result == "win"
            reasons[o.reason.split(":")[0][:60]] += 1
            rounds += s.round
        out[name] = {"games": count, "wins": wins, "rate": wins / max(1, count),
                     "avg_round": rounds / max(1, count), "reasons": dict(reasons)}
    return out


if __name__ == "__main__":  # pragma: no cover - a measurement script
    import json

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    sc = sys.argv[2] if len(sys.argv) > 2 else "last_flame"
    heroes = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else ("ragnar", "lagertha")
    print(json.dumps(measure(n, sc, heroes), indent=1))
