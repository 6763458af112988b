"""The table as :mod:`meadhall.core.draw` pieces, built from a seat's view only.

The hex map with its Walls, the Areas closed to Thor and to everyone, altars, Points of
Interest and Spawning Areas; the champions, minions (lying ones by their Spawning Area), tokens
and Thor with his facing; Thor's six Faces, the Minion cards and the God deck; one panel per
champion with the rondel and its cubes, Health, Fury, Attributes and the Form cards; the Rounds
track with its Spawning symbols; the attack's dice; and the decision with its placeless choices.
Every target a legal action names (see :mod:`.presentation`) is drawn with the same string.

Pieces that only the content, the map or a few values decide (the map's areas and Walls, track
spaces, cards, figures) are built once per those values and shared by the scenes that show
them (:func:`_kept`); each scene has its own lists. Readers never change a scene's pieces.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from meadhall.core import draw
from meadhall.core.words import plural

from .basics import MAX_HEALTH, area_name, minion_letter
from .presentation import COMPASS, FACE_NOTES

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


T = TypeVar("T")
_KEPT: dict[tuple[str, Hashable], Any] = {}
KEPT_MAX = 20_000


def _cached(store: dict[Any, Any], key: Hashable, build: Callable[[], T], most: int) -> T:
    """What ``build`` makes for ``key``, from ``store``, built once; the store is emptied when
    it holds ``most``."""
    found = store.get(key)
    if found is None:
        if len(store) >= most:
            store.clear()
        found = store[key] = build()
    return found  # type: ignore[no-any-return]


def _kept(kind: str, key: Hashable, build: Callable[[], T]) -> T:
    """The piece ``build`` makes for ``key`` (everything it reads), built once."""
    return _cached(_KEPT, (kind, key), build, KEPT_MAX)


_RECENT: dict[str, dict[Hashable, Any]] = {}
RECENT_MAX = 64


def _recent(kind: str, key: Hashable, build: Callable[[], T]) -> T:
    """The piece ``build`` makes for ``key`` (everything it reads), kept among the last
    :data:`RECENT_MAX` of its kind: whole panels, which rarely come back once they changed
    (a cache that only grows keeps every old panel alive for the garbage collector to scan
    again and again; these are all dropped when the kind has that many)."""
    kept = _RECENT.get(kind)
    if kept is None:
        kept = _RECENT[kind] = {}
    return _cached(kept, key, build, RECENT_MAX)


_SEEN: dict[Hashable, tuple[Any, int]] = {}
"""Per slot, the value last numbered (a private copy, so what a caller later does to its
view cannot reach it) and its number (:func:`_number`)."""
_NUMBERS: dict[Hashable, int] = {}
"""The number of each value's key (:func:`_number`)."""
_COUNT = itertools.count()


def _number(slot: Hashable, value: Any, key_of: Callable[[], Hashable]) -> int:
    """A number that stands for ``value`` (JSON-like) in the keys of kept pieces: the same
    for values that read the same (``key_of()``, a key of everything the pieces read of
    it, gives the same key), and never one used for another value. A value equal to the last
    one numbered in ``slot`` (the usual case: the map, the Minion cards, a champion's printed
    board, Thor's Faces at step after step of one game) is recognised by one ``==`` at C
    speed, without its key being built."""
    seen = _SEEN.get(slot)
    if seen is not None and seen[0] == value:
        return seen[1]
    key = key_of()
    n = _NUMBERS.get(key)
    if n is None:
        if len(_NUMBERS) >= KEPT_MAX:
            _NUMBERS.clear()  # numbers are never reused: the count goes on
        n = _NUMBERS[key] = next(_COUNT)
    _SEEN[slot] = (_json_copy(value), n)
    return n


def forget() -> None:
    """Drop every kept piece (tests compare a drawing with one built afresh)."""
    _KEPT.clear()
    _RECENT.clear()
    _SEEN.clear()
    _NUMBERS.clear()


def degrees(direction: int) -> int:
    """A hex direction (0 north-east, clockwise) in degrees clockwise from up."""
    return 30 + 60 * (direction % 6)


