"""The Midhalla game state: setup, the decision machine, and the position format.

Every decision is one pending ``choice`` (kind, seat, prompt, rulebook section and the options
as (text, payload) pairs); the automated steps in between run in :meth:`MidhallaState._advance`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from meadhall.core import words
from meadhall.core.chance import ChanceMode, NeedChance
from meadhall.core.deck import Deck
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.fastcopy import _ATOMIC, fastcopy
from meadhall.core.jsontext import ENCODE, STRING_TEXT, mark, splice
from meadhall.core.protocol import ONGOING, PLAYERS, Decision, Event, GameState, Outcome
from meadhall.games.midhalla import memo
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.board import GATE, Board, Tile, Topology
from meadhall.games.midhalla.combat import CombatRules
from meadhall.games.midhalla.content import Chapter, Content
from meadhall.games.midhalla.describe import DescribeRules
from meadhall.games.midhalla.heroes import HeroRules
from meadhall.games.midhalla.pieces import (
    Choice,
    Decks,
    EnemyState,
    HeroState,
    Snapshot,
    TrapState,
    _flat_copy,
    from_json,
    to_json,
)
from meadhall.games.midhalla.position import check_state, check_types, op_known
from meadhall.games.midhalla.preparation import PreparationRules
from meadhall.games.midhalla.render import render as render_state
from meadhall.games.midhalla.render import render_help
from meadhall.games.midhalla.rewards import RewardRules
from meadhall.games.midhalla.script import ExplorationRules

ID = "midhalla"
POSITION_ATTRS = (
    "chapter", "phase", "cycle", "result", "explored_in_cycle", "timer", "gate_hp", "silver",
    "runestones", "components", "cart", "tiles", "heroes", "enemies", "traps", "decks", "gifts",
    "quests", "story", "script", "here", "exploring", "choice", "cb", "ht", "rw", "lv",
    "curses_to_place", "epilogue_read", "kills", "traps_lost", "kos", "rounds", "replays",
    "ending", "record", "roster", "next_chapter", "party", "party_start", "last_ctx")
"""The attributes that make a position (what ``_dump`` writes and a 3.3 snapshot keeps)."""
RESHUFFLING = frozenset({"enemy", "elite"})
"""The decks whose discard is shuffled back when they run out (2.2 Spawn Enemies)."""
DECKS = ("enemy", "elite", "items", "components", "tier1", "tier2", "chapter", "level1",
         "level2", "level3")


def _number(pid: str) -> int:
    """The number of a standee id (``e12`` -> 12), for a fixed order whatever the save's."""
    return int(pid[1:]) if pid[1:].isdigit() else 10**6


def _copy_party(party: dict[str, Any]) -> dict[str, Any]:
    """A copy of a party sheet, made with what its keys hold (unlocks and completed chapters
    are lists of ids, ``new`` pairs, ``events`` id-to-id maps); other keys copied in full."""
    out: dict[str, Any] = {}
    for k, v in party.items():
        if k == "unlocks" and v.__class__ is dict:
            out[k] = {a: (b[:] if b.__class__ is list else fastcopy(b)) for a, b in v.items()}
        elif k == "events" and v.__class__ is dict:
            out[k] = {a: (b.copy() if b.__class__ is dict else fastcopy(b))
                      for a, b in v.items()}
        else:
            out[k] = v if v.__class__ in _ATOMIC else fastcopy(v)
    return out


_PARSED: dict[str, Any] = {}


def _parsed(text: str) -> Any:
    """``json.loads(text)``, remembered (a state's ``party_start`` is read at every view;
    callers copy the result)."""
    v = _PARSED.get(text)
    if v is None:
        if len(_PARSED) > 256:
            _PARSED.clear()
        v = _PARSED[text] = json.loads(text)
    return v


UNLOCK_KEYS = ("classes", "traps", "items", "components", "special_upgrades", "chapters",
               "lore", "decisions")


def _full_party(party: dict[str, Any]) -> dict[str, Any]:
    """A party sheet with every key (a hand-written one may leave empty ones out)."""
    for k in UNLOCK_KEYS:
        party.setdefault("unlocks", {}).setdefault(k, [])
    party.setdefault("new", [])
    party.setdefault("completed", [])
    party.setdefault("events", {"tier1": {}, "tier2": {}})
    party.setdefault("fate", 0)
    return party


def new_party(content: Content, setup: dict[str, Any]) -> dict[str, Any]:
    """A fresh party sheet (The Party Sheet), with the setup's ``party`` overrides."""
    start = content.cat.start_unlocks
    party: dict[str, Any] = {
        "unlocks": {k: list(v) for k, v in start.items()},
        "new": [], "completed": [], "events": {"tier1": {}, "tier2": {}}, "fate": 0,
    }
    for k in UNLOCK_KEYS:
        party["unlocks"].setdefault(k, [])
    over = setup.get("party") or {}
    for k, v in over.get("unlocks", {}).items():
        party["unlocks"].setdefault(k, [])
        party["unlocks"][k].extend(x for x in v if x not in party["unlocks"][k])
    if "fate" in over:
        party["fate"] = int(over["fate"])
    for deck, changes in over.get("events", {}).items():
        party["events"].setdefault(deck, {}).update({str(a): str(b) for a, b in changes.items()})
    party["completed"].extend(over.get("completed", []))
    return party


_VIEWED: dict[int, tuple[Any, Any]] = {}
"""Parts of views already handed out, by the id of what they show (held with it, so an id
is never reused while kept): tiles and party sheets never change once a view shows them (a
change puts a new one in), pieces are compared with their part first."""


def _viewed(obj: Any, make: Any) -> Any:
    hit = _VIEWED.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(_VIEWED) > 8192:
            _VIEWED.clear()
        hit = _VIEWED[id(obj)] = (obj, make(obj))
    return hit[1]


def _tile_view(t: Tile) -> dict[str, Any]:
    """A tile's part of a view (tiles are immutable)."""
    return _viewed(t, Tile.to_json)  # type: ignore[no-any-return]


