"""The measures designers asked for (issue 21), on every game: the tension trajectory, the
shape of the game and what each seat did and suffered, as row (Parquet) columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall import games
from meadhall.sim import report, results
from meadhall.sim.lab import Plan, run
from meadhall.sim.runner import Backend, Job, play, tension

GAMES = ["niflheim", "battleforge", "midhalla", "runaljod", "toy"]


def test_tension_of_trajectories() -> None:
    won = [[1, 0.6], [2, 0.4], [3, 0.55], [4, 0.7], [5, 1.0]]
    assert tension(won, True) == {"closest_call": 0.4, "decisive_round": 3, "lead_changes": 2}
    lost = [[1, 0.5], [2, 0.45], [3, 0.3], [4, 0.0]]
    assert tension(lost, False) == {"closest_call": None, "decisive_round": 1,
                                    "lead_changes": 0}
    comeback = [[0, 0.3], [1, 0.2], [2, 0.8], [3, 1.0]]
    assert tension(comeback, True)["decisive_round"] == 2
    assert tension(won, None)["decisive_round"] is None  # an unfinished game


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_rows_carry_trajectory_shape_and_seats(game_id: str) -> None:
    game = games.get(game_id)
    row = play(Job.make(game_id, game.default_setup(), 2, "random", max_steps=400))
    assert row["error"] is None, row["error"]
    traj = json.loads(row["trajectory"])
    assert len(traj) >= 1 and all(0.0 <= v <= 1.0 for _, v in traj)
    if row["result"] in ("win", "loss"):
        assert traj[-1][1] == (1.0 if row["win"] else 0.0)  # the end is the last point
        assert row["decisive_round"] is not None
    assert isinstance(row["lead_changes"], int)
    assert (row["closest_call"] is not None) == (row["result"] == "win")
    assert 1 <= row["legal_mean"] <= row["legal_max"]
    assert row["cpu_seconds"] > 0
    heroes = [str(h) for h in json.loads(row["setup"]).get("heroes", [])]
    seats = {k.split("_")[1] for k in row if k.startswith("seat_") and k.endswith("_actions")}
    assert set(heroes) <= seats or game_id == "battleforge" and seats
    assert sum(row[f"seat_{s}_actions"] for s in seats) == row["decisions"]
    assert sum(row[f"seat_{s}_knockouts"] for s in seats) == row["knockouts"]
    assert sum(row[f"seat_{s}_kills"] for s in seats) <= row["kills"]
    for s in seats:
        assert row[f"seat_{s}_damage_taken"] >= 0 and row[f"seat_{s}_damage_dealt"] >= 0
    if game_id != "toy" and row["knockouts"]:
        # a knocked-out hero lost health first (the game reports health, Game.health)
        assert sum(row[f"seat_{s}_damage_taken"] for s in seats) > 0


def test_measures_are_parquet_columns_and_drawn_in_the_report(tmp_path: Path) -> None:
    res = run(Plan("niflheim", games.get("niflheim").default_setup(), ["random"], games=6,
                   seed=1, max_steps=300), Backend())
    rows = res.rows()
    path = results.write(rows, tmp_path / "r.parquet")
    back = results.read(path)
    for col in ("trajectory", "closest_call", "decisive_round", "lead_changes", "legal_mean",
                "legal_max", "cpu_seconds", "seat_frida_actions", "seat_frida_damage_taken",
                "seat_frida_damage_dealt", "seat_frida_knockouts", "seat_frida_kills"):
        assert col in back[0], col
    s = res.batches[0].summary
    assert "legal_mean" in s["measures"] and "seat_frida_actions" in s["measures"]
    assert "cpu_seconds" not in s["measures"]  # machine-dependent: not in the summary
    page = report.html_report(res, rows, path)
    assert "Tension: the party&#x27;s evaluation per round" in page or "Tension:" in page
    assert "CPU seconds per game" in page
