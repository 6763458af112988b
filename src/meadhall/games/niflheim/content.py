"""Content schemas of Gates of Niflheim: scenarios (maps, forces, spawns, objectives), characters,
huskarls, weapons and gear, undead.

The rulebook prints the rules but not the Scenario Book's maps nor the Tome of Knowledge's sheets:
everything it does not print is authored and marked ``"authored": true`` with a note.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from meadhall.core import grid
from meadhall.core.content import ContentModel, load
from meadhall.core.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"

TERRAIN = {
    ".": "clear",
    "#": "obstructive (wall)",
    "%": "hindering (outlined in yellow)",
    ":": "dotted red outline (blocks movement, not LOS)",
    "^": "fire (burns a hero who enters it or passes its corner; undead avoid it)",
    "+": "closed door (obstructive)",
    "/": "open door (clear)",
    "L": "locked door (obstructive until forced open)",
}


class ExitPoint(ContentModel):
    """A green arrow: heroes on ``square`` may step off the map towards ``direction``."""

    square: str
    direction: Literal["N", "E", "S", "W"]


class Special(ContentModel):
    """A designated square where a special action (rescue, search) is performed."""

    square: str
    action: Literal["rescue", "search"]
    name: str
    figure: bool = False
    """A figure stands on the square (the Jarl, a prisoner): it blocks movement until rescued."""
    items: list[str] = Field(default_factory=list)
    supplies: dict[str, int] = Field(default_factory=dict)
    runestones: list[str] = Field(default_factory=list)
    """Runestones found (kept by the party until inscribed in an interim stage)."""
    joins: str | None = None
    """Rescue a Prisoner: the huskarl type who joins the party and activates at once."""
    spawn: bool = False
    """The search brings an undead: a marker is placed next to the searched square."""
    text: str = ""


class Objective(ContentModel):
    """Primary objective: a hero exits at an exit point carrying ``carry`` (if any) after every
    special action in ``after`` has been done."""

    text: str
    carry: str | None = None
    after: list[str] = Field(default_factory=list)
    kill: list[str] = Field(default_factory=list)
    """Undead kinds that must have been eliminated (none left on the map)."""


class Secondary(ContentModel):
    text: str
    done: list[str]
    """Special markers whose action completes the secondary objective."""


class ScenarioData(ContentModel):
    number: int
    name: str
    authored: bool
    note: str = ""
    party: Literal["characters", "heroes"] = "characters"
    max_characters: int = 1
    map: list[str] = Field(min_length=1)
    walls: list[tuple[str, str]] = Field(default_factory=list)
    """Red lines on square edges (obstructive for movement and LOS)."""
    start: str
    """The square marked V."""
    pool: dict[str, int]
    """Undead markers placed face down in the undead pool."""
    orange: dict[str, str] = Field(default_factory=dict)
    """Orange forces (not in the pool): square -> undead kind, placed face up."""
    face_down: list[str] = Field(default_factory=list)
    """Squares marked D: one face-down marker drawn from the pool on each."""
    spawn: dict[str, list[str]] = Field(default_factory=dict)
    """Spawn location label -> squares."""
    round_track: list[list[str]] = Field(min_length=1)
    """One entry per space of the round track: the spawn labels it shows."""
    items: dict[str, list[str]] = Field(default_factory=dict)
    """Objective markers and gear lying on squares at setup (square -> item ids)."""
    specials: dict[str, Special] = Field(default_factory=dict)
    exits: list[ExitPoint] = Field(min_length=1)
    objective: Objective
    secondary: list[Secondary] = Field(default_factory=list)
    attacks: bool = True
    """False for scenario 1: heroes have no weapons and always take an Attacked marker."""
    rules: list[str] = Field(default_factory=list)
    """Rule sets the scenario needs (``combat``, ``scenario3``, ``scenario5``...)."""
    kit: list[str] = Field(default_factory=list)
    """Authored starting gear of each character when the scenario is played on its own
    (outside a campaign)."""
    kit_supplies: dict[str, int] = Field(default_factory=dict)
    kit_runes: dict[str, str] = Field(default_factory=dict)
    """Authored runestones already affixed to kit weapons (weapon -> colour)."""
    glory: bool = False
    """The Glory / Corruption track is in use (from scenarios 3 and 4 on)."""
    exit_text: str = ""
    next: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> ScenarioData:
        grid.check_rows(self.map, "".join(TERRAIN), what="map row")
        w = len(self.map[0])
        squares = [self.start, *self.face_down, *self.orange, *self.items,
                   *(s.square for s in self.specials.values()),
                   *(e.square for e in self.exits),
                   *(q for v in self.spawn.values() for q in v)]
        for name in squares:
            x, y = grid.sq(name)
            if not (0 <= x < w and 0 <= y < len(self.map)):
                raise ValueError(f"square {name} is off the {w}x{len(self.map)} map")
        for space in self.round_track:
            for label in space:
                if label not in self.spawn:
                    raise ValueError(f"round track shows spawn {label!r} with no spawn squares")
        return self


class CharacterData(ContentModel):
    name: str
    authored: bool = True
    health: int = Field(gt=0)
    preferred: list[str] = Field(default_factory=list)
    skills: dict[str, list[str]] = Field(default_factory=dict)
    """Skill category -> skill names by level (1, 2, 3)."""


class HuskarlData(ContentModel):
    name: str
    authored: bool = False
    health: int = 2
    preferred: list[str]
    weapons: list[str]


class WeaponData(ContentModel):
    name: str
    authored: bool
    note: str = ""
    kind: Literal["weapon", "phial", "gear"] = "weapon"
    ad: int = 1
    r: tuple[int, int] | None = None
    """Ranged stun / wound values; None is the printed X (no ranged attack)."""
    h2h: tuple[int, int] | None = None
    aoe: tuple[int, int] | None = None
    pbr: int = 1
    rm: int = 1
    one_handed: bool = False
    projectile: bool = False
    shield: bool = False
    small: bool = False
    zero_space: bool = False


class SkillData(ContentModel):
    """What a character or huskarl skill does in play. The Tome of Knowledge (Character Sheets
    and Skills) is not printed: every effect is authored, only Blade Flurry's "/ 2" Glory cost
    is the rulebook's (Glory Cost of Skills Example)."""

    authored: bool = True
    note: str = ""
    effect: Literal["drm", "extra_die", "boost", "shield_wall"]
    """``drm``: a passive DRM; ``extra_die``: a used skill adding 1 AD to one attack;
    ``boost``: a used skill adding ``drm`` to one attack; ``shield_wall``: adjacent heroes
    count as carrying a shield."""
    when: Literal["any", "h2h", "ranged", "preferred", "preferred_ranged", "pbr", "phial",
                  "break_lock"] = "any"
    """Which rolls the skill applies to."""
    drm: int = 0
    glory: int = 0
    """The Glory cost after the slash (0: a passive skill, no cost)."""
    text: str


