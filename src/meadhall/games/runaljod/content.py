"""Content schemas of Runaljod (Components; Hero Board; Basic Rules).

Every printed value the rulebook gives (damage per die face, the altar holding 4 god's runes,
3 skill points, 5 glory per skill point...) lives in the rules code or here exactly as printed;
everything the rulebook only refers to (hero boards, cards, tiles, the time track) is authored
stand-in content, marked ``"authored": true`` in its file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from meadhall.core import grid
from meadhall.core.content import ContentModel, load
from meadhall.core.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"

Face = Literal["blank", "dagger", "axe", "double_axe", "upgrade"]
RuneSide = Literal["down", "up", "side"]
Slot = Literal["hands", "torso", "head", "feet", "misc"]


class Effect(ContentModel):
    """One effect of a skill, item, card or upgrade: a ``kind`` and its parameters."""

    kind: str
    value: int = 0
    dice: list[str] = Field(default_factory=list)
    type: str = ""
    keywords: list[str] = Field(default_factory=list)
    text: str = ""


class Upgrade(ContentModel):
    """An upgrade skill: spend ``cost`` upgrade results once per attack for ``effect``."""

    effect: Literal["damage", "wound", "freeze", "stun", "hold", "destiny"]
    value: int = 0
    cost: int = 1


class SkillData(ContentModel):
    """A skill card (or a hero board skill): runes to place, destiny to spend, the effect."""

    name: str
    cost: int = 0
    runes: list[str] = Field(default_factory=list)
    destiny: int = 0
    trance: int = 0
    effect: Effect | None = None
    passive: Effect | None = None
    turn: bool = False
    """Turned sideways when used: not again until recovered in the preparation phase."""
    text: str = ""


class HeroData(ContentModel):
    """A hero board (Hero Board, numbered items 1-16)."""

    name: str
    icon: str
    defence: int = Field(ge=0)
    move: list[int] = Field(min_length=2, max_length=2)
    physical: list[str] = Field(min_length=1)
    spiritual: list[str] = Field(min_length=1)
    runes: list[str] = Field(min_length=1)
    life: int = Field(gt=0)
    coloured: int = Field(ge=0)
    skill_coloured: SkillData
    skill_always: SkillData
    equipment: list[str]
    skills: list[str]

    @model_validator(mode="after")
    def _distinct_runes(self) -> HeroData:
        if len(set(self.runes)) != len(self.runes):
            raise ValueError("a hero's runes must show different icons")
        return self


class ItemData(ContentModel):
    """An equipment card: slot, hands, weapon dice and keywords, defence, upgrades."""

    name: str
    slot: Slot
    hands: int = 0
    dice: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    defence: int = 0
    cancels: list[Face] = Field(default_factory=list)
    life: int = 0
    upgrades: list[Upgrade] = Field(default_factory=list)
    use: Effect | None = None
    god: str = ""
    text: str = ""

    @property
    def weapon(self) -> bool:
        return bool(self.dice)


class EnemyData(ContentModel):
    """An enemy card: life, defence, movement, attack type and dice, upgrades, keywords."""

    name: str
    group: str
    life: int = Field(gt=0)
    defence: int = Field(ge=0)
    move: int = Field(ge=0)
    attack: Literal["melee", "range"]
    dice: list[str] = Field(min_length=1)
    upgrades: list[Upgrade] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    cancels: list[Face] = Field(default_factory=list)
    ai_deck: str = ""
    final: bool = False
    size: int = Field(default=1, ge=1, le=2)
    """2: a large or giant enemy whose base covers two orthogonally adjacent spaces."""


class AiAction(ContentModel):
    """One line of an Enemy AI card: what the group does and its hero-icon target order."""

    do: Literal["move", "attack", "sight", "howl", "retreat"]
    targets: list[str] = Field(default_factory=list)


class AiGroup(ContentModel):
    group: str
    actions: list[AiAction]


class AiCard(ContentModel):
    """An Enemy AI card: groups from top to bottom, each with its actions."""

    groups: list[AiGroup] = Field(min_length=1)


class Element(ContentModel):
    """Something an exploration card places: enemy, search token, bonfire, hero start."""

    kind: Literal["enemy", "search", "bonfire", "start"]
    at: str
    also: str = ""
    type: str = ""
    heroes: list[int] = Field(default_factory=lambda: [2, 3, 4])


class ExplorationCard(ContentModel):
    """An exploration card: stage I/S/C, its tile, elements by hero count, rules."""

    name: str
    stage: Literal["I", "S", "C"]
    tile: str
    elements: list[Element]
    snake: Literal["discard", "stay"] = "discard"
    discard_when_cleared: bool = True
    rules: list[Effect] = Field(default_factory=list)
    text: str = ""


class EventCard(ContentModel):
    """An event card; ``bottom`` is the "or" half, ``circles`` keeps it for several phases."""

    name: str
    top: list[Effect]
    bottom: list[Effect] | None = None
    circles: int = 0
    text: str = ""


class SearchCard(ContentModel):
    name: str
    effects: list[Effect]
    text: str = ""


class TileData(ContentModel):
    """A tile: ASCII rows (``.`` normal, ``#`` obstacle, ``g`` difficult, ``i`` ice,
    ``x`` exit, ``n`` entrance)."""

    name: str
    rows: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _shape(self) -> TileData:
        grid.check_rows(self.rows, ".#gixn")
        return self


class GodData(ContentModel):
    name: str
    power: Effect
    text: str


class TwoPlayerCard(ContentModel):
    effects: list[Effect]
    text: str = ""


class Altar(ContentModel):
    """The altar of the gods: the time track, snake spaces and the rune landing odds."""

    track: int = Field(gt=3)
    snakes: list[int] = Field(min_length=3)
    end_snake: int = 3
    rune_odds: dict[RuneSide, float]
    note: str = ""

    @model_validator(mode="after")
    def _ok(self) -> Altar:
        if set(self.rune_odds) != {"down", "up", "side"} or min(self.rune_odds.values()) <= 0:
            raise ValueError("rune_odds needs positive odds for down, up and side")
        if any(not 0 < s < self.track for s in self.snakes) or sorted(self.snakes) != self.snakes:
            raise ValueError("snakes must be increasing spaces inside the track")
        return self


class RunaljodContent(ContentModel):
    """All of Runaljod's data (each file validated by its own part of this model)."""

    authored: bool
    note: str = ""
    dice: dict[str, list[Face]]
    altar: Altar
    gods: dict[str, GodData]
    heroes: dict[str, HeroData]
    skills: dict[str, SkillData]
    items: dict[str, ItemData]
    equipment_l1: list[str]
    equipment_l2: list[str]
    enemies: dict[str, EnemyData]
    ai_decks: dict[str, dict[str, AiCard]]
    tiles: dict[str, TileData]
    exploration: dict[str, ExplorationCard]
    events: dict[str, EventCard]
    search: dict[str, SearchCard]
    two_player: TwoPlayerCard

    @model_validator(mode="after")
    def _refs(self) -> RunaljodContent:
        for h, hd in self.heroes.items():
            for i in hd.equipment:
                if i not in self.items:
                    raise ValueError(f"heroes.{h}.equipment: unknown item {i}")
            for s in hd.skills:
                if s not in self.skills:
                    raise ValueError(f"heroes.{h}.skills: unknown skill {s}")
        for deck in (self.equipment_l1, self.equipment_l2):
            for i in deck:
                if i not in self.items:
                    raise ValueError(f"equipment deck: unknown item {i}")
        for e in self.enemies.values():
            for d in e.dice:
                if d not in self.dice:
                    raise ValueError(f"enemy {e.name}: unknown die {d}")
            if e.ai_deck and e.ai_deck not in self.ai_decks:
                raise ValueError(f"enemy {e.name}: unknown AI deck {e.ai_deck}")
        for c, card in self.exploration.items():
            if card.tile not in self.tiles:
                raise ValueError(f"exploration.{c}: unknown tile {card.tile}")
            for el in card.elements:
                if el.kind == "enemy" and el.type not in self.enemies:
                    raise ValueError(f"exploration.{c}: unknown enemy {el.type}")
        from .names import check_names

        why = check_names(self)
        if why:
            raise ValueError(f"names used in action texts: {why}")
        return self


