"""The Dice, rune throws and checks (Basic Rules - The Dice; 2. Destiny Phase; Perform Checks)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from meadhall.core.chance import Chance
from meadhall.core.dice import Die

from .model import FACE_DAMAGE, SIDES

if TYPE_CHECKING:
    from .content import RunaljodContent


@cache
def _die(content_id: int, colour: str, faces: tuple[str, ...]) -> Die:
    return Die.custom(f"{colour} die", faces)


def die(content: RunaljodContent, colour: str) -> Die:
    """A black, white or red (special) die with its authored faces."""
    return _die(id(content), colour, tuple(content.dice[colour]))


def roll_pool(content: RunaljodContent, chance: Chance, dice: list[str], why: str,
              section: str) -> list[str]:
    """Roll every die of a pool, one at a time (table mode asks for each)."""
    return [die(content, c).roll(chance, f"{why}, die {i + 1}", section)
            for i, c in enumerate(dice)]


def rune_die(content: RunaljodContent) -> Die:
    """A rune is a physical object: it lands face down, face up or sideways with the authored
    odds of ``rules.json`` (altar.rune_odds), so a designer can change them."""
    odds = content.altar.rune_odds
    return _rune_die(id(content), tuple(odds[s] for s in SIDES))


@cache
def _rune_die(content_id: int, weights: tuple[float, ...]) -> Die:
    return Die.custom("rune", SIDES, weights)


_RUNE_DIE: dict[int, tuple[object, dict[str, float], Die]] = {}
""":func:`rune_die` by content (held with it, and with the odds it was made for: a designer
may change them): a throw is the commonest roll of the game."""


def throw_rune(content: RunaljodContent, chance: Chance, what: str, section: str) -> str:
    """``rune_die(content).roll(chance, what, section)``, the die remembered; ``what`` may be
    empty where the caller knows the name of the throw cannot be read (seeded play, nothing
    queued: see ``HeroesMixin.destiny_phase``)."""
    hit = _RUNE_DIE.get(id(content))
    if hit is None or hit[0] is not content or hit[1] != content.altar.rune_odds:
        if len(_RUNE_DIE) > 64:
            _RUNE_DIE.clear()
        hit = _RUNE_DIE[id(content)] = (content, dict(content.altar.rune_odds),
                                        rune_die(content))
    return hit[2].roll(chance, what, section)  # type: ignore[no-any-return]


def damage_of(faces: list[str], cancelled: set[str] | frozenset[str] = frozenset()) -> int:
    """Damage of a roll: dagger 1, axe 2, double axe 3, ignoring cancelled results (The Dice;
    Attack step 4)."""
    return sum(FACE_DAMAGE[f] for f in faces if f not in cancelled)


def upgrades_of(faces: list[str]) -> int:
    return sum(1 for f in faces if f == "upgrade")


RUNE_FACES = {"up": "up", "side": "sideways", "down": "down"}
"""How a thrown rune lies, as the dice of events show it."""


def dice_data(colours: list[str], faces: list[str]) -> list[dict[str, Any]]:
    """A roll as events carry it (docs/architecture.md, "Dice in events"): each die's colour
    and the face showing, in words (``double axe``); Runaljod's dice have no modifiers."""
    return [{"kind": c, "face": f.replace("_", " "), "modifier": 0}
            for c, f in zip(colours, faces, strict=True)]


def rune_data(throws: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """A rune throw as events carry it: each rune is a die named as texts name it (``uruz``,
    ``thor's rune``), showing how it lies (up, sideways, down)."""
    return [{"kind": name, "face": RUNE_FACES.get(side, side), "modifier": 0}
            for name, side in throws]
