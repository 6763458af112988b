"""The Midhalla table as a :class:`meadhall.core.draw.Scene`, built from a seat's view only.

What the physical game shows: the dungeon (map tiles joined by paths, the gate, fortification
tokens, curse markers, spawn tokens, unexplored paths), trap miniatures with their HP dice,
enemy standees with their HP, heroes; the gate die, the resource track (silver, runestones),
the timer and the fate scale; each hero's tableau (skill rows with the two skill tokens,
ultimates, items, status tokens); Dara's cart, the trap cards and components, the quest board,
the skill pool, the party sheet and, during Phase 4, the rewards steps. Target strings are the
ones :mod:`meadhall.games.midhalla.describe` gives the legal actions.

Consecutive views differ in a few places, so each piece (a figure, a tableau, a panel, a
track) is remembered by what it reads of the view and handed out again, the very same
object, while that reads the same: scenes share pieces and never change one once drawn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from meadhall.core import draw
from meadhall.core.fastcopy import fastcopy
from meadhall.core.protocol import PLAYERS
from meadhall.core.words import plural
from meadhall.games.midhalla.board import GATE, Topology
from meadhall.games.midhalla.content import Content
from meadhall.games.midhalla.describe import (
    OPTION_KINDS,
    component_effect_text,
    option_target,
    unlock_name,
)
from meadhall.games.midhalla.render import describe as effects_text

LEGEND = [
    draw.Terrain("gate", "Gate map tile (fortified)", "gold", "grid", "G"),
    draw.Terrain("fortified", "Fortified map tile", "stone", "dots"),
    draw.Terrain("cursed", "Unfortified map tile with a curse marker", "blood", "cross"),
    draw.Terrain("open", "Unfortified map tile (enemies spawn here)", "void", ""),
    draw.Terrain("order", "Number in a tile's corner: the tile activation order", "white", "",
                 "1"),
]
SPAWN_GLYPH = {"plus1": "+1", "elite": "E", "none": "0"}
SPAWN_NAME = {"plus1": "+1 Spawn token", "elite": "Elite Spawn token", "none": "No Spawn token"}
DECK_NAMES = {"enemy": "Enemy", "elite": "Elite enemy", "items": "Rare item",
              "components": "Trap component", "tier1": "Tier 1 event", "tier2": "Tier 2 event",
              "chapter": "Chapter event", "level1": "Level 1 skill", "level2": "Level 2 skill",
              "level3": "Level 3 skill"}
"""The decks as players name them."""
SIDE_NAME = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
REWARD_STEPS = [("4.1", "Check quest objectives"), ("4.2", "Refresh 1 ultimate"),
                ("4.3", "Refresh used items"), ("4.4", "Remove skill and status tokens"),
                ("4.5", "Level up"), ("4.6", "Add 2 items to Dara's cart"),
                ("4.7", "Gain 6 silver and 2 runestones"), ("4.8", "Gain 3 trap components")]
REWARD_INDEX = {"quests": 0, "ultimates": 1, "tokens": 3, "level": 4, "gains": 5}
PHASES = [("exploration", "1 Exploration"), ("preparation", "2 Preparation"),
          ("combat", "3 Combat"), ("rewards", "4 Rewards")]


_MEMO: dict[tuple[Any, ...], tuple[Content, Any]] = {}
"""What the drawing works out from content alone (names, card texts), by (content id, what),
held with the content so that an id is never reused."""


def _memo(c: Content, key: tuple[Any, ...], make: Any) -> Any:
    """``make()``, remembered for content ``c`` and ``key`` (``make`` reads content only)."""
    k = (id(c), *key)
    hit = _MEMO.get(k)
    if hit is None or hit[0] is not c:
        hit = _MEMO[k] = (c, make())
    return hit[1]


def _unlock(c: Content, kind: str, what: str) -> str:
    """:func:`unlock_name`, remembered."""
    return _memo(c, ("unlock", kind, what), lambda: unlock_name(c, kind, what))  # type: ignore[no-any-return]


class _Kept:
    """The pieces last drawn for one content object, by slot: (a copy of what the piece
    reads of the view, the piece). Consecutive views differ in a few places, so most pieces
    are handed out again as the very objects drawn last time (drawn pieces are never changed
    once drawn, so scenes may share them; the observation encoder reuses its numbers for a
    piece it sees again)."""

    __slots__ = ("content", "last")

    def __init__(self, content: Content) -> None:
        self.content = content
        self.last: dict[Any, tuple[Any, Any]] = {}


_KEPT: dict[int, _Kept] = {}


def _kept(c: Content) -> dict[Any, tuple[Any, Any]]:
    """The last drawn pieces for content ``c`` (held with the content: its id is never
    reused while it is held)."""
    k = _KEPT.get(id(c))
    if k is None or k.content is not c:
        k = _KEPT[id(c)] = _Kept(c)
    elif len(k.last) > 4096:  # pieces of figures long gone
        k.last.clear()
    return k.last


def _again(last: dict[Any, tuple[Any, Any]], slot: Any, key: Any, make: Any,
           copy: Any = fastcopy) -> Any:
    """The piece ``make()`` draws from ``key`` (what it reads of the view), or the very piece
    drawn last time for ``slot`` when ``key`` reads the same; ``key`` is copied when kept, so
    a caller's later change to a view can never make a stale piece look current. Equal dicts
    may differ in order: a key holds the order of every dict whose order is drawn."""
    hit = last.get(slot)
    if hit is not None and hit[0] == key:
        return hit[1]
    v = make()
    last[slot] = (copy(key), v)
    return v


def _copy_figure(d: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a figure's view (a hero's, an enemy's, a trap's): numbers, names and lists
    of names."""
    out = dict(d)
    for k, v in out.items():
        if v.__class__ is list:
            out[k] = v[:]  # replacing a value keeps the dict's size: iterating stays valid
    return out


