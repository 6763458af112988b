"""``render()``: the dungeon as a grid of map tiles, with tracks and the party below."""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import PLAYERS

CELL = 12
MAX_COLS = 12
MAX_ROWS = 12


def render(st: Any) -> str:
    """The board, the tracks, each hero's state and the pieces on the board (the legend, the
    skills' effects, the cart and the trap cards are in :func:`render_help`)."""
    tiles = st.tiles
    by_xy = {(t.x, t.y): t for t in tiles.values()}
    # Only the columns and rows that hold a tile: a connected dungeon has no gap, and a
    # hand-written position with far-away tiles still draws in a few lines.
    xs = sorted({x for x, _ in by_xy})
    ys = sorted({y for _, y in by_xy})
    lines: list[str] = []
    ch = st.chapter_data
    lines.append(f"{ch.name} - cycle {min(st.cycle, ch.cycles)}/{ch.cycles} - phase {st.phase}"
                 + (f" - timer {st.timer}" if ch.timed else ""))
    lines.append(f"Gate HP {st.gate_hp}  Silver {st.silver}  Runestones {st.runestones}  "
                 "Components " + (", ".join(st.content.cat.components[k].name
                                            for k in sorted(st.components)) or "-"))
    for y in ys[:MAX_ROWS]:
        rows = ["", "", "", "", ""]
        for x in xs[:MAX_COLS]:
            t = by_xy.get((x, y))
            if t is None:
                for i in range(5):
                    rows[i] += " " * CELL
                continue
            mark = ("#" if t.fortified else " ") + ("!" * min(t.curses, 3))
            head = f"[{t.id}{mark}]"
            if t.token:
                head += {"plus1": "+1", "elite": "E", "none": "0"}.get(t.token, "?")
            arrows = {"N": "^", "E": ">", "S": "v", "W": "<"}
            paths = " ".join(f"{letter}{arrows.get(s, '?')}" for s, letter in sorted(
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
    if len(xs) > MAX_COLS or len(ys) > MAX_ROWS:
        lines.append(f"(the dungeon is wider than {MAX_COLS} x {MAX_ROWS} tiles: "
                     "the rest is not drawn)")
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
                mark = ("*" if i == at else "") + ("x" if f"{row}:{i}" in h.exhausted else "")
                cells.append(f"{i + 1} {cat.skills[sid].name}{mark}")
            lines.append(f"  {row}: " + "; ".join(cells))
        more = []
        if not h.follower:
            more += [f"{cat.ultimates[u].name}{' (used)' if u in h.ults_used else ''}"
                     for u in cat.heroes[h.id].ultimates]
        more += [f"{cat.items[i].name}{' (used)' if i in h.used_items else ''}"
                 for i in h.items]
        if more:
            lines.append("  ultimates and items: " + "; ".join(more))
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
    if st.cart:
        lines.append("Dara's cart: " + ", ".join(
            f"{cat.items[i].name} ({cat.items[i].cost})" for i in st.cart))
    lv = st.lv
    if lv and lv.get("pool"):
        lines.append(f"Level {lv['level']} skill pool: " + ", ".join(
            cat.skills[s].name for s in lv["pool"]))
    p = st.party
    lines.append(f"Fate scale: {p['fate']}  Quests: {len(st.quests)}  Story markers: "
                 f"{len(st.story)}")
    if st.choice:
        seat = st.choice.seat
        who = "the players" if seat == PLAYERS else st._hname(seat).split(" the ")[0]
        lines.append(f"Now: {who} - {st.choice.prompt}")
    return "\n".join(lines)


def render_help(st: Any) -> str:
    """The legend, every hero's skills, ultimates and items with their effects, the trap
    cards, Dara's cart and the skill pool: reference panels printed once and on ``?``."""
    cat = st.content.cat
    lines = ["Legend: [id# fortified, ! curse marker, +1/E/0 spawn token]  h: heroes (initials)"
             "  e: enemy/HP  t: trap/HP  ?D^: unexplored path D on the top side (^ > v <)",
             "Skill marks: * the skill token is here (occupied), x exhausted"]
    for h in st.heroes.values():
        lines.append(f"{st._hname(h.id)}:")
        for row, skills in (("top", h.top), ("bottom", h.bottom)):
            lines.append(f"  {row}: " + "; ".join(
                f"{i + 1} {cat.skills[sid].name} ({describe(cat.skills[sid].effects)})"
                for i, sid in enumerate(skills)))
        if not h.follower:
            lines.append("  ultimates: " + "; ".join(
                f"{cat.ultimates[u].name} ({describe(cat.ultimates[u].effects)})"
                for u in cat.heroes[h.id].ultimates))
        if h.items:
            lines.append("  items: " + "; ".join(
                f"{cat.items[i].name} ({describe(cat.items[i].effects)})" for i in h.items))
    for kind in st.party["unlocks"]["traps"]:
        tr = cat.traps[kind]
        ups = "; ".join(
            f"L{i + 1}: {x.hp} HP, {_trap_attack(x)}"
            + (f", upgrade {x.runestones} runestones + {_components(cat, x.components)}"
               if i else "") for i, x in enumerate(tr.levels))
        lines.append(f"Trap card {tr.name}: cost {tr.cost} silver, stock "
                     f"{st._stock_left(kind)}/{tr.stock} left; {ups}")
    for sid in st.party["unlocks"]["special_upgrades"]:
        sp = cat.special_upgrades[sid]
        lines.append(f"Special upgrade {sp.name}: {sp.runestones} runestones, {sp.silver} "
                     f"silver + {_components(cat, sp.components)}; adds "
                     f"{describe([sp.adds])} to the trap's attacks")
    lines.append("Dara's cart: " + ("; ".join(
        f"{cat.items[i].name} {cat.items[i].cost} silver ({describe(cat.items[i].effects)})"
        for i in st.cart) or "-"))
    lv = st.lv
    if lv and lv.get("pool"):
        lines.append(f"Level {lv['level']} skill pool: " + "; ".join(
            f"{cat.skills[s].name} ({describe(cat.skills[s].effects)}, arrow "
            f"{cat.skills[s].arrow})" for s in lv["pool"]))
    return "\n".join(lines)


def _components(cat: Any, need: list[str]) -> str:
    """Components by name; "?" reads "any component"."""
    return ", ".join("any component" if k == "?" else cat.components[k].name
                     for k in need) or "no component"


def _tokens(hp: int, kind: str) -> str:
    """Enemy HP above 10 as the table shows it: tokens on the 10 (bosses: a second bar)."""
    if hp <= 10:
        return ""
    tens, ones = divmod(hp, 10)
    if ones == 0:
        tens, ones = tens - 1, 10
    where = "second HP bar at" if kind == "boss" else "HP tokens on the 10:"
    return f" [{where} {tens}x10, token at {ones}]"


_EFFECT_TEXT: dict[int, tuple[Any, str]] = {}
"""The text of each content effect (a model: immutable), by id, held with the model."""


def describe(effects: Any) -> str:
    """A skill, item or ultimate as its lines read: "2*Attack 1, Range 1 + Bleed 1"."""
    out = []
    for e in effects:
        if isinstance(e, dict):
            out.append(_effect_text(e))
            continue
        hit = _EFFECT_TEXT.get(id(e))
        if hit is None or hit[0] is not e:
            hit = _EFFECT_TEXT[id(e)] = (e, _effect_text(e.model_dump()))
        out.append(hit[1])
    return " / ".join(out) or "no effect"


def _effect_text(d: dict[str, Any]) -> str:
    """One effect (as a dict) as its line reads."""
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
    return text


def _trap_attack(lv: Any) -> str:
    text = f"{lv.times}*Attack {lv.attack}" if lv.times > 1 else f"Attack {lv.attack}"
    if lv.range:
        text += f", Range {lv.range}"
    for ln in lv.linked:
        text += f" + {ln.do.capitalize()}" + (f" {ln.value}" if ln.value else "")
    return text
