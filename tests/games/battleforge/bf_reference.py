"""The BattleForge view and drawing as they were built before their caches (ea89f14's code,
kept verbatim as the oracle of tests/games/battleforge/test_battleforge_view_cache.py): every
call builds every part from scratch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.core import draw
from meadhall.core.words import plural
from meadhall.games.battleforge.basics import MAX_HEALTH, area_name, minion_letter
from meadhall.games.battleforge.presentation import COMPASS, FACE_NOTES

SYMBOL_GLYPH = {"triangle": "▲", "square": "■", "circle": "●", "end": "✖"}
TOKEN_INFO = {"flame": ("Sacred Flame (a Heat token)", "*", "gold"),
              "heat": ("Heat token", "^", "lava"), "freeze": ("Freeze token", "~", "ice")}
LEGEND = [
    draw.Terrain("area", "Area", "grass"),
    draw.Terrain("closed", "Area Thor cannot enter", "sand", "hatch", "x"),
    draw.Terrain("rock", "Inaccessible to every character", "rock", "cross"),
    draw.Terrain("start", "Thor's starting Area (outside the Scenario)", "void", "dots"),
]
CUBE_WORDS = {"c": ("Action Cube", "blood"), "t": ("Temporary Cube", "void"),
              "f": ("Frost Cube", "ice")}


def degrees(direction: int) -> int:
    """A hex direction (0 north-east, clockwise) in degrees clockwise from up."""
    return 30 + 60 * (direction % 6)


def board(view: Mapping[str, Any]) -> draw.HexGrid:
    """The scenario map with every figure and token on it."""
    m = view["map"]
    rows = [r.split() for r in m["rows"]]
    closed = set(m["god_inaccessible"])
    spawns = {a: k for k, a in m["spawns"].items()}
    cells: list[draw.Cell] = []
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            a = area_name(c, r)
            labels: list[str] = []
            notes: list[str] = []
            if a in m["altars"]:
                labels.append("altar")
                notes.append("Altar: a Ritual here makes an Offering (a Boon)")
            if a in m["poi"]:
                notes.append("Point of Interest")
            if a in spawns:
                labels.append(f"{SYMBOL_GLYPH[spawns[a]]} spawn")
                notes.append(f"{spawns[a]} Spawning Area")
            if ch == "#":
                cells.append(draw.Cell(a, c, r, "rock", target="", closed=True,
                                       note="inaccessible to every character"))
                continue
            if ch == "S":
                cells.append(draw.Cell(a, c, r, "start", "Thor's start", target="", closed=True,
                                       note="Thor's starting Area, outside the valid Areas"))
                continue
            if a in closed:
                notes.append("closed to Thor")
            cells.append(draw.Cell(a, c, r, "closed" if a in closed else "area",
                                   " ".join(labels), closed=a in closed,
                                   note="; ".join(notes)))
    walls = [draw.Wall(a, b) for a, b in m["walls"]]
    tokens: list[draw.Token] = []
    for a, kind in sorted(view["tokens"].items()):
        label, glyph, colour = TOKEN_INFO.get(kind, (kind, "?", ""))
        tokens.append(draw.Token(f"token-{a}", label, glyph, "marker", a, colour=colour))
    for a, n in sorted(view["furnaces"].items()):
        tokens.append(draw.Token(f"furnace-{a}", "Unlit Furnace (number face down)" if n == 0
                                 else f"Lit Furnace {n}", "F" if n == 0 else f"F{n}", "marker",
                                 a, face_down=n == 0, badges=[] if n == 0 else ["lit"]))
    for cid, c in view["champions"].items():
        tokens.append(draw.Token(
            cid, c["name"], c["name"][:2], "hero", c["area"], target=f"figure:{cid}",
            hp=c["health"], max_hp=MAX_HEALTH, colour=c["colour"],
            badges=(["stunned"] if c["stunned"] else []) + (["Berserker"] if c["form"] ==
                                                           "berserker" else []),
            stats={"Health": f"{c['health']}/{MAX_HEALTH}", "Fury": c["fury"],
                   "Form": c["form"], "Green dice": c["attributes"]["green"],
                   "Red dice": c["attributes"]["red"],
                   "Movement": c["attributes"]["movement"]}))
    cards = view["minion_cards"]
    for mid, mn in sorted(view["minions"].items()):
        card = cards[str(mn["type"])]
        name = f"{card['model']} {minion_letter(mid)}"
        stats = {"Health": f"{card['health'] - mn['damage']}/{card['health']}",
                 "Actions": card["actions"], "Damage": card["damage"],
                 "Counterattack": card["counter"], "Fury": card["fury"],
                 "Target": card["target"].replace("_", " "), "Card": card["name"]}
        if mn["area"] is None:
            at = m["spawns"].get(mn.get("lying") or "", "")
            tokens.append(draw.Token(mid, f"{name} (lying, Inactive)", mid[0].lower(), "enemy",
                                     at, face_down=True, badges=["lying"], stats=stats))
            continue
        tokens.append(draw.Token(mid, name, mid[0], "enemy", mn["area"], target=f"figure:{mid}",
                                 hp=card["health"] - mn["damage"], max_hp=card["health"],
                                 badges=["overheated"] if card["side"] == "overheated" else [],
                                 stats=stats))
    t = view["thor"]
    faces = t["faces"]
    tokens.append(draw.Token(
        "thor", "Thor" + ("" if t["activated"] else " (not yet activated)"), "T", "god",
        t["area"], target="figure:thor", facing=degrees(faces["red"]["direction"]),
        badges=[f"{f} destroyed" for f, d in faces.items() if d["destroyed"]],
        stats={f"{f} Face": f"{COMPASS[d['direction']]}, "
               + ("destroyed" if d["destroyed"] else
                  f"{t['face_health'] - d['damage']}/{t['face_health']}")
               for f, d in faces.items()}))
    return draw.HexGrid("map", m["width"], m["height"], cells, walls, tokens, list(LEGEND),
                        title="Scenario map")


def rounds_track(view: Mapping[str, Any]) -> draw.Track:
    """The Rounds track: each space's Spawning symbol; the Twilight marker."""
    track = view["round_track"]
    spawns = view["map"]["spawns"]
    spaces = []
    for i, sym in enumerate(track):
        note = ("the last space: the Champions lose" if sym == "end"
                else f"{sym} Spawning Area {spawns.get(sym, '?')}")
        spaces.append(draw.Space(str(i + 1), SYMBOL_GLYPH.get(sym, sym), note=note))
    marks = {len(track) - 1: "defeat"}
    return draw.Track("rounds", "Rounds track (Twilight marker)", spaces,
                      value=min(view["twilight_space"] - 1, len(track) - 1), marks=marks)


