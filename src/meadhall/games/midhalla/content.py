"""Content schemas of Midhalla: map tiles, heroes, skills, items, traps, enemies, events, chapters.

The rulebook prints only a few values (gate HP 20, 6 silver, 5 runestones, the keyword list and
the global events); every card, tile and chapter here is an authored stand-in marked
``authored`` in its file (see docs/rulings/midhalla.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from meadhall.core.content import ContentModel, load
from meadhall.core.errors import ContentError

HERE = Path(__file__).parent / "content"

Side = Literal["N", "E", "S", "W"]
RangeValue = int | Literal["anywhere"]


class Effect(ContentModel):
    """One line of a skill, item, ultimate or trap: ``do`` with a value, range and linked lines.

    ``do``: move, attack, heal, armor, repair, pierce, retaliate, bleed, slow, exhaust,
    damage_self, fortify. ``times`` makes a multi-action (2*Attack 1). ``linked`` lines are
    written small beneath the main effect and apply to its target (Keywords).
    """

    do: Literal["move", "attack", "heal", "armor", "repair", "pierce", "retaliate", "bleed",
                "slow", "damage_self", "exhaust"]
    value: int = 0
    range: RangeValue = 0
    times: int = Field(1, ge=1)
    target: Literal["self", "hero", "ally", "enemy", "trap"] | None = None
    linked: list[Effect] = Field(default_factory=list)


class Skill(ContentModel):
    name: str
    arrow: Literal["up", "down", "both"] = "both"
    effects: list[Effect]


class Hero(ContentModel):
    name: str
    cls: str
    max_hp: int = Field(ge=1, le=6)
    top: list[str] = Field(min_length=1)
    bottom: list[str] = Field(min_length=1)
    ultimates: list[str] = Field(min_length=1)


class Follower(ContentModel):
    """A follower (Followers): activated like a hero, counts as a hero for enemies only."""

    name: str
    max_hp: int = Field(ge=1, le=6)
    top: list[str] = Field(min_length=1)
    bottom: list[str] = Field(min_length=1)


class Item(ContentModel):
    name: str
    kind: Literal["common", "rare", "unique"]
    cost: int = 0
    effects: list[Effect]


class TrapLevel(ContentModel):
    hp: int = Field(ge=1)
    attack: int = Field(ge=0)
    times: int = 1
    range: RangeValue = 0
    linked: list[Effect] = Field(default_factory=list)
    runestones: int = 0
    components: list[str] = Field(default_factory=list)
    """Components needed to reach this level ("?" means any component, even special)."""


class Trap(ContentModel):
    name: str
    cost: int = Field(ge=0)
    stock: int = Field(ge=1)
    levels: list[TrapLevel] = Field(min_length=1)


class SpecialUpgrade(ContentModel):
    name: str
    runestones: int = 0
    silver: int = 0
    components: list[str] = Field(default_factory=list)
    adds: Effect


class Component(ContentModel):
    name: str
    special: bool = False
    effect: str | None = None
    """What a special component does when spent in 2.1 (gain_runestones:N, heal_all, repair_all)."""


class Enemy(ContentModel):
    name: str
    kind: Literal["basic", "elite", "boss"]
    type: str
    hp: list[int] = Field(min_length=4, max_length=4)
    """Maximum HP for 1, 2, 3 and 4 players (the player icons of the HP bar)."""
    target: Literal["heroes", "traps", "gate", "any"]
    attack: int = Field(ge=0)
    range: RangeValue = 0
    move: int | None = None
    armor: int = 0
    evasion: bool = False
    fast: bool = False
    horde: bool = False
    retaliate: int = 0
    on_attack: list[Effect] = Field(default_factory=list)
    on_activation: list[Effect] = Field(default_factory=list)
    actions: list[BossAction] = Field(default_factory=list)
    """Bosses: the action rotation, clockwise from the top-left box."""


class BossAction(ContentModel):
    name: str
    attack: int = 0
    times: int = 1
    range: RangeValue | None = None
    target: Literal["heroes", "traps", "gate", "any"] | None = None
    move: int = 0
    heal: int = 0
    on_attack: list[Effect] = Field(default_factory=list)


class TileSide(ContentModel):
    attach: Side = "N"
    paths: dict[Side, str] = Field(default_factory=dict)


class Tile(ContentModel):
    A: TileSide
    B: TileSide


class Op(ContentModel):
    """One instruction of the campaign book, an event or a global event."""

    model_config = ContentModel.model_config | {"extra": "allow"}
    op: str


class Choice(ContentModel):
    text: str
    cost: dict[str, int] = Field(default_factory=dict)
    ops: list[Op] = Field(default_factory=list)


class EventCard(ContentModel):
    name: str
    text: str = ""
    ops: list[Op] = Field(default_factory=list)
    quest: Quest | None = None


class Quest(ContentModel):
    name: str
    condition: dict[str, Any]
    reward: list[Op] = Field(default_factory=list)
    fail: list[Op] = Field(default_factory=list)


class Section(ContentModel):
    text: str
    ops: list[Op] = Field(default_factory=list)


class TimedStep(ContentModel):
    at: int
    text: str
    ops: list[Op] = Field(default_factory=list)


class Chapter(ContentModel):
    name: str
    kind: Literal["core", "side"]
    authored: bool = True
    cycles: int = Field(ge=1, le=3)
    story: str
    board_paths: dict[str, str] = Field(default_factory=dict)
    """Paths printed on the dungeon board tiles used by this chapter: {"L.W": "A"}."""
    start_tiles: list[list[str]] = Field(default_factory=list)
    """Extra tiles placed at setup: [path letter, "12A"] pairs, in order."""
    enemy_deck: list[str]
    elite_deck: list[str] = Field(default_factory=list)
    explorations_per_cycle: list[int]
    """Authored campaign-book rule: after this many paths explored in a cycle, Phase 2 begins."""
    timed: list[TimedStep] | None = None
    sections: dict[str, Section]
    verses: dict[str, Section] = Field(default_factory=dict)
    chapter_events: dict[str, EventCard] = Field(default_factory=dict)
    boss_wave: dict[str, Any] | None = None
    epilogue: Section
    decision_effects: dict[str, Section] = Field(default_factory=dict)
    """Campaign decisions marked on the party sheet that change this chapter's start."""
    unlocks_required: list[str] = Field(default_factory=list)


