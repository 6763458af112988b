"""What bots and the simulation lab know about BattleForge: the party's prospects, a hint for
ordering actions, and the measures of a game.

:func:`evaluate` scores a position from 0 (lost) to 1 (won) by what the rulebook makes matter:
Thor's Faces destroyed ("The players win the match when Thor is Defeated (by Destroying all of
his Faces)"), the scenario's Points of Interest left (both Defeat Conditions), the champions'
Health and the First Champion marker (a second Knockout loses), time left on the Rounds track,
and what turns into Damage next: Action Cubes piled in an attack space, champions standing
where they can attack a Face (or the minions that hunt the Points of Interest), an attack in
progress with its dice. It folds in the strategy of the former private balance bot (pile the
cubes in one attack space, attack Thor's Faces, kill the minions that threaten the scenario,
heal when low, move next to Thor).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from meadhall.core.protocol import Action

if TYPE_CHECKING:
    from .state import BattleForgeState

WEIGHTS = {"thor": 0.43, "poi": 0.14, "health": 0.16, "ready": 0.06, "position": 0.08,
           "minions": 0.03, "time": 0.10}
"""How much each part of the prospects counts (they sum to 1)."""

HEALTH_SCALE = 3.0
"""Health's worth flattens above a few points (see :func:`health_value`)."""
READY_POWER = 1.0
POSITION_RANGE = 8.0
"""Areas beyond which a champion counts as nowhere near an Area to attack from."""
EXPOSURE_WEIGHT = 1.0
"""How much of the Damage a champion is exposed to in the next Ironborn Phase counts now."""
HUNTER_WEIGHT = 3.0
"""How much more a minion hunting the Points of Interest threatens than one hunting
champions."""
ORDER = {"melee": 0, "ranged": 0, "heal": 2, "ritual": 3, "move": 4, "skill": 1,
         "relocate": 5, "taunt": 6}


def die_means(s: BattleForgeState) -> dict[str, tuple[float, float]]:
    """Per die colour: expected Damage and chance of a Counterattack side (section "Dice")."""
    out = {}
    for colour, d in s.content.dice.items():
        faces = d.faces
        dmg = sum(1 if f == "damage" else 2 if f == "double" else 0 for f in faces)
        out[colour] = (dmg / len(faces), faces.count("counter") / len(faces))
    return out


def dice_damage(dice: list[list[str]]) -> int:
    return sum(1 if d[1] == "damage" else 2 if d[1] == "double" else 0 for d in dice)


def attack_in_progress(s: BattleForgeState) -> tuple[str, float, float] | None:
    """(target, expected Damage after the target's effects, chance of a Counterattack) of the
    attack being resolved, from its dice once rolled, else from its pool."""
    a = s.atk
    if not a:
        return None
    target = a["target"]
    if a.get("dice"):
        dmg = float(dice_damage(a["dice"]))
        counter = 1.0 if any(d[1] == "counter" for d in a["dice"]) else 0.0
    else:
        means = die_means(s)
        white = a["white"] - (1 if a.get("orange") else 0)
        dmg = white * means["white"][0] + a["red"] * means["red"][0] + \
            a["green"] * means["green"][0]
        miss = (1 - means["white"][1]) ** max(0, white) * (1 - means["red"][1]) ** a["red"]
        counter = 1 - miss
    if target.startswith("thor-"):
        face = target[5:]
        dmg = max(0.0, dmg - len([f for f in s.thor["destroyed"] if f != face]))
        if face == "yellow":
            dmg = min(dmg, 2.0)
        if face in ("green", "blue"):
            counter = 0.0
    return target, dmg, counter


def attack_areas(s: BattleForgeState) -> set[str]:
    """Areas from which a champion can attack: next to Thor where a Face in Ranged reach is
    standing (the Face toward the area or a neighbour of it), and at or next to a minion that
    hunts the Points of Interest."""
    out: set[str] = set()
    faces = s.content.god.faces
    for a in s.board.adjacent(s.thor_area):
        d = s.board.direction(s.thor_area, a)
        if d is None:
            continue
        i = faces.index(s.face_at(d))
        if any(faces[(i + k) % 6] not in s.thor["destroyed"] for k in (-1, 0, 1)):
            out.add(a)
    for m in s.minions.values():
        if m.area is not None and s.minion_side(m.type).target != "champions":
            out.add(m.area)
            out.update(s.board.adjacent(m.area))
    out.discard(s.thor_area)
    return out