def champion_panel(cid: str, c: Mapping[str, Any]) -> draw.Panel:
    """A champion's board: rondel with cubes and Boons, Health, Fury, Attributes, Forms."""
    spaces = []
    tokens: list[draw.Token] = []
    for i, icons in enumerate(c["spaces"]):
        b = c["boons"][i] if i < len(c["boons"]) else None
        boon = f" +{b['level']} {b['symbol']}" if b else ""
        spaces.append(draw.Space(str(i + 1), " / ".join(icons) + boon, target=f"rondel:{cid}:{i + 1}",
                                 note="/".join(icons) + (f"; {'Greater' if b['level'] == 2 else 'Minor'}"
                                                         f" {b['symbol']} Boon" if b else "")))
        cubes = c["rondel"][i]
        for kind in "ctf":
            n = cubes.count(kind)
            if n:
                word, colour = CUBE_WORDS[kind]
                tokens.append(draw.Token(f"{cid}-{i + 1}-{kind}", plural(n, word), str(n),
                                         "marker", str(i + 1), colour=colour if kind != "c"
                                         else c["colour"]))
    rondel = draw.Track(f"rondel-{cid}", "Rondel (clockwise)", spaces, cyclic=True,
                        tokens=tokens)
    health = draw.Track(f"health-{cid}", "Health", [draw.Space(str(i)) for i in range(16)],
                        value=c["health"])
    top = max([int(k) for k in c["berserker_form"]["upgrades"]] + [c["fury"]])
    fury_marks = {int(k): v for k, v in c["human_form"]["upgrades"].items()}
    fury_marks.update({int(k): v for k, v in c["berserker_form"]["upgrades"].items()})
    fury = draw.Track(f"fury-{cid}", "Fury (Upgrades marked)",
                      [draw.Space(str(i)) for i in range(top + 1)], value=c["fury"],
                      marks=fury_marks)
    hf, bz = c["human_form"], c["berserker_form"]
    human = c["form"] == "human"
    cards = [
        draw.Card(f"{cid}-human", f"{hf['name']}: {hf['skill']}", hf["text"], "Human Form",
                  target=f"card:{cid}-human", badges=[f"{c['charges']['human']} charges"]),
        draw.Card(f"{cid}-berserker", f"{bz['name']}: {bz['skill']}", bz["text"],
                  "Berserker Form", target=f"card:{cid}-berserker",
                  badges=["at 8 Fury"] if human else [f"{c['charges']['berserker']} charges"]),
    ]
    stunned = [draw.Token(f"{cid}-centre-{k}", f"{CUBE_WORDS[x][0]} set aside (Stunned)",
                          x, "marker") for k, x in enumerate(c["stunned_cubes"])]
    a = c["attributes"]
    stats = [draw.Stat("Area", c["area"]), draw.Stat("Health", f"{c['health']}/{MAX_HEALTH}"),
             draw.Stat("Fury", f"{c['fury']}" + (f" (next Upgrade at {c['next_upgrade']})"
                                                if c.get("next_upgrade") else "")),
             draw.Stat("Form", "Berserker" if not human else "Human"),
             draw.Stat("Attributes", f"green dice {a['green']}, red dice {a['red']}, "
                                     f"movement {a['movement']}"),
             draw.Stat("Offerings", ", ".join(c["offerings"]) or "none"),
             draw.Stat("Cubes in supply", c["supply"])]
    if c["stunned"]:
        stats.append(draw.Stat("Stunned", f"{plural(len(c['stunned_cubes']), 'cube')} set aside"))
    return draw.Panel(f"champion-{cid}", f"{c['name']} ({c['colour']})", c.get("seat", cid),
                      stats, [rondel, health, fury], cards, stunned)


