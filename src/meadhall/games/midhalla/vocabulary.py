"""Every action text a Midhalla game with a given setup can ever offer, in a fixed order (the
dense action numbering of the RL adapters; the grammar is in docs/formats/midhalla.md).

Templates are listed in the order of :data:`TEMPLATES`; each is filled with content in content
order: the map tiles the setup's chapters can place, heroes and followers, items, skills,
ultimates, traps, components, enemy ids ``e1..eN`` (N: two spawns per map tile plus a boss and
an event spawn) and trap ids ``t1..tM`` (M: the stock of every trap).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations_with_replacement
from typing import Any

from meadhall.games.midhalla.content import Content

ROWS = ("top", "bottom")
MAX_ROW = 5
"""Skills in a row: three on the tableau plus the level 1 and level 2 skills."""


def _ops(items: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Every instruction in a list of ops, options' ops included (depth first)."""
    for op in items:
        d = op if isinstance(op, dict) else op.model_dump()
        yield d
        for o in d.get("options", []) or []:
            yield from _ops(o.get("ops", []) or [])


def _chapter_ops(c: Content, cid: str) -> Iterator[dict[str, Any]]:
    ch = c.chapters[cid]
    for sec in [*ch.sections.values(), *ch.verses.values(), ch.epilogue,
                *ch.decision_effects.values()]:
        yield from _ops(sec.ops)
    for ev in ch.chapter_events.values():
        yield from _ops(ev.ops)
        if ev.quest:
            yield from _ops([*ev.quest.reward, *ev.quest.fail])
    for step in ch.timed or []:
        yield from _ops(step.ops)


def _shared_ops(c: Content) -> Iterator[dict[str, Any]]:
    for deck in (c.cat.tier1, c.cat.tier2):
        for ev in deck.values():
            yield from _ops(ev.ops)
            if ev.quest:
                yield from _ops([*ev.quest.reward, *ev.quest.fail])
    for ge in c.printed.global_events.values():
        yield from _ops(ge.ops)


def chapters_of(c: Content, setup: Mapping[str, Any]) -> list[str]:
    """The chapters a game with ``setup`` can play: one, or every chapter in a campaign."""
    return list(c.chapters) if setup.get("campaign") else [setup["scenario"]]


def tiles_of(c: Content, chapters: list[str]) -> list[str]:
    out = list(c.cat.dungeon_board)
    for cid in chapters:
        for op in _chapter_ops(c, cid):
            if op["op"] == "place":
                out.append(op["tile"])
    for op in _shared_ops(c):
        if op["op"] == "place":
            out.append(op["tile"])
    return list(dict.fromkeys(out))


def max_enemies(c: Content, chapters: list[str]) -> int:
    """The most enemies that can stand at once: every map tile spawns at most two (+1 Spawn
    token), plus a boss wave and an event spawn."""
    return 2 * len(tiles_of(c, chapters)) + 2


def max_traps(c: Content) -> int:
    return sum(t.stock for t in c.cat.traps.values())


def _names(items: Mapping[str, Any]) -> list[str]:
    return [v.name for v in items.values()]


def _payments(c: Content, need: list[str]) -> list[str]:
    """" paying A, B" suffixes for every way to pay ``need`` ("?" = any component)."""
    fixed = [k for k in need if k != "?"]
    wild = need.count("?")
    out = []
    for extra in combinations_with_replacement(list(c.cat.components), wild):
        names = sorted(c.cat.components[k].name for k in [*fixed, *extra])
        out.append(" paying " + ", ".join(names) if names else "")
    return out


