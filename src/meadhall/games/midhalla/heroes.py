"""3.3 Hero Turns: heroes act in any order; a top-row skill, then a bottom-row skill, with
items and ultimates as free actions between them."""

from __future__ import annotations

import json
from typing import Any

from meadhall.core.errors import RuleNotImplemented
from meadhall.core.protocol import PLAYERS, Event
from meadhall.core.words import plural
from meadhall.games.midhalla import memo
from meadhall.games.midhalla import sections as S

ID = "midhalla"
REPLAY = "replay step 3.3"


class HeroRules:
    """Mixin of :class:`MidhallaState`. ``self.ht`` is the hero turn in progress."""

    def _slots(self, h: Any) -> list[str]:
        return [f"top:{i}" for i in range(len(h.top))] + [
            f"bottom:{i}" for i in range(len(h.bottom))]

    def _skill_id(self, h: Any, slot: str) -> str:
        row, i = slot.split(":")
        return (h.top if row == "top" else h.bottom)[int(i)]

    def _slot_text(self, slot: str) -> str:
        """"top 2" for the slot "top:1" (rows numbered from 1, as players count)."""
        row, i = slot.split(":")
        return f"{row} {int(i) + 1}"

    def _skill_name(self, h: Any, slot: str) -> str:
        return self.content.cat.skills[self._skill_id(h, slot)].name

    def _seat(self, h: Any) -> str:
        """Followers are activated by the players together; heroes by their player."""
        return PLAYERS if h.follower else h.id

    def _hero_phase_step(self, events: list[Event]) -> None:
        if self.ht is not None:
            self._hero_turn_step(events)
            return
        ready = [h.id for h in self.heroes.values() if not h.ko and h.tile and not h.acted]
        if not ready:
            self._end_of_round(events)
            return
        if len(ready) > 1:
            opts = [(f"next hero {self._short(h)}", h) for h in ready]
            self._ask("next_hero", PLAYERS, "Heroes take their turns in any order: choose who "
                      "acts next", S.HERO_TURNS, opts, default=opts[0][0])
            return
        self._start_hero(ready[0], events)

    def _replay_step(self, events: list[Event]) -> None:
        """3.3 Hero Turns: players may replay the step's actions "in a different way instead
        ... as long as the next step 3.1 has not started yet": back to the step's start."""
        snapshot = self.cb["snapshot"]
        replays = self.replays + 1
        if snapshot.attrs is not None:
            self._restore(snapshot.attrs)
        else:
            self._load(json.loads(snapshot.text(None)), checked=False)
        self.cb["snapshot"] = snapshot
        self.replays = replays
        events.append(Event("replay", "Step 3.3 is replayed: every hero action since the step "
                            "began is taken back", S.HERO_TURNS))

    def _on_next_hero(self, hid: str, events: list[Event]) -> None:
        self._start_hero(hid, events)

    def _start_hero(self, hid: str, events: list[Event]) -> None:
        """A hero's turn begins: hero armor and retaliate last until now (Armor X)."""
        h = self.heroes[hid]
        if h.armor or h.retaliate:
            events.append(Event("expire", f"{self._hname(hid)}'s armor/retaliate from the last "
                                "turn ends at the beginning of this turn", "Armor X"))
        h.armor = h.retaliate = 0
        self.ht = {"hero": hid, "stage": "top", "queue": [], "pierce": False, "source": ""}
        events.append(Event("turn", f"{self._hname(hid)} activates (activation token active)",
                            S.ACTIVATION_TOKEN))

    def _row_options(self, h: Any, row: str) -> list[tuple[str, Any]]:
        skills = h.top if row == "top" else h.bottom
        at = h.top_at if row == "top" else h.bottom_at
        out = []
        for i, sid in enumerate(skills):
            slot = f"{row}:{i}"
            if i != at and slot not in h.exhausted:
                out.append((f"skill {row} {i + 1} {self.content.cat.skills[sid].name}",
                            ["skill", row, i]))
        return out

    def _free_options(self, h: Any) -> list[tuple[str, Any]]:
        cat = self.content.cat
        out: list[tuple[str, Any]] = []
        for item in h.items:
            if item not in h.used_items:
                out.append((f"use item {cat.items[item].name}", ["item", item]))
        if h.follower:
            return out
        for u in self.content.cat.heroes[h.id].ultimates:
            if u not in h.ults_used:
                out.append((f"use ultimate {cat.ultimates[u].name}", ["ultimate", u]))
        return out

    def _hero_turn_step(self, events: list[Event]) -> None:
        ht = self.ht
        h = self.heroes[ht["hero"]]
        if h.ko:
            # KO during the own turn: the turn ends at once; if it was the step's last turn the
            # players may still replay 3.3, since 3.1 has not started yet
            if self._last_turn_of_step(h) and self._may_replay():
                ht["queue"], ht["stage"] = [], "after"
                self._ask("hero", self._seat(h), f"{self._hname(h.id)} is KO and the turn "
                          "ends: end it (step 3.1 starts) or replay step 3.3 from its start",
                          S.HERO_TURNS, [("end turn", ["end"]), (REPLAY, ["replay"])],
                          turn=True)
                return
            h.acted = True
            self.ht = None
            return
        if ht["queue"]:
            self._effect_step(h, events)
            return
        stage = ht["stage"]
        opts: list[tuple[str, Any]] = []
        if stage in ("top", "bottom"):
            opts = self._row_options(h, stage)
            if not opts:
                opts = [(f"skip {stage} row (no skill available)", ["skip", stage])]
            prompt = (f"{self._hname(h.id)}: choose an unoccupied skill in the {stage} row "
                      "(items and ultimates are free actions)")
        else:
            opts = [("end turn", ["end"])]
            prompt = f"{self._hname(h.id)}: use items or ultimates, or end the turn"
        opts = opts + self._free_options(h)
        if stage == "after" and self._last_turn_of_step(h) and self._may_replay():
            # offered as the last turn of the step ends, just before 3.1 would start
            opts.append((REPLAY, ["replay"]))
            prompt += " (or replay step 3.3 from its start)"
        self._ask("hero", PLAYERS if h.follower else h.id, prompt,
                  S.FOLLOWERS if h.follower else S.HERO_TURN, opts, turn=True)

    def _may_replay(self) -> bool:
        """Step 3.3 can be replayed: its start is kept, and the setup's ``replay_limit``
        (ruling 33a; -1, the default, for none) is not reached in this chapter."""
        if not self.cb.get("snapshot"):
            return False
        limit = self.setup.get("replay_limit", -1)
        return limit < 0 or self.replays < limit

    def _last_turn_of_step(self, h: Any) -> bool:
        """No other hero (or follower) is still to act in this 3.3."""
        return not any(o.id != h.id and not o.ko and o.tile and not o.acted
                       for o in self.heroes.values())

    def _on_hero(self, p: list[Any], events: list[Event]) -> None:
        ht = self.ht
        h = self.heroes[ht["hero"]]
        cat = self.content.cat
        if p[0] == "skill":
            row, i = p[1], p[2]
            sid = (h.top if row == "top" else h.bottom)[i]
            if row == "top":
                h.top_at = i
            else:
                h.bottom_at = i
            ht["stage"] = "bottom" if row == "top" else "after"
            ht["source"] = cat.skills[sid].name
            ht["queue"] = memo.dumps(cat.skills[sid].effects)
            events.append(Event("skill", f"{self._hname(h.id)} moves the {row} skill token to "
                                f"{cat.skills[sid].name}", S.HERO_TURN))
        elif p[0] == "skip":
            ht["stage"] = "bottom" if p[1] == "top" else "after"
            events.append(Event("skill", f"{self._hname(h.id)} has no unoccupied, unexhausted "
                                f"skill in the {p[1]} row", S.HERO_TURN))
        elif p[0] == "item":
            h.used_items.append(p[1])
            ht["source"] = cat.items[p[1]].name
            ht["queue"] = memo.dumps(cat.items[p[1]].effects)
            events.append(Event("item", f"{self._hname(h.id)} uses {cat.items[p[1]].name} "
                                "(exhausted until the rewards phase)", S.FREE_ACTIONS))
        elif p[0] == "ultimate":
            h.ults_used.append(p[1])
            ht["source"] = cat.ultimates[p[1]].name
            ht["queue"] = memo.dumps(cat.ultimates[p[1]].effects)
            events.append(Event("ultimate", f"{self._hname(h.id)} uses the ultimate "
                                f"{cat.ultimates[p[1]].name} (covered until refreshed)",
                                S.FREE_ACTIONS))
        elif p[0] == "replay":
            self._replay_step(events)
        else:
            self._end_hero_turn(h, events)

    def _end_hero_turn(self, h: Any, events: list[Event]) -> None:
        """End of turn: bleed damage; the activation token flips to inactive."""
        h.acted = True
        self.ht = None
        if h.bleed:
            events.append(Event("bleed", f"{self._hname(h.id)} bleeds {h.bleed} at the end of "
                                "the turn", "Bleed X"))
            self._damage_hero(h.id, h.bleed, ("bleed", "bleed"), events)
        events.append(Event("turn", f"{self._hname(h.id)}'s turn ends (activation token "
                            "inactive)", S.ACTIVATION_TOKEN))

    # ----------------------------------------------------------- effects
    def _effect_step(self, h: Any, events: list[Event]) -> None:
        """Resolve the next line of the skill, item or ultimate in use (Targeting)."""
        ht = self.ht
        eff = ht["queue"][0]
        do = eff["do"]
        src = ht["source"]
        board = self.board
        if do == "move":
            dist = board.distances_from(h.tile)
            dest = sorted(t for t, d in dist.items() if 0 < d <= eff["value"])
            if not dest:
                ht["queue"].pop(0)
                return
            opts = [(f"move to {t}", t) for t in dest] + [("stay", None)]
            self._ask("effect", self._seat(h), f"{src}: move up to {plural(eff['value'], 'map tile')}", S.MOVE,
                      opts, turn=True)
            return
        if do == "attack":
            reach = board.within(h.tile, eff.get("range", 0))
            targets = [e.id for e in self._enemies_sorted() if e.tile in reach]
            if not targets:
                events.append(Event("attack", f"{src}: no enemy in range for Attack "
                                    f"{eff['value']}", S.RANGE))
                ht["queue"].pop(0)
                return
            opts = [(f"attack {e}", e) for e in targets] + [("skip attack", None)]
            self._ask("effect", self._seat(h), f"{src}: Attack {eff['value']}" + (
                f" x{eff['times']}" if eff.get("times", 1) > 1 else "") + " - choose a target",
                S.TARGETING, opts, turn=True)
            return
        if do in ("slow", "bleed"):
            # a separate line: its own target, any enemy in its range (Targeting)
            reach = board.within(h.tile, eff.get("range", 0))
            targets = [e.id for e in self._enemies_sorted() if e.tile in reach]
            if not targets:
                ht["queue"].pop(0)
                return
            opts = [(f"{do} {e}", e) for e in targets] + [(f"skip {do}", None)]
            what = "Slow" if do == "slow" else f"Bleed {eff.get('value', 1)}"
            self._ask("effect", self._seat(h), f"{src}: {what} - choose a target (a separate "
                      "line: any enemy in range)", S.TARGETING, opts, turn=True)
            return
        if do in ("heal", "repair"):
            cands = self._support_targets(h, eff)
            if not cands:
                ht["queue"].pop(0)
                return
            opts = [(f"{do} {self._short(c) if do == 'heal' else c}", c)
                    for c in cands] + [(f"skip {do}", None)]
            self._ask("effect", self._seat(h), f"{src}: {do.capitalize()} {eff['value']} - choose a "
                      "target", S.TARGETING, opts, turn=True)
            return
        ht["queue"].pop(0)
        if do == "armor":
            h.armor = max(h.armor, eff["value"])  # armor doesn't stack
            events.append(Event("armor", f"{self._hname(h.id)} has Armor {h.armor} until the "
                                "beginning of the next turn (it doesn't stack)", "Armor X"))
        elif do == "retaliate":
            h.retaliate = max(h.retaliate, eff["value"])
            events.append(Event("retaliate", f"{self._hname(h.id)} has Retaliate {h.retaliate}",
                                "Retaliate"))
        elif do == "pierce":
            ht["pierce"] = True
            events.append(Event("pierce", f"{self._hname(h.id)} ignores armor until the end of "
                                "this turn", S.TURNS))
        elif do == "damage_self":
            self._damage_hero(h.id, eff["value"], (src, "skill"), events)
        else:
            raise RuleNotImplemented(ID, S.TARGETING, f"a stand-alone {do} effect")

    def _support_targets(self, h: Any, eff: dict[str, Any]) -> list[str]:
        reach = self.topo.within(h.tile, eff.get("range", 0))
        if eff["do"] == "repair":
            # destroyed traps may not be repaired
            return [t.id for t in sorted(self.traps.values(), key=lambda t: int(t.id[1:]))
                    if not t.destroyed and t.tile in reach and t.hp < self._trap_max_hp(t)]
        who = eff.get("target") or "hero"
        out = []
        for o in self._party_heroes():  # followers count as heroes only for enemies
            if o.ko or o.tile not in reach or o.hp >= o.max_hp:
                continue  # KO heroes cannot be healed by skills, items or ultimates
            if who == "self" and o.id != h.id or who == "ally" and o.id == h.id:
                continue
            out.append(o.id)
        return out

    def _on_effect(self, choice: Any, events: list[Event]) -> None:
        ht = self.ht
        h = self.heroes[ht["hero"]]
        eff = ht["queue"][0]
        do = eff["do"]
        done = True
        if do == "move":
            if choice is not None:
                events.append(Event("move", f"{self._hname(h.id)} moves to map tile {choice}",
                                    S.MOVE))
                h.tile = choice
        elif do == "attack":
            if choice is not None:
                self._attack(("hero", h.id), f"enemy:{choice}", eff["value"], eff["linked"],
                             ht["pierce"], events, S.ATTACK)
                done = self._next_time(eff)
        elif do == "heal":
            if choice is not None:
                o = self.heroes[choice]
                before = o.hp
                o.hp = min(o.max_hp, o.hp + eff["value"])
                events.append(Event("heal", f"{self._hname(h.id)} heals {self._hname(o.id)} by "
                                    f"{o.hp - before} (a unit never exceeds its maximum HP)",
                                    S.HP))
                done = self._next_time(eff)
        elif do in ("slow", "bleed") and choice is not None:
            self._linked_on_enemy(choice, eff, events)
            done = self._next_time(eff)
        elif do == "repair" and choice is not None:
            t = self.traps[choice]
            before = t.hp
            t.hp = min(self._trap_max_hp(t), t.hp + eff["value"])
            events.append(Event("repair", f"{self._hname(h.id)} repairs {self._tname(t)} by "
                                f"{t.hp - before}", S.HP))
            done = self._next_time(eff)
        if self.ht is ht and done and ht["queue"] and ht["queue"][0] is eff:
            ht["queue"].pop(0)

    def _next_time(self, eff: dict[str, Any]) -> bool:
        """Multi-actions (2*Attack 1): each is separate, with its own target."""
        eff["times"] = eff.get("times", 1) - 1
        return eff["times"] <= 0

    def _end_of_round(self, events: list[Event]) -> None:
        """End of 3.3: combat ends when every enemy is defeated, else 3.1 again."""
        if self.enemies:
            self._begin_step("enemies", events)
            return
        events.append(Event("phase", "Every enemy is defeated at the end of 3.3: combat ends",
                            S.COMBAT))
        self.cb = None
        for h in self.heroes.values():
            h.tile = None
        if self.cycle >= self.chapter_data.cycles:
            self.phase = "epilogue"
        else:
            self.phase = "rewards"
            self.rw = {"step": "quests"}