def _areas(m: Mapping[str, Any]) -> tuple[list[draw.Cell], list[draw.Wall]]:
    """The map's areas and Walls."""
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
            cells[-1].target = f"area:{a}"
    walls = [draw.Wall(a, b) for a, b in m["walls"]]
    return cells, walls


def _map_key(m: Mapping[str, Any]) -> Hashable:
    return (m["width"], m["height"], tuple(m["rows"]), tuple(map(tuple, m["walls"])),
            tuple(m["god_inaccessible"]), tuple(m["altars"]), tuple(m["poi"]),
            tuple(m["spawns"].items()))


def _map_pieces(m: Mapping[str, Any]) -> Any:
    """The map's areas and Walls, kept by the map."""
    # ``==`` of dicts ignores their order: the order read (the Spawning Areas') is compared too.
    return _kept("map", _number("map", (tuple(m["spawns"]), m), lambda: _map_key(m)),
                 lambda: _areas(m))


def _json_copy(v: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, everything else shared)."""
    if isinstance(v, dict):
        return {k: _json_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_json_copy(x) for x in v]
    if isinstance(v, tuple):
        return tuple([_json_copy(x) for x in v])
    return v


def _cards_key(cards: Mapping[str, Any]) -> int:
    """A number for the Minion cards (every field of each, in order)."""
    return _number("minion cards", cards, lambda: tuple([
        (k, tuple(card.items())) for k, card in cards.items()]))


def _minion_tokens(minions: Mapping[str, Any], cards: Mapping[str, Any],
                   spawns: Mapping[str, str]) -> list[draw.Token]:
    """Every minion's token (by id), the whole run kept by what it reads."""
    key = (tuple([(mid, mn["type"], mn["area"], mn["damage"], mn.get("lying"))
                  for mid, mn in minions.items()]),
           _cards_key(cards), tuple(spawns.items()))

    def build() -> list[draw.Token]:
        keys = {k: tuple(card.items()) for k, card in cards.items()}
        out = []
        for mid, mn in sorted(minions.items()):
            k = str(mn["type"])
            out.append(_minion_token(mid, mn, cards[k], spawns, keys[k]))
        return out

    return _kept("minions", key, build)


def _champion_token(cid: str, c: Mapping[str, Any]) -> draw.Token:
    a = c["attributes"]
    key = (cid, c["name"], c["area"], c["health"], c["colour"], c["stunned"], c["form"],
           c["fury"], a["green"], a["red"], a["movement"])
    return _kept("champion", key, lambda: draw.Token(
        cid, c["name"], c["name"][:2], "hero", c["area"], target=f"figure:{cid}",
        hp=c["health"], max_hp=MAX_HEALTH, colour=c["colour"],
        badges=(["stunned"] if c["stunned"] else []) + (["Berserker"] if c["form"] ==
                                                       "berserker" else []),
        stats={"Health": f"{c['health']}/{MAX_HEALTH}", "Fury": c["fury"],
               "Form": c["form"], "Green dice": a["green"],
               "Red dice": a["red"],
               "Movement": a["movement"]}))


def _minion_token(mid: str, mn: Mapping[str, Any], card: Mapping[str, Any],
                  spawns: Mapping[str, str], card_key: Hashable = None) -> draw.Token:
    """A minion; ``card_key`` is ``tuple(card.items())`` when the caller has it."""
    at = spawns.get(mn.get("lying") or "", "") if mn["area"] is None else mn["area"]
    key = (mid, mn["area"], mn["damage"], at,
           tuple(card.items()) if card_key is None else card_key)

    def build() -> draw.Token:
        name = f"{card['model']} {minion_letter(mid)}"
        stats = {"Health": f"{card['health'] - mn['damage']}/{card['health']}",
                 "Actions": card["actions"], "Damage": card["damage"],
                 "Counterattack": card["counter"], "Fury": card["fury"],
                 "Target": card["target"].replace("_", " "), "Card": card["name"]}
        if mn["area"] is None:
            return draw.Token(mid, f"{name} (lying, Inactive)", mid[0].lower(), "enemy",
                              at, face_down=True, badges=["lying"], stats=stats)
        return draw.Token(mid, name, mid[0], "enemy", mn["area"], target=f"figure:{mid}",
                          hp=card["health"] - mn["damage"], max_hp=card["health"],
                          badges=["overheated"] if card["side"] == "overheated" else [],
                          stats=stats)

    return _kept("minion", key, build)


