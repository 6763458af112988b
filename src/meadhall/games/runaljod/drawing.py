"""The Runaljod table as the shared drawing vocabulary (``meadhall.core.draw``), built from a
seat's view only: the explored tiles with their terrain, search and bonfire tokens, heroes and
enemies (a large enemy over its two spaces), the altar of the gods with its runes and the time
track, each hero's board (runes with their orientation on the spaces where they lie, destiny
pool, glory, skills and equipment), the active exploration, event and Enemy AI cards, and the
decks. Target strings match those of ``describe.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core import draw, grid
from meadhall.core.words import plural

from .describe import SIDE_WORDS, deck_target
from .names import card_title, slug

if TYPE_CHECKING:
    from .content import RunaljodContent

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


class _Pieces:
    """The drawn pieces of one content object, each built once for the view values it shows
    (a scene is rebuilt on every step of an environment, and most of it never changes: the
    tiles' cells, the hero boards' spaces and cards, the table's cards). Scenes share these
    pieces; nothing that reads a scene changes it."""

    LIMIT = 20_000
    """Entries kept per kind before the kind is emptied (values seen in play are few)."""
    WHOLE = 1024
    """Whole panels, tracks and card lists kept before they are emptied."""

    def __init__(self, content: RunaljodContent) -> None:
        self.content = content
        self.boards: dict[tuple[Any, ...], tuple[int, int, list[draw.Cell], str]] = {}
        self.tokens: dict[tuple[Any, ...], draw.Token] = {}
        self.cards: dict[tuple[Any, ...], draw.Card] = {}
        self.spaces: dict[tuple[Any, ...], list[draw.Space]] = {}
        self.card_lists: dict[tuple[Any, ...], list[draw.Card]] = {}
        self.enemy_stats: dict[str, dict[str, str | int]] = {}
        self.panels: dict[tuple[Any, ...], draw.Panel] = {}
        self.tracks: dict[tuple[Any, ...], draw.Track] = {}
        self.stats: dict[tuple[Any, ...], list[draw.Stat]] = {}
        self.table: dict[tuple[Any, ...], list[draw.Card]] = {}
        self.grids: dict[tuple[Any, ...], draw.SquareGrid] = {}

    def token(self, key: tuple[Any, ...], make: Any) -> draw.Token:
        t = self.tokens.get(key)
        if t is None:
            if len(self.tokens) > self.LIMIT:
                self.tokens.clear()
            t = self.tokens[key] = make()
        return t

    def kept(self, kind: dict[tuple[Any, ...], Any], key: tuple[Any, ...], make: Any) -> Any:
        """The piece of ``kind`` kept for ``key``, built by ``make`` the first time. Whole
        panels and tracks are kept too: the observation encoder reuses what it encoded of a
        piece handed out again as the very same object."""
        got = kind.get(key)
        if got is None:
            # few entries: whole pieces hold many objects, which the garbage collector walks
            if len(kind) > self.WHOLE:
                kind.clear()
            got = kind[key] = make()
        return got

    def card(self, key: tuple[Any, ...], make: Any) -> draw.Card:
        c = self.cards.get(key)
        if c is None:
            if len(self.cards) > self.LIMIT:
                self.cards.clear()
            c = self.cards[key] = make()
        return c


_PIECES: dict[int, _Pieces] = {}


def _pieces(content: RunaljodContent) -> _Pieces:
    p = _PIECES.get(id(content))
    # the content is kept with its pieces, so that a content object created later at the same
    # address (tests build their own) is never taken for this one
    if p is None or p.content is not content:
        if len(_PIECES) > 64:
            _PIECES.clear()
        p = _PIECES[id(content)] = _Pieces(content)
    return p


def draw_scene(content: RunaljodContent, title: str, view: Mapping[str, Any]) -> draw.Scene:
    """The table for ``view`` (``RunaljodState.view``)."""
    pc = _pieces(content)
    phase = PHASES.get(view["phase"], view["phase"])
    scene = draw.Scene(title, subtitle=f"Round {view['round']}, {phase}")
    scene.boards.append(_board(pc, view))
    scene.tracks.append(_time_track(pc, view))
    scene.panels.append(_altar(pc, view))
    for hid, h in view["heroes"].items():
        scene.panels.append(_hero_panel(pc, view, hid, h))
    scene.cards.extend(_table_cards(pc, view))
    outcome = view.get("outcome") or {}
    if outcome.get("result") in ("win", "loss"):
        scene.notes.append(f"The heroes {'win' if outcome['result'] == 'win' else 'lose'}: "
                           f"{outcome.get('reason', '')}")
    return scene


def _cells_key(view: Mapping[str, Any]) -> tuple[Any, ...]:
    terrain = view["terrain"]
    return tuple((tile, tx, tuple(terrain[tile])) for tile, _card, tx in view["tiles"])


def _cells(pc: _Pieces, view: Mapping[str, Any], key: tuple[Any, ...]
           ) -> tuple[int, int, list[draw.Cell], str]:
    """The board's cells, size and title for the tiles in play (built once per arrangement of
    tiles and their terrain: ``key``, :func:`_cells_key`)."""
    tiles = view["tiles"]
    terrain = view["terrain"]
    hit = pc.boards.get(key)
    if hit is not None:
        return hit
    content = pc.content
    x0 = min((t[2] for t in tiles), default=0)
    cells: list[draw.Cell] = []
    cols = 0
    rows = 0
    for tile, _card, tx in tiles:
        for y, row in enumerate(terrain[tile]):
            for x, ch in enumerate(row):
                name = grid.name((tx + x, y))
                cells.append(draw.Cell(name, tx + x - x0, y, ch, note=_terrain_note(ch),
                                       target=f"square:{name}"))
                cols = max(cols, tx + x - x0 + 1)
                rows = max(rows, y + 1)
    title = " · ".join(content.tiles[t[0]].name if t[0] in content.tiles else t[0]
                       for t in tiles)
    if len(pc.boards) > 256:
        pc.boards.clear()
    hit = pc.boards[key] = (cols, rows, cells, title)
    return hit


def _board(pc: _Pieces, view: Mapping[str, Any]) -> draw.SquareGrid:
    """The map: the tiles' cells and the tokens on them, kept whole for the tiles and the
    view values each token shows (the same board object while nothing on it changes)."""
    hero_keys = tuple(("hero", hid, h["at"], tuple(h["conditions"]), h["fallen"], h["held_by"],
                       h["passed"], h["life"], h["damage"], h["defence"], h["glory"])
                      for hid, h in view["heroes"].items() if h["at"])
    enemy_keys = tuple(("enemy", e["uid"], e["kind"], e["at"], e.get("also"),
                        tuple(e["conditions"]), e.get("captor"), e["life"], e["damage"],
                        e["defence"]) for e in view["enemies"])
    key = (_cells_key(view), tuple(view.get("search_tokens", ())),
           tuple(view.get("bonfires", ())), tuple(view.get("starts", ())), hero_keys,
           enemy_keys)
    return pc.kept(pc.grids, key, lambda: _make_board(pc, view, key[0], hero_keys, enemy_keys))


def _make_board(pc: _Pieces, view: Mapping[str, Any], cells_key: tuple[Any, ...],
                hero_keys: tuple[tuple[Any, ...], ...],
                enemy_keys: tuple[tuple[Any, ...], ...]) -> draw.SquareGrid:
    content = pc.content
    cols, rows, cells, title = _cells(pc, view, cells_key)
    tokens: list[draw.Token] = []
    for s in view.get("search_tokens", []):
        tokens.append(pc.token(("search", s), lambda s=s: draw.Token(
            f"search:{s}", f"Search token on {s}", "?", "marker", s)))
    for s in view.get("bonfires", []):
        tokens.append(pc.token(("bonfire", s), lambda s=s: draw.Token(
            f"bonfire:{s}", f"Bonfire on {s}: 1 life point to move through, no ending "
            "there; thaws frozen miniatures next to it", "^", "marker", s)))
    for s in view.get("starts", []):
        tokens.append(pc.token(("start", s), lambda s=s: draw.Token(
            f"start:{s}", f"Heroes' starting space {s}", "○", "marker", s)))
    standing = [(hid, h) for hid, h in view["heroes"].items() if h["at"]]
    for key, (hid, h) in zip(hero_keys, standing, strict=True):
        tokens.append(pc.token(key, lambda hid=hid, h=h: _hero_token(content, hid, h)))
    for key, e in zip(enemy_keys, view["enemies"], strict=True):
        tokens.append(pc.token(key, lambda e=e: _enemy_token(pc, e)))
    # the cells already carry their targets: the grid's own check of them finds nothing to do
    return draw.SquareGrid("map", cols, rows, cells, tokens=tokens, legend=list(LEGEND),
                           title=title)


def _hero_token(content: RunaljodContent, hid: str, h: Mapping[str, Any]) -> draw.Token:
    hd = content.heroes[hid]
    badges = list(h["conditions"])
    if h["fallen"]:
        badges.append("fallen")
    if h["held_by"]:
        badges.append("held")
    if h["passed"]:
        badges.append("passed")
    return draw.Token(
        hid, hd.name, HERO_LETTERS.get(hid, hd.name[:1]), "hero", h["at"],
        target=f"figure:{hid}", hp=h["life"] - h["damage"], max_hp=h["life"],
        badges=badges, stats={"life": f"{h['life'] - h['damage']}/{h['life']}",
                              "defence": h["defence"], "glory": h["glory"]})


def _enemy_stats(pc: _Pieces, kind: str) -> dict[str, str | int]:
    """What an enemy's card prints (its stats after life and defence), once per kind."""
    got = pc.enemy_stats.get(kind)
    if got is None:
        ed = pc.content.enemies[kind]
        got = {"move": ed.move, "attack": f"{ed.attack}: {', '.join(ed.dice)}"}
        if ed.keywords:
            got["keywords"] = ", ".join(ed.keywords)
        if ed.cancels:
            got["cancels"] = ", ".join(ed.cancels)
        if ed.upgrades:
            got["upgrades"] = ", ".join(
                u.effect + (f" +{u.value}" if u.value else "") for u in ed.upgrades)
        pc.enemy_stats[kind] = got
    return got


