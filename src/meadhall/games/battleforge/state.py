"""The state of a BattleForge game and its task machine.

Play is a queue of small tasks (plain dicts: ``{"t": "damage", "c": "ragnar", "n": 4}``). A task
handler (``t_<name>``) carries out one rule step, pushes follow-up tasks to the front of the queue,
or asks a seat (``ask_seat``) and waits: the answer handler ``ans_<handler>`` runs, then the queue
resumes. So every reaction window (defense, rerolls, skills, ties) is a plain decision, and the
whole state - including what is half-resolved - is JSON.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.chance import ChanceMode
from meadhall.core.content import validate
from meadhall.core.deck import Deck
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.protocol import ONGOING, Decision, Event, GameState, Outcome

from .basics import (
    GAME_ID,
    S_CHAMP_PHASE,
    S_MOVING,
    S_PHASES,
    S_REACTIONS,
    S_SKILL_REQ,
    Board,
    make_dice,
    minion_letter,
)
from .champions_phase import ROLL_OPTIONS, ChampionsPhase
from .components import BattleForgeContent, CardData, MinionCardData, MinionSide, SkillData
from .gods import Gods
from .ironborn_phase import IronbornPhase
from .minions import Minions
from .other_rules import _RELOCATE, OtherRules
from .positions import Position, check_position
from .presentation import Presentation
from .vocabulary import known

Task = dict[str, Any]
MINION_LETTER = {1: "A", 2: "D", 3: "T"}


@dataclass
class Champion:
    """A champion: board, health, fury, rondel (cube kinds per space: c normal, t temporary,
    f frost), boons, attributes, special skill charges, stun and offerings."""

    id: str
    name: str
    colour: str
    board: int
    berserker: str
    area: str
    health: int = 12
    fury: int = 0
    form: str = "human"
    rondel: list[list[str]] = field(default_factory=lambda: [["c"] for _ in range(6)])
    boons: list[dict[str, Any] | None] = field(default_factory=lambda: [None] * 6)
    tokens_left: list[str] = field(default_factory=list)
    attrs: dict[str, int] = field(default_factory=lambda: {"green": 0, "red": 0, "movement": 0})
    charges: dict[str, int] = field(default_factory=lambda: {"human": 3, "berserker": 0})
    centre: list[str] = field(default_factory=list)
    stunned: bool = False
    offerings: list[str] = field(default_factory=list)
    supply: int = 0

    def copy(self) -> Champion:
        """An independent copy (what :meth:`BattleForgeState.clone` uses). The Boon dicts,
        ``tokens_left``, ``attrs``, ``centre`` and ``offerings`` are only ever replaced, never
        changed in place, so the copy shares them."""
        n = object.__new__(Champion)
        d = n.__dict__
        d.update(self.__dict__)
        d["rondel"] = [s[:] for s in self.rondel]
        d["boons"] = self.boons[:]
        d["charges"] = self.charges.copy()
        return n

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "board": self.board,
                "berserker": self.berserker, "area": self.area, "health": self.health,
                "fury": self.fury, "form": self.form,
                "rondel": ["".join(s) for s in self.rondel],
                "boons": [dict(b) if b else None for b in self.boons],
                "tokens_left": list(self.tokens_left), "attributes": dict(self.attrs),
                "charges": dict(self.charges), "stunned_cubes": "".join(self.centre),
                "stunned": self.stunned, "offerings": list(self.offerings),
                "supply": self.supply}

    @classmethod
    def from_json(cls, cid: str, d: dict[str, Any]) -> Champion:
        rondel = [list(s) for s in d["rondel"]]
        if len(rondel) != 6 or any(k not in "ctf" for s in rondel for k in s):
            raise ContentError("", f"champions.{cid}.rondel",
                               "six spaces of cube letters c (action), t (temporary), f (frost)")
        return cls(cid, d["name"], d["colour"], int(d["board"]), d["berserker"], d["area"],
                   int(d["health"]), int(d.get("fury", 0)), d.get("form", "human"), rondel,
                   [dict(b) if b else None for b in d.get("boons", [None] * 6)],
                   list(d.get("tokens_left", [])),
                   dict(d.get("attributes", {"green": 0, "red": 0, "movement": 0})),
                   dict(d.get("charges", {"human": 3, "berserker": 0})),
                   list(d.get("stunned_cubes", "")), bool(d.get("stunned", False)),
                   list(d.get("offerings", [])), int(d.get("supply", 0)))


@dataclass
class Minion:
    """A minion model: its area (``None`` while lying down, Inactive, by the ``lying``
    Spawning Area) and the Damage it has taken."""

    id: str
    type: int
    area: str | None
    damage: int = 0
    lying: str | None = None


def jcopy(v: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, everything else shared)."""
    if v.__class__ is dict:
        return {k: jcopy(x) for k, x in v.items()}
    if v.__class__ is list:
        return [jcopy(x) for x in v]
    return v