class UndeadData(ContentModel):
    name: str
    hv: int
    mv: int
    xp: int
    glory: int = 0
    powers: list[str] = Field(default_factory=list)


class NiflheimContent(ContentModel):
    authored_note: str
    scenarios: dict[str, ScenarioData]
    characters: dict[str, CharacterData]
    huskarls: dict[str, HuskarlData]
    armoury: dict[str, WeaponData]
    undead: dict[str, UndeadData]
    runestones: dict[str, str]
    fate_track: dict[str, str]
    huskarl_skills: dict[str, str]
    skill_costs: dict[str, int]
    """XP cost of a skill by level (authored), and of a huskarl skill."""
    skills: dict[str, SkillData]
    """Every character and huskarl skill's effect (authored, see SkillData)."""
    motes: dict[str, str]
    """Lost Memory Mote entries (authored; the Tome of Knowledge is not printed)."""
    mote_pool_size: int = 60

    @model_validator(mode="after")
    def _refs(self) -> NiflheimContent:
        for sid, sc in self.scenarios.items():
            for kind in [*sc.pool, *sc.orange.values()]:
                if kind not in self.undead:
                    raise ValueError(f"scenario {sid}: unknown undead {kind!r}")
            items = [i for v in sc.items.values() for i in v]
            items += [i for s in sc.specials.values() for i in s.items]
            for it in items:
                if it not in self.armoury:
                    raise ValueError(f"scenario {sid}: unknown item {it!r}")
        for what, table in (("armoury", self.armoury),
                            ("characters and huskarls", {**self.characters, **self.huskarls})):
            seen: dict[str, str] = {}
            for k, v in table.items():
                low = v.name.lower()
                if low in seen:
                    raise ValueError(f"{what}: {seen[low]!r} and {k!r} share the name "
                                     f"{v.name!r}; action texts name them, so names must differ")
                seen[low] = k
        names = [n for c in self.characters.values() for v in c.skills.values() for n in v]
        for name in [*names, *self.huskarl_skills]:
            if name not in self.skills:
                raise ValueError(f"skills: no effect for skill {name!r}")
        return self