def thor_panel(view: Mapping[str, Any]) -> draw.Panel:
    """Thor's status card: his six Faces (Health, direction, effect) and the God deck."""
    t = view["thor"]
    tokens = []
    for f, d in t["faces"].items():
        left = t["face_health"] - d["damage"]
        tokens.append(draw.Token(
            f"thor-{f}", f"{f.capitalize()} Face ({'front' if d['front'] else 'back'}), toward "
            f"{COMPASS[d['direction']]}", f[0].upper(), "god", target=f"figure:thor-{f}",
            hp=0 if d["destroyed"] else left, max_hp=t["face_health"], colour=f,
            facing=degrees(d["direction"]), badges=["destroyed"] if d["destroyed"] else [],
            stats={"Effect": FACE_NOTES[f], "Health": f"{left}/{t['face_health']}"}))
    deck = view["god_deck"]
    names = view.get("card_names", {})
    cards = [draw.Card("god-deck", "God deck", f"{deck['size']} cards", "deck", face_down=True)]
    if view.get("god_card"):
        card = view.get("current_card") or view["god_card"]
        cards.append(draw.Card("god-card", names.get(card, card),
                               "being resolved", "God card"))
    elif deck["discard"]:
        cards.append(draw.Card("god-discard", names.get(deck["discard"][-1], deck["discard"][-1]),
                               "last played", "God card"))
    stats = [draw.Stat("Area", t["area"] + ("" if t["activated"] else " (not yet activated)")),
             draw.Stat("Counterattack", t["counter"]),
             draw.Stat("Face Health", t["face_health"]),
             draw.Stat("Passive", t["passive"])]
    return draw.Panel("thor", "Thor", None, stats, cards=cards, tokens=tokens)


def minions_panel(view: Mapping[str, Any]) -> draw.Panel:
    """The three Minion cards on the Confrontation board, with the side that is up."""
    cards = []
    for k, card in sorted(view["minion_cards"].items()):
        text = (f"Health {card['health']}, {plural(card['actions'], 'Action')}, Damage "
                f"{card['damage']}, "
                f"Counterattack {card['counter']}, Fury {card['fury']}, Target "
                f"{card['target'].replace('_', ' ')}"
                + (f", range {card['range']}" if card.get("range") else "")
                + (f". {card['text']}" if card.get("text") else ""))
        cards.append(draw.Card(f"minion-{k}", f"Minion {k}: {card['name']}", text,
                               "Minion card", badges=[card["side"]]))
    ev = view["events_deck"]
    cards.append(draw.Card("event-deck", "Event deck", f"{ev['size']} cards", "deck",
                           face_down=True))
    if ev["discard"]:
        last = ev["discard"][-1]
        cards.append(draw.Card("event-discard", view.get("card_names", {}).get(last, last),
                               "last Event", "Event card"))
    return draw.Panel("confrontation", "Confrontation board", None, cards=cards)


