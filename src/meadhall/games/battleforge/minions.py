"""Minions: activation type by type, movement by shortest path with the printed tie-breaks,
attacks on the closest champion, destruction and standing up (section "Minions")."""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import PLAYERS, Event
from meadhall.core.words import plural

from .basics import (
    S_MIN_ACT,
    S_MIN_ATK,
    S_MIN_DESTROY,
    S_MIN_MOVE,
    S_MIN_RES,
    S_SPECIAL,
    copy_deck,
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
                            f"{plural(side.actions, 'Action')} each", S_MIN_ACT, {"type": k}))
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
            self.tasks.insert(0, t)
            if area == self.thor_area:
                # Ruling 41: a God occupies his Area completely, so the minion Stands in an
                # Area next to the Spawning Area, as characters Thor displaces are pushed.
                opts = [a for a in self.board.adjacent(area) if a != self.thor_area]
                if not opts:
                    t["left"] = 0
                    events.append(Event("stand", f"{name} cannot Stand: Thor occupies the "
                                        f"Spawning Area {area} and every Area next to it is "
                                        "closed", S_MIN_DESTROY, {"minion": m.id}))
                    return
                if len(opts) > 1:
                    first = self.turn_order()[0]
                    choices = [f"{name} to {a}" for a in opts]
                    self.ask_seat(first, f"Thor occupies the Spawning Area {area}: the First "
                                  f"Champion chooses where {name} Stands", S_MIN_DESTROY,
                                  choices, "minion_stand", {}, default=choices[0])
                    return
                area = opts[0]
            self.minion_stand(t, area, events)
            return
        if m.area == self.thor_area:
            # "Champions and Minions can pass through, but never stop in an Area occupied by"
            # a God: a minion in Thor's Area spends its Action leaving it.
            self.minion_leave_god(t, side, events)
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
        # Attack the closest champion in range, if any (Minion Attacks); a minion that hunts
        # Points of Interest attacks only when none can be reached (its card; ruling 25).
        if side.target != "poi" or not self.reachable_poi(m.area):
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

    def minion_stand(self, t: Task, area: str, events: list[Event]) -> None:
        """The Inactive minion of task ``t`` Stands in ``area`` as its first Action."""
        m = self.set_minion(t["id"], area=area, lying=None)
        t["left"] -= 1
        where = "the Spawning Area" if area in self.board.spawns.values() else "the Area"
        events.append(Event("stand", f"{self.minion_name(m.id)} Stands in {where} {area} (its "
                            "first Action)", S_MIN_DESTROY, {"minion": m.id, "area": area}))
        self.minion_entered(t, area, events)

    def ans_minion_stand(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        self.minion_stand(self.tasks[0], choice.split()[-1], events)

    def minion_leave_god(self, t: Task, side: Any, events: list[Event]) -> None:
        """A minion in the God's Area moves on toward its Target (or, with no path, to an
        Area next to it: ruling 42); it never attacks or interacts from there."""
        m = self.minions[t["id"]]
        champs = [c for c in self.turn_order()
                  if side.special != "rampage" or c not in t["attacked"]]
        targets = self.minion_targets(m.area, side.target, champs)
        steps = self.minion_steps(m.area, targets, t["left"]) or [
            a for a in self.board.adjacent(m.area) if a != self.thor_area]
        self.tasks.insert(0, t)
        if not steps:
            t["left"] = 0
            return
        if len(steps) == 1:
            self.minion_move(t, steps[0], events)
            return
        name = self.minion_name(m.id)
        opts = [f"{name} to {a}" for a in steps]
        self.ask_seat(PLAYERS, f"{name} must leave Thor's Area: choose its next Area",
                      S_MIN_MOVE, opts, "minion_step", {}, default=opts[0])

    def ans_minion_step(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        self.minion_move(self.tasks[0], choice.split()[-1], events)

    def minion_move(self, t: Task, area: str, events: list[Event]) -> None:
        m = self.minions[t["id"]]
        t["left"] -= 1
        events.append(Event("move", f"{self.minion_name(m.id)} moves from {m.area} to {area}",
                            S_MIN_MOVE, {"minion": m.id, "to": area}))
        self.set_minion(m.id, area=area)
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

    def reachable_poi(self, here: str) -> list[str]:
        """Points of Interest a minion in ``here`` can reach: not under Thor (he occupies his
        Area completely), with a path to them."""
        dist = self.board.walking(here)
        return [a for a in self.poi_areas() if a != self.thor_area and a in dist]

    def poi_areas(self) -> list[str]:
        """Points of Interest: Heat tokens (The Last Flame) or Unlit Furnaces (Forge of Doom)."""
        if self.scenario_poi == "flame":
            # (is_heat: Sacred Flame tokens work exactly like Heat tokens)
            return sorted(a for a, k in self.tokens.items() if k == "heat" or k == "flame")
        return sorted(a for a, n in self.furnaces.items() if n == 0
                      and a not in self.pending_lights)

    def minion_targets(self, here: str, target: str, champs: list[str]) -> dict[str, int]:
        """Target areas with the turn rank of the champion there (99 for a point of interest).

        Champions: the closest; ties go to the Champion who took their Turn first."""
        out: dict[str, int] = {}
        order = self.turn_order()
        if target in ("poi", "champions_or_poi"):
            god = self.thor["area"]
            for a in self.poi_areas():
                if a != god:
                    out[a] = 99
            if target == "poi" and out:
                return out
        dist = self.board.walking(here)
        where = {c: self.champs[c].area for c in champs}
        reach = [c for c in champs if where[c] in dist]
        if reach:
            best = min(dist[where[c]] for c in reach)
            first = min((c for c in reach if dist[where[c]] == best), key=order.index)
            a = where[first]
            rank = order.index(first)
            if target == "champions_or_poi" and out:
                pd = min(dist.get(p, 99) for p in out)
                if pd < best:
                    return {p: 99 for p in out if dist.get(p, 99) == pd}
                if pd == best:
                    out = {p: 99 for p in out if dist.get(p, 99) == pd}
                    out[a] = rank
                    return out
                return {a: rank}
            return {a: rank}
        return out

    def minion_steps(self, here: str, targets: dict[str, int], left: int) -> list[str]:
        """First steps of the shortest valid paths: a god's area may be crossed only with
        enough Actions left to leave it; prefer paths through a Champion's area, then the one
        with the Champion who took their Turn first (Minion Movement). Remaining ties: players."""
        if not targets:
            return []
        god = self.thor_area
        board = self.board
        # The best (lowest) turn rank of a champion in each area: a path "passes through a
        # Champion Area" when one of the areas it passes through (not its start, not its
        # destination, which every path to the same target shares) holds a champion.
        node_rank: dict[str, int] = {}
        for i, c in enumerate(self.turn_order()):
            a = self.champs[c].area
            node_rank[a] = min(node_rank.get(a, 100), i)

        # Shortest paths are read from distance fields instead of being listed: an area x lies
        # on a shortest path from a first step n to a target t when d(n, x) + d(x, t) = d(n, t).
        for allow in (True, False):
            blocked = None if allow else god
            dist = board.walking(here, blocked)
            reach = [a for a in targets if a in dist and a != god and a != here]
            if not reach:
                continue
            best = min(dist[a] for a in reach)
            ends = [a for a in reach if dist[a] == best]
            if allow and god in dist and dist[god] >= left:
                # The god's area would come at an Action the minion does not have to leave
                # it: only the shortest paths that avoid it are valid.
                blocked = god
                around = board.walking(here, god)
                ends = [a for a in ends if around.get(a) == best]
                if not ends:
                    continue
            pairs = [(n, t) for n in board.adjacent(here) if n != blocked
                     for t in ends if board.walking(n, blocked).get(t) == best - 1]
            if len({n for n, _ in pairs}) == 1:
                return [pairs[0][0]]  # one first step: no tie to break
            ranked: list[tuple[int, str]] = []
            for n, t in pairs:
                from_n = board.walking(n, blocked)
                to_t = board.walking(t, blocked)
                r = min((r for x, r in node_rank.items() if x != t
                         and from_n.get(x, 1e9) + to_t.get(x, 1e9) == best - 1), default=100)
                ranked.append((r, n))
            if not ranked:
                continue
            top = min(r for r, _ in ranked)
            return sorted({n for r, n in ranked if r == top})
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
            self.tasks[:0] = [*self.minion_attack_tasks(mine[0], t), t]
            return

    def ans_attack_order(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        mid = self.target_id(choice[len("resolve attack of "):])
        a = next(a for a in self.pending_attacks if a[0] == mid and a[1] == ask["seat"])
        self.pending_attacks.remove(a)
        self.tasks[:0] = self.minion_attack_tasks(a)

    def minion_attack_tasks(self, a: list[str], head: Task | None = None) -> list[Task]:
        """One minion's Attack: its Damage, and the Frost Cube of a frost minion. ``head`` is
        the step resolving the type's Attacks (else the one queued)."""
        mid, cid, side_name = a
        card = self.minion_card(self.minions[mid].type)
        side = card.overheated if side_name == "overheated" else card.standard
        out: list[Task] = [{"t": "damage", "c": cid, "n": side.damage, "sec": S_MIN_ATK,
                            "src": f"Attack of {self.minion_name(mid)}",
                            **self.enemy_source(mid)}]
        if side.special == "frost":
            # The type's Attacks are simultaneous: after a Frostbite in them, none gives a
            # Frost Cube any more (ruling 46).
            if head is None:
                head = next((x for x in self.tasks if x.get("t") == "minion_attacks"), {})
            out.append({"t": "gain", "c": cid, "kind": "f", "n": 1, "sec": S_MIN_ATK,
                        "effect": "minions", **({"void": True} if head.get("frostbite")
                                                else {})})
        return out

    def t_lights(self, t: Task, events: list[Event]) -> None:
        """Forge of Doom: a lit Furnace is flipped; the Minion card with its number flips to
        the Overheated side permanently."""
        for area in self.pending_lights:
            self.furnace_pool = copy_deck(self.furnace_pool)
            n = int(self.furnace_pool.draw(self.chance, S_SPECIAL))
            self.furnaces[area] = n
            self.overheated[str(n)] = True
            events.append(Event("furnace", f"The Furnace in {area} is lit and flipped: number "
                                f"{n}; Minions {n} are Overheated permanently", S_SPECIAL,
                                {"area": area, "number": n}))
        self.pending_lights = []
        self.check_scenario_defeat(events)