BLOCKS_MOVE = "#+L:"


def check(content: NiflheimContent, source: str) -> None:
    """What the game needs beyond the schema, checked when it loads the file and by
    ``meadhall validate`` alike: figures, markers and exits stand on squares a figure can
    stand on (not obstructive terrain or a closed door), red lines join adjacent squares."""
    for sid, sc in content.scenarios.items():
        _check_scenario(sid, sc, source)


def _check_scenario(sid: str, sc: ScenarioData, source: str) -> None:
    def at(name: str) -> str:
        x, y = grid.sq(name)
        return sc.map[y][x]

    def need_open(field: str, name: str, what: str) -> None:
        if at(name) in BLOCKS_MOVE:
            raise ContentError(source, f"scenarios.{sid}.{field}", f"{what} {name} is on "
                               f"{TERRAIN[at(name)]} terrain: no figure can stand there")

    need_open("start", sc.start, "the start square V")
    if sum(sc.pool.values()) < len(sc.face_down):
        # each square D takes a marker from the pool, whose identity is drawn when revealed
        raise ContentError(source, f"scenarios.{sid}.pool", f"{sum(sc.pool.values())} undead "
                           f"in the pool cannot fill the {len(sc.face_down)} face-down squares D")
    for q in sc.face_down:
        need_open("face_down", q, "the undead square D")
    for q in sc.orange:
        need_open("orange", q, "the orange force's square")
    for label, squares in sc.spawn.items():
        for q in squares:
            need_open(f"spawn.{label}", q, "the spawn square")
    for e in sc.exits:
        need_open("exits", e.square, "the exit point")
    for label, sp in sc.specials.items():
        if sp.figure:
            need_open(f"specials.{label}", sp.square, "the figure's square")
    for q in sc.items:
        need_open("items", q, "the square holding gear")
    w, h = len(sc.map[0]), len(sc.map)
    for a, b in sc.walls:
        qa, qb = grid.sq(a), grid.sq(b)
        if grid.manhattan(qa, qb) != 1 or not all(0 <= q[0] < w and 0 <= q[1] < h
                                                  for q in (qa, qb)):
            raise ContentError(source, f"scenarios.{sid}.walls", f"the red line {a}|{b} "
                               "must join two adjacent squares of the map")
    spots = 1 + sum(1 for q in grid.neighbours(grid.sq(sc.start), diagonal=True)
                    if 0 <= q[0] < w and 0 <= q[1] < h and sc.map[q[1]][q[0]] not in BLOCKS_MOVE)
    if spots < sc.max_characters:
        raise ContentError(source, f"scenarios.{sid}.start", f"{sc.max_characters} characters "
                           f"need free squares on or next to V, there are {spots}")


def load_content() -> NiflheimContent:
    """Read and validate ``content/niflheim.json``, with :func:`check`."""
    path = CONTENT_DIR / "niflheim.json"
    content = load(NiflheimContent, path)
    check(content, str(path))
    return content
