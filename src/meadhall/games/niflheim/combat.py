"""Combat from scenario 2 on: readied weapons, the attack action, range, die roll modifiers,
rolling attack dice, attack effects, eliminated undead, covering and experience
(chapter Scenario 2: In the Mist)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim import skills
from meadhall.games.niflheim.figures import Hero, Undead
from meadhall.games.niflheim.names import names
from meadhall.games.niflheim.rolls import d12
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
    skill: str | None = None
    """A used skill (Glory cost) added to this attack."""


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


def needed(value: int, drm: int) -> int | None:
    """The natural roll needed for a modified roll of ``value``: a natural 1 always misses, and
    more than 12 cannot be rolled (Rolling Attack Dice)."""
    n = max(2, value - drm)
    return n if n <= 12 else None


def odds(stun: int | None, wound: int | None) -> tuple[str, str]:
    """The sentence and the short note of what an attack die needs."""
    parts, note = [], []
    if stun is not None and stun == wound:
        return f"{stun}+ stuns and wounds", f"{stun}+"
    if stun is not None and (wound is None or stun < wound):
        parts.append(f"{stun}+ stuns")
        note.append(f"{stun}+")
    if wound is not None:
        parts.append(f"{wound}+ wounds")
        note.append(f"{wound}+")
    if not parts:
        return "no roll can stun or wound", "—"
    return ", ".join(parts), "/".join(note)


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
    n = names(s.content)
    for u in s.undead.values():
        if u.kind is None or (only is not None and u.id != only):
            continue
        if not s.board.sees(h.at, u.at):
            continue
        adjacent = s.board.adjacent(h.at, u.at)
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
                # "For weapons using PRJs, you cannot make an attack without at least 1 PRJ
                # available": any attack, hand to hand too (see rulings).
                if wd.projectile and not h.huskarl and h.supplies.get("projectiles", 0) <= 0:
                    continue
            with_ = f"with {n.item[w]}" if w else "unarmed"
            text = f"{prefix}attack undead {u.id} {with_}" + (" (off hand)" if off else "")
            out.append(AttackPlan(text, h.id, u.id, w, off, not adjacent, vals[0], vals[1]))
    # Used skills are offered as variants, after every plain attack.
    for p in list(out):
        tags = skills.attack_tags(s, h, p.weapon, p.ranged, attack_range(h.at, s.undead[p.undead].at))
        for name in skills.usable(s, h, tags):
            out.append(AttackPlan(f"{p.text} using {n.skill[name]}", p.hero, p.undead, p.weapon,
                                  p.off_hand, p.ranged, p.stun, p.wound, name))
    return out


def attacker_ams(h: Hero, cover: str | None) -> list[tuple[int, str]]:
    """The attacker's own DRMs on every attack roll, a phial's throw and burst included: the
    declared intent's AM (a covering attack: its Cover marker's instead) and a wounded
    huskarl's -2 ("Wounded huskarls receive a -2 DRM when performing an attack")."""
    mods: list[tuple[int, str]] = []
    if cover is not None:
        mods.append((COVER_AM[cover], f"{cover} Cover marker (AM)"))
    else:
        assert h.intent is not None
        mods.append((INTENT_AM[h.intent], f"declared {h.intent} (AM)"))
    if h.huskarl and h.health < h.max_health:
        mods.append((-2, "wounded huskarl"))
    return mods


def modifiers(s: NiflheimState, h: Hero, u: Undead, p: AttackPlan, cover: str | None
              ) -> list[tuple[int, str]]:
    """Every DRM of the attack: attack modifiers, LOS AM and range modifier."""
    mods: list[tuple[int, str]] = []
    if u.stunned:
        mods.append((3, "attacking a stunned undead (AM)"))
    mods += attacker_ams(h, cover)
    if p.off_hand:
        mods.append((-2, "attacking off hand (AM)"))
    am, why = los_am(s, h.at, u.at)
    if am:
        mods.append((am, "LOS AM: " + ", ".join(why)))
    if p.ranged and p.weapon is not None:
        wd = s.content.armoury[p.weapon]
        rng = attack_range(h.at, u.at)
        rmod = range_modifier(rng, wd.pbr, wd.rm)
        if rmod:
            mods.append((rmod, f"range {rng} beyond PBR {wd.pbr} (RM {wd.rm})"))
    # A preferred weapon's +1 comes from the Preferred Weapon skill ("the skill 'Preferred
    # Weapon' usually grants a +1 DRM"), a passive skill below; see rulings.
    if s.setup_rules_34() and p.weapon is not None and h.ready == h.off_hand == p.weapon:
        mods.append((1, "dual wielding the same weapon"))
    assert h.at is not None
    mods += skills.passive(s, h, skills.attack_tags(s, h, p.weapon, p.ranged,
                                                    attack_range(h.at, u.at)))
    if p.skill is not None and s.content.skills[p.skill].effect == "boost":
        mods.append((s.content.skills[p.skill].drm, f"skill {p.skill}"))
    return [m for m in mods if m[0] != 0] or []


