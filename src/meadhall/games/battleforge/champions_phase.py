"""The Champions Phase: turns of three actions, rondel actions and reactions, attack resolution,
rituals and offerings, healing, moving, strategic actions, special skills, boons and fury.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from meadhall.core.protocol import Event
from meadhall.core.words import plural

from .basics import (
    ATTRIBUTE_MAX,
    CHARGE_CAP,
    S_ATK_RES,
    S_BERSERKER,
    S_BOONS,
    S_CHAMP_PHASE,
    S_CROSSING,
    S_FACES,
    S_FURY,
    S_HEALING,
    S_ICONS,
    S_MELEE,
    S_MIN_DESTROY,
    S_MOVING,
    S_OFFERING,
    S_PREP,
    S_RANGED,
    S_REROLL,
    S_RITUAL,
    S_SIDES,
    S_SKILLS,
    S_TAUNT,
    S_THOR_FACES,
    TRANSFORM_FURY,
    dice_data,
)

Task = dict[str, Any]
COUNTER_DICE = ("white", "red")  # green dice have no Counterattack side
ROLL_OPTIONS: dict[tuple[int, int, int, int], tuple[str, ...]] = {}
"""The texts of :meth:`ChampionsPhase.roll_options` by white, red and green dice in the pool
and the most that may be rolled (a few dozen pools in all; read only)."""


def roll_options_plain(w: int, red: int, green: int, total_max: int) -> list[str]:
    """Every choice of dice to roll from ``w`` white, ``red`` red and ``green`` green, at
    least 1 and at most ``total_max`` of them, the most dice first."""
    out = []
    for nw, nr, ng in product(range(w, -1, -1), range(red, -1, -1), range(green, -1, -1)):
        if 1 <= nw + nr + ng <= total_max:
            out.append(f"roll {nw} white {nr} red {ng} green")
    return out
ATTRIBUTE_TEXT = {"green": "upgrade green dice", "red": "upgrade red dice",
                  "movement": "upgrade movement"}
"""The texts of the "Choose one of the three Attributes to upgrade" choice."""


class ChampionsPhase:
    """Mixin of :class:`BattleForgeState`: everything a champion does on their turn."""

    # ------------------------------------------------------------------ turn flow
    def t_turn(self, t: Task, events: list[Event]) -> None:
        """A champion's turn: three Rondel or Strategic Actions, free Special Skills, then pass
        (The Champions Phase)."""
        cid = self.current()
        if self.turn.get("over"):
            self.end_turn(events)
            return
        if self.turn.get("move", 0) > 0 or self.turn.get("moving"):
            opts = self.step_options(cid)
            c = self.champs[cid]
            if c.area != self.thor_area:
                opts.append("stop moving")
            if not opts:
                self.tasks.insert(0, {"t": "turn"})
                self.end_move(cid)
                return
            self.ask_seat(cid, f"{self.cname(cid)} is moving from {c.area} with "
                          f"{plural(self.turn['move'], 'Movement Point')}", S_MOVING, opts, "step",
                          {},
                          kind="turn")
            return
        opts = self.turn_options(cid)
        c = self.champs[cid]
        r = c.rondel
        cubes = ", ".join([f"{len(r[i])} in space {i + 1}" for i in range(6)])
        self.ask_seat(cid, f"{self.cname(cid)}'s turn in {c.area}: "
                      f"{plural(self.turn['actions'], 'action')} left; health {c.health}; "
                      f"rondel cubes: {cubes}",
                      S_CHAMP_PHASE, opts, "turn", {}, kind="turn")

    def end_turn(self, events: list[Event]) -> None:
        cid = self.current()
        events.append(Event("turn", f"{self.cname(cid)} ends their turn", S_CHAMP_PHASE,
                            {"champion": cid}))
        self.end_stun(cid, events)
        self.turn_pos += 1
        if self.turn_pos >= len(self.order):
            self.phase = "ironborn"
            self.tasks.append({"t": "ironborn"})
        else:
            self.new_turn()

    def new_turn(self) -> None:
        self.turn = {"c": self.current(), "actions": 3, "over": False, "move": 0,
                     "moving": False, "long_reach": False, "heal_other": False, "add_red": 0}

    def turn_options(self, cid: str) -> list[str]:
        c = self.champs[cid]
        out: list[str] = []
        turn = self.turn
        if turn["actions"] > 0:
            # Targets depend on the kind of attack only, not on the space: found once.
            named: dict[str, list[str]] = {}
            printed = self.content.boards[c.board].rondel
            for i, sp in enumerate(c.rondel):
                if not sp:
                    continue
                n = i + 1
                for icon in printed[i]:
                    if icon == "melee" or icon == "ranged":
                        names = named.get(icon)
                        if names is None:
                            names = named[icon] = [self.target_name(tg) for tg in
                                                   self.attack_targets(cid, icon)]
                        out += [f"{icon} space {n} at {x}" for x in names]
                    elif icon == "ritual":
                        if len(sp) + self.boon_bonus(cid, i, "ritual") >= 3:
                            out.append(f"ritual space {n}")
                    elif icon == "heal":
                        out.append(f"heal space {n}")
                        if turn["heal_other"]:
                            out += [f"heal {self.cname(o)} with space {n}"
                                    for o in self.heal_others(cid)]
                out.append(f"move space {n}")
            # Relocate needs a cube other than a Frost Cube (Frost Cubes cannot be Relocated).
            cubes = "".join(map("".join, c.rondel))
            if cubes.count("f") < len(cubes):
                out.append("relocate")
            if self.thor_adjacent(c.area):
                out.append("taunt")
        # "the 3 Actions a Champion must perform on their Turn" (Rondel Reactions): the turn
        # can end early only when no Action is possible (ruling 40).
        can_end = not out
        skills = self.usable_skills(cid, "on_your_turn") + self.usable_skills(cid, "anytime")
        for name, form in skills:
            if self.skill_useful(cid, form):
                out.append(f"skill {name}")
        if can_end:
            out.append("end turn")
        return out

    def ans_turn(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        cid = ask["seat"]
        c = self.champs[cid]
        self.tasks.insert(0, {"t": "turn"})
        if choice == "end turn":
            self.turn["over"] = True
            return
        if choice.startswith("skill "):
            self.use_own_skill(cid, choice[6:], events)
            return
        self.turn["actions"] -= 1
        parts = choice.split()
        if parts[0] == "relocate":
            events.append(Event("action", f"{self.cname(cid)} Relocates (Strategic Action)",
                                "Relocate"))
            self.tasks.insert(0, {"t": "relocate", "c": cid, "left": 2})
            return
        if parts[0] == "taunt":
            self.taunt(cid, events)
            return
        # "<icon> space <n> [at <target>]" or "heal <Champion> with space <n>".
        space = int(parts[parts.index("space") + 1]) - 1
        icon = parts[0]
        what = self.cubes_text(cid, space, icon)[1]  # "3 cubes + 1 Boon", before they move
        strength, frost = self.perform_rondel(cid, space, icon)
        follow: list[Task] = []
        if icon in ("melee", "ranged"):
            target = self.target_id(choice.split(" at ", 1)[1])
            self.start_attack(cid, icon, space, strength, target, events)
            follow.append({"t": "attack"})
        elif icon == "ritual":
            self.ritual(cid, space, strength, events, what)
        elif icon == "heal":
            who = self.champion_id(choice[5:].rsplit(" with space ", 1)[0]) \
                if " with space " in choice else cid
            n = max(1, strength)
            self.turn["heal_other"] = False  # the skill covers the next Healing Action only
            self.heal(who, n, f"Healing Action of {c.name} with {what}", S_HEALING, events)
        elif icon == "move":
            pts = max(1, strength - self.boon_bonus(cid, space, "move") + c.attrs["movement"])
            self.turn["move"] = pts
            self.turn["moving"] = True
            events.append(Event("move", f"{self.cname(cid)} starts a Move Action with "
                                f"{plural(pts, 'Movement Point')} from space {space + 1}",
                                S_MOVING, {"champion": cid, "points": pts}))
            if frost:
                # Frost Cubes, step 4: the Health is lost once the Move Action is performed.
                self.turn["frost"] = frost
                frost = 0
        if frost:
            follow.append(self.frost_loss_task(cid, frost))
        self.tasks[:0] = follow

    # ------------------------------------------------------------------ moving
    def leave_cost(self, area: str) -> int:
        """1 Movement Point, plus 1 per Minion in the area left; a God counts as 1 Minion
        (Crossing Areas with Enemies)."""
        extra = [m.area for m in self.minions.values()].count(area)
        if area == self.thor_area:
            extra += 1
        return 1 + extra

    def step_options(self, cid: str) -> list[str]:
        c = self.champs[cid]
        pts = self.turn["move"]
        cost = self.leave_cost(c.area)
        if cost > pts:
            return []
        out = []
        for a in self.board.adjacent(c.area):
            # A champion may cross the god's area but never stop there.
            if a == self.thor_area and pts - cost < self.leave_cost(a):
                continue
            out.append(f"step to {a}")
        return out

    def ans_step(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        cid = ask["seat"]
        c = self.champs[cid]
        self.tasks.insert(0, {"t": "turn"})
        if choice == "stop moving":
            lost = self.turn["move"]
            self.end_move(cid)
            events.append(Event("move", f"{self.cname(cid)} ends the Move Action in {c.area}"
                                + (f" ({plural(lost, 'unused Movement Point')} lost)" if lost
                                   else ""), S_MOVING))
            return
        to = choice.split()[-1]
        cost = self.leave_cost(c.area)
        self.turn["move"] -= cost
        sec = S_CROSSING if cost > 1 else S_MOVING
        events.append(Event("move", f"{self.cname(cid)} moves from {c.area} to {to} "
                            f"({plural(cost, 'Movement Point')}, {self.turn['move']} left)", sec,
                            {"champion": cid, "to": to}))
        c.area = to
        if self.turn["move"] <= 0 and to != self.thor_area:
            self.end_move(cid)
        self.enter_area(cid, to, events)

    def end_move(self, cid: str) -> None:
        """The Move Action is over: unused points are lost, and the Health for the Frost Cubes
        used to perform it is lost now (Frost Cubes, steps 3-4; queued first, so it comes
        after the effects of the Area entered last)."""
        self.turn["move"] = 0
        self.turn["moving"] = False
        frost = self.turn.pop("frost", 0)
        if frost:
            self.tasks.insert(0, self.frost_loss_task(cid, frost))

    # ------------------------------------------------------------------ strategic actions
    def taunt(self, cid: str, events: list[Event]) -> None:
        """Taunt: turn the god's Red Face toward the champion, who gets 1 Temporary Cube."""
        c = self.champs[cid]
        d = self.board.direction(self.thor_area, c.area)
        assert d is not None
        self.set_face("red", d)
        events.append(Event("taunt", f"{self.cname(cid)} Taunts Thor: his Red Face turns toward "
                            f"{c.area}", S_TAUNT, {"champion": cid}))
        self.tasks.insert(0, {"t": "gain", "c": cid, "kind": "t", "n": 1, "sec": S_TAUNT})

    # ------------------------------------------------------------------ special skills
    def skill_useful(self, cid: str, form: str) -> bool:
        eff = self.skill_of(cid, form).effect
        if eff == "long_reach":
            return not self.turn["long_reach"]
        if eff == "heal_other":
            return not self.turn["heal_other"]
        if eff == "add_red_2":
            return not self.turn["add_red"]
        return eff in ("temp_cube", "heal_1_temp")

    def use_own_skill(self, cid: str, name: str, events: list[Event]) -> None:
        c = self.champs[cid]
        form = "human" if self.skill_of(cid, "human").name == name else "berserker"
        sk = self.skill_of(cid, form)
        c.charges[form] -= 1
        events.append(Event("skill", f"{self.cname(cid)} uses {sk.name}: {sk.text}", S_SKILLS,
                            {"champion": cid, "skill": sk.name}))
        if sk.effect == "temp_cube":
            self.tasks.insert(0, {"t": "gain", "c": cid, "kind": "t", "n": 1, "sec": S_SKILLS})
        elif sk.effect == "heal_1_temp":
            self.heal(cid, 1, sk.name, S_SKILLS, events)
            self.tasks.insert(0, {"t": "gain", "c": cid, "kind": "t", "n": 1, "sec": S_SKILLS})
        elif sk.effect == "long_reach":
            self.turn["long_reach"] = True
        elif sk.effect == "heal_other":
            self.turn["heal_other"] = True
        elif sk.effect == "add_red_2":
            self.turn["add_red"] = 2

    def heal_others(self, cid: str) -> list[str]:
        here = self.champs[cid].area
        near = {here, *self.board.adjacent(here)}
        return [o for o in self.order if o != cid and self.champs[o].area in near]

    # ------------------------------------------------------------------ ritual and offering
    def ritual(self, cid: str, space: int, strength: int, events: list[Event],
               what: str = "") -> None:
        """Ritual: 1 charge per 3 cubes (cap 3 per skill); at an altar without the champion's
        offering, also make an Offering and receive a Boon."""
        c = self.champs[cid]
        n = strength // 3
        events.append(Event("ritual", f"{self.cname(cid)} performs a Ritual with "
                            f"{what or plural(strength, 'cube')}: "
                            f"{plural(n, 'charge')} to recover", S_RITUAL, {"champion": cid}))
        self.recover_charges(cid, n, events, S_RITUAL)
        if c.area in self.board.altars and c.area not in c.offerings:
            c.offerings = [*c.offerings, c.area]  # replaced, never changed: clones share it
            events.append(Event("offering", f"{self.cname(cid)} makes an Offering at the altar "
                                f"in {c.area} and receives a Boon", S_OFFERING, {"champion": cid}))
            self.tasks.append({"t": "boon", "c": cid})
            # keep the boon right after the charges
            self.tasks.insert(0, self.tasks.pop())

    # ------------------------------------------------------------------ boons
    def boon_options(self, cid: str, start: bool) -> list[str]:
        c = self.champs[cid]
        board = self.content.boards[c.board]
        out: list[str] = []
        if start:
            sym = self.content.human_forms[cid].starting_boon
            return [f"{sym} boon in space {i + 1}" for i in range(6) if sym in board.rondel[i]]
        have = [i for i in range(6) if c.boons[i] is not None]
        for sym in dict.fromkeys(c.tokens_left):
            for i in range(6):
                if c.boons[i] is not None or sym not in board.rondel[i]:
                    continue
                if (i - 1) % 6 in have or (i + 1) % 6 in have:
                    out.append(f"{sym} boon in space {i + 1}")
        out += [f"greater boon in space {i + 1}" for i in have if c.boons[i]["level"] == 1]
        return out

    def t_boon(self, t: Task, events: list[Event]) -> None:
        """Receive a Boon: a new Minor Boon adjacent to a space with a Boon sharing a symbol with
        its space, or flip a Minor Boon to its Greater side (Boons)."""
        cid = t["c"]
        opts = self.boon_options(cid, t.get("start", False))
        if not opts:
            events.append(Event("boon", f"{self.cname(cid)} has no legal place for a Boon: it is "
                                "lost", S_BOONS))
            return
        # Lagertha's extra Boon is step 6 of Champion Preparation ("prep").
        self.ask_seat(cid, f"{self.cname(cid)} receives a Boon: choose it", S_PREP if t.get(
            "start") or t.get("prep") else S_BOONS, opts, "boon", {}, default=opts[0])

    def ans_boon(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        cid = ask["seat"]
        c = self.champs[cid]
        parts = choice.split()
        space = int(parts[-1]) - 1
        if parts[0] == "greater":
            c.boons[space] = {**c.boons[space], "level": 2}
            events.append(Event("boon", f"{self.cname(cid)} flips the Boon in space {space + 1} "
                                "to its Greater side (+2)", S_BOONS))
            return
        sym = parts[0]
        if sym in c.tokens_left:
            left = list(c.tokens_left)
            left.remove(sym)
            c.tokens_left = left
        c.boons[space] = {"symbol": sym, "level": 1}
        events.append(Event("boon", f"{self.cname(cid)} places a Minor {sym} Boon (+1) in space "
                            f"{space + 1}", S_BOONS, {"champion": cid}))

    # ------------------------------------------------------------------ fury and upgrades
    def t_fury(self, t: Task, events: list[Event]) -> None:
        """Fury never advances beyond the next Upgrade on the card; the excess is lost (Fury
        and Upgrades). Reaching 8 in Human Form transforms the champion (Berserker Form)."""
        cid = t["c"]
        c = self.champs[cid]
        track = self.upgrade_track(cid)
        ahead = sorted(k for k in track if k > c.fury)
        if not ahead:
            events.append(Event("fury", f"{self.cname(cid)}'s Fury track is full: "
                                f"{plural(t['n'], 'Fury Point')} lost", S_FURY))
            return
        nxt = ahead[0]
        new = min(c.fury + t["n"], nxt)
        lost = c.fury + t["n"] - new
        c.fury = new
        events.append(Event("fury", f"{self.cname(cid)} gains Fury: {c.fury}"
                            + (f" ({plural(lost, 'excess point')} disregarded)" if lost else ""),
                            S_FURY,
                            {"champion": cid, "fury": c.fury}))
        if new == nxt:
            self.upgrade(cid, track[nxt], events)

    def upgrade_track(self, cid: str) -> dict[int, str]:
        c = self.champs[cid]
        if c.form == "human":
            return dict(self.content.human_forms[cid].upgrades)
        b = self.content.berserker_forms[c.berserker]
        return {k: v for k, v in b.upgrades.items() if k > TRANSFORM_FURY}

    def upgrade(self, cid: str, icon: str, events: list[Event]) -> None:
        """Apply one Upgrade Icon."""
        c = self.champs[cid]
        if icon == "transform":
            c.form = "berserker"
            c.fury = TRANSFORM_FURY
            c.charges["berserker"] = CHARGE_CAP
            c.supply = max(0, c.supply - CHARGE_CAP)
            b = self.content.berserker_forms[c.berserker]
            events.append(Event("berserker", f"{self.cname(cid)} transforms into {b.name}, "
                                f"gaining {b.skill.name} with 3 charges", S_BERSERKER,
                                {"champion": cid}))
            self.upgrade(cid, b.transformation, events)
            return
        if icon == "cube":
            if c.supply <= 0:
                events.append(Event("upgrade", f"{self.cname(cid)} has no Action Cube left",
                                    S_ICONS))
                return
            c.supply -= 1
            events.append(Event("upgrade", f"{self.cname(cid)} gains an extra Action Cube",
                                S_ICONS))
            self.tasks.insert(0, {"t": "place", "c": cid, "kinds": ["c"], "sec": S_ICONS})
        elif icon == "boon":
            self.tasks.insert(0, {"t": "boon", "c": cid})
        elif icon in ("movement", "green", "red"):
            self.add_attribute(cid, icon, events)
        elif icon == "attribute":
            opts = [ATTRIBUTE_TEXT[a] for a in ("green", "red", "movement")
                    if c.attrs[a] < ATTRIBUTE_MAX]
            if not opts:
                events.append(Event("upgrade", f"{self.cname(cid)}'s Attributes are all at "
                                    "their maximum", S_ICONS))
                return
            self.tasks.insert(0, {"t": "ask_attr", "c": cid})

    def t_ask_attr(self, t: Task, events: list[Event]) -> None:
        c = self.champs[t["c"]]
        opts = [ATTRIBUTE_TEXT[a] for a in ("green", "red", "movement")
                if c.attrs[a] < ATTRIBUTE_MAX]
        if opts:
            self.ask_seat(c.id, f"{self.cname(c.id)}: choose an Attribute to upgrade", S_ICONS,
                          opts, "attr", {}, default=opts[0])

    def ans_attr(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        attr = next(a for a, text in ATTRIBUTE_TEXT.items() if text == choice)
        self.add_attribute(ask["seat"], attr, events)

    def add_attribute(self, cid: str, attr: str, events: list[Event]) -> None:
        c = self.champs[cid]
        if c.attrs[attr] >= ATTRIBUTE_MAX:
            events.append(Event("upgrade", f"{self.cname(cid)}'s {attr} Attribute is already at "
                                "its maximum of 2", S_ICONS))
            return
        c.attrs = {**c.attrs, attr: c.attrs[attr] + 1}
        c.supply = max(0, c.supply - 1)
        events.append(Event("upgrade", f"{self.cname(cid)} gains 1 {attr} Attribute "
                            f"({c.attrs[attr]})", S_ICONS, {"champion": cid}))

    # ------------------------------------------------------------------ attacks
    def attack_targets(self, cid: str, kind: str) -> list[str]:
        """Melee: a Minion in the same area or an adjacent Face of Thor. Ranged: a Minion in the
        same or an adjacent area (not through a wall); Faces adjacent to the champion or next to
        such a Face (two further with Gunnar's skill)."""
        here = self.champs[cid].area
        board = self.board
        if kind == "melee":
            out = sorted(mid for mid, m in self.minions.items() if m.area == here)
        else:
            areas = {here, *board.adjacent(here)}
            out = sorted(mid for mid, m in self.minions.items() if m.area in areas)
        thor = self.thor
        if thor["activated"] and here in board.adjacent(thor["area"]):
            d = board.direction(thor["area"], here)
            assert d is not None
            reach = 0 if kind == "melee" else (2 if self.turn.get("long_reach") else 1)
            faces = self.content.god.faces
            i = (d - thor["rot"]) % 6  # the Face pointing at the champion (face_at)
            destroyed = thor["destroyed"]
            for k in (0, -1, 1, -2, 2)[:2 * reach + 1]:
                f = faces[(i + k) % 6]
                tgt = "thor-" + f
                if f not in destroyed and tgt not in out:
                    out.append(tgt)
        return out

    def start_attack(self, cid: str, kind: str, space: int, strength: int, target: str,
                     events: list[Event]) -> None:
        """Assembling Dice Pool: white dice = cubes + boon, plus the Attribute dice and any
        Special Skill bonus."""
        c = self.champs[cid]
        face = target[5:] if target.startswith("thor-") else None
        red = c.attrs["red"] + self.turn.get("add_red", 0)
        self.turn["add_red"] = 0
        self.atk = {"c": cid, "kind": kind, "target": target, "white": strength,
                    "red": red, "green": c.attrs["green"], "dice": [], "rerolled": [],
                    "reroll_used": False, "stage": "pool", "asked": [], "pick": None,
                    "purple": face == "purple", "orange": face == "orange"}
        events.append(Event("attack", f"{self.cname(cid)} makes a {kind} Attack on "
                            f"{self.target_name(target)} with {strength} white, {red} red and "
                            f"{c.attrs['green']} green dice", S_MELEE if kind == "melee"
                            else S_RANGED, {"champion": cid, "target": target}))

    def roll_options(self) -> list[str]:
        """The dice the attacker may roll from the pool (minimum 1; the Orange Face takes
        one): the texts are kept per pool (``ROLL_OPTIONS``), each call hands out a new
        list."""
        a = self.atk
        w = a["white"] + (1 if a["purple"] else 0)
        key = (w, a["red"], a["green"], w + a["red"] + a["green"] - (1 if a["orange"] else 0))
        found = ROLL_OPTIONS.get(key)
        if found is None:
            found = ROLL_OPTIONS[key] = tuple(roll_options_plain(*key))
        return list(found)

    def t_attack(self, t: Task, events: list[Event]) -> None:
        """The attack script: pool, roll, managing the dice, target effects, resolution."""
        a = self.atk
        cid = a["c"]
        st = a["stage"]
        if st == "pool":
            if a["purple"]:
                events.append(Event("face", "Purple Face: the attacker may add a White Die",
                                    S_THOR_FACES))
            if a["orange"]:
                events.append(Event("face", "Orange Face: the attacker removes 1 die of their "
                                    "choice from the pool", S_THOR_FACES))
            opts = self.roll_options()
            a["stage"] = "roll"
            self.tasks.insert(0, t)
            if not opts:
                a["stage"] = "effects"
                events.append(Event("attack", "No die is left to roll: the attack misses",
                                    S_ATK_RES))
                return
            if len(opts) == 1:
                self.roll(opts[0], events)
                return
            self.ask_seat(cid, f"{self.cname(cid)}: choose the dice to roll (minimum 1)",
                          S_ATK_RES, opts, "roll", {}, default=opts[0])
            return
        if st == "manage":
            opts = []
            if not a["reroll_used"] and self.rerollable(False):
                opts += [f"reroll with space {i + 1}" for i in self.reaction_spaces(cid, "reroll")]
            opts += [f"skill {name}" for name, form in self.usable_skills(cid, "after_any_roll")
                     if self.after_roll_useful(cid, form)]
            self.tasks.insert(0, t)
            if not opts:
                a["stage"] = "window"
                return
            self.ask_seat(cid, f"{self.cname(cid)} rolled {self.dice_text()}: manage the dice",
                          S_REROLL, [*opts, "keep the dice"], "manage", {},
                          default="keep the dice", kind="choice")
            return
        if st == "pick":
            p = a["pick"]
            opts = self.pick_options(p)
            self.tasks.insert(0, t)
            if p["left"] <= 0 or not opts:
                self.finish_pick(p, events)
                a["pick"] = None
                a["stage"] = p["back"]
                if p.get("frost"):
                    # Frost Cubes, step 4: lost once the Reroll Reaction is performed, before
                    # the attack goes on.
                    self.tasks.insert(0, self.frost_loss_task(p["seat"], p["frost"]))
                return
            chosen = p.get("done", [])
            verb = "change" if p["mode"] == "miss" else "reroll"
            # "any number of dice between 1 and the number of Action Cubes" (Reroll): the
            # chosen dice are rerolled together once the choice is complete.
            stop = [f"{verb} the chosen dice"] if chosen else []
            self.ask_seat(p["seat"], f"{self.cname(p['seat'])}: choose a die to {verb} "
                          f"({p['left']} more at most"
                          + (f"; chosen: {', '.join(str(i + 1) for i in chosen)}" if chosen
                             else "") + f"); dice: {self.dice_text()}", p["sec"],
                          [*opts, *stop], "pick", {}, default=stop[0] if stop else opts[0],
                          kind="choice")
            return
        if st == "window":
            for o in self.turn_order():
                if o == cid or o in a["asked"]:
                    continue
                sks = [f"skill {name}" for name, form in self.usable_skills(o, "after_any_roll")
                       if self.after_roll_useful(o, form)]
                if not sks:
                    continue
                a["asked"].append(o)
                self.tasks.insert(0, t)
                self.ask_seat(o, f"{self.cname(cid)} rolled {self.dice_text()}: use "
                              f"{' or '.join(x[6:] for x in sks)}?",
                              "Special Skill Requirements", [*sks, "pass"], "window",
                              {}, default="pass")
                return
            a["stage"] = "effects"
        if a["stage"] == "effects":
            self.tasks.insert(0, t)
            a["stage"] = "resolve"
            face = a["target"][5:] if a["target"].startswith("thor-") else None
            if face == "red":
                idx = [i for i, d in enumerate(a["dice"]) if d[0] in COUNTER_DICE]
                distinct = list(dict.fromkeys(tuple(a["dice"][i][:2]) for i in idx))
                if not idx:
                    events.append(Event("face", "Red Face: no die rolled has a Counterattack "
                                        "side; ignored", S_THOR_FACES))
                elif len(distinct) == 1:
                    self.red_face(idx[0], events)
                else:
                    opts = []
                    seen = set()
                    for i in idx:
                        key = tuple(a["dice"][i][:2])
                        if key not in seen:
                            seen.add(key)
                            opts.append(f"turn die {i + 1} to counterattack")
                    self.ask_seat(cid, f"Red Face: choose a die to turn to Counterattack; dice: "
                                  f"{self.dice_text()}", S_THOR_FACES, opts, "redface", {},
                                  default=opts[0], kind="choice")
                    return
            if face == "blue":
                n = 0
                for d in a["dice"]:
                    if d[1] == "counter":
                        d[1] = "damage"
                        n += 1
                events.append(Event("face", f"Blue Face: {plural(n, 'Counterattack side')} "
                                    "become Damage",
                                    S_THOR_FACES))
            return
        if a["stage"] == "resolve":
            self.resolve_attack(events)

    def roll(self, choice: str, events: list[Event]) -> None:
        a = self.atk
        p = choice.split()
        counts = {"white": int(p[1]), "red": int(p[3]), "green": int(p[5])}
        dice = []
        for colour in ("white", "red", "green"):
            for k in range(counts[colour]):
                face = self.dice[colour].roll(self.chance, f"{self.cname(a['c'])}'s attack, "
                                              f"{colour} die {k + 1}", S_ATK_RES)
                dice.append([colour, face])
        a["dice"] = dice
        a["stage"] = "manage"
        events.append(Event("roll", f"{self.cname(a['c'])} rolls {self.dice_text()}", S_SIDES,
                            {"champion": a["c"], "dice": dice_data(dice)}))

    def ans_roll(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        self.roll(choice, events)

    def dice_text(self) -> str:
        return ", ".join(f"die {i + 1} {d[0]} {d[1].replace('_', ' ')}"
                         for i, d in enumerate(self.atk["dice"]))

    def rerollable(self, any_die: bool) -> list[int]:
        a = self.atk
        return [i for i, d in enumerate(a["dice"]) if any_die or (
            d[1] != "counter" and i not in a["rerolled"])]

    def after_roll_useful(self, seat: str, form: str) -> bool:
        """An "after any Champion rolls an Attack" skill is offered only when it can act."""
        eff = self.skill_of(seat, form).effect
        dice = self.atk["dice"]
        if eff == "miss_to_double":
            return any(d[1] == "miss" for d in dice)
        if eff == "reroll_2":
            return bool(self.rerollable(False))
        return bool(dice)

    def ans_manage(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        a = self.atk
        cid = a["c"]
        if choice == "keep the dice":
            a["stage"] = "window"
            return
        if choice.startswith("reroll with space "):
            space = int(choice.split()[-1]) - 1
            n, frost = self.perform_rondel(cid, space, "reroll")
            a["reroll_used"] = True
            events.append(Event("reroll", f"{self.cname(cid)} performs a Reroll Reaction with "
                                f"space {space + 1}: up to {plural(n, 'die')}", S_REROLL))
            a["pick"] = {"seat": cid, "left": n, "mode": "reroll", "any": False, "back": "manage",
                         "sec": S_REROLL, "frost": frost}
            a["stage"] = "pick"
            return
        self.use_roll_skill(cid, choice[6:], events)

    def ans_window(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        if choice == "pass":
            return
        self.use_roll_skill(ask["seat"], choice[6:], events)
        self.atk["pick"]["back"] = "window"

    def use_roll_skill(self, seat: str, name: str, events: list[Event]) -> None:
        a = self.atk
        c = self.champs[seat]
        form = "human" if self.skill_of(seat, "human").name == name else "berserker"
        sk = self.skill_of(seat, form)
        c.charges[form] -= 1
        events.append(Event("skill", f"{self.cname(seat)} uses {sk.name}: {sk.text}", S_SKILLS,
                            {"champion": seat}))
        mode = "miss" if sk.effect == "miss_to_double" else "reroll"
        a["pick"] = {"seat": seat, "left": 1 if mode == "miss" else 2, "mode": mode,
                     "any": sk.effect == "reroll_any_2", "back": "manage", "sec": S_SKILLS,
                     "skill": True}
        a["stage"] = "pick"

    def pick_options(self, p: dict[str, Any]) -> list[str]:
        """Dice that may still be chosen: a Miss for Pack Hunter; for rerolls, no
        Counterattack side and no die already rerolled ("the same die cannot be Rerolled
        twice, unless otherwise stated (see Lynxshade's Special Skill)")."""
        a = self.atk
        if p["mode"] == "miss":
            idx = [i for i, d in enumerate(a["dice"]) if d[1] == "miss"]
        elif p.get("any"):
            idx = list(range(len(a["dice"])))
        else:
            idx = self.rerollable(False)
        verb = "change" if p["mode"] == "miss" else "reroll"
        return [f"{verb} die {i + 1}" for i in idx if i not in p.get("done", [])]

    def ans_pick(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        a = self.atk
        p = a["pick"]
        if choice.endswith("the chosen dice"):
            p["left"] = 0
            return
        i = int(choice.split()[-1]) - 1
        p["left"] -= 1
        p.setdefault("done", []).append(i)

    def finish_pick(self, p: dict[str, Any], events: list[Event]) -> None:
        """Apply the chosen dice: Pack Hunter turns a Miss to Double Damage; a Reroll Reaction
        or skill rerolls all the chosen dice together."""
        a = self.atk
        for i in p.get("done", []):
            d = a["dice"][i]
            if p["mode"] == "miss":
                d[1] = "double"
                events.append(Event("skill", f"Die {i + 1} changes from Miss to Double Damage",
                                    S_SKILLS))
                continue
            old = d[1]
            d[1] = self.dice[d[0]].roll(self.chance, f"reroll of {d[0]} die {i + 1}", S_REROLL)
            if i not in a["rerolled"]:
                a["rerolled"].append(i)
            events.append(Event("reroll", f"Die {i + 1} ({d[0]}) is rerolled: {old.replace('_', ' ')} -> "
                                f"{d[1].replace('_', ' ')}",
                                p["sec"], {"die": i + 1, "face": d[1],
                                           "dice": dice_data([d])}))

    def red_face(self, i: int, events: list[Event]) -> None:
        d = self.atk["dice"][i]
        d[1] = "counter"
        events.append(Event("face", f"Red Face: die {i + 1} ({d[0]}) is turned to its "
                            "Counterattack side", S_THOR_FACES))

    def ans_redface(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        self.red_face(int(choice.split()[2]) - 1, events)

    def resolve_attack(self, events: list[Event]) -> None:
        """Attack Resolution: Damage (target effects reduce it), then Heal, then one
        Counterattack however many were rolled; all resolved even if the target is destroyed."""
        a = self.atk
        self.atk = None
        cid = a["c"]
        faces = [d[1] for d in a["dice"]]
        dmg = faces.count("damage") + 2 * faces.count("double")
        heal = faces.count("heal") + 2 * faces.count("double_heal")
        counter = "counter" in faces
        target = a["target"]
        follow: list[Task] = []
        if target.startswith("thor-"):
            face = target[5:]
            # Ruling: the Passive reduces the Damage that "would be dealt"; the Yellow Face then
            # caps what is dealt. Capping first would make the Yellow Face immune once two other
            # Faces are destroyed, and Thor could never be Defeated.
            others = len([f for f in self.thor["destroyed"] if f != face])
            if others and dmg:
                events.append(Event("passive", f"Thor's Passive: Damage reduced by {others} "
                                    f"(other destroyed Faces)", "Reading God Status Cards"))
                dmg = max(0, dmg - others)
            if face == "yellow" and dmg > 2:
                events.append(Event("face", f"Yellow Face: only 2 of the {dmg} Damage count",
                                    S_THOR_FACES))
                dmg = 2
            if face == "green" and counter:
                events.append(Event("face", "Green Face: the attacker suffers no Counterattack",
                                    S_THOR_FACES))
                counter = False
            self.damage_face(face, dmg, cid, events)
            if self.result:
                return
            cval = self.content.god.counter
        else:
            m = self.minions[target]
            side = self.minion_side(m.type)
            cval = side.counter
            self.damage_minion(target, dmg, cid, events, follow)
        if heal:
            self.heal(cid, heal, "Heal sides of the attack", S_SIDES, events)
        if counter:
            follow.append({"t": "lose", "c": cid, "n": cval, "sec": S_SIDES,
                           "src": f"Counterattack of {self.target_name(target)}",
                           **self.enemy_source(target)})
        self.tasks[:0] = follow

    def damage_minion(self, mid: str, dmg: int, cid: str, events: list[Event],
                      follow: list[Task]) -> None:
        m = self.minions[mid]
        side = self.minion_side(m.type)
        m = self.set_minion(mid, damage=m.damage + dmg)
        if m.damage >= side.health:
            sym = self.spawn_symbol()
            m = self.set_minion(mid, area=None, damage=0, lying=sym)
            # kind "kill" with by/enemy/enemy_type: the simulation lab counts these.
            events.append(Event("kill", f"{self.cname(cid)} deals {dmg} Damage and Destroys "
                                f"{self.minion_name(mid)}: it lies down by the {sym} Spawning "
                                f"Area", S_MIN_DESTROY,
                                {"minion": mid, "by": cid, "enemy": mid,
                                 "enemy_type": self.minion_card(m.type).name}))
            follow.append({"t": "fury", "c": cid, "n": side.fury})
        else:
            events.append(Event("damage", f"{self.cname(cid)} deals {dmg} Damage to "
                                f"{self.minion_name(mid)} ({m.damage}/{side.health})",
                                S_ATK_RES, {"minion": mid, "damage": m.damage}))

    def damage_face(self, face: str, dmg: int, cid: str, events: list[Event]) -> None:
        hp = self.face_health()
        cur = self.thor["damage"][face] + dmg
        self.thor["damage"][face] = min(cur, hp)
        if cur >= hp:
            self.thor["destroyed"].append(face)
            events.append(Event("face", f"{self.cname(cid)} deals {dmg} Damage and Destroys "
                                f"Thor's {face} Face", S_FACES, {"face": face}))
            if len(self.thor["destroyed"]) == 6:
                events.append(Event("kill", f"{self.cname(cid)} Destroys Thor's last Face: Thor "
                                    "is Defeated", S_FACES,
                                    {"by": cid, "enemy": "thor", "enemy_type": "Thor"}))
                self.thor_defeated(events)
        else:
            events.append(Event("damage", f"{self.cname(cid)} deals {dmg} Damage to Thor's "
                                f"{face} Face ({self.thor['damage'][face]}/{hp})", S_ATK_RES,
                                {"face": face}))

