"""Dice: numeric (d6, d8, d12, d20), custom faces defined by data, and a coin.

>>> from meadhall.core.rng import Rng
>>> from meadhall.core.chance import Chance
>>> c = Chance("toy", Rng(3)); c.force(12)
>>> D12.roll(c, "attack roll")
12
>>> COIN.faces
('heads', 'tails')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meadhall.core.chance import Chance


@dataclass(frozen=True, slots=True)
class Die:
    """A die with named faces; ``weights`` (optional) model uneven objects such as runes."""

    name: str
    faces: tuple[Any, ...]
    weights: tuple[float, ...] | None = None

    @classmethod
    def numeric(cls, sides: int) -> Die:
        return cls(f"d{sides}", tuple(range(1, sides + 1)))

    @classmethod
    def custom(cls, name: str, faces: Sequence[Any], weights: Sequence[float] | None = None) -> Die:
        if weights is not None and len(weights) != len(faces):
            raise ValueError(f"die {name}: {len(weights)} weights for {len(faces)} faces")
        return cls(name, tuple(faces), tuple(weights) if weights is not None else None)

    def roll(self, chance: Chance, why: str, section: str | None = None) -> Any:
        """Roll once and return the face."""
        i = chance.pick(f"{why} ({self.name})", self.faces, self.weights, section)
        return self.faces[i]

    def roll_many(self, chance: Chance, n: int, why: str, section: str | None = None) -> list[Any]:
        """Roll ``n`` times, one die at a time (each may be asked separately in table mode)."""
        return [self.roll(chance, f"{why} #{k + 1}", section) for k in range(n)]


D6 = Die.numeric(6)
D8 = Die.numeric(8)
D12 = Die.numeric(12)
D20 = Die.numeric(20)
COIN = Die("coin", ("heads", "tails"))