_TAO: dict[tuple[Any, ...], list[str]] = {}
"""The tile activation order by the drawn tiles' links (the same few dungeons recur)."""


def _tao(tiles_v: Mapping[str, Any]) -> list[str]:
    """The tile activation order, worked out from the drawn links as the rules do."""
    key = tuple((tid, tuple(sorted(t.get("links", {}).items()))) for tid, t in tiles_v.items())
    tao = _TAO.get(key)
    if tao is None:
        if len(_TAO) > 4096:
            _TAO.clear()
        tao = _TAO[key] = list(Topology({tid: SimpleNamespace(  # type: ignore[misc]
            links=t.get("links", {})) for tid, t in tiles_v.items()}).tao())
    return tao


def short(c: Content, hid: str) -> str:
    """Harkon for Harkon the Drengr; a follower's full name."""
    return hero_name(c, hid).split(" the ")[0]


def _who(c: Content, seat: str) -> str:
    """Who decides, as the table says it: ``Harkon``, ``the players``."""
    return "the players" if seat == PLAYERS else short(c, seat)


def hero_name(c: Content, hid: str) -> str:
    if hid in c.cat.heroes:
        return c.cat.heroes[hid].name
    return c.cat.followers[hid].name if hid in c.cat.followers else hid


def scene(c: Content, title: str, view: Mapping[str, Any]) -> draw.Scene:
    """The whole table for ``view`` (a seat's :meth:`MidhallaState.view`).

    Each piece is drawn again only when what it reads of the view changed (:func:`_again`);
    otherwise the piece drawn last time is handed out again."""
    last = _kept(c)
    chapter = c.chapters[view["chapter"]]
    cycle = min(view["cycle"], chapter.cycles)
    subtitle = f"{chapter.name} - cycle {cycle} of {chapter.cycles} - phase {view['phase']}"
    notes = []
    choice = view.get("choice")
    if choice:
        notes.append(f"Now ({_who(c, choice['seat'])}): {choice['prompt']}")
    outcome = view.get("outcome") or {}
    if outcome.get("result") not in (None, "ongoing"):
        notes.append(f"The game is over: {outcome['result']} - {outcome['reason']}")
    hero_tokens, hero_panels = _heroes(c, view["heroes"], last)
    enemy_tokens, enemy_panel = _enemies(c, view["enemies"], last)
    gate_hp = view["gate_hp"]
    die = _again(last, "gate-die", gate_hp,
                 lambda: draw.Die("d20", str(gate_hp), label="Gate HP die"))
    return draw.Scene(
        title, boards=[_dungeon(c, view, last, hero_tokens, enemy_tokens)],
        tracks=_tracks(c, view, chapter, last),
        panels=_panels(c, view, last, hero_panels, enemy_panel), cards=[],
        dice=[die], notes=notes, subtitle=subtitle)


# ----------------------------------------------------------------- the dungeon
def _dungeon(c: Content, view: Mapping[str, Any], last: dict[Any, tuple[Any, Any]],
             hero_tokens: tuple[draw.Token, ...], enemy_tokens: tuple[draw.Token, ...]
             ) -> draw.TileNetwork:
    tiles_v: Mapping[str, Any] = view["tiles"]
    # the tiles' order is part of the key: markers are drawn in it
    tiles, links, markers = _again(last, "tiles", (tuple(tiles_v), tiles_v),
                                   lambda: _map_tiles(tiles_v))
    tokens = [*markers, *hero_tokens, *enemy_tokens, *_trap_tokens(c, view["traps"], last)]
    return draw.TileNetwork("dungeon", list(tiles), list(links), tokens, LEGEND, "The dungeon")


