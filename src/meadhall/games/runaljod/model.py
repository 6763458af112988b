"""Runaljod's mutable pieces: runes, heroes, enemies, placed tiles (plain dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from meadhall.core.grid import Sq

# Section names exactly as printed in the rulebook's table of contents.
S_SETUP = "Adventure Mode (Single Session)"
S_OVERVIEW = "Game Overview"
S_VICTORY = "Victory or Defeat"
S_HEROES = "Heroes Turn"
S_PREP = "1. Preparation Phase"
S_DESTINY_PHASE = "2. Destiny Phase"
S_CONDITION = "3. Condition Phase"
S_ACTIONS = "4. Actions Phase"
S_BASIC = "Basic Actions"
S_MOVE = "Movement"
S_INTERACT = "Interaction"
S_SKILL = "Activate a Skill"
S_GOD = "Activate the God's Rune"
S_CAPRICIOUS = "The Gods Are Capricious"
S_CHECKS = "Perform Checks"
S_ATTACK = "Attack"
S_DAMAGE = "Damage, Wounds and Life Points"
S_ENEMIES = "Enemies Turn"
S_ENEMY_ACTIONS = "Enemy Actions"
S_SIGHT = "Sight"
S_CLARIFY = "Clarifications"
S_SPECIAL = "Special Enemies"
S_DICE = "The Dice"
S_EQUIP = "Equipment"
S_GEAR = "God's Gear"
S_DESTINY = "Destiny"
S_KEYWORDS = "Keywords"
S_HOLD = "Hold"
S_TERRAIN = "Terrain"
S_ADVENTURE = "Adventure Mode"
S_TWO = "2 Player Game"
S_SINGLE = "Single-Player Game"
S_STEEL = "Steel Rules"
S_POWERS = "God's Powers"

SIDES = ("down", "up", "side")
FACE_DAMAGE = {"blank": 0, "dagger": 1, "axe": 2, "double_axe": 3, "upgrade": 0}
"""The Dice: dagger 1, axe 2, double axe 3; upgrades deal no damage."""

GOD_RUNE = "'s rune"
"""How texts name a god's rune on a hero board: ``thor's rune``."""
CONDITIONS = ("wound", "stun", "frozen")
POOL = "pool"
BOARD_SPACES = ("move1", "move2", "attack1", "attack2", "interact", "physical", "spiritual")


@dataclass(slots=True)
class Rune:
    """A rune of a hero: its icon (``god:<id>`` for a god's rune), how it lies, where it is.

    ``place`` is ``pool`` (the destiny pool) or the space it was placed on (used).
    """

    icon: str
    side: str = "down"
    place: str = "out"

    @property
    def god(self) -> str:
        return self.icon[4:] if self.icon.startswith("god:") else ""

    @property
    def face_up(self) -> bool:
        return self.side in ("up", "side")


_new = object.__new__
_HERO_LISTS = ("conditions", "skills", "turned", "equipment", "misc", "bonus", "returns")
_HERO_VALUES = ("id", "at", "damage", "fallen", "fell_this_turn", "recover_choice", "glory",
                "skill_points", "bought_this_phase", "trance", "captive", "mark", "passed",
                "held_by", "glory_won")


class Hero:
    """A hero's board and miniature: position, damage, runes, conditions, glory, skills,
    equipment, tokens. ``captive`` is the uid of the enemy the hero holds, ``held_by`` that
    of its captor (Hold); ``glory_won`` the glory points gained in this game (a designer's
    measure: the track itself is emptied into skill points).

    A plain slotted class with its own :meth:`clone` (states are copied often by searching
    bots; the generic dataclass copy was the largest part of a clone)."""

    __slots__ = (*_HERO_VALUES, "runes", *_HERO_LISTS)

    def __init__(self, id: str, at: Sq | None = None, damage: int = 0,  # noqa: A002
                 runes: list[Rune] | None = None, conditions: list[str] | None = None,
                 fallen: bool = False, fell_this_turn: bool = False, recover_choice: str = "",
                 glory: int = 0, skill_points: int = 0, bought_this_phase: int = 0,
                 skills: list[str] | None = None, turned: list[str] | None = None,
                 equipment: list[str] | None = None, misc: list[str] | None = None,
                 trance: int = 0, captive: int = 0, mark: str = "none",
                 bonus: list[str] | None = None, passed: bool = False, held_by: int = 0,
                 glory_won: int = 0, returns: list[str] | None = None) -> None:
        self.id = id
        self.at = at
        self.damage = damage
        self.runes: list[Rune] = runes if runes is not None else []
        self.conditions: list[str] = conditions if conditions is not None else []
        self.fallen = fallen
        self.fell_this_turn = fell_this_turn
        self.recover_choice = recover_choice
        self.glory = glory
        self.skill_points = skill_points
        self.bought_this_phase = bought_this_phase
        self.skills: list[str] = skills if skills is not None else []
        self.turned: list[str] = turned if turned is not None else []
        self.equipment: list[str] = equipment if equipment is not None else []
        self.misc: list[str] = misc if misc is not None else []
        self.trance = trance
        self.captive = captive
        self.mark = mark
        self.bonus: list[str] = bonus if bonus is not None else []
        self.passed = passed
        self.held_by = held_by
        self.glory_won = glory_won
        self.returns: list[str] = returns if returns is not None else []
        """God's runes set aside until the attack their bonus is for (Cheru, Vali: "Return
        this rune to the altar of the Gods after the attack")."""

    def clone(self) -> Hero:
        """An independent copy (runes and lists copied; strings and squares shared)."""
        n = Hero.__new__(Hero)
        n.id, n.at, n.damage, n.fallen = self.id, self.at, self.damage, self.fallen
        n.fell_this_turn, n.recover_choice = self.fell_this_turn, self.recover_choice
        n.glory, n.skill_points = self.glory, self.skill_points
        n.bought_this_phase, n.trance, n.captive = (self.bought_this_phase, self.trance,
                                                    self.captive)
        n.mark, n.passed, n.held_by, n.glory_won = (self.mark, self.passed, self.held_by,
                                                    self.glory_won)
        n.conditions, n.skills, n.turned = (self.conditions[:], self.skills[:],
                                            self.turned[:])
        n.equipment, n.misc, n.bonus = self.equipment[:], self.misc[:], self.bonus[:]
        n.returns = self.returns[:]
        # Rune(r.icon, r.side, r.place), filled directly (a dataclass __init__ call per rune
        # cost a third more; a hero is copied at every look-ahead)
        runes = n.runes = []
        new, add = _new, runes.append
        for r in self.runes:
            c = new(Rune)
            c.icon, c.side, c.place = r.icon, r.side, r.place
            add(c)
        return n

    def __eq__(self, other: object) -> bool:
        return type(other) is Hero and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Hero({self.id!r}, at={self.at}, damage={self.damage})"

    def rune(self, icon: str) -> Rune | None:
        for r in self.runes:
            if r.icon == icon:
                return r
        return None

    def pool(self) -> list[Rune]:
        return [r for r in self.runes if r.place == "pool"]

    def god_rune(self) -> Rune | None:
        for r in self.runes:
            if r.icon.startswith("god:"):
                return r
        return None

    def space_used(self, space: str) -> bool:
        for r in self.runes:  # noqa: SIM110 - a loop, not a generator: a hot path
            if r.place == space:
                return True
        return False


@dataclass(slots=True)
class Enemy:
    uid: int
    kind: str
    at: Sq
    damage: int = 0
    conditions: list[str] = field(default_factory=list)
    activated: bool = False
    holding: str = ""
    captor: str = ""
    """Id of the hero holding this enemy (Hold)."""
    also: Sq | None = None
    """Second space of a large or giant enemy's base (orthogonally adjacent to ``at``)."""

    @property
    def squares(self) -> list[Sq]:
        return [self.at] if self.also is None else [self.at, self.also]


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile in play: which tile, which exploration card brought it, its west column.
    Immutable, so states and their clones share it."""

    __shared__: ClassVar[bool] = True
    tile: str
    card: str
    x: int


@dataclass(frozen=True, slots=True)
class HeroAct:
    """A hero's action as its text names it (``HeroesMixin.parse_action``).

    ``kind``: move, attack, search, explore, equip, give, invoke, rethrow (the altar), buy (a
    god's rune), use_god (the power of the hero's god's rune), skill, assist, use (an item),
    card2 (the 2-player card), hand_over, pass.
    """

    kind: str
    rune: str = ""
    """Icon of the rune the action places (``god:thor`` for a god's rune)."""
    space: str = ""
    """Board space the rune goes to (move1, attack2, interact...); empty for other actions."""
    square: Sq | None = None
    item: str = ""
    """Weapon, item to equip, give or use, or the god's gear a rune is bought for."""
    hero: str = ""
    """The other hero involved (given to, assisted, handed over to, 2-player card for)."""
    power: str = ""
    """A god's id or a god's gear item id (invoke, use_god, buy)."""
    detail: str = ""
    """The power's target: a square (``F3``), ``every enemy of the tile``, ``berserk's uruz``."""
    paid: tuple[str, ...] = ()
    replace: tuple[str, ...] | None = None
    skill: str = ""
    value: int = 0
    """Movement points (move); the 2-player card effect's index (card2)."""
