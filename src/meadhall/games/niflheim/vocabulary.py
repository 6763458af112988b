"""Every action text a Gates of Niflheim game with a given setup can ever offer, in a fixed order
(the dense action numbering of the RL adapters; the grammar is in docs/formats/niflheim.md).

The order: the templates in the order of :data:`TEMPLATES` below; within a template, squares in
reading order (row 1 first, column A first) over the scenarios the setup can play, heroes as
the content lists them (characters, then huskarls), items in armoury order, undead numbers
ascending, skills in content order. Undead numbers run from 1 to the most undead a scenario's
forces can put on the map at once (its pool and its orange forces): a marker's number is free
again when its undead is eliminated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meadhall.core import grid
from meadhall.games.niflheim import campaign
from meadhall.games.niflheim.content import NiflheimContent, ScenarioData
from meadhall.games.niflheim.figures import INTENTS
from meadhall.games.niflheim.names import SUPPLY, names

TEMPLATES = (
    "declare <intent>", "end activation", "move <sq>", "move <sq> past <sq>", "exit <dir>",
    "open door <sq>", "close door <sq>", "pick up <sq>", "pass <item> to <hero>",
    "pass <supply> to <hero>", "ready <weapon>", "ready <weapon> off hand",
    "ready <weapon> and <weapon> off hand", "rune step <sq>",
    "attack undead <n> ...", "cover: <hero> attack undead <n> ...", "throw <phial> at <sq>",
    "<rescue|search> <label>", "force locked door <sq>", "heroes go first", "undead go first",
    "activate <hero>", "activate undead <n>", "undead <n> attacks <hero>", "undead <n> to <sq>",
    "stun undead <n>", "undead <n> shoots <hero>", "spawn at <sq>", "no cover attack",
    "<hero> keeps <item> in a gear slot", "<hero> readies <item>",
    "<hero> readies <item> off hand", "<player> controls <hero>", "keep the roll",
    "flip the coin of fate", "end the interim stage", "end the campaign", "heal <hero>",
    "give <item> from <hero> to <hero>", "ready <weapon> for <hero>",
    "inscribe <colour> runestone on <hero>'s <weapon>", "unlock <skill> for <hero>",
    "retry the scenario", "give up the campaign", "play scenario <id>", "recruit <hero>",
    "cover: <hero> throw <phial> at <sq>", "give <supply> from <hero> to <hero>",
    "ready <weapon> off hand for <hero>", "ready <weapon> and <weapon> off hand for <hero>",
)
"""The action templates, in vocabulary order."""


def playable(content: NiflheimContent, setup: Mapping[str, Any]) -> list[ScenarioData]:
    """The scenarios a game with this setup can play: its own, or every scenario in a campaign."""
    if setup.get("campaign"):
        return list(content.scenarios.values())
    return [content.scenarios[str(setup["scenario"])]]


def _squares(scenarios: Iterable[ScenarioData], keep: str) -> list[str]:
    """Squares of the maps whose terrain is one of ``keep``, in reading order."""
    found: set[tuple[int, int]] = set()
    for sc in scenarios:
        for y, row in enumerate(sc.map):
            for x, ch in enumerate(row):
                if ch in keep:
                    found.add((x, y))
    return [grid.name(q) for q in sorted(found, key=lambda q: (q[1], q[0]))]


def max_undead(sc: ScenarioData) -> int:
    """The most undead the scenario's forces can put on the map at once."""
    return sum(sc.pool.values()) + len(sc.orange)


