"""Helpers for BattleForge tests: a game past its setup choices, and a way to rebuild the decision
after a test edits the position."""

from __future__ import annotations

from meadhall import games
from meadhall.games.battleforge.state import BattleForgeState

GAME = games.get("battleforge")


def fresh(scenario: str = "last_flame", heroes: tuple[str, ...] = ("ragnar", "lagertha"),
          seed: int = 0) -> BattleForgeState:
    """A new game with every setup choice taken by default, at the First Champion's turn."""
    s = GAME.new_game({"scenario": scenario, "heroes": list(heroes)}, seed)
    while s.decision().kind != "turn":
        s.apply(s.decision().default)
    return s


def board_only(s: BattleForgeState, rondels: dict[str, list[str]] | None = None) -> None:
    """Clear the minions off the board (kept lying by the triangle) and set rondels."""
    for m in s.minions.values():
        m.area = None
        m.lying = "triangle"
    for cid, r in (rondels or {}).items():
        s.champs[cid].rondel = [list(x) for x in r]
        s.champs[cid].boons = [None] * 6


def restart_turn(s: BattleForgeState) -> None:
    """Re-ask the current champion's turn after a test changed the position."""
    s.ask = None
    s.tasks = []
    s.run([])


def pass_turn(s: BattleForgeState) -> list:
    """End the current champion's turn as if their 3 Actions were done; returns the events."""
    s.turn["actions"] = 0
    restart_turn(s)
    return s.apply("end turn")


def legal(s: BattleForgeState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def texts(events) -> str:
    return "\n".join(str(e) for e in events)


def settle(s: BattleForgeState, answers: list[str] | None = None, stop: str = "turn") -> list:
    """Answer pending choices (the given answers first, else each default) until a decision
    handled by ``stop`` comes up; returns the events."""
    answers = list(answers or [])
    events: list = []
    for _ in range(200):
        if s.outcome().over or s.ask is None or s.ask["h"] == stop:
            return events
        opts = legal(s)
        if answers and answers[0] in opts:
            events += s.apply(answers.pop(0))
        else:
            events += s.apply(s.decision().default or opts[0])
    raise AssertionError("settle did not finish")


def merge(base: dict, changes: dict) -> dict:
    """``base`` with ``changes`` merged in, nested dicts key by key."""
    out = dict(base)
    for k, v in changes.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = v
    return out


LYING = {"area": None, "lying": "triangle", "damage": 0}
"""A minion lying by the triangle Spawning Area (off the board)."""


def position(scenario: str = "last_flame", heroes: tuple[str, ...] = ("ragnar", "lagertha"),
             seed: int = 0, replace: dict | None = None, **changes: object
             ) -> BattleForgeState:
    """A hand-written position loaded through ``GameState.from_json`` (the format of
    docs/formats/battleforge.md): a new game's position after its setup choices with
    ``changes`` merged in and no pending decision, so play resumes at the current champion's
    turn, or with ``phase="ironborn"`` and ``tasks`` at those rule steps. Keys of ``replace``
    are replaced whole instead of merged."""
    from meadhall.core.protocol import GameState

    data = fresh(scenario, heroes, seed).to_json()
    pos = data["position"]
    pos.pop("ask")
    pos.pop("tasks")
    data["position"] = {**merge(pos, changes), **(replace or {})}
    s = GameState.from_json(data)
    assert isinstance(s, BattleForgeState)
    return s


def off_board(*ids: str) -> dict:
    """Minions lying off the board (by the triangle Spawning Area)."""
    return {m: dict(LYING) for m in ids}


def minions_at(lying: dict[str, str] | None = None, **areas: str) -> dict:
    """Every minion of a two-champion game off the board (lying by the triangle Spawning
    Area, or by the symbol ``lying`` gives) except those placed in ``areas``."""
    out = off_board("A1", "A2", "D1", "D2", "T1", "T2")
    for m, a in areas.items():
        out[m] = {"area": a, "lying": None, "damage": 0}
    for m, sym in (lying or {}).items():
        out[m] = {"area": None, "lying": sym, "damage": 0}
    return out


def ironborn(s: BattleForgeState, tasks: list[dict], answers: list[str] | None = None,
             wait: bool = False) -> list:
    """Run rule steps of the Ironborn Phase (``tasks``, then the end of the round) on a loaded
    position; players' choices take ``answers`` first, else their defaults (with ``wait``,
    stop at the first choice). Returns the events up to the next champion's turn."""
    s.phase = "ironborn"
    s.ask = None
    s.tasks = [*tasks, {"t": "end_round"}]
    events: list = []
    s.run(events)
    return events if wait else events + settle(s, answers)