def _map_tiles(tiles_v: Mapping[str, Any]
               ) -> tuple[tuple[draw.Tile, ...], tuple[draw.Link, ...], tuple[draw.Token, ...]]:
    """The map tiles as drawn, with their links and markers."""
    tiles: list[draw.Tile] = []
    links: list[draw.Link] = []
    tokens: list[draw.Token] = []
    tao = _tao(tiles_v)
    order = {tid: i + 1 for i, tid in enumerate(tao)}
    for tid, t in tiles_v.items():
        x, y = t["at"]
        links_v = t.get("links", {})
        paths_v = t.get("paths", {})
        key = (tid, x, y, t.get("curses", 0), t.get("fortified", False), t.get("token"),
               tuple(sorted(links_v.items())), tuple(sorted(paths_v.items())),
               order.get(tid, 0))
        drawn = _TILES.get(key)
        if drawn is None:
            if len(_TILES) > 8192:
                _TILES.clear()
            drawn = _TILES[key] = _tile(tid, x, y, t, links_v, paths_v, order.get(tid, 0))
        tiles.append(drawn[0])
        links.extend(drawn[1])
        tokens.extend(drawn[2])
    return tuple(tiles), tuple(links), tuple(tokens)


def _heroes(c: Content, heroes_v: Mapping[str, Any], last: dict[Any, tuple[Any, Any]]
            ) -> tuple[tuple[draw.Token, ...], tuple[draw.Panel, ...]]:
    """The heroes' figures on the map and their tableaus (each remembered by the hero's
    view, all of them by the heroes' view)."""
    hit = last.get("heroes")
    if hit is not None and hit[0][0] == tuple(heroes_v) and hit[0][1] == heroes_v:
        return hit[1]  # type: ignore[no-any-return]
    tokens: list[draw.Token] = []
    panels: list[draw.Panel] = []
    for hid, h in heroes_v.items():
        token, panel = _again(last, ("hero", hid), h,
                              lambda hid=hid, h=h: (_hero_token(c, hid, h, last),
                                                    _hero_panel(c, hid, h, last)),
                              _copy_figure)
        if token is not None:
            tokens.append(token)
        panels.append(panel)
    out = (tuple(tokens), tuple(panels))
    # the copies just kept for each hero: never changed, so they can be shared here
    last["heroes"] = ((tuple(heroes_v), {hid: last["hero", hid][0] for hid in heroes_v}), out)
    return out


def _hero_token(c: Content, hid: str, h: Mapping[str, Any],
                last: dict[Any, tuple[Any, Any]]) -> draw.Token | None:
    """A hero's figure on the map (none off the map or KO), remembered by what it shows: a
    tableau changes more often than the figure."""
    if not (h.get("tile") and h.get("hp", 1) > 0):
        return None
    key = ("hero-figure", hid, h["tile"], h["hp"], h["max_hp"], h.get("follower"),
           h.get("armor", 0), h.get("retaliate", 0), h.get("bleed", 0), h.get("acted"))
    hit = last.get(key)
    if hit is None:
        hit = last[key] = (None, _hero_figure(c, hid, h))
    return hit[1]  # type: ignore[no-any-return]


def _hero_figure(c: Content, hid: str, h: Mapping[str, Any]) -> draw.Token:
    return draw.Token(
        hid, hero_name(c, hid), short(c, hid)[:2], "ally" if h.get("follower")
        else "hero", h["tile"], target=f"figure:{hid}", hp=h["hp"],
        max_hp=h["max_hp"], badges=_hero_badges(h),
        stats={"HP": f"{h['hp']}/{h['max_hp']}", "armor": h.get("armor", 0),
               "retaliate": h.get("retaliate", 0), "bleed": h.get("bleed", 0)})


def _enemies(c: Content, enemies_v: Mapping[str, Any], last: dict[Any, tuple[Any, Any]]
             ) -> tuple[tuple[draw.Token, ...], draw.Panel | None]:
    """The enemy standees and the enemy cards panel (none without enemies), each standee
    with its card remembered by the enemy's view, all of them by the enemies' view."""
    hit = last.get("enemies")
    if hit is not None and hit[0][0] == tuple(enemies_v) and hit[0][1] == enemies_v:
        return hit[1]  # type: ignore[no-any-return]
    tokens: list[draw.Token] = []
    cards: list[draw.Card] = []
    for eid, e in enemies_v.items():
        token, card = _again(last, ("enemy", eid), e,
                             lambda eid=eid, e=e: _enemy(c, eid, e), _copy_figure)
        tokens.append(token)
        cards.append(card)
    out = (tuple(tokens), draw.Panel("enemy-cards", "Enemy cards", cards=cards)
           if enemies_v else None)
    last["enemies"] = ((tuple(enemies_v), {eid: last["enemy", eid][0] for eid in enemies_v}),
                       out)
    return out


