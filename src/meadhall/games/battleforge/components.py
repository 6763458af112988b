"""Components: schemas of BattleForge's data files (section "Components").

The prototype rulebook prints the dice, Thor's faces and passive, the setups and the special rules,
but not the champion boards and cards, the minion cards, the 11 Thor cards, the event cards, the
rounds track or the scenario maps. Those are authored stand-ins marked ``authored`` in the data; every
value the rulebook prints (12 health, max 15, 3 charges, 8 fury to transform, AshFolk 2/3 actions,
DraugMech 1/2 actions and 2 damage, IronTroll 4 damage, ...) is kept exactly.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from meadhall.core.content import ContentModel

Icon = Literal["melee", "ranged", "ritual", "heal", "defense", "reroll"]
Window = Literal["on_your_turn", "anytime", "another_takes_damage", "after_any_roll"]
UpgradeIcon = Literal["cube", "boon", "movement", "green", "red", "attribute", "transform"]
Attribute = Literal["green", "red", "movement"]


class DieData(ContentModel):
    faces: list[Literal["miss", "counter", "damage", "double", "heal", "double_heal"]]


class BoardData(ContentModel):
    """A champion board: the six rondel spaces, clockwise, with their action/reaction icons."""

    colour: str
    rondel: list[list[Icon]] = Field(min_length=6, max_length=6)
    boon_tokens: list[Icon] = Field(min_length=7, max_length=7)
    authored: bool = False


class SkillData(ContentModel):
    name: str
    window: Window
    effect: Literal["temp_cube", "prevent_2", "long_reach", "heal_other", "reroll_any_2",
                    "reroll_2", "add_red_2", "miss_to_double", "heal_1_temp"]
    text: str


class HumanFormData(ContentModel):
    name: str
    skill: SkillData
    upgrades: dict[int, UpgradeIcon]
    starting_boon: Icon
    starting_attribute: Literal["extra_cube", "extra_boon", "green", "red", "movement"]
    berserker: str
    authored: bool = False
    note: str = ""


class BerserkerFormData(ContentModel):
    name: str
    skill: SkillData
    transformation: UpgradeIcon
    upgrades: dict[int, UpgradeIcon]
    authored: bool = False


class MinionSide(ContentModel):
    health: int = Field(gt=0)
    actions: int = Field(ge=0)
    damage: int = Field(ge=0)
    counter: int = Field(ge=0)
    fury: int = Field(ge=0)
    target: Literal["champions", "poi", "champions_or_poi"]
    range: int = Field(0, ge=0)
    special: Literal["none", "frost", "rampage"] = "none"
    text: str = ""


class MinionCardData(ContentModel):
    type: int = Field(ge=1, le=3)
    name: str
    model: str
    standard: MinionSide
    overheated: MinionSide
    authored: bool = False


class GodStatusData(ContentModel):
    name: str
    counter: int
    face_health_per_champion: int
    faces: list[str] = Field(min_length=6, max_length=6)
    front: list[str]
    back: list[str]
    passive: str
    authored: list[str] = Field(default_factory=list)
    note: str = ""


class CardData(ContentModel):
    """A Thor card or an event card: minion types to activate, then steps top to bottom."""

    name: str
    activate: list[int] = Field(default_factory=list)
    steps: list[dict[str, Any]] = Field(default_factory=list)
    text: str = ""
    authored: bool = True


class MapData(ContentModel):
    """A scenario map: hex areas in odd-r offset rows (odd rows shifted half an area right).

    Cells: ``.`` an area, ``#`` inaccessible to every character, ``S`` the god's starting area
    (outside the valid areas). Columns are letters from A, rows numbers from 1 (``D2``).
    """

    rows: list[str] = Field(min_length=1)
    walls: list[tuple[str, str]] = Field(default_factory=list)
    god_inaccessible: list[str] = Field(default_factory=list)
    altars: list[str] = Field(default_factory=list)
    poi: list[str] = Field(default_factory=list)
    spawns: dict[Literal["triangle", "square", "circle"], str]
    starts: list[str] = Field(min_length=4)

    @model_validator(mode="after")
    def _rectangular(self) -> MapData:
        w = len(self.rows[0].split())
        for i, r in enumerate(self.rows):
            if len(r.split()) != w:
                raise ValueError(f"row {i + 1} has {len(r.split())} cells, expected {w}")
        return self


class TableItem(ContentModel):
    """A component a setup step places next to the play area, and the rule that reads it."""

    item: str
    step: int = Field(gt=0)
    modelled_as: str
    read_by: str | None = None
    note: str = ""


class ScenarioData(ContentModel):
    name: str
    table_items: list[TableItem] = Field(default_factory=list)
    minions: dict[int, str]
    event_cards: list[str]
    poi_kind: Literal["flame", "furnace"]
    round_limit: int | None = None
    map: MapData
    authored_map: bool = True
    note: str = ""


class BattleForgeContent(ContentModel):
    note: str = ""
    dice: dict[Literal["white", "red", "green"], DieData]
    boards: list[BoardData] = Field(min_length=4)
    human_forms: dict[str, HumanFormData]
    berserker_forms: dict[str, BerserkerFormData]
    minion_cards: dict[str, MinionCardData]
    god: GodStatusData
    thor_cards: dict[str, CardData]
    general_events: dict[str, CardData]
    scenario_events: dict[str, dict[str, CardData]]
    round_track: list[str]
    round_track_authored: bool = True
    scenarios: dict[str, ScenarioData]

    @model_validator(mode="after")
    def _counts(self) -> BattleForgeContent:
        if len(self.thor_cards) != 11:
            raise ValueError(f"the God deck has 11 Thor cards, found {len(self.thor_cards)}")
        if len(self.general_events) != 5:
            raise ValueError("there are 5 General Event cards")
        for k, v in self.scenario_events.items():
            if len(v) != 6:
                raise ValueError(f"scenario events {k}: expected 6 cards, found {len(v)}")
        for h in self.human_forms.values():
            if h.berserker not in self.berserker_forms:
                raise ValueError(f"{h.name}: unknown berserker form {h.berserker}")
        for s in self.scenarios.values():
            for c in s.minions.values():
                if c not in self.minion_cards:
                    raise ValueError(f"{s.name}: unknown minion card {c}")
            for e in s.event_cards:
                if e not in self.scenario_events:
                    raise ValueError(f"{s.name}: unknown event set {e}")
        return self


OPS = {"activate", "if", "turn", "move", "attack", "damage", "lose", "heal", "temp", "frost",
       "stun", "push", "pull", "throw", "token"}
"""The operations a God or Event card step may use (``op_<name>`` in ``gods.py``)."""
OP_KEYS = {"activate": ("types",), "if": ("cond", "then"), "turn": ("face", "toward"),
           "move": ("adjacent_to", "face", "toward"), "attack": ("target", "damage"),
           "damage": ("who", "amount"), "lose": ("who", "amount"), "heal": ("who", "amount"),
           "temp": ("who", "amount"), "frost": ("who", "amount"), "stun": ("who",),
           "push": ("who", "distance"), "pull": ("who", "distance"), "throw": ("who", "to"),
           "token": ("kind", "where")}
"""The keys each card step operation reads."""
FACES = ("orange", "red", "yellow", "green", "blue", "purple")
SELECTORS = {"all", "first", "hit", "moved", "closest", "farthest", "lowest_health",
             "most_cubes"}
"""The champions a step may name (``Gods.select``)."""


def check_steps(path: str, where: str, steps: list[dict[str, Any]],
                names: tuple[str, ...] = ()) -> None:
    """Every step names a known operation and known champions (a selector, or one of
    ``names``: the champions of a game in progress, whom queued steps may name)."""
    known = SELECTORS | set(names)
    from meadhall.core.errors import ContentError

    for i, st in enumerate(steps):
        at = f"{where}[{i}]"
        if st.get("op") not in OPS:
            raise ContentError(path, f"{at}.op", f"unknown operation {st.get('op')!r}; known: "
                               f"{', '.join(sorted(OPS))}")
        for key in OP_KEYS[st["op"]]:
            if key not in st:
                raise ContentError(path, f"{at}.{key}", f"a {st['op']!r} step needs {key}")
        for key in ("amount", "damage", "distance"):
            if key in st and not (type(st[key]) is int and 0 <= st[key] <= 20):
                raise ContentError(path, f"{at}.{key}", "a whole number from 0 to 20")
        if "face" in st and st["face"] not in FACES:
            raise ContentError(path, f"{at}.face", f"one of Thor's Faces: {', '.join(FACES)}")
        if st["op"] == "token" and st["kind"] not in ("heat", "freeze"):
            raise ContentError(path, f"{at}.kind", "heat or freeze")
        if st["op"] == "activate" and not (isinstance(st["types"], list) and all(
                k in (1, 2, 3) for k in st["types"])):
            raise ContentError(path, f"{at}.types", "Minion types 1, 2, 3")
        if st["op"] == "attack":
            tg = st["target"]
            if not (isinstance(tg, dict) and (tg.get("line") in FACES or tg.get("adjacent")
                                             or isinstance(tg.get("within"), int))):
                raise ContentError(path, f"{at}.target", "line (a Face), adjacent, or within "
                                   "(a number of Areas, with or without a champion)")
        if st["op"] == "if" and not isinstance(st["cond"], dict):
            raise ContentError(path, f"{at}.cond", "a condition object")
        for key in ("who", "toward", "adjacent_to"):
            if key == "who" and isinstance(st.get(key), list):
                # the Champions an attack hit, named by a queued step (one effect on them all)
                if not st[key] or not all(isinstance(c, str) and c in names for c in st[key]):
                    raise ContentError(path, f"{at}.who", "a list of the game's champions")
                continue
            if key in st and st[key] not in known:
                raise ContentError(path, f"{at}.{key}", f"unknown champion selector "
                                   f"{st[key]!r}; known: {', '.join(sorted(SELECTORS))}")
        target = st.get("target")
        if isinstance(target, dict) and "champion" in target and \
                target["champion"] not in known:
            raise ContentError(path, f"{at}.target.champion", f"unknown champion selector "
                               f"{target['champion']!r}")
        for key in ("then",):
            if isinstance(st.get(key), list):
                check_steps(path, f"{at}.{key}", st[key], names)


def check_content(path: str, c: BattleForgeContent) -> None:
    """The checks beyond the schema (see :meth:`BattleForgeGame.check_content`)."""
    from meadhall.core.errors import ContentError

    from .basics import Board

    for k, sc in c.scenarios.items():
        Board.build(sc.map, path, f"scenarios.{k}.map")
        for slot, card in sc.minions.items():
            if c.minion_cards[card].type != slot:
                raise ContentError(path, f"scenarios.{k}.minions.{slot}", f"{card} is a Minion "
                                   f"{c.minion_cards[card].type} card, not Minion {slot}")
        if set(sc.minions) != {1, 2, 3}:
            raise ContentError(path, f"scenarios.{k}.minions", "the three numbered Minion "
                               "spaces 1, 2, 3 (Reading the Confrontation Board)")
    for k, card in c.thor_cards.items():
        check_steps(path, f"thor_cards.{k}.steps", card.steps)
    for k, card in c.general_events.items():
        check_steps(path, f"general_events.{k}.steps", card.steps)
    for g, group in c.scenario_events.items():
        for k, card in group.items():
            check_steps(path, f"scenario_events.{g}.{k}.steps", card.steps)
    track = c.round_track
    if len(track) != 13 or track[-1] != "end" or any(
            s not in ("triangle", "square", "circle") for s in track[:-1]):
        raise ContentError(path, "round_track", "12 Rounds of Spawning symbols (triangle, "
                           "square, circle) then the last space, 'end' (Winning and Losing: "
                           "the end of Round 12)")
