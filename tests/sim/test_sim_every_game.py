"""The lab runs every scenario of every game with every kind of bot (short games: the first
decisions of each; whole games are measured in docs/balance.md)."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.sim.runner import Job, play

CASES = [(g.id, s.id) for g in games.all_games() for s in g.scenarios()]


@pytest.mark.parametrize(("game_id", "scenario"), CASES)
@pytest.mark.parametrize(("bot", "steps"), [("random", 300), ("heuristic:1", 25),
                                            ("mcts:4", 12)])
def test_every_scenario_with_every_bot(game_id: str, scenario: str, bot: str,
                                       steps: int) -> None:
    game = games.get(game_id)
    setup = game.normalise_setup({"scenario": scenario})
    row = play(Job.make(game_id, setup, 3, bot, max_steps=steps))
    assert row["error"] is None, row["error"]
    assert row["result"] in ("win", "loss", "unfinished")
    assert row["decisions"] == len(json.loads(row["log"])) <= steps
    assert isinstance(row["rounds"], int), "every game reports rounds (measures())"
    if row["result"] == "loss":
        assert row["trigger"] is not None