def _faces_key(t: Mapping[str, Any]) -> Hashable:
    """A number for Thor's Faces (all that his token and the Face tokens read of them)."""
    fh, faces = t["face_health"], t["faces"]
    # ``==`` of dicts ignores their order: the Faces' order (their tokens') is compared too.
    return _number("faces", (fh, tuple(faces), faces), lambda: (fh, tuple([
        (f, d["direction"], d["damage"], d["destroyed"], d["front"])
        for f, d in faces.items()])))


def _thor_token(t: Mapping[str, Any], faces_key: Hashable = None) -> draw.Token:
    """Thor; ``faces_key`` is :func:`_faces_key` of ``t`` when the caller has it."""
    faces = t["faces"]
    key = (t["activated"], t["area"], _faces_key(t) if faces_key is None else faces_key)
    return _kept("thor", key, lambda: draw.Token(
        "thor", "Thor" + ("" if t["activated"] else " (not yet activated)"), "T", "god",
        t["area"], target="figure:thor", facing=degrees(faces["red"]["direction"]),
        badges=[f"{f} destroyed" for f, d in faces.items() if d["destroyed"]],
        stats={f"{f} Face": f"{COMPASS[d['direction']]}, "
               + ("destroyed" if d["destroyed"] else
                  f"{t['face_health'] - d['damage']}/{t['face_health']}")
               for f, d in faces.items()}))


def _marker_token(a: str, kind: str) -> draw.Token:
    def build() -> draw.Token:
        label, glyph, colour = TOKEN_INFO.get(kind, (kind, "?", ""))
        return draw.Token(f"token-{a}", label, glyph, "marker", a, colour=colour)

    return _kept("marker", (a, kind), build)


def _furnace_token(a: str, n: int) -> draw.Token:
    return _kept("furnace", (a, n), lambda: draw.Token(
        f"furnace-{a}", "Unlit Furnace (number face down)" if n == 0 else f"Lit Furnace {n}",
        "F" if n == 0 else f"F{n}", "marker", a, face_down=n == 0,
        badges=[] if n == 0 else ["lit"]))


def board(view: Mapping[str, Any], faces_key: Hashable = None) -> draw.HexGrid:
    """The scenario map with every figure and token on it; ``faces_key`` is
    :func:`_faces_key` of Thor when the caller has it."""
    m = view["map"]
    cells, walls = _map_pieces(m)
    # Whole runs of tokens kept by what they read (one key per run instead of one per
    # token); each token inside is still the one kept per its own values, so the encoder
    # finds the very same tokens whichever run they came in.
    marks = view["tokens"]
    tokens: list[draw.Token] = [*_kept("markers", tuple(marks.items()), lambda: [
        _marker_token(a, kind) for a, kind in sorted(marks.items())])]
    furnaces = view["furnaces"]
    if furnaces:
        tokens += _kept("furnaces", tuple(furnaces.items()), lambda: [
            _furnace_token(a, n) for a, n in sorted(furnaces.items())])
    for cid, c in view["champions"].items():
        tokens.append(_champion_token(cid, c))
    tokens += _minion_tokens(view["minions"], view["minion_cards"], m["spawns"])
    tokens.append(_thor_token(view["thor"], faces_key))
    return draw.HexGrid("map", m["width"], m["height"], list(cells), list(walls), tokens,
                        list(LEGEND), title="Scenario map")


def _round_spaces(track: list[str], spawns: Mapping[str, str]) -> list[draw.Space]:
    spaces = []
    for i, sym in enumerate(track):
        note = ("the last space: the Champions lose" if sym == "end"
                else f"{sym} Spawning Area {spawns.get(sym, '?')}")
        spaces.append(draw.Space(str(i + 1), SYMBOL_GLYPH.get(sym, sym), note=note))
    return spaces


