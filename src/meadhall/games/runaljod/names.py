"""How action texts name Runaljod's things: cards, items, skills, enemies and gods by their
printed (or authored) names in lowercase, never by internal ids (docs/formats/runaljod.md,
"Action texts")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meadhall.core import words

if TYPE_CHECKING:
    from .content import RunaljodContent


def slug(name: str) -> str:
    """Internal id of a hero board skill: its name in lowercase with hyphens."""
    return "-".join(name.lower().split())


def text_of(name: str) -> str:
    """A name as action texts write it: lowercase, single spaces."""
    return " ".join(name.lower().split())


def faces_text(faces: list[str] | tuple[str, ...]) -> str:
    """Rolled faces as players say them: ``double axe, axe, blank``."""
    return ", ".join(f.replace("_", " ") for f in faces)


def upgrade_text(spent: str) -> str:
    """An upgrade skill as the data write it (``damage:1``, ``wound:0``) in words: ``+1
    damage``, ``a wound token``."""
    eff, _, val = spent.partition(":")
    if eff == "damage":
        return f"+{val} damage"
    if eff in ("wound", "freeze", "stun", "hold"):
        return f"{words.a(eff)} token"
    return eff.replace("_", " ") + (f" {val}" if val not in ("", "0") else "")


def card_title(content: RunaljodContent, deck: str, card: str) -> str:
    """A card as players name it: its printed name, or for an Enemy AI card its number
    (``ai3`` is "card 3"); never its id."""
    table = {"exploration": content.exploration, "event": content.events,
             "search": content.search, "equipment": content.items}.get(deck.split()[0])
    if table is not None and card in table:
        return str(table[card].name)
    number = card[len(card.rstrip("0123456789")):]
    return f"card {number}" if number else " ".join(card.replace("_", " ").split())


@dataclass(frozen=True, slots=True)
class Names:
    """Lookups between content ids and the names action texts use, built once per content."""

    item: dict[str, str]
    item_id: dict[str, str]
    skill: dict[str, str]
    enemy: dict[str, str]
    enemy_kind: dict[str, str]
    power_id: dict[str, str]
    """Text of a power (a god's id, or a god's gear item name) → god id or item id."""
    deck: dict[str, str]
    """Deck key (``exploration``, ``jotun AI``...) → the name in texts (``frost jotun AI``)."""
    deck_key: dict[str, str]

    @classmethod
    def of(cls, content: RunaljodContent) -> Names:
        item = {k: text_of(v.name) for k, v in content.items.items()}
        skill = {k: text_of(v.name) for k, v in content.skills.items()}
        for hd in content.heroes.values():
            for sk in (hd.skill_coloured, hd.skill_always):
                skill[slug(sk.name)] = text_of(sk.name)
        enemy = {k: text_of(v.name) for k, v in content.enemies.items()}
        power = {g: g for g in content.gods}
        power.update({text_of(v.name): k for k, v in content.items.items() if v.god})
        deck = {d: d for d in ("exploration", "event", "search", "equipment", "enemy AI")}
        for v in content.enemies.values():
            if v.ai_deck:
                deck[f"{v.ai_deck} AI"] = f"{text_of(v.name)} AI"
        return cls(item, {v: k for k, v in item.items()}, skill, enemy,
                   {v: k for k, v in enemy.items()}, power, deck,
                   {v: k for k, v in deck.items()})


def check_names(content: RunaljodContent) -> str | None:
    """Why the content's names cannot be used in action texts (two items, skills or enemies
    with the same name, a god's gear named like a god), or None."""
    for what, table in (("item", content.items), ("skill", content.skills),
                        ("enemy", content.enemies)):
        seen: dict[str, str] = {}
        for k, v in table.items():
            t = text_of(v.name)
            if t in seen:
                return f"{what}s {seen[t]} and {k} have the same name {v.name!r}"
            seen[t] = k
    for k, v in content.items.items():
        if v.god and text_of(v.name) in content.gods:
            return f"item {k} (god's gear) is named like the god {text_of(v.name)!r}"
    return None
