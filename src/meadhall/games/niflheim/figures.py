"""Figures on the map: heroes (characters and huskarls) and undead (section Figures)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from meadhall.core.grid import Sq

INTENTS = ("stationary", "walking", "running")
MP = {"stationary": 0, "walking": 3, "running": 6}


@dataclass(slots=True)
class Hero:
    """A character or huskarl in the scenario, with its dashboard (health, gear, supplies)."""

    id: str
    name: str
    huskarl: bool
    at: Sq | None
    health: int
    max_health: int
    status: str = "active"
    """``active`` on the map, ``exited`` off the map at an exit point, or ``dead``."""
    intent: str | None = None
    mp: int = 0
    marker: str | None = None
    """``cover stationary`` / ``cover walking`` / ``cover running`` or ``attacked``."""
    activated: bool = False
    acted: bool = False
    """Has performed a movement action this activation (no special action any more)."""
    zoc_stop: bool = False
    """Moved into a zone of control: no further movement actions."""
    locked_by: int | None = None
    ready: str | None = None
    off_hand: str | None = None
    gear: list[str] = field(default_factory=list)
    supplies: dict[str, int] = field(default_factory=dict)
    xp: int = 0
    glory: int = 0
    """Fate track: positive is Glory, negative is Corruption."""
    runes: dict[str, str] = field(default_factory=dict)
    """Runestones affixed to weapons: weapon id -> black / white / blue / red."""
    skills: list[str] = field(default_factory=list)
    free_step: bool = False
    """White (Air) runestone: may move 1 square after a stun or wound."""
    fate_mp: bool = False
    """This activation's MP carry the -1 of 5 Corruption (Fate track)."""
    rearranging: str | None = None
    """After a search, the searched square: the hero may pick up what was found there and
    ready weapons at no MP cost before the activation ends."""

    @property
    def on_map(self) -> bool:
        return self.status == "active" and self.at is not None

    @property
    def corruption(self) -> int:
        return max(0, -self.glory)

    def carries(self, item: str) -> bool:
        return item in self.gear or item in (self.ready, self.off_hand)

    def items(self) -> list[str]:
        return [x for x in (self.ready, self.off_hand) if x] + list(self.gear)


@dataclass(slots=True)
class Undead:
    """An undead figure or face-down marker (``kind`` is None until revealed)."""

    id: int
    kind: str | None
    at: Sq
    wounds: int = 0
    stunned: bool = False
    activated: bool = False
    orange: bool = False


_AS_IS = frozenset({"str", "int", "bool", "str | None", "int | None", "Sq", "Sq | None"})
"""Field types a copy may share (immutable values)."""


def _copier(cls: type) -> Callable[[Any], Any]:
    """A copy function for a slotted figure class, generated from its fields: immutable fields
    are shared, lists and dicts (of strings and numbers) copied one level. States are copied
    very often by search bots; this is several times faster than the generic copier, and a
    field of any other type stops the import (a new field is never shared by mistake)."""
    lines = ["def copy(o):", "    n = _new(T)"]
    for f in fields(cls):
        if f.default_factory is list:
            lines.append(f"    n.{f.name} = o.{f.name}[:]")
        elif f.default_factory is dict:
            lines.append(f"    n.{f.name} = o.{f.name}.copy()")
        elif f.default_factory is MISSING and str(f.type) in _AS_IS:
            lines.append(f"    n.{f.name} = o.{f.name}")
        else:  # pragma: no cover - guards future fields
            raise TypeError(f"{cls.__name__}.{f.name}: no copy rule for {f.type}")
    lines.append("    return n")
    env: dict[str, Any] = {"_new": object.__new__, "T": cls}
    exec("\n".join(lines), env)  # noqa: S102 - generated from the class's own fields
    return env["copy"]  # type: ignore[no-any-return]


Hero.__fastcopy__ = staticmethod(_copier(Hero))  # type: ignore[attr-defined]
Undead.__fastcopy__ = staticmethod(_copier(Undead))  # type: ignore[attr-defined]