def resolve(s: NiflheimState, h: Hero, p: AttackPlan, events: list[Event],
            cover: str | None = None) -> None:
    """Resolve an attack: roll the AD one at a time, natural 1 misses, natural 2 wounds the
    first intervening figure, modified rolls at or over S stun and at or over W wound."""
    u = s.undead[p.undead]
    if p.skill is not None:
        use_skill(s, h, p.skill, events)
    mods = modifiers(s, h, u, p, cover)
    drm = sum(m for m, _ in mods)
    wd = s.content.armoury[p.weapon] if p.weapon else None
    ad = wd.ad if wd else 1
    if p.skill is not None and s.content.skills[p.skill].effect == "extra_die":
        ad += 1
    kind = "ranged" if p.ranged else "H2H"
    drm_text = ", ".join(f"{m:+d} {w}" for m, w in mods) or "no DRM"
    events.append(Event("attack", f"{h.name} attacks {uname(s, u)} ({kind}, "
                        f"{p.weapon or 'unarmed'} {p.stun}/{p.wound}): {drm_text}",
                        S.RESOLVING, {"hero": h.id, "undead": u.id, "drm": drm}))
    between = intervening(s, h.at, u.at)
    lost_prj = False
    hit = False
    rune = h.runes.get(p.weapon or "")
    stun_need = None if "armoured" in s.content.undead[u.kind or "draugr"].powers \
        else needed(p.stun, drm)
    wound_need = needed(p.wound, drm)
    if rune == "red" and stun_need is not None:
        wound_need = stun_need
    need = odds(stun_need, wound_need)[0]
    for i in range(ad):
        roll = s.d12(f"{h.name}'s attack die {i + 1} ({need})", S.ROLLING, drm)
        dice = [d12(roll, drm)]
        if roll == 1:
            events.append(Event("roll", "Natural 1: a miss", S.ROLLING,
                                {"roll": 1, "dice": dice}))
            lost_prj = lost_prj or bool(wd and wd.projectile and p.ranged)
            continue
        if roll == 2 and between:
            q = between[0]
            events.append(Event("roll", f"Natural 2: the first intervening figure, on "
                                f"{grid.name(q)}, takes 1 wound", S.ROLLING,
                                {"roll": 2, "dice": dice}))
            s.wound_figure_at(q, h, events)
            continue
        total = roll + drm
        if p.undead not in s.undead:
            events.append(Event("roll", f"Rolled {roll} (modified {total}): the target is "
                                "already eliminated", S.ROLLING, {"roll": roll, "dice": dice}))
            continue
        if total >= p.stun and total < p.wound and rune == "red":
            events.append(Event("rune", "The red (Fire) runestone turns the stun into a wound",
                                S.NEW_RULES_5))
            total = p.wound
        if total >= p.wound:
            events.append(Event("roll", f"Rolled {roll} (modified {total} ≥ {p.wound}): "
                                "stun and 1 wound", S.ROLLING, {"roll": roll, "dice": dice}))
            hit = True
            wound_undead(s, u, h, events)
        elif total >= p.stun:
            hit = True
            events.append(Event("roll", f"Rolled {roll} (modified {total} ≥ {p.stun}): stun",
                                S.ROLLING, {"roll": roll, "dice": dice}))
            stun_undead(s, u, events)
        else:
            events.append(Event("roll", f"Rolled {roll} (modified {total}): a miss",
                                S.ROLLING, {"roll": roll, "dice": dice}))
    if hit and wd and wd.shield and p.undead in s.undead and s.setup_rules_34():
        shield_push(s, h, s.undead[p.undead], events)
    if hit and rune:
        runestone(s, h, u, rune, cover is None, events)
    if lost_prj and not h.huskarl and h.supplies.get("projectiles", 0) > 0:
        h.supplies["projectiles"] -= 1
        events.append(Event("projectile", f"{h.name} loses 1 projectile (a natural 1 was rolled)",
                            S.NEW_RULES_34))
    h.marker = "attacked"
    s.recheck_zoc(h, events)