TASK_HANDLERS: dict[str, Any] = {}
"""Task name -> handler function, filled on first use (the task machine's dispatch)."""

FAST_COPY = ("champs", "minions", "thor", "turn", "tasks", "atk", "tokens", "furnaces",
             "overheated", "last_hit", "pending_attacks", "pending_lights", "end")
"""State attributes :meth:`BattleForgeState.clone` copies by hand (the base shares them)."""
REPLACED = ("thor_target", "event_deck", "god_deck", "furnace_pool", "seed", "auto_choices", "ask", "order", "result", "arrange", "scenario_poi", "cur_card", "god_card", "first",
            "knockouts", "last_poi_by", "marker_red", "phase", "reserve_frost", "reserve_temp",
            "round", "turn_pos", "twilight")
"""State attributes that are immutable or only ever replaced, never changed in place (the decks
are copied right before they change): clones share them."""





class BattleForgeState(Presentation, OtherRules, ChampionsPhase, Minions, Gods, IronbornPhase,
                       GameState):
    """BattleForge: Berserker. One seat per champion (solo: two champions for one player)."""

    game = GAME_ID
    STATE_VERSION = 2  # 2026-12-01: migration from 1 in the position module (core.migrate)
    # Content, the map and the dice are immutable; FAST_COPY attributes are copied by clone().
    _shared = frozenset({"content", "setup", "board", "dice", "_names", "_name_ids", "_made", "_view_ask", "_cards", *FAST_COPY,
                         *REPLACED})

    def __init__(self, content: BattleForgeContent, setup: dict[str, Any], seed: int,
                 board: Board, chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self._init_base(content, setup, seed, chance, auto_choices)
        self.board = board
        self.dice = make_dice(content)
        self._names: dict[tuple[str, int], str] = {}  # minion names (see minion_name)
        self._name_ids: dict[str, str] = {}  # and back (see target_id)
        self._made: tuple[dict[str, Any], Decision] | None = None  # see _decision
        self._view_ask: Any = None  # the decision as the view shows it (see _asked)
        sc = content.scenarios[setup["scenario"]]
        # The scenario's Minion card of each type (content and scenario never change).
        self._cards: dict[int, MinionCardData] = {k: content.minion_cards[sc.minions[k]]
                                                  for k in (1, 2, 3)}
        self.scenario_poi: str = sc.poi_kind
        self.order: list[str] = list(setup["heroes"])
        self.first = 0
        self.marker_red = True
        self.knockouts = 0
        self.twilight = 0
        self.round = 1
        self.phase = "setup"
        self.turn_pos = 0
        self.turn: dict[str, Any] = {}
        self.tasks: list[Task] = []
        self.ask: dict[str, Any] | None = None
        self.atk: dict[str, Any] | None = None
        self.arrange: dict[str, Any] | None = None  # transient: set and queued within _apply
        self.result: list[str] | None = None
        self.last_hit: list[str] = []
        self.pending_attacks: list[list[str]] = []
        self.pending_lights: list[str] = []
        self.end: dict[str, Any] | None = None
        self.thor_target: str | None = None
        self.last_poi_by: str | None = None
        self.cur_card: str | None = None
        self.god_card: str | None = None
        self.champs: dict[str, Champion] = {}
        self.minions: dict[str, Minion] = {}
        self.overheated: dict[str, bool] = {"1": False, "2": False, "3": False}
        self.thor: dict[str, Any] = {"area": board.god_start, "rot": 1, "activated": False,
                                     "damage": {f: 0 for f in content.god.faces},
                                     "destroyed": []}
        self.tokens: dict[str, str] = {}
        self.furnaces: dict[str, int] = {}
        self.furnace_pool = Deck("furnaces", [], reshuffle=False)
        n = len(self.order)
        self.reserve_temp = 2 * n
        self.reserve_frost = 2 * n
        self.event_deck = Deck("events", [])
        self.god_deck = Deck("god", sorted(content.thor_cards))
        self.scenario_setup()

    def clone(self) -> BattleForgeState:
        """An independent copy: the base copies the generic parts (chance, log, decks); the
        game's own structures are copied here by hand, which is several times faster than
        the generic copier. The attributes in ``REPLACED`` are shared."""
        new = super().clone()
        d = new.__dict__
        d["champs"] = {k: c.copy() for k, c in self.champs.items()}
        d["minions"] = dict(self.minions)  # Minion objects are replaced, never changed
        t = self.thor
        d["thor"] = {"area": t["area"], "rot": t["rot"], "activated": t["activated"],
                     "damage": dict(t["damage"]), "destroyed": list(t["destroyed"])}
        d["turn"] = dict(self.turn)
        # A card's steps inside a task are never changed: shared.
        d["tasks"] = [{k: (v if k == "steps" or v.__class__ not in (dict, list) else jcopy(v))
                       for k, v in t.items()} for t in self.tasks]
        d["atk"] = jcopy(self.atk)
        d["tokens"] = dict(self.tokens)
        d["furnaces"] = dict(self.furnaces)
        d["overheated"] = dict(self.overheated)
        d["last_hit"] = list(self.last_hit)
        d["pending_attacks"] = [list(a) for a in self.pending_attacks]
        d["pending_lights"] = list(self.pending_lights)
        d["end"] = dict(self.end) if self.end else None
        return new

    # ------------------------------------------------------------------ setup
    def scenario_setup(self) -> None:
        """Champion Preparation and the scenario's Setup steps that involve no choice."""
        content = self.content
        sc = content.scenarios[self.setup["scenario"]]
        berserkers = self.setup.get("berserkers") or []
        for i, cid in enumerate(self.order):
            hf = content.human_forms[cid]
            bz = berserkers[i] if i < len(berserkers) else hf.berserker
            board = content.boards[i]
            c = Champion(cid, hf.name, board.colour, i, bz, self.board.starts[i])
            c.tokens_left = list(board.boon_tokens)
            # 22 cubes: health, fury, 7 rondel cubes, 3 charges.
            c.supply = 22 - 1 - 1 - 7 - 3
            c.rondel[0] = ["c"]
            if hf.starting_attribute in ("green", "red", "movement"):
                c.attrs[hf.starting_attribute] = 1
                c.supply -= 1
            elif hf.starting_attribute == "extra_cube":
                c.supply -= 1
            # The Starting Boon's token leaves the supply when it is placed (ans_boon).
            self.champs[cid] = c
        symbols = ["triangle", "square", "circle"]
        k = 0
        for t in (1, 2, 3):
            for j in range(len(self.order)):
                mid = f"{MINION_LETTER[t]}{j + 1}"
                self.minions[mid] = Minion(mid, t, self.board.spawns[symbols[k % 3]])
                k += 1
        if sc.poi_kind == "flame":
            self.tokens = {a: "flame" for a in self.board.poi}
        else:
            self.furnaces = {a: 0 for a in self.board.poi}
            self.furnace_pool = Deck("furnaces", ["1", "2", "3"][:len(self.board.poi)],
                                     reshuffle=False)
        cards = list(content.general_events)
        for e in sc.event_cards:
            cards += list(content.scenario_events[e])
        self.event_deck = Deck("events", sorted(cards))

    def _start(self, events: list[Event]) -> None:
        for cid in self.order:
            hf = self.content.human_forms[cid]
            self.tasks.append({"t": "place", "c": cid, "kinds": ["c"], "sec": "Champion Preparation"})
            self.tasks.append({"t": "boon", "c": cid, "start": True})
            if hf.starting_attribute == "extra_cube":
                self.tasks.append({"t": "place", "c": cid, "kinds": ["c"],
                                   "sec": "Champion Preparation"})
            elif hf.starting_attribute == "extra_boon":
                self.tasks.append({"t": "boon", "c": cid, "prep": True})
        self.tasks.append({"t": "begin"})
        events.append(Event("setup", f"{self.content.scenarios[self.setup['scenario']].name}: "
                            f"{len(self.order)} Champions prepare", "Champion Preparation"))
        self.run(events)

    def t_begin(self, t: Task, events: list[Event]) -> None:
        self.phase = "champions"
        self.turn_pos = 0
        self.new_turn()
        events.append(Event("round", f"Round 1 begins; {self.cname(self.current())} has the "
                            "First Champion marker", S_PHASES, {"round": 1}))

    def set_minion(self, mid: str, **changes: Any) -> Minion:
        """Change minion ``mid`` by replacing it (clones share Minion objects)."""
        m = self.minions[mid]
        new = Minion(m.id, m.type, changes.get("area", m.area), changes.get("damage", m.damage),
                     changes.get("lying", m.lying))
        self.minions[mid] = new
        return new

    def forget_memos(self) -> None:
        """Drop everything remembered to save recomputing it (minion names, the Decision of
        the current ask, the Relocate options of rondel patterns, the roll choices of each
        pool of dice): the next questions are
        answered afresh (tests compare the two)."""
        self._names = {}
        self._name_ids = {}
        self._made = None
        self._view_ask = None
        _RELOCATE.clear()
        ROLL_OPTIONS.clear()

    # ------------------------------------------------------------------ lookups
    def cname(self, cid: str) -> str:
        return self.champs[cid].name if cid in self.champs else cid

    def minion_card(self, k: int) -> MinionCardData:
        return self._cards[k]

    def minion_side(self, k: int) -> MinionSide:
        card = self._cards[k]
        return card.overheated if self.overheated[str(k)] else card.standard

    def minion_name(self, mid: str) -> str:
        """A minion as players name it: its model and standee letter (``A2`` is "AshFolk B";
        the rulebook's examples say "Troll A", "Draugr B")."""
        k = (mid, self.minions[mid].type)
        name = self._names.get(k)
        if name is None:
            # A name depends only on the content, the scenario, the id and the type, which no
            # play changes: remembered once for the game and its clones.
            name = self._names[k] = f"{self.minion_card(k[1]).model} {minion_letter(mid)}"
        return name

    def event_card(self, cid: str) -> CardData:
        if cid in self.content.general_events:
            return self.content.general_events[cid]
        for group in self.content.scenario_events.values():
            if cid in group:
                return group[cid]
        raise KeyError(cid)

    def skill_of(self, cid: str, form: str) -> SkillData:
        if form == "human":
            return self.content.human_forms[cid].skill
        return self.content.berserker_forms[self.champs[cid].berserker].skill

    def usable_skills(self, cid: str, window: str) -> list[tuple[str, str]]:
        """(name, form) of every skill of ``cid`` for this timing window with a charge left: a
        Berserker has both forms' skills ("Special Skills can be used one after the other or
        even cumulatively")."""
        c = self.champs[cid]
        out = []
        sk = self.content.human_forms[cid].skill
        if sk.window == window and c.charges["human"] > 0:
            out.append((sk.name, "human"))
        if c.form == "berserker":
            sk = self.content.berserker_forms[c.berserker].skill
            if sk.window == window and c.charges["berserker"] > 0:
                out.append((sk.name, "berserker"))
        return out

    def usable_skill(self, cid: str, window: str) -> tuple[str, str] | None:
        """The first of :meth:`usable_skills`, or None."""
        sks = self.usable_skills(cid, window)
        return sks[0] if sks else None

    def space_icons(self, cid: str, space: int) -> list[str]:
        return list(self.content.boards[self.champs[cid].board].rondel[space])

    def boon_bonus(self, cid: str, space: int, icon: str) -> int:
        """A Boon counts as +1/+2 cubes for the action or reaction of its symbol there."""
        b = self.champs[cid].boons[space]
        return b["level"] if b and b["symbol"] == icon else 0

    def reaction_spaces(self, cid: str, icon: str) -> list[int]:
        c = self.champs[cid]
        return [i for i in range(6) if c.rondel[i] and icon in self.space_icons(cid, i)]

    def current(self) -> str:
        """The champion whose turn it is (the last one once every turn is done)."""
        n = len(self.order)
        return self.order[(self.first + min(self.turn_pos, n - 1)) % n]

    def turn_order(self) -> list[str]:
        """This round's order: the First Champion, then clockwise (to the left)."""
        return self.order[self.first:] + self.order[:self.first]

    def target_name(self, target: str) -> str:
        """An attack target as action texts and sentences name it: a minion's name or
        "Thor's red face" (ids ``A1``, ``thor-red``)."""
        if target.startswith("thor-"):
            return f"Thor's {target[5:]} face"
        return self.minion_name(target)

    def target_id(self, name: str) -> str:
        """The id of the attack target that :meth:`target_name` calls ``name``."""
        if name.startswith("Thor's ") and name.endswith(" face"):
            return "thor-" + name[len("Thor's "):-len(" face")]
        found = self._name_ids.get(name)
        if found is not None:
            return found
        minion_name = self.minion_name
        for mid in self.minions:
            if minion_name(mid) == name:
                # A minion's name never changes (its id and type do not): remembered.
                self._name_ids[name] = mid
                return mid
        raise KeyError(name)

    def champion_id(self, name: str) -> str:
        """The id of the champion called ``name`` in action texts."""
        for cid, c in self.champs.items():
            if c.name == name:
                return cid
        raise KeyError(name)

    def figure_name(self, fid: str) -> str:
        """A champion's or a minion's name from its id."""
        return self.cname(fid) if fid in self.champs else self.minion_name(fid)

    def figure_id(self, name: str) -> str:
        """A champion's or a minion's id from the name action texts use."""
        try:
            return self.champion_id(name)
        except KeyError:
            return self.target_id(name)

    # ------------------------------------------------------------------ machine
    def ask_seat(self, seat: str, prompt: str, section: str, options: list[str], handler: str,
                 ctx: dict[str, Any], default: str | None = None, kind: str = "choice") -> None:
        self.ask = {"seat": seat, "prompt": prompt, "section": section, "options": options,
                    "h": handler, "ctx": ctx, "default": default, "kind": kind}

    def finish(self, result: str, reason: str, section: str, events: list[Event],
               trigger: str | None = None, final_blow: str | None = None) -> None:
        """End the game; a loss records its ``trigger`` (which Defeat Condition) and its
        ``final_blow`` (the enemy type or event behind it) for :meth:`measures`."""
        if self.result is None:
            self.result = [result, reason]
            if result == "loss":
                self.end = {"trigger": trigger or "defeat", "final_blow": final_blow}
            self.tasks = []
            self.ask = None
            events.append(Event("end", f"The Champions {'win' if result == 'win' else 'lose'}: "
                                f"{reason}", section))

    def run(self, events: list[Event]) -> None:
        """Carry out tasks until a seat must decide or the game ends."""
        tasks = self.tasks
        for _ in range(100_000):
            if self.ask is not None or self.result is not None:
                return
            if self.tasks is not tasks:  # a handler replaced the queue (finish, loading)
                tasks = self.tasks
            if not tasks:
                if self.phase == "champions":
                    tasks.append({"t": "turn"})
                else:
                    raise RuntimeError(f"battleforge: no task in phase {self.phase}")
            t = tasks.pop(0)
            name = t["t"]
            handler = TASK_HANDLERS.get(name) or TASK_HANDLERS.setdefault(
                name, getattr(type(self), "t_" + name))
            handler(self, t, events)
        raise RuntimeError("battleforge: the task machine did not reach a decision")

    # ------------------------------------------------------------------ protocol
    def _outcome(self) -> Outcome:
        if self.result:
            return Outcome(self.result[0], self.result[1])  # type: ignore[arg-type]
        return ONGOING

    def _decision(self) -> Decision | None:
        a = self.ask
        if a is None:
            return None
        # Asks are replaced, never changed, so the Decision made from one is kept with it.
        made = self._made
        if made is not None and made[0] is a:
            return made[1]
        d = Decision(a["seat"], a["prompt"], a["section"], a["kind"], a["default"])
        self._made = (a, d)
        return d

    def _legal(self) -> list[str]:
        return list(self.ask["options"]) if self.ask else []

    def _apply(self, action: str, events: list[Event]) -> None:
        ask = self.ask
        assert ask is not None
        self.ask = None
        getattr(self, "ans_" + ask["h"])(action, ask, events)
        if self.arrange is not None:
            # A rondel action just taken from a space mixing normal and temporary/frost cubes:
            # the champion re-places them before anything else happens.
            self.tasks.insert(0, self.arrange)
            self.arrange = None
        self.run(events)

    def _why_illegal(self, action: str) -> IllegalAction | None:
        a = self.ask
        if a is None:
            return None
        if a["h"] == "turn":
            word = action.split()[0] if action.split() else ""
            if action == "end turn":
                return IllegalAction(GAME_ID, S_CHAMP_PHASE, f"a Champion must perform their 3 "
                                     f"Actions ({self.turn.get('actions', 0)} left) while one "
                                     "is possible")
            if word in ("melee", "ranged", "ritual", "heal", "move", "relocate", "taunt") and \
                    self.turn.get("actions", 0) <= 0:
                return IllegalAction(GAME_ID, S_CHAMP_PHASE, "a Champion performs only 3 "
                                     "Actions on their Turn")
            if word == "ritual":
                return IllegalAction(GAME_ID, "Ritual", "a Ritual Action needs at least 3 Action "
                                     "Cubes in a space with the Ritual symbol")
            if word in ("melee", "ranged"):
                return IllegalAction(GAME_ID, "Melee Attack" if word == "melee" else "Ranged Attack",
                                     "that target cannot be attacked from here with that space "
                                     "(melee: same Area or adjacent Face; ranged: same or adjacent "
                                     "Area, no Wall)")
            if word == "taunt":
                return IllegalAction(GAME_ID, "Taunt", "Taunt needs a Champion adjacent to Thor")
            if word == "skill":
                return IllegalAction(GAME_ID, S_SKILL_REQ, "no charge left or not this skill's "
                                     "timing")
            return IllegalAction(GAME_ID, "The Three Steps of a Rondel Action",
                                 "choose a space that has at least 1 Action Cube and the action's "
                                 "symbol")
        if a["h"] == "step":
            return IllegalAction(GAME_ID, S_MOVING, "not enough Movement Points, a Wall, an "
                                 "Inaccessible Area, or a God's Area you could not leave")
        if a["h"] == "block":
            return IllegalAction(GAME_ID, "Defense", "Defend any amount between 1 and the "
                                 "number of Action Cubes used (and no more than the Damage)")
        if a["h"] in ("defend", "manage"):
            return IllegalAction(GAME_ID, S_REACTIONS, "only 1 Reaction per Trigger Event, from a "
                                 "space with cubes and the reaction's symbol")
        if a["h"] in ("anytime", "anytime_lose", "skill_prevent", "window"):
            return IllegalAction(GAME_ID, S_SKILL_REQ, "use the Special Skill (1 charge) or "
                                 "pass; no other action is possible in this timing window")
        if a["h"] == "arrange":
            return IllegalAction(GAME_ID, "The Three Steps of a Rondel Action", "the cubes "
                                 "taken go 1 by 1 to the following spaces clockwise; choose "
                                 "one of the offered outcomes")
        if a["h"] == "pick":
            return IllegalAction(GAME_ID, "Reroll", "the same die cannot be Rerolled twice, nor a "
                                 "Counterattack side")
        return None

    def _dump(self) -> dict[str, Any]:
        return {
            "scenario": self.setup["scenario"],
            "round": self.round, "twilight_space": self.twilight + 1,
            "first_champion": self.order[self.first], "marker": "red" if self.marker_red
            else "grey", "knockouts": self.knockouts, "phase": self.phase,
            "turn_pos": self.turn_pos, "turn": dict(self.turn),
            "champions": {c: self.champs[c].to_json() for c in self.order},
            "minions": {m.id: {"type": m.type, "area": m.area, "damage": m.damage,
                               "lying": m.lying} for m in self.minions.values()},
            "overheated": dict(self.overheated),
            "thor": {"area": self.thor["area"], "red_face": self.face_dir("red"),
                     "activated": self.thor["activated"], "damage": dict(self.thor["damage"]),
                     "destroyed": list(self.thor["destroyed"])},
            "tokens": dict(self.tokens),
            "furnaces": dict(self.furnaces),
            "furnace_pool": self.furnace_pool.to_json(),
            "reserves": {"temporary": self.reserve_temp, "frost": self.reserve_frost},
            "events": self.event_deck.to_json(), "gods": self.god_deck.to_json(),
            "current_card": self.cur_card, "god_card": self.god_card,
            "attack": copy.deepcopy(self.atk), "last_hit": list(self.last_hit),
            "pending_attacks": [list(a) for a in self.pending_attacks],
            "pending_lights": list(self.pending_lights),
            "tasks": copy.deepcopy(self.tasks), "ask": copy.deepcopy(self.ask),
            "result": self.result, "end": dict(self.end) if self.end else None,
            "last_poi_by": self.last_poi_by, "thor_target": self.thor_target,
        }

    def _load(self, p: dict[str, Any]) -> None:
        """Fill the state from a position: its schema first (types and printed ranges, naming
        the field), then its invariants (:func:`.positions.check_position`); whatever key order
        it was written in, champions follow the setup and minions their ids."""
        if not isinstance(p, dict):
            raise ContentError("", "", "the position must be an object of keys (see "
                               "docs/formats/battleforge.md)")
        model = validate(Position, p, "")
        check_position(model, self.content, self.board, self.setup)
        # Keys the position gives, each with its nested defaults filled in.
        full = model.model_dump(mode="json")
        p = {k: full[k] for k in model.model_fields_set}
        self.round = int(p.get("round", 1))
        self.twilight = int(p.get("twilight_space", 1)) - 1
        if p.get("champions") is not None:
            self.champs = {c: Champion.from_json(c, p["champions"][c]) for c in self.order}
        fc = p.get("first_champion") or self.order[0]
        if fc not in self.order:
            raise ContentError("", "first_champion", f"unknown champion {fc!r}")
        self.first = self.order.index(fc)
        self.marker_red = p.get("marker", "red") == "red"
        self.knockouts = int(p.get("knockouts", 0))
        self.phase = p.get("phase", "champions")
        self.turn_pos = int(p.get("turn_pos", 0))
        if p.get("minions") is not None:
            self.minions = {}
            for mid in sorted(p["minions"]):
                d = p["minions"][mid]
                self.minions[mid] = Minion(mid, int(d["type"]), d.get("area"),
                                           int(d.get("damage", 0)), d.get("lying"))
        self.overheated = {**self.overheated,
                           **{str(k): bool(v) for k, v in (p.get("overheated") or {}).items()}}
        if p.get("thor") is not None:
            t = p["thor"]
            self.thor["area"] = t.get("area") or self.thor["area"]
            self.thor["activated"] = bool(t.get("activated", False))
            self.thor["damage"].update(t.get("damage", {}))
            self.thor["destroyed"] = list(t.get("destroyed", []))
            self.set_face("red", int(t.get("red_face", 2)))
        if p.get("tokens") is not None:
            self.tokens = dict(p["tokens"])
        if p.get("furnaces") is not None:
            self.furnaces = {a: int(n) for a, n in p["furnaces"].items()}
        if p.get("furnace_pool") is not None:
            self.furnace_pool = Deck.from_json(p["furnace_pool"])
        if self.scenario_poi == "furnace":
            # The numbers under the Unlit Furnaces are the face-down pool (Forge of Doom).
            lit = sorted(str(n) for n in self.furnaces.values() if n)
            hidden = sorted(self.furnace_pool.cards())
            if len(set(lit)) != len(lit) or sorted(lit + hidden) != \
                    [str(i + 1) for i in range(len(self.board.poi))]:
                raise ContentError("", "furnace_pool", "the face-down Furnace numbers and the "
                                   "Lit Furnaces' numbers must be 1 to 3, each once (Forge of "
                                   "Doom Setup step 2)")
        elif self.furnaces or len(self.furnace_pool):
            raise ContentError("", "furnaces", "Furnaces belong to Forge of Doom")
        r = p.get("reserves") or {}
        if r.get("temporary") is not None:
            self.reserve_temp = int(r["temporary"])
        if r.get("frost") is not None:
            self.reserve_frost = int(r["frost"])
        if p.get("events") is not None:
            self.event_deck = Deck.from_json(p["events"])
        if p.get("gods") is not None:
            self.god_deck = Deck.from_json(p["gods"])
        self.cur_card = p.get("current_card")
        self.god_card = p.get("god_card")
        self.atk = p.get("attack")
        self.last_hit = list(p.get("last_hit", []))
        self.pending_attacks = [list(a) for a in p.get("pending_attacks", [])]
        self.pending_lights = list(p.get("pending_lights", []))
        self.tasks = list(p.get("tasks", []))
        self.ask = p.get("ask")
        self.result = p.get("result")
        end = p.get("end")
        # ``advanced_by`` is written only when set: a loaded None would differ from the save.
        self.end = None if end is None else {k: v for k, v in end.items()
                                             if k != "advanced_by" or v is not None}
        self.last_poi_by = p.get("last_poi_by")
        self.thor_target = p.get("thor_target")
        # The turn's own keys only: the missing ones take a new turn's values.
        given = model.turn.model_dump(mode="json", exclude_unset=True) if model.turn else None
        if self.phase == "champions" or given:
            self.new_turn()
            self.turn.update(given or {})
        if self.ask is not None and self.ask["h"] in ("turn", "step"):
            # A champion's turn is asked again from the position itself, so its options are
            # exactly the rules' whatever the save says.
            self.ask = None
            if not self.tasks or self.tasks[0].get("t") != "turn":
                self.tasks.insert(0, {"t": "turn"})
        elif self.ask is not None:
            vocab = known(self.content, self.board, self.setup)
            for i, o in enumerate(self.ask["options"]):
                if o not in vocab:
                    raise ContentError("", f"ask.options[{i}]", f"{o!r} is not an action of "
                                       "this game (docs/formats/battleforge.md, Action texts)")
            if self.ask.get("default") not in (None, *self.ask["options"]):
                raise ContentError("", "ask.default", "the default must be one of the options")
        if self.ask is None and self.result is None and self.phase != "setup":
            # A hand-written position: start at the current champion's turn, or at the
            # beginning of the Ironborn Phase.
            if self.phase == "ironborn" and not self.tasks:
                self.tasks = [{"t": "ironborn"}]
            try:
                self.run([])
            except (KeyError, IndexError, TypeError, ValueError, AttributeError,
                    RuntimeError) as e:
                raise ContentError("", "tasks", "the position's pending rule steps cannot be "
                                   f"carried out ({type(e).__name__}: {e})") from None
        if self.result is None and self.ask is None:
            raise ContentError("", "ask", "the game is not over, yet nobody has a decision")
