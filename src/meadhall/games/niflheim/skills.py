"""Skills in play (Unlocking Skills with Experience (XP), Glory Cost of Skills Example).

The Tome of Knowledge's Character Sheets and Skills chapter is not printed, so every skill's effect
is authored in the content (``skills``, marked authored); only Blade Flurry's "/ 2" Glory cost is
the rulebook's. Passive skills add a DRM to the rolls they name; used skills (a Glory cost after
the slash) are offered as a variant of an attack and pay their Glory when the attack is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.content import SkillData
from meadhall.games.niflheim.figures import Hero

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

MAX_CORRUPTION = 10


def owned(s: NiflheimState, h: Hero) -> list[tuple[str, SkillData]]:
    """The hero's unlocked skills with their effects."""
    return [(n, s.content.skills[n]) for n in h.skills if n in s.content.skills]


def passive(s: NiflheimState, h: Hero, tags: set[str]) -> list[tuple[int, str]]:
    """DRMs of the hero's passive skills that apply to a roll described by ``tags``."""
    return [(sk.drm, f"skill {n}") for n, sk in owned(s, h)
            if sk.effect == "drm" and sk.glory == 0 and (sk.when == "any" or sk.when in tags)]


def attack_tags(s: NiflheimState, h: Hero, weapon: str | None, ranged: bool, rng: int) -> set[str]:
    """Which skill conditions an attack meets (h2h/ranged, preferred, within PBR)."""
    tags = {"ranged" if ranged else "h2h"}
    if weapon is not None and weapon in s.preferred(h):
        tags.add("preferred")
        if ranged:
            tags.add("preferred_ranged")
    if ranged and weapon is not None and rng <= s.content.armoury[weapon].pbr:
        tags.add("pbr")
    return tags


def can_pay(s: NiflheimState, h: Hero, glory: int) -> bool:
    """A skill can be used while its cost can be covered on the Fate track (at most 10
    Corruption), and only while the Fate track is in use (see rulings)."""
    return (not h.huskarl and s.fate_track_in_use()
            and -(h.glory - glory) <= MAX_CORRUPTION)


def usable(s: NiflheimState, h: Hero, tags: set[str]) -> list[str]:
    """Used skills (a Glory cost) the hero may add to an attack described by ``tags``."""
    return [n for n, sk in owned(s, h)
            if sk.glory > 0 and sk.effect in ("extra_die", "boost")
            and (sk.when == "any" or sk.when in tags) and can_pay(s, h, sk.glory)]


def carries_shield(s: NiflheimState, h: Hero, readied: bool = True) -> str | None:
    """Why the hero counts as having a shield (a readied one, or with ``readied=False`` one
    carried anywhere, as in "any figure carrying a shield imposes a -1 DRM"; or an adjacent
    huskarl's authored Shield Wall skill), or None."""
    where = (h.ready, h.off_hand) if readied else tuple(h.items())
    if any(x and s.content.armoury[x].shield for x in where):
        return "shield"
    if h.at is None:
        return None
    for o in s.heroes.values():
        if o.id != h.id and o.on_map and s.board.adjacent(o.at, h.at) and any(
                sk.effect == "shield_wall" for _, sk in owned(s, o)):
            return f"{o.name}'s Shield Wall skill"
    return None


CORRUPTION_MP = 5
"""The Fate track's printed effect: at 5 Corruption, -1 MP."""


def change_fate(s: NiflheimState, h: Hero, delta: int, events: list[Event]) -> None:
    """Move the hero's Fate track by ``delta`` Glory (below zero: Corruption, at most 10).
    Its effects "take effect as soon as that position is reached, and lose effect as soon as
    the Glory / Corruption level drops": an active hero who reaches 5 Corruption loses 1 of
    the MP still to spend at once, and gets it back when the level drops below 5 again."""
    h.glory = max(h.glory + delta, -MAX_CORRUPTION)
    if s.active != h.id or h.intent is None:
        return
    penalised = h.corruption >= CORRUPTION_MP
    if penalised and not h.fate_mp and h.mp > 0:
        h.mp -= 1
        h.fate_mp = True
        events.append(Event("fate", f"{h.name} reaches {h.corruption} Corruption: -1 MP at "
                            f"once ({h.mp} left)", S.GLORY_SKILLS, {"hero": h.id}))
    elif not penalised and h.fate_mp:
        h.mp += 1
        h.fate_mp = False
        events.append(Event("fate", f"{h.name}'s Corruption drops to {h.corruption}: the -1 MP "
                            f"no longer applies ({h.mp} left)", S.GLORY_SKILLS, {"hero": h.id}))


SECTION = S.UNLOCKING