def vocabulary(c: Content, setup: Mapping[str, Any]) -> list[str]:
    """Every action text, in the documented order, without repeats."""
    chapters = chapters_of(c, setup)
    tiles = tiles_of(c, chapters)
    cat = c.cat
    heroes = [h.name.split(" the ")[0] for h in cat.heroes.values()]
    people = heroes + _names(cat.followers)
    items = _names(cat.items)
    skills = _names(cat.skills)
    ults = _names(cat.ultimates)
    enemies = [f"e{i}" for i in range(1, max_enemies(c, chapters) + 1)]
    traps = [f"t{i}" for i in range(1, max_traps(c) + 1)]
    letters = sorted({letter for cid in chapters for letter in c.chapters[cid].sections}
                     | {letter for t in cat.tiles.values() for side in (t.A, t.B)
                        for letter in side.paths.values()}
                     | {letter for cid in chapters
                        for letter in c.chapters[cid].board_paths.values()})
    option_texts: list[str] = []
    build_events: list[str] = []
    for op in [*(o for cid in chapters for o in _chapter_ops(c, cid)), *_shared_ops(c)]:
        if op["op"] == "choice":
            option_texts.extend(o["text"] for o in op["options"])
        if op["op"] == "build_trap":
            trap = cat.traps[op["trap"]]
            build_events.extend(f"build {trap.name} on {t} for {trap.cost} silver"
                                for t in tiles)
    pay_combos: list[str] = []
    for trap in cat.traps.values():
        for lv in trap.levels[1:]:
            pay_combos.extend(_payments(c, lv.components))
    for sp in cat.special_upgrades.values():
        pay_combos.extend(_payments(c, sp.components))
    pay_combos = list(dict.fromkeys(pay_combos))
    slots = [f"{row} {n}" for row in ROWS for n in range(1, MAX_ROW + 1)]
    out: list[str] = []
    add = out.extend
    # setup and exploration
    add(f"give {i} to {h}" for i in items for h in people)
    add(f"curse {t}" for t in tiles)
    add(f"take {s}" for s in skills)
    add(f"place in the {row} row" for row in ROWS)
    add(f"cover {slot} {s}" for slot in slots for s in skills)
    add(f"explore {letter}" for letter in letters)
    add(option_texts)
    add(f"spare {h}" for h in people)
    add(build_events)
    add(["do not build"])
    # 2.1 preparation
    add(f"buy {i} for {h}" for i in items for h in heroes)
    add(f"sell {i} from {h}" for i in items for h in heroes)
    add(f"give {i} from {a} to {b}" for i in items for a in heroes for b in heroes if a != b)
    add(f"fortify {t}" for t in tiles)
    add(f"build {trap.name} on {t}" for trap in cat.traps.values() for t in tiles)
    add(f"upgrade {t}{pay}" for t in traps for pay in pay_combos)
    add(f"special {sp.name} on {t}{pay}" for sp in cat.special_upgrades.values()
        for t in traps for pay in _payments(c, sp.components))
    add(f"restore {t}" for t in traps)
    add(f"remove {t}" for t in traps)
    add(f"use {k.name}" for k in cat.components.values() if k.special)
    add(f"heal {h}" for h in heroes)
    add(["done preparing"])
    # 2.3 and combat
    add(f"position {h} on {t}" for h in people for t in tiles)
    add(f"activate {e}" for e in enemies)
    add(f"{e} attacks {h}" for e in enemies for h in people)
    add(f"{e} attacks trap {t}" for e in enemies for t in traps)
    add(f"{e} attacks the gate" for e in enemies)
    add(f"{e} steps to {t}" for e in enemies for t in tiles)
    add(f"exhaust {slot} {s}" for slot in slots for s in skills)
    add(f"activate trap {t}" for t in traps)
    add(f"{t} attacks {e}" for t in traps for e in enemies)
    add(f"next hero {h}" for h in people)
    add(f"skill {slot} {s}" for slot in slots for s in skills)
    add(f"skip {row} row (no skill available)" for row in ROWS)
    add(f"use item {i}" for i in items)
    add(f"use ultimate {u}" for u in ults)
    add(["end turn", "replay step 3.3"])
    add(f"move to {t}" for t in tiles)
    add(["stay"])
    add(f"attack {e}" for e in enemies)
    add(["skip attack"])
    add(f"heal {h}" for h in heroes)
    add(["skip heal"])
    add(f"repair {t}" for t in traps)
    add(["skip repair"])
    for do in ("slow", "bleed"):
        add(f"{do} {e}" for e in enemies)
        add([f"skip {do}"])
    # phase 4 and the campaign
    add(f"refresh {u}" for u in ults)
    add(f"play {c.chapters[cid].name}" for cid in chapters)
    add(["start the chapter"])
    add(f"add {h}" for h in heroes)
    add(f"remove {h}" for h in heroes)
    add(["end the campaign"])
    return list(dict.fromkeys(out))

