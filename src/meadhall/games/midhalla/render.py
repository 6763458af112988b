"""``render()``: the dungeon as a grid of map tiles, with tracks and the party below."""

from __future__ import annotations

from typing import Any

CELL = 12


def render(st: Any) -> str:
    tiles = st.tiles
    xs = [t.x for t in tiles.values()]
    ys = [t.y for t in tiles.values()]
    lines: list[str] = []
    ch = st.chapter_data
    lines.append(f"{ch.name} - cycle {st.cycle}/{ch.cycles} - phase {st.phase}"
                 + (f" - timer {st.timer}" if ch.timed else ""))
    lines.append(f"Gate HP {st.gate_hp}  Silver {st.silver}  Runestones {st.runestones}  "
                 f"Components {', '.join(sorted(st.components)) or '-'}")
    for y in range(min(ys), max(ys) + 1):
        rows = ["", "", "", "", ""]
        for x in range(min(xs), max(xs) + 1):
            t = next((t for t in tiles.values() if (t.x, t.y) == (x, y)), None)
            if t is None:
                for i in range(5):
                    rows[i] += " " * CELL
                continue
            mark = ("#" if t.fortified else " ") + ("!" * t.curses)
            head = f"[{t.id}{mark}]"
            if t.token:
                head += {"plus1": "+1", "elite": "E", "none": "0"}[t.token]
            arrows = {"N": "^", "E": ">", "S": "v", "W": "<"}
            paths = " ".join(f"{letter}{arrows[s]}" for s, letter in sorted(
                t.paths.items(), key=lambda kv: kv[1]) if s not in t.links)
            heroes = "".join(h[0].upper() for h, hs in st.heroes.items() if hs.tile == t.id)
            foes = [e for e in st.enemies.values() if e.tile == t.id]
            traps = [tr for tr in st.traps.values() if tr.tile == t.id]
            cells = [head, f"h:{heroes or '-'}",
                     "e:" + ",".join(f"{e.id}/{e.hp}" for e in foes) if foes else "e:-",
                     "t:" + ",".join(f"{tr.id}/{tr.hp}" for tr in traps) if traps else "",
                     f"?{paths}" if paths else ""]
            for i in range(5):
                rows[i] += cells[i][:CELL - 1].ljust(CELL)
        lines.extend(r.rstrip() for r in rows if r.strip())
    lines.append("Legend: [id# fortified, ! curse, +1/E/0 spawn token]  h: heroes  "
                 "e: enemy/HP  t: trap/HP  ?D^: unexplored path D on the top side (^ > v <)")
    cat = st.content.cat
    for h in st.heroes.values():
        status = "KO" if h.ko else f"{h.hp}/{h.max_hp} HP"
        extra = [f"{k} {v}" for k, v in (("armor", h.armor), ("retaliate", h.retaliate),
                                          ("bleed", h.bleed)) if v]
        lines.append(f"{st._hname(h.id)}: {status} on {h.tile or '-'}"
                     + (f" ({', '.join(extra)})" if extra else ""))
        for row, skills, at in (("top", h.top, h.top_at), ("bottom", h.bottom, h.bottom_at)):
            cells = []
            for i, sid in enumerate(skills):
                sk = cat.skills[sid]
                mark = ("*" if i == at else "") + ("x" if f"{row}:{i}" in h.exhausted else "")
                cells.append(f"{i + 1} {sk.name}{mark} ({describe(sk.effects)})")
            lines.append(f"  {row}: " + "; ".join(cells))
        if not h.follower:
            ults = [f"{cat.ultimates[u].name}{' (used)' if u in h.ults_used else ''} "
                    f"({describe(cat.ultimates[u].effects)})" for u in cat.heroes[h.id].ultimates]
            lines.append("  ultimates: " + "; ".join(ults))
        if h.items:
            lines.append("  items: " + "; ".join(
                f"{cat.items[i].name}{' (used)' if i in h.used_items else ''} "
                f"({describe(cat.items[i].effects)})" for i in h.items))
    lines.append("Skill marks: * the skill token is here (occupied), x exhausted")
    for e in st.enemies.values():
        d = st.content.cat.enemies[e.card]
        extra = [k for k, v in (("evasion", e.evasion), ("slowed", e.slow == "slowed"),
                                (f"bleed {e.bleed}", e.bleed)) if v]
        lines.append(f"{e.id} {d.name} on {e.tile}: {e.hp}/{e.max_hp} HP{_tokens(e.hp, d.kind)}"
                     f", targets {d.target}" + (f" ({', '.join(extra)})" if extra else ""))
    for t in st.traps.values():
        lv = cat.traps[t.kind].levels[t.level - 1]
        lines.append(f"{t.id} {cat.traps[t.kind].name} L{t.level} on {t.tile}: "
                     + ("destroyed" if t.destroyed else f"{t.hp}/{lv.hp} HP")
                     + f", {_trap_attack(lv)}"
                     + (f" + special {cat.special_upgrades[t.special].name}" if t.special
                        else ""))
    if st.phase == "preparation":
        for kind in st.party["unlocks"]["traps"]:
            tr = cat.traps[kind]
            ups = "; ".join(
                f"L{i + 1}: {x.hp} HP, {_trap_attack(x)}"
                + (f", upgrade {x.runestones} runestones + {'+'.join(x.components) or '-'}"
                   if i else "") for i, x in enumerate(tr.levels))
            lines.append(f"Trap card {tr.name}: cost {tr.cost} silver, stock "
                         f"{st._stock_left(kind)}/{tr.stock} left; {ups}")
    lines.append("Dara's cart: " + ("; ".join(
        f"{i} {cat.items[i].name} {cat.items[i].cost} silver ({describe(cat.items[i].effects)})"
        for i in st.cart) or "-"))
    lv = st.lv
    if lv and lv.get("pool"):
        lines.append(f"Level {lv['level']} skill pool: " + "; ".join(
            f"{cat.skills[s].name} ({describe(cat.skills[s].effects)}, arrow "
            f"{cat.skills[s].arrow})" for s in lv["pool"]))
    p = st.party
    lines.append(f"Fate scale: {p['fate']}  Quests: {len(st.quests)}  Story markers: "
                 f"{len(st.story)}")
    if st.choice:
        lines.append(f"Now: {st.choice['seat']} - {st.choice['prompt']}")
    return "\n".join(lines)


