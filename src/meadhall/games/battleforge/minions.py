"""Minions: activation type by type, movement by shortest path with the printed tie-breaks,
attacks on the closest champion, destruction and standing up (section "Minions")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meadhall.core.graph import all_shortest_paths, distances
from meadhall.core.protocol import PLAYERS, Event

from .basics import (
    S_MIN_ACT,
    S_MIN_ATK,
    S_MIN_DESTROY,
    S_MIN_MOVE,
    S_MIN_RES,
    S_SPECIAL,
)

Task = dict[str, Any]


class Minions:
    """Mixin of :class:`BattleForgeState`: the automated minions."""

    def t_activate(self, t: Task, events: list[Event]) -> None:
        """Activate every minion of one type; they act simultaneously, so the side of the card
        (standard or overheated) is fixed for the whole activation (Minion Activation Resolution)."""
        k = t["type"]
        card = self.minion_card(k)
        over = self.overheated[str(k)]
        side = card.overheated if over else card.standard
        ids = sorted(m.id for m in self.minions.values() if m.type == k)
        events.append(Event("activate", f"Minions {k} ({card.name}, "
                            f"{'Overheated' if over else 'standard'} side) are Activated: "
                            f"{side.actions} Action(s) each", S_MIN_ACT, {"type": k}))
        tasks: list[Task] = [{"t": "minion", "id": m, "left": side.actions,
                              "side": "overheated" if over else "standard", "attacked": []}
                             for m in ids]
        tasks.append({"t": "minion_attacks"})
        tasks.append({"t": "lights"})
        self.tasks[:0] = tasks

    def side_of(self, t: Task) -> Any:
        card = self.minion_card(self.minions[t["id"]].type)
        return card.overheated if t["side"] == "overheated" else card.standard

    def t_minion(self, t: Task, events: list[Event]) -> None:
        """One Action of one minion: Stand, light/interact, Attack, or Move 1 area."""
        if t["left"] <= 0 or self.result:
            return
        m = self.minions[t["id"]]
        side = self.side_of(t)
        name = self.minion_name(m.id)
        if m.area is None:
            area = self.board.spawns[m.lying]
            m.area = area
            m.lying = None
            t["left"] -= 1
            events.append(Event("stand", f"{name} Stands in the Spawning Area {area} (its first "
                                "Action)", S_MIN_DESTROY, {"minion": m.id, "area": area}))
            self.tasks.insert(0, t)
            self.minion_entered(t, area, events)
            return
        # Scenario interactions with points of interest.
        if self.scenario_poi == "furnace" and self.minion_card(m.type).model in (
                "AshFolk", "DraugMech") and self.furnaces.get(m.area) == 0 \
                and m.area not in self.pending_lights:
            self.pending_lights.append(m.area)
            self.last_poi_by = self.minion_card(m.type).name
            t["left"] -= 1
            events.append(Event("light", f"{name} Lights the Furnace in {m.area}", S_SPECIAL,
                                {"minion": m.id, "area": m.area}))
            self.tasks.insert(0, t)
            return
        if side.target == "poi" and self.scenario_poi == "flame" and self.is_heat(m.area):
            t["left"] -= 1
            self.tasks.insert(0, t)
            self.remove_token(m.area, f"{name} interacts with it", S_SPECIAL, events,
                              self.minion_card(m.type).name)
            return
        champs = [c for c in self.turn_order()
                  if side.special != "rampage" or c not in t["attacked"]]
        # Attack the closest champion in range, if any (Minion Attacks).
        if side.target != "poi" or not self.poi_areas():
            dist = self.board.walking(m.area, blocked=None)
            in_range = [c for c in champs if dist.get(self.champs[c].area, 99) <= side.range]
            if in_range:
                best = min(dist[self.champs[c].area] for c in in_range)
                target = [c for c in in_range if dist[self.champs[c].area] == best][0]
                t["left"] -= 1
                self.queue_attack(t, target, events)
                self.tasks.insert(0, t)
                return
        # Otherwise move one area toward the target.
        targets = self.minion_targets(m.area, side.target, champs)
        steps = self.minion_steps(m.area, targets, t["left"])
        if not steps:
            events.append(Event("wait", f"{name} has no path to its Target and stays in "
                                f"{m.area}", S_MIN_MOVE, {"minion": m.id}))
            return
        self.tasks.insert(0, t)
        if len(steps) == 1:
            self.minion_move(t, steps[0], events)
            return
        opts = [f"{name} to {a}" for a in steps]
        self.ask_seat(PLAYERS, f"{name} has equally short paths toward its Target: choose its "
                      "next Area", S_MIN_MOVE, opts, "minion_step", {}, default=opts[0])

    def ans_minion_step(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        self.minion_move(self.tasks[0], choice.split()[-1], events)

    def minion_move(self, t: Task, area: str, events: list[Event]) -> None:
        m = self.minions[t["id"]]
        t["left"] -= 1
        events.append(Event("move", f"{self.minion_name(m.id)} moves from {m.area} to {area}",
                            S_MIN_MOVE, {"minion": m.id, "to": area}))
        m.area = area
        self.minion_entered(t, area, events)

    def minion_entered(self, t: Task, area: str, events: list[Event]) -> None:
        """AshFolk remove a Heat token on entering (The Last Flame); an Overheated DraugMech 2-A
        Attacks a champion it reaches and gains 1 Action (authored Rampage)."""
        m = self.minions[t["id"]]
        side = self.side_of(t)
        self.ashfolk_enters(m.id, area, events)
        if side.special == "rampage" and area != self.thor_area:
            here = [c for c in self.turn_order() if self.champs[c].area == area
                    and c not in t["attacked"]]
            if here:
                t["left"] += 1
                self.queue_attack(t, here[0], events)
                events.append(Event("rampage", f"{self.minion_name(m.id)} gains 1 Action from "
                                    "its Rampage", S_MIN_RES, {"minion": m.id}))

    def ashfolk_enters(self, mid: str, area: str, events: list[Event]) -> None:
        """The Last Flame: "AshFolk 1-A that enter an Area with a Heat token immediately remove
        that token" - however they enter it (moving, standing, pushed by the God)."""
        if self.scenario_poi == "flame" and self.minion_card(self.minions[mid].type).model \
                == "AshFolk" and self.is_heat(area):
            self.remove_token(area, f"{self.minion_name(mid)} entered it", S_SPECIAL, events,
                              self.minion_card(self.minions[mid].type).name)

    def queue_attack(self, t: Task, cid: str, events: list[Event]) -> None:
        t["attacked"].append(cid)
        self.pending_attacks.append([t["id"], cid, t["side"]])
        events.append(Event("attack", f"{self.minion_name(t['id'])} Attacks {self.cname(cid)} "
                            f"(closest Champion in range)", S_MIN_ATK,
                            {"minion": t["id"], "champion": cid}))

    def poi_areas(self) -> list[str]:
        """Points of Interest: Heat tokens (The Last Flame) or Unlit Furnaces (Forge of Doom)."""
        if self.scenario_poi == "flame":
            return sorted(a for a in self.tokens if self.is_heat(a))
        return sorted(a for a, n in self.furnaces.items() if n == 0
                      and a not in self.pending_lights)

    def minion_targets(self, here: str, target: str, champs: list[str]) -> dict[str, int]:
        """Target areas with the turn rank of the champion there (99 for a point of interest).

        Champions: the closest; ties go to the Champion who took their Turn first."""
        out: dict[str, int] = {}
        rank = {c: i for i, c in enumerate(self.turn_order())}
        if target in ("poi", "champions_or_poi"):
            for a in self.poi_areas():
                if a != self.thor_area:
                    out[a] = 99
            if target == "poi" and out:
                return out
        dist = self.board.walking(here)
        reach = [c for c in champs if self.champs[c].area in dist]
        if reach:
            best = min(dist[self.champs[c].area] for c in reach)
            first = min((c for c in reach if dist[self.champs[c].area] == best),
                        key=lambda c: rank[c])
            a = self.champs[first].area
            if target == "champions_or_poi" and out:
                pd = min(dist.get(p, 99) for p in out)
                if pd < best:
                    return {p: 99 for p in out if dist.get(p, 99) == pd}
                if pd == best:
                    out = {p: 99 for p in out if dist.get(p, 99) == pd}
                    out[a] = rank[first]
                    return out
                return {a: rank[first]}
            return {a: rank[first]}
        return out

    def minion_steps(self, here: str, targets: dict[str, int], left: int) -> list[str]:
        """First steps of the shortest valid paths: a god's area may be crossed only with
        enough Actions left to leave it; prefer paths through a Champion's area, then the one
        with the Champion who took their Turn first (Minion Movement). Remaining ties: players."""
        if not targets:
            return []
        god = self.thor_area
        rank = {c: i for i, c in enumerate(self.turn_order())}

        def step_with(allow_god: bool):
            def step(n: str) -> Iterable[tuple[str, float]]:
                return ((x, 1) for x in self.board.adjacent(n) if allow_god or x != god)
            return step

        for allow in (True, False):
            step = step_with(allow)
            dist = distances(here, step)
            reach = [a for a in targets if a in dist and a != god and a != here]
            if not reach:
                continue
            best = min(dist[a] for a in reach)
            paths = []
            for a in reach:
                if dist[a] == best:
                    paths += all_shortest_paths(here, a, step, limit=200)
            valid = [p for p in paths if all(i < left for i, x in enumerate(p) if x == god and i)]
            if not valid:
                continue

            def champ_rank(p: list[str]) -> int:
                # The areas the path passes through (not the start, not the destination, which
                # every path to the same target shares).
                ranks = [rank[c] for c in self.order for x in p[1:-1] if self.champs[c].area == x]
                return min(ranks) if ranks else 100

            top = min(champ_rank(p) for p in valid)
            return sorted(dict.fromkeys(p[1] for p in valid if champ_rank(p) == top))
        return []

    def t_minion_attacks(self, t: Task, events: list[Event]) -> None:
        """Resolve the type's attacks champion by champion from the First Champion clockwise; a
        champion attacked by several minions chooses the order, with one Defense each."""
        if not self.pending_attacks or self.result:
            self.pending_attacks = []
            return
        for cid in self.turn_order():
            mine = [a for a in self.pending_attacks if a[1] == cid]
            if not mine:
                continue
            if len({a[0] for a in mine}) > 1:
                self.tasks.insert(0, t)
                opts = list(dict.fromkeys(f"resolve attack of {self.minion_name(a[0])}"
                                          for a in mine))
                self.ask_seat(cid, f"{self.cname(cid)} is Attacked by several Minions: choose "
                              "which Attack to resolve next", S_MIN_ATK, opts, "attack_order", {},
                              default=opts[0])
                return
            self.pending_attacks.remove(mine[0])
            self.tasks[:0] = [*self.minion_attack_tasks(mine[0]), t]
            return

    def ans_attack_order(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        mid = self.target_id(choice[len("resolve attack of "):])
        a = next(a for a in self.pending_attacks if a[0] == mid and a[1] == ask["seat"])
        self.pending_attacks.remove(a)
        self.tasks[:0] = self.minion_attack_tasks(a)

    def minion_attack_tasks(self, a: list[str]) -> list[Task]:
        mid, cid, side_name = a
        card = self.minion_card(self.minions[mid].type)
        side = card.overheated if side_name == "overheated" else card.standard
        out: list[Task] = [{"t": "damage", "c": cid, "n": side.damage, "sec": S_MIN_ATK,
                            "src": f"Attack of {self.minion_name(mid)}",
                            **self.enemy_source(mid)}]
        if side.special == "frost":
            out.append({"t": "gain", "c": cid, "kind": "f", "n": 1, "sec": S_MIN_ATK})
        return out

    def t_lights(self, t: Task, events: list[Event]) -> None:
        """Forge of Doom: a lit Furnace is flipped; the Minion card with its number flips to
        the Overheated side permanently."""
        for area in self.pending_lights:
            n = int(self.furnace_pool.draw(self.chance, S_SPECIAL))
            self.furnaces[area] = n
            self.overheated[str(n)] = True
            events.append(Event("furnace", f"The Furnace in {area} is lit and flipped: number "
                                f"{n}; Minions {n} are Overheated permanently", S_SPECIAL,
                                {"area": area, "number": n}))
        self.pending_lights = []
        self.check_scenario_defeat(events)
