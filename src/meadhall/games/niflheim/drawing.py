"""The table of Gates of Niflheim as the drawing vocabulary, built from a seat's view only: the
scenario map with terrain, red lines, doors and exits, heroes and undead (face down or revealed)
with their markers, objective markers and gear on the ground, the round track, each hero's
dashboard (health, MP, intent, corruption, readied weapons, gear, supplies, skills), the undead
pool and the Coin of Fate, and in a campaign the Party Control Sheet and the interim stage.

Targets carry the ids :mod:`meadhall.games.niflheim.present` gives the legal actions.

Every piece is remembered per content object by the parts of the view it reads (the map's
cells by map, a hero's dashboard by that hero's view, a token by its figure), so a scene
builds only what changed since the pieces were last drawn: the pieces of a returned scene may
be shared with other scenes (never change a drawn scene in place). ``tests/games/niflheim/
test_niflheim_drawing.py`` compares the remembered scenes with fresh ones over random games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.core import draw, grid
from meadhall.core.words import plural, possessive
from meadhall.games.niflheim import campaign, present
from meadhall.games.niflheim.content import TERRAIN, NiflheimContent
from meadhall.games.niflheim.figures import INTENTS, MP
from meadhall.games.niflheim.names import SUPPLY_NAME

LEGEND = [
    draw.Terrain(".", "Clear", "stone"),
    draw.Terrain("#", "Wall (obstructive)", "rock", "hatch"),
    draw.Terrain("%", "Hindering (yellow outline)", "sand", "dots"),
    draw.Terrain(":", "Dotted red outline: blocks movement, not LOS", "blood", "cross"),
    draw.Terrain("^", "Fire (1 wound to a hero entering or passing its corner)", "lava", "wave"),
    draw.Terrain("+", "Closed door (obstructive)", "rock", "grid", "+"),
    draw.Terrain("/", "Open door", "stone", "", "/"),
    draw.Terrain("L", "Locked door (purple)", "void", "grid", "L"),
]
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
GLYPH = {"draugr": "D", "troll": "T", "bogmadr": "B", "mardrom": "M"}
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
"""An undead's number is drawn small beside its letter (``D₄``), so that no token reads as a
square's name (Draugr 4 standing on E4 is never "D4")."""
FATE_SPAN = 10
"""The Fate track drawn from 10 Corruption to 10 Glory (at most 10 Corruption)."""


CACHE_LIMIT = 4_000
"""Pieces remembered per content object before the memo starts afresh (a bound on memory)."""

_MEMOS: dict[int, tuple[NiflheimContent, dict[Any, Any]]] = {}


def _memo(content: NiflheimContent) -> dict[Any, Any]:
    """The remembered pieces of ``content``'s scenes."""
    got = _MEMOS.get(id(content))
    if got is None or got[0] is not content:
        if len(_MEMOS) > 16:
            _MEMOS.clear()
        got = _MEMOS[id(content)] = (content, {})
    memo = got[1]
    if len(memo) > CACHE_LIMIT:
        memo.clear()
    return memo