def use_skill(s: NiflheimState, h: Hero, name: str, events: list[Event]) -> None:
    """Use a skill with a Glory cost: the Fate track moves down by the cost, into Corruption
    below zero Glory (Glory Cost of Skills Example), with its effects at once."""
    from meadhall.games.niflheim.campaign import check_glory

    sk = s.content.skills[name]
    check_glory(h, sk.glory)
    after = h.glory - sk.glory
    fate = f"{after} Glory" if after >= 0 else f"{-after} Corruption"
    events.append(Event("skill", f"{h.name} uses {name} ({sk.text}; authored effect) for "
                        f"{sk.glory} Glory: now {fate}", S.GLORY_SKILLS,
                        {"hero": h.id, "skill": name}))
    skills.change_fate(s, h, -sk.glory, events)


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
    s.moved(heroes=False)
    events.append(Event("stun", f"{uname(s, u)} is stunned", S.EFFECTS, {"undead": u.id}))
    s.break_locks(u.id, events)


def wound_undead(s: NiflheimState, u: Undead, by: Hero | None, events: list[Event]) -> None:
    """A wound reduces health by 1 and stuns; at zero health the undead is eliminated."""
    u.wounds += 1
    kind = u.kind or "draugr"
    ud = s.content.undead[kind]
    if u.wounds >= ud.hv:
        del s.undead[u.id]
        s.moved(heroes=False)
        if not u.orange:
            s.discard.append(kind)
        s.break_locks(u.id, events)
        xp = ""
        if by is not None and s.lap == 1:
            by.xp += ud.xp
            xp = f"; {by.name} gains {ud.xp} XP"
        elif by is not None:
            xp = " (no XP after the first lap of the round track)"
        # Glory for the killing blow is not limited to the first lap (only XP from kills is).
        if by is not None and ud.glory and not by.huskarl and s.fate_track_in_use():
            skills.change_fate(s, by, ud.glory, events)
            xp += f"; {by.name} gains {ud.glory} Glory"
        s.tally = {**s.tally, "kills": s.tally["kills"] + 1}  # copies share the old tally
        # kind "kill" with by/enemy/enemy_type when a hero dealt the blow (the lab counts these).
        data = {"undead": u.id, "enemy": f"undead{u.id}", "enemy_type": kind}
        if by is not None:
            data["by"] = by.id
        where = ("an orange force, it does not return to the undead pool" if u.orange
                 else "its marker goes to the discard area")
        events.append(Event("kill" if by is not None else "eliminated", f"{ud.name} {u.id} is "
                            f"eliminated: {where}{xp}", S.ELIMINATED, data))
        return
    events.append(Event("wound", f"{uname(s, u)} takes a wound ({ud.hv - u.wounds} health "
                        "left)", S.EFFECTS, {"undead": u.id}))
    stun_undead(s, u, events)


# ----------------------------------------------------------------------------- shields
def shield_push(s: NiflheimState, h: Hero, u: Undead, events: list[Event]) -> None:
    """Shields: a successful attack with a shield pushes the target 1 orthogonally adjacent
    square away from the attacker; with no unoccupied, unobstructed square it is stunned."""
    assert h.at is not None
    dx, dy = u.at[0] - h.at[0], u.at[1] - h.at[1]
    dirs = [(1 if dx > 0 else -1, 0)] if dx else []
    dirs += [(0, 1 if dy > 0 else -1)] if dy else []
    occ = s.occupancy()
    for d in dirs:
        q = (u.at[0] + d[0], u.at[1] + d[1])
        if s.board.inside(q) and not s.board.blocks_move(q) and q not in occ \
                and not s.board.walled(u.at, q):
            u.at = q
            s.moved(heroes=False)
            events.append(Event("push", f"The shield pushes {uname(s, u)} to {grid.name(q)}",
                                S.NEW_RULES_34, {"undead": u.id, "to": grid.name(q)}))
            s.break_locks_if_apart(u, events)
            return
    if "armoured" in s.content.undead[u.kind or "draugr"].powers:
        events.append(Event("push", f"{uname(s, u)} cannot be pushed, and being armoured it "
                            "cannot be stunned instead", S.NEW_RULES_34, {"undead": u.id}))
        return
    events.append(Event("push", f"{uname(s, u)} cannot be pushed: it is stunned instead",
                        S.NEW_RULES_34, {"undead": u.id}))
    stun_undead(s, u, events)