def vocabulary(content: NiflheimContent, setup: Mapping[str, Any]) -> list[str]:
    """Every action text the setup can offer, in the documented order."""
    n = names(content)
    scs = playable(content, setup)
    walk = _squares(scs, ".%^+/L")  # anything a hero may ever stand on (doors open)
    doors = _squares(scs, "+/L")
    locked = _squares(scs, "L")
    heroes = list(n.hero.values())
    items = list(n.item.values())
    arm = content.armoury
    weapons = [k for k, v in arm.items() if v.kind == "weapon"]
    one_handed = [k for k in weapons if arm[k].one_handed]
    used = [n.skill[k] for k, v in content.skills.items()
            if v.glory > 0 and v.effect in ("extra_die", "boost")]
    ids = range(1, max(max_undead(sc) for sc in scs) + 1)
    exits = sorted({e.direction for sc in scs for e in sc.exits}, key="NESW".index)
    specials = list(dict.fromkeys(f"{sp.action} {label}" for sc in scs
                                  for label, sp in sc.specials.items()))
    players = list(setup.get("players") or {})

    def attacks(prefix: str) -> list[str]:
        out = []
        for i in ids:
            plain = [f"{prefix}attack undead {i} with {n.item[w]}" for w in weapons]
            plain += [f"{prefix}attack undead {i} with {n.item[w]} (off hand)"
                      for w in one_handed]
            plain.append(f"{prefix}attack undead {i} unarmed")
            out += plain + [f"{p} using {sk}" for p in plain for sk in used]
        return out

    v: list[str] = [f"declare {i}" for i in INTENTS]
    v.append("end activation")
    v += [f"move {q}" for q in walk]
    walkable = set(walk)
    for q in walk:
        for side in grid.neighbours(grid.sq(q)):
            if grid.name(side) in walkable:
                v.append(f"move {q} past {grid.name(side)}")
    v += [f"exit {d}" for d in exits]
    v += [f"open door {q}" for q in doors]
    v += [f"close door {q}" for q in doors]
    v += [f"pick up {q}" for q in walk]
    v += [f"pass {i} to {h}" for i in items for h in heroes]
    v += [f"pass {sup} to {h}" for sup in SUPPLY.values() for h in heroes]
    v += [f"ready {n.item[w]}" for w in weapons]
    v += [f"ready {n.item[w]} off hand" for w in one_handed]
    v += [f"ready {n.item[x]} and {n.item[y]} off hand" for x in one_handed for y in one_handed]
    v += [f"rune step {q}" for q in walk]
    v += attacks("")
    for h in heroes:
        v += attacks(f"cover: {h} ")
    v += [f"throw {p} at {q}" for p in ("holy water", "greek fire") for q in walk]
    v += specials
    v += [f"force locked door {q}" for q in locked]
    v += ["heroes go first", "undead go first"]
    v += [f"activate {h}" for h in heroes]
    v += [f"activate undead {i}" for i in ids]
    v += [f"undead {i} attacks {h}" for i in ids for h in heroes]
    v += [f"undead {i} to {q}" for i in ids for q in walk]
    v += [f"stun undead {i}" for i in ids]
    v += [f"undead {i} shoots {h}" for i in ids for h in heroes]
    v += [f"spawn at {q}" for q in walk]
    v.append("no cover attack")
    for h in heroes:
        for w in weapons:
            v += [f"{h} keeps {n.item[w]} in a gear slot", f"{h} readies {n.item[w]}"]
        v += [f"{h} readies {n.item[w]} off hand" for w in one_handed]
    v += [f"{p} controls {h}" for p in players for h in heroes]
    v += ["keep the roll", "flip the coin of fate"]
    if setup.get("campaign"):
        v += [campaign.END_INTERIM, campaign.END_CAMPAIGN]
        v += [f"heal {h}" for h in heroes]
        v += [f"give {i} from {a} to {b}" for i in items for a in heroes for b in heroes
              if a != b]
        v += [f"ready {n.item[w]} for {h}" for w in weapons for h in heroes]
        v += [f"inscribe {c} runestone on {h}'s {n.item[w]}" for c in content.runestones
              for h in heroes for w in weapons]
        v += [f"unlock {n.skill[k]} for {h}" for k in content.skills for h in heroes]
        v += [campaign.RETRY, campaign.GIVE_UP]
        v += [f"play scenario {sid}" for sid in content.scenarios]
        v += [f"recruit {n.hero[c]}" for c in content.characters]
    # Templates added later come last, so that the numbers of the older ones never change.
    v += [f"cover: {h} throw {p} at {q}" for h in heroes for p in ("holy water", "greek fire")
          for q in walk]
    if setup.get("campaign"):
        v += [f"give {sup} from {a} to {b}" for sup in SUPPLY.values() for a in heroes
              for b in heroes if a != b]
        v += [f"ready {n.item[w]} off hand for {h}" for w in one_handed for h in heroes]
        v += [f"ready {n.item[x]} and {n.item[y]} off hand for {h}" for x in one_handed
              for y in one_handed for h in heroes]
    return list(dict.fromkeys(v))