class GlobalEvent(ContentModel):
    title: str
    text: str
    ops: list[Op] = Field(default_factory=list)


class Catalogue(ContentModel):
    """Everything but chapters (one file, marked authored except the printed values)."""

    authored: bool
    note: str
    tiles: dict[str, Tile]
    dungeon_board: dict[str, list[int]]
    """Dungeon board tile positions (x, y); ``G`` is the gate map tile."""
    heroes: dict[str, Hero]
    followers: dict[str, Follower] = Field(default_factory=dict)
    skills: dict[str, Skill]
    ultimates: dict[str, Skill]
    skill_decks: dict[str, list[str]]
    items: dict[str, Item]
    traps: dict[str, Trap]
    special_upgrades: dict[str, SpecialUpgrade]
    components: dict[str, Component]
    component_deck: list[str]
    enemies: dict[str, Enemy]
    tier1: dict[str, EventCard]
    tier2: dict[str, EventCard]
    tier1_deck: list[str]
    tier2_deck: list[str]
    lore: dict[str, str]
    start_unlocks: dict[str, list[str]]
    fate_track: list[int] = Field(min_length=3)
    fate_leftmost_event: str
    curse_markers: int


class Printed(ContentModel):
    """Values the rulebook prints: exact."""

    note: str = ""
    gate_hp: int
    start_silver: int
    start_runestones: int
    start_components: int
    start_rare_items: int
    reward_silver: int
    reward_runestones: int
    reward_components: int
    reward_rare_items: int
    restore_cost: int
    heal_cost: int
    max_traps_per_tile: int
    max_exhausted: int
    enemy_move: int
    boss_move: int
    enemy_armor: int
    blessing_silver: int
    global_events: dict[str, GlobalEvent]
    missing_global_events: list[str]
    keywords: dict[str, str]


class Content(ContentModel):
    printed: Printed
    cat: Catalogue
    chapters: dict[str, Chapter]

    @model_validator(mode="after")
    def _references(self) -> Content:
        return self


Effect.model_rebuild()
EventCard.model_rebuild()
Enemy.model_rebuild()

OP_GLOBAL_MISSING = "global event {n} is not printed in this build"


