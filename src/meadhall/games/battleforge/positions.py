"""The position format (docs/formats/battleforge.md) as pydantic models, and the invariants a
loaded position must keep.

The models check every value's type and printed range, naming the field of any problem
(``champions.ragnar.health``); :func:`check_position` then checks what no schema can: areas on
the map and open to the figure, ids the setup knows, counts within the components' limits,
and a pending decision that has a legal action.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from meadhall.core.errors import ContentError
from meadhall.core.migrate import position_migration, retire_choice_texts

from .basics import ATTRIBUTE_MAX, CHARGE_CAP, CUBES_PER_COLOUR, MAX_HEALTH, Board
from .components import BattleForgeContent, Icon

Symbol = Literal["triangle", "square", "circle"]
HANDLERS = ("turn", "step", "boon", "attr", "roll", "manage", "pick", "window", "redface",
            "god_to", "god_push", "minion_step", "minion_stand", "attack_order",
            "skill_prevent", "defend", "block", "anytime_lose", "anytime", "arrange", "place",
            "relocate", "stun_take", "shift", "charge")
"""Every decision handler an ``ask`` may name."""
TASKS = ("begin", "turn", "place", "boon", "ask_attr", "charge", "fury", "attack", "damage",
         "lose",
         "anytime", "arrange", "ko", "gain", "frostbite", "relocate", "stun", "shift",
         "activate", "minion", "minion_attacks", "lights", "steps", "face", "god_to",
         "god_push", "god_place", "ironborn", "advance", "event", "god", "god_begin",
         "end_round")
"""Every rule step a queued task may name."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BoonPos(Model):
    symbol: Icon
    level: int = Field(ge=1, le=2)


class Attributes(Model):
    green: int = Field(0, ge=0, le=ATTRIBUTE_MAX)
    red: int = Field(0, ge=0, le=ATTRIBUTE_MAX)
    movement: int = Field(0, ge=0, le=ATTRIBUTE_MAX)


class Charges(Model):
    human: int = Field(CHARGE_CAP, ge=0, le=CHARGE_CAP)
    berserker: int = Field(0, ge=0, le=CHARGE_CAP)


class ChampionPos(Model):
    name: str
    colour: str
    board: int = Field(ge=0, le=3)
    berserker: str
    area: str
    health: int = Field(ge=0, le=MAX_HEALTH)
    fury: int = Field(0, ge=0, le=30)
    form: Literal["human", "berserker"] = "human"
    rondel: list[str] = Field(min_length=6, max_length=6)
    boons: list[BoonPos | None] = Field(default_factory=lambda: [None] * 6, min_length=6,
                                        max_length=6)
    tokens_left: list[Icon] = Field(default_factory=list, max_length=7)
    attributes: Attributes = Field(default_factory=Attributes)
    charges: Charges = Field(default_factory=Charges)
    stunned_cubes: str = Field("", pattern=r"^[ctf]{0,2}$")
    stunned: bool = False
    offerings: list[str] = Field(default_factory=list)
    supply: int = Field(0, ge=0, le=CUBES_PER_COLOUR)


class MinionPos(Model):
    type: int = Field(ge=1, le=3)
    area: str | None = None
    damage: int = Field(0, ge=0)
    lying: Symbol | None = None


class ThorPos(Model):
    area: str | None = None
    red_face: int = Field(2, ge=0, le=5)
    activated: bool = False
    damage: dict[str, int] = Field(default_factory=dict)
    destroyed: list[str] = Field(default_factory=list)


class Reserves(Model):
    temporary: int | None = Field(None, ge=0, le=8)
    frost: int | None = Field(None, ge=0, le=8)


class DeckPos(Model):
    name: str
    pile: list[str] = Field(default_factory=list)
    top: list[str] = Field(default_factory=list)
    bottom: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    reshuffle: bool = True


class TurnPos(Model):
    c: str | None = None
    actions: int = Field(3, ge=0, le=3)
    over: bool = False
    move: int = Field(0, ge=0, le=60)
    moving: bool = False
    long_reach: bool = False
    heal_other: bool = False
    add_red: int = Field(0, ge=0, le=2)
    frost: int = Field(0, ge=0, le=8)


class AskPos(Model):
    seat: str
    prompt: str
    section: str | None = None
    options: list[str] = Field(min_length=1)
    h: Literal[HANDLERS]  # type: ignore[valid-type]
    ctx: dict[str, Any] = Field(default_factory=dict)
    default: str | None = None
    kind: Literal["turn", "choice", "chance"] = "choice"


