"""Gods: Thor's faces and facing, his moves, attacks and effects from the God cards, and the
selectors the cards use (section "Gods" and "2. God Activation")."""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import Event
from meadhall.core.words import plural

from .basics import S_GOD_ACT, S_THROW

Task = dict[str, Any]

ANY_DISTANCE = 20
"""A God card's reach at least this many Areas is the whole map (the data write 99 for
"any distance"): said as "at any distance"."""


def _within(n: int) -> str:
    """A God card's reach in words: ``up to 2 Areas away``, ``1 Area away``, ``at any
    distance``."""
    if n >= ANY_DISTANCE:
        return "at any distance"
    return f"up to {plural(n, 'Area')} away"


class Gods:
    """Mixin of :class:`BattleForgeState`: Thor."""

    @property
    def thor_area(self) -> str:
        return self.thor["area"]

    def face_health(self) -> int:
        """Each Face has Health equal to twice the number of Champions."""
        return self.content.god.face_health_per_champion * len(self.order)

    def face_at(self, d: int) -> str:
        """The face pointing in direction ``d`` (faces are fixed clockwise on the base)."""
        return self.content.god.faces[(d - self.thor["rot"]) % 6]

    def face_dir(self, face: str) -> int:
        return (self.thor["rot"] + self.content.god.faces.index(face)) % 6

    def set_face(self, face: str, d: int) -> None:
        self.thor["rot"] = (d - self.content.god.faces.index(face)) % 6

    def thor_adjacent(self, area: str) -> bool:
        """Is ``area`` adjacent to Thor (bordering, no wall)? Never before his first activation."""
        return self.thor["activated"] and area in self.board.adjacent(self.thor_area)

    # ------------------------------------------------------------------ selectors
    def select(self, sel: str) -> list[str]:
        """Champions named by a card: ties go to the Champion who had their Turn first."""
        order = self.turn_order()
        if sel == "all":
            return order
        if sel == "first":
            return order[:1]
        if sel == "hit":
            return list(self.last_hit)
        if sel == "moved":
            # "that Champion": the one the card moved Thor next to.
            return [self.thor_target] if self.thor_target in self.champs else []
        dist = self.board.walking(self.thor_area)

        def d(c: str) -> float:
            return dist.get(self.champs[c].area, 99)

        keys = {
            "closest": d,
            "farthest": lambda c: -d(c),
            "lowest_health": lambda c: self.champs[c].health,
            "most_cubes": lambda c: -max(len(s) for s in self.champs[c].rondel),
        }
        key = keys[sel]
        best = min(key(c) for c in order)
        return [c for c in order if key(c) == best][:1]

    # ------------------------------------------------------------------ card steps
    def t_steps(self, t: Task, events: list[Event]) -> None:
        """Resolve card steps one at a time, top to bottom."""
        i = t.get("i", 0)
        steps = t["steps"]
        if i >= len(steps) or self.result:
            return
        step = steps[i]
        self.tasks.insert(0, dict(t, i=i + 1))
        getattr(self, "op_" + step["op"])(step, t.get("sec", S_GOD_ACT), events)

    def op_activate(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "activate", "type": k} for k in step["types"]]

    def op_if(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        """Conditional effects apply only when their condition is met."""
        cond = step["cond"]
        ok = False
        if cond.get("any_hit"):
            ok = bool(self.last_hit)
        elif "health_at_most" in cond:
            who = self.select(cond.get("who", "all"))
            ok = any(self.champs[c].health <= cond["health_at_most"] for c in who)
        events.append(Event("condition", f"Condition {'met' if ok else 'not met'}", sec))
        if ok:
            self.tasks.insert(0, {"t": "steps", "steps": step["then"], "sec": sec})

    def op_turn(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        toward = step["toward"]
        who = [toward] if toward in self.champs else self.select(toward)
        if not who:
            return
        area = self.champs[who[0]].area
        self.set_face(step["face"], self.board.toward(self.thor_area, area))
        events.append(Event("face", f"Thor turns his {step['face']} Face toward "
                            f"{self.cname(who[0])}", S_GOD_ACT))

    def op_move(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        """The god takes the shortest path to an empty area meeting the card's requirement;
        ties and full areas are the First Champion's choice; a Frantic God leaves his area
        whenever another qualifies."""
        self.thor["activated"] = True
        who = self.select(step["adjacent_to"])
        here = self.thor_area
        if not who:
            return
        # The champion chosen now stays the card's champion: the Face turns toward "them" and
        # "that Champion" is attacked even if, once Thor has moved, another would be chosen.
        self.thor_target = who[0]
        if step["toward"] == step["adjacent_to"]:
            step = dict(step, toward=who[0])
        x = self.champs[who[0]].area
        qual = [a for a in self.board.adjacent(x) if a not in self.board.god_inaccessible]
        gd = self.board.god_walking(here)
        reach = [a for a in qual if a in gd]
        others_empty = [a for a in reach if a != here and not self.occupied(a)]
        if reach and reach != [here] and (here not in reach or others_empty):
            reach = [a for a in reach if a != here]
        elif here in reach:
            # Ruling: his own area is the only empty one that qualifies, so he stays.
            events.append(Event("god_move", f"Thor already occupies the only Area next to "
                                f"{self.cname(who[0])} and stays in {here}", S_GOD_ACT))
            self.tasks.insert(0, {"t": "face", "face": step["face"], "toward": step["toward"]})
            return
        if not reach:
            events.append(Event("god_move", f"No Area next to {self.cname(who[0])} can be "
                                f"reached: Thor stays in {here}", S_GOD_ACT))
            self.tasks.insert(0, {"t": "face", "face": step["face"], "toward": step["toward"]})
            return
        empty = [a for a in reach if not self.occupied(a)]
        follow: list[Task] = [{"t": "face", "face": step["face"], "toward": step["toward"]}]
        why = f"next to {self.cname(who[0])}"
        if empty:
            best = min(gd[a] for a in empty)
            cands = sorted(a for a in empty if gd[a] == best)
            self.tasks[:0] = [{"t": "god_to", "cands": cands, "push": False, "why": why},
                              *follow]
        else:
            self.tasks[:0] = [{"t": "god_to", "cands": sorted(reach), "push": True, "why": why},
                              *follow]

    def occupied(self, area: str) -> bool:
        return any(c.area == area for c in self.champs.values()) or any(
            m.area == area for m in self.minions.values())

    def t_god_to(self, t: Task, events: list[Event]) -> None:
        cands = t["cands"]
        if len(cands) == 1:
            self.god_to(cands[0], t, events)
            return
        first = self.turn_order()[0]
        self.tasks.insert(0, t)
        word = "occupied " if t["push"] else ""
        self.ask_seat(first, f"Thor moves {t['why']}: the First Champion chooses among the "
                      f"equally close {word}Areas", S_GOD_ACT, [f"Thor to {a}" for a in cands],
                      "god_to", {}, default=f"Thor to {cands[0]}")

    def ans_god_to(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks.pop(0)
        self.god_to(choice.split()[-1], t, events)

    def god_to(self, area: str, t: Task, events: list[Event]) -> None:
        if t["push"]:
            pushes: list[Task] = []
            for c in self.turn_order():
                if self.champs[c].area == area:
                    pushes.append({"t": "god_push", "who": c, "area": area})
            for m in sorted(self.minions.values(), key=lambda m: m.id):
                if m.area == area:
                    pushes.append({"t": "god_push", "who": m.id, "area": area})
            self.tasks[:0] = [*pushes, {"t": "god_place", "area": area, "why": t["why"]}]
            return
        self.god_place(area, t["why"], events)

    def t_god_place(self, t: Task, events: list[Event]) -> None:
        self.god_place(t["area"], t["why"], events)

    def god_place(self, area: str, why: str, events: list[Event]) -> None:
        events.append(Event("god_move", f"Thor moves from {self.thor_area} to {area} ({why}, "
                            "shortest path)", S_GOD_ACT, {"to": area}))
        self.thor["area"] = area

    def t_god_push(self, t: Task, events: list[Event]) -> None:
        """Every character in the chosen area is pushed to an adjacent area of the First
        Champion's choice."""
        area = t["area"]
        opts = [a for a in self.board.adjacent(area) if a != self.thor_area]
        if not opts:
            return
        first = self.turn_order()[0]
        name = self.cname(t["who"]) if t["who"] in self.champs else self.minion_name(t["who"])
        if len(opts) == 1:
            self.push_to(t["who"], opts[0], events)
            return
        self.tasks.insert(0, t)
        self.ask_seat(first, f"Thor needs {area}: the First Champion pushes {name} to an "
                      "adjacent Area", S_GOD_ACT, [f"push {name} to {a}" for a in opts],
                      "god_push", {}, default=f"push {name} to {opts[0]}")

    def ans_god_push(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks.pop(0)
        self.push_to(t["who"], choice.split()[-1], events)

    def push_to(self, who: str, area: str, events: list[Event]) -> None:
        if who in self.champs:
            self.champs[who].area = area
            events.append(Event("push", f"{self.cname(who)} is pushed to {area}", S_GOD_ACT))
            self.enter_area(who, area, events)
        else:
            self.set_minion(who, area=area)
            events.append(Event("push", f"{self.minion_name(who)} is pushed to {area}",
                                S_GOD_ACT))
            self.ashfolk_enters(who, area, events)

    def t_face(self, t: Task, events: list[Event]) -> None:
        self.op_turn({"face": t["face"], "toward": t["toward"]}, S_GOD_ACT, events)

    def op_attack(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        """God attacks: "straight line" crosses walls to the edge; "adjacent" stops at walls;
        "up to X Areas" counts areas as a Champion moves. Gods never hurt Minions."""
        tg = step["target"]
        here = self.thor_area
        order = self.turn_order()
        if "line" in tg:
            areas = set(self.board.line(here, self.face_dir(tg["line"])))
            hits = [c for c in order if self.champs[c].area in areas]
            what = f"all Areas in a straight line from his {tg['line']} Face"
        elif tg.get("adjacent"):
            areas = set(self.board.adjacent(here))
            hits = [c for c in order if self.champs[c].area in areas]
            what = "all adjacent Areas"
        elif "champion" in tg:
            dist = self.board.walking(here)
            near = [c for c in order if dist.get(self.champs[c].area, 99) <= tg["within"]]
            hits = [c for c in self.select(tg["champion"]) if c in near]
            who = ("Champion he moved next to" if tg["champion"] == "moved"
                   else f"{tg['champion'].replace('_', ' ')} Champion")
            what = f"the {who} {_within(tg['within'])}"
        else:
            dist = self.board.walking(here)
            hits = [c for c in order if 0 < dist.get(self.champs[c].area, 99) <= tg["within"]]
            what = f"all Areas {_within(tg['within'])}"
        self.last_hit = hits
        word = (f"{plural(step['damage'], 'Health Point')} lost" if step.get("lose")
                else f"{step['damage']} Damage")
        events.append(Event("god_attack", f"Thor attacks {what} ({word}): "
                            + (", ".join(self.cname(c) for c in hits) or "nobody is hit"), sec,
                            {"hits": list(hits)}))
        # "Attacks or effects that target more than 1 Champion at a time are resolved the same
        # way" (simultaneously, from the First Champion): the Damage to every Champion hit,
        # then each effect once, on all of them together (ruling 46).
        kind = "lose" if step.get("lose") else "damage"
        follow: list[Task] = [{"t": kind, "c": c, "n": step["damage"], "sec": sec,
                               "src": "Thor's Attack", "by": "thor", "by_type": "Thor"}
                              for c in hits]
        if hits:
            for eff in step.get("then", []):
                who = list(hits) if eff.get("who") == "hit" else eff.get("who")
                follow.append({"t": "steps", "steps": [dict(eff, who=who)], "sec": sec})
        self.tasks[:0] = follow

    def champions_for(self, who: str | list[str]) -> list[str]:
        """The champions a step names: one id, a list of ids (the Champions an attack hit), or
        a card's selector."""
        if isinstance(who, list):
            return [c for c in who if c in self.champs]
        return [who] if who in self.champs else self.select(who)

    def op_damage(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "damage", "c": c, "n": step["amount"], "sec": sec,
                           "src": self.card_name(), **self.card_source(sec)}
                          for c in self.champions_for(step["who"])]

    def op_lose(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "lose", "c": c, "n": step["amount"], "sec": sec,
                           "src": self.card_name(), **self.card_source(sec)}
                          for c in self.champions_for(step["who"])]

    def op_heal(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        for c in self.champions_for(step["who"]):
            self.heal(c, step["amount"], self.card_name(), sec, events)

    def op_temp(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "gain", "c": c, "kind": "t", "n": step["amount"], "sec": sec,
                           "effect": "card"} for c in self.champions_for(step["who"])]

    def op_frost(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        """Frost Cubes for every Champion the step names, as one effect: once the Reserve is
        empty, Frostbite happens once and no later Champion of the effect receives any."""
        self.tasks[:0] = [{"t": "gain", "c": c, "kind": "f", "n": step["amount"], "sec": sec,
                           "effect": "card"} for c in self.champions_for(step["who"])]

    def op_stun(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "stun", "c": c} for c in self.champions_for(step["who"])]

    def op_push(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "shift", "c": c, "n": step["distance"], "dir": 1}
                          for c in self.champions_for(step["who"])]

    def op_pull(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        self.tasks[:0] = [{"t": "shift", "c": c, "n": step["distance"], "dir": -1}
                          for c in self.champions_for(step["who"])]

    def op_throw(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        """Thrown champions land in the target area ignoring the path, subject to its tokens."""
        area = self.board.spawns[self.spawn_symbol()] if step["to"] == "spawn" else step["to"]
        if area == self.thor_area:
            events.append(Event("throw", "The throw's target Area is Thor's: no throw",
                                S_THROW))
            return
        for c in self.champions_for(step["who"]):
            self.champs[c].area = area
            events.append(Event("throw", f"{self.cname(c)} is Thrown to {area}", S_THROW,
                                {"champion": c, "to": area}))
            self.enter_area(c, area, events)

    def op_token(self, step: dict[str, Any], sec: str, events: list[Event]) -> None:
        where = step["where"]
        if where == "god_adjacent":
            areas = self.board.adjacent(self.thor_area)
        elif where == "spawn":
            areas = [self.board.spawns[self.spawn_symbol()]]
        elif where == "altars":
            areas = list(self.board.altars)
        else:
            areas = [where]
        for a in areas:
            if a != self.thor_area:
                self.place_token(step["kind"], a, sec, events)

    def card_name(self) -> str:
        return self.cur_card or "the card"

    def card_source(self, sec: str) -> dict[str, str]:
        """Who deals what a card's step deals, for the statistics events: Thor for his God
        cards, the Event card for a Scenario Event."""
        if sec == S_GOD_ACT:
            return {"by": "thor", "by_type": "Thor"}
        return {"by": self.card_name(), "by_type": "event"}

    def enemy_source(self, target: str) -> dict[str, str]:
        """An attack target (a minion id or ``thor-<face>``) as a damage source."""
        if target.startswith("thor"):
            return {"by": "thor", "by_type": "Thor"}
        return {"by": target, "by_type": self.minion_card(self.minions[target].type).name}

