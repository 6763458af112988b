"""For people: readable labels and board targets of every legal action, and the seats.

Action texts stay the stable ids (docs/formats/battleforge.md, "Action texts"); ``_describe``
turns one into a sentence with the numbers the rules give (dice pool, Movement Points, Damage
blocked, Health healed) and the :class:`~meadhall.core.protocol.Target`s it involves, named as
:mod:`.drawing` draws them: ``area:D5``, ``figure:A1`` (a minion), ``figure:ragnar`` (a champion),
``figure:thor`` and ``figure:thor-red`` (a Face), ``rondel:ragnar:3`` (a rondel space),
``card:ragnar-human`` (a Form card and its Special Skill), ``die:attack-2`` (a die of the attack
being resolved) and ``option:<slug>`` for choices with no place on the table.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from meadhall.core import jsontext
from meadhall.core.jsontext import ENCODE, STRING_TEXT, splice
from meadhall.core.protocol import RESULT, Action, GameState, Target
from meadhall.core.words import plural

from .basics import MAX_HEALTH, TRANSFORM_FURY

SOLO_SEAT = "solo"
"""The one person's seat in solo mode (``players: 1``), who runs both champions."""

FACE_NOTES = {
    "orange": "Orange: 1 die fewer",
    "red": "Red: a die turns to Counterattack",
    "yellow": "Yellow: at most 2 Damage",
    "green": "Green: no Counterattack",
    "blue": "Blue: Counterattacks become Damage",
    "purple": "Purple: +1 white die allowed",
}


SYMBOL_LETTER = {"triangle": "t", "square": "s", "circle": "c", "end": "E"}
"""Letters of the Rounds track's symbols in the terminal."""
ICON_SHORT = {"melee": "Mel", "ranged": "Rng", "ritual": "Rit", "heal": "Hea",
              "defense": "Def", "reroll": "Rer"}
COMPASS = ("NE", "E", "SE", "SW", "W", "NW")


def wrap(line: str, width: int = 99) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns (indented after
    the first)."""
    import textwrap

    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False,
                         drop_whitespace=True) or [""]


@lru_cache(maxsize=4096)
def option_id(text: str) -> str:
    """The ``option:`` target id of a choice with no place: its text as a slug."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@lru_cache(maxsize=4096)
def _option(text: str, note: str) -> Target:
    """The ``option:`` target of a choice (targets are immutable: one object per text)."""
    return Target("option", option_id(text), note)


_IS_RESULT = operator.methodcaller("startswith", RESULT)
"""Whether an option is a table-mode result (``result ...``)."""
_RONDEL_TARGETS: dict[tuple[str, int, str], Target] = {}
""":meth:`Presentation.rondel_target` per champion, space and note."""