def _enemy_token(pc: _Pieces, e: Mapping[str, Any]) -> draw.Token:
    ed = pc.content.enemies[e["kind"]]
    cells_at = [e["at"]] + ([e["also"]] if e.get("also") else [])
    badges = list(e["conditions"])
    if e.get("captor"):
        badges.append("held")
    stats: dict[str, str | int] = {
        "life": f"{e['life'] - e['damage']}/{e['life']}", "defence": e["defence"],
        **_enemy_stats(pc, e["kind"])}
    return draw.Token(
        f"enemy{e['uid']}", f"{ed.name} {e['uid']}", ENEMY_LETTERS.get(e["kind"], ed.name[:1]),
        "boss" if ed.final else "enemy", e["at"], cells=cells_at,
        target=f"figure:enemy{e['uid']}", hp=e["life"] - e["damage"], max_hp=e["life"],
        badges=badges, stats=stats)


def _terrain_note(ch: str) -> str:
    return {"#": "obstacle", "g": "difficult terrain", "i": "ice", "x": "exit",
            "n": "entrance"}.get(ch, "")


def _time_track(pc: _Pieces, view: Mapping[str, Any]) -> draw.Track:
    key = (view["track"], tuple(view["snakes"]), view["time"], view["end"])
    return pc.kept(pc.tracks, key, lambda: _make_time_track(pc, view))