def _hero_key(h: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a hero's token and dashboard show of the hero's view, as a memo key."""
    return (h["name"], h["huskarl"], h["at"], h["status"], h["health"], h["max_health"],
            h.get("intent"), h["mp"], h.get("marker"), h.get("xp", 0), h.get("glory", 0),
            h.get("ready"), h.get("off_hand"), h.get("locked_by"), bool(h.get("zoc_stop")),
            tuple(h.get("gear", ())), tuple(h.get("runes", {}).items()),
            tuple(h.get("supplies", {}).items()), tuple(h.get("skills", ())))


def scene(content: NiflheimContent, title: str, view: Mapping[str, Any],
          fresh: bool = False) -> draw.Scene:
    """The whole table for ``view`` (a :meth:`NiflheimState.view`); ``fresh`` builds every
    piece anew instead of reusing remembered ones (the tests compare the two)."""
    memo: dict[Any, Any] = {} if fresh else _memo(content)
    sc = content.scenarios[view["scenario"]]
    hero_keys = {hid: _hero_key(h) for hid, h in view["heroes"].items()}
    boards: list[draw.SquareGrid] = [_board(content, view, memo, hero_keys, fresh)]
    seats = view.get("seats", {})
    panels = []
    for hid, h in view["heroes"].items():
        key = ("panel", hid, hero_keys[hid], seats.get(hid, hid))
        got = memo.get(key)
        if got is None:
            got = memo[key] = _hero_panel(content, hid, h, view, memo)
        panels.append(got)
    if view.get("campaign") is not None:
        panels += _campaign_panels(content, view)
    cards = _table_cards(content, view, memo)
    notes = []
    choice = view.get("choice")
    if choice is not None:
        notes.append(choice["prompt"])
    elif view.get("active"):
        h = view["heroes"][view["active"]]
        notes.append(f"{h['name']}'s activation: {h['intent'] or 'declare an intent'}, "
                     f"{h['mp']} MP left")
    outcome = view.get("outcome") or {}
    if outcome.get("result", "ongoing") != "ongoing":
        notes.append(f"{outcome['result'].capitalize()}: {outcome.get('reason', '')}")
    subtitle = (f"Scenario {sc.number}: {sc.name} · round {view['round']} · "
                f"{_segment(view)}")
    key = ("track", view["scenario"], view["round"], view["lap"], view["round_track_space"])
    track = memo.get(key)
    if track is None:
        track = memo[key] = _round_track(content, view)
    return draw.Scene(title, boards, [track], panels, cards, notes=notes, subtitle=subtitle)


def _segment(view: Mapping[str, Any]) -> str:
    seg = view["segment"]
    if seg in ("heroes", "undead"):
        return f"{possessive('the ' + seg)} turn ({view['phase']} phase)"
    return {"initiative": "initiative segment", "choosing": "initiative segment",
            "end": "end segment", "interim": "interim stage", "retry": "scenario lost",
            "over": "campaign over", "new character": "interim stage"}.get(seg, seg)


# ----------------------------------------------------------------------------- the map
def _board(content: NiflheimContent, view: Mapping[str, Any], memo: dict[Any, Any],
           hero_keys: Mapping[str, tuple[Any, ...]], fresh: bool = False) -> draw.SquareGrid:
    sc = content.scenarios[view["scenario"]]
    rows: list[str] = view["map"]
    key = ("cells", view["scenario"], tuple(rows), tuple(view.get("forced", ())))
    cells = memo.get(key)
    if cells is None:
        cells = memo[key] = _cells(content, view)
    key = ("walls", *map(tuple, view.get("walls", ())))
    walls = memo.get(key)
    if walls is None:
        walls = memo[key] = [draw.Wall(a, b) for a, b in view.get("walls", ())]
    key = ("specials", view["scenario"], tuple(view["done"]))
    specials = memo.get(key)
    if specials is None:
        specials = memo[key] = _specials(content, view)
    tokens = list(specials)
    for q, items in view["items"].items():
        key = ("items", q, tuple(items))
        got = memo.get(key)
        if got is None:
            got = memo[key] = _item_token(content, q, items)
        tokens.append(got)
    undead_turn = view["segment"] == "undead"
    locked = {h.get("locked_by"): h["name"] for h in view["heroes"].values()
              if h.get("locked_by") is not None}
    for u in view["undead"]:
        uid = u["id"]
        locks = tuple(h["name"] for h in view["heroes"].values()
                      if h.get("locked_by") == uid) if uid in locked else ()
        key = ("undead", uid, u.get("kind"), u["at"], u.get("wounds", 0),
               bool(u.get("stunned")), bool(u.get("orange")),
               bool(u.get("activated")) and undead_turn, u.get("mv"), locks)
        got = memo.get(key)
        if got is None:
            got = memo[key] = _undead_token(content, u, view)
        tokens.append(got)
    for hid, h in view["heroes"].items():
        if h["at"]:
            key = ("hero", hid, hero_keys[hid])
            got = memo.get(key)
            if got is None:
                got = memo[key] = _hero_token(hid, h)
            tokens.append(got)
    # The same pieces make the same map: it is remembered by them (the memo keeps them alive,
    # so their ids name them).
    key = ("map", view["scenario"], id(cells), id(walls), *map(id, tokens))
    got = memo.get(key)
    if got is None:
        legend = list(LEGEND)
        if sc.exits:
            legend.append(EXIT_LEGEND)
        title = f"Scenario {sc.number}: {sc.name}"
        if fresh:
            got = draw.SquareGrid("map", len(rows[0]), len(rows), cells, walls, tokens, legend,
                                  title=title)
        else:
            got = _square_grid(len(rows[0]), len(rows), cells, walls, tokens, legend, title)
        memo[key] = got
    return got


def _square_grid(cols: int, rows: int, cells: list[draw.Cell], walls: list[draw.Wall],
                 tokens: list[draw.Token], legend: list[draw.Terrain],
                 title: str) -> draw.SquareGrid:
    """``draw.SquareGrid("map", ...)`` without its pass over the cells giving each a target:
    every cell of this map has its target already (:func:`_cells`). The memo test compares
    it with the constructor's."""
    g = object.__new__(draw.SquareGrid)
    g.id, g.cols, g.rows, g.cells, g.walls, g.tokens = "map", cols, rows, cells, walls, tokens
    g.legend, g.title, g.kind = legend, title, "square_grid"
    return g


EXIT_LEGEND = draw.Terrain("exit", "Exit point (green arrow)", "stone", "", "→", "green")


def _cells(content: NiflheimContent, view: Mapping[str, Any]) -> list[draw.Cell]:
    """The map's squares with their terrain, marks (start, spawn, exits) and notes."""
    sc = content.scenarios[view["scenario"]]
    rows: list[str] = view["map"]
    labels: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}

    def mark(square: str, label: str, note: str) -> None:
        labels.setdefault(square, []).append(label)
        notes.setdefault(square, []).append(note)

    mark(sc.start, "V", "the heroes' start square (V)")
    for lab, squares in sc.spawn.items():
        for q in squares:
            mark(q, lab, f"spawn location {lab}")
    for e in sc.exits:
        mark(e.square, ARROWS[e.direction], f"exit point (green arrow, {e.direction})")
    forced = set(view.get("forced", ()))
    exits = {e.square for e in sc.exits}  # drawn as the scenario text says: a green arrow
    cells = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            name = grid.name((x, y))
            note = TERRAIN.get(ch, ch)
            if name in forced:
                note += ", forced open: cannot be closed"
            if name in notes:
                note += "; " + "; ".join(notes[name])
            cells.append(draw.Cell(name, x, y, ch, " ".join(labels.get(name, [])),
                                   f"square:{name}", closed=ch in "#+L", note=note,
                                   label_colour="green" if name in exits else ""))
    return cells