def check_elements(exploration: dict[str, ExplorationCard], tiles: dict[str, TileData]
                   ) -> tuple[str, str] | None:
    """(field, reason) of the first exploration card element that cannot stand where the card
    puts it (off its tile, on an obstacle, a large enemy's second space not next to the
    first), or None. The game refuses such cards on load; ``meadhall validate`` the same."""
    for cid, card in exploration.items():
        rows = tiles[card.tile].rows if card.tile in tiles else None
        if rows is None:
            return f"exploration.{cid}.tile", f"unknown tile {card.tile}"
        for i, el in enumerate(card.elements):
            for key in ("at", "also"):
                name = getattr(el, key)
                if not name:
                    continue
                field = f"exploration.{cid}.elements[{i}].{key}"
                try:
                    x, y = grid.sq(name)
                except ValueError as e:
                    return field, str(e)
                if not (0 <= y < len(rows) and 0 <= x < len(rows[0])):
                    return field, f"{name} is off the tile {card.tile}"
                if rows[y][x] == "#":
                    return field, (f"{name} is an obstacle of tile {card.tile}: an element "
                                   "must stand on an open space (Terrain)")
            if el.also and not grid.is_orthogonal(grid.sq(el.at), grid.sq(el.also)):
                return (f"exploration.{cid}.elements[{i}].also", f"{el.also} is not next to "
                        f"{el.at}: a large enemy's base is two orthogonally adjacent spaces")
    return None