def rounds_track(view: Mapping[str, Any]) -> draw.Track:
    """The Rounds track: each space's Spawning symbol; the Twilight marker (kept whole by the
    track, the Spawning Areas and the marker's space)."""
    track = view["round_track"]
    spawns = view["map"]["spawns"]
    value = min(view["twilight_space"] - 1, len(track) - 1)

    def build() -> draw.Track:
        spaces = _kept("rounds", (tuple(track), tuple(spawns.items())),
                       lambda: _round_spaces(track, spawns))
        return draw.Track("rounds", "Rounds track (Twilight marker)", list(spaces),
                          value=value, marks={len(track) - 1: "defeat"})

    return _recent("rounds track", (tuple(track), tuple(spawns.items()), value), build)


def _rondel_spaces(cid: str, c: Mapping[str, Any]) -> list[draw.Space]:
    spaces = []
    for i, icons in enumerate(c["spaces"]):
        b = c["boons"][i] if i < len(c["boons"]) else None
        boon = f" +{b['level']} {b['symbol']}" if b else ""
        spaces.append(draw.Space(str(i + 1), " / ".join(icons) + boon, target=f"rondel:{cid}:{i + 1}",
                                 note="/".join(icons) + (f"; {'Greater' if b['level'] == 2 else 'Minor'}"
                                                         f" {b['symbol']} Boon" if b else "")))
    return spaces


def _cube_tokens(cid: str, i: int, cubes: str, colour: str) -> list[draw.Token]:
    tokens = []
    for kind in "ctf":
        n = cubes.count(kind)
        if n:
            word, col = CUBE_WORDS[kind]
            tokens.append(draw.Token(f"{cid}-{i + 1}-{kind}", plural(n, word), str(n),
                                     "marker", str(i + 1), colour=col if kind != "c"
                                     else colour))
    return tokens


def _form_cards(cid: str, c: Mapping[str, Any]) -> list[draw.Card]:
    hf, bz = c["human_form"], c["berserker_form"]
    human = c["form"] == "human"
    return [
        draw.Card(f"{cid}-human", f"{hf['name']}: {hf['skill']}", hf["text"], "Human Form",
                  target=f"card:{cid}-human", badges=[f"{c['charges']['human']} charges"]),
        draw.Card(f"{cid}-berserker", f"{bz['name']}: {bz['skill']}", bz["text"],
                  "Berserker Form", target=f"card:{cid}-berserker",
                  badges=["at 8 Fury"] if human else [f"{c['charges']['berserker']} charges"]),
    ]


def _health_spaces() -> list[draw.Space]:
    return [draw.Space(str(i)) for i in range(16)]


def _champion_stats(c: Mapping[str, Any], human: bool) -> list[draw.Stat]:
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
    return stats


def _printed_id(cid: str, c: Mapping[str, Any]) -> int:
    """A number for what a champion's board shows printed (name, colour, seat, rondel icons,
    Form cards with their Upgrades): keys carry it in place of those values."""
    hf, bz = c["human_form"], c["berserker_form"]
    # ``==`` of dicts ignores their order: the order read (the Upgrades') is compared too.
    return _number(("printed", cid), (c["name"], c["colour"], c.get("seat", cid), c["spaces"],
                                      hf, bz, tuple(hf["upgrades"]), tuple(bz["upgrades"])),
                   lambda: (
        cid, c["name"], c["colour"], c.get("seat", cid), tuple(map(tuple, c["spaces"])),
        hf["name"], hf["skill"], hf["text"], tuple(hf["upgrades"].items()), bz["name"],
        bz["skill"], bz["text"], tuple(bz["upgrades"].items())))


def champion_panel(cid: str, c: Mapping[str, Any]) -> draw.Panel:
    """A champion's board: rondel with cubes and Boons, Health, Fury, Attributes, Forms; the
    whole panel is kept by everything it reads of the champion (scenes share it, so the
    encoder sees the very same panel while it does not change)."""
    boons = c["boons"]
    a = c["attributes"]
    ch = c["charges"]
    pid = _printed_id(cid, c)
    key = (cid, pid,
           tuple([(b["level"], b["symbol"]) if b else None for b in boons]), tuple(c["rondel"]),
           c["health"], c["fury"], c["form"], ch["human"], ch["berserker"], c["stunned_cubes"],
           c["area"], c.get("next_upgrade"), a["green"], a["red"], a["movement"],
           tuple(c["offerings"]), c["supply"], c["stunned"])
    return _recent("champion panel", key, lambda: _champion_panel(cid, c, pid))