# ----------------------------------------------------------------------------- runestones
def runestone(s: NiflheimState, h: Hero, u: Undead, rune: str, own_turn: bool,
              events: list[Event]) -> None:
    """Runestones after a hit: black pushes (or stuns), white grants a 1-square move, blue stuns
    an adjacent undead of the players' choice (red acts on each die)."""
    if rune == "black" and u.id in s.undead:
        events.append(Event("rune", "The black (Earth) runestone strikes", S.NEW_RULES_5))
        shield_push(s, h, u, events)
    elif rune == "white" and own_turn and h.on_map:
        h.free_step = True
        events.append(Event("rune", f"The white (Air) runestone: {h.name} may move 1 square",
                            S.NEW_RULES_5, {"hero": h.id}))
    elif rune == "blue":
        near = [x for x in s.undead.values() if x.id != u.id and not x.stunned
                and s.board.adjacent(x.at, u.at)
                and "armoured" not in s.content.undead[x.kind or "draugr"].powers]
        if len(near) > 1:
            s.ask_blue([x.id for x in near])
        elif near:
            events.append(Event("rune", "The blue (Water) runestone stuns an adjacent undead",
                                S.NEW_RULES_5))
            stun_undead(s, near[0], events)


# ----------------------------------------------------------------------------- phials
PHIAL_MAX_RANGE = 8
DEVIATION = {1: (0, -1), 2: (1, -1), 3: (1, 0), 4: (1, 1), 5: (0, 1), 6: (-1, 1), 7: (-1, 0),
             8: (-1, -1)}


PHIALS = {"holy_water": "holy water", "greek_fire": "greek fire"}


def phials(h: Hero) -> list[str]:
    """Phials the hero can throw: a Holy Water Phial on the supplies track, a Greek Fire Phial
    carried as gear (Phial Weapon Attacks)."""
    out = []
    if h.supplies.get("holy_water", 0) > 0:
        out.append("holy_water")
    if h.carries("greek_fire"):
        out.append("greek_fire")
    return out


def phial_targets(s: NiflheimState, h: Hero, only: int | None = None, prefix: str = ""
                  ) -> list[str]:
    """Throw a phial (scenario 3 and 4 rules) at a square in LOS up to range 8; the squares
    offered are those whose burst would reach a revealed undead (``only``: that undead; see
    rulings). A covering hero's throws begin with ``prefix``."""
    if not s.setup_rules_34() or h.locked_by is not None or not h.on_map:
        return []
    kinds = phials(h)
    if not kinds:
        return []
    assert h.at is not None
    squares: set[grid.Sq] = set()
    for u in s.undead.values():
        if u.kind is None or (only is not None and u.id != only):
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (u.at[0] + dx, u.at[1] + dy)
                if (s.board.inside(q) and not s.board.blocks_move(q)
                        and 0 < attack_range(h.at, q) <= PHIAL_MAX_RANGE
                        and s.board.sees(h.at, q)):
                    squares.add(q)
    ordered = sorted(squares, key=lambda q: (q[1], q[0]))
    return [f"{prefix}throw {PHIALS[k]} at {grid.name(q)}" for k in kinds for q in ordered]


