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
    for h in st.heroes.values():
        status = "KO" if h.ko else f"{h.hp}/{h.max_hp} HP"
        lines.append(f"{st._hname(h.id)}: {status} on {h.tile or '-'}; top "
                     f"{'/'.join(st.content.cat.skills[s].name for s in h.top)}; bottom "
                     f"{'/'.join(st.content.cat.skills[s].name for s in h.bottom)}; items "
                     f"{', '.join(h.items) or '-'}")
    for e in st.enemies.values():
        d = st.content.cat.enemies[e.card]
        extra = [k for k, v in (("evasion", e.evasion), ("slowed", e.slow == "slowed"),
                                (f"bleed {e.bleed}", e.bleed)) if v]
        lines.append(f"{e.id} {d.name} on {e.tile}: {e.hp}/{e.max_hp} HP{_tokens(e.hp, d.kind)}"
                     f", targets {d.target}" + (f" ({', '.join(extra)})" if extra else ""))
    for t in st.traps.values():
        lines.append(f"{t.id} {st.content.cat.traps[t.kind].name} L{t.level} on {t.tile}: "
                     + ("destroyed" if t.destroyed else f"{t.hp} HP"))
    lines.append(f"Dara's cart: {', '.join(st.cart) or '-'}")
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
