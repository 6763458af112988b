"""How well the party stands in a Midhalla position, for the bots (``Game.evaluate``).

One number from 0 (lost) to 1 (won). Bots call it on determinized states after each legal
action, so it is a potential over positions: it rises with real progress toward the chapter's
objectives (cycles survived, enemy HP removed in this combat) and with what keeps the gate
standing (gate HP, heroes' HP, traps, fortifications, items, ultimates, resources), each
weighed so that spending resources well beats hoarding them and an idle action never pays.

What the private balance script taught (the sensible party): heal and revive in 2.1, upgrade
and build traps on fortified tiles, fortify while runestones allow, buy items with spare silver,
stand where the enemies come, hit the weakest reachable enemy and spend evasion first, let
enemies hit the sturdiest target, never replay step 3.3 for nothing.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import Action
from meadhall.games.midhalla.board import GATE

# Weights: progress dominates, then the gate, then the party's means of fighting.
W_PROGRESS = 0.45
W_GATE = 0.22
W_HERO_HP = 0.006
W_KO = 0.025
W_SILVER = 0.0020
W_RUNESTONE = 0.0020
W_COMPONENT = 0.0014
W_TRAP = 0.0030
W_FORTIFIED = 0.0045
W_ITEM = 0.0026
W_ULT = 0.004
W_QUEUED = 0.004
W_ENGAGE = 0.006
W_REPLAY = 0.05
MAX_REPLAYS = 3
"""A party that replayed step 3.3 this often in a chapter is going round in circles (a
one-ply bot replays the same moves): the position counts as lost, so that bots stop."""
W_CAMPAIGN = 0.5
W_STAGE = 0.0002
STAGES = {"setup": 0, "exploration": 1, "preparation": 2, "spawn": 3, "position": 4,
          "combat": 5, "rewards": 6, "epilogue": 7}


def evaluate(st: Any) -> float:
    """The party's prospects in ``st`` (a :class:`MidhallaState`), 0..1."""
    o = st.outcome()
    if o.over:
        if o.result == "win":
            return 1.0
        return 0.0
    if st.phase == "aftermath" and st.result:
        return 1.0 if st.result[0] == "win" else 0.0  # decided; a global event is read
    if st.phase in ("interlude", "roster"):
        won = sum(1 for _, r in st.record if r == "win")
        return _clamp(0.5 + 0.4 * won / max(1, len(st.content.chapters)) - 0.05 * (
            len(st.record) - won))
    if st.replays >= MAX_REPLAYS:
        return 0.0
    value = W_PROGRESS * progress(st) + W_GATE * st.gate_hp / st.content.printed.gate_hp
    value += _heroes(st) + _assets(st) + _fight(st)
    # a step forward through the cycle's phases is worth a little, so that ending a phase
    # beats any idle action (passing an item back and forth) but never a useful one
    value += W_STAGE * STAGES.get(st.phase, 0)
    value -= W_REPLAY * st.replays
    if st.setup.get("campaign"):
        won = sum(1 for _, r in st.record if r == "win")
        value = (value + W_CAMPAIGN * won / max(1, len(st.content.chapters))) / (1 + W_CAMPAIGN)
    return _clamp(value)


def _clamp(v: float) -> float:
    return max(0.01, min(0.99, v))


def progress(st: Any) -> float:
    """Share of the chapter done: cycles whose combat is over, plus the share of this
    combat's enemies (by HP, evasion counting as one HP) already removed."""
    cycles = st.chapter_data.cycles
    done = st.cycle - 1
    if st.phase in ("rewards", "epilogue"):
        done += 1
    elif st.phase == "combat":
        total = st.kills + len(st.enemies)
        if total:
            left = sum(_enemy_left(e) for e in st.enemies.values())
            done += (total - left) / total
    return min(1.0, done / cycles)


def _enemy_left(e: Any) -> float:
    """How much of an enemy is left: 1 at full HP (evasion adds one HP's worth), 0 dead."""
    return (e.hp + (1 if e.evasion else 0)) / (e.max_hp + 1)


def _heroes(st: Any) -> float:
    v = 0.0
    for h in st.heroes.values():
        if h.ko:
            v -= W_KO
            continue
        weight = 0.5 if h.follower else 1.0
        v += weight * W_HERO_HP * h.hp
        v += weight * 0.3 * W_HERO_HP * (h.armor + h.retaliate)
        v -= weight * W_HERO_HP * h.bleed
        v -= 0.5 * W_HERO_HP * len(h.exhausted)
    return v


_PUNCH: dict[tuple[int, str, int], tuple[Any, int]] = {}
"""A trap level's punch (attacks, times, reach, linked effects) by (catalogue id, kind,
level), held with the catalogue: content only, asked at every evaluation."""
_COST: dict[tuple[int, str], tuple[Any, float]] = {}