class TaskPos(BaseModel):
    model_config = ConfigDict(extra="allow")
    t: Literal[TASKS]  # type: ignore[valid-type]


class AttackPos(Model):
    c: str
    kind: Literal["melee", "ranged"]
    target: str
    white: int = Field(ge=0, le=60)
    red: int = Field(ge=0, le=4)
    green: int = Field(ge=0, le=2)
    dice: list[tuple[Literal["white", "red", "green"],
                     Literal["miss", "counter", "damage", "double", "heal", "double_heal"]]]
    rerolled: list[int] = Field(default_factory=list)
    reroll_used: bool = False
    stage: Literal["pool", "roll", "manage", "pick", "window", "effects", "resolve"]
    asked: list[str] = Field(default_factory=list)
    pick: dict[str, Any] | None = None
    purple: bool = False
    orange: bool = False


class EndPos(Model):
    trigger: str
    final_blow: str | None = None
    advanced_by: str | None = None
    """A time-out reached by a Knockout's advance: what knocked the champion out."""


class Position(Model):
    """A BattleForge position: every key optional (a fresh setup fills what is missing)."""

    scenario: str | None = None
    round: int = Field(1, ge=1, le=13)
    twilight_space: int = Field(1, ge=1, le=13)
    first_champion: str | None = None
    marker: Literal["red", "grey"] = "red"
    knockouts: int = Field(0, ge=0, le=2)
    phase: Literal["setup", "champions", "ironborn"] = "champions"
    turn_pos: int = Field(0, ge=0, le=4)
    turn: TurnPos | None = None
    champions: dict[str, ChampionPos] | None = None
    minions: dict[str, MinionPos] | None = None
    overheated: dict[Literal["1", "2", "3"], bool] | None = None
    thor: ThorPos | None = None
    tokens: dict[str, Literal["flame", "heat", "freeze"]] | None = None
    furnaces: dict[str, int] | None = None
    furnace_pool: DeckPos | None = None
    reserves: Reserves = Field(default_factory=Reserves)
    events: DeckPos | None = None
    gods: DeckPos | None = None
    current_card: str | None = None
    god_card: str | None = None
    attack: AttackPos | None = None
    last_hit: list[str] = Field(default_factory=list)
    pending_attacks: list[tuple[str, str, Literal["standard", "overheated"]]] = Field(
        default_factory=list)
    pending_lights: list[str] = Field(default_factory=list)
    tasks: list[TaskPos] = Field(default_factory=list)
    ask: AskPos | None = None
    result: tuple[Literal["win", "loss"], str] | None = None
    end: EndPos | None = None
    last_poi_by: str | None = None
    thor_target: str | None = None


def fail(field: str, reason: str) -> ContentError:
    return ContentError("", field, reason)


def check_area(board: Board, field: str, area: Any, who: str) -> None:
    """``area`` must be a valid Area of the map (not inaccessible, not the god's start)."""
    if board.cells.get(area) != ".":
        raise fail(field, f"{area!r} is not an Area of the map a {who} can stand in "
                   "(Definitions: Areas Inaccessible to All Characters)")