def _make_time_track(pc: _Pieces, view: Mapping[str, Any]) -> draw.Track:
    n = view["track"]
    key = ("time", n, tuple(view["snakes"]))
    spaces = pc.spaces.get(key)
    snakes = set(view["snakes"])
    if spaces is None:
        spaces = pc.spaces[key] = [
            draw.Space(str(i), "start" if i == 0 else str(i),
                       note="snake" if i in snakes else "") for i in range(n)]
    tokens = [pc.token(("time", view["time"]), lambda: draw.Token(
                  "time", "Time token", "T", "marker", str(view["time"]))),
              pc.token(("end", view["end"]), lambda: draw.Token(
                  "end", "End marker (the heroes lose when the time token reaches it)", "E",
                  "marker", str(view["end"])))]
    return draw.Track("time", "Time track", spaces, value=view["time"], cyclic=True,
                      tokens=tokens, marks={s: "snake" for s in sorted(snakes)})


def _altar(pc: _Pieces, view: Mapping[str, Any]) -> draw.Panel:
    key = ("altar", *(tuple(p) for p in view["altar"]))
    return pc.kept(pc.panels, key, lambda: _make_altar(pc, view))


def _make_altar(pc: _Pieces, view: Mapping[str, Any]) -> draw.Panel:
    content = pc.content
    tokens = []
    for god, side in view["altar"]:
        def make(god: str = god, side: str = side) -> draw.Token:
            gd = content.gods[god]
            return draw.Token(
                f"altar:{god}", f"{gd.name}'s rune, {SIDE_WORDS[side]}", god[:1].upper(),
                "god", target=f"figure:altar:{god}", face_down=side == "down",
                facing=90 if side == "side" else 0,
                badges=[SIDE_WORDS[side]], stats={"power": gd.text})
        tokens.append(pc.token(("altar", god, side), make))
    notes = [f"{len(view['altar'])} of 4 god's runes; face up and sideways runes can be "
             "invoked with a sideways rune on the interact space"]
    return draw.Panel("altar", "Altar of the gods", tokens=tokens, notes=notes)