def _specials(content: NiflheimContent, view: Mapping[str, Any]) -> list[draw.Token]:
    sc = content.scenarios[view["scenario"]]
    out = []
    for label, sp in sc.specials.items():
        if label in view["done"]:
            continue
        if sp.figure:
            out.append(draw.Token(label, f"{sp.name} ({label}): {sp.action}", label, "neutral",
                                  sp.square, target=f"figure:{label}",
                                  stats={"special action": sp.action}))
        else:
            out.append(draw.Token(f"special-{label}", f"{sp.name} ({label}): {sp.action}",
                                  label, "marker", sp.square,
                                  stats={"special action": sp.action}))
    return out


def _item_token(content: NiflheimContent, q: str, items: list[str]) -> draw.Token:
    names = [content.armoury[i].name if i in content.armoury else i for i in items]
    return draw.Token(f"items-{q}", ", ".join(names), "o", "marker", q,
                      stats={"on the ground": ", ".join(names)})


def _undead_token(content: NiflheimContent, u: Mapping[str, Any],
                  view: Mapping[str, Any]) -> draw.Token:
    uid = u["id"]
    badges = []
    if u.get("stunned"):
        badges.append("stunned")
    if u.get("orange"):
        badges.append("orange force")
    if u.get("activated") and view["segment"] == "undead":
        badges.append("activated")
    locks = [h["name"] for h in view["heroes"].values() if h.get("locked_by") == uid]
    if locks:
        badges.append("locks " + ", ".join(locks))
    kind = u.get("kind")
    if kind is None:
        return draw.Token(f"undead{uid}", f"Undead marker {uid} (face down)", f"?{uid}",
                          "enemy", u["at"], target=f"figure:undead{uid}", face_down=True,
                          badges=badges, stats={"moves as": "a draugr (unrevealed)"})
    d = content.undead[kind]
    stats: dict[str, str | int] = {"HV": d.hv, "MV": u.get("mv", d.mv), "XP": d.xp}
    if d.powers:
        stats["powers"] = ", ".join(d.powers)
    return draw.Token(f"undead{uid}", f"{d.name} {uid}", f"{GLYPH.get(kind, kind[:1].upper())}"
                      f"{str(uid).translate(SUBSCRIPT)}", "enemy", u["at"], target=f"figure:undead{uid}",
                      hp=d.hv - u.get("wounds", 0), max_hp=d.hv, badges=badges, stats=stats)


