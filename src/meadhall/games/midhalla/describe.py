"""Labels and board targets of Midhalla's legal actions (for the browser table and people).

Every legal action is one option of the pending choice; its payload says what it does, so a
label reads the payload and the position, never the text. Targets name what the drawing
(:mod:`meadhall.games.midhalla.table`) draws with the same ``kind:id`` string:

* ``tile:<id>`` map tiles (``tile:G`` is the gate), ``space:path-<letter>`` unexplored paths;
* ``figure:<id>`` heroes, followers, enemies and traps standing on the board;
* ``hero:<id>`` a hero's tableau (panel);
* ``card:<...>`` cards: ``cart.<item>``, ``<hero>.item.<item>``, ``<hero>.top.<n>`` /
  ``<hero>.bottom.<n>`` skills (from 1), ``<hero>.ult.<ultimate>``, ``trap.<kind>`` trap cards,
  ``special.<upgrade>``, ``component.<kind>``, ``pool.<skill>`` the level-up pool;
* ``option:<...>`` choices with no place on the table (:func:`option_target`).
"""

from __future__ import annotations

from typing import Any

from meadhall.core import words
from meadhall.core.protocol import Target
from meadhall.core.words import plural
from meadhall.games.midhalla.board import GATE
from meadhall.games.midhalla.render import describe as effects_text

Described = tuple[str, tuple[Target, ...]]


OPTION_KINDS = frozenset({"event_choice", "play", "roster"})
"""The kinds of choice whose options :func:`option_target` may name (no other has any)."""


def option_target(kind: str, payload: Any) -> str | None:
    """The ``option:`` target id of a choice with no place on the table, or ``None``.

    Shared by labels and the drawing, which draws the current decision's options as cards.
    """
    if kind == "event_choice":
        return f"choice-{payload}"
    if kind == "play":
        return f"chapter-{payload}"
    if kind == "roster" and payload[0] in ("add", "remove"):
        return f"class-{payload[1]}"
    return None


def component_effect_text(effect: str | None) -> str:
    """A special trap component's effect in words (Trap Components)."""
    effect = effect or ""
    if effect.startswith("gain_runestones:"):
        return f"gain {plural(int(effect.split(':')[1]), 'runestone')}"
    if effect == "heal_all":
        return "every hero who is not KO heals to full HP"
    if effect == "repair_all":
        return "every trap that is not destroyed is repaired to full HP"
    return "no effect"


def unlock_name(content: Any, kind: str, what: str) -> str:
    """An unlock on the party sheet as it is printed (``Tinker's Kit``, ``Chapter 2: Roots of
    the Tribute``); ``kind`` singular or plural (``trap``, ``traps``). Content without a
    printed name (a decision, a chapter not in this build) is said in words."""
    cat = content.cat
    kind = {"classes": "class", "special_upgrades": "special_upgrade", "lore": "lore"}.get(
        kind, kind.removesuffix("s"))
    table = {"item": cat.items, "trap": cat.traps, "component": cat.components,
             "class": cat.heroes, "chapter": content.chapters,
             "special_upgrade": cat.special_upgrades}.get(kind)
    if kind == "lore" and cat.lore.get(what):
        return cat.lore[what]
    if table is not None and what in table:
        return str(table[what].name)
    return words.humanise(what)


