"""Phase 3: Combat - enemy turns (3.1), trap turns (3.2) and hero turns (3.3), attacks,
damage and the keywords that change them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meadhall.core.errors import RuleNotImplemented
from meadhall.core.protocol import PLAYERS, Event
from meadhall.games.midhalla import memo
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.board import GATE
from meadhall.games.midhalla.pieces import Snapshot

ID = "midhalla"


class CombatRules:
    """Mixin of :class:`MidhallaState`. ``self.cb`` holds where combat stands."""

    def _begin_combat(self, events: list[Event]) -> None:
        self.phase = "combat"
        self.kills = 0
        self.traps_lost = 0
        self.kos = 0
        events.append(Event("phase", f"Cycle {self.cycle}, Phase 3: Combat", S.COMBAT))
        self._begin_step("enemies", events)

    def _begin_step(self, step: str, events: list[Event]) -> None:
        if step == "enemies":
            self.rounds += 1
        order = list(self.topo.tao())
        self.cb = {"step": step, "order": order, "i": 0, "done": [], "cur": None, "sub": "",
                   "left": 0, "action": None}
        title = {"enemies": ("3.1 Enemy turns", S.ENEMY_TURNS),
                 "traps": ("3.2 Trap turns", S.TRAP_TURNS),
                 "heroes": ("3.3 Hero turns", S.HERO_TURNS)}[step]
        events.append(Event("step", title[0] + (" (tile activation order: " + ", ".join(order)
                                                + ")" if step != "heroes" else ""), title[1]))
        if step == "heroes":
            for h in self.heroes.values():
                h.acted = False
            # Players may replay the actions of 3.3 until 3.1 starts: keep the position at the
            # start of the step (immutable, so clones share it).
            self.cb["snapshot"] = Snapshot(self._capture())

    def _combat_step(self, events: list[Event]) -> None:
        step = self.cb["step"]
        if step == "enemies":
            self._enemy_phase_step(events)
        elif step == "traps":
            self._trap_phase_step(events)
        else:
            self._hero_phase_step(events)

    # ----------------------------------------------------------- geometry
    def _in_range(self, tile: str, rng: int | str) -> set[str]:
        return self.topo.within(tile, rng)

    # ----------------------------------------------------------- 3.1 enemy turns
    def _enemy_phase_step(self, events: list[Event]) -> None:
        cb = self.cb
        if cb["cur"] is not None:
            self._activation_step(events)
            return
        live = self._enemies_to_act()
        found = self._next_tile_in_tao(lambda tid: [e.id for e in live if e.tile == tid])
        if found is not None:
            tid, waiting = found
            if len(waiting) > 1:
                opts = [(f"activate {e}", e) for e in waiting]
                self._ask("enemy_order", PLAYERS, f"Several enemies on map tile {tid}: choose "
                          "which activates next", S.ENEMY_TURNS, opts, default=opts[0][0])
                return
            self._start_activation(waiting[0], events)
            return
        events.append(Event("step", "Every enemy has activated", S.ENEMY_TURNS))
        self._begin_step("traps", events)

    def _next_tile_in_tao(self, waiting_on: Callable[[str], list[str]]
                          ) -> tuple[str, list[str]] | None:
        """The next map tile in tile activation order with pieces still to act, and those
        pieces; tiles with none are passed (Tile Activation Order)."""
        order = self.cb["order"]
        while self.cb["i"] < len(order):
            tid = order[self.cb["i"]]
            waiting = waiting_on(tid)
            if waiting:
                return tid, waiting
            self.cb["i"] += 1
        return None

    def _on_enemy_order(self, eid: str, events: list[Event]) -> None:
        self._start_activation(eid, events)

    def _enemies_to_act(self) -> list[Any]:
        """The enemies still to activate in 3.1, in id order: listed once per step, since
        nothing changes them while the activation order is walked to the next tile holding
        one (each tile's are those on it, in this order)."""
        done = self.cb["done"]
        return [e for e in self._enemies_sorted() if e.id not in done]

    def _traps_to_act(self) -> list[Any]:
        """The traps still to activate in 3.2 (standing, not done), in id order: as
        :meth:`_enemies_to_act`."""
        done = self.cb["done"]
        return [t for t in sorted(self.traps.values(), key=lambda t: int(t.id[1:]))
                if not t.destroyed and t.id not in done]

    def _enemies_sorted(self) -> list[Any]:
        return sorted(self.enemies.values(), key=lambda e: int(e.id[1:]))

    def _tname(self, t: Any) -> str:
        """A trap as players name it: ``Spike Trap 1`` (its id is ``t1``)."""
        return f"{self.content.cat.traps[t.kind].name} {t.id[1:]}"

    def _ename(self, eid: str) -> str:
        return self.content.cat.enemies[self.enemies[eid].card].name

    def _start_activation(self, eid: str, events: list[Event]) -> None:
        """Activating an Enemy: on activation, target check, gate check, move, end of turn."""
        cb = self.cb
        cb["cur"], cb["sub"], cb["done"] = eid, "start", [*cb["done"], eid]
        cb["moved"], cb["then"] = None, None
        self._activation_step(events)

    def _profile(self, eid: str) -> dict[str, Any]:
        """Target type, attack, range and move for this turn (a boss action overrides)."""
        e = self.enemies[eid]
        data = self.content.cat.enemies[e.card]
        prof = {"target": data.target, "attack": data.attack, "times": 1, "range": data.range,
                "move": (data.move if data.move is not None else
                         self.content.printed.boss_move if data.kind == "boss"
                         else self.content.printed.enemy_move),
                "on_attack": memo.dumps(data.on_attack)}
        if data.kind == "boss" and data.actions and e.rotation >= 0:
            act = data.actions[e.rotation]
            prof.update(attack=act.attack, times=act.times, move=act.move)
            if act.range is not None:
                prof["range"] = act.range
            if act.target is not None:
                prof["target"] = act.target
            if act.on_attack:
                prof["on_attack"] = memo.dumps(act.on_attack)
        return prof

    def _activation_step(self, events: list[Event]) -> None:
        cb = self.cb
        eid = cb["cur"]
        if eid not in self.enemies:  # defeated during its own turn (retaliate)
            cb["cur"] = None
            return
        e = self.enemies[eid]
        data = self.content.cat.enemies[e.card]
        sub = cb["sub"]
        if sub == "start":
            # On Activation effects come first, always - for bosses too ("All rules for
            # enemies apply to bosses"), before the tracker token moves.
            for eff in data.on_activation:
                if eff.do == "heal":
                    self._heal_enemy(e, eff.value, events, S.ACTIVATING_ENEMY)
            if data.kind == "boss" and data.actions:
                e.rotation = (e.rotation + 1) % len(data.actions)
                act = data.actions[e.rotation]
                events.append(Event("boss", f"{data.name} moves its tracker token clockwise to "
                                    f"action {e.rotation + 1}: {act.name}", S.BOSSES))
                if act.heal:
                    self._heal_enemy(e, act.heal, events, S.BOSSES)
                prof = self._profile(eid)
                cb["left"] = prof["times"]
                if act.move:
                    cb["sub"], cb["moves"], cb["then"] = "move", act.move, "target"
                    return
            cb["left"] = self._profile(eid)["times"]
            cb["sub"] = "target"
            return
        if sub in ("target", "fast"):
            prof = self._profile(eid)
            if self._target_check(eid, prof, events):
                return
            if self._gate_check(eid, prof, events):
                return
            if sub == "fast" or cb.get("then") == "done_move":
                cb["sub"] = "end"
                return
            cb["sub"], cb["moves"] = "move", prof["move"]
            return
        if sub == "move":
            self._move_step(eid, events)
            return
        if sub == "end":
            self._end_of_enemy_turn(eid, events)
            cb["cur"], cb["then"] = None, None

    def _targets(self, eid: str, kind: str, rng: int | str) -> list[tuple[str, str]]:
        """Preferred targets of ``kind`` in range, as (label, target) pairs."""
        e = self.enemies[eid]
        reach = self._in_range(e.tile, rng)
        if kind == "heroes":
            return [(self._short(h.id), f"hero:{h.id}") for h in self.heroes.values()
                    if not h.ko and h.tile in reach]
        if kind == "traps":
            live = [t for t in self.traps.values() if not t.destroyed and t.tile in reach]
            if not live:
                return []
            low = min(t.hp for t in live)  # the trap with the lowest HP in range
            return [(f"trap {t.id}", f"trap:{t.id}")
                    for t in sorted(live, key=lambda t: int(t.id[1:])) if t.hp == low]
        if kind == "gate":
            return [("the gate", "gate")] if GATE in reach else []
        return [*self._targets(eid, "heroes", rng), *self._targets(eid, "traps", rng),
                *self._targets(eid, "gate", rng)]

    def _target_check(self, eid: str, prof: dict[str, Any], events: list[Event]) -> bool:
        """Target Check: attack one preferred target in range; heroes and 'any' let the
        players choose, traps take the lowest HP (ties: players)."""
        opts = self._targets(eid, prof["target"], prof["range"])
        if not opts:
            return False
        if len(opts) > 1:
            self._ask("enemy_target", PLAYERS, f"{self._ename(eid)} {eid[1:]} has several "
                      f"preferred targets in range ({prof['target']}): choose the one attacked",
                      "Target Check", [(f"{eid} attacks {lbl}", tgt) for lbl, tgt in opts],
                      default=f"{eid} attacks {opts[0][0]}")
            return True
        self._enemy_attack(eid, opts[0][1], prof, events)
        return True

    def _on_enemy_target(self, target: str, events: list[Event]) -> None:
        self._enemy_attack(self.cb["cur"], target, self._profile(self.cb["cur"]), events)

    def _gate_check(self, eid: str, prof: dict[str, Any], events: list[Event]) -> bool:
        """Gate Check: only if no preferred target was in range, attack the gate in range."""
        if prof["target"] == "gate" or GATE not in self._in_range(self.enemies[eid].tile,
                                                                     prof["range"]):
            return False
        self._enemy_attack(eid, "gate", prof, events, gate_check=True)
        return True

    def _enemy_attack(self, eid: str, target: str, prof: dict[str, Any], events: list[Event],
                      gate_check: bool = False) -> None:
        cb = self.cb
        why = "Gate Check" if gate_check else "Target Check"
        self._attack(("enemy", eid), target, prof["attack"], prof["on_attack"], False, events,
                     why)
        if self.phase != "combat" or cb.get("cur") != eid:
            return
        cb["left"] -= 1
        if cb["left"] <= 0:
            cb["sub"] = "end"
        # A multi-attack boss action checks for a target again for each attack.

    def _move_step(self, eid: str, events: list[Event]) -> None:
        """Move: toward the gate, never toward the preferred target; 1 tile by default,
        0 for bosses; Slow stops the next move; Fast may still attack afterwards."""
        cb = self.cb
        e = self.enemies[eid]
        data = self.content.cat.enemies[e.card]
        steps = self.topo.steps_toward_gate(e.tile) if cb["moves"] > 0 else ()
        if e.slow == "slowed" and steps:
            # Slow stops a move that would happen; an enemy (a boss: default move 0) that
            # would not move keeps its Slow token for its next move
            e.slow = "immune"
            events.append(Event("slow", f"{data.name} {eid[1:]} is slowed and does not move; its "
                                "Slow token flips to Slow-immune", "Slow"))
            cb["moves"] = 0
        if cb["moves"] <= 0 or e.tile == GATE:
            if cb.get("then") == "target":
                cb["sub"], cb["then"] = "target", "done_move"
                return
            if cb.get("then") == "done_move":
                cb["sub"] = "end"
                return
            cb["sub"] = "fast" if data.fast and cb.get("moved") == eid else "end"
            return
        if not steps:
            cb["moves"] = 0
            return
        if len(steps) > 1:
            opts = [(f"{eid} steps to {t}", t) for t in steps]
            self._ask("enemy_move", PLAYERS, f"{data.name} {eid[1:]} has several equally short "
                      "ways to the gate: choose its step", S.ACTIVATING_ENEMY, opts,
                      default=opts[0][0])
            return
        self._enemy_moves(eid, steps[0], events)

    def _on_enemy_move(self, tile: str, events: list[Event]) -> None:
        self._enemy_moves(self.cb["cur"], tile, events)

    def _enemy_moves(self, eid: str, tile: str, events: list[Event]) -> None:
        e = self.enemies[eid]
        e.tile = tile
        self.cb["moves"] -= 1
        self.cb["moved"] = eid
        why = ("its boss action moves it first" if self.cb.get("then") == "target" else
               "no preferred target and the gate out of range")
        events.append(Event("move", f"{self._ename(eid)} {eid[1:]} moves to map tile {tile}, "
                            f"toward the gate: {why}",
                            S.BOSSES if self.cb.get("then") == "target" else S.ACTIVATING_ENEMY,
                            {"enemy": eid, "to": tile}))

    def _end_of_enemy_turn(self, eid: str, events: list[Event]) -> None:
        """End of Activation/Turn: bleed damage, then evasion is regained."""
        e = self.enemies[eid]
        data = self.content.cat.enemies[e.card]
        if data.evasion and not e.evasion:
            e.evasion = True
            events.append(Event("evasion", f"{data.name} {eid[1:]} regains evasion at the end of "
                                "its turn", "Evasion"))
        if e.bleed:
            events.append(Event("bleed", f"{data.name} {eid[1:]} bleeds for {e.bleed} at the end "
                                "of its turn", "Bleed X"))
            self._damage_enemy(eid, e.bleed, events, "Bleed X", ("bleed", "bleed"))

    def _heal_enemy(self, e: Any, n: int, events: list[Event], section: str) -> None:
        before = e.hp
        e.hp = min(e.max_hp, e.hp + n)
        events.append(Event("heal", f"{self.content.cat.enemies[e.card].name} {e.id[1:]} heals "
                            f"{e.hp - before} HP (now {e.hp})", section))

    # ----------------------------------------------------------- attacks and damage
    def _attack(self, source: tuple[str, str], target: str, value: int,
                linked: list[dict[str, Any]], pierce: bool, events: list[Event],
                section: str) -> None:
        """One Attack: evasion absorbs it; armor (unless pierced) and horde reduce it; the rest
        is damage; retaliate answers with damage; linked effects apply to the same target."""
        src = self._source_name(source)
        kind, _, tid = target.partition(":")
        if kind == "enemy":
            e = self.enemies[tid]
            data = self.content.cat.enemies[e.card]
            if e.evasion:
                e.evasion = False
                events.append(Event("attack", f"{src} attacks {data.name} {tid[1:]} for {value}: "
                                    "evasion absorbs the attack (0 damage)", "Evasion"))
                return
            dmg, armor, horde = self._damage_against(tid, value, pierce)
            notes = []
            if armor:
                notes.append(f"armor {armor}")
            if pierce and data.armor:
                notes.append("armor pierced")
            if horde:
                notes.append(f"horde -{horde}")
            events.append(Event("attack", f"{src} attacks {data.name} {tid[1:]} for {value}"
                                + (f" ({', '.join(notes)})" if notes else "")
                                + f": {dmg} damage", section, {"target": tid, "damage": dmg}))
            for eff in linked:
                if tid in self.enemies:
                    self._linked_on_enemy(tid, eff, events)
            if dmg:
                self._damage_enemy(tid, dmg, events, S.DEALING_DAMAGE, source)
            # a unit at 0 HP "becomes inactive": an enemy the attack defeated answers nothing
            if data.retaliate and source[0] in ("hero", "trap") and tid in self.enemies:
                events.append(Event("retaliate", f"{data.name} retaliates: {data.retaliate} "
                                    f"damage to {src}", "Retaliate"))
                self._damage_source(source, data.retaliate, events, (tid, e.card))
        elif kind == "hero":
            h = self.heroes[tid]
            dmg = max(0, value - h.armor)
            events.append(Event("attack", f"{src} attacks {self._hname(tid)} for {value}"
                                + (f" (armor {h.armor})" if h.armor else "")
                                + f": {dmg} damage", section, {"target": tid, "damage": dmg}))
            if dmg:
                self._damage_hero(tid, dmg, self._blow(source), events)
            if h.ko:
                # "A hero with 0 HP will never participate or join in combat": no linked
                # effect (no exhaust question) and no retaliate for the hero this attack KO'd
                return
            for eff in linked:
                self._linked_on_hero(tid, eff, events)
            if h.retaliate and source[0] == "enemy" and source[1] in self.enemies:
                events.append(Event("retaliate", f"{self._hname(tid)} retaliates: {h.retaliate} "
                                    f"damage to {src}", "Retaliate"))
                self._damage_enemy(source[1], h.retaliate, events, "Retaliate", ("hero", tid))
        elif kind == "trap":
            events.append(Event("attack", f"{src} attacks {self._tname(self.traps[tid])} for {value}", section,
                                {"target": tid, "damage": value}))
            self._damage_trap(tid, value, events)
        else:
            events.append(Event("attack", f"{src} attacks the gate for {value}", section,
                                {"target": "gate", "damage": value}))
            self._damage_gate(value, self._blow(source), events)

    def _damage_against(self, eid: str, value: int, pierce: bool) -> tuple[int, int, int]:
        """(damage, armor, horde) of an Attack of ``value`` on an enemy without evasion:
        armor (unless pierced) and horde reduce the Attack; the rest is damage (Armor X)."""
        e = self.enemies[eid]
        data = self.content.cat.enemies[e.card]
        armor = 0 if pierce else data.armor
        horde = (sum(1 for o in self.enemies.values() if o.id != eid and o.tile == e.tile
                     and self.content.cat.enemies[o.card].horde) if data.horde else 0)
        return max(0, value - armor - horde), armor, horde

    def _source_name(self, source: tuple[str, str]) -> str:
        kind, sid = source
        if kind == "enemy":
            return f"{self._ename(sid)} {sid[1:]}" if sid in self.enemies else "an enemy"
        if kind == "hero":
            return self._hname(sid)
        if kind == "trap":
            t = self.traps.get(sid)
            name = self.content.cat.traps[t.kind].name if t is not None else "trap"
            return f"{name} {sid[1:]}"
        return sid

    def _blow(self, source: tuple[str, str]) -> tuple[str, str]:
        """(by, by_type) of a source for the statistics events: an enemy's id and card, a
        hero's id and "hero", a trap's id and "trap"."""
        kind, sid = source
        if kind == "enemy":
            return sid, self.enemies[sid].card if sid in self.enemies else "enemy"
        return sid, kind

    def _damage_source(self, source: tuple[str, str], n: int, events: list[Event],
                       by: tuple[str, str]) -> None:
        kind, sid = source
        if kind == "hero":
            self._damage_hero(sid, n, by, events)
        elif kind == "trap":
            self._damage_trap(sid, n, events)

    def _linked_on_enemy(self, eid: str, eff: dict[str, Any], events: list[Event]) -> None:
        e = self.enemies[eid]
        name = f"{self._ename(eid)} {eid[1:]}"
        if eff["do"] == "bleed":
            e.bleed += eff.get("value", 1)
            events.append(Event("bleed", f"{name} bleeds {e.bleed} (Bleed stacks)", "Bleed X"))
        elif eff["do"] == "slow":
            if e.slow == "":
                e.slow = "slowed"
                events.append(Event("slow", f"{name} is slowed", "Slow"))
            else:
                events.append(Event("slow", f"{name} is already slowed or slow-immune", "Slow"))
        else:
            raise RuleNotImplemented(ID, S.TARGETING, f"linked effect {eff['do']} on an enemy")

    def _linked_on_hero(self, hid: str, eff: dict[str, Any], events: list[Event]) -> None:
        h = self.heroes[hid]
        if eff["do"] == "bleed":
            h.bleed += eff.get("value", 1)
            events.append(Event("bleed", f"{self._hname(hid)} bleeds {h.bleed}", "Bleed X"))
        elif eff["do"] == "exhaust":
            self._exhaust(hid, events)
        else:
            raise RuleNotImplemented(ID, S.TARGETING, f"linked effect {eff['do']} on a hero")

    def _exhaust(self, hid: str, events: list[Event]) -> None:
        """Exhaust: one skill is blocked (the players choose which); at most two; further
        exhausts are ignored."""
        h = self.heroes[hid]
        if h.follower:
            events.append(Event("exhaust", f"{self._hname(hid)} is a follower: immune to "
                                "exhaust", S.FOLLOWERS))
            return
        if len(h.exhausted) >= self.content.printed.max_exhausted:
            events.append(Event("exhaust", f"{self._hname(hid)} already has two exhausted "
                                "skills: the exhaust is ignored", "Exhaust"))
            return
        slots = [s for s in self._slots(h) if s not in h.exhausted]
        if not slots:
            return
        opts = [(f"exhaust {self._slot_text(s)} {self._skill_name(h, s)}", s) for s in slots]
        self._ask("exhaust", PLAYERS, f"{self._hname(hid)} is exhausted: choose the skill "
                  "blocked", "Exhaust", opts, default=opts[0][0], ctx={"hero": hid})

    def _on_exhaust(self, slot: str, events: list[Event]) -> None:
        h = self.heroes[self.last_ctx["hero"]]
        h.exhausted.append(slot)
        events.append(Event("exhaust", f"{self._hname(h.id)}'s skill "
                            f"{self._skill_name(h, slot)} is exhausted", "Exhaust"))

    def _damage_enemy(self, eid: str, n: int, events: list[Event], section: str,
                      source: tuple[str, str] | None = None) -> None:
        """Damage to an enemy; at 0 HP it is defeated (a ``kill`` event when a hero did it,
        with the hero, the enemy and its card for the statistics)."""
        e = self.enemies.get(eid)
        if e is None:
            return
        e.hp -= n
        if e.hp <= 0:
            data = self.content.cat.enemies[e.card]
            del self.enemies[eid]
            self.kills += 1
            if e.card == "mimic" or data.kind == "boss" and e.card not in (
                    self.chapter_data.enemy_deck + self.chapter_data.elite_deck):
                pile = "box"
            else:
                pile = "elite" if data.kind == "elite" else "enemy"
                self.decks[pile].to_discard(e.card)
            by = f" by {self._source_name(source)}" if source else ""
            text = (f"{data.name} {eid[1:]} is defeated{by} and removed"
                    + (f"; its card goes to the {pile} discard pile"
                       if pile != "box" else "; its card returns to the box"))
            if source is not None and source[0] == "hero":
                events.append(Event("kill", text, S.HP, {"by": source[1], "enemy": eid,
                                                         "enemy_type": e.card}))
            else:
                events.append(Event("defeat", text, S.HP, {
                    "enemy": eid, "enemy_type": e.card, "by": source[1] if source else None}))

    def _damage_hero(self, hid: str, n: int, by: tuple[str, str], events: list[Event]) -> None:
        """Damage to a hero; at 0 HP the hero is KO (a ``knockout`` event naming who did it:
        ``by`` is (id, type), an enemy's id and card or a cause such as bleed)."""
        h = self.heroes[hid]
        if h.ko:
            return
        h.hp = max(0, h.hp - n)
        if h.ko:
            h.tile = None
            self.kos += 1
            events.append(Event("knockout", f"{self._hname(hid)} is KO and removed from the "
                                "board", S.HP, {"hero": hid, "by": by[0], "by_type": by[1]}))
            if all(x.ko for x in self.heroes.values() if not x.follower):
                self._chapter_lost("every hero is KO", events, "heroes_ko", by)

    def _damage_trap(self, tid: str, n: int, events: list[Event]) -> None:
        t = self.traps[tid]
        if t.destroyed:
            return
        t.hp = max(0, t.hp - n)
        if t.destroyed:
            self.traps_lost += 1
            events.append(Event("destroyed", f"{self._tname(t)} is destroyed: it stays on the board "
                                "but no longer activates", S.HP, {"trap": tid}))

    def _damage_gate(self, n: int, by: tuple[str, str], events: list[Event]) -> None:
        """The gate loses HP (never below 0); at 0 the chapter is lost (Goal)."""
        lost = min(n, self.gate_hp)
        self.gate_hp -= lost
        events.append(Event("gate", f"The gate loses {lost} HP (now {self.gate_hp})", S.GOAL,
                            {"gate": self.gate_hp, "by": by[0]}))
        if self.gate_hp <= 0:
            self._chapter_lost("the gate HP reached zero", events, "gate_destroyed", by)

    # ----------------------------------------------------------- 3.2 trap turns
    def _trap_phase_step(self, events: list[Event]) -> None:
        cb = self.cb
        if cb["cur"] is not None:
            self._trap_attack_step(events)
            return
        live = self._traps_to_act()
        found = self._next_tile_in_tao(lambda tid: [t.id for t in live if t.tile == tid])
        if found is not None:
            tid, waiting = found
            if len(waiting) > 1:
                opts = [(f"activate trap {t}", t) for t in waiting]
                self._ask("trap_order", PLAYERS, f"Two traps on map tile {tid}: choose which "
                          "activates first", S.TRAP_TURNS, opts, default=opts[0][0])
                return
            self._start_trap(waiting[0])
            return
        events.append(Event("step", "Every trap has activated", S.TRAP_TURNS))
        self._begin_step("heroes", events)

    def _on_trap_order(self, tid: str, events: list[Event]) -> None:
        self._start_trap(tid)

    def _trap_level(self, t: Any) -> Any:
        return self.content.cat.traps[t.kind].levels[t.level - 1]

    def _start_trap(self, tid: str) -> None:
        t = self.traps[tid]
        self.cb["cur"], self.cb["done"] = tid, [*self.cb["done"], tid]
        self.cb["left"] = self._trap_level(t).times

    def _trap_attack_step(self, events: list[Event]) -> None:
        """A trap must attack a target in range; never enemies on the gate map tile; the
        players choose among several."""
        cb = self.cb
        t = self.traps.get(cb["cur"])
        if t is None or t.destroyed or cb["left"] <= 0:
            cb["cur"] = None
            return
        lv = self._trap_level(t)
        reach = self._in_range(t.tile, lv.range)
        targets = [e.id for e in self._enemies_sorted() if e.tile in reach and e.tile != GATE]
        if not targets:
            events.append(Event("trap", f"{self._tname(t)} has no enemy in range", S.TRAP_TURNS))
            cb["cur"] = None
            return
        if len(targets) > 1:
            opts = [(f"{t.id} attacks {e}", e) for e in targets]
            self._ask("trap_target", PLAYERS, f"{self._tname(t)} must attack: choose its target",
                      S.TRAP_TURNS, opts, default=opts[0][0])
            return
        self._trap_attacks(targets[0], events)

    def _on_trap_target(self, eid: str, events: list[Event]) -> None:
        self._trap_attacks(eid, events)

    def _trap_attacks(self, eid: str, events: list[Event]) -> None:
        t = self.traps[self.cb["cur"]]
        lv = self._trap_level(t)
        linked = memo.dumps(lv.linked)
        if t.special:
            linked.append(memo.dump(self.content.cat.special_upgrades[t.special].adds))
        self._attack(("trap", t.id), f"enemy:{eid}", lv.attack, linked, False, events,
                     S.TRAP_TURNS)
        self.cb["left"] -= 1
