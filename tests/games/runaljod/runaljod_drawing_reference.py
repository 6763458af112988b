"""Runaljod's drawing as it was before issue 22's caches: every piece built from the view from
scratch. The reference the cached drawing (``meadhall.games.runaljod.drawing``) is compared with
(test_runaljod_fast_paths.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core import draw, grid
from meadhall.core.words import plural
from meadhall.games.runaljod.describe import SIDE_WORDS, deck_target
from meadhall.games.runaljod.names import card_title, slug

if TYPE_CHECKING:
    from meadhall.games.runaljod.content import RunaljodContent

FUTHARK = {"fehu": "ᚠ", "uruz": "ᚢ", "thurisaz": "ᚦ", "ansuz": "ᚨ", "raidho": "ᚱ",
           "kenaz": "ᚲ", "gebo": "ᚷ", "wunjo": "ᚹ", "hagalaz": "ᚺ", "naudiz": "ᚾ", "isaz": "ᛁ",
           "jera": "ᛃ", "eihwaz": "ᛇ", "perthro": "ᛈ", "algiz": "ᛉ", "sowilo": "ᛊ",
           "tiwaz": "ᛏ", "berkano": "ᛒ", "ehwaz": "ᛖ", "mannaz": "ᛗ", "laguz": "ᛚ",
           "ingwaz": "ᛜ", "dagaz": "ᛞ", "othala": "ᛟ"}
"""Glyphs of the Elder Futhark runes the hero boards name."""

LEGEND = [
    draw.Terrain(".", "Normal space", "stone"),
    draw.Terrain("#", "Obstacle (red dot): blocks movement and line of sight", "rock", "hatch",
                 "●", "red"),
    draw.Terrain("g", "Difficult terrain (green dot): leaving it costs 2 MP", "forest", "dots",
                 "●", "green"),
    draw.Terrain("i", "Ice (white dot): a second ice space needs a physical check", "ice",
                 "cross", "●", "white"),
    draw.Terrain("x", "Exit of the tile", "gold", "", "»"),
    draw.Terrain("n", "Entrance of the tile", "sand", "", "«"),
]

BOARD_SPACES = ("pool", "move1", "move2", "attack1", "attack2", "interact", "physical",
                "spiritual", "skills", "out")
HERO_LETTERS = {"volva": "V", "berserk": "B", "hunter": "H", "warrior": "W"}
ENEMY_LETTERS = {"clan_warrior": "K", "clan_hunter": "A", "northern_wolf": "U", "jotun": "J"}
PHASES = {"setup": "setup", "prep": "preparation phase", "destiny": "destiny phase",
          "rethrow": "destiny phase", "condition": "condition phase",
          "actions": "actions phase", "enemies": "enemies' turn"}


def rune_glyph(icon: str) -> str:
    if icon.startswith("god:"):
        return icon[4:5].upper()
    return FUTHARK.get(icon, icon[:1].upper())


def _space_label(space: str, hero: Mapping[str, Any]) -> str:
    if space in hero["move"]:
        return f"move {hero['move'][space]}"
    return {"pool": "destiny pool", "attack1": "attack", "attack2": "reduced attack",
            "interact": "interact", "physical": "physical check",
            "spiritual": "spiritual check", "skills": "on skill cards",
            "out": "used (thrown next destiny phase)"}[space]


def draw_scene(content: RunaljodContent, title: str, view: Mapping[str, Any]) -> draw.Scene:
    """The table for ``view`` (``RunaljodState.view``)."""
    phase = PHASES.get(view["phase"], view["phase"])
    scene = draw.Scene(title, subtitle=f"Round {view['round']}, {phase}")
    scene.boards.append(_board(content, view))
    scene.tracks.append(_time_track(view))
    scene.panels.append(_altar(content, view))
    for hid, h in view["heroes"].items():
        scene.panels.append(_hero_panel(content, view, hid, h))
    scene.cards.extend(_table_cards(content, view))
    outcome = view.get("outcome") or {}
    if outcome.get("result") in ("win", "loss"):
        scene.notes.append(f"The heroes {'win' if outcome['result'] == 'win' else 'lose'}: "
                           f"{outcome.get('reason', '')}")
    return scene


def _board(content: RunaljodContent, view: Mapping[str, Any]) -> draw.SquareGrid:
    tiles = view["tiles"]
    x0 = min((t[2] for t in tiles), default=0)
    cells: list[draw.Cell] = []
    cols = 0
    rows = 0
    for tile, _card, tx in tiles:
        for y, row in enumerate(view["terrain"][tile]):
            for x, ch in enumerate(row):
                name = grid.name((tx + x, y))
                cells.append(draw.Cell(name, tx + x - x0, y, ch, note=_terrain_note(ch)))
                cols = max(cols, tx + x - x0 + 1)
                rows = max(rows, y + 1)
    tokens: list[draw.Token] = []
    for s in view.get("search_tokens", []):
        tokens.append(draw.Token(f"search:{s}", f"Search token on {s}", "?", "marker", s))
    for s in view.get("bonfires", []):
        tokens.append(draw.Token(f"bonfire:{s}", f"Bonfire on {s}: 1 life point to move "
                                 "through, no ending there; thaws frozen miniatures next to it",
                                 "^", "marker", s))
    for s in view.get("starts", []):
        tokens.append(draw.Token(f"start:{s}", f"Heroes' starting space {s}", "○", "marker", s))
    for hid, h in view["heroes"].items():
        if not h["at"]:
            continue
        hd = content.heroes[hid]
        badges = list(h["conditions"])
        if h["fallen"]:
            badges.append("fallen")
        if h["held_by"]:
            badges.append("held")
        if h["passed"]:
            badges.append("passed")
        tokens.append(draw.Token(
            hid, hd.name, HERO_LETTERS.get(hid, hd.name[:1]), "hero", h["at"],
            target=f"figure:{hid}", hp=h["life"] - h["damage"], max_hp=h["life"],
            badges=badges, stats={"life": f"{h['life'] - h['damage']}/{h['life']}",
                                  "defence": h["defence"], "glory": h["glory"]}))
    for e in view["enemies"]:
        ed = content.enemies[e["kind"]]
        cells_at = [e["at"]] + ([e["also"]] if e.get("also") else [])
        badges = list(e["conditions"])
        if e.get("captor"):
            badges.append("held")
        stats: dict[str, str | int] = {
            "life": f"{e['life'] - e['damage']}/{e['life']}", "defence": e["defence"],
            "move": ed.move, "attack": f"{ed.attack}: {', '.join(ed.dice)}"}
        if ed.keywords:
            stats["keywords"] = ", ".join(ed.keywords)
        if ed.cancels:
            stats["cancels"] = ", ".join(ed.cancels)
        if ed.upgrades:
            stats["upgrades"] = ", ".join(
                u.effect + (f" +{u.value}" if u.value else "") for u in ed.upgrades)
        tokens.append(draw.Token(
            f"enemy{e['uid']}", f"{ed.name} {e['uid']}", ENEMY_LETTERS.get(e["kind"],
                                                                         ed.name[:1]),
            "boss" if ed.final else "enemy", e["at"], cells=cells_at,
            target=f"figure:enemy{e['uid']}", hp=e["life"] - e["damage"], max_hp=e["life"],
            badges=badges, stats=stats))
    return draw.SquareGrid("map", cols, rows, cells, tokens=tokens, legend=list(LEGEND),
                           title=" · ".join(content.tiles[t[0]].name if t[0] in content.tiles
                                            else t[0] for t in tiles))


def _terrain_note(ch: str) -> str:
    return {"#": "obstacle", "g": "difficult terrain", "i": "ice", "x": "exit",
            "n": "entrance"}.get(ch, "")


def _time_track(view: Mapping[str, Any]) -> draw.Track:
    n = view["track"]
    snakes = set(view["snakes"])
    spaces = [draw.Space(str(i), "start" if i == 0 else str(i),
                         note="snake" if i in snakes else "") for i in range(n)]
    tokens = [draw.Token("time", "Time token", "T", "marker", str(view["time"])),
              draw.Token("end", "End marker (the heroes lose when the time token reaches it)",
                         "E", "marker", str(view["end"]))]
    return draw.Track("time", "Time track", spaces, value=view["time"], cyclic=True,
                      tokens=tokens, marks={s: "snake" for s in sorted(snakes)})


def _altar(content: RunaljodContent, view: Mapping[str, Any]) -> draw.Panel:
    tokens = []
    for god, side in view["altar"]:
        gd = content.gods[god]
        tokens.append(draw.Token(
            f"altar:{god}", f"{gd.name}'s rune, {SIDE_WORDS[side]}", god[:1].upper(), "god",
            target=f"figure:altar:{god}", face_down=side == "down",
            facing=90 if side == "side" else 0,
            badges=[SIDE_WORDS[side]], stats={"power": gd.text}))
    notes = [f"{len(view['altar'])} of 4 god's runes; face up and sideways runes can be "
             "invoked with a sideways rune on the interact space"]
    return draw.Panel("altar", "Altar of the gods", tokens=tokens, notes=notes)


def _hero_panel(content: RunaljodContent, view: Mapping[str, Any], hid: str,
                h: Mapping[str, Any]) -> draw.Panel:
    hd = content.heroes[hid]
    status = "fallen" if h["fallen"] else ("held" if h["held_by"] else
                                          ("passed" if h["passed"] else
                                           ("acting" if view.get("active") == hid else "")))
    stats = [draw.Stat("Life", f"{h['life'] - h['damage']}/{h['life']}"),
             draw.Stat("Defence", h["defence"]),
             draw.Stat("Glory", f"{h['glory']}/5"),
             draw.Stat("Skill points", f"{h['skill_points']}/3"),
             draw.Stat("Physical check", ", ".join(h["checks"]["physical"])),
             draw.Stat("Spiritual check", ", ".join(h["checks"]["spiritual"]))]
    if h["trance"]:
        stats.append(draw.Stat("Trance tokens", h["trance"]))
    if h["mark"] != "none":
        stats.append(draw.Stat("Mark token", h["mark"]))
    if h["conditions"]:
        stats.append(draw.Stat("Conditions", ", ".join(h["conditions"])))
    if h["bonus"]:
        stats.append(draw.Stat("God bonus", ", ".join(h["bonus"])))
    if status:
        stats.append(draw.Stat("Status", status))
    spaces = [draw.Space(s, _space_label(s, h), target=f"space:{hid}:{s}")
              for s in BOARD_SPACES]
    runes = []
    for icon, side, place in h["runes"]:
        at = "skills" if place.startswith("skill:") else place
        name = f"{icon[4:]}'s rune" if icon.startswith("god:") else icon
        runes.append(draw.Token(
            f"{hid}:{icon}", f"{name}, {SIDE_WORDS[side]}", rune_glyph(icon),
            "god" if icon.startswith("god:") else "hero", at, target=f"figure:{hid}:{icon}",
            face_down=side == "down", facing=90 if side == "side" else 0,
            badges=[SIDE_WORDS[side]]))
    board = draw.Track(f"{hid}:board", "Hero board", spaces, tokens=runes, columns=2)
    cards = []
    for sk, always in ((hd.skill_coloured, False), (hd.skill_always, True)):
        off = not always and not h["coloured_available"]
        sid = slug(sk.name)
        cards.append(draw.Card(f"{hid}:{sid}", sk.name, sk.text, "hero skill",
                               target=f"card:{hid}:{sid}",
                               badges=["unavailable (coloured life spaces covered)"] if off
                               else (["turned"] if sid in h["turned"] else [])))
    for sid in hd.skills:
        sk = content.skills[sid]
        owned = sid in h["skills"]
        badges = [] if owned else [f"not owned: {plural(sk.cost, 'skill point')}"]
        if sid in h["turned"]:
            badges.append("turned")
        cards.append(draw.Card(f"{hid}:{sid}", sk.name, sk.text, "skill",
                               target=f"card:{hid}:{sid}", badges=badges))
    for item in dict.fromkeys([*h["equipment"], *h["misc"]]):
        it = content.items[item]
        where = "equipped" if item in h["equipment"] else "miscellaneous"
        text = it.text or _item_text(it)
        cards.append(draw.Card(f"{hid}:{item}", it.name, text,
                               "weapon" if it.dice else it.slot, target=f"card:{hid}:{item}",
                               badges=[where]))
    return draw.Panel(hid, f"{hd.name}", seat=view.get("seats", {}).get(hid, hid), stats=stats,
                      tracks=[board], cards=cards, target=f"figure:{hid}")


def _item_text(it: Any) -> str:
    parts = []
    if it.dice:
        parts.append(f"dice: {', '.join(it.dice)}")
    if it.keywords:
        parts.append(", ".join(it.keywords))
    if it.defence:
        parts.append(f"+{it.defence} defence")
    if it.cancels:
        parts.append(f"cancels {', '.join(it.cancels)}")
    if it.life:
        parts.append(f"+{it.life} life")
    for u in it.upgrades:
        parts.append(f"upgrade{'s' if u.cost > 1 else ''} x{u.cost}: {u.effect}"
                     + (f" +{u.value}" if u.value else ""))
    return "; ".join(parts)


def _table_cards(content: RunaljodContent, view: Mapping[str, Any]) -> list[draw.Card]:
    cards = []
    if view["active_card"]:
        ec = content.exploration[view["active_card"]]
        cards.append(draw.Card(f"exploration:{view['active_card']}", ec.name, ec.text,
                               "exploration", badges=["active"]))
    if view["active_event"]:
        card, marked = view["active_event"]
        ev = content.events[card]
        cards.append(draw.Card(f"event:{card}", ev.name, ev.text, "event",
                               badges=[f"{marked}/{ev.circles} circles"]))
    shown = view.get("ai_cards") or []
    if not shown:
        for deck, key in (("common", "enemy AI"), *((d, f"{d} AI")
                                                    for d in content.ai_decks
                                                    if d != "common")):
            discard = view["decks"].get(key, {}).get("discard") or []
            if discard:
                shown.append([deck, discard[-1]])
    for deck, card in shown:
        cards.append(draw.Card(f"ai:{deck}:{card}", f"Enemy AI {card_title(content, deck, card)}",
                               _ai_text(content, deck, card), "enemy AI"))
    if view.get("two_player_card"):
        text = "; ".join(f"{k + 1}: {e.text}" for k, e in
                         enumerate(content.two_player.effects))
        cards.append(draw.Card("two-player", "2-player card", text, "2-player",
                               target="card:two-player",
                               badges=["used this turn"] if view.get("two_player_used") else []))
    for key, d in view["decks"].items():
        known = d.get("known_top") or []
        cards.append(draw.Card(f"deck:{key}", f"{_deck_name(content, key)} deck",
                               plural(d["size"], "card") + (
                                   "; on top: " + ", ".join(card_title(content, key, k)
                                                            for k in known) if known else ""),
                               "deck", face_down=True, target=f"card:{deck_target(key)}"))
    return cards


def _deck_name(content: RunaljodContent, key: str) -> str:
    for e in content.enemies.values():
        if e.ai_deck and key == f"{e.ai_deck} AI":
            return f"{e.name} AI"
    return key[:1].upper() + key[1:]


def _ai_text(content: RunaljodContent, deck: str, card: str) -> str:
    names = {d.group: d.name for d in content.enemies.values()}
    parts = []
    for g in content.ai_decks[deck][card].groups:
        acts = []
        for a in g.actions:
            who = "/".join(content.heroes[t].name for t in a.targets if t in content.heroes)
            acts.append(a.do + (f" ({who})" if who else ""))
        parts.append(f"{names.get(g.group, g.group)}: {', then '.join(acts)}")
    return "; ".join(parts)