def throw_phial(s: NiflheimState, h: Hero, target: grid.Sq, events: list[Event],
                kind: str = "holy_water", cover: str | None = None) -> None:
    """Phial Weapon Attacks: roll the throw hit number (the range, with AMs and LOS AMs), deviate
    on a miss, then attack the figures in the 9-square burst with 1 AD at the phial's S/W. A
    covering hero throws with its Cover marker's AM (Covering)."""
    assert h.at is not None and h.intent is not None
    wd = s.content.armoury[kind]
    assert wd.aoe is not None
    what = PHIALS[kind]
    if kind == "holy_water":
        h.supplies["holy_water"] -= 1
    else:
        from meadhall.games.niflheim.heroes import take_item

        take_item(h, kind)  # a Greek Fire Phial is used up when thrown (authored)
    rng = attack_range(h.at, target)
    # "All usual AMs and LOS AMs apply" to the throw (Throwing Phial Weapons).
    mods = attacker_ams(h, cover)
    los, why = los_am(s, h.at, target)
    if los:
        mods.append((los, "LOS AM: " + ", ".join(why)))
    drm = sum(m for m, _ in mods)
    drm_text = ", ".join(f"{m:+d} {w}" for m, w in mods if m) or "no DRM"
    hit = needed(rng, drm)
    roll = s.d12(f"{h.name}'s phial throw ({f'{hit}+' if hit else 'nothing'} lands on target)",
                 S.PHIAL, drm)
    total = roll + drm
    final = target
    dice = [d12(roll, drm)]
    if roll != 1 and total >= rng:
        events.append(Event("phial", f"{h.name} throws {what} at {grid.name(target)} "
                            f"({drm_text}): rolled {roll} (modified {total} ≥ range {rng}), "
                            "on target", S.PHIAL, {"hero": h.id, "dice": dice, "drm": drm}))
    else:
        final, rolled = deviate(s, target)
        events.append(Event("phial", f"{h.name} throws {what} at {grid.name(target)} "
                            f"({drm_text}): rolled {roll} (modified {total}, needs {rng}): it "
                            f"deviates to {grid.name(final)}", S.PHIAL,
                            {"hero": h.id, "dice": dice + [d12(r) for r in rolled],
                             "drm": drm}))
    burst(s, h, final, wd.aoe, events, kind, cover)
    h.marker = "attacked"
    s.recheck_zoc(h, events)


def deviate(s: NiflheimState, target: grid.Sq) -> tuple[grid.Sq, list[int]]:
    """Phial Deviation: 1-8 shift one square per the chart; 9-12 two squares in a direction
    rolled again (9-12 re-rolled); a wall or obstructive square re-rolls from scratch.
    Returns where the phial lands and every deviation die rolled."""
    rolled: list[int] = []
    for _ in range(100):
        r = s.d12("phial deviation (1-8: one square that way, 9-12: two squares)",
                  S.NEW_RULES_34)
        rolled.append(r)
        dist = 1
        if r >= 9:
            dist = 2
            r = 9
            while r >= 9:
                r = s.d12("phial deviation direction (9-12 rolled again)", S.NEW_RULES_34)
                rolled.append(r)
        d = DEVIATION[r]
        q = (target[0] + d[0] * dist, target[1] + d[1] * dist)
        # "occupied by a wall, closed door or obstructive terrain": every obstructive square,
        # the dotted red ones that do not block LOS included (Terrain).
        if s.board.inside(q) and not s.board.blocks_move(q):
            return q, rolled
    return target, rolled