class DescribeRules:
    """Mixin of :class:`MidhallaState`: ``_describe`` and the numbers it shows."""

    def _describe(self, text: str) -> Described:
        ch = self.choice
        if ch is None or text not in ch.index:
            return text, ()
        payload = ch.index[text]
        kind = ch.kind
        handler = getattr(self, f"_label_{kind}", None)
        label, targets = handler(payload, ch) if handler else (text, ())
        opt = option_target(kind, payload)
        if opt is not None:
            targets = (*targets, Target("option", opt))
        return label, tuple(targets)

    # ----------------------------------------------------------- helpers
    def _fig(self, hid: str) -> Target:
        """A hero on the board (``figure``) or, off the board, their tableau (``hero``)."""
        h = self.heroes.get(hid)
        if h is not None and h.tile and not h.ko:
            return Target("figure", hid)
        return Target("hero", hid)

    def _enemy_text(self, eid: str) -> str:
        e = self.enemies[eid]
        return f"{self._ename(eid)} {eid[1:]} on {e.tile} ({e.hp}/{e.max_hp} HP)"

    def _hit_enemy(self, eid: str, value: int, pierce: bool) -> tuple[str, str]:
        """What an Attack of ``value`` does to an enemy: (sentence, short note)."""
        e = self.enemies[eid]
        if e.evasion:
            return "evasion absorbs it (0 damage)", "evaded"
        dmg, armor, horde = self._damage_against(eid, value, pierce)
        parts = [f"Attack {value}"]
        if armor:
            parts.append(f"armor {armor}")
        if horde:
            parts.append(f"horde {horde}")
        end = "defeats it" if dmg >= e.hp else f"{e.hp - dmg} HP left"
        return (f"{' - '.join(parts)} = {dmg} damage, {end}",
                "defeats" if dmg >= e.hp else f"{dmg} dmg")

    # ----------------------------------------------------------- setup and exploration
    def _label_gift(self, hid: str, ch: Any) -> Described:
        item = self.gifts[0]
        return (f"Give the unique item {self._iname(item)} to {self._hname(hid)}",
                (self._fig(hid),))

    def _label_curse(self, tid: str, ch: Any) -> Described:
        n = self.tiles[tid].curses
        return (f"Place a curse marker on map tile {tid} ({plural(n, 'marker')} there now)",
                (Target("tile", tid),))

    def _label_level(self, skill: str, ch: Any) -> Described:
        lv = self.lv
        sk = self.content.cat.skills[skill]
        hid = lv["todo"][0]
        return (f"{self._hname(hid)} takes the level {lv['level']} skill {sk.name}: "
                f"{effects_text(sk.effects)} (arrow {sk.arrow})",
                (Target("card", f"pool.{skill}"), Target("hero", hid)))

    def _label_row(self, row: str, ch: Any) -> Described:
        hid = self.lv["todo"][0]
        name = self.content.cat.skills[self.lv["card"]].name
        return (f"{self._hname(hid)} places {name} at the end of the {row} row",
                (Target("hero", hid),))

    def _label_cover(self, slot: str, ch: Any) -> Described:
        hid = self.lv["todo"][0]
        h = self.heroes[hid]
        new = self.content.cat.skills[self.lv["card"]].name
        return (f"{self._hname(hid)} places {new} over {self._skill_name(h, slot)} "
                f"({self._slot_text(slot)})", (self._skill_target(hid, slot),))

    def _skill_target(self, hid: str, slot: str) -> Target:
        row, i = slot.split(":")
        return Target("card", f"{hid}.{row}.{int(i) + 1}")

    def _label_explore(self, letter: str, ch: Any) -> Described:
        tile, side = next((t, s) for lt, t, s in self.board.unexplored() if lt == letter)
        where = {"N": "top", "E": "right", "S": "bottom", "W": "left"}[side]
        return (f"Explore path {letter} on the {where} side of map tile {tile} and read its "
                "campaign book section", (Target("space", f"path-{letter}"),
                                         Target("tile", tile)))

    def _label_event_choice(self, i: int, ch: Any) -> Described:
        o = ch.ctx["op"]["options"][i]
        cost = o.get("cost") or {}
        pay = ", ".join(f"{v} {k}" for k, v in cost.items() if v)
        return (f"The party chooses: {o['text']}" + (f" (pay {pay})" if pay else ""), ())

    def _label_spare(self, hid: str, ch: Any) -> Described:
        return (f"{self._hname(hid)} is spared; every other hero suffers the damage",
                (self._fig(hid),))

    def _label_event_build(self, tile: str, ch: Any) -> Described:
        if not tile:
            return "Do not build the trap", ()
        trap = self.content.cat.traps[ch.ctx["kind"]]
        return (f"Build {words.a(trap.name)} on map tile {tile} for {trap.cost} silver",
                (Target("tile", tile, f"{trap.cost} silver"),
                 Target("card", f"trap.{ch.ctx['kind']}")))

    # ----------------------------------------------------------- preparation
    def _label_prep(self, p: list[Any], ch: Any) -> Described:
        cat = self.content.cat
        what = p[0]
        if what == "buy":
            item = cat.items[p[1]]
            return (f"{self._hname(p[2])} buys {item.name} for {item.cost} silver "
                    f"({effects_text(item.effects)})",
                    (Target("card", f"cart.{p[1]}", f"{item.cost} silver"), Target("hero", p[2])))
        if what == "sell":
            item = cat.items[p[1]]
            return (f"{self._hname(p[2])} sells {item.name} to Dara for {item.cost // 2} silver",
                    (Target("card", f"{p[2]}.item.{p[1]}", f"+{item.cost // 2} silver"),))
        if what == "give":
            return (f"{self._hname(p[2])} gives {cat.items[p[1]].name} to {self._hname(p[3])}",
                    (Target("card", f"{p[2]}.item.{p[1]}"), Target("hero", p[3])))
        if what == "fortify":
            cost = self._fortify_cost(p[1])
            curse = " and lift its curse" if self.tiles[p[1]].curses else ""
            return (f"Fortify map tile {p[1]} for {plural(cost, 'runestone')}{curse}",
                    (Target("tile", p[1], f"{cost} rs"),))
        if what == "build":
            trap = cat.traps[p[1]]
            lv = trap.levels[0]
            return (f"Build {words.a(trap.name)} on map tile {p[2]} for {trap.cost} silver "
                    f"({lv.hp} HP, {self._trap_line(lv)})",
                    (Target("tile", p[2], f"{trap.cost} silver"),
                     Target("card", f"trap.{p[1]}")))
        if what == "upgrade":
            t = self.traps[p[1]]
            trap = cat.traps[t.kind]
            lv = trap.levels[t.level]
            pay = [plural(lv.runestones, "runestone")] if lv.runestones else []
            pay += [cat.components[k].name for k in p[2]]
            return (f"Upgrade {trap.name} {t.id[1:]} on {t.tile} to level {t.level + 1} for "
                    f"{' and '.join(pay) or 'nothing'} ({lv.hp} HP, {self._trap_line(lv)})",
                    (Target("figure", t.id, f"L{t.level + 1}"),
                     *self._component_targets(p[2])))
        if what == "special":
            sp = cat.special_upgrades[p[1]]
            t = self.traps[p[2]]
            pay = [plural(sp.runestones, "runestone")] if sp.runestones else []
            pay += [f"{sp.silver} silver"] if sp.silver else []
            pay += [cat.components[k].name for k in p[3]]
            return (f"Give {cat.traps[t.kind].name} {t.id[1:]} the special upgrade {sp.name} "
                    f"({effects_text([sp.adds])} on its attacks) for "
                    f"{' and '.join(pay) or 'nothing'}",
                    (Target("figure", t.id), Target("card", f"special.{p[1]}"),
                     *self._component_targets(p[3])))
        if what == "restore":
            t = self.traps[p[1]]
            cost = self.content.printed.restore_cost
            return (f"Restore {cat.traps[t.kind].name} {t.id[1:]} to {self._trap_max_hp(t)} HP "
                    f"for {cost} silver", (Target("figure", t.id, f"{cost} silver"),))
        if what == "remove":
            t = self.traps[p[1]]
            return (f"Remove {cat.traps[t.kind].name} {t.id[1:]} from {t.tile} (no refund, upgrades "
                    "lost)", (Target("figure", t.id),))
        if what == "use":
            comp = cat.components[p[1]]
            return (f"Spend {comp.name}: {self._component_effect_text(comp.effect)}",
                    (Target("card", f"component.{p[1]}"),))
        if what == "heal":
            h = self.heroes[p[1]]
            cost = self.content.printed.heal_cost
            verb = "Revive" if h.ko else "Heal"
            return (f"{verb} {self._hname(p[1])} to full HP ({h.max_hp}) for {cost} silver",
                    (Target("hero", p[1], f"{cost} silver"),))
        return "Done preparing: spawn enemies (2.2) and position heroes (2.3)", ()

    def _component_targets(self, pay: list[str]) -> list[Target]:
        return [Target("card", f"component.{k}") for k in dict.fromkeys(pay)]

    def _component_effect_text(self, effect: str | None) -> str:
        return component_effect_text(effect)

    def _trap_line(self, lv: Any) -> str:
        text = f"{lv.times}*Attack {lv.attack}" if lv.times > 1 else f"Attack {lv.attack}"
        if lv.range:
            text += f", Range {lv.range}"
        for ln in lv.linked:
            text += f" + {ln.do.capitalize()}" + (f" {ln.value}" if ln.value else "")
        return text

    def _label_position(self, tid: str, ch: Any) -> Described:
        hid = ch.ctx["hero"]
        return (f"{self._hname(hid)} takes position on map tile {tid}",
                (Target("tile", tid), Target("hero", hid)))

    # ----------------------------------------------------------- combat
    def _label_enemy_order(self, eid: str, ch: Any) -> Described:
        return f"{self._enemy_text(eid)} activates next", (Target("figure", eid),)

    def _label_enemy_target(self, target: str, ch: Any) -> Described:
        eid = self.cb["cur"]
        prof = self._profile(eid)
        kind, _, tid = target.partition(":")
        src = f"{self._ename(eid)} {eid[1:]}"
        value = prof["attack"]
        if kind == "hero":
            h = self.heroes[tid]
            dmg = max(0, value - h.armor)
            armor = f" - armor {h.armor}" if h.armor else ""
            end = "KO" if dmg >= h.hp else f"{h.hp - dmg} HP left"
            return (f"{src} attacks {self._hname(tid)}: Attack {value}{armor} = {dmg} damage, "
                    f"{end}", (Target("figure", tid, f"{dmg} dmg"), Target("figure", eid)))
        if kind == "trap":
            t = self.traps[tid]
            end = "destroyed" if value >= t.hp else f"{t.hp - value} HP left"
            return (f"{src} attacks {self._tname(self.traps[tid])}: {value} damage, {end}",
                    (Target("figure", tid, f"{value} dmg"), Target("figure", eid)))
        return (f"{src} attacks the gate: {value} damage ({max(0, self.gate_hp - value)} gate "
                "HP left)", (Target("tile", GATE, f"{value} dmg"), Target("figure", eid)))

    def _label_enemy_move(self, tile: str, ch: Any) -> Described:
        eid = self.cb["cur"]
        return (f"{self._ename(eid)} {eid[1:]} steps to map tile {tile}, toward the gate",
                (Target("tile", tile), Target("figure", eid)))

    def _label_exhaust(self, slot: str, ch: Any) -> Described:
        hid = ch.ctx["hero"]
        h = self.heroes[hid]
        return (f"{self._hname(hid)}'s skill {self._skill_name(h, slot)} "
                f"({self._slot_text(slot)}) is exhausted", (self._skill_target(hid, slot),))

    def _label_trap_order(self, tid: str, ch: Any) -> Described:
        t = self.traps[tid]
        return (f"{self.content.cat.traps[t.kind].name} {tid[1:]} activates first",
                (Target("figure", tid),))

    def _label_trap_target(self, eid: str, ch: Any) -> Described:
        t = self.traps[self.cb["cur"]]
        lv = self._trap_level(t)
        text, note = self._hit_enemy(eid, lv.attack, False)
        return (f"{self.content.cat.traps[t.kind].name} {t.id[1:]} attacks {self._enemy_text(eid)}: "
                f"{text}", (Target("figure", eid, note), Target("figure", t.id)))

    def _label_next_hero(self, hid: str, ch: Any) -> Described:
        return f"{self._hname(hid)} takes the next turn", (self._fig(hid),)

    def _label_hero(self, p: list[Any], ch: Any) -> Described:
        cat = self.content.cat
        hid = self.ht["hero"]
        name = self._hname(hid)
        if p[0] == "skill":
            row, i = p[1], p[2]
            h = self.heroes[hid]
            sk = cat.skills[(h.top if row == "top" else h.bottom)[i]]
            return (f"{name} uses {sk.name} ({row} row): {effects_text(sk.effects)}"
                    f"{self._waste(h, sk.effects)}", (Target("card", f"{hid}.{row}.{i + 1}"),))
        if p[0] == "skip":
            return f"{name} has no skill left in the {p[1]} row: skip it", ()
        if p[0] == "item":
            item = cat.items[p[1]]
            return (f"{name} uses {item.name} (free action): {effects_text(item.effects)}"
                    f"{self._waste(self.heroes[hid], item.effects)}",
                    (Target("card", f"{hid}.item.{p[1]}"),))
        if p[0] == "ultimate":
            u = cat.ultimates[p[1]]
            return (f"{name} uses the ultimate {u.name} (free action): "
                    f"{effects_text(u.effects)}{self._waste(self.heroes[hid], u.effects)}", (Target("card", f"{hid}.ult.{p[1]}"),))
        if p[0] == "replay":
            return ("Replay step 3.3: take back every hero action since the step began and "
                    "play it again", ())
        return f"{name} ends the turn", ()

    def _waste(self, h: Any, effects: Any) -> str:
        """Why a skill, item or ultimate would do nothing if used now, as a label's ending
        (``(no enemy in range: it does nothing)``); empty when one of its lines has a target.
        Only cards whose every line needs a target are judged: a move first could bring one
        into range (Targeting, Range)."""
        lines = list(effects)
        if not lines or any(e.do not in ("attack", "slow", "bleed", "heal", "repair")
                            for e in lines):
            return ""
        for e in lines:
            if e.do in ("attack", "slow", "bleed"):
                reach = self.board.within(h.tile, e.range or 0)
                if any(x.tile in reach for x in self.enemies.values()):
                    return ""
            elif self._support_targets(h, e.model_dump()):
                return ""
        if all(e.do in ("attack", "slow", "bleed") for e in lines):
            return " (no enemy in range: it does nothing)"
        if all(e.do in ("heal", "repair") for e in lines):
            return " (no one in range needs it: it does nothing)"
        return " (no target in range: it does nothing)"

    def _label_effect(self, choice: Any, ch: Any) -> Described:
        ht = self.ht
        h = self.heroes[ht["hero"]]
        eff = ht["queue"][0]
        do = eff["do"]
        name = self._hname(h.id)
        src = ht["source"]
        if choice is None:
            return (f"{name} skips the {do} of {src}" if do != "move"
                    else f"{name} stays on map tile {h.tile}"), ()
        if do == "move":
            d = int(self.topo.distance(h.tile, choice))
            return (f"{name} moves to map tile {choice} ({plural(d, 'tile')})",
                    (Target("tile", choice, plural(d, "tile")),))
        if do == "attack":
            text, note = self._hit_enemy(choice, eff["value"], ht["pierce"])
            linked = "" if note == "evaded" else "".join(
                f" + {ln['do']}" + (f" {ln['value']}" if ln.get("value") else "")
                for ln in eff.get("linked") or [])
            return (f"{name} attacks {self._enemy_text(choice)} with {src}: {text}{linked}",
                    (Target("figure", choice, note),))
        if do == "heal":
            o = self.heroes[choice]
            gain = min(o.max_hp, o.hp + eff["value"]) - o.hp
            return (f"{name} heals {self._hname(choice)} by {gain} (to {o.hp + gain}/"
                    f"{o.max_hp} HP)", (Target("figure", choice, f"+{gain} HP"),))
        if do == "repair":
            t = self.traps[choice]
            gain = min(self._trap_max_hp(t), t.hp + eff["value"]) - t.hp
            return (f"{name} repairs {self._tname(t)} by {gain} (to {t.hp + gain}/"
                    f"{self._trap_max_hp(t)} HP)", (Target("figure", choice, f"+{gain} HP"),))
        if do in ("slow", "bleed"):
            what = "slows" if do == "slow" else f"inflicts Bleed {eff.get('value', 1)} on"
            return (f"{name} {what} {self._enemy_text(choice)} with {src}",
                    (Target("figure", choice),))
        return f"{name}: {do} {choice}", ()

    # ----------------------------------------------------------- rewards and campaign
    def _label_refresh(self, ult: str, ch: Any) -> Described:
        hid = ch.ctx["hero"]
        return (f"{self._hname(hid)} refreshes the ultimate "
                f"{self.content.cat.ultimates[ult].name}", (Target("card", f"{hid}.ult.{ult}"),))

    def _label_play(self, chapter: str, ch: Any) -> Described:
        if not chapter:
            rec = self._campaign_record()
            return (f"End the campaign now ({plural(rec['chapters_played'], 'chapter')} played, "
                    f"{len(rec['won'])} won); the party sheet records how it ended", ())
        c = self.content.chapters[chapter]
        return f"Play {c.name} ({c.kind} chapter, {plural(c.cycles, 'cycle')})", ()

    def _label_roster(self, p: list[str], ch: Any) -> Described:
        if p[0] == "add":
            return f"{self._hname(p[1])} joins the party", ()
        if p[0] == "remove":
            return f"{self._hname(p[1])} leaves the party", ()
        names = ", ".join(self._hname(h) for h in self.roster)
        return f"Start {self.content.chapters[self.next_chapter].name} with {names}", ()