def _punch(cat: Any, kind: str, level: int) -> int:
    key = (id(cat), kind, level)
    hit = _PUNCH.get(key)
    if hit is None or hit[0] is not cat:
        lv = cat.traps[kind].levels[level - 1]
        reach = 1 + (2 if lv.range == "anywhere" else int(lv.range))
        hit = _PUNCH[key] = (cat, lv.attack * lv.times * reach + len(lv.linked))
    return hit[1]


def _item_worth(cat: Any, item: str) -> float:
    """``max(1, cost) * W_ITEM`` of an item (the same product, remembered)."""
    key = (id(cat), item)
    hit = _COST.get(key)
    if hit is None or hit[0] is not cat:
        hit = _COST[key] = (cat, max(1, cat.items[item].cost) * W_ITEM)
    return hit[1]


def _assets(st: Any) -> float:
    # The sums are taken in the same order, term by term, as they always were: a bot's
    # choices compare these values, and a reordered sum could round differently.
    cat = st.content.cat
    v = W_SILVER * st.silver + W_RUNESTONE * st.runestones + W_COMPONENT * len(st.components)
    cycles_left = st.chapter_data.cycles - st.cycle + 1
    fort = W_FORTIFIED * (1 + cycles_left)
    for t in st.tiles.values():
        if t.fortified and t.id != GATE:
            v += fort
    for t in st.traps.values():
        if t.hp <= 0:
            v += 0.2 * W_TRAP
            continue
        punch = _punch(cat, t.kind, t.level) + (1 if t.special else 0)
        v += W_TRAP * (t.hp + 2 * punch)
    for h in st.heroes.values():
        if h.items:
            used = h.used_items
            sturdy = 1e-6 * h.max_hp
            for item in h.items:
                worth = _item_worth(cat, item) * (0.3 if item in used else 1.0)
                # a tiny preference for the sturdiest holder, so that passing items back and
                # forth never looks neutral
                v += worth + sturdy
        if not h.follower:
            v += W_ULT * sum(1 for u in cat.heroes[h.id].ultimates if u not in h.ults_used)
    return v


def _fight(st: Any) -> float:
    """During combat: heroes within reach of an enemy, and what the skill in use will still do
    (its moves bring the hero closer, its attacks that have a target in reach), so that
    choosing a useful skill pays before its effects are resolved."""
    if st.phase not in ("position", "combat"):
        return 0.0
    standing = sum(1 for h in st.heroes.values() if not h.ko and h.tile)
    if not st.enemies:
        # nothing left to fight: as good as being engaged everywhere (killing the last enemy
        # must never look worse than leaving it alive)
        return W_ENGAGE * standing
    board = st.topo
    foes = {e.tile for e in st.enemies.values()}
    ht = st.ht
    queue = ht.get("queue") if ht else None
    v = 0.0
    for h in st.heroes.values():
        if h.ko or not h.tile:
            continue
        dist = board.distances_from(h.tile)
        near = min((dist.get(t, 9) for t in foes), default=9)
        if queue and ht["hero"] == h.id:
            moved = sum(e.get("value", 0) for e in queue if e["do"] == "move")
            near = max(0, near - moved)
            for eff in queue:
                if eff["do"] != "attack":
                    continue
                rng = eff.get("range", 0)
                if rng == "anywhere" or near <= int(rng):
                    v += W_QUEUED * eff["value"] * eff.get("times", 1)
        v += W_ENGAGE / (1 + near)
    return v


PREP_ORDER = ("heal", "upgrade", "build", "fortify", "special", "buy", "restore", "use",
              "give", "sell", "remove")


def order_actions(st: Any, actions: list[Action]) -> list[Action]:
    """Most promising first: in 2.1 heal, upgrade, build, fortify, buy before the rest and
    'done preparing'; in combat attacks and skills before skipping, 'replay' last."""
    ch = st.choice
    if ch is None:
        return actions

    def key(a: Action) -> int:
        t = a.text
        word = t.split(" ")[0]
        if ch.kind == "prep":
            return PREP_ORDER.index(word) if word in PREP_ORDER else len(PREP_ORDER)
        if t.startswith("replay"):
            return 9
        if word in ("skip", "stay", "end"):
            return 5
        return 0

    return sorted(actions, key=key)


def health_left(st: Any) -> dict[str, float]:
    """Each hero's HP and, under ``enemies``, the enemies' HP left, for the lab's damage
    dealt and taken."""
    out: dict[str, float] = {h.id: float(max(0, h.hp)) for h in st.heroes.values()}
    out["enemies"] = float(sum(max(0, e.hp) for e in st.enemies.values()))
    return out