def check_position(p: Position, content: BattleForgeContent, board: Board,
                   setup: dict[str, Any]) -> None:
    """The invariants no schema can check (areas, ids, counts); raises :class:`ContentError`
    naming the field and the rule."""
    heroes = list(setup["heroes"])
    n = len(heroes)
    if p.scenario is not None and p.scenario != setup["scenario"]:
        raise fail("scenario", f"{p.scenario!r} is not the setup's scenario "
                   f"{setup['scenario']!r}")
    if p.first_champion is not None and p.first_champion not in heroes:
        raise fail("first_champion", f"unknown champion {p.first_champion!r}; the setup's "
                   f"champions are {', '.join(heroes)}")
    if p.turn_pos > n:
        raise fail("turn_pos", f"at most {n}: one Turn per Champion (The Champions Phase)")
    if p.knockouts >= 1 and p.marker == "red":
        raise fail("marker", "a knockout flips the First Champion marker to grey (Knocked Out)")
    if p.knockouts >= 2 and p.result is None:
        raise fail("knockouts", "2 knockouts lose the game (Defeat Conditions)")
    thor_area = (p.thor.area if p.thor and p.thor.area else board.god_start)
    if p.thor is not None:
        if p.thor.area is not None and p.thor.area != board.god_start:
            check_area(board, "thor.area", p.thor.area, "God")
            if p.thor.area in board.god_inaccessible:
                raise fail("thor.area", f"{p.thor.area} is an Area Thor cannot enter "
                           "(Definitions)")
        faces = content.god.faces
        hp = content.god.face_health_per_champion * n
        for f, d in p.thor.damage.items():
            if f not in faces:
                raise fail(f"thor.damage.{f}", f"unknown Face; Thor's Faces are "
                           f"{', '.join(faces)}")
            if not 0 <= d <= hp:
                raise fail(f"thor.damage.{f}", f"between 0 and the Face's {hp} Health (The "
                           "Faces of a God)")
        for f in p.thor.destroyed:
            if f not in faces:
                raise fail("thor.destroyed", f"unknown Face {f!r}")
        if len(set(p.thor.destroyed)) != len(p.thor.destroyed):
            raise fail("thor.destroyed", "a Face is listed twice")
    temp = frost = 0
    if p.champions is not None:
        if set(p.champions) != set(heroes):
            raise fail("champions", f"the champions {sorted(p.champions)} are not the setup's "
                       f"{heroes}")
        moving = p.turn.c if p.turn and (p.turn.moving or p.turn.move) else None
        for cid, c in p.champions.items():
            where = f"champions.{cid}"
            check_area(board, f"{where}.area", c.area, "Champion")
            if c.area == thor_area and cid != moving:
                raise fail(f"{where}.area", f"{c.area} is Thor's Area: Champions pass through "
                           "it but never stop there (The Faces of a God)")
            if c.berserker not in content.berserker_forms:
                raise fail(f"{where}.berserker", f"unknown Berserker Form {c.berserker!r}")
            for i, sp in enumerate(c.rondel):
                if any(k not in "ctf" for k in sp):
                    raise fail(f"{where}.rondel[{i}]", "cube letters c (action), t (temporary), "
                               "f (frost)")
            cubes = "".join(c.rondel) + c.stunned_cubes
            if cubes.count("c") > CUBES_PER_COLOUR:
                raise fail(f"{where}.rondel", f"more than the {CUBES_PER_COLOUR} Action Cubes "
                           "of a colour (Components)")
            temp += cubes.count("t")
            frost += cubes.count("f")
            if bool(c.stunned_cubes) and not c.stunned:
                raise fail(f"{where}.stunned_cubes", "cubes are set aside only while Stunned")
            for a in c.offerings:
                if a not in board.altars:
                    raise fail(f"{where}.offerings", f"{a!r} is not an Altar")
            if c.charges.berserker and c.form != "berserker":
                raise fail(f"{where}.charges.berserker", "Berserker Form charges before the "
                           "transformation (Berserker Form)")
    if p.minions is not None:
        sc = content.scenarios[setup["scenario"]]
        letters = {1: "A", 2: "D", 3: "T"}
        for mid, m in p.minions.items():
            where = f"minions.{mid}"
            ok = (len(mid) == 2 and mid[0] == letters[m.type] and mid[1].isdigit()
                  and 1 <= int(mid[1]) <= n)
            if not ok:
                raise fail(where, f"unknown minion: ids are A1..A{n} (type 1), D1..D{n} (type "
                           f"2), T1..T{n} (type 3), one standee per Champion (Setup step 9)")
            if m.area is None:
                if m.lying is None:
                    raise fail(f"{where}.lying", "an Inactive minion lies by a Spawning Area "
                               "(Destroying a Minion): triangle, square or circle")
            else:
                check_area(board, f"{where}.area", m.area, "minion")
                if m.area == thor_area and p.ask is None and not p.tasks:
                    raise fail(f"{where}.area", f"{m.area} is Thor's Area: Minions pass "
                               "through it but never stop there (The Faces of a God)")
            card = content.minion_cards[sc.minions[m.type]]
            if m.damage >= max(card.standard.health, card.overheated.health):
                raise fail(f"{where}.damage", f"a minion with {m.damage} Damage is Destroyed "
                           "(Destroying a Minion)")
    if p.tokens is not None:
        for a, kind in p.tokens.items():
            check_area(board, f"tokens.{a}", a, "token")
            if kind == "flame" and content.scenarios[setup["scenario"]].poi_kind != "flame":
                raise fail(f"tokens.{a}", "Sacred Flames belong to The Last Flame")
    if p.furnaces is not None:
        for a, v in p.furnaces.items():
            if a not in board.poi:
                raise fail(f"furnaces.{a}", "Furnaces stand on the Points of Interest")
            if not 0 <= v <= 3:
                raise fail(f"furnaces.{a}", "0 (Unlit) or the Lit Furnace's number 1-3")
    r = p.reserves
    if r.temporary is not None and r.temporary + temp > 2 * n:
        raise fail("reserves.temporary", f"{r.temporary} in the Reserve and {temp} on the "
                   f"rondels exceed the {2 * n} Temporary Cubes of {n} Champions (Setup)")
    if r.frost is not None and r.frost + frost > 2 * n:
        raise fail("reserves.frost", f"{r.frost} in the Reserve and {frost} on the rondels "
                   f"exceed the {2 * n} Frost Cubes of {n} Champions (Frostbite)")
    cards = {"events": set(content.general_events) | {
        k for g in content.scenario_events.values() for k in g}, "gods": set(content.thor_cards)}
    for key in ("events", "gods"):
        deck = getattr(p, key)
        if deck is None:
            continue
        seen = deck.pile + deck.top + deck.bottom + deck.discard
        for x in seen:
            if x not in cards[key]:
                raise fail(key, f"unknown card {x!r}")
        if len(set(seen)) != len(seen):
            raise fail(key, "a card is in the deck twice")
    if p.ask is not None and p.ask.seat not in heroes and p.ask.seat != "players":
        raise fail("ask.seat", f"{p.ask.seat!r} is neither a champion nor the players")
    if p.turn is not None and p.turn.c is not None and p.turn.c not in heroes:
        raise fail("turn.c", f"unknown champion {p.turn.c!r}")
    if p.attack is not None and p.attack.c not in heroes:
        raise fail("attack.c", f"unknown champion {p.attack.c!r}")
    check_tasks(p, heroes, board)