def _champion_panel(cid: str, c: Mapping[str, Any], pid: int) -> draw.Panel:
    """The panel; ``pid`` is :func:`_printed_id` of ``c``."""
    # The panel's three tracks are pieces too, each kept whole by what it reads: a panel
    # drawn anew because one thing of the champion changed mostly reuses them.
    rondel = _kept("rondel track", (cid, pid, tuple([
        (b["level"], b["symbol"]) if b else None for b in c["boons"]]), tuple(c["rondel"])),
        lambda: _rondel_track(cid, c))
    health = _kept("health track", (cid, c["health"]), lambda: draw.Track(
        f"health-{cid}", "Health", list(_kept("health", 16, _health_spaces)),
        value=c["health"]))
    hu, bu = c["human_form"]["upgrades"], c["berserker_form"]["upgrades"]
    fury = _kept("fury track", (cid, pid, c["fury"]),
                 lambda: _fury_track(cid, c["fury"], hu, bu))
    human = c["form"] == "human"
    ch = c["charges"]
    cards = list(_kept("forms", (cid, pid, ch["human"], ch["berserker"], human),
                       lambda: _form_cards(cid, c)))
    stunned = [draw.Token(f"{cid}-centre-{k}", f"{CUBE_WORDS[x][0]} set aside (Stunned)",
                          x, "marker") for k, x in enumerate(c["stunned_cubes"])]
    a = c["attributes"]
    key = (c["area"], c["health"], c["fury"], c.get("next_upgrade"), human, a["green"], a["red"],
           a["movement"], tuple(c["offerings"]), c["supply"], c["stunned"],
           len(c["stunned_cubes"]))
    stats = list(_kept("champion stats", key, lambda: _champion_stats(c, human)))
    return draw.Panel(f"champion-{cid}", f"{c['name']} ({c['colour']})", c.get("seat", cid),
                      stats, [rondel, health, fury], cards, stunned)


def _rondel_track(cid: str, c: Mapping[str, Any]) -> draw.Track:
    boons = c["boons"]
    spaces = _kept("rondel", (cid, tuple(map(tuple, c["spaces"])),
                              tuple([(b["level"], b["symbol"]) if b else None for b in boons])),
                   lambda: _rondel_spaces(cid, c))
    tokens: list[draw.Token] = []
    colour = c["colour"]
    for i, cubes in enumerate(c["rondel"]):
        if cubes:
            tokens += _kept("cubes", (cid, i, cubes, colour),
                            lambda i=i, cubes=cubes: _cube_tokens(cid, i, cubes, colour))
    return draw.Track(f"rondel-{cid}", "Rondel (clockwise)", list(spaces), cyclic=True,
                      tokens=tokens)


def _fury_track(cid: str, fury: int, hu: Mapping[str, str], bu: Mapping[str, str]
                ) -> draw.Track:
    top = max([int(k) for k in bu] + [fury])
    fury_marks = {int(k): v for k, v in hu.items()}
    fury_marks.update({int(k): v for k, v in bu.items()})
    return draw.Track(f"fury-{cid}", "Fury (Upgrades marked)",
                      list(_kept("fury", top, lambda: [draw.Space(str(i))
                                                       for i in range(top + 1)])),
                      value=fury, marks=fury_marks)


def _face_tokens(t: Mapping[str, Any]) -> list[draw.Token]:
    tokens = []
    for f, d in t["faces"].items():
        left = t["face_health"] - d["damage"]
        tokens.append(draw.Token(
            f"thor-{f}", f"{f.capitalize()} Face ({'front' if d['front'] else 'back'}), toward "
            f"{COMPASS[d['direction']]}", f[0].upper(), "god", target=f"figure:thor-{f}",
            hp=0 if d["destroyed"] else left, max_hp=t["face_health"], colour=f,
            facing=degrees(d["direction"]), badges=["destroyed"] if d["destroyed"] else [],
            stats={"Effect": FACE_NOTES[f], "Health": f"{left}/{t['face_health']}"}))
    return tokens