def _enemy(c: Content, eid: str, e: Mapping[str, Any]) -> tuple[draw.Token, draw.Card]:
    """An enemy standee on the map, and its card."""
    d = c.cat.enemies[e["card"]]
    badges = []
    if e.get("evasion"):
        badges.append("evasion")
    if e.get("slow"):
        badges.append(e["slow"])
    if e.get("bleed"):
        badges.append(f"bleed {e['bleed']}")
    stats: dict[str, str | int] = {
        "HP": f"{e['hp']}/{e['max_hp']}", "kind": d.kind, "type": d.type,
        "preferred target": d.target, "attack": d.attack, "range": str(d.range),
        "move": d.move if d.move is not None else (0 if d.kind == "boss" else 1)}
    for key, on in (("armor", d.armor), ("fast", d.fast), ("horde", d.horde),
                    ("retaliate", d.retaliate)):
        if on:
            stats[key] = int(on)
    if d.kind == "boss" and d.actions:
        r = e.get("rotation", -1)
        stats["next action"] = d.actions[(r + 1) % len(d.actions)].name
    token = draw.Token(eid, f"{d.name} {eid[1:]}", _glyph(d.name), "boss"
                       if d.kind == "boss" else "enemy", e["tile"],
                       target=f"figure:{eid}", hp=e["hp"], max_hp=e["max_hp"],
                       badges=badges, stats=stats)
    card = draw.Card(f"enemy.{eid}", f"{d.name} {eid[1:]} (on map tile {e['tile']})",
                     _enemy_text(c, e), "enemy")
    return token, card


def _trap_tokens(c: Content, traps_v: Mapping[str, Any], last: dict[Any, tuple[Any, Any]]
                 ) -> tuple[draw.Token, ...]:
    """The trap miniatures on the map (remembered by the traps' view)."""
    hit = last.get("trap-figures")
    if hit is not None and hit[0][0] == tuple(traps_v) and hit[0][1] == traps_v:
        return hit[1]  # type: ignore[no-any-return]
    out = tuple(_again(last, ("trap", trid), t, lambda trid=trid, t=t: _trap_token(c, trid, t),
                       _copy_figure) for trid, t in traps_v.items())
    last["trap-figures"] = ((tuple(traps_v), {trid: last["trap", trid][0] for trid in traps_v}),
                            out)
    return out


def _trap_token(c: Content, trid: str, t: Mapping[str, Any]) -> draw.Token:
    trap = c.cat.traps[t["kind"]]
    lv = trap.levels[t["level"] - 1]
    badges = [f"L{t['level']}"]
    if t["hp"] <= 0:
        badges.append("destroyed")
    if t.get("special"):
        badges.append(c.cat.special_upgrades[t["special"]].name)
    return draw.Token(trid, f"{trap.name} {trid[1:]}", _glyph(trap.name), "ally",
                      t["tile"], target=f"figure:{trid}", hp=max(0, t["hp"]),
                      max_hp=lv.hp, badges=badges,
                      stats={"HP": f"{max(0, t['hp'])}/{lv.hp}",
                             "level": t["level"], "attack": _trap_line(lv)})


_TILES: dict[tuple[Any, ...], tuple[draw.Tile, tuple[draw.Link, ...], tuple[draw.Token, ...]]] = {}
"""A drawn map tile with its links and markers, by everything of the tile that is drawn: most
tiles look the same from one step to the next (the drawn objects are never changed once
drawn; each scene gets its own lists)."""


def _tile(tid: str, x: int, y: int, t: Mapping[str, Any], links_v: Mapping[str, str],
          paths_v: Mapping[str, str], order: int
          ) -> tuple[draw.Tile, tuple[draw.Link, ...], tuple[draw.Token, ...]]:
    """One map tile as drawn: the tile, its links to tiles of higher id, its markers."""
    links: list[draw.Link] = []
    tokens: list[draw.Token] = []
    curses = t.get("curses", 0)
    fortified = t.get("fortified", False)
    terrain = ("gate" if tid == GATE else "fortified" if fortified
               else "cursed" if curses else "open")
    note = ["the gate map tile" if tid == GATE else
            "fortified" if fortified else "unfortified"]
    if curses:
        note.append(f"{curses} curse marker{'s' if curses > 1 else ''}")
    if t.get("token"):
        note.append(SPAWN_NAME[t["token"]])
    tile = draw.Tile(tid, x, y, tid, terrain, note=", ".join(note), order=order)
    for _side, other in sorted(links_v.items()):
        if tid < other:
            links.append(draw.Link(tid, other))
    for side, letter in sorted(paths_v.items()):
        if side not in links_v:
            tokens.append(draw.Token(
                f"path-{letter}", f"Unexplored path {letter} ({SIDE_NAME[side]} side of "
                f"{tid})", letter, "marker", tid, target=f"space:path-{letter}",
                stats={"side": SIDE_NAME[side]}))
    if curses:
        tokens.append(draw.Token(f"curse-{tid}", plural(curses, "curse marker"), "!" * curses,
                                 "marker", tid, stats={
                                     "effect": "enemies spawning here gain +1 HP per "
                                               "player after the first, per marker",
                                     "fortify": "+1 runestone, lifts the curse"}))
    if t.get("token"):
        tokens.append(draw.Token(f"spawn-{tid}", SPAWN_NAME[t["token"]],
                                 SPAWN_GLYPH[t["token"]], "marker", tid))
    return tile, tuple(links), tuple(tokens)


