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
