"""The lab end to end on the toy: rows, summaries, sweeps, sequential stopping, result files,
reports, replays, and the same rows from every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall.sim import report, results
from meadhall.sim.lab import Plan, run
from meadhall.sim.replay import find_row, replay
from meadhall.sim.runner import (
    Backend,
    Job,
    LocalBackend,
    bot_seed,
    game_seed,
    play,
    same_game,
)
from meadhall.sim.summary import summarize

SETUP = {"scenario": "chase", "heroes": ["ada", "bo"]}


def test_one_job_one_row() -> None:
    row = play(Job.make("toy", SETUP, 5, "heuristic:1"))
    assert row["game"] == "toy" and row["scenario"] == "chase" and row["heroes"] == "ada,bo"
    assert row["party"] == 2 and row["seed"] == 5 and row["bot_seed"] == bot_seed(5)
    assert row["result"] in ("win", "loss") and row["win"] == (row["result"] == "win")
    assert row["rounds"] >= 1 and row["decisions"] == len(json.loads(row["log"]))
    assert row["escaped"] >= 0 and row["error"] is None
    if row["result"] == "loss":
        assert row["trigger"] in ("caught", "time_out") and "margin_heroes_left" in row
    kos = json.loads(row["knockout_list"])
    assert row["knockouts"] == len(kos)
    assert row["first_fallen"] == (kos[0][0] if kos else None)
    assert same_game(play(Job.make("toy", SETUP, 5, "heuristic:1"))) == same_game(row)


def test_unfinished_and_broken_games_are_rows_not_crashes() -> None:
    stuck = play(Job.make("toy", SETUP, 1, "random", max_steps=1))
    assert stuck["result"] == "unfinished" and not stuck["win"]
    assert stuck["reason"] == "no end after 1 decisions"
    broken = play(Job.make("toy", SETUP, 1, "random", [("wind_deck", ["storm", "calm"])]))
    assert broken["result"] == "error" and "KeyError: 'storm'" in broken["error"]
    assert "toy/game.py" in broken["error"]


def test_seeds_are_stable_and_distinct() -> None:
    seeds = [game_seed(1, i) for i in range(200)]
    assert len(set(seeds)) == 200 and seeds == [game_seed(1, i) for i in range(200)]
    assert game_seed(2, 0) not in seeds[:50]


def test_same_rows_inline_and_in_worker_processes() -> None:
    plan = Plan("toy", SETUP, ["heuristic:1"], games=12, seed=3)
    inline = run(plan, Backend()).rows()
    with LocalBackend(2) as pool:
        parallel = run(plan, pool).rows()
    assert [same_game(r) for r in inline] == [same_game(r) for r in parallel]


def test_bots_batches_and_their_comparison() -> None:
    solo = {"scenario": "chase", "heroes": ["ada"]}
    res = run(Plan("toy", solo, ["random", "heuristic:1"], games=30, seed=1), Backend())
    random_s, heuristic_s = (b.summary for b in res.batches)
    assert random_s["bot"] == "random" and heuristic_s["bot"] == "heuristic:1"
    assert heuristic_s["ci_low"] > random_s["ci_high"]
    (c,) = res.comparisons
    assert c["variant"] == "heuristic:1" and c["baseline"] == "random"
    assert c["paired_games"] == 30 and c["significant"] and c["effect"] > 0
    out = res.to_json()
    assert out["games"] == 60 and len(out["batches"]) == 2 and out["pooled"]
    assert [r["row"] for r in res.rows()] == list(range(60))


def test_sweep_includes_the_current_value_as_baseline() -> None:
    plan = Plan("toy", SETUP, ["heuristic:1"], sweep=("scenarios.chase.rounds", [4, 20]),
                games=20, seed=2)
    res = run(plan, Backend())
    labels = [b.variant.label for b in res.batches]
    assert labels == ["scenarios.chase.rounds=4", "scenarios.chase.rounds=12 (current)",
                      "scenarios.chase.rounds=20"]
    assert res.batches[0].summary["content"] == {"scenarios.chase.rounds": 4}
    assert res.batches[0].summary["rounds"]["max"] <= 4
    assert [c["variant"] for c in res.comparisons] == [labels[0], labels[2]]
    assert {c["baseline"] for c in res.comparisons} == {labels[1]}
    assert all("p_holm" in c and c["p_holm"] >= c["p_value"] for c in res.comparisons)


def test_until_ci_plays_until_the_interval_is_narrow() -> None:
    res = run(Plan("toy", SETUP, ["random"], games=1000, seed=1, until_ci=0.2), Backend())
    s = res.batches[0].summary
    assert s["until_ci"]["reached"] and s["until_ci"]["width"] <= 0.2
    assert s["games"] == 100 and s["until_ci"]["looks"] == 1
    assert "alpha/(k(k+1))" in s["ci_method"]
    capped = run(Plan("toy", SETUP, ["heuristic:1"], games=40, seed=1, until_ci=0.01),
                 Backend()).batches[0]
    assert capped.summary["games"] == 40 and not capped.summary["until_ci"]["reached"]


def test_the_json_summary_is_stable() -> None:
    plan = Plan("toy", SETUP, ["heuristic:1"], games=15, seed=9)
    a = json.dumps(run(plan, Backend()).to_json(), sort_keys=True)
    b = json.dumps(run(plan, Backend()).to_json(), sort_keys=True)
    assert a == b
    s = json.loads(a)
    for key in ("games", "wins", "win_rate", "ci_low", "ci_high", "rounds", "defeat",
                "knockouts", "kills", "measures"):
        assert key in s


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_result_files_round_trip_and_replay(tmp_path: Path, suffix: str) -> None:
    res = run(Plan("toy", SETUP, ["heuristic:1"], games=6, seed=4,
                   content=[("scenarios.chase.rounds", 9)]), Backend())
    rows = res.rows()
    path = results.write(rows, tmp_path / f"r{suffix}")
    back = results.read(path)
    assert len(back) == 6 and [r["seed"] for r in back] == [r["seed"] for r in rows]
    assert back[3]["log"] == rows[3]["log"] and back[3]["win"] == rows[3]["win"]
    seen: list[str] = []
    got = replay(find_row(back, 3, "r"), lambda d, a, e: seen.append(a))
    assert got.matches and seen == json.loads(rows[3]["log"])
    assert replay(find_row(back, 3, "r"), lambda d, a, e: None, from_log=True).matches
    assert not list(tmp_path.glob(".*tmp"))


def test_result_files_refuse_what_they_cannot_be(tmp_path: Path) -> None:
    with pytest.raises(results.ResultsError, match="written as .parquet or .csv, not .xlsx"):
        results.write([], tmp_path / "r.xlsx")
    with pytest.raises(results.ResultsError, match="no such results file"):
        results.read(tmp_path / "none.parquet")
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(results.ResultsError, match="not a meadhall results file"):
        results.read(tmp_path / "x.csv")


def test_html_report_has_plots_and_replay_commands(tmp_path: Path) -> None:
    res = run(Plan("toy", SETUP, ["random", "heuristic:1"], games=12, seed=1), Backend())
    rows = res.rows()
    page = report.html_report(res, rows, tmp_path / "r.parquet", "meadhall sim toy")
    assert page.count("<svg") >= 3
    assert "Causes of defeat" in page and "Win rate with its interval" in page
    assert f"meadhall replay {tmp_path / 'r.parquet'} --row " in page
    assert "quickest defeats" in page


def test_measure_lines_have_one_cell_per_batch() -> None:
    res = run(Plan("toy", SETUP, ["random", "heuristic:1"], games=10, seed=1), Backend())
    lines = report.measure_lines([b.summary for b in res.batches])
    names = [n for n, _ in lines]
    assert "win rate" in names and "knockouts per game" in names and "escaped" in names
    assert any(n.startswith("defeat: caught") for n in names)
    assert all(len(cells) == 2 for _, cells in lines)


def test_summary_counts_errors() -> None:
    rows = [play(Job.make("toy", SETUP, s, "random", [("wind_deck", ["storm", "storm"])]))
            for s in range(3)]
    s = summarize(rows)
    assert s["errors"] == 3 and s["wins"] == 0 and len(s["error_examples"]) == 3