def _glyph(name: str) -> str:
    words = [w for w in name.replace("'", "").split() if w[0].isalpha()]
    return "".join(w[0] for w in words[:3]).upper()


def _hero_badges(h: Mapping[str, Any]) -> list[str]:
    return [f"{k} {h[k]}" for k in ("armor", "retaliate", "bleed") if h.get(k)] + (
        ["acted"] if h.get("acted") else [])


def _trap_line(lv: Any) -> str:
    text = f"{lv.times}*Attack {lv.attack}" if lv.times > 1 else f"Attack {lv.attack}"
    if lv.range:
        text += f", Range {lv.range}"
    for ln in lv.linked:
        text += f" + {ln.do.capitalize()}" + (f" {ln.value}" if ln.value else "")
    return text


# ----------------------------------------------------------------- tracks
_SPACES: dict[tuple[int, int], tuple[draw.Space, ...]] = {}
"""A numbered track's spaces by (lowest, highest): the same few tracks are drawn each time
(each scene gets its own list; the spaces themselves are never changed once drawn)."""


def _track(tid: str, label: str, lo: int, hi: int, value: int | None,
           marks: dict[int, str] | None = None) -> draw.Track:
    row = _SPACES.get((lo, hi))
    if row is None:
        if len(_SPACES) > 1024:
            _SPACES.clear()
        row = _SPACES[lo, hi] = tuple(draw.Space(str(i), str(i)) for i in range(lo, hi + 1))
    spaces = list(row)
    index = None if value is None else min(max(value, lo), hi) - lo
    return draw.Track(tid, label, spaces, index, marks=marks or {})


def _tracks(c: Content, view: Mapping[str, Any], chapter: Any,
            last: dict[Any, tuple[Any, Any]]) -> list[draw.Track]:
    """The tracks beside the dungeon (remembered by the numbers they show, each of them and
    all of them)."""
    key = (view["chapter"], view["gate_hp"], view["silver"], view["runestones"],
           view["phase"], view["cycle"], view.get("timer"))
    return list(_again(last, "tracks", key, lambda: _tracks_drawn(c, view, chapter, last)))


def _tracks_drawn(c: Content, view: Mapping[str, Any], chapter: Any,
                  last: dict[Any, tuple[Any, Any]]) -> tuple[draw.Track, ...]:
    p = c.printed
    gate_hp, silver, runestones = view["gate_hp"], view["silver"], view["runestones"]
    out = [_again(last, ("track", "gate"), gate_hp,
                  lambda: _track("gate", "Gate HP (D20)", 0, p.gate_hp, gate_hp)),
           _again(last, ("track", "silver"), silver,
                  lambda: _track("silver", "Silver (resource track)", 0, max(20, silver),
                                 silver)),
           _again(last, ("track", "runestones"), runestones,
                  lambda: _track("runestones", "Runestones (resource track)", 0,
                                 max(20, runestones), runestones))]
    phase = view["phase"]
    at = next((i for i, (k, _) in enumerate(PHASES) if phase.startswith(k)),
              1 if phase in ("spawn", "position") else None)
    cycle = min(view["cycle"], chapter.cycles)
    out.append(_again(last, ("track", "cycle"), (cycle, chapter.cycles, at),
                      lambda: draw.Track("cycle", f"Cycle {cycle} of {chapter.cycles}: phases",
                                         [draw.Space(k, label) for k, label in PHASES], at)))
    if chapter.timed:
        timer = view["timer"]
        out.append(_again(last, ("track", "timer"), (view["chapter"], timer), lambda: _track(
            "timer", "Time track", 0, max([s.at for s in chapter.timed] + [timer]), timer,
            {s.at: s.text[:40] for s in chapter.timed})))
    return tuple(out)


def _fate_track(c: Content, fate: int) -> draw.Track:
    track = c.cat.fate_track
    marks = {0: f"global event {c.cat.fate_leftmost_event}", track.index(0): "neutral"}
    spaces = [draw.Space(str(v), f"{v:+d}" if v else "0",
                         note="Wrath of Isyl" if v < 0 else "Athyr's Blessing" if v > 0
                         else "neutral") for v in track]
    return draw.Track("fate", "Fate scale (Wrath of Isyl left, Athyr's Blessing right)", spaces,
                      track.index(fate) if fate in track else None, marks=marks)