class Presentation:
    """Mixin of :class:`BattleForgeState`: labels, targets and seats."""

    # ------------------------------------------------------------------ seats
    def seats(self) -> list[str]:
        """One seat per champion; in solo mode (``players: 1``) one seat runs both."""
        if self.setup.get("players") == 1:
            return [SOLO_SEAT]
        return list(self.order)

    def seat_of(self, decision_seat: str) -> str:
        if self.setup.get("players") == 1 and decision_seat in self.champs:
            return SOLO_SEAT
        return decision_seat

    def measures(self) -> dict[str, Any]:
        """For the simulation lab (see :func:`.evaluation.measures`)."""
        from .evaluation import measures

        return measures(self)

    # ------------------------------------------------------------------ targets
    def rondel_target(self, cid: str, space: int, note: str = "") -> Target:
        """Rondel space ``space`` (0-based) of champion ``cid`` (targets are immutable: one
        object per champion, space and note)."""
        key = (cid, space, note)
        found = _RONDEL_TARGETS.get(key)
        if found is None:
            if len(_RONDEL_TARGETS) >= 20_000:
                _RONDEL_TARGETS.clear()
            found = _RONDEL_TARGETS[key] = Target("rondel", f"{cid}:{space + 1}", note)
        return found

    def skill_target(self, cid: str, name: str) -> Target:
        """The Form card whose Special Skill is called ``name``."""
        form = "human" if self.skill_of(cid, "human").name == name else "berserker"
        left = self.champs[cid].charges[form]
        return Target("card", f"{cid}-{form}", f"{left} charge{'s' if left != 1 else ''}")

    @staticmethod
    def option(text: str, note: str = "") -> Target:
        return _option(text, note)

    def space_text(self, cid: str, space: int) -> str:
        return "/".join(self.space_icons(cid, space))

    def cubes_text(self, cid: str, space: int, icon: str) -> tuple[int, str]:
        """The strength of ``icon`` from ``space`` and how it is made up (cubes and Boon)."""
        n = len(self.champs[cid].rondel[space])
        bonus = self.boon_bonus(cid, space, icon)
        what = plural(n, "cube") + (f" + {bonus} Boon" if bonus else "")
        return n + bonus, what

    # ------------------------------------------------------------------ describe
    def _describe(self, text: str) -> tuple[str, tuple[Target, ...]]:
        a = self.ask
        if a is None:
            return text, ()
        fn = getattr(self, "d_" + a["h"], None)
        try:
            label, targets = fn(text, a) if fn is not None else (text, [])
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            # An option a hand-written position offers that the rules would word otherwise:
            # it keeps its text as its label.
            label, targets = text, []
        if not targets:
            targets = [self.option(text)]
        return label, tuple(targets)

    def d_skill(self, cid: str, text: str) -> tuple[str, list[Target]]:
        """``skill <Skill>`` in any window."""
        name = text[len("skill "):]
        form = "human" if self.skill_of(cid, "human").name == name else "berserker"
        sk = self.skill_of(cid, form)
        left = self.champs[cid].charges[form]
        waste = self.skill_waste(cid, sk.effect)
        return (f"{self.cname(cid)} uses {name} ({left} of 3 charges; 1 is spent): {sk.text}"
                + (f" ({waste})" if waste else ""), [self.skill_target(cid, name)])

    def skill_waste(self, cid: str, effect: str) -> str:
        """Why using a Special Skill now would do nothing (or only part of it), for its label;
        empty when it does what it says. The rules allow it all the same (Special Skills)."""
        a = self.ask or {}
        mine = a.get("h") == "turn" and a.get("seat") == cid
        h = self.champs[cid].health
        if effect == "heal_1_temp" and h >= MAX_HEALTH:
            return "already at full Health: only the Temporary Cube"
        if effect in ("add_red_2", "long_reach", "heal_other") and mine \
                and (self.turn or {}).get("actions", 0) <= 0:
            return "does nothing now: no Action is left this turn"
        if effect == "heal_other" and mine and not self.heal_others(cid):
            return "does nothing now: no other Champion in your Area or an adjacent one"
        return ""

    def d_turn(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        c = self.champs[cid]
        name = self.cname(cid)
        p = text.split()
        if text.startswith("skill "):
            return self.d_skill(cid, text)
        if text == "end turn":
            return f"{name} ends the turn", []
        if text == "relocate":
            return (f"{name} Relocates 1 or 2 Action Cubes (Strategic Action; "
                    f"{plural(self.turn['actions'], 'Action')} left)", [])
        if text == "taunt":
            d = self.board.direction(self.thor_area, c.area)
            now = self.face_at(d) if d is not None else "red"
            was = "" if now == "red" else f", where his {now} Face was,"
            return (f"{name} Taunts Thor: his Red Face turns toward {c.area}{was} and {name} "
                    "receives 1 Temporary Cube", [Target("figure", "thor", "Taunt")])
        space = int(p[p.index("space") + 1]) - 1
        if p[0] in ("melee", "ranged"):
            return self.d_attack(cid, p[0], space, self.target_id(text.split(" at ", 1)[1]))
        if p[0] == "ritual":
            n, what = self.cubes_text(cid, space, "ritual")
            charges = n // 3
            label = (f"{name} performs a Ritual with space {space + 1} ({what}): recovers "
                     f"{plural(charges, 'Special Skill charge')}")
            if c.area in self.board.altars and c.area not in c.offerings:
                label += f" and makes an Offering at the altar in {c.area} (a Boon)"
            return label, [self.rondel_target(cid, space, f"{charges} charge")]
        if p[0] == "heal":
            who = self.champion_id(text[5:].rsplit(" with space ", 1)[0]) \
                if " with space " in text else cid
            n, what = self.cubes_text(cid, space, "heal")
            n = max(1, n)
            h = self.champs[who].health
            got = max(0, min(n, MAX_HEALTH - h))
            whom = "" if who == cid else f" {self.cname(who)}"
            targets = [self.rondel_target(cid, space, f"+{got} Health")]
            if who != cid:
                targets.append(Target("figure", who, f"+{got} Health"))
            if not got:  # allowed, but it heals nothing: say so (no silent waste)
                return (f"{name} heals{whom} with space {space + 1} ({what}): heals nothing, "
                        f"{'already' if who == cid else self.cname(who) + ' is'} at full "
                        f"Health ({h}/{MAX_HEALTH})", targets)
            return (f"{name} heals{whom} with space {space + 1} ({what}): +{got} Health "
                    f"({h} -> {h + got}, at most {MAX_HEALTH})", targets)
        if p[0] == "move":
            pts = max(1, len(c.rondel[space]) + c.attrs["movement"])
            extra = f" + {c.attrs['movement']} Movement Attribute" if c.attrs["movement"] else ""
            return (f"{name} Moves with space {space + 1} ({plural(len(c.rondel[space]), 'cube')}"
                    f"{extra}): {plural(pts, 'Movement Point')}",
                    [self.rondel_target(cid, space, f"{pts} MP")])
        return text, []

    def d_attack(self, cid: str, kind: str, space: int, target: str
                 ) -> tuple[str, list[Target]]:
        """An attack: the dice pool the Attack Resolution script builds and what the target
        does to it (Health left, Counterattack, the Face's effect, Thor's Passive)."""
        c = self.champs[cid]
        n, what = self.cubes_text(cid, space, kind)
        red = c.attrs["red"] + self.turn.get("add_red", 0)
        green = c.attrs["green"]
        pool = [f"{n} white"] + ([f"{red} red"] if red else []) + \
            ([f"{green} green"] if green else [])
        notes: list[str] = []
        if target.startswith("thor-"):
            face = target[5:]
            hp = self.face_health()
            left = hp - self.thor["damage"][face]
            others = len([f for f in self.thor["destroyed"] if f != face])
            notes.append(f"{left}/{hp} Health left")
            notes.append(FACE_NOTES[face])
            if others:
                notes.append(f"Passive: -{others} Damage")
            notes.append(f"Counterattack {self.content.god.counter}")
        else:
            m = self.minions[target]
            side = self.minion_side(m.type)
            notes.append(f"{side.health - m.damage}/{side.health} Health left")
            notes.append(f"Counterattack {side.counter}")
            notes.append(f"{side.fury} Fury if Destroyed")
        dice = "+".join([x.split()[0] + x.split()[1][0].upper() for x in pool])
        label = (f"{self.cname(cid)}: {kind} Attack on {self.target_name(target)} with space "
                 f"{space + 1} ({what}): roll {', '.join(pool)} "
                 f"{'die' if n + red + green == 1 else 'dice'}; {'; '.join(notes)}")
        return label, [self.rondel_target(cid, space, dice), Target("figure", target, dice)]

    def d_step(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        c = self.champs[cid]
        if text == "stop moving":
            pts = self.turn.get("move", 0)
            return (f"{self.cname(cid)} ends the Move Action in {c.area}"
                    + (f" ({plural(pts, 'Movement Point')} lost)" if pts else ""), [])
        to = text.split()[-1]
        cost = self.leave_cost(c.area)
        left = self.turn.get("move", 0) - cost
        extra = ""
        if cost > 1:
            extra += f", {cost - 1} more to leave enemies in {c.area}"
        if to == self.thor_area:
            extra += "; Thor's Area: it must be left again"
        tok = self.tokens.get(to)
        if tok in ("heat", "flame"):
            extra += "; its Heat token deals 4 Damage"
        elif tok == "freeze":
            extra += "; its Freeze token gives a Frost Cube"
        return (f"{self.cname(cid)} steps to {to} ({cost} MP{extra}; {left} left)",
                [Target("area", to, f"{cost} MP")])

    def d_place(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        t = self.tasks[0] if self.tasks and self.tasks[0].get("t") == "place" else {}
        kind = (t.get("kinds") or ["c"])[0]
        cid = a["seat"]
        space = int(text.split()[-1]) - 1
        word = {"t": "a Temporary Cube", "f": "a Frost Cube", "c": "an Action Cube"}[kind]
        have = len(self.champs[cid].rondel[space])
        return (f"{self.cname(cid)} places {word} in space {space + 1} "
                f"({self.space_text(cid, space)}; {have} -> {plural(have + 1, 'cube')})",
                [self.rondel_target(cid, space, plural(have + 1, "cube"))])

    def d_boon(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        space = int(text.split()[-1]) - 1
        if text.startswith("greater "):
            sym = self.champs[cid].boons[space]["symbol"]
            return (f"{self.cname(cid)} flips the {sym} Boon in space {space + 1} to its "
                    "Greater side (+2)", [self.rondel_target(cid, space, "+2")])
        sym = text.split()[0]
        return (f"{self.cname(cid)} places a Minor {sym} Boon (+1) in space {space + 1} "
                f"({self.space_text(cid, space)})", [self.rondel_target(cid, space, "+1")])

    def d_attr(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        from .champions_phase import ATTRIBUTE_TEXT

        cid = a["seat"]
        attr = next(k for k, v in ATTRIBUTE_TEXT.items() if v == text)
        have = self.champs[cid].attrs[attr]
        word = {"green": "Green Dice", "red": "Red Dice", "movement": "Movement"}[attr]
        return f"{self.cname(cid)} upgrades the {word} Attribute ({have} -> {have + 1})", []

    def d_roll(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        p = text.split()
        return (f"{self.cname(a['seat'])} rolls {p[1]} white, {p[3]} red and {p[5]} green "
                "dice", [])

    def d_manage(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        if text.startswith("skill "):
            return self.d_skill(cid, text)
        if text == "keep the dice":
            return f"{self.cname(cid)} keeps the dice as rolled", []
        space = int(text.split()[-1]) - 1
        n, what = self.cubes_text(cid, space, "reroll")
        return (f"{self.cname(cid)} performs a Reroll Reaction with space {space + 1} "
                f"({what}): reroll up to {plural(n, 'die')} (not a Counterattack side, no die "
                "twice)", [self.rondel_target(cid, space, f"{n} rerolls")])

    def die_target(self, i: int) -> Target:
        d = self.atk["dice"][i] if self.atk else ["?", "?"]
        return Target("die", f"attack-{i + 1}", f"{d[0]} {d[1]}")

    def d_pick(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        if text.endswith("the chosen dice"):
            return (f"{self.cname(a['seat'])} {text.split()[0]}s the chosen dice now", [])
        i = int(text.split()[-1]) - 1
        d = self.atk["dice"][i]
        if text.startswith("change"):
            return (f"Change die {i + 1} ({d[0]}, {d[1].replace('_', ' ')}) to Double Damage",
                    [self.die_target(i)])
        return f"Choose die {i + 1} ({d[0]}, {d[1].replace('_', ' ')}) to reroll", [self.die_target(i)]

    def d_redface(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        i = int(text.split()[2]) - 1
        d = self.atk["dice"][i]
        return (f"Red Face: die {i + 1} ({d[0]}, {d[1].replace('_', ' ')}) turns to its Counterattack side",
                [self.die_target(i)])

    def d_window(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        if text.startswith("skill "):
            return self.d_skill(a["seat"], text)
        return f"{self.cname(a['seat'])} does not use a Special Skill now", []

    d_anytime = d_window

    def d_anytime_lose(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        if text.startswith("skill "):
            return self.d_skill(a["seat"], text)
        cid = a["seat"]
        n = int(text.split()[1])
        h = self.champs[cid].health
        return (f"{self.cname(cid)} loses {plural(n, 'Health Point')} ({h} -> {max(0, h - n)})",
                [])

    def d_skill_prevent(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        seat = a["seat"]
        t = self.tasks[0] if self.tasks else {}
        if text == "pass":
            return f"{self.cname(seat)} lets the Damage through", []
        name, who = text[4:].rsplit(" for ", 1)
        n = t.get("n", 0)
        return (f"{self.cname(seat)} uses {name}: prevents {min(2, n)} of the {n} Damage to "
                f"{who}", [self.skill_target(seat, name),
                           Target("figure", self.champion_id(who), f"-{min(2, n)}")])

    def d_defend(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        t = self.tasks[0] if self.tasks else {}
        n = t.get("n", 0)
        h = self.champs[cid].health
        if text.startswith("skill "):
            return self.d_skill(cid, text)
        if text.startswith("take "):
            return (f"{self.cname(cid)} takes the {n} Damage without a Defense Reaction "
                    f"(Health {h} -> {max(0, h - n)})", [])
        space = int(text.split()[-1]) - 1
        s, what = self.cubes_text(cid, space, "defense")
        blocked = min(s, n)
        return (f"{self.cname(cid)} Defends with space {space + 1} ({what}): blocks "
                f"{blocked} of the {n} Damage (Health {h} -> {max(0, h - n + blocked)})",
                [self.rondel_target(cid, space, f"blocks {blocked}")])

    def d_block(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        t = self.tasks[0] if self.tasks else {}
        k = int(text.split()[1])
        n = t.get("n", 0)
        return (f"{self.cname(cid)} Defends {k} of the {n} Damage and loses {n - k} Health"
                + (" (losing any Health to a Heat token also brings a Temporary Cube)"
                   if t.get("heat") and n - k > 0 else ""), [])

    def d_arrange(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        space = int(text.split()[-1]) - 1
        if text.startswith("Action"):
            return (f"{self.cname(cid)} re-places an Action Cube in space {space + 1}; it stays",
                    [self.rondel_target(cid, space, "Action Cube")])
        return (f"{self.cname(cid)} re-places a temporary/frost cube in space {space + 1}; it "
                "is then discarded", [self.rondel_target(cid, space, "discarded")])

    def d_relocate(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        if text == "done relocating":
            return f"{self.cname(cid)} stops relocating", []
        p = text.split()
        x, y = int(p[-4]) - 1, int(p[-1]) - 1
        word = "a Temporary Cube" if p[1] == "temporary" else "an Action Cube"
        return (f"{self.cname(cid)} relocates {word} from space {x + 1} to space {y + 1}",
                [self.rondel_target(cid, x, "from"), self.rondel_target(cid, y, "to")])

    def d_stun_take(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        space = int(text.split()[-1]) - 1
        word = text.split()[2]
        word = {"cube": "an Action Cube", "temporary": "a Temporary Cube",
                "frost": "a Frost Cube"}[word]
        return (f"{self.cname(cid)} sets {word} from space {space + 1} aside in the centre "
                "until the end of their next turn", [self.rondel_target(cid, space)])

    def d_shift(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        t = self.tasks[0] if self.tasks else {}
        to = text.split()[-1]
        word = "toward" if t.get("dir", -1) < 0 else "away from"
        return (f"{self.cname(a['seat'])} is moved {word} Thor to {to}",
                [Target("area", to)])

    def d_charge(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        cid = a["seat"]
        name = text[len("recharge "):]
        return (f"{self.cname(cid)} recovers 1 charge of {name}", [self.skill_target(cid, name)])

    def d_god_to(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        to = text.split()[-1]
        push = self.occupied(to)
        return (f"Thor moves to {to} (the First Champion chooses among equally close Areas"
                + ("; everyone there is pushed out)" if push else ")"),
                [Target("area", to)])

    def d_god_push(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        who, to = text[len("push "):].rsplit(" to ", 1)
        fid = self.figure_id(who)
        tok = self.tokens.get(to)
        extra = ""
        if fid in self.champs and tok in ("heat", "flame"):
            extra = "; its Heat token deals 4 Damage"
        elif fid in self.champs and tok == "freeze":
            extra = "; its Freeze token gives a Frost Cube"
        return (f"Push {who} out of Thor's way to {to}{extra}",
                [Target("area", to), Target("figure", fid)])

    def d_minion_step(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        who, to = text.rsplit(" to ", 1)
        mid = self.target_id(who)
        return (f"{who} steps to {to} (one of its equally short paths to its Target)",
                [Target("area", to), Target("figure", mid)])

    def d_minion_stand(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        who, to = text.rsplit(" to ", 1)
        return (f"{who} Stands in {to}, next to its Spawning Area that Thor occupies",
                [Target("area", to), Target("figure", self.target_id(who))])

    def d_attack_order(self, text: str, a: dict[str, Any]) -> tuple[str, list[Target]]:
        who = text[len("resolve attack of "):]
        mid = self.target_id(who)
        side = self.minion_side(self.minions[mid].type)
        return (f"Resolve the Attack of {who} ({side.damage} Damage) next",
                [Target("figure", mid, f"{side.damage} Damage")])

    def fury_text(self, cid: str) -> str:
        c = self.champs[cid]
        track = self.upgrade_track(cid)
        nxt = min((k for k in track if k > c.fury), default=None)
        form = "Berserker" if c.form == "berserker" else f"Human (transforms at {TRANSFORM_FURY})"
        return f"{c.fury}" + (f" (next Upgrade at {nxt})" if nxt else "") + f", {form}"

    # ------------------------------------------------------------------ the view
    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The public table (nothing here is hidden from anyone but the order of the Event and
        God decks and the numbers under unlit Furnaces): the position without those, plus
        what the physical table shows printed (the map, cards, rondel icons, the Rounds track)
        and the legal actions with their labels and targets.

        Built from parts remembered per content and map (:func:`_printed`) and per question
        (:meth:`_asked`); every call hands out fresh dicts and lists, in the key order of the
        position (``_dump``) followed by the printed parts."""
        return self._view_pos(False)

    def repetition_text(self) -> str:
        """Exactly the text of :meth:`meadhall.core.protocol.GameState.repetition_text`,
        ``json.dumps([decision, view(None)], sort_keys=True, default=str,
        separators=(",", ":"))``, written faster: the view is built with a mark
        (:func:`~meadhall.core.jsontext.mark`) in place of each printed part and of the described decision, whose
        JSON texts are remembered (per :class:`_Printed`, per question), so only the small rest
        is encoded at each decision. Sorted keys make the text of a dict its sorted
        ``"key":value`` pairs, so a part's text can go where its mark was written."""
        pos = self._view_pos(True)
        texts = pos.pop(_TEXTS_KEY)
        d = self.decision()
        dj = d.to_json() if d else None
        text = splice([dj, pos], {str(i): t for i, t in enumerate(texts)})
        # None: a text starting with NUL, written plainly
        return GameState.repetition_text(self) if text is None else text

    def _view_pos(self, marked: bool) -> dict[str, Any]:
        """:meth:`view`'s dict; ``marked`` (for :meth:`repetition_text`): with the mark
        ``"\\0<n>"`` in place of each printed part and of the decision, whose texts are
        listed under :data:`_TEXTS_KEY` (the n-th text for mark n)."""
        pr = _printed(self.content, self.board, self.setup["scenario"])
        texts: list[str] = []

        def mark(text: str) -> str:
            texts.append(text)
            return jsontext.mark(str(len(texts) - 1))

        th = self.thor
        dmg = th["damage"]
        destroyed = th["destroyed"]
        champs = {}
        solo = self.setup.get("players") == 1
        for cid in self.order:
            c = self.champs[cid]
            if marked:  # the champion's text, kept by the values it is written from
                key = ("champion", cid, solo, c.name, c.colour, c.board, c.berserker, c.area,
                       c.health, c.fury, c.form, tuple(map("".join, c.rondel)),
                       tuple([tuple(b.items()) if b else None for b in c.boons]),
                       tuple(c.tokens_left), tuple(c.attrs.items()),
                       tuple(c.charges.items()), tuple(c.centre), c.stunned,
                       tuple(c.offerings), c.supply)
                found = pr.found(key)
                if found is not None:
                    champs[cid] = mark(found)
                    continue
            hf, bz = pr.forms[cid], pr.berserkers[c.berserker]
            ups = pr.human_ups[cid] if c.form == "human" else pr.berserker_ups[c.berserker]
            fury = c.fury
            nxt = None
            for k in ups:
                if k > fury:
                    nxt = k
                    break
            # Champion.to_json's keys, then the view's own (seat_of, the printed spaces and
            # Forms, the next Upgrade), in one dict.
            champ = {
                "name": c.name, "colour": c.colour, "board": c.board,
                "berserker": c.berserker, "area": c.area, "health": c.health,
                "fury": fury, "form": c.form,
                "rondel": ["".join(sp) for sp in c.rondel],
                "boons": [dict(b) if b else None for b in c.boons],
                "tokens_left": list(c.tokens_left), "attributes": dict(c.attrs),
                "charges": dict(c.charges), "stunned_cubes": "".join(c.centre),
                "stunned": c.stunned, "offerings": list(c.offerings), "supply": c.supply,
                "seat": SOLO_SEAT if solo else cid,
                "spaces": [list(x) for x in pr.spaces[c.board]],
                "human_form": {**hf, "upgrades": dict(hf["upgrades"])},
                "berserker_form": {**bz, "upgrades": dict(bz["upgrades"])},
                "next_upgrade": nxt}
            champs[cid] = mark(pr.keep(key, champ)) if marked else champ
        rot = th["rot"]
        faces = pr.faces

        def minions() -> dict[str, Any]:
            return {m.id: {"type": m.type, "area": m.area, "damage": m.damage,
                           "lying": m.lying} for m in self.minions.values()}

        def thor() -> dict[str, Any]:
            return {"area": th["area"], "red_face": (rot + faces.index("red")) % 6,
                    "activated": th["activated"], "damage": dict(dmg),
                    "destroyed": list(destroyed),
                    "name": pr.god_name, "counter": pr.god_counter,
                    "face_health": self.face_health(),
                    "faces": {f: {"direction": (rot + i) % 6, "front": f in pr.front,
                                  "damage": dmg[f], "destroyed": f in destroyed}
                              for i, f in enumerate(faces)},
                    "passive": pr.passive}

        pos: dict[str, Any] = {
            "scenario": self.setup["scenario"],
            "round": self.round, "twilight_space": self.twilight + 1,
            "first_champion": self.order[self.first], "marker": "red" if self.marker_red
            else "grey", "knockouts": self.knockouts, "phase": self.phase,
            "turn_pos": self.turn_pos, "turn": dict(self.turn),
            "champions": champs,
            # Marked: the texts of the parts made of plain values kept by those values.
            "minions": mark(pr.kept(("minions", *[
                (m.id, m.type, m.area, m.damage, m.lying) for m in self.minions.values()]),
                minions)) if marked else minions(),
            "overheated": mark(pr.kept(("overheated", *self.overheated.items()),
                                       self.overheated.copy)) if marked
            else dict(self.overheated),
            "thor": mark(pr.kept(("thor", th["area"], rot, th["activated"], *dmg.items(),
                                  "destroyed", *destroyed, len(self.order)), thor)) if marked
            else thor(),
            "tokens": mark(pr.kept(("tokens", *self.tokens.items()), self.tokens.copy))
            if marked else dict(self.tokens),
            "furnaces": dict(self.furnaces),
            "reserves": {"temporary": self.reserve_temp, "frost": self.reserve_frost},
            "current_card": self.cur_card, "god_card": self.god_card,
            "attack": jcopy(self.atk), "last_hit": list(self.last_hit),
            "pending_attacks": [list(a) for a in self.pending_attacks],
            "pending_lights": list(self.pending_lights),
            "result": None if self.result is None else list(self.result),
            "end": dict(self.end) if self.end else None,
            "last_poi_by": self.last_poi_by, "thor_target": self.thor_target,
            "events_deck": self.event_deck.public(),
            "god_deck": self.god_deck.public(),
            "furnace_pool": {"size": len(self.furnace_pool)},
            "map": mark(pr.text("map")) if marked else pr.map_json(),
            "round_track": mark(pr.text("round_track")) if marked else list(pr.round_track),
            "card_names": mark(pr.text("card_names")) if marked else dict(pr.card_names),
            "spawn_symbol": self.spawn_symbol(),
            "minion_cards": mark(pr.text("minion_cards", tuple(
                self.overheated[str(k)] for k in (1, 2, 3)))) if marked
            else {str(k): dict(pr.minion_cards[(k, self.overheated[str(k)])])
                  for k in (1, 2, 3)},
        }
        outcome = self.outcome()
        asked = None if outcome.over else self._asked()
        if marked:
            pos["decision"] = mark(_asked_text(asked))
            pos["outcome"] = outcome.to_json()
            pos[_TEXTS_KEY] = texts  # taken out before the text is put together
            return pos
        pos["decision"] = asked and {
            **asked[0], "options": list(asked[1]),
            "actions": [{"text": text, "label": label,
                         "targets": [{"kind": k, "id": i, "ref": r, "note": n}
                                     for k, i, r, n in targets]}
                        for text, label, targets in asked[2]]}
        pos["outcome"] = outcome.to_json()
        return pos

    def _asked(self) -> tuple[dict[str, Any], tuple[str, ...],
                              tuple[tuple[str, str, tuple[tuple[str, str, str, str], ...]],
                                    ...]] | None:
        """The current decision as the view shows it (seat, prompt, section; the options; each
        described action as its text, label and targets' kind, id, ref and note: what
        ``Action.to_json`` gives), kept with the question: questions are replaced, never
        changed, and nothing else changes while one waits for its answer."""
        key = (self.ask, self.pending)
        kept = self._view_ask
        if kept is not None and kept[0][0] is key[0] and kept[0][1] is key[1]:
            return kept[1]
        d = self.decision()
        if d is None:
            made = None
        elif self.pending is not None or any(map(_IS_RESULT, self.ask["options"])):
            # Table mode waits for a result: the chance decision's own options and labels.
            made = ({"seat": d.seat, "prompt": d.prompt, "section": d.section},
                    tuple(a.text for a in self.legal_actions()),
                    tuple(_described(a) for a in self.described_actions()))
        else:
            # What legal_actions() and described_actions() give, without their Action
            # objects: the question's options, each described by _describe.
            options = tuple(self._legal())  # the options as legal_actions() gives them
            acts = []
            a = self.ask
            fn = getattr(self, "d_" + a["h"], None)
            for text in options:
                # what _describe(text) gives, the handler looked up once
                try:
                    label, targets = fn(text, a) if fn is not None else (text, [])
                except (KeyError, IndexError, ValueError, TypeError, AttributeError):
                    label, targets = text, []
                if not targets:
                    targets = [self.option(text)]
                acts.append((text, label or text,
                             tuple([(t.kind, t.id, f"{t.kind}:{t.id}", t.note)
                                    for t in targets])))
            made = ({"seat": d.seat, "prompt": d.prompt, "section": d.section}, options,
                    tuple(acts))
        self._view_ask = (key, made)
        return made

    # ------------------------------------------------------------------ the terminal
    def render(self) -> str:
        """The hex map (odd rows shifted right; ``=`` and ``|`` are Walls, ``x`` marks an Area
        Thor cannot enter), the Rounds track, then a block per champion, minions and Thor.
        Legends are in :meth:`render_help`."""
        marks: dict[str, str] = {}

        def add(area: str | None, text: str) -> None:
            if area is not None and area in self.board.cells:
                marks[area] = marks.get(area, "") + text

        for a in self.board.altars:
            add(a, "+")
        for a, k in self.tokens.items():
            add(a, {"heat": "^", "flame": "*", "freeze": "~"}.get(k, "?"))
        for a, n in self.furnaces.items():
            add(a, "F" if n == 0 else f"f{n}")
        for cid in self.order:
            add(self.champs[cid].area, self.champs[cid].name[:2])
        for m in sorted(self.minions.values(), key=lambda m: m.id):
            add(m.area, m.id[0].lower())
        add(self.thor_area, "T")
        lines = self.board.render_rows(marks, width=6)
        track = self.content.round_track
        letters = " ".join((f"[{SYMBOL_LETTER.get(s, '?')}]" if i == self.twilight
                            else SYMBOL_LETTER.get(s, "?")) for i, s in enumerate(track))
        limit = len(track) - 1
        lines.append(f"Round {self.round} of {limit} · Rounds track {letters} · First Champion "
                     f"{self.cname(self.turn_order()[0])}")
        spawns = ", ".join(f"{SYMBOL_LETTER[k]} {k} {a}" for k, a in self.board.spawns.items())
        lines += wrap(f"  track letters: the round's Spawning Area ({spawns}); E the last space "
                      f"(the Champions lose). First Champion marker "
                      f"{'red' if self.marker_red else 'grey'}: {plural(self.knockouts, 'knockout')}")
        for cid in self.turn_order():
            lines += self.render_champion(cid)
        mins = ", ".join(
            f"{self.minion_name(m.id)} {m.area or 'lying'}"
            + (f" {m.damage}dmg" if m.damage else "")
            for m in sorted(self.minions.values(), key=lambda m: m.id))
        lines += wrap(f"Minions: {mins}")
        over = [k for k, v in self.overheated.items() if v]
        if over:
            lines.append(f"Overheated Minion cards: {', '.join(over)}")
        hp = self.face_health()
        faces = " ".join(
            f"{COMPASS[self.face_dir(f)]}:{f}"
            + ("(X)" if f in self.thor["destroyed"] else f"({hp - self.thor['damage'][f]})")
            for f in self.content.god.faces)
        state = "" if self.thor["activated"] else ", not yet activated"
        lines += wrap(f"Thor in {self.thor_area}{state}; Faces (Health left): {faces}")
        lines.append(f"Reserves: {self.reserve_temp} temporary, {self.reserve_frost} frost · "
                     f"Event deck {len(self.event_deck)} · God deck {len(self.god_deck)}"
                     + (f" · resolving: {self.cur_card}" if self.cur_card else ""))
        if self.atk and self.atk.get("dice"):
            lines.append(f"Attack dice: {self.dice_text()}")
        return "\n".join(lines)

    def render_champion(self, cid: str) -> list[str]:
        """Two lines per champion, each under 100 columns."""
        c = self.champs[cid]
        form = "Berserker" if c.form == "berserker" else "Human"
        head = (f"{c.name} ({c.colour}, {form}) in {c.area}: Health {c.health}/{MAX_HEALTH} · "
                f"Fury {c.fury} · charges {c.charges['human']}/{c.charges['berserker']} · "
                f"G{c.attrs['green']} R{c.attrs['red']} M{c.attrs['movement']}"
                + (f" · STUNNED ({''.join(c.centre)} set aside)" if c.stunned else ""))
        spaces = []
        for i, sp in enumerate(c.rondel):
            icons = "/".join(ICON_SHORT[x] for x in self.space_icons(cid, i))
            b = c.boons[i]
            boon = f"+{b['level']}{ICON_SHORT.get(b['symbol'], '?')}" if b else ""
            spaces.append(f"{i + 1} {icons}:{''.join(sp) or '-'}{boon}")
        return [*wrap(head), *wrap("  rondel " + "  ".join(spaces))]

    def render_help(self) -> str:
        """The map legend, the rondel abbreviations, the Rounds track letters and Thor's Faces."""
        god = self.content.god
        faces = "\n".join(f"  {FACE_NOTES[f]}" for f in god.faces)
        return "\n".join([
            "Map: T Thor, Ra/La/Gu/Si/Ly champions, a/d/t AshFolk/DraugMech/troll minions",
            "  (lying minions are listed below the map), * Sacred Flame, ^ Heat, ~ Freeze,",
            "  F unlit Furnace, f<n> lit Furnace, + altar, S Thor's starting area, ## inaccessible",
            "  to every character, x an Area Thor cannot enter, | and = Walls (= under a row: the",
            "  Wall between that Area and the one below it).",
            "Rondel: spaces 1-6 clockwise; Mel melee, Rng ranged, Rit ritual, Hea heal, Def",
            "  defense, Rer reroll; cubes c action, t temporary, f frost; +1Mel a Minor melee",
            "  Boon (+2 Greater). Move and Strategic Actions work from any space.",
            "Rounds track: t/s/c the triangle/square/circle Spawning Area of the round, E the",
            "  last space (the Champions lose when the Twilight marker reaches it); [ ] marks",
            "  the Twilight marker.",
            *wrap(f"Thor's Faces (front {', '.join(god.front)}; back {', '.join(god.back)}), each "
                  f"{self.face_health()} Health; Counterattack {god.counter}; Passive: "
                  f"{god.passive}", 90),
            faces,
        ])


def _described(a: Action) -> tuple[str, str, tuple[tuple[str, str, str, str], ...]]:
    """A described action as :meth:`Presentation._asked` keeps it (``Action.to_json``'s
    fields)."""
    j = a.to_json()
    return j["text"], j["label"], tuple((t["kind"], t["id"], t["ref"], t["note"])
                                        for t in j["targets"])


def jcopy(v: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, everything else shared)."""
    if v.__class__ is dict:
        return {k: jcopy(x) for k, x in v.items()}
    if v.__class__ is list:
        return [jcopy(x) for x in v]
    return v


class _Printed:
    """What a view shows that only the content, the map and the scenario decide (kept as
    tuples; the view copies them into fresh lists and dicts)."""

    def __init__(self, content: Any, board: Any, scenario: str) -> None:
        b = board
        self.width, self.height = b.width, b.height
        self.rows = tuple(b.rows)
        self.walls = tuple(tuple(w) for w in sorted(sorted(w) for w in b.walls))
        self.god_inaccessible = tuple(sorted(b.god_inaccessible))
        self.altars, self.poi = tuple(b.altars), tuple(b.poi)
        self.spawns = dict(b.spawns)
        self.god_start = b.god_start
        self.round_track = tuple(content.round_track)
        ct = content
        self.card_names = {k: c.name for k, c in [
            *ct.thor_cards.items(), *ct.general_events.items(),
            *(x for evs in ct.scenario_events.values() for x in evs.items())]}
        god = content.god
        self.god_name, self.god_counter, self.passive = god.name, god.counter, god.passive
        self.faces = list(god.faces)
        self.front = frozenset(god.front)
        self.spaces = [tuple(tuple(icons) for icons in bd.rondel) for bd in content.boards]
        self.forms = {cid: {"name": hf.name, "skill": hf.skill.name, "text": hf.skill.text,
                            "upgrades": {str(k): v for k, v in hf.upgrades.items()}}
                      for cid, hf in content.human_forms.items()}
        self.berserkers = {bid: {"name": bz.name, "skill": bz.skill.name,
                                 "text": bz.skill.text,
                                 "upgrades": {str(k): v for k, v in bz.upgrades.items()}}
                           for bid, bz in content.berserker_forms.items()}
        # The Fury of each Upgrade in order, as upgrade_track gives them per form.
        self.human_ups = {cid: tuple(sorted(hf.upgrades))
                          for cid, hf in content.human_forms.items()}
        self.berserker_ups = {bid: tuple(sorted(k for k in bz.upgrades if k > TRANSFORM_FURY))
                              for bid, bz in content.berserker_forms.items()}
        sc = content.scenarios[scenario]
        self.minion_cards: dict[tuple[int, bool], dict[str, Any]] = {}
        for k in (1, 2, 3):
            card = content.minion_cards[sc.minions[k]]
            for over in (False, True):
                side = card.overheated if over else card.standard
                self.minion_cards[(k, over)] = {
                    "name": card.name, "model": card.model,
                    "side": "overheated" if over else "standard", **side.model_dump()}

        self._texts: dict[tuple[str, Any], str] = {}

    def text(self, part: str, key: Any = None) -> str:
        """The JSON text (:data:`~meadhall.core.jsontext.ENCODE`) of a printed part as the view shows it, written
        once: ``map``, ``round_track``, ``card_names``, ``minion_cards`` of the overheated
        flags of minion cards 1 to 3."""
        found = self._texts.get((part, key))
        if found is None:
            if part == "map":
                v: Any = self.map_json()
            elif part == "minion_cards":
                v = {str(k): self.minion_cards[(k, key[k - 1])] for k in (1, 2, 3)}
            else:
                v = getattr(self, part)
            found = self.keep((part, key), v)
        return found

    def kept(self, key: tuple[Any, ...], make: Callable[[], Any]) -> str:
        """The JSON text of ``make()``, a part of the view that only the plain values of
        ``key`` (and the printed parts) decide, kept by ``key``."""
        found = self._texts.get(key)
        return self.keep(key, make()) if found is None else found

    def found(self, key: tuple[Any, ...]) -> str | None:
        """The text kept by ``key`` (:meth:`kept`), if any."""
        return self._texts.get(key)

    def keep(self, key: tuple[Any, ...], part: Any) -> str:
        """Write ``part``'s JSON text and keep it by ``key`` (:meth:`kept`)."""
        if len(self._texts) > 8192:
            self._texts.clear()
        found = self._texts[key] = ENCODE(part)
        return found

    def map_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "rows": list(self.rows),
                "walls": [list(w) for w in self.walls],
                "god_inaccessible": list(self.god_inaccessible), "altars": list(self.altars),
                "poi": list(self.poi), "spawns": dict(self.spawns),
                "god_start": self.god_start}


_TEXTS_KEY = "\0texts"
_ASKED_TEXTS: dict[int, tuple[Any, str]] = {}
"""The JSON text of the view's decision, by the id of :meth:`Presentation._asked`'s answer
(held with it): an answer is made once per question and never changed."""


def _asked_text(asked: Any) -> str:
    """The JSON text of ``view()["decision"]`` for :meth:`Presentation._asked`'s ``asked``."""
    if asked is None:
        return "null"
    hit = _ASKED_TEXTS.get(id(asked))
    if hit is None or hit[0] is not asked:
        if len(_ASKED_TEXTS) > 4096:
            _ASKED_TEXTS.clear()
        head = asked[0]
        if head.keys() != _ASKED_HEAD:  # not the usual question: write it plainly
            text = ENCODE({
                **head, "options": list(asked[1]),
                "actions": [{"text": text, "label": label,
                             "targets": [{"kind": k, "id": i, "ref": r, "note": n}
                                         for k, i, r, n in targets]}
                            for text, label, targets in asked[2]]})
        else:
            # The sorted "key":value pairs written by hand (JSON's dict and list syntax
            # around the values' own texts): no dicts to make and sort per action.
            v = _value_text
            acts = ",".join([
                '{"label":' + v(label) + ',"targets":['
                + ",".join(['{"id":' + v(i) + ',"kind":' + v(k) + ',"note":' + v(n)
                            + ',"ref":' + v(r) + "}" for k, i, r, n in targets])
                + '],"text":' + v(text) + "}"
                for text, label, targets in asked[2]])
            text = ('{"actions":[' + acts + '],"options":['
                    + ",".join([v(o) for o in asked[1]]) + '],"prompt":' + v(head["prompt"])
                    + ',"seat":' + v(head["seat"]) + ',"section":' + v(head["section"]) + "}")
        hit = _ASKED_TEXTS[id(asked)] = (asked, text)
    return hit[1]


_ASKED_HEAD = {"prompt", "section", "seat"}
"""How the JSON encoder (``ensure_ascii``) writes a string."""


def _value_text(x: Any) -> str:
    """``ENCODE(x)``, a string written directly."""
    return STRING_TEXT(x) if isinstance(x, str) else ENCODE(x)  # type: ignore[no-any-return]


_PRINTED: dict[tuple[int, int, str], tuple[Any, Any, _Printed]] = {}
""":class:`_Printed` per content, map and scenario (kept alive here, so their ids stay
theirs)."""


def _printed(content: Any, board: Any, scenario: str) -> _Printed:
    key = (id(content), id(board), scenario)
    found = _PRINTED.get(key)
    if found is None or found[0] is not content or found[1] is not board:
        if len(_PRINTED) > 64:
            _PRINTED.clear()
        found = _PRINTED[key] = (content, board, _Printed(content, board, scenario))
    return found[2]