def _piece_view(p: Any) -> dict[str, Any]:
    """A hero's, an enemy's or a trap's part of a view: the part handed out last time while
    the piece's fields read the same (they are numbers, names and lists of names)."""
    hit = _VIEWED.get(id(p))
    if hit is not None and hit[0] is p and p.__dict__ == hit[1]:
        return hit[1]  # type: ignore[no-any-return]
    if len(_VIEWED) > 8192:
        _VIEWED.clear()
    j = to_json(p)
    _VIEWED[id(p)] = (p, j)
    return j


def _party_view(party: dict[str, Any]) -> dict[str, Any]:
    """The party sheet's part of a view: a sheet is never changed once shown (each change
    takes a copy first, :meth:`MidhallaState._party_w`)."""
    return _viewed(party, _copy_party)  # type: ignore[no-any-return]


_START_VIEW: dict[str, dict[str, Any]] = {}


def _party_start_view(text: str) -> dict[str, Any]:
    """The party sheet at the chapter's start (an immutable JSON text) as a view shows it."""
    v = _START_VIEW.get(text)
    if v is None:
        if len(_START_VIEW) > 256:
            _START_VIEW.clear()
        v = _START_VIEW[text] = _copy_party(json.loads(text))
    return v


def _choice_view(ch: Choice) -> dict[str, Any]:
    """The pending choice's part of a view (the choice is immutable)."""
    j = ch.__dict__.get("_json")
    if j is None:
        j = ch.__dict__["_json"] = ch.to_json()
    return j  # type: ignore[no-any-return]


_MARK_TILES, _MARK_HEROES, _MARK_ENEMIES = mark("tiles"), mark("heroes"), mark("enemies")
_MARK_TRAPS, _MARK_CHOICE, _MARK_PARTY = mark("traps"), mark("choice"), mark("party")
_MARK_PARTY_START, _MARK_DECKS = mark("party_start"), mark("decks")
"""The marks of :meth:`MidhallaState._public_base` (:mod:`meadhall.core.jsontext`)."""
_DECKS_SORTED = tuple(sorted(DECKS))
_TEXTS: dict[int, tuple[Any, str]] = {}
"""The JSON text of view parts already written, by the id of the part (held with it): a part
handed out is never changed (:data:`_VIEWED`)."""


def _text(part: Any) -> str:
    hit = _TEXTS.get(id(part))
    if hit is None or hit[0] is not part:
        if len(_TEXTS) > 8192:
            _TEXTS.clear()
        hit = _TEXTS[id(part)] = (part, ENCODE(part))
    return hit[1]


def _same(obj: Any) -> Any:
    return obj


_DISCARDS: dict[tuple[str, ...], str] = {}


def _discard_text(discard: list[str]) -> str:
    """The JSON text of a discard pile (card ids), remembered by its cards."""
    key = tuple(discard)
    t = _DISCARDS.get(key)
    if t is None:
        if len(_DISCARDS) > 4096:
            _DISCARDS.clear()
        t = _DISCARDS[key] = ENCODE(discard)
    return t  # type: ignore[no-any-return]


def _pieces_text(pieces: dict[str, Any], view: Any) -> str:
    """The JSON text of ``{id: view(piece)}`` with sorted keys, from the parts' texts."""
    return "{" + ",".join([STRING_TEXT(k) + ":" + _text(view(pieces[k]))
                           for k in sorted(pieces)]) + "}"


_CLONE_SKIP = frozenset({"content", "setup", "party", "_checkpoint", "_topo", "choice",
                         "_legal_memo", "log", "tiles", "heroes", "enemies", "traps"})
"""What :meth:`MidhallaState.clone` shares (content, setup, the party sheet, the undo
checkpoint, the dungeon's shape, the immutable choice) or copies by hand (the rest)."""
_copy_hero = HeroState.__fastcopy__
_ID_LISTS = frozenset({"roster", "components", "cart", "gifts", "story"})
"""Attributes that are lists of ids (strings, see the position format): a copy is a slice."""


