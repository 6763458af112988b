"""Reading a Runaljod position (docs/formats/runaljod.md) and refusing what the rules cannot
produce: every value's type, every id, every square (on the tiles in play, not on an
obstacle), the counts and values the rulebook limits, and a decision with a legal action.
A refusal is a :class:`ContentError` naming the field and the rule."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from meadhall.core import grid
from meadhall.core.chance import NeedChance
from meadhall.core.deck import Deck
from meadhall.core.errors import ContentError
from meadhall.core.grid import Sq
from meadhall.core.migrate import position_migration, retire_choice_texts
from meadhall.core.protocol import PLAYERS

from .model import BOARD_SPACES, CONDITIONS, POOL, SIDES, Enemy, Hero, PlacedTile, Rune
from .names import slug

if TYPE_CHECKING:
    from .state import RunaljodState

T = TypeVar("T")

PHASES = ("setup", "prep", "destiny", "rethrow", "condition", "actions", "enemies")
ESTAGES = ("time", "event", "activation", "done")
ASK_KINDS = ("setup", "prep", "recover", "rethrow", "cond", "move", "ice", "mark", "upgrades",
             "found", "hold", "hold_destiny", "destiny", "destiny_up", "target", "freyja",
             "odin", "spawn", "order", "emove", "place")
BONUSES = ("tyr", "vali", "cheru")
MARKS = ("none", "ready", "used")
MAX = 999
"""Upper bound of open counters (rounds, trance tokens, uids) in a hand-written position."""


def refuse(field: str, reason: str) -> ContentError:
    return ContentError("", field, reason)


class Reader:
    """Typed access to one object of the position, naming ``field.key`` in every refusal."""

    def __init__(self, data: Any, field: str) -> None:
        if not isinstance(data, dict):
            raise refuse(field or "position", "must be an object")
        self.data = data
        self.field = field

    def at(self, key: str) -> str:
        return f"{self.field}.{key}" if self.field else key

    def get(self, key: str, default: Any) -> Any:
        return self.data.get(key, default)

    def int(self, key: str, default: int, lo: int = 0, hi: int = MAX) -> int:
        v = self.data.get(key, default)
        if type(v) is not int:  # bool is an int subclass; neither it nor 3.0 is a count
            raise refuse(self.at(key), f"must be a whole number, not {json.dumps(v)}")
        if not lo <= v <= hi:
            raise refuse(self.at(key), f"must be from {lo} to {hi}, not {v}")
        return v

    def bool(self, key: str, default: bool) -> bool:
        v = self.data.get(key, default)
        if not isinstance(v, bool):
            raise refuse(self.at(key), f"must be true or false, not {json.dumps(v)}")
        return v

    def str(self, key: str, default: str, choices: Iterable[str] | None = None) -> str:
        v = self.data.get(key, default)
        if not isinstance(v, str):
            raise refuse(self.at(key), f"must be a string, not {json.dumps(v)}")
        if choices is not None:
            allowed = list(choices)
            if v not in allowed:
                raise refuse(self.at(key), f"unknown value {v!r} (one of: "
                             f"{', '.join(repr(c) for c in allowed)})")
        return v

    def strs(self, key: str, default: list[str], choices: Iterable[str] | None = None,
             unique: bool = False) -> list[str]:
        v = self.data.get(key, default)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise refuse(self.at(key), "must be a list of strings")
        if choices is not None:
            allowed = set(choices)
            for i, x in enumerate(v):
                if x not in allowed:
                    raise refuse(f"{self.at(key)}[{i}]", f"unknown {x!r}")
        if unique and len(set(v)) != len(v):
            raise refuse(self.at(key), "lists something twice")
        return list(v)

    def list(self, key: str) -> list[Any]:
        v = self.data.get(key, [])
        if not isinstance(v, list):
            raise refuse(self.at(key), "must be a list")
        return v


def square(field: str, value: Any, st: RunaljodState, open_only: bool = True) -> Sq:
    """A square name on the tiles in play (and not an obstacle)."""
    if not isinstance(value, str):
        raise refuse(field, f"must be a square name such as E5, not {json.dumps(value)}")
    try:
        s = grid.sq(value)
    except ValueError as e:
        raise refuse(field, str(e)) from None
    if s not in st.terrain:
        raise refuse(field, f"{value} is not on the tiles in play")
    if open_only and st.is_obstacle(s):
        raise refuse(field, f"{value} is an obstacle: nothing stands on it (Terrain)")
    return s


def squares(r: Reader, key: str, st: RunaljodState) -> list[Sq]:
    out = [square(f"{r.at(key)}[{i}]", v, st) for i, v in enumerate(r.list(key))]
    if len(set(out)) != len(out):
        raise refuse(r.at(key), "lists a square twice")
    return out


def entries(r: Reader, key: str, check: Callable[[str, list[Any]], None]) -> list[list[Any]]:
    """A list of lists (queues of the phases), each checked by ``check(field, entry)``."""
    out = []
    for i, x in enumerate(r.list(key)):
        if not isinstance(x, list):
            raise refuse(f"{r.at(key)}[{i}]", "must be a list")
        check(f"{r.at(key)}[{i}]", x)
        out.append(list(x))
    return out


def load_position(st: RunaljodState, p: Any) -> None:
    """Fill ``st`` (a new state of the position's setup) from the position ``p``; refuses
    anything the rules cannot produce (see the module docstring)."""
    c = st.content
    r = Reader(p, "")
    track = c.altar.track
    st.round = r.int("round", 1, 1)
    st.phase = r.str("phase", "actions", PHASES)
    st.estage = r.str("estage", "time", ESTAGES)
    st.time = r.int("time", 0, 0, track - 1)
    st.end = r.int("end", st.end, 0, track - 1)
    # tiles first: squares are checked against them
    tiles = []
    for i, t in enumerate(r.list("tiles")):
        tr = Reader(t, f"tiles[{i}]")
        tile = tr.str("tile", "", c.tiles)
        card = tr.str("card", "", ["", *c.exploration])
        tiles.append(PlacedTile(tile, card, tr.int("x", 0, 0, MAX)))
    if not tiles and st.pending is None:  # (table mode may still wait for the setup's draws)
        raise refuse("tiles", "at least one tile is in play")
    if len(tiles) > 2:
        raise refuse("tiles", "at most two tiles are in play (the oldest is discarded when a "
                     "third is attached, Interaction - Explore)")
    if len(tiles) == 2:
        w = len(c.tiles[tiles[0].tile].rows[0])
        if tiles[1].x != tiles[0].x + w:
            raise refuse("tiles[1].x", f"the new tile is attached east of the last one: x "
                         f"{tiles[0].x + w}, not {tiles[1].x}")
    st.tiles = tiles
    st.altar = []
    for i, a in enumerate(r.list("altar")):
        if not (isinstance(a, list) and len(a) == 2 and a[0] in c.gods and a[1] in SIDES):
            raise refuse(f"altar[{i}]", f"must be [god, side] with a known god and a side of "
                         f"{', '.join(SIDES)}, not {json.dumps(a)}")
        st.altar.append([a[0], a[1]])
    if len(st.altar) > 4:
        raise refuse("altar", "there can never be more than 4 runes on the altar")
    if len({g for g, _ in st.altar}) != len(st.altar):
        raise refuse("altar", "a god's rune lies on the altar twice")
    hr = Reader(r.get("heroes", {}), "heroes")
    for hid in hr.data:
        if hid not in st.heroes:
            raise refuse(f"heroes.{hid}", "not one of the setup's heroes "
                         f"({', '.join(st.heroes)})")
    for hid, h in st.heroes.items():
        if hid in hr.data:
            _hero(st, h, Reader(hr.data[hid], f"heroes.{hid}"))
    st.enemies = []
    for i, e in enumerate(r.list("enemies")):
        st.enemies.append(_enemy(st, Reader(e, f"enemies[{i}]")))
    uids = [e.uid for e in st.enemies]
    if len(set(uids)) != len(uids):
        raise refuse("enemies", "two enemies have the same uid")
    st.next_uid = r.int("next_uid", max(uids, default=0), max(uids, default=0))
    st.search_tokens = squares(r, "search_tokens", st)
    st.bonfires = squares(r, "bonfires", st)
    st.starts = [square(f"starts[{i}]", v, st) for i, v in enumerate(r.list("starts"))]
    st.active_card = r.str("active_card", "", ["", *c.exploration])
    st.cards_played = r.strs("cards_played", [t.card for t in tiles[:1] if t.card],
                             c.exploration)
    ev = r.list("active_event")
    if ev and not (len(ev) == 2 and ev[0] in c.events and type(ev[1]) is int
                   and 0 <= ev[1] < max(1, c.events[ev[0]].circles)):
        raise refuse("active_event", "must be [] or [an event card, the circles marked]")
    st.active_event = list(ev)
    _decks(st, Reader(r.get("decks", {}), "decks"))
    st.active = r.str("active", "", ["", *st.heroes])
    st.prep_done = r.strs("prep_done", [], st.heroes, unique=True)
    st.cond_queue = entries(r, "cond_queue", lambda f, x: _check_entry(
        f, x, len(x) >= 2 and x[0] in st.heroes and x[1] in CONDITIONS,
        "[hero, condition, ...]"))
    st.rethrow = entries(r, "rethrow", lambda f, x: _check_entry(
        f, x, len(x) >= 1 and x[0] in st.heroes and all(isinstance(i, str) for i in x),
        "[hero, rune, ...]"))
    st.setup_queue = entries(r, "setup_queue", lambda f, x: _check_entry(
        f, x, len(x) == 2 and ((x[0] == "gift" and x[1] in c.items)
                               or (x[0] == "place" and x[1] in st.heroes)),
        "[\"gift\", item] or [\"place\", hero]"))
    st.ai_cards = entries(r, "ai_cards", lambda f, x: _check_entry(
        f, x, len(x) == 2 and x[0] in c.ai_decks and x[1] in c.ai_decks[x[0]],
        "[AI deck, card of that deck]"))
    pos = r.list("ai_pos") or [0, 0]
    if not (len(pos) == 2 and all(type(v) is int and 0 <= v <= 9 for v in pos)):
        raise refuse("ai_pos", "must be [card index, group index]")
    st.ai_pos = list(pos)
    st.ai_enemy = r.int("ai_enemy", 0)
    if st.ai_enemy and st.ai_enemy not in uids:
        raise refuse("ai_enemy", f"no enemy has the uid {st.ai_enemy}")
    st.ai_step = r.int("ai_step", 0, 0, 9)
    st.ai_flags = r.strs("ai_flags", [], ("stunned", "frozen"), unique=True)
    st.lost = r.str("lost", "")
    st.final_defeated = r.strs("final_defeated", [], c.enemies)
    st.two_player_used = r.bool("two_player_used", False)
    st.place_queue = entries(r, "place_queue", lambda f, x: _check_entry(
        f, x, len(x) == 3 and x[0] in ("hero", "enemy") and all(isinstance(v, str) for v in x),
        "[\"hero\" or \"enemy\", who, square]"))
    ask = r.get("ask", None)
    st.ask = None if ask is None else _ask(st, Reader(ask, "ask"))
    moving = st.ask["seat"] if st.ask is not None and st.ask["kind"] in ("move", "ice") else ""
    jumping = moving and "jump" in (st.ask.get("keywords") or st.ask.get("move", {}).get(
        "keywords") or [])
    _relations(st, moving, bool(jumping))
    if st.phase == "actions" and st.ask is None and not st.active:
        st.pick_active()
    _decision(st)


def _check_entry(field: str, x: list[Any], ok: bool, what: str) -> None:
    if not ok:
        raise refuse(field, f"must be {what}, not {json.dumps(x)}")


def _hero(st: RunaljodState, h: Hero, r: Reader) -> None:
    c = st.content
    hd = c.heroes[h.id]
    at = r.get("at", None)
    # a hero moving with Jump may pass over an obstacle: checked with the movement (_relations)
    h.at = None if at is None else square(r.at("at"), at, st, open_only=False)
    h.equipment = r.strs("equipment", h.equipment, c.items)
    h.misc = r.strs("misc", h.misc, c.items)
    if len(h.misc) > 3:
        raise refuse(r.at("misc"), "a hero has at most 3 miscellaneous spaces (Equipment)")
    slots: dict[str, int] = {}
    for i in h.equipment:
        it = c.items[i]
        if it.slot == "misc":
            raise refuse(r.at("equipment"), f"{i} is a miscellaneous card: never equipped")
        slots[it.slot] = slots.get(it.slot, 0) + (it.hands if it.slot == "hands" else 1)
    for slot, n in slots.items():
        if n > (2 if slot == "hands" else 1):
            raise refuse(r.at("equipment"), f"too many {slot} cards: two hands, one torso, one "
                         "head and one feet card (Equipment)")
    life = hd.life + sum(c.items[i].life for i in h.equipment)
    h.damage = r.int("damage", 0, 0, life)
    h.fallen = r.bool("fallen", False)
    if h.fallen and h.damage != life:
        raise refuse(r.at("damage"), f"a fallen hero has as many damage points as its life "
                     f"({life}, Fallen Heroes)")
    if not h.fallen and h.damage >= life and st.phase != "setup":
        raise refuse(r.at("damage"), f"{h.damage} damage: a hero with no life left has fallen "
                     "(fallen: true)")
    if "runes" in r.data:
        runes = []
        own = set(hd.runes)
        for i, x in enumerate(r.list("runes")):
            f = f"{r.at('runes')}[{i}]"
            if not (isinstance(x, list) and len(x) == 3 and all(isinstance(v, str) for v in x)):
                raise refuse(f, "must be [icon, side, place]")
            icon, side, place = x
            if icon not in own and not (icon.startswith("god:") and icon[4:] in c.gods):
                raise refuse(f, f"{icon!r} is not a rune of the {hd.name} nor a god's rune")
            if side not in SIDES:
                raise refuse(f, f"side must be one of {', '.join(SIDES)}")
            skill_ids = {slug(hd.skill_coloured.name), slug(hd.skill_always.name),
                         *hd.skills}
            if place not in (POOL, "out", *BOARD_SPACES) and not (
                    place.startswith("skill:") and place[6:] in skill_ids):
                raise refuse(f, f"place {place!r}: pool, out, a board space "
                             f"({', '.join(BOARD_SPACES)}) or skill:<skill>")
            runes.append(Rune(icon, side, place))
        icons = [x.icon for x in runes]
        if sorted(i for i in icons if not i.startswith("god:")) != sorted(own):
            raise refuse(r.at("runes"), f"the {hd.name}'s runes are {', '.join(hd.runes)}, "
                         "each once")
        if sum(1 for i in icons if i.startswith("god:")) > 1:
            raise refuse(r.at("runes"), "a hero may hold only one god's rune (Activate the "
                         "God's Rune)")
        for space in ("move1", "move2", "attack1", "attack2"):
            if sum(1 for x in runes if x.place == space) > 1:
                raise refuse(r.at("runes"), f"two runes on the {space} space")
        h.runes = runes
    h.conditions = r.strs("conditions", [], CONDITIONS, unique=True)
    if h.fallen and h.conditions:
        raise refuse(r.at("conditions"), "a fallen hero has no condition tokens (Fallen Heroes)")
    h.fell_this_turn = r.bool("fell_this_turn", False)
    h.passed = r.bool("passed", False)
    h.recover_choice = r.str("recover_choice", "", ("", "yes", "no"))
    h.glory = r.int("glory", 0, 0, 5)
    h.skill_points = r.int("skill_points", h.skill_points, 0, 3)
    h.bought_this_phase = r.int("bought_this_phase", 0, 0, 3)
    h.skills = r.strs("skills", [], hd.skills, unique=True)
    h.turned = r.strs("turned", [], {*hd.skills, slug(hd.skill_coloured.name),
                                     slug(hd.skill_always.name)}, unique=True)
    h.trance = r.int("trance", 0)
    h.captive = r.int("captive", 0)
    h.held_by = r.int("held_by", 0)
    h.mark = r.str("mark", "none", MARKS)
    h.bonus = r.strs("bonus", [], BONUSES)
    # god's runes waiting for the attack of their bonus (absent from saves made before)
    h.returns = r.strs("returns", [], list(c.gods), unique=True)
    if len(h.returns) > len(h.bonus):
        raise refuse(r.at("returns"), "a god's rune waits only for a pending bonus (God's "
                     "Powers: Cheru, Vali)")
    h.glory_won = r.int("glory_won", 0, 0, 10 * MAX)


def _enemy(st: RunaljodState, r: Reader) -> Enemy:
    c = st.content
    kind = r.str("kind", "", c.enemies)
    ed = c.enemies[kind]
    uid = r.int("uid", 0, 1)
    at = square(r.at("at"), r.get("at", None), st)
    also_v = r.get("also", None)
    also = None if also_v is None else square(r.at("also"), also_v, st)
    if ed.size == 2 and also is None:
        raise refuse(r.at("also"), "a large enemy covers two spaces: give the second one")
    if ed.size == 1 and also is not None:
        raise refuse(r.at("also"), f"a {ed.name} covers one space")
    if also is not None and not grid.is_orthogonal(at, also):
        raise refuse(r.at("also"), "a large enemy's two spaces are orthogonally adjacent "
                     "(Movement)")
    damage = r.int("damage", 0, 0, ed.life - 1)
    return Enemy(uid, kind, at, damage, r.strs("conditions", [], CONDITIONS, unique=True),
                 r.bool("activated", False), r.str("holding", "", ["", *st.heroes]),
                 r.str("captor", "", ["", *st.heroes]), also)


def _decks(st: RunaljodState, r: Reader) -> None:
    c = st.content
    known = {"exploration": c.exploration, "event": c.events, "search": c.search,
             "equipment": c.items, "ai": c.ai_decks["common"]}
    for key, cards in known.items():
        if key in r.data:
            attr = {"exploration": "exploration", "event": "event_deck",
                    "search": "search_deck", "equipment": "equipment_deck",
                    "ai": "ai_deck"}[key]
            setattr(st, attr, _deck(r.at(key), r.data[key], cards))
    sr = Reader(r.get("special", {}), r.at("special"))
    for k, v in sr.data.items():
        if k not in st.special_decks:
            raise refuse(sr.at(k), f"no special enemy has the AI deck {k!r}")
        st.special_decks[k] = _deck(sr.at(k), v, c.ai_decks[k])
    for k in r.data:
        if k not in (*known, "special"):
            raise refuse(r.at(k), f"unknown deck {k!r} (exploration, event, search, equipment, "
                         "ai, special)")
    # "If the AI deck runs out of cards, grab the discarded AI cards and reshuffle them": the
    # AI decks (and the event deck) always have cards and reshuffle
    for field, d in (("ai", st.ai_deck), ("event", st.event_deck),
                     *((f"special.{k}", v) for k, v in st.special_decks.items())):
        if not d.reshuffle:
            raise refuse(r.at(f"{field}.reshuffle"), "this deck reshuffles its discard when it "
                         "runs out")
        if not (len(d) or d.discard):
            raise refuse(r.at(field), "this deck has no card at all")


def _deck(field: str, data: Any, cards: Iterable[str]) -> Deck:
    try:
        d = Deck.from_json(data)
    except ContentError as e:
        raise refuse(f"{field}.{e.field.split('.', 1)[-1]}" if "." in e.field else field,
                     e.reason) from None
    allowed = set(cards)
    for part in ("pile", "top", "bottom", "discard"):
        for i, card in enumerate(getattr(d, part)):
            if card not in allowed:
                raise refuse(f"{field}.{part}[{i}]", f"unknown card {card!r}")
    return d


def _relations(st: RunaljodState, moving: str, jumping: bool) -> None:
    """What ties figures together: nobody shares a space except a held miniature and its
    captor, and a hero moving through an ally (``moving``); holds name each other; a god's
    rune is on one board or on the altar."""
    spaces: dict[Sq, str] = {}
    for e in st.enemies:
        for q in e.squares:
            if q in spaces:
                raise refuse("enemies", f"two miniatures stand on {st.sqname(q)}")
            spaces[q] = f"enemy{e.uid}"
    uids = {e.uid: e for e in st.enemies}
    for h in st.heroes.values():
        f = f"heroes.{h.id}"
        if h.held_by:
            e = uids.get(h.held_by)
            if e is None or e.holding != h.id or h.at not in e.squares:
                raise refuse(f"{f}.held_by", "the captor must be an enemy holding this hero in "
                             "its own space (Hold)")
        if h.captive:
            e = uids.get(h.captive)
            if e is None or e.captor != h.id or e.at != h.at:
                raise refuse(f"{f}.captive", "the captive must be an enemy held by this hero "
                             "in its space (Hold)")
        if h.at is None:
            continue
        if st.is_obstacle(h.at) and not (jumping and h.id == moving):
            raise refuse(f"{f}.at", f"{st.sqname(h.at)} is an obstacle: nothing stands on it "
                         "(Terrain; only a hero moving with Jump passes over one)")
        other = spaces.get(h.at)
        shared = other is not None and not h.held_by and not h.captive
        if shared or any(o is not h and o.at == h.at and moving not in (h.id, o.id)
                         for o in st.heroes.values()):
            raise refuse(f"{f}.at", f"{st.sqname(h.at)} is taken: miniatures do not share "
                         "spaces (Movement)")
        if h.at in st.bonfires and not h.fallen and h.id != moving:
            raise refuse(f"{f}.at", "a hero cannot stand on a bonfire (Terrain)")
    for e in st.enemies:
        if e.holding and st.heroes[e.holding].held_by != e.uid:
            raise refuse("enemies", f"enemy {e.uid} holds {e.holding}, who is not held by it")
        if e.captor and st.heroes[e.captor].captive != e.uid:
            raise refuse("enemies", f"enemy {e.uid} is held by {e.captor}, who does not hold "
                         "it")
    owners = [g for g, _ in st.altar]
    for h in st.heroes.values():
        gr = h.god_rune()
        if gr is not None:
            if gr.god in owners:
                raise refuse(f"heroes.{h.id}.runes", f"{gr.god}'s rune is also on the altar")
            owners.append(gr.god)
    if len(set(owners)) != len(owners):
        raise refuse("heroes", "two heroes hold the same god's rune")


def _ask(st: RunaljodState, r: Reader) -> dict[str, Any]:
    """The pending decision: its kind, seat and options; the options are tried on copies when
    the position is checked (see :func:`_decision`)."""
    kind = r.str("kind", "", ASK_KINDS)
    seat = r.str("seat", "", [*st.heroes, PLAYERS])
    prompt = r.str("prompt", "")
    section = r.str("section", "")
    options = r.strs("options", [], unique=True)
    default = r.get("default", None)
    if default is not None and default not in options:
        raise refuse(r.at("default"), "must be null or one of the options")
    if kind in ("prep", "recover", "rethrow", "cond", "move", "ice", "mark", "upgrades",
                "found", "hold", "hold_destiny", "destiny", "destiny_up", "target", "freyja",
                "odin") and seat == PLAYERS:
        raise refuse(r.at("seat"), f"a {kind} decision is a hero's")
    ask = json.loads(json.dumps(r.data))  # a copy the engine owns
    ask.update(prompt=prompt, section=section, options=options, default=default)
    if kind == "move":
        ask["points"] = r.int("points", 0, 0, 20)
        ask["ice"] = r.int("ice", 0, 0, 20)
        ask["keywords"] = r.strs("keywords", [], ("jump", "quick"))
        ask["path"] = [list(square(f"ask.path[{i}]", st.sqname(tuple(x))
                                   if isinstance(x, list) and len(x) == 2 and
                                   all(type(v) is int for v in x) else x, st, False))
                       for i, x in enumerate(r.list("path"))]
    if kind == "target":
        r.bool("reduced", False)
        r.strs("extra", [], st.content.dice)
        r.strs("keywords", [])
    return ask


def _decision(st: RunaljodState) -> None:
    """A position must be a decision with at least one legal action (or a finished game), and
    every option of a pending sub-decision must be one the engine can carry out."""
    if st.pending is not None or st.outcome().over:
        return
    if st.ask is None and st.phase != "actions":
        raise refuse("ask", f"the {st.phase} phase waits for a decision: give the pending "
                     "one (ask)")
    if st.ask is None and not st.active:
        raise refuse("active", "no hero can act in the actions phase (every hero passed, "
                     "fell or stands off the tiles)")
    if st.ask is None and not st.can_act(st.heroes[st.active]):
        raise refuse("active", f"{st.active} cannot act: fallen, passed or off the tiles")
    try:
        st.decision()
        legal = st._legal()
    except ContentError:
        raise
    except Exception as e:  # noqa: BLE001 - any failure means the position is not playable
        raise refuse("ask" if st.ask else "active", f"the position cannot be played: "
                     f"{type(e).__name__}: {e}") from None
    if not legal:
        raise refuse("ask" if st.ask else "active", "the position offers no legal action")
    if st.ask is None:
        return
    for text in legal:
        trial = st.clone()
        trial.ask = json.loads(json.dumps(st.ask))
        try:
            trial._apply(text, [])
        except NeedChance:
            continue  # table mode would ask the table: the option itself is sound
        except Exception as e:  # noqa: BLE001 - see above
            raise refuse("ask.options", f"{text!r} cannot be carried out here: "
                         f"{type(e).__name__}: {e}") from None


@position_migration("runaljod", 1)
def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (2026-11-29) to 2: the pending decision's options are written with today's
    action texts (items and skills by their printed names)."""
    return retire_choice_texts(data, "runaljod", "ask")


@position_migration("runaljod", 2)
def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 to 3 (2026-12-01): a hero keeps ``returns``, the god's runes waiting for the
    attack of their bonus; a save from before had none waiting."""
    position = data.get("position")
    heroes = position.get("heroes") if isinstance(position, dict) else None
    if isinstance(heroes, dict):
        for h in heroes.values():
            if isinstance(h, dict):
                h.setdefault("returns", [])
    return data
