"""Combat from scenario 2 on: readied weapons, the attack action, range, die roll modifiers,
rolling attack dice, attack effects, eliminated undead, covering and experience
(chapter Scenario 2: In the Mist)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.figures import Hero, Undead
from meadhall.games.niflheim.undead import uname

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

UNARMED = (10, 12)
INTENT_AM = {"stationary": 2, "walking": 0, "running": -2}
COVER_AM = {"stationary": 0, "walking": -2, "running": -4}
LOS_AM_CAP = -4


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """One attack a hero may make: target, weapon (None: unarmed), off hand, values."""

    text: str
    hero: str
    undead: int
    weapon: str | None
    off_hand: bool
    ranged: bool
    stun: int
    wound: int


def attack_range(a: grid.Sq, b: grid.Sq) -> int:
    """Determine the Range: squares counted to the target, diagonals as 2."""
    return grid.manhattan(a, b)


def range_modifier(rng: int, pbr: int, rm: int) -> int:
    """-1 for each time the RM must be added to the PBR to reach the target."""
    if rng <= pbr:
        return 0
    return -((rng - pbr + rm - 1) // rm)


def intervening(s: NiflheimState, a: grid.Sq, b: grid.Sq) -> list[grid.Sq]:
    """Squares holding a figure that the line from a to b passes through, nearest first."""
    occ = s.occupancy()
    return [q for q in grid.trace(a, b).between if q in occ]


def los_am(s: NiflheimState, a: grid.Sq, b: grid.Sq, hindering: bool = True
           ) -> tuple[int, list[str]]:
    """Line of Sight Attack Modifier: -2 per figure passed through and per hindering square
    passed through or attacked into (unless the attacker is in or adjacent to it); max -4."""
    total = 0
    why: list[str] = []
    occ = s.occupancy()
    t = grid.trace(a, b)
    for q in t.between:
        if q in occ:
            total -= 2
            why.append(f"through a figure on {grid.name(q)}")
    if hindering:
        for q in (*t.between, b):
            if s.board.hindering(q) and not (q == a or grid.is_orthogonal(q, a)):
                total -= 2
                why.append(f"hindering terrain on {grid.name(q)}")
    return max(total, LOS_AM_CAP), why


def readied(h: Hero) -> list[tuple[str | None, bool]]:
    """Weapons the hero may attack with: ready and off-hand slots, or fists when unarmed."""
    out: list[tuple[str | None, bool]] = []
    if h.ready:
        out.append((h.ready, False))
    if h.off_hand:
        out.append((h.off_hand, True))
    return out or [(None, False)]


def plans(s: NiflheimState, h: Hero, only: int | None = None, prefix: str = ""
          ) -> list[AttackPlan]:
    """Every attack the hero can make now: a revealed undead in LOS, with a readied weapon
    whose values fit the target (H2H when adjacent, ranged otherwise)."""
    if not h.on_map or h.locked_by is not None:
        return []
    out = []
    for u in s.undead.values():
        if u.kind is None or (only is not None and u.id != only):
            continue
        if not s.board.sees(h.at, u.at):
            continue
        adjacent = grid.is_orthogonal(h.at, u.at)
        for w, off in readied(h):
            if w is None:
                if not adjacent:
                    continue
                vals = UNARMED
            else:
                wd = s.content.armoury[w]
                if wd.kind != "weapon":
                    continue
                v = wd.h2h if adjacent else wd.r
                if v is None:
                    continue
                vals = v
                if wd.projectile and not adjacent and not h.huskarl \
                        and h.supplies.get("projectiles", 0) <= 0:
                    continue
            with_ = f"with {w}" if w else "unarmed"
            text = f"{prefix}attack undead {u.id} {with_}" + (" (off hand)" if off else "")
            out.append(AttackPlan(text, h.id, u.id, w, off, not adjacent, vals[0], vals[1]))
    return out


def modifiers(s: NiflheimState, h: Hero, u: Undead, p: AttackPlan, cover: str | None
              ) -> list[tuple[int, str]]:
    """Every DRM of the attack: attack modifiers, LOS AM and range modifier."""
    mods: list[tuple[int, str]] = []
    if u.stunned:
        mods.append((3, "attacking a stunned undead (AM)"))
    if cover is not None:
        mods.append((COVER_AM[cover], f"{cover} Cover marker (AM)"))
    else:
        assert h.intent is not None
        mods.append((INTENT_AM[h.intent], f"declared {h.intent} (AM)"))
    if p.off_hand:
        mods.append((-2, "attacking off hand (AM)"))
    if h.huskarl and h.health < h.max_health:
        mods.append((-2, "wounded huskarl"))
    am, why = los_am(s, h.at, u.at)
    if am:
        mods.append((am, "LOS AM: " + ", ".join(why)))
    if p.ranged and p.weapon is not None:
        wd = s.content.armoury[p.weapon]
        rng = attack_range(h.at, u.at)
        rmod = range_modifier(rng, wd.pbr, wd.rm)
        if rmod:
            mods.append((rmod, f"range {rng} beyond PBR {wd.pbr} (RM {wd.rm})"))
    if s.setup_rules_34() and p.weapon is not None:
        pref = s.preferred(h)
        if p.weapon in pref:
            mods.append((1, "preferred weapon"))
        if h.ready == h.off_hand == p.weapon:
            mods.append((1, "dual wielding the same weapon"))
    return [m for m in mods if m[0] != 0] or []


def resolve(s: NiflheimState, h: Hero, p: AttackPlan, events: list[Event],
            cover: str | None = None) -> None:
    """Resolve an attack: roll the AD one at a time, natural 1 misses, natural 2 wounds the
    first intervening figure, modified rolls at or over S stun and at or over W wound."""
    u = s.undead[p.undead]
    mods = modifiers(s, h, u, p, cover)
    drm = sum(m for m, _ in mods)
    wd = s.content.armoury[p.weapon] if p.weapon else None
    ad = wd.ad if wd else 1
    kind = "ranged" if p.ranged else "H2H"
    drm_text = ", ".join(f"{m:+d} {w}" for m, w in mods) or "no DRM"
    events.append(Event("attack", f"{h.name} attacks {uname(s, u)} ({kind}, "
                        f"{p.weapon or 'unarmed'} {p.stun}/{p.wound}): {drm_text}",
                        S.RESOLVING, {"hero": h.id, "undead": u.id, "drm": drm}))
    between = intervening(s, h.at, u.at)
    lost_prj = False
    for i in range(ad):
        roll = s.d12(f"{h.name}'s attack die {i + 1}", S.ROLLING)
        if roll == 1:
            events.append(Event("roll", "Natural 1: a miss", S.ROLLING, {"roll": 1}))
            lost_prj = lost_prj or bool(wd and wd.projectile and p.ranged)
            continue
        if roll == 2 and between:
            q = between[0]
            events.append(Event("roll", f"Natural 2: the first intervening figure, on "
                                f"{grid.name(q)}, takes 1 wound", S.ROLLING, {"roll": 2}))
            s.wound_figure_at(q, h, events)
            continue
        total = roll + drm
        if p.undead not in s.undead:
            events.append(Event("roll", f"Rolled {roll} (modified {total}): the target is "
                                "already eliminated", S.ROLLING, {"roll": roll}))
            continue
        if total >= p.wound:
            events.append(Event("roll", f"Rolled {roll} (modified {total} ≥ {p.wound}): "
                                "stun and 1 wound", S.ROLLING, {"roll": roll}))
            wound_undead(s, u, h, events)
        elif total >= p.stun:
            events.append(Event("roll", f"Rolled {roll} (modified {total} ≥ {p.stun}): stun",
                                S.ROLLING, {"roll": roll}))
            stun_undead(s, u, events)
        else:
            events.append(Event("roll", f"Rolled {roll} (modified {total}): a miss",
                                S.ROLLING, {"roll": roll}))
    if lost_prj and not h.huskarl and h.supplies.get("projectiles", 0) > 0:
        h.supplies["projectiles"] -= 1
        events.append(Event("projectile", f"{h.name} loses 1 projectile (a natural 1 was rolled)",
                            S.NEW_RULES_34))
    h.marker = "attacked"
    s.recheck_zoc(h, events)


def stun_undead(s: NiflheimState, u: Undead, events: list[Event]) -> None:
    """A stun: the stunned marker (never twice, never on armoured undead) breaks its lock."""
    kind = u.kind or "draugr"
    if "armoured" in s.content.undead[kind].powers:
        events.append(Event("stun", f"{uname(s, u)} is armoured and cannot be stunned",
                            S.EFFECTS))
        return
    if u.stunned:
        events.append(Event("stun", f"{uname(s, u)} is already stunned", S.EFFECTS))
        return
    u.stunned = True
    events.append(Event("stun", f"{uname(s, u)} is stunned", S.EFFECTS, {"undead": u.id}))
    s.break_locks(u.id, events)


def wound_undead(s: NiflheimState, u: Undead, by: Hero | None, events: list[Event]) -> None:
    """A wound reduces health by 1 and stuns; at zero health the undead is eliminated."""
    u.wounds += 1
    kind = u.kind or "draugr"
    ud = s.content.undead[kind]
    if u.wounds >= ud.hv:
        del s.undead[u.id]
        if not u.orange:
            s.discard.append(kind)
        s.break_locks(u.id, events)
        xp = ""
        if by is not None and s.lap == 1:
            by.xp += ud.xp
            xp = f"; {by.name} gains {ud.xp} XP"
            if ud.glory and not by.huskarl:
                by.glory += ud.glory
                xp += f" and {ud.glory} Glory"
        elif by is not None:
            xp = " (no XP after the first lap of the round track)"
        events.append(Event("kill", f"{ud.name} {u.id} is eliminated and its marker goes to the "
                            f"discard area{xp}", S.ELIMINATED, {"undead": u.id}))
        return
    events.append(Event("wound", f"{uname(s, u)} takes a wound ({ud.hv - u.wounds} health "
                        "left)", S.EFFECTS, {"undead": u.id}))
    stun_undead(s, u, events)
