"""Other Rules: damage and defense, health loss, knockouts, stun, tokens, extra cubes,
approaching/distancing and throwing (sections under "Other Rules").

Everything that can interrupt play for a champion's reaction is a task on the state's task queue
(see ``state.py``): handlers run, push follow-up tasks, or ask a seat and wait for the answer.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import Event
from meadhall.core.words import join, plural

from .basics import (
    CHARGE_CAP,
    MAX_HEALTH,
    S_APPROACH,
    S_BERSERKER,
    S_DEFENSE,
    S_FREEZE,
    S_FROST,
    S_FROSTBITE,
    S_HEAT,
    S_KO,
    S_RELOCATE,
    S_SKILL_REQ,
    S_STEPS,
    S_STUN,
    S_TEMP,
    START_HEALTH,
    replacement_choices,
    rondel_take,
)

Task = dict[str, Any]


_RELOCATE: dict[tuple[tuple[str, ...], ...], list[str]] = {}
"""Relocate options by the kinds of cube in each rondel space (see relocate_options)."""


class OtherRules:
    """Mixin of :class:`BattleForgeState`: the shared consequences of attacks and effects."""

    # ------------------------------------------------------------------ health
    def t_damage(self, t: Task, events: list[Event]) -> None:
        """A champion takes Damage: other champions' "when another Champion takes Damage"
        skills, then one Defense Reaction, then Health loss (Defense; Trigger Events)."""
        c = self.champs[t["c"]]
        stage = t.get("stage", 0)
        if stage == 0:
            asked = t.setdefault("asked", [])
            for o in self.turn_order():
                if o == c.id or o in asked or t["n"] <= 0:
                    continue
                sks = self.usable_skills(o, "another_takes_damage")
                if not sks:
                    continue
                asked.append(o)
                self.tasks.insert(0, t)
                forms = {f"use {name} for {c.name}": form for name, form in sks}
                self.ask_seat(o, f"{self.cname(c.id)} is about to take {t['n']} Damage ({t['src']}):"
                              f" use {' or '.join(n for n, _ in sks)}?", S_SKILL_REQ,
                              [*forms, "pass"], "skill_prevent", {"forms": forms}, default="pass")
                return
            t["stage"] = 1
            stage = 1
        if stage == 1:
            opts = [f"defend with space {i + 1}"
                    for i in self.reaction_spaces(c.id, "defense")] if t["n"] > 0 else []
            if t["n"] > 0:
                # "Anytime" skills may also be used while reacting (ruling).
                opts += [f"skill {name}" for name, _ in self.usable_skills(c.id, "anytime")]
            if opts:
                t["stage"] = 2
                self.tasks.insert(0, t)
                self.ask_seat(c.id, f"{self.cname(c.id)} takes {t['n']} Damage ({t['src']}): "
                              "defend with a rondel space, or take it", S_DEFENSE,
                              [*opts, f"take {t['n']} damage"], "defend", {},
                              default=f"take {t['n']} damage")
                return
            stage = 2
        if stage == 3:
            # How much to Defend (Defense): worth asking only against a Heat token, where losing
            # Health also brings a Temporary Cube (ruling 11).
            t["stage"] = 2
            self.tasks.insert(0, t)
            opts = [f"defend {k} damage" for k in range(t["most"], 0, -1)]
            self.ask_seat(c.id, f"{self.cname(c.id)} defends with strength {t['strength']}: "
                          f"how much of the {t['n']} Damage ({t['src']})?", S_DEFENSE,
                          opts, "block", {}, default=opts[0])
            return
        if stage == 2:
            self.lose_health(c.id, t["n"], t["src"], t.get("sec", S_DEFENSE), events,
                             heat=t.get("heat", False), undefended=True, source=t)

    def ans_block(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        k = int(choice.split()[1])
        t["n"] -= k
        events.append(Event("defense", f"{self.cname(t['c'])} defends {k} Damage, {t['n']} left",
                            S_DEFENSE, {"champion": t["c"]}))

    def ans_skill_prevent(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        if choice == "pass":
            return
        seat = ask["seat"]
        form = ask["ctx"]["forms"][choice] if "forms" in ask["ctx"] else ask["ctx"]["form"]
        self.champs[seat].charges[form] -= 1
        # "Special Skills can be used one after the other or even cumulatively": the seat is
        # offered the window again while it has a charge and Damage is left.
        t["asked"].remove(seat)
        t.setdefault("used", []).append(seat)
        before = t["n"]
        t["n"] = max(0, t["n"] - 2)
        events.append(Event("skill", f"{self.cname(seat)} uses a Special Skill charge to prevent "
                            f"{before - t['n']} of the Damage to {self.cname(t['c'])}",
                            S_SKILL_REQ, {"champion": seat}))

    def ans_defend(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        cid = t["c"]
        if choice.startswith("skill "):
            t["stage"] = 1
            self.use_own_skill(cid, choice[6:], events)
            return
        if choice.startswith("defend with space "):
            space = int(choice.split()[-1]) - 1
            what = self.cubes_text(cid, space, "defense")[1]
            strength, frost = self.perform_rondel(cid, space, "defense")
            if frost:
                self.tasks.insert(1, self.frost_loss_task(cid, frost))
            blocked = min(strength, t["n"])
            if t.get("heat") and blocked > 1:
                # "The Champion can choose to Defend any amount of Damage between 1 and the
                # number of Action Cubes used": against Heat, less can be worth it.
                t.update(stage=3, most=blocked, strength=strength)
                events.append(Event("defense", f"{self.cname(cid)} defends with space "
                                    f"{space + 1} ({what})", S_DEFENSE,
                                    {"champion": cid, "space": space + 1}))
                return
            t["n"] -= blocked
            events.append(Event("defense", f"{self.cname(cid)} defends with space {space + 1} "
                                f"({what}): {blocked} Damage blocked, {t['n']} left", S_DEFENSE,
                                {"champion": cid, "space": space + 1}))

    def lose_health(self, cid: str, n: int, src: str, section: str, events: list[Event],
                    heat: bool = False, undefended: bool = False,
                    source: Task | None = None) -> None:
        """Reduce Health (Losing Health Points); a heat token that cost Health gives a
        Temporary Cube; 0 Health is a knockout (by the ``by``/``by_type`` of ``source``)."""
        c = self.champs[cid]
        if n <= 0:
            events.append(Event("health", f"{self.cname(cid)} loses no Health ({src})", section))
            return
        c.health = max(0, c.health - n)
        events.append(Event("health", f"{self.cname(cid)} loses {plural(n, 'Health Point')} "
                            f"({src}): "
                            f"{c.health} left", section, {"champion": cid, "lost": n}))
        follow: list[Task] = []
        if c.health <= 0:
            src_ = source or {}
            follow.append({"t": "ko", "c": cid, "by": src_.get("by"),
                           "by_type": src_.get("by_type")})
        elif heat:
            follow.append({"t": "gain", "c": cid, "kind": "t", "n": 1, "sec": S_HEAT})
        self.tasks[:0] = follow

    def t_lose(self, t: Task, events: list[Event]) -> None:
        """"Lose X Health Points": no Defense Reaction is possible (Defense). An "Anytime"
        Special Skill may still be used first (Special Skill Requirements; ruling)."""
        cid = t["c"]
        sks = [f"skill {name}" for name, form in self.usable_skills(cid, "anytime")
               if self.skill_useful(cid, form)] if t["n"] > 0 else []
        if sks:
            self.tasks.insert(0, dict(t))
            self.ask_seat(cid, f"{self.cname(cid)} is about to lose {plural(t['n'], 'Health Point')} "
                          f"({t['src']}, no Defense possible): use "
                          f"{' or '.join(x[6:] for x in sks)} first?", S_SKILL_REQ,
                          [*sks, f"lose {t['n']} health"], "anytime_lose", {},
                          default=f"lose {t['n']} health")
            return
        self.lose_health(cid, t["n"], t["src"], t.get("sec", S_DEFENSE), events, source=t)

    def ans_anytime_lose(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks.pop(0)
        if choice.startswith("skill "):
            # The skill's follow-ups (a cube to place) come first, then the loss is offered again.
            self.tasks.insert(0, t)
            self.use_own_skill(t["c"], choice[6:], events)
            return
        self.lose_health(t["c"], t["n"], t["src"], t.get("sec", S_DEFENSE), events, source=t)

    def t_anytime(self, t: Task, events: list[Event]) -> None:
        """A window for "Anytime" Special Skills outside the holder's turn (ruling): each
        champion with such a skill and a charge, in turn order, may use it (again and again
        while charges last) or pass."""
        asked = t.setdefault("asked", [])
        for cid in self.turn_order():
            if cid in asked:
                continue
            sks = [f"skill {name}" for name, form in self.usable_skills(cid, "anytime")
                   if self.skill_useful(cid, form)]
            if not sks:
                continue
            self.tasks.insert(0, t)
            self.ask_seat(cid, f"{t['why']}: {self.cname(cid)} may use "
                          f"{' or '.join(x[6:] for x in sks)} (Anytime)",
                          S_SKILL_REQ, [*sks, "pass"], "anytime", {}, default="pass")
            return

    def ans_anytime(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        if choice == "pass":
            self.tasks[0]["asked"].append(ask["seat"])
            return
        # The skill's follow-ups come first; then this window is offered again.
        self.use_own_skill(ask["seat"], choice[6:], events)

    def heal(self, cid: str, n: int, src: str, section: str, events: list[Event]) -> int:
        c = self.champs[cid]
        got = max(0, min(n, MAX_HEALTH - c.health))
        c.health += got
        events.append(Event("heal", f"{self.cname(cid)} heals {plural(got, 'Health Point')} "
                            f"({src}): "
                            f"{c.health}", section, {"champion": cid, "healed": got}))
        return got

    def frost_loss_task(self, cid: str, frost: int) -> Task:
        return {"t": "lose", "c": cid, "n": 2 * frost, "sec": S_FROST,
                "src": f"{plural(frost, 'Frost Cube')} returned to the Reserve", "by": "frost",
                "by_type": "Frost Cube"}

    def perform_rondel(self, cid: str, space: int, icon: str) -> tuple[int, int]:
        """The three steps on ``space``; returns (strength including the boon bonus, frost cubes
        discarded). Temporary and frost cubes go back to their reserves."""
        c = self.champs[cid]
        cubes = c.rondel[space]
        normal = cubes.count("c")
        if 0 < normal < len(cubes):
            choices = replacement_choices(space, len(cubes), normal)
            if len(choices) > 1:
                # Which places the temporary/frost cubes take is the champion's choice; it is
                # asked right after the handler that performed the action (see ``_apply``),
                # place by place clockwise.
                self.arrange = {"t": "arrange", "c": cid, "space": space, "n": len(cubes),
                                "normal": normal, "k": 1, "lifted": False}
        n, discarded = rondel_take(c.rondel, space)
        for k in discarded:
            if k == "t":
                self.reserve_temp += 1
            else:
                self.reserve_frost += 1
        return n + self.boon_bonus(cid, space, icon), discarded.count("f")

    def t_arrange(self, t: Task, events: list[Event]) -> None:
        """The Three Steps: the ``n`` cubes taken are re-placed 1 by 1 clockwise and the
        temporary and frost cubes among them are then discarded, so the champion chooses, place
        by place, whether an Action Cube or a cube to be discarded goes there (Temporary Action
        Cubes, step 1; Frost Cubes, step 1). Once only one kind is left, the rest follows."""
        c = self.champs[t["c"]]
        if not t["lifted"]:
            # The Action Cubes were put down in the first places by default: take them back.
            for k in range(1, t["normal"] + 1):
                c.rondel[(t["space"] + k) % 6].remove("c")
            t["lifted"] = True
            t["placed"] = []
        left = t["normal"] - len(t["placed"])
        others = t["n"] - t["k"] + 1 - left
        if left > 0 and others > 0:
            where = (t["space"] + t["k"]) % 6 + 1
            opts = [f"Action Cube to space {where}", f"discarded cube to space {where}"]
            self.tasks.insert(0, t)
            self.ask_seat(t["c"], f"{self.cname(t['c'])} re-places the cubes taken from space "
                          f"{t['space'] + 1} one by one clockwise ({left} Action, {others} "
                          f"temporary/frost to be discarded): which goes to space {where}?",
                          S_STEPS, opts, "arrange", {}, default=opts[0])
            return
        for k in range(t["k"], t["k"] + left):
            t["placed"].append((t["space"] + k) % 6)
            c.rondel[(t["space"] + k) % 6].append("c")
        spaces = sorted(t["placed"])
        events.append(Event("rondel", f"{self.cname(c.id)} re-places the Action Cubes of space "
                            f"{t['space'] + 1} in space{'' if len(spaces) == 1 else 's'} "
                            f"{join(str(i + 1) for i in spaces)}; the temporary/frost "
                            "cubes re-placed among them are discarded", S_STEPS,
                            {"champion": c.id, "spaces": [i + 1 for i in spaces]}))

    def ans_arrange(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        if choice.startswith("Action Cube"):
            where = (t["space"] + t["k"]) % 6
            t["placed"].append(where)
            self.champs[t["c"]].rondel[where].append("c")
        t["k"] += 1

    # ------------------------------------------------------------------ knocked out
    def t_ko(self, t: Task, events: list[Event]) -> None:
        """Knocked Out: the first knockout flips the First Champion marker and advances the
        Twilight marker; the second loses. Otherwise reset to 12, clear conditions, free
        Relocate, and the turn ends."""
        cid = t["c"]
        c = self.champs[cid]
        self.knockouts += 1
        # kind "knockout" with hero/by/by_type: the simulation lab counts these.
        data = {"hero": cid, "champion": cid, "by": t.get("by"), "by_type": t.get("by_type")}
        if not self.marker_red:
            events.append(Event("knockout", f"{self.cname(cid)} is Knocked Out with the First "
                                "Champion marker already grey", S_KO, data))
            self.finish("loss", f"{self.cname(cid)} is Knocked Out a second time for the group "
                        "(the First Champion marker was already grey)", S_KO, events,
                        "knockouts", t.get("by_type"))
            return
        self.marker_red = False
        events.append(Event("knockout", f"{self.cname(cid)} is Knocked Out: the First Champion "
                            "marker flips to grey and the Twilight marker advances", S_KO, data))
        self.advance_twilight(events, S_KO, t.get("by_type"))
        if self.result:
            return
        c.health = START_HEALTH
        for i, sp in enumerate(c.rondel):
            self.reserve_temp += sp.count("t")
            self.reserve_frost += sp.count("f")
            c.rondel[i] = [k for k in sp if k == "c"]
        back = [k for k in c.centre if k == "c"]
        self.reserve_temp += c.centre.count("t")
        self.reserve_frost += c.centre.count("f")
        c.centre = []
        c.stunned = False
        events.append(Event("ko", f"{self.cname(cid)} resets to {START_HEALTH} Health and "
                            "removes every condition", S_KO, {"champion": cid}))
        follow: list[Task] = []
        if back:
            follow.append({"t": "place", "c": cid, "kinds": back, "sec": S_KO})
        follow.append({"t": "relocate", "c": cid, "left": 2, "free": True})
        if c.area == self.thor_area:
            # Knocked Out while crossing Thor's Area (a Heat token under him): the turn ends,
            # but no Champion stops in a God's Area; they are pushed out as Thor pushes the
            # characters of an Area he takes (ruling 45).
            follow.append({"t": "god_push", "who": cid, "area": c.area})
        if self.phase == "champions" and self.current() == cid:
            self.turn["over"] = True
            self.turn["move"] = 0
            # Knocked Out removes every condition: a Move Action's Frost Cube loss lapses.
            self.turn.pop("frost", None)
        self.tasks[:0] = follow

    # ------------------------------------------------------------------ cubes
    def t_gain(self, t: Task, events: list[Event]) -> None:
        """Receive Temporary ('t') or Frost ('f') cubes from the reserve, placed where the
        champion chooses; an empty frost reserve triggers Frostbite."""
        cid, kind = t["c"], t["kind"]
        if t.get("void"):
            events.append(Event("cube", f"{self.cname(cid)} receives no Frost Cube: the Reserve "
                                "ran empty during these simultaneous Attacks (Frostbite)",
                                S_FROSTBITE, {"champion": cid}))
            return
        got = 0
        frostbite = False
        for _ in range(t["n"]):
            if kind == "t":
                if self.reserve_temp <= 0:
                    events.append(Event("cube", f"No Temporary Cube left in the Reserve for "
                                        f"{self.cname(cid)}", S_TEMP))
                    break
                self.reserve_temp -= 1
            else:
                if self.reserve_frost <= 0:
                    frostbite = True
                    break
                self.reserve_frost -= 1
            got += 1
        follow: list[Task] = []
        if got:
            word = "Temporary" if kind == "t" else "Frost"
            events.append(Event("cube", f"{self.cname(cid)} receives {plural(got, word + ' Cube')}",
                                S_TEMP if kind == "t" else S_FROST, {"champion": cid}))
            follow.append({"t": "place", "c": cid, "kinds": [kind] * got,
                           "sec": S_TEMP if kind == "t" else S_FROST})
        if frostbite:
            events.append(Event("cube", f"{self.cname(cid)} is about to receive a Frost Cube and "
                                "the Reserve is empty: no Frost Cube is given", S_FROSTBITE,
                                {"champion": cid}))
            follow.append({"t": "frostbite"})
            self.frostbite_ends_effect(t, events)
        self.tasks[:0] = follow

    def frostbite_ends_effect(self, t: Task, events: list[Event]) -> None:
        """Frostbite: "no additional Frost Cubes are given to the Champions". The effect that
        emptied the Reserve gives no more: its later Champions' Frost Cubes (one card step on
        several Champions, or one minion type's simultaneous Attacks) are disregarded, not
        taken from the Reserve that Frostbite refills (ruling 46)."""
        effect = t.get("effect")
        if effect == "card":
            rest = [x for x in self.tasks if x.get("t") == "gain" and x.get("kind") == "f"
                    and x.get("effect") == "card"]
            for x in rest:
                self.tasks.remove(x)
                events.append(Event("cube", f"{self.cname(x['c'])} receives no Frost Cube: the "
                                    "Reserve was empty (Frostbite)", S_FROSTBITE,
                                    {"champion": x["c"]}))
        elif effect == "minions":
            head = next((x for x in self.tasks if x.get("t") == "minion_attacks"), None)
            if head is not None:
                head["frostbite"] = True

    def t_frostbite(self, t: Task, events: list[Event]) -> None:
        """Frostbite: every champion returns their Frost Cubes and loses 2 Health each."""
        events.append(Event("frostbite", "The Frost Cube Reserve is empty: Frostbite!",
                            S_FROSTBITE))
        follow: list[Task] = []
        for cid in self.turn_order():
            c = self.champs[cid]
            n = sum(sp.count("f") for sp in c.rondel) + c.centre.count("f")
            if not n:
                continue
            for i, sp in enumerate(c.rondel):
                c.rondel[i] = [k for k in sp if k != "f"]
            c.centre = [k for k in c.centre if k != "f"]
            self.reserve_frost += n
            follow.append({"t": "lose", "c": cid, "n": 2 * n, "sec": S_FROSTBITE,
                           "src": f"Frostbite, {plural(n, 'Frost Cube')} returned",
                           "by": "frostbite", "by_type": "Frostbite"})
        self.tasks[:0] = follow

    def t_place(self, t: Task, events: list[Event]) -> None:
        """Place received cubes one at a time in rondel spaces of the champion's choice."""
        if not t["kinds"]:
            return
        kind = t["kinds"][0]
        word = {"t": "a Temporary Cube", "f": "a Frost Cube", "c": "an Action Cube"}[kind]
        self.tasks.insert(0, t)
        self.ask_seat(t["c"], f"{self.cname(t['c'])}: place {word} in a rondel space",
                      t.get("sec", S_TEMP), [f"place in space {i + 1}" for i in range(6)],
                      "place", {}, default="place in space 1")

    def ans_place(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        space = int(choice.split()[-1]) - 1
        kind = t["kinds"].pop(0)
        self.champs[t["c"]].rondel[space].append(kind)
        if not t["kinds"]:
            self.tasks.pop(0)
        events.append(Event("cube", f"{self.cname(t['c'])} places a cube in space {space + 1}",
                            t.get("sec", S_TEMP)))

    def t_relocate(self, t: Task, events: list[Event]) -> None:
        """Relocate up to ``left`` cubes (frost cubes cannot be relocated)."""
        if t["left"] <= 0:
            return
        opts = self.relocate_options(t["c"])
        if not opts:
            return
        done = "done relocating"
        if t.get("free") or t["left"] < 2:
            opts = [*opts, done]
        self.tasks.insert(0, t)
        self.ask_seat(t["c"], f"{self.cname(t['c'])}: relocate a cube ({t['left']} left)",
                      S_RELOCATE, opts, "relocate", {}, default=opts[-1] if done in opts
                      else opts[0])

    def relocate_options(self, cid: str) -> list[str]:
        """Every cube (not Frost) that can move, to every other space (Relocate)."""
        key = tuple([tuple(dict.fromkeys(sp)) for sp in self.champs[cid].rondel])
        found = _RELOCATE.get(key)
        if found is None:
            # The options depend only on which kinds of cube each space holds (in the order
            # they came): a handful of patterns, worded once.
            found = []
            for a, kinds in enumerate(key):
                for k in kinds:
                    if k == "f":
                        continue
                    word = "temporary cube" if k == "t" else "cube"
                    found += [f"relocate {word} from space {a + 1} to space {b + 1}"
                              for b in range(6) if b != a]
            if len(_RELOCATE) > 4096:
                _RELOCATE.clear()
            _RELOCATE[key] = found
        return list(found)

    def ans_relocate(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks[0]
        if choice == "done relocating":
            self.tasks.pop(0)
            return
        parts = choice.split()
        a, b = int(parts[-4]) - 1, int(parts[-1]) - 1
        kind = "t" if parts[1] == "temporary" else "c"
        c = self.champs[t["c"]]
        c.rondel[a].remove(kind)
        c.rondel[b].append(kind)
        t["left"] -= 1
        if t["left"] <= 0:
            self.tasks.pop(0)
        events.append(Event("relocate", f"{self.cname(c.id)} relocates a cube from space {a + 1} "
                            f"to space {b + 1}", S_RELOCATE, {"champion": c.id}))

    # ------------------------------------------------------------------ stun
    def t_stun(self, t: Task, events: list[Event]) -> None:
        """Stunned: 2 cubes of the champion's choice go to the centre until their next turn
        passes; a stunned champion cannot be stunned again."""
        c = self.champs[t["c"]]
        if t.get("new", True):
            if c.stunned:
                events.append(Event("stun", f"{self.cname(c.id)} is already Stunned (Stun does "
                                    "not stack)", S_STUN))
                return
            c.stunned = True
            t["new"] = False
            t["left"] = 2
            events.append(Event("stun", f"{self.cname(c.id)} is Stunned: 2 cubes go to the "
                                "centre of the rondel", S_STUN, {"champion": c.id}))
        if t["left"] <= 0:
            return
        opts = []
        for i, sp in enumerate(c.rondel):
            for k in dict.fromkeys(sp):
                word = {"c": "cube", "t": "temporary cube", "f": "frost cube"}[k]
                opts.append(f"set aside {word} from space {i + 1}")
        if not opts:
            return
        if len(opts) == 1:
            self.ans_stun_take(opts[0], {"ctx": {}, "seat": c.id}, events, t)
            self.tasks.insert(0, t)
            return
        self.tasks.insert(0, t)
        self.ask_seat(c.id, f"{self.cname(c.id)} is Stunned: choose a cube to set aside "
                      f"({t['left']} left)", S_STUN, opts, "stun_take", {},
                      default=opts[0])

    def ans_stun_take(self, choice: str, ask: dict[str, Any], events: list[Event],
                      t: Task | None = None) -> None:
        if t is None:
            t = self.tasks[0]
        c = self.champs[t["c"]]
        parts = choice.split()
        space = int(parts[-1]) - 1
        kind = {"temporary": "t", "frost": "f"}.get(parts[2], "c")
        c.rondel[space].remove(kind)
        c.centre = [*c.centre, kind]
        t["left"] -= 1

    def end_stun(self, cid: str, events: list[Event]) -> None:
        """When passing the turn, a stunned champion relocates the 2 cubes wherever they want."""
        c = self.champs[cid]
        if not c.stunned:
            return
        kinds = list(c.centre)
        c.centre = []
        c.stunned = False
        events.append(Event("stun", f"{self.cname(cid)} recovers from the Stun", S_STUN))
        if kinds:
            self.tasks.insert(0, {"t": "place", "c": cid, "kinds": kinds, "sec": S_STUN})

    # ------------------------------------------------------------------ tokens
    def token_kind(self, area: str) -> str | None:
        return self.tokens.get(area)

    def is_heat(self, area: str) -> bool:
        """Sacred Flame tokens function exactly like Heat tokens (The Last Flame)."""
        return self.tokens.get(area) in ("heat", "flame")

    def place_token(self, kind: str, area: str, section: str, events: list[Event]) -> bool:
        """Heat and Freeze tokens are not stackable and never go where no character can be."""
        if self.board.cells.get(area) != "." or area in self.tokens:
            return False
        # The Components list is the box's inventory, not a rule: no printed rule runs out of
        # Heat or Freeze tokens, so a rule that places one always can (ruling 33).
        self.tokens[area] = kind
        word = "Heat" if kind == "heat" else "Freeze"
        events.append(Event("token", f"A {word} token is placed in {area}", section,
                            {"area": area, "kind": kind}))
        return True

    def remove_token(self, area: str, why: str, section: str, events: list[Event],
                     by: str | None = None) -> None:
        """Remove the token in ``area``; ``by`` (a minion card or ``champion``) is recorded as
        the last remover of a Point of Interest, the final blow if it was the last one."""
        kind = self.tokens.pop(area, None)
        if kind is None:
            return
        if kind in ("heat", "flame"):
            self.last_poi_by = by
        word = {"heat": "Heat token", "flame": "Sacred Flame token", "freeze": "Freeze token"}[kind]
        events.append(Event("token", f"The {word} in {area} is removed ({why})", section,
                            {"area": area}))
        self.check_scenario_defeat(events)

    def enter_area(self, cid: str, area: str, events: list[Event]) -> None:
        """A champion entering an area with a Heat (4 Damage) or Freeze (1 Frost Cube) token;
        the token is removed."""
        kind = self.tokens.get(area)
        if kind in ("heat", "flame"):
            self.remove_token(area, f"{self.cname(cid)} entered it", S_HEAT, events,
                              "champion")
            if self.result:
                return
            self.tasks.insert(0, {"t": "damage", "c": cid, "n": 4, "heat": True, "sec": S_HEAT,
                                  "src": f"the Heat in {area}", "by": "heat",
                                  "by_type": "Heat token"})
        elif kind == "freeze":
            self.remove_token(area, f"{self.cname(cid)} entered it", S_FREEZE, events)
            self.tasks.insert(0, {"t": "gain", "c": cid, "kind": "f", "n": 1, "sec": S_FREEZE})

    # ------------------------------------------------------------------ approaching / distancing
    def t_shift(self, t: Task, events: list[Event]) -> None:
        """Approach (``dir`` -1) or Distance (+1) from the god ``n`` areas, one area at a time,
        never through walls or inaccessible areas; a target that cannot move the right way
        stays put (Approaching and Distancing)."""
        cid = t["c"]
        c = self.champs[cid]
        if t["n"] <= 0:
            return
        dist = self.board.walking(self.thor_area)
        here = dist.get(c.area, float("inf"))
        opts = [a for a in self.board.adjacent(c.area) if a != self.thor_area
                and (dist.get(a, float("inf")) - here) * t["dir"] > 0]
        if not opts:
            word = "closer to" if t["dir"] < 0 else "away from"
            events.append(Event("shift", f"{self.cname(cid)} cannot move {word} Thor and stays "
                                f"in {c.area}", S_APPROACH, {"champion": cid}))
            return
        if len(opts) == 1:
            self.do_shift(t, opts[0], events)
            return
        self.tasks.insert(0, t)
        self.ask_seat(cid, f"{self.cname(cid)} is moved {'toward' if t['dir'] < 0 else 'away from'}"
                      " Thor: choose the area", S_APPROACH, [f"shift to {a}" for a in opts],
                      "shift", {}, default=f"shift to {opts[0]}")

    def ans_shift(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        t = self.tasks.pop(0)
        self.do_shift(t, choice.split()[-1], events)

    def do_shift(self, t: Task, area: str, events: list[Event]) -> None:
        cid = t["c"]
        self.champs[cid].area = area
        events.append(Event("shift", f"{self.cname(cid)} is moved to {area}", S_APPROACH,
                            {"champion": cid, "to": area}))
        rest = dict(t, n=t["n"] - 1)
        self.tasks.insert(0, rest)
        self.enter_area(cid, area, events)

    def recover_charges(self, cid: str, n: int, events: list[Event], section: str) -> None:
        """Recover ``n`` Special Skill charges (never more than 3 of one skill)."""
        c = self.champs[cid]
        for _ in range(n):
            forms = [f for f in (["human", "berserker"] if c.form == "berserker" else ["human"])
                     if c.charges[f] < CHARGE_CAP]
            if not forms:
                events.append(Event("charge", f"{self.cname(cid)}'s Special Skills are full "
                                    "(3 charges each)", section))
                return
            if len(forms) == 1:
                c.charges[forms[0]] += 1
                events.append(Event("charge", f"{self.cname(cid)} recovers 1 charge of "
                                    f"{self.skill_of(cid, forms[0]).name}", section))
            else:
                self.tasks.insert(0, {"t": "charge", "c": cid})

    def t_charge(self, t: Task, events: list[Event]) -> None:
        cid = t["c"]
        opts = [f"recharge {self.skill_of(cid, f).name}" for f in ("human", "berserker")
                if self.champs[cid].charges[f] < CHARGE_CAP]
        if not opts:
            return
        self.ask_seat(cid, f"{self.cname(cid)}: choose which Special Skill recovers a charge",
                      S_BERSERKER, opts, "charge", {},
                      default=opts[0])

    def ans_charge(self, choice: str, ask: dict[str, Any], events: list[Event]) -> None:
        cid = ask["seat"]
        name = choice[len("recharge "):]
        for f in ("human", "berserker"):
            if self.skill_of(cid, f).name == name:
                self.champs[cid].charges[f] += 1
                events.append(Event("charge", f"{self.cname(cid)} recovers 1 charge of {name}",
                                    S_BERSERKER))
                return
