"""End to end: scenario 1 played from setup by a simple careful runner reaches the win."""

from __future__ import annotations

from collections import deque

import pytest

from meadhall.core import grid
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.state import NiflheimState
from meadhall.games.niflheim.undead import zoc


def _distances(s: NiflheimState, goal: grid.Sq, avoid: bool) -> dict[grid.Sq, int]:
    z = zoc(s) if avoid else {}
    occ = s.occupancy()
    d = {goal: 0}
    todo = deque([goal])
    while todo:
        a = todo.popleft()
        for b in grid.neighbours(a):
            ok = s.board.inside(b) and (not s.board.blocks_move(b) or s.board.at(b) == "+")
            if b not in d and ok and (b not in z or b == goal) \
                    and occ.get(b, "h:").startswith("h:"):
                d[b] = d[a] + 1
                todo.append(b)
    return d


def _goal(s: NiflheimState, carry: bool) -> tuple[grid.Sq, str]:
    sc = s.scenario
    if sc.objective.carry and not carry:
        return next(q for q, its in s.items.items() if sc.objective.carry in its), "item"
    for label in sc.objective.after:
        if label not in s.done:
            return grid.sq(sc.specials[label].square), "special"
    return grid.sq(sc.exits[0].square), "exit"


def runner(s: NiflheimState) -> str:
    """Take the players' defaults; run to the torch, the Jarl, then the exit, around ZOCs."""
    d = s.decision()
    assert d is not None
    if d.seat == "players":
        assert d.default is not None
        return d.default
    h = s.heroes[d.seat]
    acts = [a.text for a in s.legal_actions()]
    goal, kind = _goal(s, h.carries(s.scenario.objective.carry or ""))
    dist = _distances(s, goal, True)
    if h.at not in dist:
        dist = _distances(s, goal, False)
    here = dist.get(h.at, 99)
    if h.intent is None:
        return "declare stationary" if h.locked_by or (kind == "special" and here <= 1) \
            else "declare running"
    for a in acts:
        if a.startswith(("rescue", "pick up")) or (a.startswith("exit") and kind == "exit"):
            return a
    for a in acts:
        if a.startswith("open door") and dist.get(grid.sq(a.split()[2]), 99) < here:
            return a
    moves = [(dist.get(grid.sq(a.split()[1]), 99), a) for a in acts if a.startswith("move ")]
    best = min(moves, default=(99, ""))
    if best[0] < here and not (kind == "special" and here <= 1):
        return best[1]
    return "end activation"


@pytest.mark.rule("niflheim", "Complete Scenario 1")
def test_scenario_1_played_from_setup_to_the_win() -> None:
    s = GAME.new_game({"scenario": "1", "heroes": ["frida"]}, seed=0)
    for _ in range(500):
        if s.decision() is None:
            break
        s.apply(runner(s))
    assert s.outcome().result == "win", s.outcome().reason
    assert s.done == ["J"] and s.heroes["frida"].status == "exited"
    assert GAME.replay(s.setup, s.seed, s.log) == s


@pytest.mark.rule("niflheim", "Game Structure")
def test_campaign_from_scenario_1_through_the_interim_stage_into_scenario_2() -> None:
    s = GAME.new_game({"scenario": "1", "heroes": ["frida"], "campaign": True}, seed=0)
    for _ in range(800):
        if s.scenario_id == "2" and s.segment == "heroes":
            break
        s.apply(runner(s))
    assert s.camp["played"] == ["1"] and s.scenario_id == "2"
    assert s.heroes["frida"].xp >= 1 and s.heroes["frida"].carries("torch")
    saved = s.to_json()
    assert GAME.from_json(saved) == s