def _rune_token(hid: str, icon: str, side: str, place: str) -> draw.Token:
    at = "skills" if place.startswith("skill:") else place
    name = f"{icon[4:]}'s rune" if icon.startswith("god:") else icon
    return draw.Token(
        f"{hid}:{icon}", f"{name}, {SIDE_WORDS[side]}", rune_glyph(icon),
        "god" if icon.startswith("god:") else "hero", at, target=f"figure:{hid}:{icon}",
        face_down=side == "down", facing=90 if side == "side" else 0,
        badges=[SIDE_WORDS[side]])


def _hero_panel(pc: _Pieces, view: Mapping[str, Any], hid: str,
                h: Mapping[str, Any]) -> draw.Panel:
    status = "fallen" if h["fallen"] else ("held" if h["held_by"] else
                                          ("passed" if h["passed"] else
                                           ("acting" if view.get("active") == hid else "")))
    seat = view.get("seats", {}).get(hid, hid)
    checks = h["checks"]
    # every view value the panel shows: its stats, its board (movement values and runes) and
    # its cards; each part is kept too, so that a panel with one part changed shares the rest
    stats_key = (hid, status, h["life"], h["damage"], h["defence"], h["glory"],
                 h["skill_points"], tuple(checks["physical"]), tuple(checks["spiritual"]),
                 h["trance"], h["mark"], tuple(h["conditions"]), tuple(h["bonus"]))
    board_key = (hid, tuple(h["move"].items()), tuple(map(tuple, h["runes"])))
    cards_key = ("cards", hid, h["coloured_available"], tuple(h["turned"]), tuple(h["skills"]),
                 tuple(h["equipment"]), tuple(h["misc"]))
    return pc.kept(pc.panels, (seat, stats_key, board_key, cards_key), lambda: draw.Panel(
        hid, pc.content.heroes[hid].name, seat=seat,
        stats=pc.kept(pc.stats, stats_key, lambda: _hero_stats(h, status)),
        tracks=[pc.kept(pc.tracks, board_key, lambda: _hero_board(pc, hid, h))],
        cards=list(pc.kept(pc.card_lists, cards_key, lambda: _hero_cards(pc, hid, h))),
        target=f"figure:{hid}"))


def _hero_stats(h: Mapping[str, Any], status: str) -> list[draw.Stat]:
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
    return stats


def _hero_board(pc: _Pieces, hid: str, h: Mapping[str, Any]) -> draw.Track:
    """The hero board: its action spaces and the runes where they lie."""
    mv = h["move"]
    key = ("board", hid, tuple(mv.items()))
    spaces = pc.spaces.get(key)
    if spaces is None:
        if len(pc.spaces) > 256:
            pc.spaces.clear()
        spaces = pc.spaces[key] = [draw.Space(s, _space_label(s, h), target=f"space:{hid}:{s}")
                                   for s in BOARD_SPACES]
    token = pc.token
    runes = [token(("rune", hid, icon, side, place),
                   lambda icon=icon, side=side, place=place: _rune_token(hid, icon, side, place))
             for icon, side, place in h["runes"]]
    return draw.Track(f"{hid}:board", "Hero board", spaces, tokens=runes, columns=2)