def _tokens(hp: int, kind: str) -> str:
    """Enemy HP above 10 as the table shows it: tokens on the 10 (bosses: a second bar)."""
    if hp <= 10:
        return ""
    tens, ones = divmod(hp, 10)
    if ones == 0:
        tens, ones = tens - 1, 10
    where = "second HP bar at" if kind == "boss" else "HP tokens on the 10:"
    return f" [{where} {tens}x10, token at {ones}]"


def describe(effects: Any) -> str:
    """A skill, item or ultimate as its lines read: "2*Attack 1, Range 1 + Bleed 1"."""
    out = []
    for e in effects:
        d = e if isinstance(e, dict) else e.model_dump()
        do = d["do"]
        word = {"damage_self": "suffer", "attack": "Attack"}.get(do, do.capitalize())
        text = f"{word} {d['value']}" if d.get("value") else word
        if do == "damage_self":
            text += " damage"
        if d.get("times", 1) > 1:
            text = f"{d['times']}*{text}"
        if d.get("range"):
            text += f", Range {d['range']}"
        if d.get("target") and d["target"] != "hero":
            text += f" ({d['target']})"
        for ln in d.get("linked") or []:
            text += f" + {ln['do'].capitalize()}" + (f" {ln['value']}" if ln.get("value") else "")
        out.append(text)
    return " / ".join(out) or "no effect"


def _trap_attack(lv: Any) -> str:
    text = f"{lv.times}*Attack {lv.attack}" if lv.times > 1 else f"Attack {lv.attack}"
    if lv.range:
        text += f", Range {lv.range}"
    for ln in lv.linked:
        text += f" + {ln.do.capitalize()}" + (f" {ln.value}" if ln.value else "")
    return text
