"""Attacks, damage, falling, recovering and glory (Attack; Damage, Wounds and Life Points;
Keywords: Range, Large, Area, Mark, Wound, Freeze, Stun)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from meadhall.core import grid, words
from meadhall.core.grid import Sq
from meadhall.core.protocol import PLAYERS, Event

from .content import EnemyData, Upgrade
from .dice_rules import damage_of, dice_data, roll_pool, upgrades_of
from .model import (
    POOL,
    S_ATTACK,
    S_DAMAGE,
    S_DICE,
    S_HOLD,
    S_KEYWORDS,
    S_VICTORY,
    Enemy,
    Hero,
)
from .names import faces_text, upgrade_text

if TYPE_CHECKING:
    pass

ID = "runaljod"


def upgrade_words(u: Upgrade) -> str:
    """An upgrade skill as texts name it: ``+1 damage``, ``wound``, ``hold``."""
    return f"+{u.value} damage" if u.effect == "damage" else u.effect


class AttackMixin:
    """Hero and enemy attacks, life, defeat and glory; methods of the state."""

    # ------------------------------------------------------------ life
    def hero_life(self, h: Hero) -> int:
        """Life value: the board's life track plus items granting extra life points."""
        hd = self.content.heroes[h.id]
        return hd.life + sum(self.content.items[i].life for i in h.equipment)

    def life_left(self, h: Hero) -> int:
        return self.hero_life(h) - h.damage

    def coloured_available(self, h: Hero) -> bool:
        """The left skill is available while the coloured life spaces are uncovered."""
        return h.damage < self.content.heroes[h.id].coloured

    def hero_defence(self, h: Hero) -> int:
        """Defence icons: the board, every equipped item (both weapons) and passive skills."""
        d = self.content.heroes[h.id].defence
        d += sum(self.content.items[i].defence for i in h.equipment)
        d += sum(p.value for p in self.hero_passives(h) if p.kind == "defence")
        return d

    def hero_cancels(self, h: Hero) -> set[str]:
        out: set[str] = set()
        for i in h.equipment:
            out.update(self.content.items[i].cancels)
        return out

    def lose_life(self, h: Hero, n: int, why: str, section: str, events: list[Event],
                  by: tuple[str, str] = ("", "")) -> None:
        """A hero loses life points (no defence); at 0 the hero falls. ``by`` names what did
        it and its type (``enemy3``, ``clan_warrior``; ``blizzard``, ``event``) for the
        statistics event of the fall."""
        if h.fallen or n <= 0:
            return
        n = min(n, self.life_left(h))
        h.damage += n
        events.append(Event("life", f"{self.hname(h)} loses {words.plural(n, 'life point')}: {why} "
                            f"({self.life_left(h)} left)", section,
                            {"hero": h.id, "lost": n}))
        if self.life_left(h) <= 0:
            self.fall(h, events, by)

    def heal(self, h: Hero, n: int, why: str, section: str, events: list[Event]) -> None:
        """Recover life points; a fallen hero only recovers through recovering/helping."""
        if h.fallen or n <= 0:
            return
        n = min(n, h.damage)
        if n:
            h.damage -= n
            events.append(Event("heal", f"{self.hname(h)} recovers {words.plural(n, 'life point')}: {why}",
                                section, {"hero": h.id, "healed": n}))

    def fall(self, h: Hero, events: list[Event], by: tuple[str, str] = ("", "")) -> None:
        """Fallen Heroes: full damage, knocked down, conditions discarded, unused runes out.
        Emits the statistics event ``knockout`` (hero, by, by_type)."""
        h.damage = self.hero_life(h)
        h.fallen = True
        h.fell_this_turn = self.phase != "enemies"
        h.conditions.clear()
        for r in h.runes:
            if r.place == POOL:
                r.place = "out"
        events.append(Event("knockout", f"{self.hname(h)} falls in battle and is knocked down",
                            S_DAMAGE, {"hero": h.id, "by": by[0] or None,
                                       "by_type": by[1] or None}))
        if h.captive:
            self.release_enemy(h, events, "its captor fell")
        if h.held_by:
            captor = next((e for e in self.enemies if e.uid == h.held_by), None)
            if captor is not None:
                captor.holding = ""
                self.release(h, captor.at, events, "defeated while held")
            h.held_by = 0

    def give_condition(self, h: Hero, token: str, events: list[Event], section: str) -> None:
        """A hero holds one token of each condition; a second costs 1 life instead
        (3. Condition Phase). Fallen heroes receive none."""
        if h.fallen:
            return
        if token in h.conditions:
            self.lose_life(h, 1, f"a second {token} token", section, events,
                           (f"{token} token", "condition"))
            return
        h.conditions.append(token)
        events.append(Event("condition", f"{self.hname(h)} takes {words.a(token)} token", section,
                            {"hero": h.id, "token": token}))

    def gain_glory(self, h: Hero, n: int, events: list[Event], why: str) -> None:
        """Five glory make a skill point; at most 3 skill points (Glory and Skill Points)."""
        gained = 0
        for _ in range(n):
            if h.glory >= 5:
                break  # track full and 3 skill points: wait for the next preparation phase
            h.glory += 1
            h.glory_won += 1
            gained += 1
            self.convert_glory(h)
        full = " (the glory track is full)" if gained < n else ""
        events.append(Event("glory", f"{self.hname(h)} gains {words.plural(gained, 'glory point')}{full}: "
                            f"{why} (glory {h.glory}, skill points {h.skill_points})",
                            S_DAMAGE, {"hero": h.id, "gained": gained}))

    def convert_glory(self, h: Hero) -> None:
        while h.glory >= 5 and h.skill_points < 3:
            h.glory -= 5
            h.skill_points += 1

    # ------------------------------------------------------------ enemies' life
    def enemy_data(self, e: Enemy) -> EnemyData:
        return self.content.enemies[e.kind]

    def enemy_defence(self, e: Enemy) -> int:
        extra = sum(r.value for r in self.active_rules() if r.kind == "enemy_defence")
        return self.enemy_data(e).defence + extra

    def ename(self, e: Enemy) -> str:
        return f"{self.enemy_data(e).name} {e.uid} at {self.sqname(e.at)}"

    def hurt_enemy(self, e: Enemy, n: int, by: Hero | None, why: str, section: str,
                   events: list[Event]) -> None:
        """An enemy loses life points; at its life value it is defeated and removed, and the
        hero who caused it gains a glory point (Glory and Skill Points)."""
        if n <= 0 or e not in self.enemies:
            return
        life = self.enemy_data(e).life
        n = min(n, life - e.damage)
        e.damage += n
        events.append(Event("damage", f"{self.ename(e)} loses {words.plural(n, 'life point')}: {why} "
                            f"({life - e.damage} left)", section, {"enemy": e.uid, "lost": n}))
        if e.damage >= life:
            self.enemies.remove(e)
            text = f"{self.enemy_data(e).name} {e.uid} is defeated and removed from the board"
            if by is not None:  # the statistics event: a hero's kill
                events.append(Event("kill", text, S_DAMAGE, {
                    "by": by.id, "enemy": f"enemy{e.uid}", "enemy_type": e.kind}))
            else:
                events.append(Event("defeat", text, S_DAMAGE, {"enemy": e.uid}))
            for h in self.heroes.values():
                if h.held_by == e.uid:
                    self.release(h, e.at, events, "its captor is defeated")
                if h.captive == e.uid:
                    h.captive = 0
            if by is not None:
                self.gain_glory(by, 1, events, f"defeating {self.enemy_data(e).name} {e.uid}")
            if self.enemy_data(e).final:
                self.final_defeated.append(e.kind)
                events.append(Event("victory", f"The {self.enemy_data(e).name} is defeated",
                                    S_VICTORY))
            self.on_enemy_removed(events)

    def give_enemy_condition(self, e: Enemy, token: str, events: list[Event]) -> None:
        if e in self.enemies and token not in e.conditions:
            e.conditions.append(token)
            events.append(Event("condition", f"{self.ename(e)} takes {words.a(token)} token",
                                S_KEYWORDS, {"enemy": e.uid, "token": token}))

    # ------------------------------------------------------------ hero attacks
    def weapons(self, h: Hero) -> list[str]:
        return [i for i in h.equipment if self.content.items[i].weapon]

    def attack_targets(self, h: Hero, weapon: str, keywords: list[str]) -> list[Sq]:
        """Targetable enemy spaces, in reading order (:meth:`iter_attack_targets`)."""
        return sorted(self.iter_attack_targets(h, weapon, keywords), key=lambda s: (s[1], s[0]))

    def iter_attack_targets(self, h: Hero, weapon: str, keywords: list[str],
                            occupied: set[Sq] | None = None) -> Iterator[Sq]:
        """Targetable enemy spaces: adjacent (melee), up to 2 spaces with Large, anything in
        LoS with Range, anywhere with Vali (Attack step 1; Keywords). ``occupied``: the
        position's :meth:`occupied` squares when the caller has them."""
        at = h.at
        assert at is not None
        own = self.content.items[weapon].keywords
        ranged = "range" in own or "range" in keywords
        large = "large" in own or "large" in keywords
        anywhere = ranged and "vali" in h.bonus
        held = h.held_by
        for e in self.enemies:
            if held and e.uid != held:
                continue  # Hold: can only attack its captor
            squares = (e.at,) if e.also is None else (e.at, e.also)
            for q in squares:  # each space of a large enemy is a target space
                if held or anywhere or e.captor == h.id:
                    yield q
                    continue
                d = max(abs(at[0] - q[0]), abs(at[1] - q[1]))
                if ranged:
                    pass
                elif large:
                    if d > 2 or not self.spaces_within(at, q, 2):
                        continue
                elif d != 1:
                    continue
                if occupied is None:
                    occupied = self.occupied()
                if self.sees(at, q, occupied):
                    yield q

    def attack_choices(self, h: Hero, reduced: bool, keywords: list[str]) -> list[str]:
        """``attack <square> with <weapon>`` for every equipped weapon and target it can reach
        (Attack step 1: declare weapon and target); the reduced attack needs a weapon with at
        least two dice (ruling 8)."""
        out = []
        for w in self.weapons(h):
            if reduced and len(self.content.items[w].dice) < 2:
                continue
            out += [f"attack {self.sqname(t)} with {self.iname(w)}"
                    for t in self.attack_targets(h, w, keywords)]
        return out

    def armed_weapons(self, h: Hero, keywords: list[str]) -> list[str]:
        """The equipped weapons with at least one target now, in equipment order (each
        search stops at its first target; the figures are gathered once)."""
        if not self.enemies:
            return []
        occ = self.occupied()
        items = self.content.items
        return [w for w in h.equipment if items[w].weapon
                and next(self.iter_attack_targets(h, w, keywords, occ), None) is not None]

    def ask_attack(self, h: Hero, reduced: bool, extra: list[str], keywords: list[str],
                   section: str) -> None:
        """The rune is placed (or the skill activated): the hero declares weapon and target."""
        self.ask = {"kind": "target", "seat": h.id, "section": S_ATTACK,
                    "prompt": f"{self.hname(h)} attacks: choose the weapon and the target"
                              + (" (reduced attack: one die fewer)" if reduced else ""),
                    "options": self.attack_choices(h, reduced, keywords), "default": None,
                    "reduced": reduced, "extra": extra, "keywords": keywords}

    def on_target(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        target, weapon = self.attack_what(action)
        self.start_hero_attack(h, target, weapon, ask["reduced"], list(ask["extra"]),
                               list(ask["keywords"]), events)

    def attack_pool(self, h: Hero, weapon: str, reduced: bool, extra: list[str],
                    keywords: list[str]) -> list[str]:
        """The attack pool: the weapon's dice (one fewer for the reduced attack), skill dice,
        passive dice and god bonuses (Attack step 2; Basic Actions)."""
        it = self.content.items[weapon]
        dice = list(it.dice)
        if reduced:
            dice = dice[:-1]
        dice += extra
        kw = set(it.keywords) | set(keywords)
        ranged = "range" in kw
        for p in self.hero_passives(h):
            if p.kind == "attack_die" and (p.type == "range") == ranged:
                dice += list(p.dice)
        if "tyr" in h.bonus or ("cheru" in h.bonus and not ranged):
            dice.append("red")
        if "vali" in h.bonus and ranged:
            dice.append("white")
        return dice

    def start_hero_attack(self, h: Hero, target: Sq, weapon: str, reduced: bool,
                          extra: list[str], keywords: list[str], events: list[Event]) -> None:
        """Declare weapon and target, roll, then spend upgrades and deal damage."""
        it = self.content.items[weapon]
        kw = sorted(set(it.keywords) | set(keywords))
        dice = self.attack_pool(h, weapon, reduced, extra, keywords)
        ranged = "range" in kw
        used_bonus = [b for b in h.bonus if b == "tyr" or (b == "vali" and ranged)
                      or (b == "cheru" and not ranged)]
        faces = roll_pool(self.content, self.chance, dice, f"{self.hname(h)}'s attack",
                          S_DICE)
        e = self.enemy_at(target)
        assert e is not None
        events.append(Event("roll", f"{self.hname(h)} attacks {self.ename(e)} with "
                            f"{it.name} ({', '.join(dice)}): rolls {faces_text(faces)}",
                            S_ATTACK, {"hero": h.id, "faces": faces,
                                       "dice": dice_data(dice, faces)}))
        for b in used_bonus:
            h.bonus.remove(b)
        ctx: dict[str, Any] = {"hero": h.id, "target": list(target), "weapon": weapon,
                               "keywords": kw, "dice": dice, "faces": faces,
                               "gods": used_bonus}
        if h.mark == "ready":
            self.ask = {"kind": "mark", "seat": h.id, "section": S_KEYWORDS,
                        "prompt": f"{self.hname(h)} rolled {faces_text(faces)}: return the mark "
                                  "token to re-roll every die?",
                        "options": ["keep the roll", "re-roll with the mark token"],
                        "default": None, "ctx": ctx}
            return
        self.upgrade_step(ctx, events)

    def on_mark(self, action: str, ask: dict, events: list[Event]) -> None:
        ctx = ask["ctx"]
        h = self.heroes[ctx["hero"]]
        if action.startswith("re-roll"):
            h.mark = "none"  # the token is returned: a skill must place it again
            ctx["faces"] = roll_pool(self.content, self.chance, ctx["dice"],
                                     f"{self.hname(h)}'s re-roll", S_KEYWORDS)
            events.append(Event("mark", f"{self.hname(h)} returns the mark token and re-rolls: "
                                f"{', '.join(ctx['faces'])} (the second roll stands)",
                                S_KEYWORDS, {"hero": h.id, "faces": list(ctx["faces"]),
                                             "dice": dice_data(ctx["dice"], ctx["faces"])}))
        self.upgrade_step(ctx, events)

    def hero_upgrade_skills(self, h: Hero, ctx: dict) -> list[tuple[str, int, str]]:
        """(label, cost, effect) of every upgrade skill usable in this attack: both weapons'
        skills (a hero with two weapons uses both), each once per attack."""
        out = []
        # ordered by card name, so that the texts do not depend on the order of equipping
        for i in sorted(h.equipment, key=self.iname):
            for u in self.content.items[i].upgrades:
                out.append((f"{upgrade_words(u)} ({self.iname(i)})", u.cost,
                            f"{u.effect}:{u.value}"))
        return out

    def upgrade_step(self, ctx: dict, events: list[Event]) -> None:
        """Spend upgrades (Attack step 3): the hero chooses among the maximal affordable sets
        of upgrade skills when there is a real choice."""
        h = self.heroes[ctx["hero"]]
        n = upgrades_of(ctx["faces"])
        skills = self.hero_upgrade_skills(h, ctx)
        combos: list[tuple[int, ...]] = []
        for k in range(len(skills), 0, -1):
            for c in combinations(range(len(skills)), k):
                if sum(skills[i][1] for i in c) <= n:
                    combos.append(c)
        maximal = [c for c in combos if not any(set(c) < set(d) for d in combos)]
        # two copies of a weapon give the same choices twice: one text each
        by_text = {"spend upgrades on " + " and ".join(skills[i][0] for i in c): c
                   for c in reversed(maximal)}
        if len(by_text) > 1:
            opts = sorted(by_text, key=lambda t: maximal.index(by_text[t]))
            self.ask = {"kind": "upgrades", "seat": h.id, "section": S_ATTACK,
                        "prompt": f"{self.hname(h)} rolled {words.plural(n, 'upgrade')}: choose the skills",
                        "options": opts, "default": None, "ctx": ctx,
                        "combos": [[skills[i][2] for i in by_text[t]] for t in opts]}
            return
        chosen = [skills[i][2] for i in maximal[0]] if maximal else []
        self.finish_hero_attack(ctx, chosen, events)

    def on_upgrades(self, action: str, ask: dict, events: list[Event]) -> None:
        i = ask["options"].index(action)
        self.finish_hero_attack(ask["ctx"], ask["combos"][i], events)

    def finish_hero_attack(self, ctx: dict, spent: list[str], events: list[Event]) -> None:
        """Damage dealt (step 4) to the target, and with Area to every adjacent enemy, each with
        its own defence; then conditions and glory (step 5)."""
        h = self.heroes[ctx["hero"]]
        faces = list(ctx["faces"])
        if "cheru" in ctx["gods"]:
            faces = ["double_axe" if f == "blank" else f for f in faces]
        bonus = 0
        tokens = []
        for s in spent:
            eff, val = s.split(":")
            if eff == "damage":
                bonus += int(val)
            elif eff in ("wound", "freeze", "stun", "hold"):
                tokens.append(eff)
        kw = ctx["keywords"]
        for k in ("wound", "freeze", "stun"):
            if k in kw and k not in tokens:
                tokens.append(k)
        target = tuple(ctx["target"])
        victims = [e for e in self.enemies if target in e.squares]
        if "area" in kw:  # every enemy next to the target space, once per enemy
            victims += [e for e in self.enemies if e not in victims
                        and any(self.adjacent(q, target) for q in e.squares)]
        if spent:
            events.append(Event("upgrades", f"{self.hname(h)} spends upgrades on "
                                f"{words.join(upgrade_text(s) for s in spent)}", S_ATTACK))
        for e in victims:
            ed = self.enemy_data(e)
            raw = damage_of(faces, set(ed.cancels)) + bonus
            dealt = max(0, raw - self.enemy_defence(e))
            events.append(Event("attack", f"{self.ename(e)}: {raw} damage against "
                                f"{words.plural(self.enemy_defence(e), 'defence icon')}: {dealt} get through",
                                S_ATTACK, {"enemy": e.uid, "damage": dealt}))
            for t in tokens:
                if t == "wound" and dealt <= 0 or t == "hold":
                    continue  # Wound only if the target received damage from this attack
                self.give_enemy_condition(e, {"freeze": "frozen"}.get(t, t), events)
            self.hurt_enemy(e, dealt, h, "attack", S_ATTACK, events)
            if "hold" in tokens and e in self.enemies and e.at == target and not h.captive \
                    and not e.captor and e.also is None and not e.holding:
                self.hero_hold(h, e, events)
        for b in ctx["gods"]:
            if b in ("cheru", "vali"):
                self.return_after_attack(h, b, events, "after the attack")

    # ------------------------------------------------------------ enemy attacks
    def enemy_attack(self, e: Enemy, h: Hero, events: list[Event], section: str) -> None:
        """An enemy attacks a hero: roll its dice, spend upgrades left to right and top to
        bottom (each once), damage minus the hero's defence (Enemy Actions - Attack)."""
        ed = self.enemy_data(e)
        faces = roll_pool(self.content, self.chance, list(ed.dice),
                          f"{ed.name} {e.uid}'s attack on {self.hname(h)}", S_DICE)
        n = upgrades_of(faces)
        bonus = 0
        tokens = []
        spent = []
        for u in ed.upgrades:
            if n >= u.cost:
                n -= u.cost
                spent.append(u.effect + (f" +{u.value}" if u.value else ""))
                if u.effect == "damage":
                    bonus += u.value
                else:
                    tokens.append(u.effect)
        raw = damage_of(faces, self.hero_cancels(h)) + bonus
        defence = self.hero_defence(h)
        dealt = max(0, raw - defence)
        events.append(Event("enemy-attack", f"{self.ename(e)} attacks {self.hname(h)}: rolls "
                            f"{faces_text(faces)}" + (f", upgrades spent on {', '.join(spent)}"
                                                     if spent else "")
                            + f"; {raw} damage against {words.plural(defence, 'defence icon')}: {dealt} get "
                              "through",
                            section, {"enemy": e.uid, "hero": h.id, "faces": faces,
                                      "dice": dice_data(list(ed.dice), faces)}))
        for t in tokens:
            if t == "wound" and dealt <= 0 or t == "hold":
                continue
            self.give_condition(h, {"freeze": "frozen"}.get(t, t), events, S_KEYWORDS)
        if dealt:
            self.lose_life(h, dealt, f"{ed.name} {e.uid}'s attack", S_ATTACK, events,
                           (f"enemy{e.uid}", e.kind))
        if "hold" in tokens and not h.fallen and not e.holding and not h.held_by:
            self.hold(e, h, events)

    # ------------------------------------------------------------ Hold
    def hold(self, e: Enemy, h: Hero, events: list[Event]) -> None:
        """Hold: the captor takes the hero into its own space; the hero loses all destiny."""
        e.holding = h.id
        h.held_by = e.uid
        h.at = e.at
        lost = 0
        for r in h.pool():
            if r.face_up:
                r.side = "down"
                lost += 1
        events.append(Event("hold", f"{self.ename(e)} holds {self.hname(h)} in its space; "
                            f"{self.hname(h)} loses all destiny ({words.plural(lost, 'rune')} flipped)",
                            S_HOLD, {"enemy": e.uid, "hero": h.id}))

    def hero_hold(self, h: Hero, e: Enemy, events: list[Event]) -> None:
        """Hold by a hero: the enemy is placed in the hero's space; it can only attack its
        captor and moves only with it (ruling: a large enemy cannot be held)."""
        assert h.at is not None
        e.at = h.at
        e.captor = h.id
        h.captive = e.uid
        events.append(Event("hold", f"{self.hname(h)} holds {self.ename(e)} in their space",
                            S_HOLD, {"hero": h.id, "enemy": e.uid}))

    def free_space_next_to(self, near: Sq) -> Sq | None:
        free = [n for n in sorted(grid.neighbours(near, diagonal=True),
                                  key=lambda s: (s[1], s[0]))
                if n in self.terrain and not self.is_obstacle(n) and self.enemy_at(n) is None
                and self.hero_at(n) is None and n not in self.bonfires]
        return free[0] if free else None

    def release_enemy(self, h: Hero, events: list[Event], why: str) -> None:
        e = next((x for x in self.enemies if x.uid == h.captive), None)
        h.captive = 0
        if e is None:
            return
        e.captor = ""
        assert h.at is not None
        spot = self.free_space_next_to(h.at)
        if spot is not None:
            e.at = spot
            self.place_queue.append(["enemy", str(e.uid), self.sqname(h.at)])
        events.append(Event("hold", f"{self.enemy_data(e).name} {e.uid} is released ({why}) "
                            f"and placed on {self.sqname(e.at)}", S_HOLD, {"enemy": e.uid}))

    def release(self, h: Hero, near: Sq, events: list[Event], why: str) -> None:
        """Place a held hero on a free space adjacent to its captor: the first free space in
        reading order, which the players may change ("any space adjacent", Hold)."""
        h.held_by = 0
        spot = self.free_space_next_to(near)
        if spot is not None:
            h.at = spot
            self.place_queue.append(["hero", h.id, self.sqname(near)])
        events.append(Event("hold", f"{self.hname(h)} is released ({why}) and placed on "
                            f"{self.sqname(h.at)}", S_HOLD, {"hero": h.id}))

    def placement_ask(self) -> bool:
        """Hold: a released miniature goes on "any space adjacent" to its captor: the engine
        placed it on the first free one; the players may choose another (asked at the next
        point where no other decision is pending)."""
        while self.place_queue and self.ask is None:
            kind, who, near_name = self.place_queue.pop(0)
            near = self.parse_sq(near_name)
            if kind == "hero":
                h = self.heroes[who]
                at, name, label = h.at, self.hname(h), who
            else:
                e = next((x for x in self.enemies if x.uid == int(who)), None)
                if e is None or e.captor or e.also is not None:
                    continue
                at, name, label = e.at, f"{self.enemy_data(e).name} {e.uid}", self.kname(e.kind)
            if at is None or not self.adjacent(at, near):
                continue
            free = [n for n in sorted(grid.neighbours(near, diagonal=True),
                                      key=lambda s: (s[1], s[0]))
                    if n == at or (n in self.terrain and not self.is_obstacle(n)
                                   and self.enemy_at(n) is None and self.hero_at(n) is None
                                   and n not in self.bonfires)]
            if len(free) < 2:
                continue
            opts = [f"place {label} on {self.sqname(n)}" for n in free]
            self.ask = {"kind": "place", "seat": PLAYERS, "section": S_HOLD,
                        "prompt": f"Hold: {name} is placed on any space adjacent to "
                                  f"{near_name}: choose it", "options": opts,
                        "default": f"place {label} on {self.sqname(at)}", "who": [kind, who]}
            return True
        return False

    def on_place(self, action: str, ask: dict, events: list[Event]) -> None:
        kind, who = ask["who"]
        to = self.parse_sq(action.rpartition(" on ")[2])
        if kind == "enemy":
            e = next(x for x in self.enemies if x.uid == int(who))
            e.at = to
            name = f"{self.enemy_data(e).name} {e.uid}"
        else:
            h = self.heroes[who]
            h.at = to
            name = self.hname(h)
        events.append(Event("hold", f"The players place {name} on {self.sqname(to)}", S_HOLD))

    def hold_options(self, h: Hero, pending: str) -> list[str]:
        """Before any action, a held hero loses 2 life and 1 destiny, or takes a physical
        check (an action of its own) and suffers that loss only on a failure."""
        act = self.parse_action(h, pending)
        busy = {act.rune} if act else set()
        if act and act.kind == "skill":
            busy.update(dict(self.all_skills(h))[act.skill].runes)
        opts = []
        if self.life_left(h) > 2:
            opts.append("suffer the hold")
        opts += [f"physical check using {self.rname(r)}" for r in self.distinct(h, face_up=True)
                 if r.icon not in busy]
        return opts or ["fail the physical check"]

    def on_hold(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        ok = False
        if action.startswith("physical check using "):
            ok, _ = self.check(h, "physical", action[len("physical check using "):], events)
        if not ok:
            captor = next((e for e in self.enemies if e.uid == h.held_by), None)
            self.lose_life(h, 2, "held (Hold)", S_HOLD, events,
                           (f"enemy{captor.uid}", captor.kind) if captor else ("hold", "hold"))
            up = [r for r in h.pool() if r.face_up]
            if len(up) > 1 and not h.fallen:
                # which rune pays the destiny is the hero's choice (Destiny, ruling 9)
                self.ask = {"kind": "hold_destiny", "seat": h.id, "section": S_HOLD,
                            "prompt": f"{self.hname(h)} loses 1 destiny to the Hold: choose "
                                      "the rune to flip face down",
                            "options": [f"flip {self.rname(r)} face down" for r in up],
                            "default": None, "pending": ask["pending"]}
                return
            for r in up:
                r.side = "down"
        self.hold_go_on(h, ask["pending"], events)

    def on_hold_destiny(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        r = h.rune(self.icon_of(action[len("flip "):-len(" face down")]))
        assert r is not None
        r.side = "down"
        events.append(Event("hold", f"{self.hname(h)} flips {self.rname(r)} face down (1 "
                            "destiny lost to the Hold)", S_HOLD, {"hero": h.id}))
        self.hold_go_on(h, ask["pending"], events)

    def hold_go_on(self, h: Hero, pending: str, events: list[Event]) -> None:
        """After the Hold's toll or check, the held hero performs the action it chose."""
        if h.fallen or not self.can_act(h):
            return
        if pending not in self.hero_actions(h):
            events.append(Event("hold", f"{self.hname(h)} can no longer perform: {pending}",
                                S_HOLD))
            return
        self.do_action(h, pending, events)