# What each queued rule step needs: key -> kind of value ("champion", "int", "minion",
# "area", "list", "str", "bool", "steps", "type", "figure", "kinds", "dir").
TASK_KEYS: dict[str, dict[str, str]] = {
    "damage": {"c": "champion", "n": "int", "src": "str"},
    "lose": {"c": "champion", "n": "int", "src": "str"}, "fury": {"c": "champion", "n": "int"},
    "gain": {"c": "champion", "kind": "kind", "n": "int"},
    "place": {"c": "champion", "kinds": "kinds"}, "boon": {"c": "champion"},
    "ask_attr": {"c": "champion"}, "charge": {"c": "champion"}, "ko": {"c": "champion"},
    "relocate": {"c": "champion", "left": "int"}, "stun": {"c": "champion"},
    "shift": {"c": "champion", "n": "int", "dir": "dir"}, "activate": {"type": "type"},
    "minion": {"id": "minion", "left": "int", "side": "side", "attacked": "list"},
    "steps": {"steps": "steps"}, "face": {"face": "str", "toward": "str"},
    "god_to": {"cands": "areas", "push": "bool", "why": "str"},
    "god_push": {"who": "figure", "area": "area"}, "god_place": {"area": "area", "why": "str"},
    "arrange": {"c": "champion", "space": "space", "n": "int", "normal": "int", "k": "int",
                "lifted": "bool"},
    "anytime": {"why": "str"},
}
ASK_TASK = {"defend": "damage", "block": "damage", "skill_prevent": "damage",
            "anytime_lose": "lose", "anytime": "anytime", "arrange": "arrange", "place": "place",
            "relocate": "relocate", "stun_take": "stun", "shift": "shift", "god_to": "god_to",
            "god_push": "god_push", "minion_step": "minion", "minion_stand": "minion",
            "roll": "attack", "manage": "attack", "pick": "attack", "window": "attack",
            "redface": "attack"}
"""The rule step a pending decision answers: it must head the queue."""