def check_catalogue(c: Catalogue, printed: Printed, src: str = "content/catalogue.json") -> None:
    """Cross-references inside the catalogue: every id it uses exists in it."""
    for h, hero in c.heroes.items():
        for s in [*hero.top, *hero.bottom]:
            if s not in c.skills:
                raise ContentError(src, f"heroes.{h}", f"unknown skill {s!r}")
        for u in hero.ultimates:
            if u not in c.ultimates:
                raise ContentError(src, f"heroes.{h}.ultimates", f"unknown ultimate {u!r}")
    for f, fol in c.followers.items():
        for s in [*fol.top, *fol.bottom]:
            if s not in c.skills:
                raise ContentError(src, f"followers.{f}", f"unknown skill {s!r}")
    for deck, cards in c.skill_decks.items():
        for s in cards:
            if s not in c.skills:
                raise ContentError(src, f"skill_decks.{deck}", f"unknown skill {s!r}")
    for k in c.component_deck:
        if k not in c.components:
            raise ContentError(src, "component_deck", f"unknown component {k!r}")
    for t, trap in c.traps.items():
        for i, lv in enumerate(trap.levels):
            for k in lv.components:
                if k != "?" and k not in c.components:
                    raise ContentError(src, f"traps.{t}.levels[{i}]", f"unknown component {k!r}")
    for deck in ("tier1", "tier2"):
        for n in getattr(c, f"{deck}_deck"):
            if n not in getattr(c, deck):
                raise ContentError(src, f"{deck}_deck", f"unknown {deck} event {n!r}")
        for n, ev in getattr(c, deck).items():
            check_ops(c, printed, f"{src}: {deck}.{n}", ev.ops)
    for kind, ids in c.start_unlocks.items():
        known = {"classes": c.heroes, "traps": c.traps, "items": c.items,
                 "components": c.components, "special_upgrades": c.special_upgrades,
                 "lore": c.lore}.get(kind)
        for x in ids:
            if known is not None and x not in known:
                raise ContentError(src, f"start_unlocks.{kind}", f"unknown {kind} {x!r}")
    if c.fate_leftmost_event not in printed.global_events:
        raise ContentError(src, "fate_leftmost_event",
                           f"unknown global event {c.fate_leftmost_event!r}")


def check_printed(printed: Printed, c: Catalogue, src: str = "content/printed.json") -> None:
    """The printed global events' instructions refer to known content."""
    for n, ge in printed.global_events.items():
        check_ops(c, printed, f"{src}: global_events.{n}", ge.ops)


def check_chapter(c: Catalogue, printed: Printed, ch: Chapter, where: str) -> None:
    """A chapter's enemy decks, tiles and instructions refer to known content (the same
    checks whether the game loads the file or ``meadhall validate`` reads it)."""
    for field in ("enemy_deck", "elite_deck"):
        for e in getattr(ch, field):
            if e not in c.enemies:
                raise ContentError(where, field, f"unknown enemy {e!r}")
    if ch.boss_wave and ch.boss_wave.get("enemy") not in c.enemies:
        raise ContentError(where, "boss_wave.enemy",
                           f"unknown enemy {ch.boss_wave.get('enemy')!r}")
    for k, sec in [*ch.sections.items(), *ch.verses.items()]:
        check_ops(c, printed, f"{where}: {k}", sec.ops)
    for k, ev in ch.chapter_events.items():
        check_ops(c, printed, f"{where}: chapter_events.{k}", ev.ops)
    check_ops(c, printed, f"{where}: epilogue", ch.epilogue.ops)
    for k, sec in ch.decision_effects.items():
        check_ops(c, printed, f"{where}: decision_effects.{k}", sec.ops)


def check_ops(c: Catalogue, printed: Printed, where: str, items: list[Op]) -> None:
    """Instructions name known global events, enemies and map tiles."""
    missing = set(printed.missing_global_events)
    for i, op in enumerate(items):
        extra = op.model_extra or {}
        if op.op == "global":
            n = str(extra.get("n"))
            if n in missing:
                raise ContentError(where, f"ops[{i}]", OP_GLOBAL_MISSING.format(n=n))
            if n not in printed.global_events:
                raise ContentError(where, f"ops[{i}]", f"unknown global event {n}")
        if op.op == "choice":
            for j, ch in enumerate(extra.get("options", [])):
                check_ops(c, printed, f"{where}.ops[{i}].options[{j}]",
                          [Op.model_validate(o) for o in ch.get("ops", [])])
        if op.op == "spawn" and extra.get("enemy") not in c.enemies:
            raise ContentError(where, f"ops[{i}]", f"unknown enemy {extra.get('enemy')!r}")
        if op.op in ("follower", "follower_leaves") and extra.get("id") not in c.followers:
            raise ContentError(where, f"ops[{i}]", f"unknown follower {extra.get('id')!r}")
        if op.op == "place":
            tile = str(extra.get("tile"))
            if tile[:-1] not in c.tiles or tile[-1] not in "AB":
                raise ContentError(where, f"ops[{i}]", f"unknown map tile {tile!r}")


def _check(content: Content) -> None:
    """Cross-references: every id a file uses exists in the file that defines it."""
    check_catalogue(content.cat, content.printed)
    check_printed(content.printed, content.cat)
    for cid, ch in content.chapters.items():
        check_chapter(content.cat, content.printed, ch, f"content/chapters/{cid}.json")


def load_content() -> Content:
    """Load and cross-check every data file of the game."""
    printed = load(Printed, HERE / "printed.json")
    cat = load(Catalogue, HERE / "catalogue.json")
    chapters = {p.stem: load(Chapter, p) for p in sorted((HERE / "chapters").glob("*.json"))}
    content = Content(printed=printed, cat=cat, chapters=chapters)
    _check(content)
    return content