class _File(ContentModel):
    authored: bool
    note: str = ""


class RulesFile(_File):
    dice: dict[str, list[Face]]
    altar: Altar
    gods: dict[str, GodData]
    two_player: TwoPlayerCard


class HeroesFile(_File):
    heroes: dict[str, HeroData]
    skills: dict[str, SkillData]


class EquipmentFile(_File):
    items: dict[str, ItemData]
    equipment_l1: list[str]
    equipment_l2: list[str]


class EnemiesFile(_File):
    enemies: dict[str, EnemyData]
    ai_decks: dict[str, dict[str, AiCard]]


class CardsFile(_File):
    exploration: dict[str, ExplorationCard]
    events: dict[str, EventCard]
    search: dict[str, SearchCard]


class TilesFile(_File):
    tiles: dict[str, TileData]


FILE_MODELS: dict[str, type[ContentModel]] = {
    "rules.json": RulesFile, "heroes.json": HeroesFile, "equipment.json": EquipmentFile,
    "enemies.json": EnemiesFile, "cards.json": CardsFile, "tiles.json": TilesFile,
}
FILES = tuple(f[:-5] for f in FILE_MODELS)


def load_content(folder: Path = CONTENT_DIR) -> RunaljodContent:
    """Read every content file of ``folder`` and validate the whole."""
    from meadhall.core.content import read_data, validate

    merged: dict = {}
    for f in FILES:
        path = folder / f"{f}.json"
        data = read_data(path)
        validate(FILE_MODELS[f"{f}.json"], data, str(path))
        data.pop("authored", None)
        data.pop("note", None)
        merged.update(data)
    merged["authored"] = True
    content = validate(RunaljodContent, merged, str(folder))
    bad = check_elements(content.exploration, content.tiles)
    if bad is not None:
        raise ContentError(str(folder / "cards.json"), *bad)
    return content


__all__ = ["RunaljodContent", "load", "load_content"]
