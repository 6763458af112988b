"""BattleForge's ``worth`` as it was before its board memo (``evaluation.BOARDS``): each
part computed from the position itself, the same sums in the same order. The oracle of
tests/games/battleforge/test_battleforge_eval_fast.py, kept here rather than in the engine
(as bf_reference.py is for the view and the drawing)."""

from __future__ import annotations

import math

from meadhall.games.battleforge.evaluation import (
    EXPOSURE_WEIGHT,
    FURY_VALUE,
    LAST_ROUND_SHARE,
    MINION_VALUE,
    NOW,
    POI_SCALE,
    POI_VALUE,
    POSITION_RANGE,
    POSITION_VALUE,
    ROUND_VALUE,
    SPARE_LIFE,
    attack_in_progress,
    defense_blocks,
    exposure,
    health_price,
    health_worth,
    last_round,
    minion_in_progress,
    pending_losses,
    plan_book,
    poi_left,
    pricer_of,
    thor_distance,
    thor_work,
    turn_plan,
)
from meadhall.games.battleforge.state import BattleForgeState


def worth_plain(s: BattleForgeState, parts: dict[str, float] | None = None) -> float:
    """``evaluation.worth`` without its board memo (``evaluation.BOARDS``)."""
    grey = not s.marker_red
    pricer = pricer_of(s)
    out = {} if parts is None else parts
    w0 = thor_work(tuple([s.face_health()] * 6), 0)
    work = pricer.work
    counter_risk: dict[str, float] = {}
    atk = s.atk
    pending = attack_in_progress(s, pricer) if atk else None
    if pending is not None:
        gain, counter = pending
        work -= gain
        counter_risk[atk["c"]] = counter * s.content.god.counter
    # minion_sides(s)
    cards = s._cards
    over = s.overheated
    sides = {k: cards[k].overheated if over[str(k)] else cards[k].standard for k in (1, 2, 3)}
    hit = minion_in_progress(s) if atk else None
    if hit is not None:
        side = sides[s.minions[hit[0]].type]
        counter_risk[atk["c"]] = hit[2] * side.counter
    out["thor"] = w0 - work

    blocks = defense_blocks(s)
    losses = pending_losses(s, blocks)
    threat = exposure(s, sides, blocks)
    prices = {}
    health = fury = 0.0
    champs = s.champs
    for cid in s.order:
        c = champs[cid]
        h = c.health - counter_risk.get(cid, 0.0) - losses.get(cid, 0.0) - \
            EXPOSURE_WEIGHT * threat.get(cid, 0.0)
        health += health_worth(h, grey)
        prices[cid] = health_price(c.health, grey)
        fury += FURY_VALUE * float(c.fury)  # fury_worth
    out["health"] = health
    out["fury"] = fury
    out["spare"] = 0.0 if grey else SPARE_LIFE

    # One pass over the minions: kill_values, the plan book's figures, the hunters of the
    # Points of Interest (each as its own function computes it).
    kills = {}
    figures = []
    hunters = 0.0
    hunt = s.scenario_poi == "flame"
    for m in s.minions.values():
        figures.append((m.area, m.damage, m.type))
        if m.area is None:
            continue
        side = sides[m.type]
        worth = FURY_VALUE * side.fury
        if side.target != "champions":
            if hunt:
                worth += MINION_VALUE * (side.health - m.damage)
            dmg = m.damage + (hit[1] if hit and hit[0] == m.id else 0.0)
            hunters -= MINION_VALUE * max(0.0, side.health - dmg)
        kills[m.id] = (side.health - m.damage, worth, float(side.counter))

    # What the champions can still do: this round's remaining turns, then the next round.
    plans = 0.0
    book = plan_book(s, pricer, kills, tuple(figures))
    if s.phase == "champions":
        order = s.turn_order()
        pos = min(s.turn_pos, len(order) - 1)
        for j, cid in enumerate(order):
            if j < pos or (j == pos and s.turn.get("over")):
                actions = 0
            elif j == pos:
                actions = int(s.turn.get("actions", 0))
            else:
                actions = 3
            plans += NOW * turn_plan(s, cid, pricer, prices, kills, actions, book)
    else:
        for cid in s.order:
            plans += NOW * turn_plan(s, cid, pricer, prices, kills, 0, book)
    out["plans"] = plans

    # Points of Interest, and the minions that hunt them.
    out["poi"] = POI_VALUE * (1 - math.exp(-poi_left(s) / POI_SCALE))
    out["hunters"] = hunters

    # Closeness to Thor for the next round.
    position = 0.0
    if s.thor["activated"]:
        for cid in s.order:
            position += POSITION_VALUE * (1 - min(thor_distance(s.board, s.champs[cid].area,
                                                                s.thor_area),
                                                  POSITION_RANGE) / POSITION_RANGE)
    out["position"] = position

    limit = len(s.content.round_track) - 1
    out["time"] = ROUND_VALUE * max(0, limit - s.twilight)
    if last_round(s):
        # Only destroying Thor this round can win now.
        for k in out:
            if k not in ("thor", "plans"):
                out[k] *= LAST_ROUND_SHARE
    return sum(out.values())
