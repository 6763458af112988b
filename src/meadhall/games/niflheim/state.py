"""The state of a Gates of Niflheim scenario and its round structure (chapter Playing a Scenario):
initiative segment, hero and undead turns (start, action and final phases), end segment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from meadhall.core import grid, words
from meadhall.core.chance import Chance, ChanceMode, NeedChance
from meadhall.core.deck import Deck, Pool
from meadhall.core.dice import COIN, D12
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.fastcopy import _ATOMIC, fastcopy
from meadhall.core.grid import Sq
from meadhall.core.jsontext import ENCODE, STRING_TEXT, mark, splice
from meadhall.core.protocol import (
    CHANCE,
    ONGOING,
    PLAYERS,
    Decision,
    Event,
    GameState,
    Outcome,
    Target,
)
from meadhall.core.rng import Rng
from meadhall.games.niflheim import campaign, combat, heroes, position, present, skills, undead
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.board import Board, layout, special_figures, sq
from meadhall.games.niflheim.board import name as sq_name
from meadhall.games.niflheim.content import TERRAIN, NiflheimContent, ScenarioData
from meadhall.games.niflheim.figures import Hero, Undead
from meadhall.games.niflheim.names import Names, names
from meadhall.games.niflheim.rolls import coin, d12
from meadhall.games.niflheim.undead import uname

NO_COVER = "no cover attack"
KEEP = "keep the roll"
FLIP = "flip the coin of fate"
START_ACTION = "__start__"
GO_ON = "__go on__"
"""The action a Coin of Fate question resumes when its roll stopped the automated steps at a
point where nothing had changed yet in the step under way: they go on from there."""


def _plain(x: Any) -> Any:
    """A deep copy of JSON-like data: what leaves the engine never shares its internals."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return x


def _sq(field: str, name: Any) -> Sq:
    """A square named in a position; a bad name is refused naming the field."""
    try:
        return grid.sq(str(name))
    except ValueError:
        raise ContentError("", field, f"{name!r} is not a square name like E5") from None


class AskCoin(Exception):  # noqa: N818 - control flow
    """A die was rolled while the Coin of Fate is unused: the players may flip it."""

    def __init__(self, what: str, result: int, section: str | None, modifier: int = 0) -> None:
        super().__init__(what)
        self.what, self.result, self.section, self.modifier = what, result, section, modifier
        self.go_on: tuple[int, list[int]] | None = None
        """Set when the roll came first in an automated step: the events that step reported
        before it and the results it already used; the automated steps can then go on from
        that step instead of replaying the action from its start."""


def _undead_chance(heroes: int, mod: int) -> str:
    """What the undead initiative roll needs against the heroes' roll, said as reachable or
    not on a d12 (Initiative: ties re-roll)."""
    need, tie = heroes - mod + 1, heroes - mod
    if need <= 12:
        return f"beats the heroes' {heroes} with {need}+"
    if tie <= 12:
        return f"cannot beat the heroes' {heroes}; {words.a(str(tie))} ties and both roll again"
    return f"cannot beat or tie the heroes' {heroes}"


_HERO_COPY = Hero.__fastcopy__  # type: ignore[attr-defined]
_UNDEAD_COPY = Undead.__fastcopy__  # type: ignore[attr-defined]
_new = object.__new__

_LISTS = ("log", "discard", "done", "forced")
"""Attributes that are lists of strings and numbers (copied one level by a clone)."""
_COPIED = frozenset({
    *_LISTS, "chance", "heroes", "undead", "items", "ground_runes", "control",
    "uact", "choice", "spawn_queue", "spawn_at", "result", "camp", "pending"})
"""Attributes :meth:`NiflheimState.clone` copies by hand."""


class _Draw:
    """A node of a step's chance tree (see :meth:`NiflheimState._forked`): one random draw
    made with nothing forced (a pick of one of ``n`` options, uniform or ``weights``; or, with
    ``mod`` set, a whole initiative roll, ties rolled again) and what followed each result:
    the next draw, or the position the step ended in."""

    __shared__ = True
    __slots__ = ("n", "weights", "mod", "kids", "before")

    def __init__(self, n: int, weights: tuple[float, ...] | None, mod: int | None,
                 before: NiflheimState | None) -> None:
        self.n, self.weights, self.mod = n, weights, mod
        self.kids: dict[Any, Any] = {}
        self.before = before
        """For an initiative roll: the position just before it (a run whose outcome the
        tree does not know yet goes on from there)."""

    def draw(self, rng: Rng) -> Any:
        """The result this draw gives with ``rng``, drawn as the rules draw it: a seeded
        :meth:`Chance.pick`, or :meth:`NiflheimState._initiative`'s d12s (``below(12) + 1``;
        did the heroes win?)."""
        mod = self.mod
        if mod is None:
            if self.weights is None:
                return rng.below(self.n)
            return rng.weighted_index(self.weights)
        while True:
            hr = rng.below(12) + 1
            ur = rng.below(12) + 1
            if hr != ur + mod:
                return hr > ur + mod


class _HeroesWon:
    """Where a step ended when its last draw was an initiative roll the heroes won (they are
    asked who goes first): the position just before the roll, and the memo the position's
    copies share (:meth:`NiflheimState._forked`). The position itself is made when a copy
    takes it: the roll's outcome on a copy of the one before."""

    __shared__ = True
    __slots__ = ("before", "_forks")

    def __init__(self, before: NiflheimState, memo: dict[Any, Any]) -> None:
        self.before, self._forks = before, memo

    def position(self) -> NiflheimState:
        """A new state in this position (as :meth:`NiflheimState._initiative` leaves it),
        borrowing the figures and lists of the position before the roll (the roll's outcome
        changes only the state's own attributes; see :meth:`NiflheimState._borrow`)."""
        c = self.before._borrow()
        c.turn_no = 0
        c._heroes_choose()
        c._forks = self._forks
        c._legal_memo = None
        return c


class _Tape(Chance):
    """The chance of a step being recorded for the chance tree: every real draw (a pick with
    more than one distinct option) and its result; an initiative roll is recorded whole, by
    its outcome (:meth:`NiflheimState._advance`), while ``paused``."""

    __slots__ = ("path", "paused")

    def __init__(self, chance: Chance) -> None:
        # the slots set directly: the chance it records is valid already (a step makes one)
        self.game, self.mode, self.rng, self.queue = (chance.game, chance.mode, chance.rng,
                                                      chance.queue)
        self.path: list[tuple[int, tuple[float, ...] | None, int | None, Any, Any]] = []
        self.paused = False

    def pick(self, what: str, options: Any, weights: Any = None,
             section: str | None = None) -> int:
        mark = Rng.draws
        i = Chance.pick(self, what, options, weights, section)
        if Rng.draws != mark and not self.paused:
            self.path.append((len(options), None if weights is None else tuple(weights),
                              None, i, None))
        return i


_CHOICE_DECISIONS: dict[int, tuple[dict[str, Any], Decision]] = {}
"""The decision of each open players' choice, by the choice's identity (a choice is made anew
whenever one is asked, and never changed in place)."""
_DECISIONS: dict[tuple[Any, ...], Decision] = {}
"""A hero's decisions by what their wording reads (see :meth:`NiflheimState._decision`)."""

_MARK_MAP, _MARK_WALLS, _MARK_HEROES, _MARK_UNDEAD, _MARK_CHOICE = (
    mark("map"), mark("walls"), mark("heroes"), mark("undead"), mark("choice"))
"""The marks of :meth:`NiflheimState._view` (:mod:`meadhall.core.jsontext`)."""
_UNDEAD_TEXTS: dict[tuple[Any, ...], str] = {}
"""The JSON text of an undead in the view, by what it shows."""
_HERO_TEXTS: dict[tuple[Any, ...], str] = {}
"""The JSON text of a hero in the view, by what it shows (:data:`_HERO_TEXT_KEY`)."""
_CHOICE_TEXTS: dict[int, tuple[dict[str, Any], str]] = {}
"""The JSON text of a players' choice in the view, by the choice's identity (a choice is
made anew whenever one is asked, and never changed in place)."""