def thor_panel(view: Mapping[str, Any], faces_key: Hashable = None) -> draw.Panel:
    """Thor's status card: his six Faces (Health, direction, effect) and the God deck; kept
    whole by everything it reads (``faces_key``: :func:`_faces_key` of Thor when the caller
    has it)."""
    t = view["thor"]
    if faces_key is None:
        faces_key = _faces_key(t)
    deck = view["god_deck"]
    names = view.get("card_names", {})
    if view.get("god_card"):
        card = view.get("current_card") or view["god_card"]
        shown: tuple[Any, ...] = ("card", names.get(card, card))
    elif deck["discard"]:
        last = deck["discard"][-1]
        shown = ("discard", names.get(last, last))
    else:
        shown = ()
    key = (faces_key, t["area"], t["activated"], t["counter"], t["passive"], deck["size"],
           shown)
    return _recent("thor panel", key, lambda: _thor_panel(t, deck["size"], shown, faces_key))


def _thor_panel(t: Mapping[str, Any], size: int, shown: tuple[Any, ...],
                faces_key: Hashable) -> draw.Panel:
    tokens = list(_kept("faces", faces_key, lambda: _face_tokens(t)))
    cards = [draw.Card("god-deck", "God deck", f"{size} cards", "deck", face_down=True)]
    if shown and shown[0] == "card":
        cards.append(draw.Card("god-card", shown[1], "being resolved", "God card"))
    elif shown:
        cards.append(draw.Card("god-discard", shown[1], "last played", "God card"))
    stats = [draw.Stat("Area", t["area"] + ("" if t["activated"] else " (not yet activated)")),
             draw.Stat("Counterattack", t["counter"]),
             draw.Stat("Face Health", t["face_health"]),
             draw.Stat("Passive", t["passive"])]
    return draw.Panel("thor", "Thor", None, stats, cards=cards, tokens=tokens)


def _minion_cards(view: Mapping[str, Any]) -> list[draw.Card]:
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
    return cards


def minions_panel(view: Mapping[str, Any]) -> draw.Panel:
    """The three Minion cards on the Confrontation board, with the side that is up; kept
    whole by everything it reads."""
    mc = view["minion_cards"]
    ev = view["events_deck"]
    last = ev["discard"][-1] if ev["discard"] else None
    shown = None if last is None else view.get("card_names", {}).get(last, last)
    key = (_cards_key(mc), ev["size"], last is not None, shown)
    return _recent("confrontation", key,
                   lambda: _minions_panel(view, ev["size"], last, shown))


def _minions_panel(view: Mapping[str, Any], size: int, last: str | None,
                   shown: str | None) -> draw.Panel:
    mc = view["minion_cards"]
    cards = list(_kept("minion cards", _cards_key(mc), lambda: _minion_cards(view)))
    cards.append(_kept("event deck", size, lambda: draw.Card(
        "event-deck", "Event deck", f"{size} cards", "deck", face_down=True)))
    if last is not None:
        cards.append(draw.Card("event-discard", shown, "last Event", "Event card"))
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
    """The question being asked, with a button for each choice that has no place; kept whole
    by everything it reads."""
    d = view.get("decision")
    if not d:
        return None
    options = tuple([(t["id"], a["label"], a["text"][:3], t["ref"])
                     for a in d.get("actions", []) for t in a["targets"]
                     if t["kind"] == "option"])
    key = (d["prompt"], d["seat"], d.get("section"), options)
    return _recent("decision", key, lambda: draw.Panel(
        "decision", d["prompt"], d["seat"],
        tokens=[draw.Token(i, label, short, "neutral", target=ref)
                for i, label, short, ref in options],
        notes=[f"Rule: {d['section']}"] if d.get("section") else []))


def scene(title: str, view: Mapping[str, Any]) -> draw.Scene:
    """The whole table for one seat's view."""
    faces_key = _faces_key(view["thor"])
    panels = [thor_panel(view, faces_key), minions_panel(view)]
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
    return draw.Scene(title, [board(view, faces_key)], [rounds_track(view)], panels, notes=notes,
                      subtitle=sub.get("prompt", ""))
