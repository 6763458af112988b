"""The heroes' turn: preparation, destiny throw, conditions, actions (basic actions,
movement, interaction, skills, checks, assisting), the final phase (Heroes Turn and its
numbered phases; Destiny; Equipment; Keywords; Terrain)."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import combinations

from meadhall.core import grid, words
from meadhall.core.grid import Sq
from meadhall.core.protocol import Event

from .content import Effect, SkillData
from .dice_rules import dice_data, roll_pool, rune_data, throw_rune, upgrades_of
from .memo import content_cache
from .model import (
    GOD_RUNE,
    POOL,
    S_BASIC,
    S_CHECKS,
    S_CONDITION,
    S_DAMAGE,
    S_DESTINY,
    S_DESTINY_PHASE,
    S_EQUIP,
    S_INTERACT,
    S_MOVE,
    S_PREP,
    S_SKILL,
    S_TERRAIN,
    S_TWO,
    Hero,
    HeroAct,
    Rune,
)
from .names import Names, faces_text, slug


def _reading(s: Sq) -> tuple[int, int]:
    return (s[1], s[0])


class HeroesMixin:
    """Methods of the state for the heroes' turn."""

    # ------------------------------------------------------------ names
    @property
    def names(self) -> Names:
        """Name lookups for action texts (built once per content, shared by clones)."""
        n = self.__dict__.get("_names")
        if n is None:
            n = self.__dict__["_names"] = Names.of(self.content)
        return n

    def hname(self, h: Hero) -> str:
        return self.content.heroes[h.id].name

    def rname(self, r: Rune) -> str:
        """A rune as texts name it: its Futhark name, or ``thor's rune`` for a god's rune."""
        return f"{r.god}'s rune" if r.god else r.icon

    def icon_of(self, text: str) -> str:
        return f"god:{text[:-len(GOD_RUNE)]}" if text.endswith(GOD_RUNE) else text

    def iname(self, item: str) -> str:
        """An item as texts name it (``bearded axe``)."""
        return self.names.item[item]

    def item_id(self, text: str) -> str:
        """The item named ``text`` in an action (KeyError if none)."""
        return self.names.item_id[text]

    def skill_of(self, h: Hero, text: str) -> str:
        """The id of the hero's skill named ``text`` (KeyError if the hero has none)."""
        for sid, _ in self.all_skills(h):
            if self.names.skill[sid] == text:
                return sid
        raise KeyError(text)

    def kname(self, kind: str) -> str:
        """An enemy type as texts name it (``clan warrior``)."""
        return self.names.enemy[kind]

    # ------------------------------------------------------------ skills and passives
    def board_skills(self, h: Hero) -> list[tuple[str, SkillData]]:
        hd = self.content.heroes[h.id]
        out = [(slug(hd.skill_always.name), hd.skill_always)]
        if self.coloured_available(h):
            out.insert(0, (slug(hd.skill_coloured.name), hd.skill_coloured))
        return out

    def all_skills(self, h: Hero) -> list[tuple[str, SkillData]]:
        """The hero's board skills (the coloured one while available) and skill cards."""
        return self._skill_set(h)[0]

    def hero_passives(self, h: Hero) -> list[Effect]:
        return self._skill_set(h)[1]

    def _skill_set(self, h: Hero) -> tuple[list[tuple[str, SkillData]], list[Effect], int]:
        """(skills, passive effects, movement bonus), cached by what decides them (shared by
        clones: the values are built from immutable content and never changed by callers)."""
        cache = self.__dict__.get("_skcache")
        if cache is None or cache[0] is not self.content:
            cache = self.__dict__["_skcache"] = (self.content, {})
        key = (h.id, h.damage < self.content.heroes[h.id].coloured, *h.skills)
        hit = cache[1].get(key)
        if hit is None:
            skills = self.board_skills(h) + [(s, self.content.skills[s]) for s in h.skills]
            passives = [sk.passive for _, sk in skills if sk.passive is not None]
            hit = (skills, passives, sum(p.value for p in passives if p.kind == "move_bonus"))
            cache[1][key] = hit
        return hit

    # ------------------------------------------------------------ 1. preparation
    def buyable(self, h: Hero) -> list[str]:
        """Skill cards the hero can buy now: not owned, affordable, at most 3 points spent per
        preparation phase."""
        room = 3 - h.bought_this_phase
        return [s for s in self.content.heroes[h.id].skills if s not in h.skills
                and self.content.skills[s].cost <= min(h.skill_points, room)]

    def prep_ask(self) -> bool:
        for h in self.ordered():
            if h.id in self.prep_done:
                continue
            opts = self.buyable(h)
            if not opts:
                self.prep_done.append(h.id)
                continue
            self.ask = {"kind": "prep", "seat": h.id, "section": S_PREP,
                        "prompt": f"{self.hname(h)} has {words.plural(h.skill_points, 'skill point')}: buy "
                                  "skill cards or stop",
                        "default": None,
                        "options": [f"buy {self.names.skill[s]}" for s in opts]
                        + ["done buying"]}
            return True
        return False

    def on_prep(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        if action == "done buying":
            self.prep_done.append(h.id)
            return
        sid = self.skill_id(action[len("buy "):])
        cost = self.content.skills[sid].cost
        h.skill_points -= cost
        h.bought_this_phase += cost
        h.skills.append(sid)
        events.append(Event("buy", f"{self.hname(h)} spends {words.plural(cost, 'skill point')} on "
                            f"{self.content.skills[sid].name}", S_PREP, {"hero": h.id}))

    def start_preparation(self, events: list[Event]) -> None:
        """Recover turned cards; skill point purchases follow as decisions."""
        for h in self.heroes.values():
            h.turned.clear()
            h.bought_this_phase = 0
            h.passed = False
            h.fell_this_turn = False
        self.prep_done = []
        self.two_player_used = False
        events.append(Event("round", f"Round {self.round}: the heroes' turn begins", S_PREP,
                            {"round": self.round}))

    # ------------------------------------------------------------ 2. destiny
    def destiny_ask(self) -> bool:
        """A fallen hero may recover on their own at the start of the destiny phase."""
        for h in self.ordered():
            if h.fallen and not h.fell_this_turn and not h.recover_choice:
                self.ask = {"kind": "recover", "seat": h.id, "section": S_DAMAGE,
                            "prompt": f"{self.hname(h)} has fallen: recover on your own "
                                      "(throw all runes, heal 2 per face up and 3 per "
                                      "sideways rune) or stay down?",
                            "options": ["recover on my own", "stay down"], "default": None}
                return True
        return False

    def on_recover(self, action: str, ask: dict, events: list[Event]) -> None:
        self.heroes[ask["seat"]].recover_choice = "yes" if action.startswith("recover") else "no"

    def destiny_phase(self, events: list[Event]) -> None:
        """Each standing hero throws the runes not in the destiny pool (all on the first turn)
        and keeps their orientation; fallen heroes who chose to recover do so now."""
        # what a throw is called is read only when the table is asked or a forced result is
        # refused: seeded play with nothing queued never reads it (the queue cannot fill
        # during a step), and a search copy's events are never read (no rule reads events)
        quiet = self.chance.mode == "seeded" and not self.chance.queue
        for h in self.ordered():
            if h.fallen:
                if h.recover_choice == "yes":
                    self.raise_hero(h, 0, events, S_DAMAGE, alone=True)
                h.recover_choice = ""
                continue
            thrown = [r for r in h.runes if r.place != POOL]
            for r in thrown:
                r.side = throw_rune(self.content, self.chance,
                                    "" if quiet else
                                    f"{self.hname(h)}'s destiny throw: {self.rname(r)}",
                                    S_DESTINY_PHASE)
                r.place = POOL
            if thrown:
                if not self._scratch:
                    events.append(Event("destiny", f"{self.hname(h)}'s destiny throw: "
                                        + ", ".join(f"{self.rname(r)} {r.side}"
                                                    for r in thrown), S_DESTINY_PHASE,
                                        {"hero": h.id, "runes": [[r.icon, r.side]
                                                                 for r in thrown],
                                         "dice": rune_data([(self.rname(r), r.side)
                                                            for r in thrown])}))
                if any(p.kind == "rethrow_destiny" for p in self.hero_passives(h)):
                    self.rethrow.append([h.id, *(r.icon for r in thrown)])
            self.capricious(h, events)

    def rethrow_ask(self) -> bool:
        """Skills that repeat the destiny throw are used right after it (2. Destiny Phase)."""
        while self.rethrow:
            hid = self.rethrow[0][0]
            h = self.heroes[hid]
            # a rune the gods took back (capricious) since the throw is no longer the hero's:
            # the repeat throws the others ("now is the time to do it", 2. Destiny Phase)
            left = [i for i in self.rethrow[0][1:]
                    if h.rune(i) is not None and h.rune(i).place == POOL]
            if h.fallen or not left:
                self.rethrow.pop(0)
                continue
            self.rethrow[0][1:] = left
            self.ask = {"kind": "rethrow", "seat": hid, "section": S_DESTINY_PHASE,
                        "prompt": f"{self.hname(h)} may repeat the destiny throw",
                        "options": ["keep the throw", "repeat the destiny throw"],
                        "default": None}
            return True
        return False

    def on_rethrow(self, action: str, ask: dict, events: list[Event]) -> None:
        hid, *icons = self.rethrow.pop(0)
        h = self.heroes[hid]
        if action != "repeat the destiny throw":
            return
        runes = [h.rune(i) for i in icons]
        for r in runes:
            r.side = throw_rune(self.content, self.chance,
                                f"{self.hname(h)}'s repeated destiny throw: {self.rname(r)}",
                                S_DESTINY_PHASE)
        events.append(Event("destiny", f"{self.hname(h)} repeats the destiny throw: "
                            + ", ".join(f"{self.rname(r)} {r.side}" for r in runes),
                            S_DESTINY_PHASE, {
                                "hero": hid, "runes": [[r.icon, r.side] for r in runes],
                                "dice": rune_data([(self.rname(r), r.side) for r in runes])}))
        self.capricious(h, events)

    def raise_hero(self, h: Hero, upgrades: int, events: list[Event], section: str,
                   alone: bool = False, down_heals: int = 0) -> None:
        """Recovering / Helping a Hero: throw every rune, heal 2 per face up and 3 per sideways
        rune (+1 per helper's upgrade); alone, the runes are then flipped face down. The end
        marker moves one space counterclockwise. Every caller (recovering alone, helping,
        Brisingamen) first checks "A hero cannot recover the same turn they are defeated"."""
        for r in h.runes:
            r.side = throw_rune(self.content, self.chance,
                                f"{self.hname(h)}'s recovery throw: {self.rname(r)}", section)
            r.place = POOL
        thrown = [(self.rname(r), r.side) for r in h.runes]
        up = sum(1 for r in h.runes if r.side == "up")
        side = sum(1 for r in h.runes if r.side == "side")
        down = len(h.runes) - up - side
        heal = 2 * up + 3 * side + upgrades + down_heals * down
        h.fallen = False
        life = self.hero_life(h)
        h.damage = min(max(0, life - heal), life - 1)  # at least 1 life point (ruling 27)
        if alone:
            for r in h.runes:
                r.side = "down"
        gained = self.hero_life(h) - h.damage
        events.append(Event("recover", f"{self.hname(h)} recovers and stands up: "
                            f"{up} face up, {words.plural(side, 'sideways rune')}"
                            + (f", {words.plural(upgrades, 'upgrade')}" if upgrades else "")
                            + (f": {words.plural(heal, 'life point')}" if heal else
                               ": no life point, stands up with 1 (ruling 27)")
                            + f", {gained} left", section,
                            {"hero": h.id, "dice": rune_data(thrown)}))
        if alone:
            # "If the fallen hero doesn't receive help from another hero to recover, the
            # fallen hero cannot perform an action on the next hero's turn": this one.
            h.passed = True
            events.append(Event("recover", f"{self.hname(h)} recovered without help and "
                                "cannot act in this heroes' turn", S_DAMAGE, {"hero": h.id}))
        self.end = (self.end - 1) % self.content.altar.track
        events.append(Event("end", f"The end marker moves one space counterclockwise to "
                            f"{self.end}", section, {"end": self.end}))
        if self.end == self.time:
            self.lost = "the end marker reached the time token"
        self.capricious(h, events)

    # ------------------------------------------------------------ 3. conditions
    def start_conditions(self, events: list[Event]) -> None:
        self.cond_queue = [[h.id, t] for h in self.ordered() if not h.fallen
                           for t in ("wound", "stun", "frozen") if t in h.conditions]

    def condition_ask(self, events: list[Event]) -> bool:
        while self.cond_queue:
            hid, token = self.cond_queue[0][:2]
            h = self.heroes[hid]
            if h.fallen or token not in h.conditions:
                self.cond_queue.pop(0)
                continue
            if token == "wound" and len(self.cond_queue[0]) == 2:
                self.cond_queue[0].append("lost")
                self.lose_life(h, 2, "wound token", S_CONDITION, events,
                               ("wound token", "condition"))
                continue
            if token == "frozen" and len(self.cond_queue[0]) == 2:
                self.cond_queue[0].append("lost")
                self.lose_life(h, 1, "frozen token", S_CONDITION, events,
                               ("frozen token", "condition"))
                continue
            if token == "wound":
                spaces = self.wound_spaces(h)
                opts = [f"remove the wound using {self.rname(r)} on {s}" for r in
                        self.distinct(h, face_up=True) for s in spaces]
                if opts:
                    self.ask = {"kind": "cond", "seat": hid, "section": S_CONDITION,
                                "prompt": f"{self.hname(h)} is wounded: place a face up rune "
                                          "on a movement or attack space to remove the token?",
                                "options": opts + ["keep the wound"], "default": None}
                    return True
            elif token == "stun":
                pool = self.distinct(h)
                placed = len(self.cond_queue[0]) - 2  # runes already placed for this token
                if len(h.pool()) > 0 and placed < 2:
                    self.ask = {"kind": "cond", "seat": hid, "section": S_CONDITION,
                                "prompt": f"{self.hname(h)} is stunned: place a rune on the "
                                          f"interact space ({placed + 1} of 2)",
                                "options": [f"place {self.rname(r)} on interact" for r in pool],
                                "default": None}
                    return True
                h.conditions.remove("stun")
                events.append(Event("condition", f"{self.hname(h)} discards the stun token",
                                    S_CONDITION))
            elif token == "frozen":
                opts = [f"physical check using {self.rname(r)}" for r in
                        self.distinct(h, face_up=True)]
                if opts:
                    self.ask = {"kind": "cond", "seat": hid, "section": S_CONDITION,
                                "prompt": f"{self.hname(h)} is frozen: perform a physical check "
                                          "to remove the token?",
                                "options": opts + ["keep the frozen token"], "default": None}
                    return True
            self.cond_queue.pop(0)
        return False

    def on_cond(self, action: str, ask: dict, events: list[Event]) -> None:
        hid, token = self.cond_queue[0][:2]
        h = self.heroes[hid]
        if action.startswith("remove the wound using "):
            rune, _, where = action[len("remove the wound using "):].partition(" on ")
            r = h.rune(self.icon_of(rune))
            r.place = self.wound_spaces(h)[where]
            h.conditions.remove("wound")
            events.append(Event("condition", f"{self.hname(h)} places {self.rname(r)} on "
                                f"the {where} space and removes the wound token", S_CONDITION))
            self.cond_queue.pop(0)
        elif action.startswith("place "):
            r = h.rune(self.icon_of(action[len("place "):-len(" on interact")]))
            r.place = "interact"
            self.cond_queue[0].append(r.icon)
            events.append(Event("condition", f"{self.hname(h)} is stunned: {self.rname(r)} goes "
                                "to the interact space", S_CONDITION))
        elif action.startswith("physical check using "):
            ok, _ = self.check(h, "physical", action[len("physical check using "):], events)
            if ok:
                h.conditions.remove("frozen")
                events.append(Event("condition", f"{self.hname(h)} removes the frozen token",
                                    S_CONDITION))
                self.cond_queue.pop(0)
            # failed: "You can do this action as many times as you wish" (Perform Checks) -
            # the token stays in the decision while the hero has a face up rune to try again
        else:
            self.cond_queue.pop(0)

    def wound_spaces(self, h: Hero) -> dict[str, str]:
        """The free basic movement and attack spaces a face up rune may go to to remove a wound
        token, by the name texts use (``move 3``, ``attack``, ``reduced attack``)."""
        out = {f"move {mp}": space for space, mp in self.move_spaces(h)}
        for space, name in (("attack1", "attack"), ("attack2", "reduced attack")):
            if not h.space_used(space):
                out[name] = space
        return out

    def skill_id(self, text: str) -> str:
        """The skill card named ``text`` (KeyError if none)."""
        for sid in self.content.skills:
            if self.names.skill[sid] == text:
                return sid
        raise KeyError(text)

    # ------------------------------------------------------------ checks and destiny
    def distinct(self, h: Hero, face_up: bool = False, sideways: bool = False,
                 no_god: bool = False) -> list[Rune]:
        out = []
        for r in h.pool():
            if face_up and not r.face_up:
                continue
            if sideways and r.side != "side":
                continue
            if no_god and r.god:
                continue
            out.append(r)
        return out

    def check_dice(self, h: Hero, kind: str) -> list[str]:
        """The dice of a physical or spiritual check: the board's, plus passive skills'."""
        hd = self.content.heroes[h.id]
        dice = list(hd.physical if kind == "physical" else hd.spiritual)
        for p in self.hero_passives(h):
            if p.kind == "check_die" and p.type == kind:
                dice += list(p.dice)
        return dice

    def check(self, h: Hero, kind: str, rune: str, events: list[Event]) -> tuple[bool, int]:
        """Perform Checks: place a face up rune on the check space, roll its dice, pass with at
        least one upgrade."""
        r = h.rune(self.icon_of(rune))
        assert r is not None and r.place == POOL and r.face_up
        r.place = kind
        dice = self.check_dice(h, kind)
        faces = roll_pool(self.content, self.chance, dice, f"{self.hname(h)}'s {kind} check",
                          S_CHECKS)
        n = upgrades_of(faces)
        events.append(Event("check", f"{self.hname(h)}'s {kind} check with {self.rname(r)} "
                            f"({', '.join(dice)}): {faces_text(faces)}: "
                            + ("passed" if n else "failed"), S_CHECKS,
                            {"hero": h.id, "faces": faces, "passed": n > 0,
                             "dice": dice_data(dice, faces)}))
        return n > 0, n

    def destiny_payment(self, h: Hero, n: int, keep: list[Rune]) -> list[Rune] | None:
        """Destiny: ``n`` face up runes of the pool that can be flipped face down (the first
        affordable set; :meth:`destiny_choices` lists every set the hero may choose)."""
        choices = self.destiny_choices(h, n, keep)
        return list(choices[0]) if choices else None

    def destiny_choices(self, h: Hero, n: int, keep: list[Rune]) -> list[tuple[Rune, ...]]:
        """Every set of ``n`` face up runes of the destiny pool (besides ``keep``) the hero may
        flip face down to pay ``n`` destiny: which ones is the hero's choice (Destiny)."""
        from itertools import combinations

        avail = [r for r in h.pool() if r.face_up and all(r is not k for k in keep)]
        return list(combinations(avail, n)) if len(avail) >= n else []

    # ------------------------------------------------------------ 4. actions
    def can_act(self, h: Hero) -> bool:
        return not h.fallen and not h.passed and h.at is not None

    def move_spaces(self, h: Hero) -> list[tuple[str, int]]:
        """The free basic movement spaces with the movement points each gives (the printed
        value plus movement bonuses such as Fleet Foot); of two spaces with the same value
        only the first, since using either is the same action (Basic Actions)."""
        move = self.content.heroes[h.id].move
        bonus = self.move_bonus(h)
        used = [r.place for r in h.runes]
        out: list[tuple[str, int]] = []
        if "move1" not in used:
            out.append(("move1", move[0] + bonus))
        if "move2" not in used and (not out or out[0][1] != move[1] + bonus):
            out.append(("move2", move[1] + bonus))
        return out

    def move_bonus(self, h: Hero) -> int:
        """Extra movement points on every movement action (passive skills: Fleet Foot)."""
        return self._skill_set(h)[2]

    def hero_actions(self, h: Hero) -> list[str]:
        """Every legal action of a hero in the actions phase (grammar: docs/formats/runaljod.md,
        "Action texts")."""
        return self._hero_actions(h, False)

    def has_action(self, h: Hero) -> bool:
        """Whether the hero has any action left (stops after the first kind of action found)."""
        if not h.held_by and any(r.place == POOL for r in h.runes) and (
                not h.space_used("move1") or not h.space_used("move2")):
            return True  # a basic movement with any rune of the pool
        return bool(self._hero_actions(h, True))

    def _hero_actions(self, h: Hero, first: bool) -> list[str]:
        """The hero's legal actions, kind by kind; ``first``: stop after the first kind that
        has any (all :meth:`has_action` needs)."""
        out: list[str] = []
        pool = [r for r in h.runes if r.place == POOL]
        runes = [f"{r.icon[4:]}{GOD_RUNE}" if r.icon.startswith("god:") else r.icon
                 for r in pool]
        at = h.at
        assert at is not None
        held = h.held_by
        # Basic actions: two movement spaces, two attack spaces, unlimited interact.
        if runes:
            if not held:
                for _, mp in self.move_spaces(h):
                    out += [f"move {mp} using {r}" for r in runes]
            free1, free2 = not h.space_used("attack1"), not h.space_used("attack2")
            if free1 or free2:
                armed = self.armed_weapons(h, [])
                if free1 and armed:
                    out += [f"attack using {r}" for r in runes]
                if free2 and any(len(self.content.items[w].dice) >= 2 for w in armed):
                    out += [f"reduced attack using {r}" for r in runes]
            if not held:
                for act in self.interactions(h):
                    out += [f"{act} using {r}" for r in runes]
            if first and out:
                return out
        # God's runes: a sideways (non-god) rune on the interact space.
        side = [name for r, name in zip(pool, runes, strict=True)
                if r.side == "side" and not r.icon.startswith("god:")]
        gr = h.god_rune()
        if side or gr is not None:
            altar = self.altar_face_up()
            for r in side:
                for g in altar:
                    out += [f"invoke {g}{d} using {r}" for d in self.power_options(h, g)]
                out.append(f"re-throw the altar using {r}")
            if gr is None:
                for i in range(len(side)):
                    for j in range(i + 1, len(side)):
                        out += [f"buy {g}{GOD_RUNE} with {side[i]} and {side[j]}"
                                for g in altar]
                if side:
                    for gear in h.equipment:
                        god = self.content.items[gear].god
                        if god and god in altar:
                            out += [f"buy {god}{GOD_RUNE} with {r} for {self.iname(gear)}"
                                    for r in side]
            elif gr.place == POOL and gr.face_up:
                with_rune = f" with {self.rname(gr)}"
                out += [f"invoke {gr.god}{d}{with_rune}" for d in self.power_options(h, gr.god)]
                for gear in h.equipment:
                    if self.content.items[gear].god == gr.god:
                        out += [f"invoke {self.iname(gear)}{d}{with_rune}"
                                for d in self.power_options(h, gear)]
            if first and out:
                return out
        # Skills
        for sid, sk in self.all_skills(h):
            out += self.skill_actions(h, sid, sk)
        # Assist an adjacent fallen hero: a physical check with a face up rune; with a face
        # down rune the check cannot be made and counts as failed (ruling 26).
        if not held and runes:  # Hold: only adjacent to the captor
            for o in self.heroes.values():
                oat = o.at
                if o.fallen and not o.fell_this_turn and oat and \
                        max(abs(at[0] - oat[0]), abs(at[1] - oat[1])) == 1:
                    out += [f"assist {o.id} using {r}" for r in runes]
        if first and out:
            return out
        # Free actions: miscellaneous items, the 2-player card.
        items = self.content.items
        out += [f"use {self.iname(i)}" for i in dict.fromkeys(h.misc)
                if items[i].use is not None and not items[i].god]
        if not self.two_player_used and len(self.heroes) == 2:  # two_player_card()
            heroes = [o for o in self.heroes.values() if not o.fallen]
            for eff, head in self.two_player_heads():
                out += [head + o.id for o in heroes if self.effect_useful(o, eff)]
        return out

    def two_player_heads(self) -> list[tuple[Effect, str]]:
        """The 2-player card's effects, each with the head of its action texts
        (``2-player card: heal 2 for ``), built once per content."""
        cached = self.__dict__.get("_2p")
        if cached is None or cached[0] is not self.content:
            heads = [(eff, f"2-player card: {self.two_player_phrase(k)} for ")
                     for k, eff in enumerate(self.content.two_player.effects)]
            cached = self.__dict__["_2p"] = (self.content, heads)
        return cached[1]

    def two_player_phrase(self, k: int) -> str:
        """Effect ``k`` of the 2-player card as action texts write it (``heal 2``)."""
        eff = self.content.two_player.effects[k]
        if eff.kind == "heal":
            return f"heal {eff.value}"
        if eff.kind == "recover_destiny":
            return f"recover {eff.value} destiny"
        return f"effect {k + 1}"

    def effect_useful(self, h: Hero, eff: Effect) -> bool:
        """Whether the effect would change anything for the hero (the 2-player card is not
        offered for nothing)."""
        kind = eff.kind
        if kind == "heal":
            return h.damage > 0
        if kind == "recover_destiny":
            for r in h.runes:  # noqa: SIM110 - a loop, not a generator: a hot path
                if r.place == POOL and r.side == "down":
                    return True
            return False
        return True

    def skill_actions(self, h: Hero, sid: str, sk: SkillData) -> list[str]:
        """Activate a Skill: the runes showing the required icons (face up or sideways; god's
        runes count as blank), destiny to flip, trance tokens to spend."""
        if sk.effect is None or sid in h.turned:
            return []
        needed = []
        for icon in sk.runes:
            r = h.rune(icon)
            if r is None or r.place != POOL or not r.face_up:
                return []
            needed.append(r)
        if sk.destiny and sum(1 for r in h.runes if r.place == POOL and r.face_up
                              and all(r is not k for k in needed)) < sk.destiny:
            return []  # not enough face up runes besides these to pay its destiny
        if h.trance < sk.trance:
            return []
        eff = sk.effect
        base = f"skill {self.names.skill[sid]}"
        if eff.kind == "attack" and not self.armed_weapons(h, list(eff.keywords)):
            return []
        if eff.kind == "move" and h.held_by:
            return []
        if eff.kind == "heal" and h.damage == 0:
            return []
        return [base]

    def interactions(self, h: Hero) -> list[str]:
        """What the interact action can do now (without the rune): search, explore, equip a
        carried card, give a card to an adjacent hero (Interaction)."""
        out = []
        at = h.at
        assert at is not None
        near = [s for s in self.search_tokens
                if max(abs(at[0] - s[0]), abs(at[1] - s[1])) <= 1]
        if len(near) > 1:
            near.sort(key=_reading)
        out += [f"search {self.sqname(s)}" for s in near]
        if self.can_explore(h):
            out.append("explore")
        if not h.misc:
            return out
        for i in h.misc:
            it = self.content.items[i]
            if it.slot != "misc":
                out += [t for t in self.equip_texts(h, i) if t not in out]
        for o in self.ordered():
            # a held hero is adjacent to its captor only (Keywords - Hold): no giving
            if o is h or o.fallen or o.at is None or not self.adjacent(at, o.at) \
                    or len(o.misc) >= 3 or h.held_by or o.held_by:
                continue
            for i in dict.fromkeys(h.misc):
                out.append(f"give {self.iname(i)} to {o.id}")
        return out

    # ------------------------------------------------------------ reading action texts
    def parse_action(self, h: Hero, text: str) -> HeroAct | None:
        """The hero action a text names (grammar: docs/formats/runaljod.md), or None when the
        text follows no template or names something unknown. Legality is not checked."""
        try:
            return self._parse_action(h, text)
        except (KeyError, ValueError, IndexError):
            return None

    def _parse_action(self, h: Hero, text: str) -> HeroAct | None:
        if text == "pass":
            return HeroAct("pass")
        if text.startswith("hand over to "):
            return HeroAct("hand_over", hero=self.heroes[text[13:]].id)
        if text.startswith("skill "):
            return HeroAct("skill", skill=self.skill_of(h, text[6:]))
        if text.startswith("buy "):
            god, sep, rest = text[4:].partition(f"{GOD_RUNE} with ")
            if not sep or god not in self.content.gods:
                return None
            if " for " in rest:
                rune, _, gear = rest.partition(" for ")
                return HeroAct("buy", power=god, paid=(self.icon_of(rune),),
                               item=self.item_id(gear))
            a, _, b = rest.partition(" and ")
            return HeroAct("buy", power=god, paid=(self.icon_of(a), self.icon_of(b)))
        if text.startswith("assist "):
            hero, _, rune = text[7:].partition(" using ")
            return HeroAct("assist", hero=self.heroes[hero].id, rune=self.icon_of(rune))
        if text.startswith("use "):
            return HeroAct("use", item=self.item_id(text[4:]))
        if text.startswith("2-player card: "):
            phrase, _, hero = text[15:].rpartition(" for ")
            ks = [k for k in range(len(self.content.two_player.effects))
                  if self.two_player_phrase(k) == phrase]
            return HeroAct("card2", value=ks[0], hero=self.heroes[hero].id)
        if text.startswith("invoke ") and text.endswith(GOD_RUNE):
            head, _, rune = text.rpartition(" with ")
            power, detail = self._power_what(head[7:])
            return HeroAct("use_god", rune=self.icon_of(rune), power=power, detail=detail)
        head, sep, rune = text.rpartition(" using ")
        if not sep:
            return None
        icon = self.icon_of(rune)
        if head.startswith("move "):
            mp = int(head[5:])
            space = next((s for s, v in self.move_spaces(h) if v == mp), "")
            if not space:
                raise KeyError(mp)
            return HeroAct("move", rune=icon, space=space, value=mp)
        for what, space in (("attack", "attack1"), ("reduced attack", "attack2")):
            if head == what:
                return HeroAct("attack", rune=icon, space=space)
        # interactions and sideways-rune powers: the rune goes to the interact space
        if head.startswith("search "):
            return HeroAct("search", icon, "interact", square=self.parse_sq(head[7:]))
        if head == "explore":
            return HeroAct("explore", icon, "interact")
        if head.startswith("equip "):
            item, replaced = self.equip_what(head[6:])
            return HeroAct("equip", icon, "interact", item=item, replace=replaced)
        if head.startswith("give "):
            item, _, hero = head[5:].rpartition(" to ")
            return HeroAct("give", icon, "interact", item=self.item_id(item),
                           hero=self.heroes[hero].id)
        if head.startswith("invoke "):
            power, detail = self._power_what(head[7:])
            return HeroAct("invoke", icon, "interact", power=power, detail=detail)
        if head == "re-throw the altar":
            return HeroAct("rethrow", icon, "interact")
        return None

    def attack_what(self, text: str) -> tuple[Sq, str]:
        """``attack K3 with bearded axe`` → (K3, its item id)."""
        sq, _, item = text[len("attack "):].partition(" with ")
        return grid.sq(sq), self.item_id(item)

    def _power_what(self, text: str) -> tuple[str, str]:
        """``thor on F3`` → (``thor``, ``F3``); a god's gear by its name."""
        name, _, detail = text.partition(" on ")
        return self.names.power_id[name], detail

    def equip_what(self, text: str) -> tuple[str, tuple[str, ...] | None]:
        """``dane axe replacing sword and round shield`` → the item and the cards it replaces
        (None: those the slot rules determine)."""
        item, sep, rest = text.partition(" replacing ")
        replaced = tuple(self.item_id(t) for t in rest.split(" and ")) if sep else None
        return self.item_id(item), replaced

    def do_action(self, h: Hero, action: str, events: list[Event]) -> None:
        """Carry out one hero action (its rune is placed and used)."""
        act = self.parse_action(h, action)
        if act is None:
            raise ValueError(f"not a hero action: {action!r}")
        k = act.kind
        if act.space:
            r = h.rune(act.rune)
            assert r is not None
            r.place = act.space
        if k == "move":
            self.begin_move(h, act.value, [], events, S_BASIC)
        elif k == "attack":
            self.ask_attack(h, act.space == "attack2", [], [], S_BASIC)
        elif k == "search":
            assert act.square is not None
            self.search(h, act.square, events)
        elif k == "explore":
            self.explore(h, events)
        elif k == "equip":
            self.equip(h, act.item, events, list(act.replace) if act.replace else None)
        elif k == "give":
            h.misc.remove(act.item)
            self.heroes[act.hero].misc.append(act.item)
            events.append(Event("trade", f"{self.hname(h)} gives "
                                f"{self.content.items[act.item].name} to "
                                f"{self.hname(self.heroes[act.hero])}", S_INTERACT))
        elif k == "invoke":
            self.invoke(h, act.power, act.detail, events)
        elif k == "rethrow":
            self.throw_altar(events, f"{self.hname(h)} used a sideways rune")
        elif k == "buy":
            paid = [h.rune(i) for i in act.paid]
            self.buy_god_rune(h, act.power, paid, events, act.item)
            self.capricious(h, events)
        elif k == "use_god":
            r = h.god_rune()
            assert r is not None
            h.runes.remove(r)  # off the board now; back on the altar once the power is done
            self.invoke(h, act.power, act.detail, events, returning=r.god)
        elif k == "use":
            self.use_item(h, act.item, events)
        elif k == "skill":
            self.activate_skill(h, action, events)
        elif k == "assist":
            o = self.heroes[act.hero]
            r = h.rune(act.rune)
            assert r is not None
            if r.face_up:
                _, n = self.check(h, "physical", self.rname(r), events)
            else:
                r.place = "physical"
                n = 0
                events.append(Event("check", f"{self.hname(h)} places {self.rname(r)} face "
                                    "down and cannot perform the physical check: it counts as "
                                    "failed", S_CHECKS, {"hero": h.id, "passed": False}))
            self.raise_hero(o, n, events, S_DAMAGE)
        elif k == "card2":
            eff = self.content.two_player.effects[act.value]
            self.two_player_used = True
            events.append(Event("2p", f"The 2-player card is flipped: {eff.text}", S_TWO))
            self.apply_effect(self.heroes[act.hero], eff, events, S_TWO)
        else:
            raise ValueError(f"not a hero action: {action!r}")

    def activate_skill(self, h: Hero, action: str, events: list[Event],
                       pay: list[Rune] | None = None) -> None:
        """Activate a Skill: place its runes, spend destiny (the hero chooses which runes to
        flip when several sets would do), then resolve the effect."""
        act = self.parse_action(h, action)
        assert act is not None and act.kind == "skill"
        sid = act.skill
        sk = dict(self.all_skills(h))[sid]
        needed = [h.rune(i) for i in sk.runes]
        if pay is None and sk.destiny:
            choices = self.destiny_choices(h, sk.destiny, needed)
            if len(choices) > 1:
                self.ask = {"kind": "destiny", "seat": h.id, "section": S_DESTINY,
                            "prompt": f"{self.hname(h)} activates {sk.name}: choose the "
                                      f"runes to flip face down for {sk.destiny} destiny",
                            "options": ["flip " + " and ".join(self.rname(r) for r in c)
                                        + " face down" for c in choices],
                            "default": None, "pending": action}
                return
            pay = list(choices[0])
        for r in pay or []:
            r.side = "down"
        for r in needed:
            r.place = f"skill:{sid}"
        h.trance -= sk.trance
        if sk.turn:
            h.turned.append(sid)  # turned sideways until the next preparation phase
        events.append(Event("skill", f"{self.hname(h)} activates {sk.name}"
                            + (f", placing {', '.join(self.rname(r) for r in needed)}"
                               if needed else "")
                            + (f", spending {sk.destiny} destiny" if sk.destiny else "")
                            + (f", spending {words.plural(sk.trance, 'trance token')}" if sk.trance else ""),
                            S_SKILL, {"hero": h.id, "skill": sid}))
        eff = sk.effect
        if eff.kind == "attack":
            self.ask_attack(h, False, list(eff.dice), list(eff.keywords), S_SKILL)
        elif eff.kind == "move":
            # a movement bonus (Fleet Foot: "every movement action") counts for skills too
            self.begin_move(h, eff.value + self.move_bonus(h), list(eff.keywords), events,
                            S_SKILL)
        else:
            self.apply_effect(h, eff, events, S_SKILL)

    def flip_up(self, h: Hero, runes: list[Rune], events: list[Event]) -> None:
        """Recover destiny: flip these face down runes of the pool face up (Destiny)."""
        for r in runes:
            r.side = "up"
        events.append(Event("destiny", f"{self.hname(h)} recovers {len(runes)} destiny"
                            + (f", flipping {' and '.join(self.rname(r) for r in runes)} "
                               "face up" if runes else ""), S_DESTINY, {"hero": h.id}))

    def on_destiny_up(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        names = action[len("flip "):-len(" face up")].split(" and ")
        self.flip_up(h, [h.rune(self.icon_of(n)) for n in names], events)

    def on_destiny(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        names = action[len("flip "):-len(" face down")].split(" and ")
        pay = [h.rune(self.icon_of(n)) for n in names]
        self.activate_skill(h, ask["pending"], events, pay=pay)

    def apply_effect(self, h: Hero, eff: Effect, events: list[Event], section: str) -> None:
        if eff.kind == "heal":
            self.heal(h, eff.value, section.lower(), section, events)
        elif eff.kind == "heal_all":
            for o in self.heroes.values():
                self.heal(o, eff.value, section.lower(), section, events)
        elif eff.kind == "recover_destiny":
            down = [r for r in h.pool() if not r.face_up]
            n = min(eff.value, len(down))
            if len(down) > n:
                # "you flip as many runes face up as the recover icons shown": which ones is
                # the hero's choice (Destiny), as for paying destiny (ruling 9)
                self.ask = {"kind": "destiny_up", "seat": h.id, "section": S_DESTINY,
                            "prompt": f"{self.hname(h)} recovers {n} destiny: choose the "
                                      "runes to flip face up",
                            "options": ["flip " + " and ".join(self.rname(r) for r in c)
                                        + " face up" for c in combinations(down, n)],
                            "default": None}
                return
            self.flip_up(h, down, events)
        elif eff.kind == "trance_throw":
            self.trance_throw(h, events)
        elif eff.kind == "mark":
            h.mark = "ready"
            events.append(Event("mark", f"{self.hname(h)} places the mark token (one re-roll)",
                                "Keywords"))
        elif eff.kind == "glory":
            self.gain_glory(h, eff.value, events, section.lower())
        elif eff.kind == "frozen":
            self.give_condition(h, "frozen", events, section)
        elif eff.kind == "spawn":
            self.spawn(eff.type, events, section)
        elif eff.kind == "equipment":
            card = self.draw(self.equipment_deck, S_EQUIP)
            if card is None:
                events.append(Event("equipment", "The equipment deck is empty", S_EQUIP))
                return
            self.found(h, card, events)
        else:
            raise ValueError(f"unknown effect {eff.kind}")

    def use_item(self, h: Hero, item: str, events: list[Event]) -> None:
        it = self.content.items[item]
        h.misc.remove(item)
        events.append(Event("item", f"{self.hname(h)} uses {it.name} and discards it", S_EQUIP))
        self.apply_effect(h, it.use, events, S_EQUIP)

    # ------------------------------------------------------------ equipment
    def replace_options(self, h: Hero, item: str) -> list[list[str]]:
        """Equipment: two hands (or one two-handed card), one torso, one head, one feet.
        Every minimal set of equipped cards that equipping ``item`` would replace; several
        sets (a one-handed card while two one-handed cards are equipped) are the hero's
        choice."""
        from itertools import combinations

        it = self.content.items[item]
        if it.slot != "hands":
            return [[i for i in h.equipment if self.content.items[i].slot == it.slot]]
        hands = [i for i in h.equipment if self.content.items[i].slot == "hands"]
        free = 2 - sum(self.content.items[i].hands for i in hands)
        if free >= it.hands:
            return [[]]
        out: list[list[str]] = []
        for k in range(1, len(hands) + 1):
            for c in combinations(hands, k):
                if free + sum(self.content.items[i].hands for i in c) >= it.hands \
                        and not any(set(o) < set(c) for o in out):
                    out.append(list(c))
        return out

    def slot_conflicts(self, h: Hero, item: str) -> list[str]:
        """The cards replaced by equipping ``item`` when there is no choice (else the first
        set of :meth:`replace_options`)."""
        return self.replace_options(h, item)[0]

    def equip_choices(self, h: Hero, item: str) -> list[str]:
        """How equipping ``item`` can go, as text suffixes: ``""``, or ``" replacing sword"``
        for each choice of replaced cards when there is a choice; only the choices that do not
        make the hero fall (last life point, Damage)."""
        opts = self.replace_options(h, item)
        out = []
        for old in opts:
            lost = sum(self.content.items[o].life for o in old)
            if self.life_left(h) + self.content.items[item].life - lost <= 0:
                continue
            out.append(f" replacing {' and '.join(sorted(self.iname(o) for o in old))}"
                       if len(opts) > 1 else "")
        return out

    def equip_texts(self, h: Hero, item: str) -> list[str]:
        """``equip X`` or ``equip X replacing Y`` for each way to equip ``item``.

        They depend only on the hero, the item, the equipped cards (in order) and the damage
        taken (life left): built once for each of those, shared by every state of the content
        (the legal actions list them on every step while the card waits in a miscellaneous
        space)."""
        cache = content_cache(self.content, "equip texts")
        key = (h.id, item, h.damage, *h.equipment)
        hit = cache.get(key)
        if hit is None:
            if len(cache) > 4096:
                cache.clear()
            hit = cache[key] = tuple(f"equip {self.iname(item)}{c}"
                                     for c in self.equip_choices(h, item))
        return list(hit)

    def can_equip(self, h: Hero, item: str) -> bool:
        """A hero may not unequip an item granting life points if that makes the hero fall."""
        return bool(self.equip_texts(h, item))

    def found(self, h: Hero, item: str, events: list[Event]) -> None:
        it = self.content.items[item]
        events.append(Event("equipment", f"{self.hname(h)} finds {it.name}", S_EQUIP))
        opts = []
        if it.slot != "misc":
            opts += self.equip_texts(h, item)
        if len(h.misc) < 3:
            opts.append(f"keep {self.iname(item)} in miscellaneous")
        opts.append(f"return {self.iname(item)} to the box")
        self.ask = {"kind": "found", "seat": h.id, "section": S_EQUIP, "default": None,
                    "prompt": f"{self.hname(h)} found {it.name}: equip it or keep it?",
                    "options": opts}

    def on_found(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        if action.startswith("equip "):
            item, replaced = self.equip_what(action[len("equip "):])
            h.misc.append(item)
            self.equip(h, item, events, list(replaced) if replaced else None)
        elif action.startswith("keep "):
            h.misc.append(self.item_id(action[len("keep "):-len(" in miscellaneous")]))
        else:
            item = self.item_id(action[len("return "):-len(" to the box")])
            events.append(Event("equipment", f"{self.content.items[item].name} goes back to "
                                "the box", S_EQUIP))

    def equip(self, h: Hero, item: str, events: list[Event],
              replace: list[str] | None = None) -> None:
        """Equip a card from the miscellaneous spaces; replaced cards (the hero's choice when
        several would do) go to the miscellaneous spaces (at most 3) or back to the box."""
        h.misc.remove(item)
        for old in replace if replace is not None else self.slot_conflicts(h, item):
            h.equipment.remove(old)
            if len(h.misc) < 3:
                h.misc.append(old)
            events.append(Event("equipment", f"{self.hname(h)} unequips "
                                f"{self.content.items[old].name}", S_EQUIP))
        h.equipment.append(item)
        events.append(Event("equipment", f"{self.hname(h)} equips "
                            f"{self.content.items[item].name}", S_EQUIP))

    # ------------------------------------------------------------ movement
    def begin_move(self, h: Hero, points: int, keywords: list[str], events: list[Event],
                   section: str) -> None:
        assert h.at is not None
        ice = 1 if self.terrain.get(h.at) == "i" else 0
        events.append(Event("move", f"{self.hname(h)} gets {words.plural(points, 'movement point')}", section,
                            {"hero": h.id}))
        self.ask = {"kind": "move", "seat": h.id, "section": S_MOVE, "points": points,
                    "ice": ice, "path": [list(h.at)], "keywords": keywords,
                    "prompt": "", "options": [], "default": None}
        self.refresh_move()

    def move_steps(self, h: Hero, at: Sq, points: int, kw: tuple[str, ...],
                   steps: Callable[[Sq], list[tuple[Sq, int]]] | None = None,
                   can_end: Callable[[Sq], bool] | None = None) -> list[Sq]:
        """The squares the hero may step to with ``points`` left: a legal step after which
        the movement can still end on a square where the hero may stop (Movement; Terrain).
        ``steps``, ``can_end``: the hero's steps (:meth:`hero_steps_fn`) and stopping test
        when the caller has them already."""
        steps = steps or self.hero_steps_fn(h, kw)
        can_end = can_end or self.hero_end_test(h)
        bonfires = self.bonfires if self.life_left(h) <= 1 else ()
        out = []
        for n, c in steps(at):
            if c > points:
                continue
            if n in bonfires:
                continue  # a hero may not lose their last life point on purpose
            if can_end(n) or self._can_end_within(n, points - c, steps, can_end):
                out.append(n)
        if len(out) > 1:
            out.sort(key=_reading)
        return out

    def _can_end_within(self, start: Sq, points: int,
                        steps: Callable[[Sq], list[tuple[Sq, int]]],
                        can_end: Callable[[Sq], bool]) -> bool:
        """Whether a movement at ``start`` (where the hero cannot stop) with ``points`` left
        can reach a square where it may stop: the cheapest route first, up to ``points``."""
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            d, s = heapq.heappop(heap)
            if d > best[s]:
                continue
            for n, c in steps(s):
                if d + c > points or d + c >= best.get(n, points + 1):
                    continue
                if can_end(n):
                    return True
                best[n] = d + c
                heapq.heappush(heap, (d + c, n))
        return False

    def refresh_move(self, steps: Callable[[Sq], list[tuple[Sq, int]]] | None = None
                     ) -> None:
        """The options of a movement in progress from where the hero stands; ``steps``: the
        hero's steps when the caller has them (the other figures have not moved)."""
        ask = self.ask
        h = self.heroes[ask["seat"]]
        assert h.at is not None
        end_test = self.hero_end_test(h)
        nxt = self.move_steps(h, h.at, ask["points"], tuple(ask["keywords"]), steps, end_test)
        can_end = end_test(h.at)  # the hero's own square: hero_can_end
        opts = [f"step {self.sqname(s)}" for s in nxt]
        if can_end:
            opts.append("end move")
        ask["options"] = opts
        ask["prompt"] = (f"{self.hname(h)} moves from {self.sqname(h.at)} with "
                         f"{words.plural(ask['points'], 'movement point')} left")
        if can_end and not nxt:
            self.ask = None  # nothing left to do: the movement ends

    def on_move(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        if action == "end move":
            return
        to = self.parse_sq(action[len("step "):])
        frm = h.at
        assert frm is not None
        steps = self.hero_steps_fn(h, tuple(ask["keywords"]))
        cost = next(c for n, c in steps(frm) if n == to)
        ask["points"] -= cost
        h.at = to
        for e in self.enemies:
            if e.captor == h.id:
                e.at = to  # a held enemy moves with its captor
        ask["path"].append(list(to))
        events.append(Event("step", f"{self.hname(h)} steps to {self.sqname(to)} ("
                            f"{words.plural(cost, 'point')}, {ask['points']} left)", S_MOVE, {"hero": h.id}))
        self.ask = ask
        if self.enter_square(h, to, ask, events):
            # the other figures stand where they stood, unless a held enemy moved along
            self.refresh_move(None if h.captive else steps)

    def enter_square(self, h: Hero, to: Sq, ask: dict, events: list[Event]) -> bool:
        """Terrain on entering a square: bonfires (adjacent: frozen removed; on it: -1 life)
        and ice (a physical check from the second ice space). False if movement stops."""
        if any(grid.chebyshev(to, b) <= 1 for b in self.bonfires) and "frozen" in h.conditions:
            h.conditions.remove("frozen")
            events.append(Event("bonfire", f"{self.hname(h)} passes a bonfire: the frozen token "
                                "is removed", S_TERRAIN))
        if to in self.bonfires:
            self.lose_life(h, 1, "moving through a bonfire", S_TERRAIN, events,
                           ("bonfire", "terrain"))
        if h.fallen:
            self.ask = None
            return False
        if self.terrain.get(to) == "i" and "jump" not in ask["keywords"]:
            ask["ice"] += 1
            if ask["ice"] >= 2:
                opts = [f"physical check using {self.rname(r)}" for r in
                        self.distinct(h, face_up=True)]
                self.ask = {"kind": "ice", "seat": h.id, "section": S_TERRAIN,
                            "prompt": f"{self.hname(h)} enters a second ice space: physical "
                                      "check (a failure sends you back, ends the movement and "
                                      "gives a frozen token)",
                            "options": opts + ["fail the check"], "default": None,
                            "move": ask}
                return False
        return True

    def on_ice(self, action: str, ask: dict, events: list[Event]) -> None:
        h = self.heroes[ask["seat"]]
        mv = ask["move"]
        ok = False
        if action.startswith("physical check using "):
            ok, _ = self.check(h, "physical", action[len("physical check using "):], events)
        if ok:
            self.ask = mv
            self.refresh_move()
            return
        path = [tuple(p) for p in mv["path"]][:-1]
        while len(path) > 1 and not self.hero_can_end(h, path[-1]):
            path.pop()
        h.at = path[-1]
        events.append(Event("ice", f"{self.hname(h)} slips back to {self.sqname(h.at)}: the "
                            "movement ends", S_TERRAIN))
        self.give_condition(h, "frozen", events, S_TERRAIN)

    # ------------------------------------------------------------ interaction
    def search(self, h: Hero, s: Sq, events: list[Event]) -> None:
        """Search: discard the token and draw the top card of the search deck."""
        self.search_tokens.remove(s)
        card = self.draw(self.search_deck, S_INTERACT)
        if card is None:
            events.append(Event("search", "The search deck is empty", S_INTERACT))
            return
        self.search_deck.to_discard(card)
        sc = self.content.search[card]
        events.append(Event("search", f"{self.hname(h)} searches {self.sqname(s)}: {sc.name} - "
                            f"{sc.text}", S_INTERACT, {"card": card}))
        for eff in sc.effects:
            self.apply_effect(h, eff, events, S_INTERACT)

    def can_explore(self, h: Hero, need_exit: bool = True) -> bool:
        """Explore: next to the exit of the last tile, nobody on the previous tile, no active
        exploration card, and a card left in the exploration deck."""
        if self.active_card or not len(self.exploration) or h.at is None:
            return False
        if need_exit:
            at = h.at
            if not any(max(abs(at[0] - s[0]), abs(at[1] - s[1])) <= 1
                       for s in self.board.exits):
                return False
        if len(self.tiles) == 2:
            if any(o.at is not None and self.tile_of(o.at) == 0 for o in self.heroes.values()):
                return False
            if any(self.tile_of(q) == 0 for e in self.enemies for q in e.squares):
                return False
        return True

    def explore(self, h: Hero, events: list[Event]) -> None:
        """Place the next exploration card: time back to a snake, attach the tile, discard the
        oldest tile with everything on it, place the elements by hero count."""
        card_id = self.draw(self.exploration, S_INTERACT)
        assert card_id is not None
        card = self.content.exploration[card_id]
        self.active_card = card_id
        self.cards_played.append(card_id)
        events.append(Event("explore", f"{self.hname(h)} explores: {card.name} - {card.text}",
                            S_INTERACT, {"card": card_id}))
        back = max([s for s in self.content.altar.snakes if s <= self.time], default=0)
        if back != self.time:
            events.append(Event("time", f"The time token moves back from {self.time} to "
                                f"{back}", S_INTERACT))
            self.time = back
        last = self.tiles[-1]
        x = last.x + len(self.content.tiles[last.tile].rows[0])
        self.tiles.append(type(last)(card.tile, card_id, x))
        if len(self.tiles) > 2:
            gone = self.tiles.pop(0)
            w = len(self.content.tiles[gone.tile].rows[0])
            inside = lambda s: gone.x <= s[0] < gone.x + w  # noqa: E731
            self.enemies = [e for e in self.enemies if not any(inside(q) for q in e.squares)]
            self.search_tokens = [s for s in self.search_tokens if not inside(s)]
            self.bonfires = [s for s in self.bonfires if not inside(s)]
            for o in self.heroes.values():
                if o.at is not None and inside(o.at):
                    o.at = None  # cannot happen for a legal exploration; kept safe
            events.append(Event("explore", f"The oldest tile "
                                f"({self.content.tiles[gone.tile].name}) is discarded with "
                                "everything on it", S_INTERACT))
        self.place_elements(card_id, x, events)

    def place_elements(self, card_id: str, x: int, events: list[Event]) -> None:
        card = self.content.exploration[card_id]
        n = len(self.heroes)
        for el in card.elements:
            if n not in el.heroes:
                continue
            s = grid.sq(el.at)
            s = (s[0] + x, s[1])
            if el.kind == "enemy":
                also = None
                if el.also:
                    a = grid.sq(el.also)
                    also = (a[0] + x, a[1])
                self.place_enemy(el.type, s, events, S_INTERACT, also)
            elif el.kind == "search":
                self.search_tokens.append(s)
            elif el.kind == "bonfire":
                self.bonfires.append(s)

    def on_enemy_removed(self, events: list[Event]) -> None:
        """Authored exploration cards are discarded once no enemy is left in play."""
        if self.active_card and not self.enemies:
            card = self.content.exploration[self.active_card]
            if card.discard_when_cleared:
                events.append(Event("explore", f"No enemy is left: the exploration card "
                                    f"{card.name} is discarded", S_INTERACT))
                self.active_card = ""

    def two_player_card(self) -> bool:
        return len(self.heroes) == 2

    # ------------------------------------------------------------ 5. final phase
    def final_phase(self, events: list[Event]) -> None:
        """Unused runes in the destiny pool are flipped face up; sideways stay sideways.
        An unused Cheru bonus ("your next melee attack this phase", God's Powers) is lost."""
        for h in self.heroes.values():
            for r in h.pool():
                if r.side == "down":
                    r.side = "up"
            if "cheru" in h.bonus:
                h.bonus.remove("cheru")
                events.append(Event("power", f"{self.hname(h)} made no melee attack this "
                                    "phase: Cheru's bonus is lost", "God's Powers"))
                self.return_after_attack(h, "cheru", events, "as the bonus is lost")
        events.append(Event("final", "Heroes' final phase: unused runes are flipped face up",
                            "Heroes Turn"))
        for h in self.heroes.values():
            self.capricious(h, events)