def burst(s: NiflheimState, h: Hero, at: grid.Sq, values: tuple[int, int],
          events: list[Event], kind: str = "holy_water", cover: str | None = None) -> None:
    """Resolve a separate 1 AD attack against every figure in the 3x3 burst: holy water harms
    only undead; Greek fire (authored) also attacks heroes, a modified roll at or over W wounding
    them. Unrevealed undead are revealed first; no LOS AM for hindering terrain."""
    from meadhall.games.niflheim.undead import draw

    what = PHIALS[kind]
    area = [(at[0] + dx, at[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    targets = [u for u in list(s.undead.values()) if u.at in area]
    for u in targets:
        if u.kind is None:
            u.kind = draw(s)
            events.append(Event("reveal", f"The burst reveals {uname(s, u)}", S.REVEALING,
                                {"undead": u.id, "kind": u.kind}))
    bonus = skills.passive(s, h, {"phial"})
    own = sum(m for m, _ in attacker_ams(h, cover)) + sum(m for m, _ in bonus)
    for u in targets:
        if u.id not in s.undead:
            continue
        drm = own + (3 if u.stunned else 0)
        need = odds(needed(values[0], drm), needed(values[1], drm))[0]
        roll = s.d12(f"{what} against {uname(s, u)} ({need})", S.PHIAL, drm)
        data = {"undead": u.id, "roll": roll, "dice": [d12(roll, drm)]}
        total = roll + drm
        if roll != 1 and total >= values[1]:
            events.append(Event("roll", f"{what.capitalize()} on {uname(s, u)}: {roll} (modified "
                                f"{total} ≥ {values[1]}): stun and 1 wound", S.PHIAL, data))
            wound_undead(s, u, h, events)
        elif roll != 1 and total >= values[0]:
            events.append(Event("roll", f"{what.capitalize()} on {uname(s, u)}: {roll} (modified "
                                f"{total} ≥ {values[0]}): stun", S.PHIAL, data))
            stun_undead(s, u, events)
        else:
            events.append(Event("roll", f"{what.capitalize()} on {uname(s, u)}: {roll} (modified "
                                f"{total}): no effect", S.PHIAL, data))
    if kind != "greek_fire":
        return
    for o in [x for x in s.heroes.values() if x.on_map and x.at in area]:
        drm = own
        if skills.carries_shield(s, o, readied=False):
            drm -= 1
        wound = needed(values[1], drm)
        roll = s.d12(f"greek fire against {o.name} ({f'{wound}+' if wound else 'nothing'} "
                     "wounds)", S.PHIAL, drm)
        data = {"hero": o.id, "roll": roll, "dice": [d12(roll, drm)]}
        total = roll + drm
        if roll != 1 and total >= values[1]:
            events.append(Event("roll", f"Greek fire on {o.name}: {roll} (modified {total} ≥ "
                                f"{values[1]}): 1 wound", S.PHIAL, data))
            s.wound_hero(o, events, S.PHIAL, by=h.id, by_type="greek fire")
        else:
            events.append(Event("roll", f"Greek fire on {o.name}: {roll} (modified {total}): "
                                "no effect", S.PHIAL, data))


# ----------------------------------------------------------------------------- spectral bow
def bow_targets(s: NiflheimState, u: Undead, at: grid.Sq | None = None) -> list[Hero]:
    """Spectral Bow: the closest heroes in LOS, not through hindering terrain squares (a hero in
    hindering terrain can be targeted); the arrow passes through other undead."""
    out: list[tuple[int, Hero]] = []
    src = u.at if at is None else at
    for h in s.heroes.values():
        if not h.on_map or not s.board.sees(src, h.at):
            continue
        t = grid.trace(src, h.at)
        if any(s.board.hindering(q) for q in t.between):
            continue
        occ = s.occupancy()
        if any(occ.get(q, "").startswith(("h:", "f:")) for q in t.between):
            continue  # only undead can be shot through
        out.append((attack_range(src, h.at), h))
    if not out:
        return []
    best = min(d for d, _ in out)
    return [h for d, h in out if d == best]


def shoot(s: NiflheimState, u: Undead, h: Hero, events: list[Event]) -> None:
    """The bogmaðr's Spectral Bow: 1 AD, wound on 10 (no stun value), no LOS AM, a shield gives
    -1; a natural 2 hits the closest undead shot through instead."""
    drm = -1 if skills.carries_shield(s, h, readied=False) else 0
    roll = s.d12(f"{uname(s, u)}'s spectral bow at {h.name} ({10 - drm}+ wounds)", S.SCENARIO_34,
                 drm)
    data = {"undead": u.id, "hero": h.id, "roll": roll, "dice": [d12(roll, drm)]}
    between = [q for q in grid.trace(u.at, h.at).between
               if s.occupancy().get(q, "").startswith("u:")]
    text = f"{uname(s, u)} shoots its spectral bow at {h.name}: rolled {roll}"
    if roll == 2 and between:
        other = s.undead[int(s.occupancy()[between[0]][2:])]
        events.append(Event("bow", text + f", a natural 2: {uname(s, other)} is hit instead",
                            S.SCENARIO_34, data))
        wound_undead(s, other, None, events)
        return
    if roll != 1 and roll + drm >= 10:
        events.append(Event("bow", text + (" (-1 for the shield)" if drm else "")
                            + ": 1 wound", S.SCENARIO_34, data))
        s.wound_hero(h, events, S.SCENARIO_34, by=f"undead{u.id}", by_type=u.kind or "draugr")
        return
    events.append(Event("bow", text + (" (-1 for the shield)" if drm else "") + ": a miss",
                        S.SCENARIO_34, data))