def _hero_badges(h: Mapping[str, Any]) -> list[str]:
    badges = []
    if h.get("intent"):
        badges.append(h["intent"])
    if h.get("marker"):
        badges.append(h["marker"])
    if h.get("locked_by") is not None:
        badges.append(f"locked by {h['locked_by']}")
    if h.get("zoc_stop"):
        badges.append("stopped by a ZOC")
    return badges


def _hero_token(hid: str, h: Mapping[str, Any]) -> draw.Token:
    stats: dict[str, str | int] = {"health": f"{h['health']}/{h['max_health']}", "MP": h["mp"],
                                   "ready": h.get("ready") or "-"}
    return draw.Token(hid, h["name"], h["name"][:1].upper(), "ally" if h["huskarl"] else "hero",
                      h["at"], target=f"figure:{hid}", hp=h["health"], max_hp=h["max_health"],
                      badges=_hero_badges(h), stats=stats)


def _round_track(content: NiflheimContent, view: Mapping[str, Any]) -> draw.Track:
    sc = content.scenarios[view["scenario"]]
    spaces = [draw.Space(str(i + 1), " ".join(sp) or str(i + 1),
                         note=f"spawn {', '.join(sp)}" if sp else "")
              for i, sp in enumerate(sc.round_track)]
    marks = {i: "spawn " + ", ".join(sp) for i, sp in enumerate(sc.round_track) if sp}
    return draw.Track("round", f"Round track (round {view['round']}, lap {view['lap']})", spaces,
                      value=view["round_track_space"] - 1, marks=marks)


# ----------------------------------------------------------------------------- dashboards
def _weapon_text(content: NiflheimContent, item: str) -> str:
    d = content.armoury[item]
    if d.kind == "weapon":
        r = f"{d.r[0]}/{d.r[1]}" if d.r else "X"
        h2h = f"{d.h2h[0]}/{d.h2h[1]}" if d.h2h else "X"
        out = f"AD {d.ad} · R-S/W {r} · H2H-S/W {h2h} · PBR {d.pbr} · RM {d.rm}"
        flags = [w for w, on in (("one-handed *", d.one_handed), ("projectiles", d.projectile),
                                 ("shield", d.shield)) if on]
        return out + (" · " + ", ".join(flags) if flags else "")
    if d.aoe:
        return f"AOE {d.aoe[0]}/{d.aoe[1]}"
    return "small" if d.small else ("zero-space" if d.zero_space else "gear")


def _hero_panel(content: NiflheimContent, hid: str, h: Mapping[str, Any],
                view: Mapping[str, Any], memo: dict[Any, Any] | None = None) -> draw.Panel:
    where = h["at"] or h["status"]
    glory = h.get("glory", 0)
    fate = f"{glory} Glory" if glory >= 0 else f"{-glory} Corruption"
    pegs = campaign.xp_pegs(h.get("xp", 0))
    peg_text = (f"black peg {pegs['black']}, " if pegs["black"] is not None else "") + (
        "white peg in the red hole" if pegs["red"] else f"white peg {pegs['white']}")
    stats = [draw.Stat("Health", f"{h['health']}/{h['max_health']}"),
             draw.Stat("Where", where), draw.Stat("Intent", h.get("intent") or "-"),
             draw.Stat("MP", h["mp"]), draw.Stat("Marker", h.get("marker") or "-"),
             draw.Stat("XP", f"{h.get('xp', 0)} ({peg_text})")]
    for slot, item in (("Ready weapon", h.get("ready")), ("Off hand", h.get("off_hand"))):
        stats.append(draw.Stat(slot, content.armoury[item].name
                               if item and item in content.armoury else "empty"))
    if h.get("locked_by") is not None:
        stats.append(draw.Stat("Locked by", f"undead {h['locked_by']}"))
    if not h["huskarl"]:
        stats.append(draw.Stat("Fate", fate))
    memo = {} if memo is None else memo
    tracks = _hero_tracks(content, hid, h, memo)
    key = ("hero cards", hid, h["huskarl"], h.get("ready"), h.get("off_hand"),
           tuple(h.get("gear", ())), tuple(h.get("runes", {}).items()),
           tuple(h.get("supplies", {}).items()), tuple(h.get("skills", ())))
    cards = memo.get(key)
    if cards is None:
        cards = memo[key] = _hero_cards(content, hid, h)
    seat = view.get("seats", {}).get(hid, hid)
    title = h["name"] + (" (huskarl)" if h["huskarl"] else "")
    return draw.Panel(hid, title, seat, stats, tracks, list(cards), target=f"hero:{hid}")


