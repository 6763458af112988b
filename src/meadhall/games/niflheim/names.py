"""The words action texts use: heroes, weapons, gear, supplies and skills by the names players
read (in lower case), never by internal ids, and the way back from a word to the id.

>>> from meadhall.games.niflheim.content import load_content
>>> n = names(load_content())
>>> n.item["throwing_knives"], n.item_id["short bow"], n.hero["shield_maiden"]
('throwing knives', 'short_bow', 'shield maiden')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meadhall.games.niflheim.content import NiflheimContent

SUPPLY = {"projectiles": "a projectile", "healing_salves": "a healing salve",
          "holy_water": "a holy water phial"}
"""Supplies as action texts name them (one is passed at a time)."""
SUPPLY_ID = {v: k for k, v in SUPPLY.items()}
SUPPLY_NAME = {"projectiles": "Projectiles", "healing_salves": "Healing Salves",
               "holy_water": "Holy Water Phials"}
"""The three supply columns of the dashboard (Supplies)."""


class Names:
    """Two-way tables between content ids and the lower-case names used in action texts."""

    __shared__ = True

    def __init__(self, content: NiflheimContent) -> None:
        self.item = {k: v.name.lower() for k, v in content.armoury.items()}
        self.item_id = {v: k for k, v in self.item.items()}
        self.hero = {k: v.name.lower() for k, v in content.characters.items()}
        self.hero.update({k: v.name.lower() for k, v in content.huskarls.items()})
        self.hero_id = {v: k for k, v in self.hero.items()}
        self.skill = {k: k.lower() for k in content.skills}
        self.skill_id = {v: k for k, v in self.skill.items()}
        for what, table in (("item", self.item), ("hero", self.hero), ("skill", self.skill)):
            if len(set(table.values())) != len(table):
                raise ValueError(f"two {what}s share a name: action texts could not tell them "
                                 "apart")


_NAMES: dict[int, tuple[NiflheimContent, Names]] = {}


def names(content: NiflheimContent) -> Names:
    """The name tables of ``content``, built once per content object."""
    got = _NAMES.get(id(content))
    if got is None or got[0] is not content:
        if len(_NAMES) > 64:
            _NAMES.clear()
        got = _NAMES[id(content)] = (content, Names(content))
    return got[1]
