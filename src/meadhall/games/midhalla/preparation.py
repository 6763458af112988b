"""Phase 2: Preparation - spending resources (2.1), spawning enemies in TAO (2.2) and
positioning heroes (2.3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from meadhall.core import words
from meadhall.core.protocol import PLAYERS, Event
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.board import GATE

SPAWN_TOKENS = {"plus1": "+1 Spawn token", "elite": "Elite Spawn token",
                "none": "No Spawn token"}
"""The spawn tokens' printed names by their position-format keys."""


_WAYS: dict[tuple[tuple[str, ...], tuple[str, ...]], list[list[str]]] = {}
"""Ways to pay by (owned components sorted, components needed): the same few come back."""


class PreparationRules:
    """Mixin of :class:`MidhallaState`."""

    def _begin_preparation(self, events: list[Event]) -> None:
        self.phase = "preparation"
        events.append(Event("phase", f"Cycle {self.cycle}, Phase 2: Preparation", S.PREPARATION))

    # ----------------------------------------------------------- 2.1 options
    def _players(self) -> int:
        """The player count: heroes, not followers."""
        return sum(1 for h in self.heroes.values() if not h.follower)

    def _party_heroes(self) -> list[Any]:
        return [h for h in self.heroes.values() if not h.follower]

    def _fortify_cost(self, tid: str) -> int:
        """1 + number of players runestones, +1 on a cursed tile (Fortifying Map Tiles)."""
        return 1 + self._players() + (1 if self.tiles[tid].curses else 0)

    def _traps_on(self, tid: str) -> int:
        """Traps on a map tile for the limit of two: a destroyed trap "no longer counts as a
        trap for any effects" (Hitpoints (HP), KO, destroyed & defeated), so it does not."""
        return sum(1 for x in self.traps.values() if x.tile == tid and not x.destroyed)

    def _stock_left(self, kind: str) -> int:
        return self.content.cat.traps[kind].stock - sum(
            1 for t in self.traps.values() if t.kind == kind)

    def _trap_max_hp(self, t: Any) -> int:
        return self.content.cat.traps[t.kind].levels[t.level - 1].hp

    def _pay_options(self, need: list[str]) -> list[list[str]]:
        """Ways to pay a component list from the owned components ("?" = any component)."""
        key = (tuple(sorted(self.components)), tuple(need))
        ways = _WAYS.get(key)
        if ways is None:
            if len(_WAYS) > 4096:
                _WAYS.clear()
            ways = _WAYS[key] = self._ways_to_pay(need)
        return [list(w) for w in ways]

    def _ways_to_pay(self, need: list[str]) -> list[list[str]]:
        """:meth:`_pay_options` worked out (they depend only on the owned components as a
        multiset and on ``need``)."""
        have = Counter(self.components)
        fixed = [k for k in need if k != "?"]
        for k, n in Counter(fixed).items():
            if have[k] < n:
                return []
        have.subtract(fixed)
        wild = need.count("?")
        if not wild:
            return [fixed]
        kinds = sorted(k for k, n in have.items() if n > 0)
        out: list[list[str]] = []

        def rec(start: int, left: int, chosen: list[str], pool: Counter) -> None:
            if left == 0:
                out.append([*fixed, *chosen])
                return
            for i in range(start, len(kinds)):
                k = kinds[i]
                if pool[k] > 0:
                    pool[k] -= 1
                    rec(i, left - 1, [*chosen, k], pool)
                    pool[k] += 1

        rec(0, wild, [], Counter(have))
        return out

    def _paying(self, pay: list[str]) -> str:
        """" paying Crystal, Rope": the components of an upgrade by name, in a fixed order."""
        if not pay:
            return ""
        names = sorted(self.content.cat.components[k].name for k in pay)
        return " paying " + ", ".join(names)

    def _prep_options(self) -> list[tuple[str, Any]]:
        cat = self.content.cat
        opts: list[tuple[str, Any]] = []
        heroes = self._party_heroes()
        short = {h.id: self._short(h.id) for h in heroes}
        items = cat.items
        for item in self.cart:
            it = items[item]
            if it.cost <= self.silver:
                for h in heroes:
                    opts.append((f"buy {it.name} for {short[h.id]}", ["buy", item, h.id]))
        for h in heroes:
            for item in h.items:
                it = items[item]
                if it.kind in ("common", "rare"):
                    opts.append((f"sell {it.name} from {short[h.id]}", ["sell", item, h.id]))
                for other in heroes:
                    if other.id != h.id:
                        opts.append((f"give {it.name} from {short[h.id]} "
                                     f"to {short[other.id]}",
                                     ["give", item, h.id, other.id]))
        tiles = self.tiles
        topo = self.topo
        order = sorted(tiles)
        for tid in order:
            t = tiles[tid]
            if not t.fortified and any(tiles[n].fortified for n in topo.neighbours(tid)):
                cost = self._fortify_cost(tid)
                if cost <= self.runestones:
                    opts.append((f"fortify {tid}", ["fortify", tid]))
        # traps standing on each tile (the limit of two; a destroyed trap does not count)
        standing = Counter(x.tile for x in self.traps.values() if not x.destroyed)
        room = [tid for tid in order if tid != GATE and tiles[tid].fortified
                and standing[tid] < self.content.printed.max_traps_per_tile]
        for kind in sorted(self.party["unlocks"]["traps"]):
            trap = cat.traps[kind]
            if trap.cost > self.silver or self._stock_left(kind) <= 0:
                continue
            for tid in room:
                opts.append((f"build {trap.name} on {tid}", ["build", kind, tid]))
        for t in sorted(self.traps.values(), key=lambda t: int(t.id[1:])):
            trap = cat.traps[t.kind]
            if t.destroyed:
                # "It no longer counts as a trap for any effects": restore it first
                pass
            elif t.special is None and t.level < len(trap.levels):
                nxt = trap.levels[t.level]
                if nxt.runestones <= self.runestones:
                    for pay in self._pay_options(nxt.components):
                        opts.append((f"upgrade {t.id}{self._paying(pay)}",
                                     ["upgrade", t.id, pay]))
            if t.special is None and not t.destroyed:
                for sid in sorted(self.party["unlocks"]["special_upgrades"]):
                    sp = cat.special_upgrades[sid]
                    if sp.runestones <= self.runestones and sp.silver <= self.silver:
                        for pay in self._pay_options(sp.components):
                            opts.append((f"special {sp.name} on {t.id}{self._paying(pay)}",
                                         ["special", sid, t.id, pay]))
            if t.hp < self._trap_max_hp(t) and self.silver >= self.content.printed.restore_cost:
                opts.append((f"restore {t.id}", ["restore", t.id]))
            opts.append((f"remove {t.id}", ["remove", t.id]))
        for k in sorted(set(self.components)):
            if cat.components[k].special:
                opts.append((f"use {cat.components[k].name}", ["use", k]))
        for h in heroes:
            if h.hp < h.max_hp and self.silver >= self.content.printed.heal_cost:
                opts.append((f"heal {short[h.id]}", ["heal", h.id]))
        opts.append(("done preparing", ["done"]))
        return opts

    def _preparation_step(self, events: list[Event]) -> None:
        self._ask("prep", PLAYERS, f"2.1 Spend resources ({self.silver} silver, "
                  f"{words.plural(self.runestones, 'runestone')}, "
                  f"{words.plural(len(self.components), 'component')}), "
                  "then "
                  "'done preparing'", S.SPEND, self._prep_options, turn=True)

    def _on_prep(self, p: list[Any], events: list[Event]) -> None:
        cat = self.content.cat
        what = p[0]
        if what == "buy":
            item, hero = p[1], p[2]
            cost = cat.items[item].cost
            self.silver -= cost
            self.cart.remove(item)
            self.heroes[hero].items.append(item)
            events.append(Event("buy", f"{self._hname(hero)} buys {cat.items[item].name} from "
                                f"Dara's cart for {cost} silver", S.BUY_SELL))
        elif what == "sell":
            item, hero = p[1], p[2]
            gain = cat.items[item].cost // 2
            self.heroes[hero].items.remove(item)
            if item in self.heroes[hero].used_items:
                self.heroes[hero].used_items.remove(item)
            self.cart.append(item)
            self.silver += gain
            events.append(Event("sell", f"{self._hname(hero)} sells {cat.items[item].name} to "
                                f"Dara for {gain} silver (half its cost, rounded down)",
                                S.BUY_SELL))
        elif what == "give":
            item, a, b = p[1], p[2], p[3]
            self.heroes[a].items.remove(item)
            self.heroes[b].items.append(item)
            if item in self.heroes[a].used_items:
                self.heroes[a].used_items.remove(item)
                self.heroes[b].used_items.append(item)
            events.append(Event("give", f"{self._hname(a)} gives {cat.items[item].name} to "
                                f"{self._hname(b)}", S.BUY_SELL))
        elif what == "fortify":
            tid = p[1]
            cost = self._fortify_cost(tid)
            self.runestones -= cost
            t = self.tiles[tid]
            lifted = t.curses
            self.tiles[tid] = replace(t, fortified=True, curses=0)
            events.append(Event("fortify", f"Map tile {tid} is fortified for {cost} runestones"
                                + (" (the curse is lifted)" if lifted else ""), S.FORTIFY))
        elif what == "build":
            kind, tid = p[1], p[2]
            self.silver -= cat.traps[kind].cost
            self._new_trap(kind, tid, events)
        elif what == "upgrade":
            t = self.traps[p[1]]
            lv = cat.traps[t.kind].levels[t.level]
            self.runestones -= lv.runestones
            self._spend_components(p[2])
            t.level += 1
            gained = lv.hp - cat.traps[t.kind].levels[t.level - 2].hp
            t.hp = min(lv.hp, t.hp + max(0, gained)) if t.hp > 0 else 0
            comps = ", ".join(cat.components[k].name for k in p[2]) or "no components"
            events.append(Event("upgrade", f"{self._tname(t)} is upgraded to level {t.level} for "
                                f"{lv.runestones} runestones and {comps}", S.UPGRADE))
        elif what == "special":
            sp = cat.special_upgrades[p[1]]
            t = self.traps[p[2]]
            self.runestones -= sp.runestones
            self.silver -= sp.silver
            self._spend_components(p[3])
            t.special = p[1]
            events.append(Event("special", f"{self._tname(t)} gets the special upgrade {sp.name} "
                                "instead of a level upgrade", S.UPGRADE))
        elif what == "restore":
            t = self.traps[p[1]]
            self.silver -= self.content.printed.restore_cost
            t.hp = self._trap_max_hp(t)
            events.append(Event("restore", f"{self._tname(t)} is restored to {t.hp} HP for "
                                f"{self.content.printed.restore_cost} silver", S.RESTORE))
        elif what == "remove":
            t = self.traps.pop(p[1])
            events.append(Event("remove", f"{self._tname(t)} is removed; its resources and upgrades "
                                "are lost", S.REMOVE))
        elif what == "use":
            self._use_component(p[1], events)
        elif what == "heal":
            h = self.heroes[p[1]]
            self.silver -= self.content.printed.heal_cost
            was_ko = h.ko
            h.hp = h.max_hp
            events.append(Event("heal", f"{self._hname(h.id)} is "
                                f"{'revived' if was_ko else 'healed'} to full HP for "
                                f"{self.content.printed.heal_cost} silver", S.REVIVE))
        elif what == "done":
            self.phase = "spawn"

    def _spend_components(self, pay: list[str]) -> None:
        for k in pay:
            self.components.remove(k)
            self.decks["components"].to_discard(k)

    def _use_component(self, k: str, events: list[Event]) -> None:
        """Special trap components: their effect, during the preparation phase only."""
        effect = self.content.cat.components[k].effect or ""
        self._spend_components([k])
        name = self.content.cat.components[k].name
        if effect.startswith("gain_runestones:"):
            n = int(effect.split(":")[1])
            self.runestones += n
            text = f"gain {n} runestones"
        elif effect == "heal_all":
            for h in self.heroes.values():
                if not h.ko:
                    h.hp = h.max_hp
            text = "every hero who is not KO heals to full HP"
        elif effect == "repair_all":
            for t in self.traps.values():
                if not t.destroyed:
                    t.hp = self._trap_max_hp(t)
            text = "every trap that is not destroyed is repaired to full HP"
        else:
            text = "no effect"
        events.append(Event("component", f"The party spends {name}: {text}", S.COMPONENTS))

    # ----------------------------------------------------------- 2.2 spawn enemies
    def _spawn_step(self, events: list[Event]) -> None:
        """Reshuffle the enemy discard; activate tiles in TAO and spawn on each (2.2)."""
        deck = self.decks["enemy"]
        if deck.discard:
            deck.shuffle(with_discard=True)
            events.append(Event("shuffle", "The enemy discard pile is shuffled back into the "
                                "enemy deck", S.SPAWN))
        order = list(self.topo.tao())
        events.append(Event("tao", "Tile activation order: " + ", ".join(order), S.TAO,
                            {"order": order}))
        for tid in order:
            self._spawn_on(tid, events)
        boss = self.chapter_data.boss_wave
        if boss and boss["cycle"] == self.cycle:
            self._spawn_enemy(boss["enemy"], order[-1], events, S.SPAWN, from_deck=False)
        self.phase = "position"
        for h in self.heroes.values():
            h.tile = None

    def _spawn_on(self, tid: str, events: list[Event]) -> None:
        """One activated tile: one enemy if unfortified, changed by its spawn token."""
        t = self.tiles[tid]
        basic = 0 if t.fortified else 1
        elite = 0
        if t.token == "plus1":
            basic += 1
        elif t.token == "elite":
            basic, elite = 0, 1
        elif t.token == "none":
            basic = 0
        if t.token:
            events.append(Event("token", f"Map tile {tid} has {words.a(SPAWN_TOKENS[t.token])} "
                                f"({'fortified' if t.fortified else 'unfortified'})",
                                S.SPAWN_TOKENS))
        for _ in range(basic):
            self._draw_spawn("enemy", tid, events)
        for _ in range(elite):
            self._draw_spawn("elite", tid, events)

    def _draw_spawn(self, deck_name: str, tid: str, events: list[Event]) -> None:
        card = self.decks[deck_name].draw(self.chance, S.SPAWN)
        if card is None:
            events.append(Event("spawn", f"The {deck_name} deck and its discard are empty: no "
                                f"enemy spawns on {tid}", S.SPAWN))
            return
        self._spawn_enemy(card, tid, events, S.SPAWN)

    # ----------------------------------------------------------- 2.3 position heroes
    def _position_step(self, events: list[Event]) -> None:
        waiting = [h for h in self.heroes.values() if not h.ko and h.tile is None]
        if not waiting:
            self._begin_combat(events)
            return
        h = waiting[0]
        opts = [(f"position {self._short(h.id)} on {tid}", tid) for tid in sorted(self.tiles)
                if self.tiles[tid].fortified]
        seat = PLAYERS if h.follower else h.id
        self._ask("position", seat, f"Place {self._hname(h.id)} on a fortified map tile",
                  S.POSITION, opts, ctx={"hero": h.id}, turn=True)

    def _on_position(self, tid: str, events: list[Event]) -> None:
        h = self.heroes[self.last_ctx["hero"]]
        h.tile = tid
        events.append(Event("position", f"{self._hname(h.id)} takes position on map tile {tid}",
                            S.POSITION))