def _hero_cards(pc: _Pieces, hid: str, h: Mapping[str, Any]) -> list[draw.Card]:
    """A hero's skill and equipment cards with their badges."""
    content = pc.content
    hd = content.heroes[hid]
    cards = []
    card = pc.card
    turned = h["turned"]
    for sk, always in ((hd.skill_coloured, False), (hd.skill_always, True)):
        off = not always and not h["coloured_available"]
        sid = slug(sk.name)
        badge = 2 if off else int(sid in turned)

        def make(sk: Any = sk, sid: str = sid, badge: int = badge) -> draw.Card:
            return draw.Card(f"{hid}:{sid}", sk.name, sk.text, "hero skill",
                             target=f"card:{hid}:{sid}",
                             badges=["unavailable (coloured life spaces covered)"]
                             if badge == 2 else (["turned"] if badge else []))
        cards.append(card(("hero skill", hid, sk.name, badge), make))
    owned_skills = h["skills"]
    for sid in hd.skills:
        owned = sid in owned_skills
        is_turned = sid in turned

        def make_skill(sid: str = sid, owned: bool = owned, is_turned: bool = is_turned
                       ) -> draw.Card:
            sk = content.skills[sid]
            badges = [] if owned else [f"not owned: {plural(sk.cost, 'skill point')}"]
            if is_turned:
                badges.append("turned")
            return draw.Card(f"{hid}:{sid}", sk.name, sk.text, "skill",
                             target=f"card:{hid}:{sid}", badges=badges)
        cards.append(card(("skill", hid, sid, owned, is_turned), make_skill))
    equipped = h["equipment"]
    for item in dict.fromkeys([*equipped, *h["misc"]]):
        where = "equipped" if item in equipped else "miscellaneous"

        def make_item(item: str = item, where: str = where) -> draw.Card:
            it = content.items[item]
            text = it.text or _item_text(it)
            return draw.Card(f"{hid}:{item}", it.name, text,
                             "weapon" if it.dice else it.slot, target=f"card:{hid}:{item}",
                             badges=[where])
        cards.append(card(("item", hid, item, where), make_item))
    return cards


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


def _table_cards(pc: _Pieces, view: Mapping[str, Any]) -> list[draw.Card]:
    ev = view["active_event"]
    key = (view["active_card"], tuple(ev) if ev else None,
           tuple(map(tuple, view.get("ai_cards") or ())), bool(view.get("two_player_card")),
           bool(view.get("two_player_used")),
           *((k, d["size"], tuple(d.get("known_top") or ()),
              d["discard"][-1] if d.get("discard") else None)
             for k, d in view["decks"].items()))
    return pc.kept(pc.table, key, lambda: _make_table_cards(pc, view))


def _make_table_cards(pc: _Pieces, view: Mapping[str, Any]) -> list[draw.Card]:
    content = pc.content
    card = pc.card
    cards = []
    active = view["active_card"]
    if active:
        def make_active() -> draw.Card:
            ec = content.exploration[active]
            return draw.Card(f"exploration:{active}", ec.name, ec.text, "exploration",
                             badges=["active"])
        cards.append(card(("exploration", active), make_active))
    if view["active_event"]:
        ev_card, marked = view["active_event"]

        def make_event() -> draw.Card:
            ev = content.events[ev_card]
            return draw.Card(f"event:{ev_card}", ev.name, ev.text, "event",
                             badges=[f"{marked}/{ev.circles} circles"])
        cards.append(card(("event", ev_card, marked), make_event))
    shown = view.get("ai_cards") or []
    if not shown:
        for deck, key in (("common", "enemy AI"), *((d, f"{d} AI")
                                                    for d in content.ai_decks
                                                    if d != "common")):
            discard = view["decks"].get(key, {}).get("discard") or []
            if discard:
                shown.append([deck, discard[-1]])
    for deck, ai in shown:
        cards.append(card(("ai", deck, ai), lambda deck=deck, ai=ai: draw.Card(
            f"ai:{deck}:{ai}", f"Enemy AI {card_title(content, deck, ai)}",
            _ai_text(content, deck, ai), "enemy AI")))
    if view.get("two_player_card"):
        used = bool(view.get("two_player_used"))

        def make_two() -> draw.Card:
            text = "; ".join(f"{k + 1}: {e.text}" for k, e in
                             enumerate(content.two_player.effects))
            return draw.Card("two-player", "2-player card", text, "2-player",
                             target="card:two-player",
                             badges=["used this turn"] if used else [])
        cards.append(card(("two-player", used), make_two))
    for key, d in view["decks"].items():
        known = tuple(d.get("known_top") or ())
        size = d["size"]

        def make_deck(key: str = key, known: tuple[str, ...] = known, size: int = size
                      ) -> draw.Card:
            return draw.Card(f"deck:{key}", f"{_deck_name(content, key)} deck",
                             plural(size, "card") + (
                                 "; on top: " + ", ".join(card_title(content, key, k)
                                                          for k in known) if known else ""),
                             "deck", face_down=True, target=f"card:{deck_target(key)}")
        cards.append(card(("deck", key, size, known), make_deck))
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