def _hero_tracks(content: NiflheimContent, hid: str, h: Mapping[str, Any],
                 memo: dict[Any, Any]) -> list[draw.Track]:
    """A dashboard's intent, health and (characters) Fate tracks, each remembered by what it
    shows."""
    huskarl = h["huskarl"]
    intents = [i for i in INTENTS if i != "running" or not huskarl
               or h["health"] >= h["max_health"]]
    value = intents.index(h["intent"]) if h.get("intent") in intents else None
    key = ("intent track", hid, len(intents), value)
    intent = memo.get(key)
    if intent is None:
        intent = memo[key] = draw.Track(f"{hid}-intent", "Intent", [
            draw.Space(i, f"{i} ({MP[i]} MP)", f"space:{hid}-{i}") for i in intents],
            value=value)
    health = max(0, min(h["health"], h["max_health"]))
    key = ("health track", hid, h["max_health"], health)
    got = memo.get(key)
    if got is None:
        got = memo[key] = draw.Track(f"{hid}-health", "Health", [
            draw.Space(str(i), str(i)) for i in range(h["max_health"] + 1)], value=health)
    tracks = [intent, got]
    if not huskarl:
        glory = max(-FATE_SPAN, min(FATE_SPAN, h.get("glory", 0)))
        key = ("fate track", hid, glory)
        got = memo.get(key)
        if got is None:
            spaces = [draw.Space(str(v), f"C{-v}" if v < 0 else (f"G{v}" if v else "0"))
                      for v in range(-FATE_SPAN, FATE_SPAN + 1)]
            marks = {FATE_SPAN - int(k.split()[1]): txt for k, txt in content.fate_track.items()
                     if k.startswith("corruption ")}
            got = memo[key] = draw.Track(f"{hid}-fate", "Fate track (Glory / Corruption)",
                                         spaces, value=glory + FATE_SPAN, marks=marks)
        tracks.append(got)
    return tracks


def _hero_cards(content: NiflheimContent, hid: str, h: Mapping[str, Any]) -> list[draw.Card]:
    """A dashboard's cards: readied weapons, gear, supplies and the sheet's skills."""
    cards = []
    runes = h.get("runes", {})
    for slot, item in (("Ready Weapon", h.get("ready")), ("Off Hand", h.get("off_hand"))):
        if item and item in content.armoury:
            badges = [slot] + ([f"{runes[item]} runestone"] if item in runes else [])
            cards.append(draw.Card(f"{hid}-{item}", content.armoury[item].name,
                                   _weapon_text(content, item), "weapon",
                                   target=f"card:{hid}-{item}", badges=badges))
    for item in h.get("gear", []):
        if item in content.armoury:
            badges = ["gear slot"] + ([f"{runes[item]} runestone"] if item in runes else [])
            cards.append(draw.Card(f"{hid}-{item}", content.armoury[item].name,
                                   _weapon_text(content, item), content.armoury[item].kind,
                                   target=f"card:{hid}-{item}", badges=badges))
    for kind, name in SUPPLY_NAME.items():
        n = h.get("supplies", {}).get(kind, 0)
        text = "unlimited" if kind == "projectiles" and h["huskarl"] else str(n)
        cards.append(draw.Card(f"{hid}-{kind}", name, text, "supply",
                               target=f"card:{hid}-{kind}"))
    for skill in _sheet_skills(content, hid, h):
        owned = skill in h.get("skills", [])
        sk = content.skills.get(skill)
        cost = f" / {sk.glory}" if sk and sk.glory else ""
        cards.append(draw.Card(f"{hid}-skill-{present.slug(skill)}", f"{skill}{cost}",
                               sk.text if sk else "", "skill",
                               target=f"card:{hid}-skill-{present.slug(skill)}",
                               badges=["unlocked" if owned else "locked"]))
    return cards


def _sheet_skills(content: NiflheimContent, hid: str, h: Mapping[str, Any]) -> list[str]:
    if hid in content.characters:
        return [n for names in content.characters[hid].skills.values() for n in names]
    return list(content.huskarl_skills)