ATTACK_STEPS = {"pool": "choosing the dice pool", "roll": "rolling", "manage": "managing the dice",
                "pick": "choosing dice", "window": "after the roll",
                "effects": "target effects", "resolve": "resolving the hits"}
"""The steps of an attack (Attacks) as the attack panel names them."""


def _target_name(view: Mapping[str, Any], target: str) -> str:
    """An attack's target as players name it: ``Thor's Red Face``, ``AshFolk B``."""
    if target.startswith("thor-"):
        return f"Thor's {target[5:].capitalize()} Face"
    mn = view["minions"].get(target)
    if mn is not None:
        return f"{view['minion_cards'][str(mn['type'])]['model']} {minion_letter(target)}"
    return view["champions"].get(target, {}).get("name", target)


def attack_panel(view: Mapping[str, Any]) -> draw.Panel | None:
    """The attack being resolved and its dice (each die a target for rerolls and Faces)."""
    atk = view.get("attack")
    if not atk:
        return None
    dice = [draw.Die(d[0], d[1].replace("_", " "), label=f"die {i + 1}", colour=d[0])
            for i, d in enumerate(atk.get("dice") or [])]
    tokens = [draw.Token(f"attack-{i + 1}", f"Die {i + 1}: {d[0]}, {d[1].replace('_', ' ')}",
                         d[1][:2].upper(), "marker", target=f"die:attack-{i + 1}",
                         colour=d[0], badges=["rerolled"] if i in atk.get("rerolled", []) else [])
              for i, d in enumerate(atk.get("dice") or [])]
    name = view["champions"].get(atk["c"], {}).get("name", atk["c"])
    stats = [draw.Stat("Pool", f"{atk['white']} white, {atk['red']} red, {atk['green']} green"),
             draw.Stat("Step", ATTACK_STEPS.get(atk["stage"], atk["stage"]))]
    return draw.Panel("attack", f"{name}'s {atk['kind']} Attack on "
                      f"{_target_name(view, atk['target'])}", None,
                      stats, tokens=tokens, dice=dice)


def decision_panel(view: Mapping[str, Any]) -> draw.Panel | None:
    """The question being asked, with a button for each choice that has no place."""
    d = view.get("decision")
    if not d:
        return None
    tokens = []
    for a in d.get("actions", []):
        for t in a["targets"]:
            if t["kind"] == "option":
                tokens.append(draw.Token(t["id"], a["label"], a["text"][:3], "neutral",
                                         target=t["ref"]))
    return draw.Panel("decision", d["prompt"], d["seat"], tokens=tokens,
                      notes=[f"Rule: {d['section']}"] if d.get("section") else [])


def scene(title: str, view: Mapping[str, Any]) -> draw.Scene:
    """The whole table for one seat's view."""
    panels = [thor_panel(view), minions_panel(view)]
    panels += [champion_panel(cid, c) for cid, c in view["champions"].items()]
    for extra in (attack_panel(view), decision_panel(view)):
        if extra is not None:
            panels.append(extra)
    res = view["reserves"]
    notes = [f"Round {view['round']}; First Champion "
             f"{view['champions'][view['first_champion']]['name']} (marker {view['marker']}, "
             f"{plural(view['knockouts'], 'knockout')}); reserves: {res['temporary']} temporary, "
             f"{plural(res['frost'], 'frost cube')}; this round's Spawning Area: {view['spawn_symbol']}"]
    if view.get("current_card"):
        card = view["current_card"]
        notes.append(f"Resolving: {view.get('card_names', {}).get(card, card)}")
    over = [k for k, v in view["overheated"].items() if v]
    if over:
        notes.append(f"Overheated Minion cards: {', '.join(over)}")
    o = view["outcome"]
    if o["result"] != "ongoing":
        notes.append(f"The Champions {'win' if o['result'] == 'win' else 'lose'}: {o['reason']}")
    sub = view.get("decision", {}) or {}
    return draw.Scene(title, [board(view)], [rounds_track(view)], panels, notes=notes,
                      subtitle=sub.get("prompt", ""))


