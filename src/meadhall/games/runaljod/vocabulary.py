"""Every action text a Runaljod game with a given setup can ever offer, in a fixed order (the
dense action numbering of the RL adapters; grammar and order: docs/formats/runaljod.md,
"Action vocabulary").

The sets the templates range over come from the setup and the content: the heroes of the setup,
their runes and the god's runes, the items of the setup's heroes and of the level's equipment
deck, the heroes' skill cards, every square of every tile that can lie at each place of the
adventure's row of tiles, the enemy types and the decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from meadhall.core import grid

from .attack import upgrade_words
from .gods import ALL_ON_TILE
from .model import GOD_RUNE
from .names import Names, slug

if TYPE_CHECKING:
    from .content import RunaljodContent


def tile_places(content: RunaljodContent) -> set[tuple[str, int]]:
    """Every (tile, west column) a tile can lie at: the initial card's tile at 0, then two
    basic cards' tiles and a stage card's tile, each attached east of the one before."""
    by_stage: dict[str, list[str]] = {"I": [], "S": [], "C": []}
    for card in content.exploration.values():
        by_stage[card.stage].append(card.tile)
    width = {k: len(t.rows[0]) for k, t in content.tiles.items()}
    places: set[tuple[str, int]] = set()
    xs = {0}
    for stage in ("I", "S", "S", "C"):
        nxt = set()
        for x in xs:
            for tile in by_stage[stage]:
                places.add((tile, x))
                nxt.add(x + width[tile])
        xs = nxt
    return places


def squares(content: RunaljodContent) -> list[str]:
    """Every square name any tile can cover, in reading order (row, then column)."""
    out: set[tuple[int, int]] = set()
    for tile, x0 in tile_places(content):
        rows = content.tiles[tile].rows
        out.update((x0 + x, y) for y, row in enumerate(rows) for x in range(len(row)))
    return [grid.name(s) for s in sorted(out, key=lambda s: (s[1], s[0]))]


def _uniq(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def vocabulary(content: RunaljodContent, setup: dict[str, Any]) -> list[str]:
    """The action vocabulary of ``setup`` (normalised), in its documented order."""
    nm = Names.of(content)
    heroes = list(setup["heroes"])
    level = int(setup.get("level") or (2 if setup.get("scenario") == "adventure-level2" else 1))
    gods = list(content.gods)
    god_runes = [f"{g}{GOD_RUNE}" for g in gods]
    hero_runes = {h: list(content.heroes[h].runes) for h in heroes}
    runes = _uniq([r for h in heroes for r in hero_runes[h]] + god_runes)
    deck = content.equipment_l2 if level == 2 else content.equipment_l1
    items = _uniq([i for h in heroes for i in content.heroes[h].equipment] + list(deck))
    weapons = [i for i in items if content.items[i].dice]
    sq = squares(content)
    names = [nm.item[i] for i in items]
    hands = [i for i in items if content.items[i].slot == "hands"]

    def replacing(item: str) -> Iterator[str]:
        """``""`` and every ``" replacing ..."`` an item can be equipped with."""
        yield ""
        if content.items[item].slot != "hands":
            return
        for k in (1, 2):
            for old in combinations(hands, k):
                if k == 2 and any(content.items[o].hands != 1 for o in old):
                    continue
                yield " replacing " + " and ".join(sorted(nm.item[o] for o in old))

    bonus = sum(p.value for h in heroes for sk in _skills_of(content, h)
                if (p := sk.passive) is not None and p.kind == "move_bonus")
    moves = sorted({v + b for h in heroes for v in content.heroes[h].move for b in {0, bonus}},
                   reverse=True)
    out: list[str] = ["pass"] + [f"hand over to {h}" for h in heroes]
    # The active hero's actions (4. Actions Phase).
    out += [f"move {mp} using {r}" for mp in moves for r in runes]
    out += [f"{head} using {r}" for head in ("attack", "reduced attack") for r in runes]
    out += [f"search {s} using {r}" for s in sq for r in runes]
    out += [f"explore using {r}" for r in runes]
    out += [f"equip {nm.item[i]}{rep} using {r}" for i in items for rep in replacing(i)
            for r in runes]
    out += [f"give {n} to {h} using {r}" for n in names for h in heroes for r in runes]
    powers = [(g, g) for g in gods] + [(i, nm.item[i]) for i in items if content.items[i].god]

    def details(power: str) -> list[str]:
        if power == "thor":
            return [""] + [f" on {s}" for s in sq] + [f" on {ALL_ON_TILE}"]
        if power == "jarngreipr":
            return [""] + [f" on {s}" for s in sq]
        if power == "draupnir":
            return [""] + [f" on {h}'s {r}" for h in heroes for r in [*hero_runes[h],
                                                                        *god_runes]]
        return [""]

    out += [f"invoke {g}{d} using {r}" for g in gods for d in details(g) for r in runes]
    out += [f"re-throw the altar using {r}" for r in runes]
    for h in heroes:
        for a, b in combinations(hero_runes[h], 2):
            out += [f"buy {g}{GOD_RUNE} with {a} and {b}" for g in gods]
    gear = [i for i in items if content.items[i].god]
    out += [f"buy {content.items[i].god}{GOD_RUNE} with {r} for {nm.item[i]}"
            for i in gear for h in heroes for r in hero_runes[h]]
    for power, text in powers:
        god = power if power in content.gods else content.items[power].god
        out += [f"invoke {text}{d} with {god}{GOD_RUNE}" for d in details(power)]
    for h in heroes:
        for sid, sk in _skill_ids(content, h):
            if sk.effect is None:
                continue
            out.append(f"skill {nm.skill[sid]}")
    out += [f"assist {h} using {r}" for h in heroes for r in runes]
    out += [f"use {nm.item[i]}" for i in items if content.items[i].use is not None
            and not content.items[i].god]
    if len(heroes) == 2:
        out += [f"2-player card: {_two_player_phrase(content, k)} for {h}"
                for k in range(len(content.two_player.effects)) for h in heroes]
    # Decisions within a phase or an action.
    out += [f"buy {nm.skill[s]}" for h in heroes for s in content.heroes[h].skills]
    out += ["done buying", "recover on my own", "stay down", "keep the throw",
            "repeat the destiny throw"]
    spaces = [f"move {mp}" for mp in moves] + ["attack", "reduced attack"]
    out += [f"remove the wound using {r} on {s}" for r in runes for s in spaces]
    out += ["keep the wound"] + [f"place {r} on interact" for r in runes]
    out += [f"physical check using {r}" for r in runes]
    out += ["keep the frozen token", "fail the check", "suffer the hold",
            "fail the physical check"]
    out += [f"attack {s} with {nm.item[w]}" for s in sq for w in weapons]
    out += [f"step {s}" for s in sq] + ["end move", "keep the roll",
                                        "re-roll with the mark token"]
    out += _upgrade_texts(content, items, nm)
    max_destiny = max((sk.destiny for h in heroes for _, sk in _skill_ids(content, h)),
                      default=0)
    for h in heroes:
        pool = [*hero_runes[h], *god_runes]
        for k in range(1, max_destiny + 1):
            out += ["flip " + " and ".join(c) + " face down" for c in combinations(pool, k)]
    max_up = max([e.value for e in _recover_effects(content)], default=0)
    for h in heroes:
        pool = [*hero_runes[h], *god_runes]
        for k in range(1, max_up + 1):
            out += ["flip " + " and ".join(c) + " face up" for c in combinations(pool, k)]
    out += [f"equip {nm.item[i]}{rep}" for i in items for rep in replacing(i)]
    out += [f"keep {n} in miscellaneous" for n in names]
    out += [f"return {n} to the box" for n in names]
    out += [f"look at the {d} deck" for d in nm.deck.values()]
    out += ["leave it on top", "put it at the bottom", "put it in play", "leave it"]
    out += [f"place {h} on {s}" for h in heroes for s in sq]
    out += [f"give {nm.item[i]} to {h}{rep}" for i in deck for h in heroes
            for rep in replacing(i)]
    kinds = list(content.enemies)
    out += [f"place {nm.enemy[k]} on {s}" for k in kinds for s in sq]
    out += [f"activate {nm.enemy[k]} at {s}" for k in kinds for s in sq]
    for k in kinds:
        out += [f"move {nm.enemy[k]} to {s}" for s in sq]
        if content.enemies[k].size == 2:
            out += [f"move {nm.enemy[k]} to {fp}" for fp in _footprints(sq)]
    return _uniq(out)


def _skill_ids(content: RunaljodContent, hero: str) -> list[tuple[str, Any]]:
    hd = content.heroes[hero]
    return [(slug(sk.name), sk) for sk in (hd.skill_coloured, hd.skill_always)] + [
        (s, content.skills[s]) for s in hd.skills]


def _skills_of(content: RunaljodContent, hero: str) -> list[Any]:
    return [sk for _, sk in _skill_ids(content, hero)]


def _recover_effects(content: RunaljodContent) -> list[Any]:
    """Every effect of the content that recovers destiny (skills, items, cards)."""
    effects: list[Any] = [sk.effect for sk in content.skills.values()]
    for hd in content.heroes.values():
        effects += [hd.skill_coloured.effect, hd.skill_always.effect]
    effects += [it.use for it in content.items.values()]
    effects += [e for c in content.search.values() for e in c.effects]
    effects += list(content.two_player.effects)
    return [e for e in effects if e is not None and e.kind == "recover_destiny"]


def _two_player_phrase(content: RunaljodContent, k: int) -> str:
    eff = content.two_player.effects[k]
    if eff.kind == "heal":
        return f"heal {eff.value}"
    if eff.kind == "recover_destiny":
        return f"recover {eff.value} destiny"
    return f"effect {k + 1}"


def _upgrade_texts(content: RunaljodContent, items: list[str], nm: Names) -> list[str]:
    """``spend upgrades on ...`` for every set of upgrade skills of up to two equipped items
    (the parts ordered by card name, as the game writes them)."""
    with_ups = sorted((i for i in items if content.items[i].upgrades), key=lambda i: nm.item[i])
    out: list[str] = []
    for n in (1, 2):
        for group in combinations(with_ups, n):
            parts = [f"{upgrade_words(u)} ({nm.item[i]})" for i in group
                     for u in content.items[i].upgrades]
            for k in range(1, len(parts) + 1):
                out += ["spend upgrades on " + " and ".join(c) for c in combinations(parts, k)]
    # two copies of one weapon (two hand axes)
    for i in with_ups:
        if content.items[i].hands == 1:
            parts = [f"{upgrade_words(u)} ({nm.item[i]})" for u in content.items[i].upgrades]
            parts = sorted(parts + parts, key=parts.index)
            for k in range(1, len(parts) + 1):
                out += ["spend upgrades on " + " and ".join(c) for c in combinations(parts, k)]
    return out


def _footprints(sq: list[str]) -> list[str]:
    """Two orthogonally adjacent squares in reading order (a large enemy's base)."""
    have = {grid.sq(s) for s in sq}
    out = []
    for s in sorted(have, key=lambda s: (s[1], s[0])):
        for n in ((s[0] + 1, s[1]), (s[0], s[1] + 1)):
            if n in have:
                out.append(f"{grid.name(s)}+{grid.name(n)}")
    return out