class MidhallaState(ExplorationRules, PreparationRules, CombatRules, HeroRules, RewardRules,
                    DescribeRules, GameState):
    """A chapter (or a campaign of chapters) of Midhalla in progress."""

    game = ID
    STATE_VERSION = 2  # 2026-12-01: migration from 1 in the position module (core.migrate)
    _shared = frozenset({"content", "setup", "party"})
    """Clones share the party sheet: it changes a few times a chapter, and each change first
    takes a copy of its own (:meth:`_party_w`)."""

    def __init__(self, content: Content, setup: dict[str, Any], seed: int,
                 chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self._init_base(content, setup, seed, chance, auto_choices)
        self.party: dict[str, Any] = new_party(content, setup)
        self.roster: list[str] = list(setup["heroes"])
        """The heroes of the current chapter (a campaign may change them between chapters)."""
        self.next_chapter: str | None = None
        self.record: list[list[str]] = []
        """Every chapter played in this game (a campaign plays several): [chapter, result]."""
        self._setup_chapter(setup["scenario"])

    def clone(self) -> MidhallaState:
        """An independent copy (the protocol's ``clone``), made with what each attribute is
        known to hold: tiles and the pending choice are immutable and shared, heroes,
        enemies and traps copied field by field, decks shared until used."""
        new = object.__new__(type(self))
        src = self.__dict__
        # a copy of the dict handed over whole: filling a new instance's own dict key by key
        # costs several times more
        d = src.copy()
        new.__dict__ = d
        if not self._scratch:  # a search's own copies keep it (GameState.clone)
            d.pop("_legal_memo", None)
        skip = _CLONE_SKIP
        atomic = _ATOMIC
        ids = _ID_LISTS
        for k, v in src.items():
            c = v.__class__
            if c in atomic or k in skip:
                continue
            # what fastcopy would make, made directly: lists of ids and empty lists and
            # dicts (the script, the quests, last_ctx) are copied in C
            if c is list and (k in ids or not v):
                d[k] = v[:]
            elif c is dict and not v:
                d[k] = {}
            else:
                d[k] = fastcopy(v)
        d["log"] = src["log"][:]
        d["tiles"] = src["tiles"].copy()
        d["heroes"] = {k: _copy_hero(v) for k, v in src["heroes"].items()}
        d["enemies"] = {k: _flat_copy(v) for k, v in src["enemies"].items()}
        d["traps"] = {k: _flat_copy(v) for k, v in src["traps"].items()}
        return new

    def _party_w(self) -> dict[str, Any]:
        """The party sheet, about to be changed: a copy of its own first (clones and the
        3.3 snapshot share the sheet, see ``_shared``)."""
        self.party = fastcopy(self.party)
        return self.party

    # ----------------------------------------------------------- the dungeon's shape
    @property
    def topo(self) -> Topology:
        """The dungeon's shape with its cached distances and TAO (shared by clones; rebuilt
        after :meth:`_tiles_changed`)."""
        t = self.__dict__.get("_topo")
        if t is None:
            t = self.__dict__["_topo"] = Topology(self.tiles)
        return t

    @property
    def board(self) -> Board:
        return Board(self.tiles, self.topo)

    def _tiles_changed(self) -> None:
        """A tile was placed or the tiles were replaced: the shape must be worked out again."""
        self.__dict__.pop("_topo", None)

    # ----------------------------------------------------------- setup
    @property
    def chapter_data(self) -> Chapter:
        return self.content.chapters[self.chapter]

    def _setup_chapter(self, chapter: str) -> None:
        """The play area of a chapter before any card is drawn (Setup)."""
        c = self.content
        p = c.printed
        self.chapter = chapter
        self.party_start = json.dumps(self.party)  # immutable text: clones share it
        self.phase = "setup"
        self.result: list[str] | None = None
        self.cycle = 1
        self.explored_in_cycle = 0
        self.timer = 0
        self.gate_hp = p.gate_hp
        self.silver = p.start_silver
        self.runestones = p.start_runestones
        self.components: list[str] = []
        self.cart: list[str] = []
        links: dict[str, dict[str, str]] = {tid: {} for tid in c.cat.dungeon_board}
        paths: dict[str, dict[str, str]] = {tid: {} for tid in c.cat.dungeon_board}
        for a, b in (("L", "G"), ("G", "R")):
            links[a]["E"] = b
            links[b]["W"] = a
        for where, letter in self.chapter_data.board_paths.items():
            tid, side = where.split(".")
            paths[tid][side] = letter
        # the gate map tile and its neighbours on the dungeon board start fortified
        self.tiles: dict[str, Tile] = {
            tid: Tile(tid, x, y, paths[tid], links[tid], fortified=True)
            for tid, (x, y) in c.cat.dungeon_board.items()}
        self._tiles_changed()
        self.enemies: dict[str, EnemyState] = {}
        self.traps: dict[str, TrapState] = {}
        u = self.party["unlocks"]
        ch = self.chapter_data
        comp = [k for k in c.cat.component_deck] + [k for k in u["components"]
                                                    if k in c.cat.components]
        evo = self.party["events"]

        def evolved(deck: str, cards: list[str]) -> list[str]:
            out = []
            for card in cards:
                seen = set()
                while card in evo.get(deck, {}) and card not in seen:
                    seen.add(card)
                    card = evo[deck][card]
                if card != "-":
                    out.append(card)
            return out

        # Only the enemy decks shuffle their discard back when they run out (2.2 Spawn
        # Enemies says so); every other discard pile stays a discard pile (ruling 8).
        self.decks: Decks = Decks({
            "enemy": Deck("enemy", list(ch.enemy_deck)),
            "elite": Deck("elite", list(ch.elite_deck)),
            "items": Deck("items", [i for i in u["items"] if c.cat.items[i].kind == "rare"],
                          reshuffle=False),
            "components": Deck("components", comp, reshuffle=False),
            "tier1": Deck("tier1", evolved("tier1", list(c.cat.tier1_deck)), reshuffle=False),
            "tier2": Deck("tier2", evolved("tier2", list(c.cat.tier2_deck)), reshuffle=False),
            "chapter": Deck("chapter", list(ch.chapter_events), reshuffle=False),
            "level1": Deck("level1", list(c.cat.skill_decks["level1"]), reshuffle=False),
            "level2": Deck("level2", list(c.cat.skill_decks["level2"]), reshuffle=False),
            "level3": Deck("level3", list(c.cat.skill_decks["level3"]), reshuffle=False),
        })
        self.cart = [i for i in u["items"] if c.cat.items[i].kind == "common"]
        self.heroes: dict[str, HeroState] = {}
        for hid in self.roster:
            hd = c.cat.heroes[hid]
            self.heroes[hid] = HeroState(hid, hd.max_hp, hd.max_hp, list(hd.top),
                                         list(hd.bottom))
        for fid in self.setup.get("followers", []):
            self._op_follower({"id": fid}, [])
        self.gifts: list[str] = [i for i in u["items"] if c.cat.items[i].kind == "unique"]
        self.quests: list[list[str]] = []
        self.story: list[str] = []
        self.script: list[dict[str, Any]] = []
        self.here: str | None = None
        self.exploring: list[str] | None = None
        self.choice: Choice | None = None
        self.last_ctx: dict[str, Any] = {}
        self.cb: dict[str, Any] | None = None
        self.ht: dict[str, Any] | None = None
        self.rw: dict[str, Any] | None = None
        self.lv: dict[str, Any] | None = None
        self.curses_to_place = 0
        self.epilogue_read = False
        self.kills = self.traps_lost = self.kos = 0
        self.rounds = 0
        """Combat rounds (3.1-3.3) begun in this chapter."""
        self.replays = 0
        """Times the players replayed step 3.3 in this chapter."""
        self.ending: dict[str, Any] | None = None
        """How the chapter was lost: trigger, final blow (for the statistics)."""

    def _start(self, events: list[Event]) -> None:
        self._chapter_draws(events)
        self._advance(events)

    def _chapter_draws(self, events: list[Event]) -> None:
        """Setup steps that draw cards, and the fate scale's setup effects."""
        p = self.content.printed
        ch = self.chapter_data
        events.append(Event("setup", f"{ch.name}: {ch.story}", S.MAIN_AREA))
        events.append(Event("setup", f"The gate die is set to {self.gate_hp}; silver "
                            f"{self.silver}, runestones {self.runestones}", S.MAIN_AREA))
        self._draw_components(p.start_components, events, S.MAIN_AREA)
        drawn = self.decks["items"].draw_many(self.chance, p.start_rare_items, S.MAIN_AREA)
        self.cart.extend(drawn)
        events.append(Event("setup", "Dara's cart: " + ", ".join(
            self._iname(i) for i in self.cart), S.CART))
        fate = self.party["fate"]
        if fate > 0:
            self.silver += p.blessing_silver * fate
            events.append(Event("fate", f"Athyr's Blessing {fate}: gain "
                                f"{p.blessing_silver * fate} silver", S.FATE))
        elif fate < 0:
            self.curses_to_place = -fate
            events.append(Event("fate", f"Wrath of Isyl {-fate}: place {-fate} curse markers on "
                                "unfortified map tiles", S.FATE))
        for decision, sec in ch.decision_effects.items():
            if decision in self.party["unlocks"]["decisions"]:
                events.append(Event("decision", f"Party sheet decision '{decision}': {sec.text}",
                                    S.UNLOCKS))
                self.script.extend(memo.dumps(sec.ops))
        self._begin_levelup(1, events)

    def _draw_components(self, n: int, events: list[Event], section: str) -> None:
        got = self.decks["components"].draw_many(self.chance, n, section)
        self.components.extend(got)
        names = [self.content.cat.components[k].name for k in got]
        events.append(Event("components", "The party gains trap components: "
                            f"{', '.join(names) or 'none (the deck is empty)'}", section))

    def _place_curse(self, tid: str, events: list[Event]) -> None:
        on_board = sum(t.curses for t in self.tiles.values())
        if on_board >= self.content.cat.curse_markers:
            events.append(Event("curse", "No curse marker is left: the gate loses 1 HP instead",
                                S.FATE))
            self._damage_gate(1, ("curse", "fate scale"), events)
            return
        t = self.tiles[tid]
        self.tiles[tid] = dataclasses.replace(t, curses=t.curses + 1)
        events.append(Event("curse", f"A curse marker is placed on map tile {tid}", S.FATE,
                            {"tile": tid}))

    def _setup_step(self, events: list[Event]) -> None:
        if self.curses_to_place:
            cands = [t for t in self.topo.tao() if not self.tiles[t].fortified]
            if not cands:
                n = self.curses_to_place
                self.curses_to_place = 0
                events.append(Event("curse", f"No unfortified map tile for {words.plural(n, 'curse marker')}: "
                                    f"the gate loses {n} HP", S.FATE))
                self._damage_gate(n, ("curse", "fate scale"), events)
                return
            low = min(self.tiles[t].curses for t in cands)
            even = [t for t in cands if self.tiles[t].curses == low]
            if len(even) > 1:
                opts = [(f"curse {t}", t) for t in even]
                self._ask("curse", PLAYERS, "Place a curse marker (evenly distributed)", S.FATE,
                          opts, default=opts[0][0])
                return
            self._on_curse(even[0], events)
            return
        if self.lv is not None:
            self._levelup_step(events)
            return
        self.phase = "exploration"
        events.append(Event("phase", "Cycle 1, Phase 1: Exploration", S.EXPLORATION))

    def _on_curse(self, tid: str, events: list[Event]) -> None:
        self.curses_to_place -= 1
        self._place_curse(tid, events)

    def _gift_step(self, events: list[Event]) -> None:
        """Distribute unique items among heroes (Set up Player Areas)."""
        item = self.gifts[0]
        alive = [h.id for h in self._party_heroes()]
        if len(alive) == 1:
            self._on_gift(alive[0], events)
            return
        opts = [(f"give {self._iname(item)} to {self._short(h)}", h) for h in alive]
        self._ask("gift", PLAYERS, f"Give the unique item "
                  f"{self.content.cat.items[item].name} to a hero", S.PLAYER_AREAS, opts,
                  turn=True)

    def _on_gift(self, hid: str, events: list[Event]) -> None:
        item = self.gifts.pop(0)
        self.heroes[hid].items.append(item)
        events.append(Event("gift", f"{self._hname(hid)} receives the unique item "
                            f"{self.content.cat.items[item].name}", S.ITEM_TYPES))

    # ----------------------------------------------------------- the decision machine
    def _ask(self, kind: str, seat: str, prompt: str, section: str,
             options: list[tuple[str, Any]] | Callable[[], list[tuple[str, Any]]],
             default: str | None = None, ctx: dict[str, Any] | None = None,
             turn: bool = False) -> None:
        """Ask a decision; ``options`` may be a function that lists them, which a search
        copy calls only when they are read (:meth:`Choice.lazy`), any other state at once."""
        assert self.choice is None, "two decisions at once"
        if callable(options):
            if self._scratch:
                self.choice = Choice.lazy(kind, seat, prompt, section, options,
                                          None if turn else default, ctx)
                return
            options = options()
        self.choice = Choice.made(kind, seat, prompt, section, tuple(options),
                                  None if turn else default, ctx or {})

    def _advance(self, events: list[Event]) -> None:
        for _ in range(100_000):
            if self.choice is not None or self.phase == "over":
                return
            if self.script:
                self._run_op(events)
                continue
            if self.gifts and self.phase not in ("combat", "interlude"):
                self._gift_step(events)
                continue
            getattr(self, f"_{self.phase}_step")(events)
        raise RuntimeError("midhalla: the automated steps did not reach a decision")

    def _apply(self, action: str, events: list[Event]) -> None:
        ch = self.choice
        assert ch is not None
        payload = ch.index[action]
        self.choice = None
        self.last_ctx = ch.ctx  # what the handler needs besides the payload
        getattr(self, f"_on_{ch.kind}")(payload, events)
        self.last_ctx = {}
        self._advance(events)

    def _decision(self) -> Decision | None:
        ch = self.choice
        if ch is None:
            return None
        return ch.decision

    def _legal(self) -> list[str]:
        return list(self.choice.index) if self.choice else []

    def _why_illegal(self, action: str) -> IllegalAction | None:
        ch = self.choice
        if ch is None:
            return None
        word = action.split(" ")[0]
        limit = self.setup.get("replay_limit", -1)
        if word == "replay" and 0 <= limit <= self.replays:
            return IllegalAction(ID, S.HERO_TURNS, "this game's setup allows step 3.3 to "
                                 f"be replayed {words.plural(limit, 'time')} per chapter "
                                 "(replay_limit, ruling 33a), and that many replays have "
                                 "been played")
        if word == "replay":
            return IllegalAction(ID, S.HERO_TURNS, "step 3.3 can be replayed when a hero ends a "
                                 "turn (before step 3.1 starts), not within a skill or after "
                                 "3.3 has ended")
        if word == "fortify" and ch.kind == "prep":
            tid = action.split(" ")[-1]
            t = self.tiles.get(tid)
            if t is None:
                return IllegalAction(ID, S.FORTIFY, f"there is no map tile {tid}")
            if t.fortified:
                return IllegalAction(ID, S.FORTIFY, f"map tile {tid} is already fortified")
            if not self.board.adjacent_to_fortified(tid):
                return IllegalAction(ID, S.FORTIFY, f"map tile {tid} is not adjacent to a "
                                     "fortified map tile")
            return IllegalAction(ID, S.FORTIFY, f"fortifying {tid} costs "
                                 f"{self._fortify_cost(tid)} runestones; the party has "
                                 f"{self.runestones}")
        if word == "build" and ch.kind == "prep":
            parts = action.split(" ")
            tid = parts[-1]
            if tid == GATE:
                return IllegalAction(ID, S.BUILD, "traps can never be built on the gate map tile")
            t = self.tiles.get(tid)
            if t is not None and not t.fortified:
                return IllegalAction(ID, S.BUILD, f"map tile {tid} is not fortified")
            if self._traps_on(tid) >= self.content.printed.max_traps_per_tile:
                return IllegalAction(ID, S.BUILD, "there can never be more than two traps on "
                                     "one map tile")
            return IllegalAction(ID, S.BUILD, "the trap is locked, out of stock or too "
                                 "expensive")
        if word == "explore" and ch.kind == "explore":
            return IllegalAction(ID, S.CHOOSE_PATH, "only a path letter on a placed map tile "
                                 "with no map tile attached to it (unexplored) can be explored")
        if word == "buy" and ch.kind == "prep":
            return IllegalAction(ID, S.BUY_SELL, "only items in Dara's cart can be bought, for "
                                 f"their cost (the party has {self.silver} silver)")
        if word == "sell" and ch.kind == "prep":
            return IllegalAction(ID, S.ITEM_TYPES, "only a hero's common and rare items can be "
                                 "sold; unique items are a persistent part of the equipment")
        if word == "restore" and ch.kind == "prep":
            return IllegalAction(ID, S.RESTORE, "restoring a trap below its maximum HP costs "
                                 f"{self.content.printed.restore_cost} silver")
        if word == "heal" and ch.kind == "prep":
            return IllegalAction(ID, S.REVIVE, "restoring a hero below full HP (even KO) costs "
                                 f"{self.content.printed.heal_cost} silver")
        if word == "skill" and ch.kind == "hero":
            return IllegalAction(ID, S.HERO_TURN, "a skill token can only move to an unoccupied, "
                                 "unexhausted skill of the row whose turn it is (top row first)")
        if ch.kind == "effect" and word == "attack":
            return IllegalAction(ID, S.RANGE, "that enemy is not within the effect's range "
                                 "(range counts map tiles; 0 means the same map tile)")
        if ch.kind == "effect" and word == "move":
            return IllegalAction(ID, S.MOVE, "heroes move at most the Move value in map tiles, "
                                 "along connected tiles")
        if word == "position":
            return IllegalAction(ID, S.POSITION, "heroes can only be placed on fortified map "
                                 "tiles")
        if ch.kind != "prep" and word in ("buy", "sell", "fortify", "build", "heal",
                                             "restore", "upgrade", "give"):
            return IllegalAction(ID, S.CYCLES, "resources are spent only in the preparation "
                                 "phase")
        return None

    def concede(self, reason: str = "") -> None:
        """The players give up (the protocol's concede); in a campaign the party sheet records
        that it was abandoned and how far it got."""
        super().concede(reason)
        if self.setup.get("campaign"):
            self._party_w()["ended"] = {"how": self.conceded, **self._campaign_record()}

    def measures(self) -> dict[str, Any]:
        """For the simulation lab: combat rounds, cycle, gate HP, enemies left, kills, KOs,
        traps destroyed; on a loss the trigger, the final blow and the margins; in a
        campaign the chapters won and lost."""
        out: dict[str, Any] = {
            "rounds": self.rounds, "cycle": min(self.cycle, self.chapter_data.cycles),
            "cycles": self.chapter_data.cycles, "gate_hp": self.gate_hp,
            "enemies_left": len(self.enemies), "kills": self.kills, "kos": self.kos,
            "traps_lost": self.traps_lost, "replays": self.replays,
            "chapter_progress": round(self._progress(), 4)}
        if self.setup.get("campaign"):
            out["chapters_won"] = sum(1 for _, r in self.record if r == "win")
            out["chapters_lost"] = sum(1 for _, r in self.record if r == "loss")
        o = self.outcome()
        if o.result == "loss":
            ending = self.ending or {}
            out["trigger"] = ("conceded" if self.conceded is not None
                              else "campaign_ended" if self.party.get("ended")
                              else ending.get("trigger") or "unknown")
            out["final_blow"] = ending.get("final_blow")
            out["margin_gate_hp"] = self.gate_hp
            out["margin_enemies_left"] = len(self.enemies)
            out["margin_heroes_standing"] = sum(1 for h in self._party_heroes() if not h.ko)
            out["margin_cycles_short"] = self.chapter_data.cycles - min(
                self.cycle, self.chapter_data.cycles)
        return out

    def _progress(self) -> float:
        from meadhall.games.midhalla.evaluation import progress

        return progress(self)

    def _outcome(self) -> Outcome:
        if self.phase != "over" or self.result is None:
            return ONGOING
        return Outcome("win" if self.result[0] == "win" else "loss", self.result[1])

    def _hname(self, hid: str) -> str:
        c = self.content.cat
        return c.heroes[hid].name if hid in c.heroes else c.followers[hid].name

    def _short(self, hid: str) -> str:
        """The name action texts use for a hero: "Harkon" for Harkon the Drengr."""
        return memo.short_names(self.content.cat)[hid]

    def _iname(self, item: str) -> str:
        return self.content.cat.items[item].name

    def seats(self) -> list[str]:
        """One seat per hero of the setup (followers are decided by the players together)."""
        return [str(h) for h in self.setup["heroes"]]

    def seat_of(self, decision_seat: str) -> str:
        """A hero who joined a campaign later than the setup has no seat of their own: the
        players answer for them together."""
        return decision_seat if decision_seat in self.setup["heroes"] else PLAYERS

    # ----------------------------------------------------------- view / position
    def render(self) -> str:
        return render_state(self)

    def render_help(self) -> str:
        return render_help(self)

    def _capture(self) -> dict[str, Any]:
        """Copies of the position attributes (for the snapshot at the start of step 3.3); the
        party sheet is shared (each change takes a copy first, :meth:`_party_w`)."""
        d = self.__dict__
        ids = _ID_LISTS
        return {k: d[k] if k == "party" else d[k][:] if k in ids else fastcopy(d[k])
                for k in POSITION_ATTRS}

    def _restore(self, attrs: dict[str, Any]) -> None:
        """Back to captured position attributes (copied again: the capture stays intact;
        the party sheet is shared, as in :meth:`_capture`)."""
        d = self.__dict__
        for k, v in attrs.items():
            d[k] = v if k == "party" else fastcopy(v)
        self._tiles_changed()

    def _snapshot_dump(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The position dict of captured attributes (a throwaway state that shares them)."""
        tmp = object.__new__(type(self))
        tmp.__dict__.update(self.__dict__)
        tmp.__dict__.update(attrs)
        return tmp._dump()

    def view(self, seat: str | None = None) -> dict[str, Any]:
        pos = self._public_dump()
        pos["outcome"] = self.outcome().to_json()
        return pos

    def _public_dump(self) -> dict[str, Any]:
        """The position as every player sees it (:meth:`view`): decks by size and discard,
        and of the saved start of step 3.3 only that a replay is possible (it holds full
        decks), neither of them worked out in full first. Built sharing what cannot change: a
        tile's, a hero's, an enemy's or a trap's part already handed out while it reads the
        same, the party sheet (copied before any change, :meth:`_party_w`) and the pending
        choice (immutable). The state never changes a part it handed out, so views may share
        parts (never change a view)."""
        pos = self._public_base(fastcopy)
        ch = self.choice
        # the marks replaced in place: the view's keys keep their order
        pos["decks"] = self._public_decks()
        pos["tiles"] = {t: _tile_view(v) for t, v in self.tiles.items()}
        pos["heroes"] = {h: _piece_view(v) for h, v in self.heroes.items()}
        pos["enemies"] = {e: _piece_view(v) for e, v in self.enemies.items()}
        pos["traps"] = {t: _piece_view(v) for t, v in self.traps.items()}
        pos["choice"] = _choice_view(ch) if ch else None
        pos["party"] = _party_view(self.party)
        pos["party_start"] = _party_start_view(self.party_start)
        return pos

    def _public_decks(self) -> dict[str, Any]:
        """Deck.public() of each deck, written out (a view is built at every step)."""
        get = dict.__getitem__
        decks = {}
        for n in DECKS:
            d = get(self.decks, n)
            decks[n] = {"name": d.name, "size": len(d.top) + len(d.pile) + len(d.bottom),
                        "discard": d.discard[:]}
        return decks

    def _decks_text(self) -> str:
        """The JSON text (sorted keys) of :meth:`_public_decks`, written by hand."""
        get = dict.__getitem__
        out = []
        for n in _DECKS_SORTED:
            d = get(self.decks, n)
            out.append(f'{STRING_TEXT(n)}:{{"discard":{_discard_text(d.discard)},"name":'
                       f'{STRING_TEXT(d.name)},"size":{len(d.top) + len(d.pile) + len(d.bottom)}}}')
        return "{" + ",".join(out) + "}"

    def _public_base(self, copy: Any) -> dict[str, Any]:
        """:meth:`_public_dump` with a mark (:func:`~meadhall.core.jsontext.mark`) in place of
        the decks and of each part that views share (tiles, pieces, the pending choice, the party sheets):
        what is left is small and built anew every time. ``copy`` copies the parts that
        the state may change later (``fastcopy`` for a view; the identity for a text)."""
        cb = self.cb
        if cb and cb.get("snapshot"):
            cb = dict(cb)
            cb["snapshot"] = "the position at the start of step 3.3"
        cb = copy(cb)
        return {
            "chapter": self.chapter, "phase": self.phase, "cycle": self.cycle,
            "result": list(self.result) if self.result else None, "explored_in_cycle": self.explored_in_cycle,
            "timer": self.timer, "gate_hp": self.gate_hp, "silver": self.silver,
            "runestones": self.runestones, "components": list(self.components),
            "cart": list(self.cart),
            "tiles": _MARK_TILES,
            "heroes": _MARK_HEROES,
            "enemies": _MARK_ENEMIES,
            "traps": _MARK_TRAPS,
            "decks": _MARK_DECKS,
            "gifts": list(self.gifts), "quests": [list(q) for q in self.quests],
            "story": list(self.story), "script": copy(self.script),
            "here": self.here, "exploring": list(self.exploring) if self.exploring else None,
            "choice": _MARK_CHOICE,
            "combat": cb, "hero_turn": copy(self.ht),
            "rewards": copy(self.rw), "levelup": copy(self.lv),
            "curses_to_place": self.curses_to_place, "epilogue_read": self.epilogue_read,
            "tally": {"kills": self.kills, "traps_lost": self.traps_lost, "kos": self.kos,
                      "rounds": self.rounds, "replays": self.replays},
            "ending": dict(self.ending) if self.ending else None,
            "record": [list(r) for r in self.record],
            "roster": list(self.roster), "next_chapter": self.next_chapter,
            "party": _MARK_PARTY,
            "party_start": _MARK_PARTY_START,
        }

    def repetition_text(self) -> str:
        """Exactly :meth:`GameState.repetition_text`, written faster
        (:mod:`meadhall.core.jsontext`): the shared parts of the view (tiles, pieces,
        the choice, the party sheets) keep their JSON text with them, so only the small rest
        is encoded at each decision. Sorted keys make the text of a dict the sorted
        ``"key":value`` pairs, so the parts' texts can be put together by hand."""
        pos = self._public_base(_same)
        pos["outcome"] = self.outcome().to_json()
        d = self.decision()
        dj = d.to_json() if d else None
        ch = self.choice
        parts = {"tiles": _pieces_text(self.tiles, _tile_view),
                 "heroes": _pieces_text(self.heroes, _piece_view),
                 "enemies": _pieces_text(self.enemies, _piece_view),
                 "traps": _pieces_text(self.traps, _piece_view),
                 "choice": _text(_choice_view(ch)) if ch else "null",
                 "party": _text(_party_view(self.party)),
                 "party_start": _text(_party_start_view(self.party_start)),
                 "decks": self._decks_text()}
        text = splice([dj, pos], parts)
        # None: a text starting with NUL, written plainly
        return GameState.repetition_text(self) if text is None else text

    def _dump(self, public: bool = False) -> dict[str, Any]:
        """The position; ``public``: as every player sees it (:meth:`_public_dump`)."""
        if public:
            return self._public_dump()
        decks = {n: self.decks.read(n).to_json() for n in DECKS}
        cb = self._dump_combat()
        return {
            "chapter": self.chapter, "phase": self.phase, "cycle": self.cycle,
            "result": list(self.result) if self.result else None, "explored_in_cycle": self.explored_in_cycle,
            "timer": self.timer, "gate_hp": self.gate_hp, "silver": self.silver,
            "runestones": self.runestones, "components": list(self.components),
            "cart": list(self.cart),
            "tiles": {t: v.to_json() for t, v in self.tiles.items()},
            "heroes": {h: to_json(v) for h, v in self.heroes.items()},
            "enemies": {e: to_json(v) for e, v in self.enemies.items()},
            "traps": {t: to_json(v) for t, v in self.traps.items()},
            "decks": decks,
            "gifts": list(self.gifts), "quests": [list(q) for q in self.quests],
            "story": list(self.story), "script": fastcopy(self.script),
            "here": self.here, "exploring": list(self.exploring) if self.exploring else None,
            "choice": self.choice.to_json() if self.choice else None,
            "combat": cb, "hero_turn": fastcopy(self.ht),
            "rewards": fastcopy(self.rw), "levelup": fastcopy(self.lv),
            "curses_to_place": self.curses_to_place, "epilogue_read": self.epilogue_read,
            "tally": {"kills": self.kills, "traps_lost": self.traps_lost, "kos": self.kos,
                      "rounds": self.rounds, "replays": self.replays},
            "ending": dict(self.ending) if self.ending else None,
            "record": [list(r) for r in self.record],
            "roster": list(self.roster), "next_chapter": self.next_chapter,
            "party": _copy_party(self.party),
            "party_start": _copy_party(_parsed(self.party_start)),
        }

    def _dump_combat(self) -> dict[str, Any] | None:
        cb = fastcopy(self.cb)
        if cb and isinstance(cb.get("snapshot"), Snapshot):
            cb["snapshot"] = cb["snapshot"].text(self._snapshot_dump)
        return cb

    def _load(self, p: dict[str, Any], checked: bool = True) -> None:
        """Fill the state from a position (docs/formats/midhalla.md). ``checked``: refuse any
        position the rules cannot produce (:mod:`meadhall.games.midhalla.position`); only the
        engine's own snapshot of step 3.3 and test helpers load unchecked."""
        if checked:
            check_types(p)
        p = fastcopy(p)  # the state never shares a list or dict with the caller's position
        c = self.content
        if "chapter" in p:
            if p["chapter"] not in c.chapters:
                raise ContentError("", "chapter", f"unknown chapter {p['chapter']!r}")
            if p["chapter"] != self.chapter:
                self._setup_chapter(p["chapter"])
        for k in ("phase", "cycle", "explored_in_cycle", "timer", "gate_hp", "silver",
                  "runestones", "curses_to_place", "epilogue_read", "here"):
            if k in p:
                setattr(self, k, p[k])
        self.result = p.get("result")
        for k in ("components", "cart", "gifts", "quests", "story", "script"):
            if k in p:
                setattr(self, k, fastcopy(p[k]))
        if "exploring" in p:
            self.exploring = p["exploring"]
        if "tiles" in p:
            self.tiles = {t: Tile.from_json(t, v) for t, v in p["tiles"].items()}
            self._tiles_changed()
            for t in self.tiles.values():
                for side, other in t.links.items():
                    if other not in self.tiles:
                        raise ContentError("", f"tiles.{t.id}.links.{side}",
                                           f"unknown map tile {other!r}")
        if "heroes" in p:
            self.heroes = {}
            # setup order, then followers in catalogue order: never the save's key order
            order = [*self.setup["heroes"], *c.cat.heroes, *c.cat.followers]
            for h, v in sorted(p["heroes"].items(),
                               key=lambda kv: order.index(kv[0]) if kv[0] in order else 99):
                if h not in c.cat.heroes and h not in c.cat.followers:
                    raise ContentError("", f"heroes.{h}", "unknown hero or follower")
                hd = c.cat.heroes.get(h) or c.cat.followers[h]
                base = {"id": h, "hp": hd.max_hp, "max_hp": hd.max_hp, "top": list(hd.top),
                        "bottom": list(hd.bottom), "follower": h in c.cat.followers}
                self.heroes[h] = from_json(HeroState, {**base, **v})
        if "enemies" in p:
            self.enemies = {}
            for e, v in sorted(p["enemies"].items(), key=lambda kv: _number(kv[0])):
                if v.get("card") not in c.cat.enemies:
                    raise ContentError("", f"enemies.{e}.card", f"unknown enemy {v.get('card')!r}")
                data = c.cat.enemies[v["card"]]
                hp = data.hp[max(1, self._players()) - 1]
                base = {"id": e, "hp": hp, "max_hp": hp, "evasion": data.evasion}
                self.enemies[e] = from_json(EnemyState, {**base, **v})
        if "traps" in p:
            self.traps = {}
            for t, v in sorted(p["traps"].items(), key=lambda kv: _number(kv[0])):
                if v.get("kind") not in c.cat.traps:
                    raise ContentError("", f"traps.{t}.kind", f"unknown trap {v.get('kind')!r}")
                levels = c.cat.traps[v["kind"]].levels
                level = v.get("level", 1)
                if not 1 <= level <= len(levels):
                    raise ContentError("", f"traps.{t}.level", f"levels 1 to {len(levels)}")
                base = {"id": t, "hp": levels[level - 1].hp}
                self.traps[t] = from_json(TrapState, {**base, **v})
        for n, d in p.get("decks", {}).items():
            self.decks[n] = Deck.from_json(d)
            # which discard piles are shuffled back is a rule, not a property of the save
            self.decks[n].reshuffle = n in RESHUFFLING
        self.choice = Choice.from_json(fastcopy(p.get("choice")))
        self.cb = fastcopy(p.get("combat"))
        if self.cb and isinstance(self.cb.get("snapshot"), str):
            self.cb["snapshot"] = Snapshot(text=self.cb["snapshot"])
        self.ht = fastcopy(p.get("hero_turn"))
        self.rw = fastcopy(p.get("rewards"))
        self.lv = fastcopy(p.get("levelup"))
        tally = p.get("tally", {})
        self.kills = tally.get("kills", 0)
        self.traps_lost = tally.get("traps_lost", 0)
        self.kos = tally.get("kos", 0)
        self.rounds = tally.get("rounds", 0)
        self.replays = tally.get("replays", 0)
        self.ending = dict(p["ending"]) if p.get("ending") else None
        self.record = [list(r) for r in p.get("record", [])]
        if "party" in p:
            self.party = _full_party(fastcopy(p["party"]))
        self.roster = list(p.get("roster", [h for h, v in self.heroes.items()
                                            if not v.follower]))
        self.next_chapter = p.get("next_chapter")
        if "party_start" in p:
            self.party_start = json.dumps(_full_party(fastcopy(p["party_start"])))
        if "choice" not in p and self.pending is None and self.phase != "over":
            # a hand-written position without a pending choice: run to the next decision
            self._advance([])
        if checked:
            self._check_loaded()

    def _check_loaded(self) -> None:
        """The rules' invariants, a valid 3.3 snapshot, and the pending decision: exactly the
        one the rules ask in this position (so it has at least one legal action)."""
        check_state(self)
        snap = self.cb.get("snapshot") if self.cb else None
        if isinstance(snap, Snapshot) and snap.attrs is None:
            probe = self.clone()
            try:
                probe._load(json.loads(snap.text(None)), checked=False)
                probe.cb["snapshot"] = None
                probe._advance([])
                check_state(probe)
            except ContentError as e:
                raise ContentError("", f"combat.snapshot.{e.field}", e.reason) from None
            except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                raise ContentError("", "combat.snapshot", "not a position this game can "
                                   "return to (the start of step 3.3)") from None
        ended = self.phase in ("aftermath", "over")
        if ended:
            if self.choice is not None:
                raise ContentError("", "choice", "the chapter has ended: nothing to decide")
            return
        if self.pending is not None:
            return
        if self.choice is None:
            raise ContentError("", "choice", "the game is not over, so someone must be "
                               "deciding something (a pending choice)")
        expected = self._expected_choice(self.choice)
        if expected is not None and expected != self.choice and dataclasses.replace(
                self.choice, prompt=expected.prompt, section=expected.section) == expected:
            # The prompt and section are for people and their wording may change between
            # versions: the decision is the same, asked in today's words.
            self.choice = expected
        if expected != self.choice:
            want = ", ".join(t for t, _ in expected.options[:4]) if expected else "nothing"
            raise ContentError("", "choice", "not the decision the rules ask in this "
                               f"position ({expected.kind if expected else 'none'}: {want}"
                               f"{' ...' if expected and len(expected.options) > 4 else ''})")

    def _expected_choice(self, loaded: Choice) -> Choice | None:
        """The decision the engine itself asks here, worked out on a copy; a choice asked in
        the middle of an instruction is asked again from the instruction it names."""
        probe = self.clone()
        probe.choice = None
        probe.pending = None
        ctx = loaded.ctx
        try:
            if loaded.kind in ("event_choice", "spare"):
                op = ctx.get("op")
                if not isinstance(op, dict) or not op_known(self.content, op, self.chapter):
                    return None
                probe.script.insert(0, fastcopy(op))
            elif loaded.kind == "event_build":
                probe.script.insert(0, {"op": "build_trap", "trap": ctx.get("kind")})
            elif loaded.kind == "exhaust":
                if ctx.get("hero") not in probe.heroes:
                    return None
                probe._exhaust(ctx["hero"], [])
            if probe.choice is None:
                probe._advance([])
        except (ContentError, ValueError, KeyError, TypeError, AttributeError, IndexError,
                AssertionError, RuntimeError, NeedChance):
            # a broken ctx, or table mode asking for a result: not a decision to hold
            return None
        return probe.choice