def attack_strength(s: BattleForgeState, cid: str) -> float:
    """Expected Damage of this champion's best attack from one space (cubes and Boon as
    white dice, the Attributes' red and green dice), before Thor's Passive."""
    c = s.champs[cid]
    # A Melee Attack reaches only the Face toward the champion, a Ranged one it and its two
    # neighbours: next to Thor a pile counts only if its attack reaches a standing Face;
    # elsewhere a melee pile counts half (it will reach one Face of three).
    worth = {"melee": 0.5, "ranged": 1.0}
    if s.thor["activated"] and s.thor_adjacent(c.area):
        d = s.board.direction(s.thor_area, c.area)
        faces = s.content.god.faces
        i = faces.index(s.face_at(d)) if d is not None else 0
        near = [faces[(i + k) % 6] not in s.thor["destroyed"] for k in (-1, 0, 1)]
        worth = {"melee": 1.0 if near[1] else 0.0, "ranged": 1.0 if any(near) else 0.0}
    best = 0.0
    for i in range(6):
        icons = s.space_icons(cid, i)
        for icon in ("melee", "ranged"):
            if icon in icons:
                best = max(best, worth[icon] * (len(c.rondel[i]) + s.boon_bonus(cid, i, icon)))
    means = die_means(s)
    return best * means["white"][0] + c.attrs["red"] * means["red"][0] + \
        c.attrs["green"] * means["green"][0]


def health_value(h: float) -> float:
    """Health's worth, 0 to 1, steeper near 0: the last points keep a champion from a
    Knockout."""
    return (1 - math.exp(-max(0.0, h) / HEALTH_SCALE)) / (1 - math.exp(-12 / HEALTH_SCALE))


def pending_losses(s: BattleForgeState) -> dict[str, float]:
    """Health each champion is about to lose: Damage and Health losses queued but not yet
    resolved (a Defense Reaction may still block Damage, by the best defense space), and 2
    for every Frost Cube held (Frost Cubes cost 2 Health when used or at Frostbite)."""
    out: dict[str, float] = {}
    for cid, c in s.champs.items():
        frost = sum(sp.count("f") for sp in c.rondel) + c.centre.count("f")
        if frost:
            out[cid] = 2.0 * frost
    for t in s.tasks:
        kind = t.get("t")
        cid = t.get("c")
        if cid not in s.champs or kind not in ("damage", "lose"):
            continue
        n = float(t.get("n", 0))
        if kind == "damage" and t.get("stage", 0) < 2:
            best = max((len(s.champs[cid].rondel[i]) + s.boon_bonus(cid, i, "defense")
                        for i in s.reaction_spaces(cid, "defense")), default=0)
            n = max(0.0, n - best)
        out[cid] = out.get(cid, 0.0) + n
    return out


def exposure(s: BattleForgeState) -> dict[str, float]:
    """Damage each champion can expect in the coming Ironborn Phase beyond what their best
    Defense space blocks: Thor's attack when next to him (the God cards strike the Areas
    around him) and every champion-hunting minion that reaches them with its Actions (Minion
    Attacks: the closest Champion, ties to the one who took their Turn first)."""
    hits: dict[str, list[float]] = {c: [] for c in s.order}
    if s.thor["activated"]:
        near = set(s.board.adjacent(s.thor_area))
        for cid in s.order:
            if s.champs[cid].area in near:
                hits[cid].append(3.0)
    for m in s.minions.values():
        if m.area is None:
            continue
        side = s.minion_side(m.type)
        if side.target == "poi":
            continue
        dist = s.board.walking(m.area)
        reach = side.actions - 1 + max(side.range, 0)
        best = None
        for cid in s.turn_order():
            d = dist.get(s.champs[cid].area)
            if d is not None and d <= reach and (best is None or d < best[0]):
                best = (d, cid)
        if best is not None:
            hits[best[1]].append(float(side.damage))
    out = {}
    for cid, hs in hits.items():
        c = s.champs[cid]
        block = max((len(c.rondel[i]) + s.boon_bonus(cid, i, "defense")
                     for i in s.reaction_spaces(cid, "defense")), default=0)
        out[cid] = sum(hs) - min(block, max(hs, default=0.0))
    return out


def poi_left(s: BattleForgeState) -> int:
    """Points of Interest still protecting the party: Heat and Sacred Flame tokens (The Last
    Flame) or Unlit Furnaces (Forge of Doom)."""
    if s.scenario_poi == "flame":
        return sum(1 for a in s.tokens if s.is_heat(a))
    return sum(1 for n in s.furnaces.values() if n == 0)