# ----------------------------------------------------------------- panels
def _panels(c: Content, view: Mapping[str, Any], last: dict[Any, tuple[Any, Any]],
            hero_panels: tuple[draw.Panel, ...], enemy_panel: draw.Panel | None
            ) -> list[draw.Panel]:
    """The panels beside the dungeon, each remembered by what it reads of the view."""
    panels = list(hero_panels)
    components, decks = view["components"], view.get("decks", {})
    # the decks' order is part of the key: their notes are drawn in it
    panels.append(_again(last, "party", (view["gate_hp"], view["silver"], view["runestones"],
                                         components, tuple(decks), decks),
                         lambda: _resources(c, view)))
    panels.append(_again(last, "cart", (view["cart"], view.get("gifts", [])),
                         lambda: _cart(c, view)))
    unlocks = view["party"]["unlocks"]
    panels.append(_again(last, "trap-cards", (
        unlocks.get("traps", []), unlocks.get("special_upgrades", []),
        [t["kind"] for t in view["traps"].values()]), lambda: _trap_cards(c, view)))
    if enemy_panel is not None:
        panels.append(enemy_panel)
    panels.append(_again(last, "quests", (view["chapter"], view.get("quests", []),
                                          view.get("story", [])),
                         lambda: _quest_board(c, view)))
    lv = view.get("levelup")
    if lv and lv.get("pool"):
        panels.append(_again(last, "skill-pool", (lv["level"], lv["pool"], lv.get("todo", [])),
                             lambda: _skill_pool(c, lv)))
    if view["phase"] == "rewards" and view.get("rewards"):
        at = REWARD_INDEX.get(view["rewards"].get("step", ""), 0)
        panels.append(_again(last, "rewards", at, lambda: _rewards(at)))
    party = view["party"]
    # the order of evolved event cards is part of the key: the notes are drawn in it
    events = party.get("events", {})
    order = (tuple(events), [tuple(ch) if ch.__class__ is dict else None
                             for ch in events.values()])
    panels.append(_again(last, "party-sheet", (order, party), lambda: _party_sheet(c, view)))
    choice = view.get("choice")
    if choice and choice["kind"] in OPTION_KINDS:
        cards = []
        kind = choice["kind"]
        for text, payload in choice["options"]:
            opt = option_target(kind, payload)
            if opt is not None:
                cards.append(draw.Card(opt, text, kind="option", target=f"option:{opt}"))
        if cards:
            panels.append(draw.Panel("choice", choice["prompt"], cards=cards))
    return panels


def _skill_pool(c: Content, lv: Mapping[str, Any]) -> draw.Panel:
    return draw.Panel("skill-pool", f"Level {lv['level']} skill pool", cards=[
        draw.Card(f"pool.{s}", c.cat.skills[s].name, _skill_text(c, s), "skill",
                  target=f"card:pool.{s}", badges=[f"arrow {c.cat.skills[s].arrow}"])
        for s in dict.fromkeys(lv["pool"])],
        notes=[f"Still to choose: {', '.join(short(c, h) for h in lv.get('todo', []))}"])


def _rewards(at: int) -> draw.Panel:
    steps = draw.Track("rewards", "Phase 4: Rewards", [
        draw.Space(n, n, note=text) for n, text in REWARD_STEPS], at)
    return draw.Panel("rewards", "Phase 4: Rewards", tracks=[steps],
                      notes=[f"{n} {text}" for n, text in REWARD_STEPS])


def _skill_text(c: Content, sid: str) -> str:
    return _memo(c, ("skill", sid), lambda: effects_text(c.cat.skills[sid].effects))  # type: ignore[no-any-return]


def _item_text(c: Content, item: str) -> str:
    return _memo(c, ("item", item), lambda: effects_text(c.cat.items[item].effects))  # type: ignore[no-any-return]