# ----------------------------------------------------------------------------- the table
def _table_cards(content: NiflheimContent, view: Mapping[str, Any],
                 memo: dict[Any, Any]) -> list[draw.Card]:
    key = ("table", view["scenario"], tuple(view["done"]), view["undead_pool"],
           tuple(view["discard"]), view["coin_used"])
    cards = memo.get(key)
    if cards is None:
        cards = memo[key] = _fixed_cards(content, view)
    choice = view.get("choice")
    if choice is None:
        return list(cards)
    key = ("choice", choice["prompt"], tuple(choice["options"]), choice.get("default"),
           tuple(choice.get("labels", {}).items()))
    got = memo.get(key)
    if got is None:
        got = memo[key] = _choice_cards(choice)
    return cards + got


def _fixed_cards(content: NiflheimContent, view: Mapping[str, Any]) -> list[draw.Card]:
    """The objective, secondary objectives, the pool, the discard area and the Coin of Fate."""
    sc = content.scenarios[view["scenario"]]
    done = set(view["done"])
    cards = [draw.Card("objective", "Objective", sc.objective.text, "objective")]
    for i, o in enumerate(sc.secondary):
        ok = all(d in done for d in o.done)
        cards.append(draw.Card(f"secondary-{i + 1}", "Secondary objective", o.text,
                               "objective", badges=["done"] if ok else []))
    cards.append(draw.Card("pool", "Undead pool", plural(view['undead_pool'], "face-down marker"),
                           "pool", face_down=True))
    cards.append(draw.Card("discard", "Discard area", ", ".join(view["discard"]) or "empty",
                           "discard"))
    cards.append(draw.Card("coin", "Coin of Fate", "used in this scenario" if view["coin_used"]
                           else "once per scenario: flip to re-roll a die (heads) or keep it "
                           "(tails)", "coin", badges=["used"] if view["coin_used"] else []))
    return cards


def _choice_cards(choice: Mapping[str, Any]) -> list[draw.Card]:
    """A card per option of the players' choice under way."""
    cards = []
    for opt in choice["options"]:
        slug = present.slug(opt)
        cards.append(draw.Card(f"option-{slug}", choice.get("labels", {}).get(opt, opt),
                               choice["prompt"], "choice",
                               target=f"option:{slug}",
                               badges=["default"] if opt == choice.get("default") else []))
    return cards


def _campaign_panels(content: NiflheimContent, view: Mapping[str, Any]) -> list[draw.Panel]:
    camp = view["campaign"]
    played = camp.get("played", [])
    counts = camp.get("interim_counts", {})
    stats = [draw.Stat("Last scenario played", played[-1] if played else "-"),
             draw.Stat("Scenarios played", ", ".join(played) or "-"),
             draw.Stat("Interim scenarios", ", ".join(f"{k}: {v}×" for k, v in counts.items())
                       or "-"),
             draw.Stat("Lost memory motes", ", ".join(str(m) for m in camp.get("motes", []))
                       or "-"),
             draw.Stat("Runestones", ", ".join(sorted(c.capitalize() for c in
                                                      set(camp.get("runestones", []))))
                       or "-")]
    # each hero's line of the sheet: XP and where the Glory / Corruption peg stands
    for h in view["heroes"].values():
        if h.get("huskarl"):
            continue
        glory = h.get("glory", 0)
        fate = f"{glory} Glory" if glory >= 0 else f"{-glory} Corruption"
        stats.append(draw.Stat(h["name"], f"{h.get('xp', 0)} XP, {fate}"))
    cards = [draw.Card(f"rune-{c}", f"{c.capitalize()} runestone",
                       content.runestones.get(c, ""), "runestone", target=f"card:rune-{c}")
             for c in sorted(set(camp.get("runestones", [])))]
    notes = [f"Party notes: {n}" for n in camp.get("notes", [])]
    result = camp.get("result")
    if result:
        notes.append(f"The campaign is over: {result[0]} ({result[1]})")
    panels = [draw.Panel("pcs", "Party Control Sheet", None, stats, cards=cards, notes=notes)]
    if view["segment"] in ("interim", "new character"):
        healed = [view["heroes"][h]["name"] for h in camp.get("healed", [])
                  if h in view["heroes"]]
        panels.append(draw.Panel("interim", "Interim stage", None, [
            draw.Stat("Healed with a salve this stage", ", ".join(healed) or "-")], notes=[
            "Must: record the scenario played; adjust XP and Glory / Corruption.",
            "May: rearrange weapons and gear between heroes; heal one wound per hero with a "
            "Healing Salve; inscribe runestones into readied weapons; spend XP on skills; "
            "play an Interim scenario."]))
    return panels