def check_tasks(p: Position, heroes: list[str], board: Board) -> None:
    """Queued rule steps carry what their handlers read, and a pending decision has the step
    it answers at the head of the queue; raises :class:`ContentError` naming the field."""
    from .components import check_steps

    minions = set(p.minions) if p.minions is not None else {
        f"{x}{i + 1}" for x in "ADT" for i in range(len(heroes))}
    ok: dict[str, Any] = {
        "champion": lambda v: v in heroes, "int": lambda v: type(v) is int and 0 <= v <= 99,
        "minion": lambda v: v in minions, "area": lambda v: board.cells.get(v) in (".", "S"),
        "list": lambda v: isinstance(v, list), "str": lambda v: isinstance(v, str),
        "bool": lambda v: isinstance(v, bool), "type": lambda v: v in (1, 2, 3),
        "figure": lambda v: v in heroes or v in minions, "kind": lambda v: v in ("t", "f"),
        "kinds": lambda v: isinstance(v, list) and all(k in ("c", "t", "f") for k in v),
        "dir": lambda v: v in (-1, 1), "side": lambda v: v in ("standard", "overheated"),
        "space": lambda v: type(v) is int and 0 <= v <= 5,
        "areas": lambda v: isinstance(v, list) and v and all(board.cells.get(a) == "."
                                                             for a in v),
        "steps": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v)}
    for i, t in enumerate(p.tasks):
        extra = t.model_extra or {}
        for key, kind in TASK_KEYS.get(t.t, {}).items():
            if key not in extra or not ok[kind](extra[key]):
                raise fail(f"tasks[{i}].{key}", f"a {t.t!r} step needs {key} ({kind})")
        if t.t == "steps":
            check_steps("", f"tasks[{i}].steps", extra["steps"], tuple(heroes))
            at = extra.get("i", 0)
            if type(at) is not int or not 0 <= at <= len(extra["steps"]):
                raise fail(f"tasks[{i}].i", f"the card step under way: 0 to "
                           f"{len(extra['steps'])}")
        # Keys a step reads once it is under way.
        later = {("damage", 3): {"most": "int", "strength": "int"},
                 ("stun", False): {"left": "int"}, ("arrange", True): {"placed": "list"}}
        stage = {"damage": extra.get("stage", 0), "stun": extra.get("new", True),
                 "arrange": extra.get("lifted")}.get(t.t)
        if t.t == "damage" and stage not in (0, 1, 2, 3):
            raise fail(f"tasks[{i}].stage", "0 to 3")
        for key, kind in later.get((t.t, stage), {}).items():
            if key not in extra or not ok[kind](extra[key]):
                raise fail(f"tasks[{i}].{key}", f"a {t.t!r} step under way needs {key} "
                           f"({kind})")
        if t.t == "damage" and not ok["list"](extra.get("asked", [])):
            raise fail(f"tasks[{i}].asked", "a list of champions")
        if t.t == "attack" and p.attack is None:
            raise fail(f"tasks[{i}]", "an attack step without the attack being resolved "
                       "(attack)")
    if p.ask is not None and p.ask.h in ASK_TASK:
        need = ASK_TASK[p.ask.h]
        if not p.tasks or p.tasks[0].t != need:
            raise fail("tasks", f"the pending {p.ask.h!r} decision answers a {need!r} step, "
                       "which must head the queue")
        if need == "attack" and p.attack is None:
            raise fail("attack", f"the pending {p.ask.h!r} decision needs the attack being "
                       "resolved")
        if p.ask.h == "pick" and not (p.attack and p.attack.pick):
            raise fail("attack.pick", "the dice being chosen")
        if p.ask.h == "relocate" and p.champions is not None:
            # Each offered move takes a cube from a space that holds one of that kind.
            cid = (p.tasks[0].model_extra or {}).get("c")
            rondel = p.champions[cid].rondel if cid in p.champions else None
            for o in p.ask.options:
                words = o.split()
                if rondel is None or words[0] != "relocate":
                    continue
                kind = "t" if words[1] == "temporary" else "c"
                if not (words[-4].isdigit() and 1 <= int(words[-4]) <= 6
                        and kind in rondel[int(words[-4]) - 1]):
                    raise fail("ask.options", f"{o!r}: that space of {cid}'s rondel holds no "
                               "such cube (Relocate)")
    names = [t.t for t in p.tasks]
    if p.phase == "setup" and p.result is None and "begin" not in names:
        raise fail("tasks", "Champion Preparation ends with the step that begins Round 1 "
                   "('begin')")
    if p.phase == "ironborn" and p.result is None and names and not {
            "end_round", "ironborn"} & set(names):
        raise fail("tasks", "the Ironborn Phase ends with the step that ends the Round "
                   "('end_round')")
    if p.ask is not None and p.ask.h == "attack_order" and not p.pending_attacks:
        raise fail("pending_attacks", "the Attacks to order")
    if p.attack is not None:
        t = p.attack.target
        if not (t in minions or (t.startswith("thor-") and len(t) > 5)):
            raise fail("attack.target", f"unknown target {t!r}: a minion id or thor-<face>")


@position_migration("battleforge", 1)
def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (2026-11-29) to 2: ``setup.players`` 0 meant "the usual count" (now left
    out), and the pending decision's options are written with today's action texts."""
    setup = data.get("setup")
    if isinstance(setup, dict) and setup.get("players") == 0:
        del setup["players"]
    return retire_choice_texts(data, "battleforge", "ask")