def _hero_panel(c: Content, hid: str, h: Mapping[str, Any],
                last: dict[Any, tuple[Any, Any]]) -> draw.Panel:
    """A hero's tableau; its skill rows, ultimates and items are remembered by all they show
    (``last``), as a tableau changes a part or two at a time."""
    top_at, bottom_at = h.get("top_at"), h.get("bottom_at")
    exhausted = tuple(h.get("exhausted", ()))
    key = ("skill-rows", hid, tuple(h["top"]), tuple(h["bottom"]), top_at, bottom_at, exhausted)
    rows = last.get(key)
    if rows is None:
        rows = last[key] = (None, tuple(
            _skill_card(c, hid, row, i, sid, i == at, f"{row}:{i}" in exhausted)
            for row, at in (("top", top_at), ("bottom", bottom_at))
            for i, sid in enumerate(h[row])))
    cards = list(rows[1])
    cat = c.cat
    if hid in cat.heroes:
        used = tuple(h.get("ults_used", ()))
        key = ("ults", hid, used)
        ults = last.get(key)
        if ults is None:
            ults = last[key] = (None, tuple(draw.Card(
                f"{hid}.ult.{u}", cat.ultimates[u].name, _memo(
                    c, ("ult", u), lambda u=u: effects_text(cat.ultimates[u].effects)),
                "ultimate", target=f"card:{hid}.ult.{u}", badges=["used"] if u in used else [])
                for u in cat.heroes[hid].ultimates))
        cards += ults[1]
    items = h.get("items", [])
    if items:
        used_items = tuple(h.get("used_items", ()))
        key = ("items", hid, tuple(items), used_items)
        drawn = last.get(key)
        if drawn is None:
            drawn = last[key] = (None, tuple(draw.Card(
                f"{hid}.item.{item}", cat.items[item].name, _item_text(c, item),
                f"{cat.items[item].kind} item", target=f"card:{hid}.item.{item}",
                badges=["used (turned sideways)"] if item in used_items else [])
                for item in items))
        cards += drawn[1]
    ko = h["hp"] <= 0
    stats = [draw.Stat("HP", "KO" if ko else f"{h['hp']}/{h['max_hp']}"),
             draw.Stat("On map tile", h.get("tile") or "-")]
    for k in ("armor", "retaliate", "bleed"):
        if h.get(k):
            stats.append(draw.Stat(k.capitalize(), h[k]))
    if h.get("follower"):
        stats.append(draw.Stat("Follower", "acts in 3.3; counts as a hero for enemies"))
    else:
        stats.append(draw.Stat("Level", h.get("level", 0)))
    if h.get("acted"):
        stats.append(draw.Stat("Activation token", "inactive (acted)"))
    return draw.Panel(f"hero-{hid}", hero_name(c, hid), None if h.get("follower") else hid,
                      stats=stats, cards=cards, target=f"hero:{hid}")


def _skill_card(c: Content, hid: str, row: str, i: int, sid: str, occupied: bool,
                exhausted: bool) -> draw.Card:
    """A skill card on a hero's tableau."""
    badges = [f"{row} row"]
    if occupied:
        badges.append("skill token (occupied)")
    if exhausted:
        badges.append("exhausted")
    return draw.Card(f"{hid}.{row}.{i + 1}", c.cat.skills[sid].name, _skill_text(c, sid),
                     "skill", target=f"card:{hid}.{row}.{i + 1}", badges=badges)


def _resources(c: Content, view: Mapping[str, Any]) -> draw.Panel:
    counts = Counter(view["components"])
    cards = [_memo(c, ("component-card", k, n), lambda k=k, n=n: _component_card(c, k, n))
             for k, n in sorted(counts.items())]
    decks = view.get("decks", {})
    notes = [f"{DECK_NAMES.get(name, name)} deck: {plural(d.get('size', 0), 'card')}, "
             f"{len(d.get('discard', []))} discarded"
             for name, d in decks.items() if isinstance(d, Mapping)]
    return draw.Panel("party", "The party's resources", stats=[
        draw.Stat("Gate HP", view["gate_hp"]), draw.Stat("Silver", view["silver"]),
        draw.Stat("Runestones", view["runestones"]),
        draw.Stat("Trap components", len(view["components"]))], cards=cards, notes=notes)


def _component_card(c: Content, k: str, n: int) -> draw.Card:
    """``n`` trap components of kind ``k`` in the party's supply."""
    comp = c.cat.components[k]
    return draw.Card(f"component.{k}", comp.name,
                     component_effect_text(comp.effect) if comp.effect else "basic component",
                     "component", target=f"card:component.{k}", badges=[f"x{n}"])


def _cart(c: Content, view: Mapping[str, Any]) -> draw.Panel:
    cards = [draw.Card(f"cart.{i}", c.cat.items[i].name, _item_text(c, i),
                       f"{c.cat.items[i].kind} item", target=f"card:cart.{i}",
                       badges=[f"{c.cat.items[i].cost} silver"]) for i in view["cart"]]
    gifts = [c.cat.items[i].name for i in view.get("gifts", [])]
    return draw.Panel("cart", "Dara's cart", cards=cards,
                      notes=[f"Unique items to give: {', '.join(gifts)}"] if gifts else [])