def _hero_text_key(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving every field of a hero as a hashable tuple (lists and dicts of plain
    values as tuples), generated from the class's fields so that a new field is never left
    out of the key of :data:`_HERO_TEXTS`."""
    parts = []
    for f in fields(cls):
        if f.default_factory is list:
            parts.append(f"tuple(o.{f.name})")
        elif f.default_factory is dict:
            parts.append(f"tuple(o.{f.name}.items())")
        else:
            parts.append(f"o.{f.name}")
    env: dict[str, Any] = {}
    exec("def key(o):\n    return (" + ", ".join(parts) + ",)", env)  # noqa: S102
    return env["key"]  # type: ignore[no-any-return]


_HERO_TEXT_KEY = _hero_text_key(Hero)

_NEXT = object()
"""Key of a remembered position's memo: the default its players' choice takes next (``None``:
no such choice is open)."""
_OWNER = object()
"""Key of the memo of a position remembered by the copy that reached it (a step that drew
nothing): the memo and action text it is remembered under, until that copy moves on."""


class NiflheimState(GameState):
    """One scenario in play. Heroes act in the players' order; the undead are automated."""

    game = S.ID
    STATE_VERSION = 2  # 2026-12-01: migration from 1 in the position module (core.migrate)
    # Memos of the position (see moved()): never changed in place, so clones share them.
    _shared = GameState._shared | {"_occ", "_zoc", "_reach", "_hsteps", "_forks",
                                   "_legal_memo", "players", "order", "coin_script", "tally",
                                   "pool", "choice"}
    """Never changed in place, so clones share them: the memos of the position, and parts
    the rules replace rather than change (the undead pool is copied before a draw or an
    addition, see :meth:`own_pool`; the lab's tally is made anew when it counts; a players'
    choice is made anew whenever one is asked)."""
    _forks: dict[Any, Any] | None = None
    """What the steps from this position came to, shared by the copies of this position that
    differ only in their generator (see :meth:`_forked`; forgotten by any step): by action
    text, the step's chance tree (a :class:`_Draw`) or, when it drew nothing, the position it
    ended in; under :data:`_NEXT` the default taken next, under a scoring function the
    position's score (:meth:`settled_value`)."""
    _occ: dict[Sq, str] | None = None
    _zoc: tuple[Board, dict[Sq, set[int]]] | None = None
    _reach: undead.Reach | None = None
    _hsteps: tuple[tuple[Any, ...], list[heroes.Step]] | None = None

    def __init__(self, content: NiflheimContent, setup: dict[str, Any], seed: int,
                 chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self._init_base(content, setup, seed, chance, auto_choices)
        self.heroes: dict[str, Hero] = {}
        self.coin_script: list[int] = []
        self.coin_pos = 0
        self.players: list[str] = sorted(setup.get("players") or {})
        """Co-op players in name order (a setup's key order is not part of the game)."""
        self.control: dict[str, str] = {h: p for p, ids in (setup.get("players") or {}).items()
                                        for h in ids}
        """Co-op Play: hero id -> the player who controls it."""
        self.tally: dict[str, Any] = {"kills": 0, "knockouts": []}
        """What the lab measures: undead eliminated and heroes knocked out (by whom)."""
        self.camp: dict[str, Any] | None = campaign.new_record() if setup.get("campaign") \
            else None
        self.reset_scenario(setup["scenario"])
        self._place_heroes(self.scenario, setup)
        if self.camp is not None:
            campaign.remember_start(self)

    def reset_scenario(self, sid: str) -> None:
        """Lay out a scenario's map, pool, markers and tracks (Setup); heroes are placed apart."""
        sc = self.content.scenarios[sid]
        lay = layout(sc)
        self.scenario_id: str = sid
        self.board = lay.board
        self.undead: dict[int, Undead] = {}
        self.pool: Deck = Pool("undead pool", [k for k, n in sc.pool.items() for _ in range(n)])
        self.discard: list[str] = []
        self.items: dict[Sq, list[str]] = {q: list(v) for q, v in lay.items}
        self.ground_runes: dict[Sq, dict[str, str]] = {}
        """Runestones affixed to weapons lying on the ground (square -> weapon -> colour)."""
        self.done: list[str] = []
        self.round = 1
        self.track = 0
        self.lap = 1
        self.segment = "initiative"
        self.phase = "start"
        self.order: list[str] = ["heroes", "undead"]
        self.turn_no = 0
        self.active: str | None = None
        self.uact: dict[str, int] | None = None
        self.choice: dict[str, Any] | None = None
        self.spawn_queue: list[str] | None = None
        self.spawn_at: dict[str, list[str]] | None = None
        """A hand-drawn map's own spawn locations (None: the scenario's)."""
        self.coin_used = False
        self.result: list[str] | None = None
        self.forced: list[str] = []
        self.next_active: str | None = None
        for q in lay.face_down:
            uid = len(self.undead) + 1
            self.undead[uid] = Undead(uid, None, q)
        for q, kind in lay.orange:
            uid = len(self.undead) + 1
            self.undead[uid] = Undead(uid, kind, q, orange=True)
        self.moved()

    # ------------------------------------------------------------------ setup
    def _place_heroes(self, sc: ScenarioData, setup: dict[str, Any]) -> None:
        """Heroes go on V, the others on free squares adjacent to it (see rulings)."""
        ids = list(setup["heroes"]) + list(setup.get("huskarls", []))
        for hid in ids:
            self.heroes[hid] = self.new_hero(hid, None)
        self.place_party(ids)

    def place_party(self, ids: list[str]) -> None:
        lay = layout(self.scenario)
        v = grid.sq(self.scenario.start)
        spots = lay.party if self.board is lay.board else lay.start_squares(self.board, v)
        for i, hid in enumerate(ids):
            if i >= len(spots):
                raise ContentError("setup", "heroes", "not enough free squares around V")
            h = self.heroes[hid]
            h.at, h.status = spots[i], "active"
        self.moved()

    def new_hero(self, hid: str, at: Sq | None) -> Hero:
        """A character (with the scenario's authored kit) or a huskarl (with its weapons)."""
        sc = self.scenario
        supplies = {"projectiles": 0, "healing_salves": 0, "holy_water": 0}
        if hid in self.content.huskarls:
            hk = self.content.huskarls[hid]
            h = Hero(hid, hk.name, True, at, hk.health, hk.health, supplies=supplies)
            kit = list(hk.weapons)
        else:
            c = self.content.characters[hid]
            h = Hero(hid, c.name, False, at, c.health, c.health, supplies=supplies)
            kit = list(sc.kit)
            for k, n in sc.kit_supplies.items():
                h.supplies[k] = n
            h.runes = dict(sc.kit_runes)
        for w in kit:
            heroes.receive(self, h, w)
        return h

    def clone(self) -> NiflheimState:
        """:meth:`GameState.clone`, with the attributes of this state copied by hand (figures,
        lists and dicts of plain values); any other attribute is copied as the kernel would.
        Search bots copy states very often; ``tests/games/niflheim/test_niflheim_clone.py``
        checks the copies are independent and equal.

        Unlike the kernel's, the copy keeps the remembered legal list (a set never changed in
        place; the copy has the same legal actions, determinizing resamples nothing that
        decides them): a search bot's look-ahead applies an action of the position's list to
        a copy without the rules checking it a second time (see :meth:`GameState.apply`)."""
        new = _new(NiflheimState)
        d = self.__dict__.copy()  # immutable values and shared memos as they are
        if "_borrowed" in d:
            del d["_borrowed"]  # the copy owns what it is made of
        if not _KNOWN.issuperset(d):
            for k in d.keys() - _KNOWN:
                v = d[k]
                if v.__class__ not in _ATOMIC:
                    d[k] = fastcopy(v)
        for k in _LISTS:
            d[k] = d[k][:]
        ch = self.chance
        if ch.__class__ is Chance and not ch.queue:
            c = _new(Chance)
            c.game, c.mode, c.queue = ch.game, ch.mode, []
            r = c.rng = _new(Rng)
            r.state = ch.rng.state
            d["chance"] = c
        else:
            d["chance"] = ch.clone()
        d["heroes"] = {k: _HERO_COPY(h) for k, h in self.heroes.items()}
        d["undead"] = {k: _UNDEAD_COPY(u) for k, u in self.undead.items()}
        d["items"] = {q: v[:] for q, v in self.items.items()}
        if self.ground_runes:
            d["ground_runes"] = {q: v.copy() for q, v in self.ground_runes.items()}
        else:
            d["ground_runes"] = {}
        d["control"] = self.control.copy()
        if self.uact is not None:
            d["uact"] = self.uact.copy()  # numbers only
        # the choice is shared: a choice is made anew whenever one is asked and never
        # changed in place (test_niflheim_fast_paths.py checks it at every step)
        for k in ("spawn_queue", "spawn_at", "result", "camp", "pending"):
            v = d[k]
            if v is not None:
                d[k] = fastcopy(v)
        new.__dict__ = d
        return new

    def __getstate__(self) -> dict[str, Any]:
        # what search copies remembered of the position stays behind (see _forks)
        state = super().__getstate__()
        state.pop("_forks", None)
        state.pop("_borrowed", None)
        return state

    @property
    def scenario(self) -> ScenarioData:
        return self.content.scenarios[self.scenario_id]

    def setup_rules_34(self) -> bool:
        """New Rules for Scenarios 3 and 4 are in force (and stay so for later scenarios)."""
        return "scenario3" in self.scenario.rules

    def fate_track_in_use(self) -> bool:
        """The Glory / Corruption track is used from scenarios 3 and 4 on (Fate Track)."""
        return self.scenario.glory

    def belt_rules(self) -> bool:
        return self.setup_rules_34()

    def preferred(self, h: Hero) -> list[str]:
        if h.huskarl:
            return list(self.content.huskarls[h.id].preferred)
        return list(self.content.characters[h.id].preferred)

    # ------------------------------------------------------------------ board queries
    def moved(self, heroes: bool = True) -> None:
        """Figures moved, appeared, left or changed their stun: forget the occupancy and zones
        of control, and (``heroes``: a hero or special figure changed) the undead's distances
        to the heroes. The rules call this wherever a figure changes (a test checks the
        memos against fresh answers at every step of random games); code that moves figures
        of a state by hand calls it too."""
        self._occ = self._zoc = self._hsteps = None
        if heroes:
            self._reach = None

    def own_pool(self) -> Deck:
        """The undead pool, to change: a copy of its own (copies of the state share the
        pool, which is never changed in place)."""
        pool = self.pool = self.pool.__fastcopy__(self.pool)  # type: ignore[attr-defined]
        return pool

    def occupancy(self) -> dict[Sq, str]:
        """Squares holding a figure: ``h:<id>`` heroes, ``u:<id>`` undead, ``f:<label>`` others.
        The answer is shared: never change it."""
        got = self._occ
        if got is not None:
            return got
        occ: dict[Sq, str] = {}
        for label, q in special_figures(self.scenario):
            if label not in self.done:
                occ[q] = f"f:{label}"
        for h in self.heroes.values():
            if h.status == "active" and h.at is not None:
                occ[h.at] = f"h:{h.id}"
        for u in self.undead.values():
            occ[u.at] = f"u:{u.id}"
        self._occ = occ
        return occ

    # ------------------------------------------------------------------ shared effects
    def wound_hero(self, h: Hero, events: list[Event], section: str, by: str = "",
                   by_type: str = "") -> None:
        """One wound; at 0 health the hero is killed and drops what they carried. ``by`` and
        ``by_type`` name what dealt it (an undead's figure id and kind, ``fire``, a hero whose
        natural 2 or Greek fire hit), for the statistics of the lab."""
        h.health -= 1
        if h.health > 0:
            events.append(Event("health", f"{h.name} has {h.health} health left", section,
                                {"hero": h.id, "health": h.health}))
            return
        at = h.at
        assert at is not None
        dropped = h.items()
        if dropped:
            self.items.setdefault(at, []).extend(dropped)
            for item, colour in h.runes.items():
                if item in dropped:  # the runestone stays on its weapon
                    self.ground_runes.setdefault(at, {})[item] = colour
            h.runes = {}
        h.ready, h.off_hand, h.gear = None, None, []
        h.status, h.at, h.locked_by = "dead", None, None
        self.moved()
        # kind "knockout" with hero/by/by_type: the simulation lab counts these.
        events.append(Event("knockout", f"{h.name} is killed"
                            + (f" and drops their gear on {grid.name(at)}" if dropped else ""),
                            S.LOSING, {"hero": h.id, "by": by, "by_type": by_type}))
        # a new tally (copies of the state share the old one)
        self.tally = {**self.tally, "knockouts": [
            *self.tally["knockouts"],
            {"hero": h.id, "by": by, "by_type": by_type, "round": self.round}]}
        if h.huskarl and self.scenario.glory:
            for x in self.heroes.values():
                if not x.huskarl and x.status in ("active", "exited"):
                    skills.change_fate(self, x, -3, events)
            events.append(Event("glory", "A huskarl dies: every character present loses 3 "
                                "Glory", S.ADDITIONAL))
        if self.active == h.id:
            h.activated = True
            self.active = None

    def wound_figure_at(self, q: Sq, by: Hero, events: list[Event]) -> None:
        who = self.occupancy().get(q, "")
        if who.startswith("h:"):
            self.wound_hero(self.heroes[who[2:]], events, S.ROLLING, by=by.id,
                            by_type="natural 2")
        elif who.startswith("u:"):
            combat.wound_undead(self, self.undead[int(who[2:])], by, events)

    def break_locks(self, uid: int, events: list[Event]) -> None:
        for h in self.heroes.values():
            if h.locked_by == uid:
                h.locked_by = None
                events.append(Event("unlock", f"{h.name} is no longer locked", S.LOCKS,
                                    {"hero": h.id}))

    def break_locks_if_apart(self, u: Undead, events: list[Event]) -> None:
        """A pushed undead no longer adjacent to the hero it locked releases the lock."""
        for h in self.heroes.values():
            if h.locked_by == u.id and h.at is not None and not self.board.adjacent(h.at, u.at):
                h.locked_by = None
                events.append(Event("unlock", f"{h.name} is no longer locked", S.LOCKS,
                                    {"hero": h.id}))

    def recheck_zoc(self, h: Hero, events: list[Event]) -> None:
        """After an attack stuns or kills the undead, a stopped hero may move on."""
        if h.zoc_stop and h.on_map and h.at not in undead.zoc(self):
            h.zoc_stop = False
            events.append(Event("zoc", f"{h.name} is no longer in a zone of control and may "
                                "continue taking movement actions", S.ZOC, {"hero": h.id}))

    def complete(self, h: Hero, events: list[Event]) -> None:
        """The objective is met: the scenario is complete; XP for completion and secondaries."""
        sc = self.scenario
        present = [x for x in self.heroes.values() if x.status in ("active", "exited")]
        for x in present:
            x.xp += 1
        text = f"{h.name} exits with the objective complete: {sc.objective.text}"
        sec = [o for o in sc.secondary if all(d in self.done for d in o.done)]
        if sc.secondary and len(sec) == len(sc.secondary):
            for x in present:
                x.xp += 1
            text += "; all secondary objectives complete (+1 XP)"
        events.append(Event("complete", text + " (+1 XP to each hero present)", S.FINISHED_S1))
        if sc.glory:
            failed = len(sc.secondary) - len(sec)
            for x in present:
                if not x.huskarl:
                    x.glory = max(x.glory + 1 - failed, -skills.MAX_CORRUPTION)
            lost = (f" and loses {failed} for failed secondary objectives" if failed else "")
            events.append(Event("glory", "Each character present gains 1 Glory for completing "
                                f"the scenario{lost}", S.ADDITIONAL))
        if sc.exit_text:
            events.append(Event("exit text", sc.exit_text, S.FINISHED_S1))
        self.result = ["win", f"Scenario {sc.number}: {sc.name} complete"]

    # ------------------------------------------------------------------ protocol
    def scenario_outcome(self) -> Outcome:
        """The scenario's result: complete, lost, or still being played."""
        if self.result:
            return Outcome(self.result[0], self.result[1])  # type: ignore[arg-type]
        # The position's Reach lists the heroes on the map (it is forgotten whenever one moves,
        # leaves or dies), so the common answer costs one lookup.
        r = self._reach
        if r is None or r.board is not self.board:
            r = undead.reach(self)
        if r.heroes:
            return ONGOING
        present = [h for h in self.heroes.values() if h.status != "reserve"]
        if not any(h.on_map for h in present):
            if all(h.status == "dead" for h in present):
                return Outcome("loss", "all heroes present in the scenario have been killed")
            return Outcome("loss", "no hero is left on the map to complete the objective")
        return ONGOING

    def scenario_over(self) -> bool:
        """``scenario_outcome().over``, without making the outcome in the common case (the
        automated steps ask after every undead activation)."""
        if not self.result:
            r = self._reach
            if r is not None and r.board is self.board and r.heroes:
                return False
        return self.scenario_outcome().over

    def _outcome(self) -> Outcome:
        if self.camp is None:
            return self.scenario_outcome()
        end = self.camp.get("result")
        return Outcome(end[0], end[1]) if end else ONGOING  # type: ignore[arg-type]

    def _decision(self) -> Decision | None:
        if self.choice is not None:
            c = self.choice
            got = _CHOICE_DECISIONS.get(id(c))
            if got is not None and got[0] is c:
                return got[1]  # the same choice (never changed in place): the same decision
            # A covering attack is its hero's player's to make; other choices are the players'.
            d = Decision(c.get("seat") or PLAYERS, c["prompt"], c["section"], "choice",
                         c["default"])
            if len(_CHOICE_DECISIONS) > 4096:
                _CHOICE_DECISIONS.clear()
            _CHOICE_DECISIONS[id(c)] = (c, d)  # (keeps the choice alive: its id stays its own)
            return d
        if self.active is not None:
            h = self.heroes[self.active]
            # Co-op Play: the controlling player decides; solo, the hero's own id (seat_of maps
            # it to a person's seat).
            seat = self.control.get(h.id, h.id) if self.players else h.id
            key = (seat, h.name, h.intent, h.mp, h.locked_by is not None)
            got = _DECISIONS.get(key)
            if got is not None:
                return got  # decisions are immutable: one per wording
            if h.intent is None:
                what = "declare stationary, walking or running"
                if h.locked_by is not None:
                    what += " (then roll to break the lock)"
            else:
                what = f"{h.mp} MP left: move, act or end the activation"
            if len(_DECISIONS) > 4096:
                _DECISIONS.clear()
            got = _DECISIONS[key] = Decision(seat, f"{h.name}'s activation: {what}",
                                             S.ACTION_PHASE)
            return got
        raise ContentError("position", "active", "the position is not waiting for a decision: "
                           "name the active hero or a players' choice")

    def take_default(self) -> list[Event] | None:
        """:meth:`GameState.take_default`, read from the open players' choice without building
        its :class:`Decision` (search copies follow defaults after nearly every step;
        ``test_niflheim_fast_paths.py`` compares it with the kernel's)."""
        c = self.choice
        if c is None or self.pending is not None:
            return super().take_default()
        # _decision's seat and default of a choice, as the kernel's take_default reads them
        if (c.get("seat") or PLAYERS) != PLAYERS or c["default"] is None or self.outcome().over:
            return None
        return self._run_atomic(c["default"], [])

    def measures(self) -> dict[str, Any]:
        """Rounds, objectives done, undead left and killed, heroes standing, corruption; on a
        loss its trigger, final blow and margins (see :func:`.evaluation.measures`)."""
        from meadhall.games.niflheim.evaluation import measures

        return measures(self)

    def _describe(self, text: str) -> tuple[str, tuple[Target, ...]]:
        return present.describe(self, text)

    def seats(self) -> list[str]:
        """Co-op Play: one seat per player (setup ``players``, each selecting one character).
        Without players the game is played solo: one person runs the whole party, seated as
        the first character (see rulings)."""
        if self.players:
            return list(self.players)
        return [self.setup["heroes"][0]]

    def seat_of(self, hid: str) -> str:
        """The seat deciding for a hero: its controlling player in co-op play, the solo seat
        otherwise."""
        if hid in (PLAYERS, CHANCE):
            return hid
        if self.players:
            return self.control.get(hid, hid)
        return self.setup["heroes"][0]

    def cover_prefix(self, h: Hero) -> str:
        """How a covering hero's attack begins: ``cover: <hero> ``."""
        return f"cover: {self.names.hero[h.id]} "

    def hero_named(self, word: str) -> Hero:
        """The hero an action text names."""
        return self.heroes[self.names.hero_id[word]]

    def spawns(self) -> dict[str, list[str]]:
        """Spawn location label -> squares: the scenario's, or a hand-drawn map's own."""
        return self.scenario.spawn if self.spawn_at is None else self.spawn_at

    @property
    def names(self) -> Names:
        return names(self.content)

    def _cover_actions(self, active: str) -> list[str]:
        """Covering attacks offered among the active hero's actions: those of other covering
        heroes decided from the same seat (another seat's heroes are asked on their own, see
        :meth:`_offer_cover`)."""
        out = []
        seat = self.seat_of(active)
        for h in self.heroes.values():
            if h.id != active and h.marker and h.marker.startswith("cover") \
                    and self.seat_of(h.id) == seat:
                out += self._cover_options(h)
        return out

    def _cover_options(self, h: Hero, only: int | None = None) -> list[str]:
        """A covering hero's attacks: "any attack she could have made", weapon attacks and
        phial throws (Covering; Phial Weapon Attacks), against ``only`` when given."""
        pre = self.cover_prefix(h)
        return [p.text for p in combat.plans(self, h, only=only, prefix=pre)] \
            + combat.phial_targets(self, h, only=only, prefix=pre)

    def _legal(self) -> list[str]:
        if not self._scratch:
            self.remember_steps()  # the copies a search bot makes of this position share it
        if self.choice is not None:
            return list(self.choice["options"])
        assert self.active is not None
        h = self.heroes[self.active]
        return heroes.legal(self, h) + (self._cover_actions(h.id) if h.intent else [])

    def _why_illegal(self, action: str) -> IllegalAction | None:
        if self.choice is not None:
            return IllegalAction(S.ID, self.choice["section"], f"the players must choose: "
                                 f"{', '.join(self.choice['options'])}")
        if self.active is not None:
            h = self.heroes[self.active]
            if h.intent is None and not action.startswith("declare"):
                return IllegalAction(S.ID, S.ACTION_PHASE, f"{h.name} must first declare "
                                     "stationary, walking or running")
            return heroes.why_illegal(self, h, action)
        return None

    def _apply(self, action: str, events: list[Event]) -> None:
        forks = self.__dict__.get("_forks")
        if forks is not None and _OWNER in forks:
            # this copy remembers the position for later runs: it leaves a copy there instead.
            # (Whoever leaves first drops the mark: a memo never keeps the one of the position
            # before it alive, so a game's state holds no chain of past memos.)
            memo, text = forks.pop(_OWNER)
            if memo.get(text, (None,))[0] is self:
                memo[text] = (self.clone(), forks)
        self._forks = None  # the position changes: what was remembered of it is forgotten
        if forks is not None and self.forks():
            self._forked(forks, action, events)
            return
        self._step(action, events)
        if forks is not None and not self._scratch:
            # A search copy of this position found that the step draws nothing: this state
            # is now where that copy was (a bot's chosen action, as it looked ahead), and its
            # copies share what that copy's evaluation remembered (the end of the activation,
            # the undead turn after it).
            got = forks.get(action)
            if got.__class__ is tuple:
                self._forks = got[1]

    def _step(self, action: str, events: list[Event]) -> None:
        if "_borrowed" in self.__dict__:
            self._own()
        if self.choice is not None and self.choice["kind"] == "coin":
            self._coin(action, events)
        else:
            self._guarded(action, events)

    def _do(self, action: str, events: list[Event]) -> None:
        # GO_ON only resumes the automated steps where a Coin of Fate question stopped them
        if action != GO_ON:
            self._act(action, events)
        self._advance(events)

    def _act(self, action: str, events: list[Event]) -> None:
        """One answer or hero action, before the automated steps that follow it."""
        if action == START_ACTION:
            sc = self.scenario
            events.append(Event("setup", f"Scenario {sc.number}: {sc.name}. "
                                f"{len(sc.face_down)} face-down undead markers are placed on "
                                f"the D squares; {undead.physical_pool(self)} remain in the "
                                "pool", S.SETUP))
            undead.reveal(self, events)
        elif self.choice is not None:
            self._apply_choice(action, events)
        elif action.startswith("cover: "):
            self._cover_attack(action, events)
        else:
            assert self.active is not None
            h = self.heroes[self.active]
            n = len(events)
            heroes.apply(self, h, action, events)
            self._cover_revealed(events[n:], self.seat_of(h.id))

    def _start(self, events: list[Event]) -> None:
        if "_borrowed" in self.__dict__:
            self._own()
        self._forks = None
        self._guarded(START_ACTION, events)

    # ------------------------------------------------------------------ coin of fate
    def d12(self, what: str, section: str | None, modifier: int = 0) -> int:
        """Roll a d12 (``modifier``: the die roll modifier the roll will get, shown with it).
        While the Coin of Fate is unused the players may refuse the result: the action goes
        on, or is replayed from its start, with the kept (or re-rolled) results."""
        if self.coin_pos < len(self.coin_script):
            r = self.coin_script[self.coin_pos]
            self.coin_pos += 1
            return r
        r = int(D12.roll(self.chance, what, section))
        if not self.coin_used:
            raise AskCoin(what, r, section, modifier)
        return r

    def _rolls_first(self, action: str) -> bool:
        """Can ``action`` itself roll a die, before the automated steps that follow it? (Those
        roll only first thing in a step, where they can go on without replaying the action,
        see :class:`AskCoin`.)"""
        c = self.choice
        if c is not None:
            return c["kind"] == "bow target" or (c["kind"] == "cover" and action != NO_COVER)
        if action.startswith(("attack ", "throw ", "cover: ")):
            return True
        h = self.heroes.get(self.active or "")
        return action.startswith("declare") and h is not None and h.locked_by is not None

    def rolled_first(self, ask: AskCoin, events: list[Event], mark: int, pos: int) -> None:
        """An automated step stopped by a Coin of Fate question at its first roll (after
        ``mark`` events and ``pos`` results of the script): it can go on from its start."""
        ask.go_on = (len(events) - mark, self.coin_script[pos:self.coin_pos])

    def _guarded(self, action: str, events: list[Event], shown: int = 0) -> None:
        """Run an action; while the Coin of Fate is unused a die roll may stop it to ask the
        players. The action's events up to that roll are reported with the question (``shown``
        of them were reported by an earlier question of the same action, and are not repeated
        when it is run again). A roll made first thing in an automated step asks at once
        (nothing of that step has happened yet): the automated steps go on from it after the
        answer. Any other roll puts the state back as it was before the action, which is then
        replayed from its start with the results kept (so only an action that can roll at once
        takes a copy of the state)."""
        n = len(events)
        if self.coin_used and self.camp is None:
            try:
                self._do(action, events)  # the coin cannot come back within this action
            finally:
                del events[n:n + shown]
            return
        snapshot = self.clone() if self._rolls_first(action) else None
        try:
            self._do(action, events)
        except NeedChance:
            del events[n:n + shown]  # table mode asks for a result: report only what is new
            raise
        except AskCoin as ask:
            happened = events[n:]
            del events[n:]
            events.extend(happened[shown:])
            if ask.go_on is not None:
                again, used = ask.go_on
                script = [*used, ask.result]
                action = GO_ON
            elif snapshot is not None:
                again = len(happened)
                script = [*self.coin_script[: self.coin_pos], ask.result]
                chance = self.chance  # results already drawn stay drawn
                self.__dict__ = snapshot.__dict__
                self.chance = chance
            else:  # pragma: no cover - every roll of the rules is one of the two kinds
                raise RuntimeError(f"niflheim: {ask.what} stopped {action!r} where it can "
                                   "neither go on nor be replayed") from None
            prior = self.choice
            self.coin_script, self.coin_pos = [], 0
            self._ask("coin", f"{ask.what}: rolled {ask.result}. Keep it, or flip the Coin of "
                      "Fate (once per scenario: heads re-roll, tails keep)?", S.COIN,
                      [KEEP, FLIP], KEEP, action=action, script=script, what=ask.what,
                      prior=prior, shown=again, modifier=ask.modifier)
            events.append(Event("roll", f"{ask.what}: {ask.result}", ask.section,
                                {"roll": ask.result, "dice": [d12(ask.result, ask.modifier)]}))
            return
        del events[n:n + shown]
        self.coin_script, self.coin_pos = [], 0

    def _coin(self, answer: str, events: list[Event]) -> None:
        """Coin of Fate: heads, re-roll the die; tails, keep it. Then resume the action."""
        c = self.choice
        assert c is not None
        self.choice = c["prior"]
        script = list(c["script"])
        if answer == FLIP:
            self.coin_used = True
            face = COIN.roll(self.chance, "the Coin of Fate", S.COIN)
            mod = int(c.get("modifier", 0))
            if face == "heads":
                script[-1] = int(D12.roll(self.chance, f"{c['what']} (re-roll)", S.COIN))
                events.append(Event("coin", f"The Coin of Fate shows heads: {c['what']} is "
                                    f"re-rolled: {script[-1]}", S.COIN,
                                    {"roll": script[-1],
                                     "dice": [coin(face), d12(script[-1], mod)]}))
            else:
                events.append(Event("coin", f"The Coin of Fate shows tails: the {script[-1]} "
                                    "stands", S.COIN, {"dice": [coin(face)]}))
        self.coin_script, self.coin_pos = script, 0
        self._guarded(c["action"], events, int(c.get("shown", 0)))

    # ------------------------------------------------------------------ choices
    def _ask(self, kind: str, prompt: str, section: str, options: list[str],
             default: str | None = None, **data: Any) -> None:
        self.choice = {"kind": kind, "prompt": prompt, "section": section,
                       "options": options, "default": default or options[0], **data}

    def _apply_choice(self, action: str, events: list[Event]) -> None:
        c = self.choice
        assert c is not None
        self.choice = None
        kind = c["kind"]
        if kind == "initiative":
            first = "heroes" if action.startswith("heroes") else "undead"
            self.order = [first, "undead" if first == "heroes" else "heroes"]
            events.append(Event("initiative", f"The heroes choose that the {first} go first",
                                S.INITIATIVE))
            self._begin_turns()
        elif kind == "activate hero":
            self._activate_hero(self.hero_named(action[len("activate "):]).id, events)
        elif kind == "activate undead":
            self._begin_undead(int(action.split()[-1]), events)
        elif kind == "undead target":
            u = self.undead[c["uid"]]
            undead.attack(self, u, self.hero_named(action.split(" attacks ", 1)[1]), events)
        elif kind == "undead move":
            u = self.undead[c["uid"]]
            self._undead_step(u, sq(action.split()[-1]), c["why"], events)
        elif kind == "blue rune":
            combat.stun_undead(self, self.undead[int(action.split()[-1])], events)
        elif kind == "bow target":
            combat.shoot(self, self.undead[c["uid"]], self.hero_named(action.split(" shoots ", 1)[1]),
                         events)
        elif kind == "spawn":
            self._spawn(sq(action.split()[-1]), events)
        elif kind == "cover":
            if action != NO_COVER:
                self._cover_attack(action, events)
            else:
                who = [h.name for h in self.heroes.values() if h.on_map and h.marker
                       and h.marker.startswith("cover") and self.seat_of(h.id) == c.get("seat")]
                events.append(Event("cover", f"{' and '.join(who) or 'No covering hero'} "
                                    "does not interrupt", S.COVERING))
            u = self.undead.get(c.get("uid", -1))
            if c.get("later") and u is not None and self.choice is None:
                self._offer_cover(u, c["later"])
        elif kind == "ready passed":
            if " readies " in action:
                heroes.ready(self, self.heroes[c["hero"]], c["item"], action.endswith("off hand"),
                             events, cost=0)
            else:
                events.append(Event("pass", f"{self.heroes[c['hero']].name} keeps the "
                                    f"{self.content.armoury[c['item']].name} in a gear slot",
                                    S.PASSING))
        elif kind == "control":
            player = action.rsplit(" controls ", 1)[0]
            self.control[c["hero"]] = player
            events.append(Event("control", f"The players decide that {player} controls "
                                f"{self.heroes[c['hero']].name}", S.CO_OP))
            self._activate_hero(c["hero"], events)
        elif kind in campaign.CHOICES:
            campaign.apply_choice(self, kind, action, c, events)
        else:  # pragma: no cover - choices are only made here
            raise ValueError(kind)

    def _cover_attack(self, action: str, events: list[Event]) -> None:
        """Covering: an unused attack made at any point of the round (an interrupt)."""
        rest = action[len("cover: "):]
        throw = " throw " in rest and " attack undead " not in rest
        h = self.hero_named(rest.split(" throw " if throw else " attack undead ")[0])
        hid = h.id
        assert h.marker is not None
        cover = h.marker.split()[1]
        events.append(Event("cover", f"{h.name} interrupts with a covering attack", S.COVERING,
                            {"hero": hid}))
        if throw:
            words = action.split()
            kind = "greek_fire" if "throw greek fire at" in action else "holy_water"
            combat.throw_phial(self, h, sq(words[-1]), events, kind, cover=cover)
            return
        plan = next(p for p in combat.plans(self, h, prefix=self.cover_prefix(h))
                    if p.text == action)
        combat.resolve(self, h, plan, events, cover=cover)

    # ------------------------------------------------------------------ round structure
    def _advance(self, events: list[Event]) -> None:
        """Run every automated step up to the next decision."""
        for _ in range(10_000):
            if self.choice is not None or self.conceded is not None:
                return
            if self.camp is not None and self.camp.get("result"):
                return
            if self.scenario_over():
                if self.camp is not None:
                    campaign.scenario_over(self, events)
                    continue
                return
            if self.segment == "initiative":
                tape = self.chance
                if tape.__class__ is _Tape and self.coin_pos >= len(self.coin_script):
                    # a recorded run: the roll is one draw of the chance tree, by who won
                    before = self.clone()
                    tape.paused = True  # type: ignore[attr-defined]
                    try:
                        self._initiative(events)
                    finally:
                        tape.paused = False  # type: ignore[attr-defined]
                    tape.path.append((0, None, before._initiative_mod(),  # type: ignore[attr-defined]
                                      self.segment == "choosing", before))
                else:
                    self._initiative(events)
            elif self.segment == "heroes":
                if not self._hero_turn(events) and not self._campaign_goes_on():
                    return
            elif self.segment == "undead":
                if not self._undead_turn(events) and not self._campaign_goes_on():
                    return
            elif self.segment == "end":
                self._end_segment(events)
        raise RuntimeError("niflheim: the round structure did not reach a decision")

    def quiet(self) -> bool:
        """Are this state's events read by no one? A search copy's steps (search bots read no
        event) once the Coin of Fate is used (no question replays a step, counting its
        events): the commonest events (turns, activations, initiative rolls, undead moves)
        are then not worded at all. Reveals are always reported (covering heroes read them)."""
        return self._scratch and self.coin_used

    def forks(self) -> bool:
        """Can what a step comes to be remembered for copies that differ only in their
        generator (:attr:`_forks`)? Search copies of a scenario outside a campaign with the
        Coin of Fate used (the steps then ask nothing: no coin question replays them),
        seeded, with nothing forced or pending."""
        return (self._scratch and self.coin_used and self.camp is None and not self.auto_choices
                and self.pending is None and self.chance.mode == "seeded"
                and not self.chance.queue)

    def remember_steps(self) -> None:
        """Let the search copies of this position share what their steps come to
        (:attr:`_forks`); called when the legal actions are listed (a search bot lists them
        before it copies the position)."""
        if self.__dict__.get("_forks") is None:
            self._forks = {}

    def _forked(self, memo: dict[Any, Any], action: str, events: list[Event]) -> None:
        """Run ``action`` on a search copy whose position's copies share ``memo``.

        A search bot runs the same step on several copies of one position that differ only
        in their generator (its sampled futures). The step is a function of the position and
        the results of its random draws, so the first run of each sequence of results
        records it in the step's chance tree, with the position it ended in; a later run
        makes the same draws with its own generator and, when the tree knows where those
        results lead, takes that position without running the rules again. An initiative
        roll counts as one draw by who won it (the position after it depends on nothing
        else). Each remembered position shares a memo of its own with its copies, so the
        steps after it are shared in turn. Only the generator and the log are a run's own
        (the generator ends as the full run leaves it); events of the skipped steps are not
        reported (search copies read none). ``tests/games/niflheim/test_niflheim_settled.py``
        compares the positions with full runs."""
        c = self.choice
        if c is not None and not c.get("seat") and action == c["default"]:
            memo[_NEXT] = action  # the players' choice open here takes this by default
        got = _leaf(memo.get(action), self.chance.rng)
        if got is None:
            self._record(memo, action, events, None)
            return
        if len(got) == 2:
            end = got[0]
            if end.__class__ is _HeroesWon:
                chance, log = self.chance, self.log
                self.__dict__ = end.position().__dict__
                self.chance, self.log = chance, log
            elif _OWNER in end._forks:
                self._become(end)  # the copy that reached it, still there: it will move on
            else:
                self._take(end)
            self.chance.rng.state = got[1].state
            return
        # the tree knows the steps up to an initiative roll whose outcome is new: go on there
        node, path, at = got  # type: ignore[misc]
        self._become(node.before)
        self.chance.rng.state = at
        self._record(memo, action, events, path)

    def _record(self, memo: dict[Any, Any], action: str, events: list[Event],
                path: list[Any] | None) -> None:
        """A run of ``action`` recorded in its chance tree (:meth:`_forked`): from its start,
        or (``path``: the draws so far) from the initiative roll it reached. A step that drew
        nothing is remembered by this copy itself (while it stays there, see
        :data:`_OWNER`), one that drew by a copy of the position."""
        chance = self.chance
        tape = self.chance = _Tape(chance)
        try:
            if path is None:
                self._step(action, events)
            else:
                tape.path[:] = path
                self._advance(events)  # at the initiative roll, as the full run was
        finally:
            self.chance = chance  # the same generator, advanced by the run
        if not tape.path:
            mine = self._forks = {_OWNER: (memo, action)}
            memo[action] = (self, mine)
            return
        _, _, mod, won, before = tape.path[-1]
        end: NiflheimState | _HeroesWon
        if mod is not None and won is True and self.segment == "choosing" \
                and self.choice is not None and self.choice["kind"] == "initiative":
            # the step ended as the heroes won the roll (they are asked who goes first): the
            # position is the one before the roll with that outcome, made when needed
            self._forks = {}
            end = _HeroesWon(before, self._forks)
        else:
            end = self._remember()
        node = memo.get(action)
        if node.__class__ is not _Draw:
            node = None
        for i, (n, weights, mod, result, before) in enumerate(tape.path):
            if node is None:
                node = _Draw(n, weights, mod, before)
                if i == 0:
                    memo[action] = node
                else:
                    parent.kids[last] = node  # noqa: F821 - set by the previous round
            parent, last = node, result
            node = node.kids.get(result)
        parent.kids[last] = end

    def _borrow(self) -> NiflheimState:
        """A copy of this position that shares its figures, lists and dicts with it (only
        the state's own attributes are its own): what a search copy takes of a remembered
        position, which is never changed (only copied); the copy makes the shared parts its
        own (:meth:`_own`) before the rules run on it (:meth:`_step`, :meth:`_start`), so
        a step whose outcome is remembered costs no copy of the figures. Only for positions
        that stay as they are while the copy borrows (remembered positions; a search copy
        being evaluated, see :meth:`settled_value`)."""
        new = _new(NiflheimState)
        d = new.__dict__ = self.__dict__.copy()
        d["_borrowed"] = True
        return new

    def _own(self) -> None:
        """Make the parts this borrowing copy (:meth:`_borrow`) shares its own, keeping its
        generator and log."""
        chance, log = self.chance, self.log
        d = self.clone().__dict__
        d["chance"], d["log"] = chance, log
        self.__dict__ = d

    def _take(self, template: NiflheimState) -> None:
        """:meth:`_become`, borrowing the remembered position's parts (:meth:`_borrow`)."""
        d = template.__dict__.copy()
        d["chance"], d["log"] = self.chance, self.log
        d["_legal_memo"] = None
        d["_borrowed"] = True
        self.__dict__ = d

    def _become(self, template: NiflheimState) -> None:
        """Take on a remembered position, keeping this copy's generator and log."""
        chance, log = self.chance, self.log
        self.__dict__ = template.clone().__dict__
        self.chance, self.log = chance, log
        self._legal_memo = None

    def _remember(self) -> NiflheimState:
        """A copy of this position for later runs, sharing a fresh memo with it."""
        self._forks = {}
        keep = self.clone()
        keep._legal_memo = None
        return keep

    def position_memo(self) -> dict[Any, Any] | None:
        """The memo this search copy shares with the copies of its position that differ only
        in their generator (:attr:`_forks`; made now if it has none), or ``None`` when its
        steps are not shared (:meth:`forks`). An evaluation keeps scores there that read
        only the position."""
        if not self.forks():
            return None
        memo = self.__dict__.get("_forks")
        if memo is None:
            memo = self._forks = {}
        return memo

    def settled_after(self, text: str, limit: int) -> NiflheimState:
        """A copy of this search copy with ``text`` applied (an action known to be legal, run
        as :meth:`_run_atomic` runs it), then up to ``limit`` players'-choice defaults
        (:meth:`take_default`) until none is open. On copies of one position that differ
        only in their generator, the steps are shared as :meth:`_forked` says."""
        c = self.clone()
        c._run_atomic(text, [])
        for _ in range(limit):
            if c.take_default() is None:
                break
        return c

    def settled_value(self, text: str, limit: int,
                      score: Callable[[NiflheimState], float]) -> float:
        """``score(self.settled_after(text, limit))``, for a ``score`` that reads only the
        position (not the generator). On copies of one position that differ only in their
        generator, a copy whose draws lead where an earlier copy's led, with nothing drawn
        after, makes its draws and runs nothing (the score is kept in the memo of the last
        position a draw led to, or of this position when the steps drew nothing)."""
        memo = self.position_memo()
        if memo is not None:
            after = ("after", text, score)
            v = memo.get(after)
            if v is not None:
                return v  # type: ignore[no-any-return]
            mark = Rng.draws
            v = _known_score(memo, text, self.chance.rng.clone(), limit, ("settled", score))
            if v is not None:
                return v  # the generator is a copy, but the draws were made as a run makes them
            Rng.draws = mark
        start = Rng.draws
        # this state stays as it is while the copy runs (an evaluation changes nothing), so
        # the copy borrows its parts and makes them its own only if the rules run on it
        c = self._borrow()
        c.chance = self.chance.clone()
        c.log = self.log[:]
        c._run_atomic(text, [])
        seen = [(c.__dict__.get("_forks"), Rng.draws)]
        for _ in range(limit):
            if c.take_default() is None:
                break
            seen.append((c.__dict__.get("_forks"), Rng.draws))
        else:
            return score(c)
        v = score(c)
        if memo is not None:
            now = Rng.draws
            if now == start:
                memo[after] = v
            for m, at in seen:
                if m is not None and at == now:
                    m[("settled", score)] = v
        return v

    def _campaign_goes_on(self) -> bool:
        """The scenario ended mid-turn inside a campaign: go on to the interim stage."""
        return self.camp is not None and self.choice is None and self.scenario_outcome().over

    def _initiative_mod(self) -> int:
        """The undead initiative roll's modifier: -4, none while Mardröm is on the map."""
        return 0 if any(u.kind == "mardrom" for u in self.undead.values()) else -4

    def _initiative(self, events: list[Event]) -> None:
        """Hero d12 against undead d12 - 4 (no -4 while Mardröm is on the map); ties re-roll;
        undead that win always go first; heroes that win choose."""
        mod = self._initiative_mod()
        mark, pos = len(events), self.coin_pos
        quiet = self.quiet()
        try:  # nothing changes before both rolls: a Coin of Fate question goes on from here
            while True:
                hr = self.d12("heroes' initiative roll (higher than the undead's wins)",
                              S.INITIATIVE)
                ur = self.d12("undead initiative roll" if quiet else
                              f"undead initiative roll ({mod:+d}; {_undead_chance(hr, mod)})",
                              S.INITIATIVE, mod)
                if hr != ur + mod:
                    break
                if quiet:
                    continue
                events.append(Event("initiative", f"Initiative: heroes {hr}, undead {ur}"
                                    f"{mod:+d} = {ur + mod}: a tie, roll again", S.INITIATIVE,
                                    {"heroes": hr, "undead": ur,
                                     "dice": [d12(hr), d12(ur, mod)]}))
        except AskCoin as ask:
            self.rolled_first(ask, events, mark, pos)
            raise
        self.turn_no = 0
        if not quiet:
            score = f"heroes {hr}, undead {ur}{mod:+d} = {ur + mod}"
            data = {"heroes": hr, "undead": ur, "dice": [d12(hr), d12(ur, mod)]}
        if hr > ur + mod:
            if not quiet:
                events.append(Event("initiative", f"Round {self.round} initiative: {score}; "
                                    "the heroes win and choose who goes first", S.INITIATIVE,
                                    data))
            self._heroes_choose()
            return
        if not quiet:
            events.append(Event("initiative", f"Round {self.round} initiative: {score}; the "
                                "undead win and always go first", S.INITIATIVE, data))
        self.order = ["undead", "heroes"]
        self._begin_turns()

    def _heroes_choose(self) -> None:
        """The heroes won the initiative: they choose who takes the first turn."""
        self.segment = "choosing"
        self._ask("initiative", "The heroes won the initiative: who takes the first turn?",
                  S.INITIATIVE, ["heroes go first", "undead go first"])

    def _begin_turns(self) -> None:
        self.turn_no = 0
        self.segment = self.order[0]
        self.phase = "start"

    def _end_turn(self) -> None:
        self.turn_no += 1
        if self.turn_no >= 2:
            self.segment = "end"
        else:
            self.segment = self.order[1]
            self.phase = "start"

    def _hero_turn(self, events: list[Event]) -> bool:
        """Start phase (remove Cover and Attacked markers), action phase (each hero
        activates once, in the players' order), final phase."""
        if self.phase == "start":
            for h in self.heroes.values():
                h.marker = None
                h.activated = h.acted = h.zoc_stop = False
                h.intent = None
                h.mp = 0
            if not self.quiet():
                events.append(Event("turn", f"Round {self.round}: the heroes' turn; Cover "
                                    "and Attacked markers are removed", S.START_PHASE))
            self.phase = "action"
            return True
        if self.phase == "action":
            if self.active is not None:
                h = self.heroes[self.active]
                if h.intent is not None and heroes.only_end(self, h) \
                        and not self._cover_actions(h.id):
                    events.append(Event("end", f"{h.name} has nothing more to do and ends "
                                        "their activation", S.ACTION_PHASE))
                    heroes.end(self, h, events)
                    return True
                return False
            if self.next_active is not None:
                hid, self.next_active = self.next_active, None
                if self.heroes[hid].on_map:
                    # Rescue a Prisoner: "they MAY immediately activate": the players choose
                    # (default: at once) between the prisoner and the heroes still to activate.
                    others = [h.id for h in self.heroes.values()
                              if h.on_map and not h.activated and h.id != hid]
                    if others:
                        self._ask("activate hero", f"{self.heroes[hid].name} is freed and may "
                                  "activate at once: which hero activates next?", S.RESCUE,
                                  [f"activate {self.names.hero[x]}" for x in [hid, *others]])
                        return False
                    self._activate_hero(hid, events)
                    return True
            todo = [h.id for h in self.heroes.values() if h.on_map and not h.activated]
            if not todo:
                self.phase = "final"
                return True
            if len(todo) > 1:
                self._ask("activate hero", "Which hero activates next?", S.ACTION_PHASE,
                          [f"activate {self.names.hero[h]}" for h in todo])
                return False
            self._activate_hero(todo[0], events)
            return True
        self._end_turn()
        return True

    def ask_blue(self, ids: list[int]) -> None:
        self._ask("blue rune", "The blue (Water) runestone: which adjacent undead is stunned?",
                  S.NEW_RULES_5, [f"stun undead {i}" for i in ids])

    def ask_ready_passed(self, h: Hero, item: str, options: list[str]) -> None:
        self._ask("ready passed", f"{h.name} receives the {self.content.armoury[item].name}: "
                  "ready it at once for free?", S.PASSING, options, options[0], hero=h.id,
                  item=item)

    def ask_spawn(self, at: Sq, spots: list[Sq]) -> None:
        self._ask("spawn", f"{grid.name(at)} is occupied: choose the closest free square for "
                  "the undead marker", S.SPAWNING, [f"spawn at {grid.name(q)}" for q in spots])

    def _activate_hero(self, hid: str, events: list[Event]) -> None:
        h = self.heroes[hid]
        if self.players and hid not in self.control:
            # Co-op Play: "When you find other characters in the game, the players must decide
            # who controls each character" (huskarls too, see rulings).
            if len(self.players) == 1:
                self.control[hid] = self.players[0]
            else:
                count = {p: sum(1 for v in self.control.values() if v == p) for p in self.players}
                least = min(self.players, key=lambda p: count[p])
                who = self.names.hero[hid]
                self._ask("control", f"Who controls {h.name}?", S.CO_OP,
                          [f"{p} controls {who}" for p in self.players],
                          f"{least} controls {who}", hero=hid)
                return
        self.active = hid
        h.intent, h.mp, h.acted, h.zoc_stop = None, 0, False, False
        if not self.quiet():
            events.append(Event("activate", f"{h.name} activates", S.ACTION_PHASE,
                                {"hero": hid}))

    def _undead_turn(self, events: list[Event]) -> bool:
        """Start phase, action phase (every undead activates, closest to a hero first),
        final phase (spawning)."""
        if self.phase == "start":
            for u in self.undead.values():
                u.activated = False
            if not self.quiet():
                events.append(Event("turn", f"Round {self.round}: the undead turn",
                                    S.START_PHASE))
            self.phase = "action"
            return True
        if self.phase == "action":
            while True:
                if self.choice is not None or self.scenario_over():
                    return False
                if self.uact is not None:
                    self._continue_undead(events)
                    continue
                cands = undead.activation_candidates(self)
                if not cands:
                    self.phase = "final"
                    return True
                if len(cands) > 1:
                    self._ask("activate undead", "Several undead are equally close to a hero: "
                              "which activates next?", S.ACTIVATING,
                              [f"activate undead {i}" for i in cands])
                    return False
                self._begin_undead(cands[0], events)
        # final phase: spawning
        if self.spawn_queue is None:
            labels = self.scenario.round_track[self.track]
            spawns = self.spawns()
            self.spawn_queue = [q for lab in labels for q in spawns[lab]]
        while self.spawn_queue:
            at = sq(self.spawn_queue.pop(0))
            spots = undead.spawn_squares(self, at)
            if not spots:
                events.append(Event("spawn", f"No free square near {grid.name(at)} to spawn on",
                                    S.SPAWNING))
                continue
            if len(spots) > 1:
                self._ask("spawn", f"Spawn square {grid.name(at)} is occupied: choose the "
                          "closest free square", S.SPAWNING,
                          [f"spawn at {grid.name(q)}" for q in spots])
                return False
            self._spawn(spots[0], events)
            if self.scenario_over() or self.choice is not None:
                return False
        self.spawn_queue = None
        self._end_turn()
        return True

    def _spawn(self, at: Sq, events: list[Event]) -> None:
        """Place a spawned marker; a covering hero may attack it at once if it is revealed."""
        uid = undead.place_marker(self, at, events, S.SPAWNING)
        if uid is not None:
            u = self.undead[uid]
            if u.kind is not None:
                self._offer_cover(u)

    def _begin_undead(self, uid: int, events: list[Event]) -> None:
        """Activate one undead: covering heroes may interrupt first, then a stunned undead
        loses its stun, an adjacent one attacks, any other moves."""
        u = self.undead[uid]
        u.activated = True
        self.uact = {"uid": uid, "stage": 0, "stunned": int(u.stunned), "moves": 0, "moved": 0}
        self._offer_cover(u)

    def _cover_revealed(self, events: list[Event], active_seat: str) -> None:
        """An undead revealed by a hero's action during the hero turn may be attacked at once by
        covering heroes of the other seats (the active seat's covering heroes have their
        attacks among its actions)."""
        if self.choice is not None:
            return
        others = [self.seat_of(h.id) for h in self.heroes.values() if h.on_map and h.marker
                  and h.marker.startswith("cover") and self.seat_of(h.id) != active_seat]
        if not others:
            return
        for e in events:
            u = self.undead.get(e.data.get("undead", -1)) if e.kind == "reveal" else None
            if u is not None:
                self._offer_cover(u, others)
                if self.choice is not None:
                    return

    def _offer_cover(self, u: Undead, seats: list[str] | None = None) -> None:
        """Covering: heroes with a Cover marker that can attack ``u`` may interrupt. Each seat
        is asked in turn for its own covering heroes (only ``seats``, when given), so a
        player decides only for the heroes they control."""
        groups: dict[str, list[str]] = {}
        for h in self.heroes.values():
            m = h.marker  # (the marker first: most heroes have none)
            if m and m.startswith("cover") and h.on_map:
                seat = self.seat_of(h.id)
                if seats is not None and seat not in seats:
                    continue
                opts = self._cover_options(h, only=u.id)
                if opts:
                    groups.setdefault(seat, []).extend(opts)
        if groups:
            first, *later = groups
            self._ask("cover", f"{uname(self, u)} is in a covering hero's LOS and range: "
                      "interrupt with a covering attack?", S.COVERING,
                      [NO_COVER, *groups[first]], NO_COVER, seat=first, uid=u.id, later=later)

    def _act_undead(self, u: Undead, events: list[Event]) -> None:
        assert self.uact is not None
        if self.uact["stunned"]:
            u.stunned = False
            self.moved(heroes=False)
            events.append(Event("stun", f"{uname(self, u)} activates stunned: its Stun marker is "
                                "removed and it does nothing else this round", S.ACTIVATING,
                                {"undead": u.id}))
            self.uact = None
            return
        if u.stunned:  # stunned by a covering attack at the start of its activation
            self.uact = None
            return
        targets = undead.attack_targets(self, u)
        if targets:
            self.uact = None
            if len(targets) > 1:
                self._ask("undead target", f"{uname(self, u)} is adjacent to several heroes: "
                          "which does it attack?", S.UNDEAD_ATTACKS,
                          [f"undead {u.id} attacks {self.names.hero[t]}" for t in targets],
                          uid=u.id)
                return
            undead.attack(self, u, self.heroes[targets[0]], events)
            return
        kind = u.kind or "draugr"
        if "spectral bow" in self.content.undead[kind].powers:
            shots = combat.bow_targets(self, u)
            if shots:
                if len(shots) > 1:
                    self.uact = None
                    self._ask("bow target", f"{uname(self, u)} has several closest heroes in "
                              "LOS: which does it shoot?", S.SCENARIO_34,
                              [f"undead {u.id} shoots {self.names.hero[h.id]}" for h in shots],
                              uid=u.id)
                    return
                mark, pos = len(events), self.coin_pos
                try:  # the shot rolls before anything changes: a question goes on from here
                    combat.shoot(self, u, shots[0], events)
                except AskCoin as ask:
                    self.rolled_first(ask, events, mark, pos)
                    raise
                self.uact = None
                return
        if "coward" in self.content.undead[kind].powers:
            # "within 2 squares of that hero": the hero's own square is at most 2 undead moves
            # away, i.e. at most 1 move to reach a square adjacent to it (ruling 24).
            dist, _ = undead.closest(self, u)
            if dist + 1 > 2:
                events.append(Event("coward", f"{uname(self, u)} is a coward: no hero within 2 "
                                    "squares, it stays", S.NEW_RULES_5, {"undead": u.id}))
                self.uact = None
                return
        self.uact["stage"] = 1
        self.uact["moves"] = undead.move_value(self, u)

    def _continue_undead(self, events: list[Event]) -> None:
        assert self.uact is not None
        u = self.undead.get(self.uact["uid"])
        if u is None:
            self.uact = None
            return
        if self.uact["stage"] == 0:
            self._act_undead(u, events)
            return
        if u.stunned or self.uact["moves"] <= 0:
            self.uact = None
            return
        kind = u.kind or "draugr"
        if "prowler" in self.content.undead[kind].powers:
            if self.uact["moved"] and combat.bow_targets(self, u):
                self.uact = None  # it has LOS: it moved, so it does not shoot this turn
                return
            occ = self.occupancy()
            seeing = [q for q in grid.neighbours(u.at, diagonal=True)
                      if undead.can_step(self, u.at, q, occ, False)
                      and combat.bow_targets(self, u, q)]
            if seeing:
                why = "moves to gain line of sight to a hero (Prowler)"
                if len(seeing) > 1:
                    self._ask("undead move", f"{uname(self, u)} {why}: several squares qualify, "
                              "choose one", S.SCENARIO_34,
                              [f"undead {u.id} to {grid.name(q)}" for q in
                               sorted(seeing, key=lambda q: (q[1], q[0]))], uid=u.id, why=why)
                    return
                self._undead_step(u, seeing[0], why, events)
                return
        opt, squares, reason = undead.move_choice(self, u)
        if opt == 0:
            if not self.uact["moved"] and not self.quiet():
                why = undead.why_text(self, reason)
                events.append(Event("stay", f"{uname(self, u)} does not move: {why}",
                                    S.MOVE_UNDEAD, {"undead": u.id}))
            self.uact = None
            return
        if len(squares) > 1:
            why = undead.why_text(self, reason)
            self._ask("undead move", f"{uname(self, u)} {why}: several squares qualify, choose "
                      "one", S.MOVE_UNDEAD, [f"undead {u.id} to {grid.name(q)}" for q in squares],
                      uid=u.id, why=why)
            return
        # the explanation is worded only for an event someone reads
        self._undead_step(u, squares[0], "" if self.quiet() else undead.why_text(self, reason),
                          events)

    def _undead_step(self, u: Undead, q: Sq, why: str, events: list[Event]) -> None:
        assert self.uact is not None
        old, u.at = u.at, q
        occ = self._occ
        self.moved(heroes=False)
        if occ is not None:
            # one figure moved: the occupancy is the last one with its square changed (a new
            # dict: the old one may be shared by copies)
            occ = occ.copy()
            occ[q] = occ.pop(old)
            self._occ = occ
        self.uact["moves"] -= 1
        self.uact["moved"] += 1
        if not self.quiet():
            events.append(Event("move", f"{uname(self, u)} moves to {grid.name(q)}: it {why}",
                                S.MOVE_UNDEAD, {"undead": u.id, "to": grid.name(q)}))
        undead.reveal(self, events)
        self._offer_cover(u)

    def _end_segment(self, events: list[Event]) -> None:
        """Advance the round track; off its end it resets, and eliminated undead return from the
        discard area to the pool."""
        self.round += 1
        self.track += 1
        text = f"End of the round: the round marker advances to space {self.track + 1}"
        if self.track >= len(self.scenario.round_track):
            self.track = 0
            self.lap += 1
            text = "End of the round: the round track resets to its first space"
            if self.discard:
                self.own_pool().add(self.discard)
                text += f"; {len(self.discard)} eliminated undead return to the pool"
                self.discard = []
        events.append(Event("round", text, S.END_SEGMENT, {"round": self.round}))
        self.segment = "initiative"
        self.turn_no = 0

    # ------------------------------------------------------------------ views
    def view(self, seat: str | None = None) -> dict[str, Any]:
        return self._view(False)

    def _view(self, marked: bool) -> dict[str, Any]:
        """:meth:`view`; ``marked`` (for :meth:`repetition_text`): with a mark
        (:func:`~meadhall.core.jsontext.mark`) in place of the map, the red lines, the heroes,
        the undead and the choice, whose texts are written from remembered parts."""
        return {
            "game": S.ID, "scenario": self.scenario_id, "name": self.scenario.name,
            "round": self.round, "round_track_space": self.track + 1, "lap": self.lap,
            "segment": self.segment, "phase": self.phase, "order": list(self.order),
            "active": self.active, "map": _MARK_MAP if marked else list(self.board.rows),
            "walls": _MARK_WALLS if marked else self._walls_json(),
            "forced": list(self.forced),
            "heroes": _MARK_HEROES if marked else {h.id: self._hero_json(h)
                                                    for h in self.heroes.values()},
            "seats": {h: self.seat_of(h) for h in self.heroes},
            "undead": _MARK_UNDEAD if marked else self._undead_view(),
            "undead_pool": undead.physical_pool(self), "discard": sorted(self.discard),
            "items": {grid.name(q): list(v) for q, v in sorted(self.items.items())},
            "ground_runes": {grid.name(q): dict(v) for q, v in sorted(self.ground_runes.items())},
            "done": list(self.done), "coin_used": self.coin_used,
            "campaign": None if self.camp is None else {
                k: _plain(self.camp[k]) for k in ("played", "interim_counts", "notes", "motes",
                                                  "runestones", "result", "healed")},
            "choice": _MARK_CHOICE if marked and self.choice is not None
            else self._choice_view(),
            "outcome": self.outcome().to_json(),
        }

    def _choice_view(self) -> dict[str, Any] | None:
        if self.choice is None:
            return None
        return {k: _plain(self.choice.get(k)) for k in ("kind", "prompt", "options", "default",
                                                        "seat")} | {
            # describe(o).label, without making the Action and its targets
            "labels": {o: self._describe(o)[0] or o for o in self.choice.get("options", [])}}

    def repetition_text(self) -> str:
        """Exactly :meth:`GameState.repetition_text`, written faster
        (:mod:`meadhall.core.jsontext`): the texts of the map and red lines are kept with the
        board, each hero's and undead's by what it shows, the choice's with the choice (never
        changed in place), so only the small rest of the view is encoded at each decision
        (a search bot keys every decision on it). ``test_niflheim_fast_paths.py`` compares it
        with the kernel's text at every step of random games."""
        board = self.board
        got = board.cache.get("repetition texts")
        if got is None:
            got = board.remember("repetition texts", (ENCODE(list(board.rows)),
                                                      ENCODE(self._walls_json())))
        kinds = self.content.undead
        leaders = [u.id for u in self.undead.values() if u.kind == "mardrom"]
        undead_texts = []
        for u in self.undead.values():
            kind = u.kind
            mv = None
            if kind is not None:
                mv = kinds[kind].mv
                # as _undead_view: MV 1 undead +1 while another undead is Mardröm
                if mv == 1 and kind != "mardrom" and any(i != u.id for i in leaders):
                    mv += 1
            key = (u.id, kind, u.at, u.wounds, u.stunned, u.activated, u.orange, mv)
            text = _UNDEAD_TEXTS.get(key)
            if text is None:
                d: dict[str, Any] = {"id": u.id, "kind": kind, "at": sq_name(u.at),
                                     "wounds": u.wounds, "stunned": u.stunned,
                                     "activated": u.activated}
                if u.orange:
                    d["orange"] = True
                if kind is not None:
                    d["mv"] = mv
                if len(_UNDEAD_TEXTS) > 20_000:
                    _UNDEAD_TEXTS.clear()
                text = _UNDEAD_TEXTS[key] = ENCODE(d)
            undead_texts.append(text)
        hero_texts = []
        for hid in sorted(self.heroes):
            h = self.heroes[hid]
            key = _HERO_TEXT_KEY(h)
            text = _HERO_TEXTS.get(key)
            if text is None:
                if len(_HERO_TEXTS) > 20_000:
                    _HERO_TEXTS.clear()
                text = _HERO_TEXTS[key] = ENCODE(self._hero_json(h))
            hero_texts.append(STRING_TEXT(hid) + ":" + text)
        parts = {"map": got[0], "walls": got[1], "heroes": "{" + ",".join(hero_texts) + "}",
                 "undead": "[" + ",".join(undead_texts) + "]"}
        c = self.choice
        if c is not None:
            hit = _CHOICE_TEXTS.get(id(c))
            if hit is None or hit[0] is not c:
                if len(_CHOICE_TEXTS) > 4096:
                    _CHOICE_TEXTS.clear()
                # (keeps the choice alive: its id stays its own)
                hit = _CHOICE_TEXTS[id(c)] = (c, ENCODE(self._choice_view()))
            parts["choice"] = hit[1]
        d = self.decision()
        text = splice([d.to_json() if d else None, self._view(True)], parts)
        # None: a text of the rules starting with NUL, written plainly
        return GameState.repetition_text(self) if text is None else text

    def _hero_json(self, h: Hero) -> dict[str, Any]:
        return {
            "name": h.name, "huskarl": h.huskarl, "at": grid.name(h.at) if h.at else None,
            "status": h.status, "health": h.health, "max_health": h.max_health,
            "intent": h.intent, "mp": h.mp, "marker": h.marker, "activated": h.activated,
            "acted": h.acted, "zoc_stop": h.zoc_stop, "locked_by": h.locked_by,
            "ready": h.ready, "off_hand": h.off_hand, "gear": list(h.gear),
            "supplies": dict(h.supplies), "xp": h.xp, "glory": h.glory,
            "runes": dict(h.runes), "skills": list(h.skills), "free_step": h.free_step,
            "fate_mp": h.fate_mp, "rearranging": h.rearranging,
        }

    def _undead_json(self, u: Undead, public: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"id": u.id, "kind": u.kind, "at": grid.name(u.at),
                             "wounds": u.wounds, "stunned": u.stunned,
                             "activated": u.activated}
        if u.orange:
            d["orange"] = True
        if public and u.kind is not None:
            d["mv"] = undead.move_value(self, u)
        return d

    def _undead_view(self) -> list[dict[str, Any]]:
        """The undead as a view shows them (:meth:`_undead_json` with ``public``), Leader of
        the Pack looked up once for all of them."""
        undead = self.undead.values()
        leaders = [u.id for u in undead if u.kind == "mardrom"]
        kinds = self.content.undead
        out = []
        for u in undead:
            d: dict[str, Any] = {"id": u.id, "kind": u.kind, "at": sq_name(u.at),
                                 "wounds": u.wounds, "stunned": u.stunned,
                                 "activated": u.activated}
            if u.orange:
                d["orange"] = True
            kind = u.kind
            if kind is not None:
                mv = kinds[kind].mv
                # as undead.move_value: MV 1 undead +1 while another undead is Mardröm
                if mv == 1 and kind != "mardrom" and any(i != u.id for i in leaders):
                    mv += 1
                d["mv"] = mv
            out.append(d)
        return out

    def _walls_json(self) -> list[list[str]]:
        board = self.board
        got = board.cache.get("walls json")
        if got is None:
            got = board.remember("walls json", tuple(tuple(sorted(grid.name(q) for q in e))
                                                     for e in sorted(board.walls,
                                                                     key=lambda e: sorted(e))))
        return [list(pair) for pair in got]

    def _render_more(self, h: Hero) -> str:
        """Supplies, the Fate track (once in use) and unlocked skills with their effects."""
        out = ""
        sup = {k: n for k, n in h.supplies.items() if n}
        if sup:
            out += ", supplies " + ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in sup.items())
        if self.fate_track_in_use() and not h.huskarl:
            out += f", Corruption {h.corruption}" if h.glory < 0 else f", Glory {h.glory}"
        if h.skills:
            out += ", skills " + "; ".join(
                f"{n} ({self.content.skills[n].text})" if n in self.content.skills else n
                for n in h.skills)
        return out

    def render(self) -> str:
        marks: dict[Sq, str] = {}
        for q in self.items:
            marks[q] = "o"
        for label, sp in self.scenario.specials.items():
            if label not in self.done:
                marks[grid.sq(sp.square)] = label[0]
        for u in self.undead.values():
            marks[u.at] = "?" if u.kind is None else u.kind[0]
        for h in self.heroes.values():
            if h.on_map:
                marks[h.at] = h.name[0].upper()
        w = self.board.width
        lines = ["    " + "".join(grid.col_name(x) for x in range(w))]
        for y, row in enumerate(self.board.rows):
            lines.append(f"{y + 1:>3} " + "".join(marks.get((x, y), ch)
                                                   for x, ch in enumerate(row)))
        sc = self.scenario
        track = " ".join(("[" if i == self.track else " ") + ("".join(sp) or "-")
                         + ("]" if i == self.track else " ")
                         for i, sp in enumerate(sc.round_track))
        lines.append(f"Scenario {sc.number}: {sc.name} · round {self.round} · round track "
                     f"{track} · lap {self.lap}")
        lines.append(f"Objective: {sc.objective.text} Done: {', '.join(self.done) or 'nothing'}")
        for h in self.heroes.values():
            where = grid.name(h.at) if h.at else h.status
            extra = f" locked by {h.locked_by}" if h.locked_by else ""
            lines.append(f"  {h.name[0].upper()} {h.name}: {where}, health {h.health}/"
                         f"{h.max_health}, {h.intent or '-'} {h.mp} MP, marker "
                         f"{h.marker or '-'}{extra}, ready {self._item_name(h.ready)}, off hand "
                         f"{self._item_name(h.off_hand)}, gear "
                         f"{', '.join(self._item_name(i) for i in h.gear) or '-'}, XP {h.xp}"
                         + self._render_more(h))
        for u in self.undead.values():
            st = " stunned" if u.stunned else ""
            lines.append(f"  {'?' if u.kind is None else u.kind[0]} {uname(self, u)} on "
                         f"{grid.name(u.at)}, wounds {u.wounds}{st}")
        lines.append(f"Undead pool: {undead.physical_pool(self)} markers · discard: "
                     f"{', '.join(sorted(self.discard)) or 'empty'} · Coin of Fate "
                     f"{'used' if self.coin_used else 'unused'}")
        lines.append("Exits: " + ", ".join(f"{e.square} → {e.direction}" for e in sc.exits))
        if self.board.walls:
            lines.append("Red lines between: " + ", ".join(
                "|".join(pair) for pair in self._walls_json()))
        if self.camp is not None:
            c = self.camp
            lines.append(f"Party Control Sheet: scenarios played {', '.join(c['played']) or '-'}"
                         f" · interim scenarios {c['interim_counts'] or '-'} · runestones "
                         f"{', '.join(c['runestones']) or '-'} · motes {c['motes'] or '-'}")
            for note in c["notes"]:
                lines.append(f"  Party notes: {note}")
        return "\n".join(lines)

    def _item_name(self, item: str | None) -> str:
        return self.content.armoury[item].name if item in self.content.armoury else item or "-"

    def render_help(self) -> str:
        """The map legend: terrain characters, figures and markers."""
        return ("Legend: " + ", ".join(f"{k} {v}" for k, v in TERRAIN.items())
                + "; o gear/objective marker; ? face-down undead; d draugr, t troll, "
                "b bogmaðr, m Mardröm; capital letters: heroes; J, O: special squares; red "
                "lines (walls on square edges) are listed under the map")

    # ------------------------------------------------------------------ position format
    def _dump(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario_id,
            "map": list(self.board.rows),
            "legend": dict(TERRAIN),
            "walls": self._walls_json(),
            "round": self.round, "track": self.track, "lap": self.lap,
            "segment": self.segment, "phase": self.phase, "order": list(self.order),
            "turn": self.turn_no, "active": self.active,
            "heroes": {h.id: self._hero_json(h) for h in self.heroes.values()},
            "hero_order": list(self.heroes),
            "undead": [self._undead_json(u) for u in self.undead.values()],
            "pool": self.pool.to_json(), "discard": list(self.discard),
            "items": {grid.name(q): list(v) for q, v in self.items.items()},
            "ground_runes": {grid.name(q): dict(v) for q, v in self.ground_runes.items()},
            "done": list(self.done),
            "undead_activation": dict(self.uact) if self.uact else None,
            "choice": _plain(self.choice), "spawn_queue": _plain(self.spawn_queue),
            "coin_used": self.coin_used, "result": _plain(self.result),
            "coin_script": list(self.coin_script), "coin_pos": self.coin_pos,
            "forced": list(self.forced), "next_active": self.next_active,
            "campaign": _plain(self.camp),
            "control": dict(self.control),
            "tally": {"kills": self.tally["kills"],
                      "knockouts": [dict(k) for k in self.tally["knockouts"]]},
            # only a hand-drawn map has its own spawn squares (saves of other games unchanged)
            **({"spawn": _plain(self.spawn_at)} if self.spawn_at is not None else {}),
        }

    def _load(self, raw: dict[str, Any]) -> None:
        """Fill the state from a position (docs/formats/niflheim.md): the schema names a field of
        a wrong type, :func:`.position.check` refuses what the rules cannot produce."""
        p = position.parse(raw)
        if p.get("campaign") is not None and p.get("scenario", self.scenario_id) \
                != self.scenario_id:
            if p["scenario"] not in self.content.scenarios:
                raise ContentError("", "scenario", f"unknown scenario {p['scenario']!r}")
            self.reset_scenario(p["scenario"])
        if "scenario" in p and p["scenario"] != self.scenario_id:
            raise ContentError("", "scenario", f"the setup plays scenario {self.scenario_id}, "
                               f"the position scenario {p['scenario']}")
        if "map" in p:
            rows = list(p["map"])
            if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
                raise ContentError("", "map", "one or more rows, every row the same width")
            bad = {c for r in rows for c in r} - set(TERRAIN)
            if bad:
                raise ContentError("", "map", f"unknown terrain {''.join(sorted(bad))!r}")
            self.board = Board(rows, self.board.walls)
            # A hand-drawn map keeps only the scenario's own markers that are on it.
            if "items" not in p:
                self.items = {q: v for q, v in self.items.items() if self.board.inside(q)}
            if "undead" not in p:
                self.undead = {i: u for i, u in self.undead.items()
                               if not self.board.blocks_move(u.at)}
        if "walls" in p:
            edges = []
            for a, b in p["walls"]:
                qa, qb = _sq("walls", a), _sq("walls", b)
                if grid.manhattan(qa, qb) != 1:
                    raise ContentError("", "walls", f"{a} and {b} are not orthogonally adjacent: "
                                       "a red line lies between two such squares")
                edges.append(grid.edge(qa, qb))
            self.board = Board(self.board.rows, edges)
        for k in ("round", "track", "lap"):
            if k in p:
                setattr(self, k, p[k])
        self.segment = p.get("segment", "heroes" if "active" in p else self.segment)
        self.phase = p.get("phase", "action" if "active" in p else self.phase)
        self.order = list(p.get("order", self.order))
        self.turn_no = p.get("turn", self.turn_no)
        self.active = p.get("active", self.active)
        if "heroes" in p:
            heroes = {hid: self._load_hero(hid, d) for hid, d in p["heroes"].items()}
            self.heroes = {hid: heroes[hid] for hid in self._hero_order(heroes, p)}
        if "undead" in p:
            self.undead = {}
            for d in p["undead"]:
                if d["id"] in self.undead:
                    raise ContentError("", f"undead.{d['id']}", "two undead share a number")
                self.undead[d["id"]] = Undead(d["id"], d.get("kind"),
                                              _sq(f"undead.{d['id']}.at", d["at"]),
                                              d.get("wounds", 0), d.get("stunned", False),
                                              d.get("activated", False), d.get("orange", False))
        if "pool" in p:
            pool = p["pool"]
            if "name" in pool:
                self.pool = Deck.from_json(pool)
                cards = self.pool.cards()
            else:  # hand-written: {"draugr": 3}, every undead not yet revealed
                cards = []
                for k, n in pool.items():
                    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                        raise ContentError("", f"pool.{k}", "a number of markers (0 or more)")
                    cards += [k] * n
                self.pool = Pool("undead pool", cards)
            for k in cards:
                if k not in self.content.undead:
                    raise ContentError("", "pool", f"unknown undead {k!r}")
        hidden = sum(1 for u in self.undead.values() if u.kind is None)
        if len(self.pool) < hidden:
            raise ContentError("", "pool", f"{len(self.pool)} unrevealed undead for {hidden} "
                               "face-down markers on the map (Revealing Undead)")
        if "discard" in p:
            self.discard = list(p["discard"])
        if "items" in p:
            self.items = {_sq(f"items.{q}", q): list(v) for q, v in p["items"].items()}
        if "ground_runes" in p:
            self.ground_runes = {_sq(f"ground_runes.{q}", q): dict(v)
                                 for q, v in p["ground_runes"].items()}
        self.done = list(p.get("done", self.done))
        self.uact = p.get("undead_activation", self.uact)
        self.choice = p.get("choice", self.choice)
        self.spawn_queue = p.get("spawn_queue", self.spawn_queue)
        if p.get("spawn") is not None:
            self.spawn_at = {k: list(v) for k, v in p["spawn"].items()}
        self.coin_used = p.get("coin_used", self.coin_used)
        self.result = p.get("result", self.result)
        self.coin_script = list(p.get("coin_script", self.coin_script))
        self.coin_pos = p.get("coin_pos", self.coin_pos)
        self.forced = list(p.get("forced", self.forced))
        if "campaign" in p:
            camp = p["campaign"]
            self.camp = None if camp is None else position.CampaignRecord.model_validate(
                camp).model_dump(exclude_none=False)
            if self.camp is not None and self.camp["start"] is None:
                campaign.remember_start(self)  # without a record: the scenario starts here
        self.next_active = p.get("next_active", self.next_active)
        if "tally" in p:
            self.tally = {"kills": p["tally"].get("kills", 0),
                          "knockouts": [dict(k) for k in p["tally"].get("knockouts", [])]}
        self.control = dict(p.get("control", self.control))
        self.moved()
        position.check(self)

    def _hero_order(self, heroes: dict[str, Hero], p: dict[str, Any]) -> list[str]:
        """The heroes in play order: as the position lists them in ``hero_order``, else the
        setup's order then the content's; never the key order of a JSON object."""
        if "hero_order" in p:
            order = list(p["hero_order"])
            if sorted(order) != sorted(heroes):
                raise ContentError("", "hero_order", "must list every hero of the position once")
            return order
        known = [*self.setup["heroes"], *self.setup.get("huskarls", []),
                 *self.content.characters, *self.content.huskarls]
        return [h for h in dict.fromkeys(known) if h in heroes]

    def _load_hero(self, hid: str, d: dict[str, Any]) -> Hero:
        c = self.content.characters.get(hid)
        hk = self.content.huskarls.get(hid)
        if c is None and hk is None:
            raise ContentError("", f"heroes.{hid}", "unknown character or huskarl")
        name, health = (c.name, c.health) if c else (hk.name, hk.health)  # type: ignore[union-attr]
        at = d.get("at")
        hp = d.get("health")
        top = d.get("max_health")
        h = Hero(hid, name, hk is not None,
                 _sq(f"heroes.{hid}.at", at) if at else None,
                 int(health if hp is None else hp), int(health if top is None else top),
                 d.get("status", "active"),
                 d.get("intent"), int(d.get("mp", 0)), d.get("marker"),
                 bool(d.get("activated", False)), bool(d.get("acted", False)),
                 bool(d.get("zoc_stop", False)), d.get("locked_by"), d.get("ready"),
                 d.get("off_hand"), list(d.get("gear", [])),
                 {"projectiles": 0, "healing_salves": 0, "holy_water": 0,
                  **d.get("supplies", {})},
                 int(d.get("xp", 0)), int(d.get("glory", 0)), dict(d.get("runes", {})),
                 skills=list(d.get("skills", [])), free_step=bool(d.get("free_step", False)),
                 fate_mp=bool(d.get("fate_mp", False)),
                 rearranging=d.get("rearranging"))
        for it in h.items():
            if it not in self.content.armoury:
                raise ContentError("", f"heroes.{hid}", f"unknown item {it!r}")
        return h


def _leaf(node: Any, rng: Rng) -> Any:
    """Where a step's chance tree (see :meth:`NiflheimState._forked`) leads with the draws
    ``rng`` makes (on a copy): the remembered position and the generator after the draws.
    When the tree does not know where: ``None``, or, when what it does not know is the
    outcome of an initiative roll, the roll's node, the draws before it (as a recorded path)
    and the generator's state before it; the draw count is then put back to before the
    draws it does not know."""
    if node is None:
        return None
    if node.__class__ is tuple:
        state, mine = node
        # remembered by the copy that reached it: while that copy is still there
        return (state, rng) if state.__dict__.get("_forks") is mine else None
    rng = rng.clone()
    start = Rng.draws
    path = []
    while True:
        at, mark = rng.state, Rng.draws
        r = node.draw(rng)
        nxt = node.kids.get(r)
        if nxt is None:
            if node.before is not None:
                Rng.draws = mark
                return node, path, at
            Rng.draws = start  # a full run draws the same numbers again
            return None
        if nxt.__class__ is not _Draw:
            return nxt, rng
        path.append((node.n, node.weights, node.mod, r, None))
        node = nxt


def _known_score(memo: dict[Any, Any], text: str, rng: Rng, limit: int, key: Any
                 ) -> float | None:
    """The score :meth:`NiflheimState.settled_value` would give, read from the chance trees
    of the steps (``text``, then up to ``limit`` defaults) when the draws made with ``rng``
    lead to a position scored under ``key``; ``None`` otherwise."""
    node = memo.get(text)
    for _ in range(limit + 1):
        mark = Rng.draws
        got = _leaf(node, rng)
        if got is None or len(got) != 2:
            Rng.draws = mark
            return None
        state, rng = got
        end = state._forks
        v = end.get(key)  # type: ignore[union-attr]
        if v is not None:
            return v  # type: ignore[no-any-return]
        nxt = end.get(_NEXT)  # type: ignore[union-attr]
        if nxt is None:
            return None
        node = end.get(nxt)  # type: ignore[union-attr]
    return None


_KNOWN = NiflheimState._shared | _COPIED | {
    "_checkpoint", "board", "seed", "auto_choices", "conceded", "coin_pos", "scenario_id",
    "round", "track", "lap", "segment", "phase", "turn_no", "active", "coin_used",
    "next_active", "_scratch"}
"""Attributes a clone knows: copied by hand, immutable values, or shared (content, setup, the
position memos, the undo checkpoint and the (immutable) board)."""