def view(self: Any, seat: str | None = None) -> dict[str, Any]:
    """The public table (nothing here is hidden from anyone but the order of the Event and
    God decks and the numbers under unlit Furnaces): the position without those, plus
    what the physical table shows printed (the map, cards, rondel icons, the Rounds track)
    and the legal actions with their labels and targets."""
    pos = self._dump()
    for k in ("tasks", "furnace_pool", "events", "gods", "ask"):
        pos.pop(k, None)
    pos["events_deck"] = self.event_deck.public()
    pos["god_deck"] = self.god_deck.public()
    pos["furnace_pool"] = {"size": len(self.furnace_pool)}
    b = self.board
    pos["map"] = {
        "width": b.width, "height": b.height, "rows": list(b.rows),
        "walls": sorted(sorted(w) for w in b.walls),
        "god_inaccessible": sorted(b.god_inaccessible), "altars": list(b.altars),
        "poi": list(b.poi), "spawns": dict(b.spawns), "god_start": b.god_start,
    }
    pos["round_track"] = list(self.content.round_track)
    ct = self.content
    pos["card_names"] = {k: c.name for k, c in [
        *ct.thor_cards.items(), *ct.general_events.items(),
        *(x for evs in ct.scenario_events.values() for x in evs.items())]}
    pos["spawn_symbol"] = self.spawn_symbol()
    god = self.content.god
    pos["thor"].update({
        "name": god.name, "counter": god.counter, "face_health": self.face_health(),
        "faces": {f: {"direction": self.face_dir(f), "front": f in god.front,
                      "damage": self.thor["damage"][f],
                      "destroyed": f in self.thor["destroyed"]} for f in god.faces},
        "passive": god.passive})
    cards: dict[str, Any] = {}
    for k in (1, 2, 3):
        card = self.minion_card(k)
        side = self.minion_side(k)
        cards[str(k)] = {"name": card.name, "model": card.model,
                         "side": "overheated" if self.overheated[str(k)] else "standard",
                         **side.model_dump()}
    pos["minion_cards"] = cards
    for cid, c in pos["champions"].items():
        hf = self.content.human_forms[cid]
        bz = self.content.berserker_forms[self.champs[cid].berserker]
        c["seat"] = self.seat_of(cid)
        c["spaces"] = [self.space_icons(cid, i) for i in range(6)]
        c["human_form"] = {"name": hf.name, "skill": hf.skill.name, "text": hf.skill.text,
                           "upgrades": {str(k): v for k, v in hf.upgrades.items()}}
        c["berserker_form"] = {"name": bz.name, "skill": bz.skill.name,
                               "text": bz.skill.text,
                               "upgrades": {str(k): v for k, v in bz.upgrades.items()}}
        c["next_upgrade"] = min((k for k in self.upgrade_track(cid)
                                 if k > self.champs[cid].fury), default=None)
    d = self.decision()
    pos["decision"] = d and {
        "seat": d.seat, "prompt": d.prompt, "section": d.section,
        "options": [a.text for a in self.legal_actions()],
        "actions": [a.to_json() for a in self.described_actions()]}
    pos["outcome"] = self.outcome().to_json()
    return pos


FACE_SIDES = {"miss": (0, 0), "counter": (0, 1), "damage": (1, 0), "double": (2, 0),
              "heal": (0, 0), "double_heal": (0, 0)}


def outcomes(white: tuple[str, ...], red: tuple[str, ...], green: tuple[str, ...],
             w: int, r: int, g: int, mode: str) -> tuple[tuple[int, float, float], ...]:
    """The evaluation's dice outcomes rolled die by die from nothing (the code before the
    pools were built one die on another; the oracle of test_battleforge_evaluation.py)."""
    dist: dict[tuple[int, int, int], float] = {(0, 0, 3): 1.0}
    for faces, n, wr in ((white, w, True), (red, r, True), (green, g, False)):
        p = 1.0 / len(faces)
        for _ in range(n):
            nxt: dict[tuple[int, int, int], float] = {}
            for (d, c, lo), q in dist.items():
                for f in faces:
                    fd, fc = FACE_SIDES.get(f, (0, 0))
                    if mode == "blue" and fc:
                        fd, fc = 1, 0
                    key = (d + fd, c | fc, min(lo, fd) if wr else lo)
                    nxt[key] = nxt.get(key, 0.0) + q * p
            dist = nxt
    out: dict[int, list[float]] = {}
    for (d, c, lo), q in dist.items():
        if mode == "red" and lo < 3:
            d, c = d - lo, 1
        if mode == "green":
            c = 0
        slot = out.setdefault(d, [0.0, 0.0])
        slot[0] += q
        slot[1] += q * c
    return tuple((d, v[0], v[1]) for d, v in sorted(out.items()))