def _trap_cards(c: Content, view: Mapping[str, Any]) -> draw.Panel:
    cat = c.cat
    unlocks = view["party"]["unlocks"]
    built = Counter(t["kind"] for t in view["traps"].values())
    cards = []
    for kind in sorted(unlocks.get("traps", [])):
        trap = cat.traps[kind]
        cards.append(draw.Card(f"trap.{kind}", trap.name,
                               _memo(c, ("trap", kind), lambda t=trap: _trap_levels(c, t)), "trap",
                               target=f"card:trap.{kind}",
                               badges=[f"cost {trap.cost} silver",
                                       f"stock {trap.stock - built[kind]}/{trap.stock}"]))
    for sid in sorted(unlocks.get("special_upgrades", [])):
        sp = cat.special_upgrades[sid]
        comps = [("any component" if k == "?" else cat.components[k].name)
                 for k in sp.components]
        cost = ", ".join(x for x in (plural(sp.runestones, "runestone") if sp.runestones else "",
                                     f"{sp.silver} silver" if sp.silver else "", *comps) if x)
        cards.append(draw.Card(f"special.{sid}", sp.name,
                               f"adds {effects_text([sp.adds])} to the trap's attacks; instead "
                               "of a level upgrade", "special upgrade",
                               target=f"card:special.{sid}", badges=[cost or "free"]))
    return draw.Panel("traps", "Trap cards", cards=cards)


def _trap_levels(c: Content, trap: Any) -> str:
    """A trap card's levels: HP, attack and what each upgrade costs."""
    cat = c.cat
    levels = []
    for i, lv in enumerate(trap.levels):
        up = ""
        if i:
            comps = [("any component" if k == "?" else cat.components[k].name)
                     for k in lv.components]
            up = f"; upgrade {plural(lv.runestones, 'runestone')} + {', '.join(comps) or '-'}"
        levels.append(f"L{i + 1}: {lv.hp} HP, {_trap_line(lv)}{up}")
    return " | ".join(levels)


def _enemy_text(c: Content, e: Mapping[str, Any]) -> str:
    d = c.cat.enemies[e["card"]]
    traits = [k for k, on in (("evasion", d.evasion), ("fast", d.fast), ("horde", d.horde))
              if on]
    if d.armor:
        traits.append(f"armor {d.armor}")
    if d.retaliate:
        traits.append(f"retaliate {d.retaliate}")
    text = (f"{d.kind} {d.type}; HP {e['hp']}/{e['max_hp']}; targets {d.target}; "
            f"Attack {d.attack}" + (f", Range {d.range}" if d.range else ""))
    if traits:
        text += "; " + ", ".join(traits)
    if d.actions:
        text += "; actions: " + ", ".join(a.name for a in d.actions)
    return text


def _event_name(c: Content, deck: str, card: str) -> str:
    """An event card by its printed name (its id when the deck does not know it)."""
    ev = getattr(c.cat, deck, {}).get(card) if deck != "chapter" else None
    return str(ev.name) if ev is not None else card


def _quest_board(c: Content, view: Mapping[str, Any]) -> draw.Panel:
    cards = []
    for deck, card in view.get("quests", []):
        ev = (c.chapters[view["chapter"]].chapter_events.get(card) if deck == "chapter"
              else getattr(c.cat, deck).get(card))
        if ev is not None and ev.quest is not None:
            cards.append(draw.Card(f"quest.{deck}.{card}", ev.quest.name, ev.text, "quest"))
    for verse in view.get("story", []):
        cards.append(draw.Card(f"story.{verse}", f"Story marker ({verse})", "read in 4.1",
                               "story"))
    return draw.Panel("quests", "Quest board", cards=cards)


def _party_sheet(c: Content, view: Mapping[str, Any]) -> draw.Panel:
    party = view["party"]
    unlocks = party["unlocks"]
    new = {(k, w) for k, w in party.get("new", [])}
    stats = [draw.Stat("Fate", party["fate"])]
    for key in ("chapters", "classes", "traps", "items", "components", "special_upgrades",
                "lore", "decisions"):
        # every line always drawn, so the sheet keeps one layout (the RL observation)
        have = unlocks.get(key, [])
        stats.append(draw.Stat(key.replace("_", " ").capitalize(), ", ".join(
            f"{_unlock(c, key, w)}{' (new: single stroke)' if (key, w) in new else ''}"
            for w in have) or "-"))
    notes = []
    if party.get("completed"):
        notes.append("Completed chapters: " + ", ".join(
            _unlock(c, "chapter", w) for w in party["completed"]))
    for deck, changes in party.get("events", {}).items():
        if changes:
            notes.append(f"{DECK_NAMES.get(deck, deck)}s: " + ", ".join(
                f"{_event_name(c, deck, a)} -> {_event_name(c, deck, b)}"
                for a, b in changes.items()))
    ended = party.get("ended")
    if ended:
        won = ", ".join(unlock_name(c, "chapter", w) for w in ended.get("won", [])) or "none"
        notes.append(f"Campaign ended: {ended.get('how', '')}; "
                     f"{plural(ended.get('chapters_played', 0), 'chapter')} played, won: {won}, "
                     f"lost: {ended.get('lost', 0)}")
    return draw.Panel("party-sheet", "Party sheet", stats=stats,
                      tracks=[_fate_track(c, party["fate"])], notes=notes)
