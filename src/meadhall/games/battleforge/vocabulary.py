"""Every action text a BattleForge game with a given setup can ever offer, in a fixed order
(the dense action numbering of the RL adapters; grammar in docs/formats/battleforge.md).

Templates are listed decision by decision, each expanded over the setup's content in the order
the content gives it: rondel spaces 1-6, the scenario's areas in map order (rows top to bottom,
columns left to right), the setup's champions in seat order, minions by type 1-3 and standee
letter A-D, Thor's Faces in the printed order, the Special Skills of the setup's Forms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .basics import (
    ATTRIBUTE_MAX,
    CUBES_PER_COLOUR,
    Board,
    minion_letter,
)
from .champions_phase import ATTRIBUTE_TEXT
from .components import BattleForgeContent

ICONS = ("melee", "ranged", "ritual", "heal", "defense", "reroll")
HEAT_DAMAGE = 4  # Heat tokens: "they take 4 Damage"


def step_numbers(steps: Iterable[Mapping[str, Any]], key: str,
                 lose: bool | None = None) -> list[int]:
    """Every ``key`` value in card steps (and their nested ``then`` steps); with ``lose`` only
    those whose step does (True) or does not (False) say "Lose X Health Points"."""
    out: list[int] = []
    for st in steps:
        is_lose = bool(st.get("lose")) or st.get("op") == "lose"
        if key in st and isinstance(st[key], int) and (lose is None or is_lose == lose):
            out.append(st[key])
        for sub in ("then",):
            if isinstance(st.get(sub), list):
                out += step_numbers(st[sub], key, lose)
    return out


def damage_limits(content: BattleForgeContent, champions: int) -> tuple[int, int]:
    """The most Damage one Trigger Event can deal (Heat, minion attacks, Thor's and the Event
    cards' Damage) and the most Health one loss can take without Defense (the cards' "lose",
    Counterattacks, and 2 per Frost Cube returned: at most the whole Frost Reserve, 2 per
    Champion)."""
    cards = [*content.thor_cards.values(), *content.general_events.values(),
             *(c for group in content.scenario_events.values() for c in group.values())]
    steps = [st for c in cards for st in c.steps]
    sides = [s for m in content.minion_cards.values() for s in (m.standard, m.overheated)]
    damage = max([HEAT_DAMAGE, *(s.damage for s in sides),
                  *step_numbers(steps, "damage", lose=False),
                  *(st["amount"] for st in steps if st.get("op") == "damage")])
    loss = max([2 * 2 * champions, content.god.counter, *(s.counter for s in sides),
                *step_numbers(steps, "damage", lose=True),
                *(st["amount"] for st in steps if st.get("op") == "lose")])
    return damage, loss


_KNOWN: dict[tuple[Any, ...], frozenset[str]] = {}


def known(content: BattleForgeContent, board: Board, setup: Mapping[str, Any]) -> frozenset[str]:
    """The vocabulary of ``setup`` as a set, computed once per setup."""
    key = (id(content), setup["scenario"], tuple(setup["heroes"]),
           tuple(setup.get("berserkers") or ()))
    found = _KNOWN.get(key)
    if found is None:
        found = _KNOWN[key] = frozenset(vocabulary(content, board, setup))
    return found


def vocabulary(content: BattleForgeContent, board: Board, setup: Mapping[str, Any]
               ) -> list[str]:
    """Every action text of a game with ``setup`` (a normalised setup), in the documented
    order; duplicates across decisions ("pass", "skill ...") appear once, first."""
    heroes = list(setup["heroes"])
    n = len(heroes)
    sc = content.scenarios[setup["scenario"]]
    names = [content.human_forms[h].name for h in heroes]
    berserkers = list(setup.get("berserkers") or [])
    skills: list[str] = []
    for i, h in enumerate(heroes):
        hf = content.human_forms[h]
        bz = berserkers[i] if i < len(berserkers) else hf.berserker
        skills += [hf.skill.name, content.berserker_forms[bz].skill.name]
    skills = list(dict.fromkeys(skills))
    minions = [f"{content.minion_cards[sc.minions[t]].model} {minion_letter(f'X{j + 1}')}"
               for t in (1, 2, 3) for j in range(n)]
    minions = list(dict.fromkeys(minions))
    faces = [f"Thor's {f} face" for f in content.god.faces]
    areas = board.areas()
    thor_areas = [a for a in areas if a not in board.god_inaccessible]
    spaces = range(1, 7)
    # Dice in one attack: every cube of a colour, the whole Temporary and Frost reserves
    # (8 each at most, 2 per Champion), a Greater Boon (+2) and the Purple Face (+1) as white
    # dice; the Attributes' red dice plus a skill's 2 and the green dice.
    white = CUBES_PER_COLOUR + 2 * 2 * n + 2 + 1
    red = ATTRIBUTE_MAX + 2
    green = ATTRIBUTE_MAX
    dice = white + red + green
    most_damage, most_loss = damage_limits(content, n)

    out: list[str] = []
    # The turn (The Champions Phase).
    for kind in ("melee", "ranged"):
        out += [f"{kind} space {i} at {t}" for i in spaces for t in [*minions, *faces]]
    out += [f"ritual space {i}" for i in spaces]
    out += [f"heal space {i}" for i in spaces]
    out += [f"heal {name} with space {i}" for name in names for i in spaces]
    out += [f"move space {i}" for i in spaces]
    out += ["relocate", "taunt", *(f"skill {k}" for k in skills), "end turn"]
    # Moving.
    out += [f"step to {a}" for a in areas] + ["stop moving"]
    # Placing cubes, Boons, Attributes.
    out += [f"place in space {i}" for i in spaces]
    out += [f"{icon} boon in space {i}" for icon in ICONS for i in spaces]
    out += [f"greater boon in space {i}" for i in spaces]
    out += [ATTRIBUTE_TEXT[a] for a in ("green", "red", "movement")]
    out += [f"recharge {k}" for k in skills]
    # Re-placing cubes after an action from a space with temporary/frost cubes.
    out += [f"{what} to space {i}" for i in spaces
            for what in ("Action Cube", "discarded cube")]
    # Relocate and Stun.
    for word in ("cube", "temporary cube"):
        out += [f"relocate {word} from space {a} to space {b}" for a in spaces for b in spaces
                if a != b]
    out += ["done relocating"]
    out += [f"set aside {word} from space {i}" for word in ("cube", "temporary cube",
                                                            "frost cube") for i in spaces]
    # Attack Resolution.
    out += [f"roll {w} white {r} red {g} green" for w in range(white, -1, -1)
            for r in range(red, -1, -1) for g in range(green, -1, -1) if w + r + g >= 1]
    out += [f"reroll with space {i}" for i in spaces] + ["keep the dice"]
    out += [f"{verb} die {i}" for verb in ("reroll", "change") for i in range(1, dice + 1)]
    out += ["reroll the chosen dice", "change the chosen dice"]
    out += [f"turn die {i} to counterattack" for i in range(1, dice + 1)]
    out += ["pass"]
    # Damage, Defense and Health loss.
    out += [f"use {k} for {name}" for k in skills for name in names]
    out += [f"defend with space {i}" for i in spaces]
    out += [f"take {k} damage" for k in range(1, most_damage + 1)]
    out += [f"defend {k} damage" for k in range(1, most_damage + 1)]
    out += [f"lose {k} health" for k in range(1, most_loss + 1)]
    # The Ironborn Phase: minions, Thor, Approaching and Distancing.
    out += [f"{m} to {a}" for m in minions for a in areas]
    out += [f"resolve attack of {m}" for m in minions]
    out += [f"Thor to {a}" for a in thor_areas]
    out += [f"push {who} to {a}" for who in [*names, *minions] for a in areas]
    out += [f"shift to {a}" for a in areas]
    return list(dict.fromkeys(out))