def evaluate(s: BattleForgeState) -> float:
    """The party's prospects, 0 (lost) to 1 (won); reads the whole (determinized) state."""
    o = s.outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    hp = s.face_health()
    faces = s.content.god.faces
    done = {f: float(hp if f in s.thor["destroyed"] else s.thor["damage"][f]) for f in faces}
    pending = attack_in_progress(s)
    counter_risk = 0.0
    minion_hit: tuple[str, float] | None = None
    if pending is not None:
        target, dmg, counter = pending
        if target.startswith("thor-"):
            done[target[5:]] = min(hp, done[target[5:]] + dmg)
            counter_risk = counter * s.content.god.counter
        elif target in s.minions:
            minion_hit = (target, dmg)
            m = s.minions[target]
            counter_risk = counter * s.minion_side(m.type).counter
    thor = sum(min(hp, v) / hp for v in done.values()) / len(faces)
    standing = [hp - v for v in done.values() if v < hp]
    need = (min(standing) if standing else hp) + len(s.thor["destroyed"])
    total_poi = max(1, len(s.board.poi))
    poi = min(1.0, poi_left(s) / total_poi)

    n = len(s.order)
    health = 0.0
    ready = 0.0
    position = 0.0
    goals = attack_areas(s)
    mover = s.current() if s.phase == "champions" else None
    losses = pending_losses(s)
    threat = exposure(s)
    for cid in s.order:
        c = s.champs[cid]
        h = c.health - (counter_risk if s.atk and s.atk["c"] == cid else 0.0) - \
            losses.get(cid, 0.0) - EXPOSURE_WEIGHT * threat.get(cid, 0.0)
        health += min(1.0, health_value(h))
        # How much of what one attack must deal to destroy a standing Face (its Health left
        # plus Thor's Passive, 1 per destroyed Face) the champion's best pile brings.
        ready += min(attack_strength(s, cid) / need, 1.0) ** READY_POWER
        if goals:
            dist = s.board.walking(c.area)
            d = min((dist.get(a, 20) for a in goals), default=20)
            if cid == mover and s.turn.get("moving"):
                d = max(0.0, d - s.turn.get("move", 0))
            position += 1.0 - min(d, POSITION_RANGE) / POSITION_RANGE
    health /= n
    ready /= n
    position /= n

    menace = 0.0
    hunters = 0.0
    for m in s.minions.values():
        if m.area is None:
            continue
        side = s.minion_side(m.type)
        left = side.health - m.damage
        if minion_hit and minion_hit[0] == m.id:
            left -= minion_hit[1]
        if left <= 0:
            continue
        weight = HUNTER_WEIGHT if side.target != "champions" else 1.0
        hunters += weight
        menace += weight * left / side.health
    minions = 1.0 - (menace / hunters if hunters else 0.0)

    limit = len(s.content.round_track) - 1
    time = 1.0 - min(1.0, s.twilight / limit)

    parts = {"thor": thor, "poi": poi, "health": health, "ready": ready,
             "position": position, "minions": minions, "time": time}
    score = sum(WEIGHTS[k] * v for k, v in parts.items())
    if not s.marker_red:
        score *= 0.75  # one more Knockout loses the game
    return max(0.01, min(0.99, score))


def order_actions(s: BattleForgeState, actions: list[Action]) -> list[Action]:
    """Attacks (on Thor's Faces first), skills, healing, rituals, moves, then the rest."""
    def key(a: Action) -> tuple[int, int]:
        words = a.text.split()
        rank = ORDER.get(words[0], 7) if words else 7
        face = 0 if " at Thor's " in a.text else 1
        return rank, face

    return sorted(actions, key=key)


def measures(s: BattleForgeState) -> dict[str, Any]:
    """Rounds; Thor's Faces destroyed and Health left, active minions, rounds short of the
    limit, knockouts, Points of Interest left; on a loss its trigger, final blow and margins."""
    hp = s.face_health()
    limit = len(s.content.round_track) - 1
    destroyed = len(s.thor["destroyed"])
    thor_left = sum(0 if f in s.thor["destroyed"] else hp - s.thor["damage"][f]
                    for f in s.content.god.faces)
    out: dict[str, Any] = {
        "rounds": min(s.round, limit),
        "faces_destroyed": destroyed,
        "thor_health_left": thor_left,
        "minions_left": sum(1 for m in s.minions.values() if m.area is not None),
        "rounds_short": max(0, limit - s.round),
        "knockouts": s.knockouts,
        "poi_left": poi_left(s),
    }
    o = s.outcome()
    if o.result == "loss":
        end = s.end or {}
        if s.conceded is not None:
            end = {"trigger": "conceded", "final_blow": None}
        out["trigger"] = end.get("trigger", "defeat")
        out["final_blow"] = end.get("final_blow")
        out["margin_faces_left"] = 6 - destroyed
        out["margin_thor_health_left"] = thor_left
        out["margin_rounds_left"] = max(0, limit - s.round)
        out["margin_poi_left"] = poi_left(s)
    return out
