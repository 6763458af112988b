"""`meadhall sim`, `tune` and `replay` from the command line (toy game, small batches)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meadhall.cli import app

runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_sim_json_summary_is_stable() -> None:
    args = ("sim", "toy", "--heroes", "ada", "--bot", "heuristic:1", "--games", "12",
            "--seed", "3", "--workers", "1", "--json")
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    s = json.loads(a.output)
    assert s["games"] == 12 and 0 <= s["ci_low"] <= s["win_rate"] <= s["ci_high"] <= 1
    assert s["bot"] == "heuristic:1" and s["heroes"] == "ada"


def test_sim_report_rows_html_and_replay(tmp_path: Path) -> None:
    out, page = tmp_path / "r.csv", tmp_path / "r.html"
    r = run("sim", "toy", "--scenario", "open", "--heroes", "ada,bo", "--bots",
            "random,heuristic:1", "--games", "8", "--workers", "2", "--out", str(out),
            "--html", str(page))
    assert r.exit_code == 0, r.output
    for text in ("Win rates", "random", "heuristic:1", "Effects on the win rate",
                 "Measures", "knockouts per game", "16 rows written"):
        assert text in r.output
    assert "<svg" in page.read_text() and f"meadhall replay {out} --row" in page.read_text()
    r = run("replay", str(out), "--row", "9")
    assert r.exit_code == 0, r.output
    assert "Reproduced: the same actions and result as the row." in r.output
    assert "   1. " in r.output and "—" in r.output


def test_sim_html_alone_keeps_rows_for_the_replay_links(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    r = run("sim", "toy", "--bot", "random", "--games", "5", "--workers", "1",
            "--html", str(page))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "report.parquet").exists()


def test_sim_sweep_and_content(tmp_path: Path) -> None:
    r = run("sim", "toy", "--heroes", "ada", "--bot", "heuristic:1", "--games", "10",
            "--workers", "1", "--content", "scenarios.chase.rounds=10",
            "--sweep", "wind_deck.0=calm,gust", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    labels = [b["batch"] for b in s["batches"]]
    assert labels == ['wind_deck.0="calm" (current)', 'wind_deck.0="gust"']
    assert s["batches"][1]["content"] == {"scenarios.chase.rounds": 10, "wind_deck.0": "gust"}
    assert len(s["comparisons"]) == 1 and "p_holm" in s["comparisons"][0]


def test_sim_until_ci() -> None:
    r = run("sim", "toy", "--heroes", "ada,bo", "--bot", "random", "--until-ci", "0.3",
            "--games", "500", "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    assert s["until_ci"]["reached"] and s["ci_high"] - s["ci_low"] <= 0.3


@pytest.mark.parametrize(("args", "message"), [
    (("--bot", "genius"), "unknown bot 'genius'"),
    (("--content", "scenarios.chase.turns=3"), "has no field 'turns'"),
    (("--sweep", "scenarios.chase.rounds"), "expected PATH=V1,V2"),
    (("--workers", "0"), "--workers takes a positive number or auto"),
    (("--out", "r.xlsx"), "written as .parquet or .csv"),
    (("--until-ci", "2"), "--until-ci takes an interval width between 0 and 1"),
    (("--heroes", "zed"), "unknown hero 'zed'"),
    (("--backend", "spark"), "unknown backend 'spark'; choose local or ray"),
    (("--address", "10.0.0.5:6379"), "--address 10.0.0.5:6379 names a Ray cluster: add "
                                      "--backend ray"),
    (("--ray-address", "10.0.0.5:6379"), "add --backend ray"),
])
def test_sim_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    r = runner.invoke(app, ["sim", "toy", "--games", "2", "--workers", "1", *args])
    assert r.exit_code == 1
    assert message in r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output


def test_sim_reports_games_that_failed(tmp_path: Path) -> None:
    r = run("sim", "toy", "--bot", "random", "--games", "3", "--workers", "1",
            "--content", 'wind_deck=["storm", "storm"]')
    assert r.exit_code == 1
    assert "KeyError: 'storm'" in r.output and "3 of 3 games stopped with an error" in r.output


def test_tune_finds_values_near_the_target() -> None:
    r = run("tune", "toy", "--heroes", "ada", "--param", "scenarios.chase.rounds=2..14",
            "--target-win", "0.4", "--bot", "heuristic:1", "--games", "10", "--trials", "4",
            "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)  # the plan line goes to stderr
    assert res["before"] == {"scenarios.chase.rounds": 12}
    assert res["authored"] == {"scenarios.chase.rounds": True}
    assert len(res["trials"]) == 4
    best = res["best"]
    assert 2 <= best["values"]["scenarios.chase.rounds"] <= 14
    assert min(abs(t["win_rate"] - 0.4) for t in res["trials"]) == abs(best["win_rate"] - 0.4)
    assert res["confirmed"]["games"] == 10


def test_tune_table_output() -> None:
    r = run("tune", "toy", "--param", "scenarios.chase.rounds=1..14", "--bot", "random",
            "--games", "4", "--trials", "4", "--workers", "1")
    assert r.exit_code == 0, r.output
    assert "Best values" in r.output and "scenarios.chase.rounds: 12 →" in r.output
    assert "Measured again on 4 fresh games" in r.output


@pytest.mark.parametrize(("args", "message"), [
    (("--param", "scenarios.chase.rounds=5"), "expected PATH=LOW..HIGH"),
    (("--param", "scenarios.chase.rounds=6..2"), "LOW must be below HIGH"),
    (("--param", "scenarios.chase.name=1..2"), "is 'Troll Chase', not a number"),
    (("--param", "scenarios.chase.rounds=1..3", "--target-win", "1.5"), "between 0 and 1"),
])
def test_tune_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    r = runner.invoke(app, ["tune", "toy", "--games", "2", "--trials", "1", "--workers", "1",
                            *args])
    assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output


def test_replay_bad_row(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    assert run("sim", "toy", "--bot", "random", "--games", "2", "--workers", "1", "--out",
               str(out)).exit_code == 0
    r = run("replay", str(out), "--row", "7")
    assert r.exit_code == 1 and "no row 7 (rows 0 to 1)" in r.output
    r = run("replay", str(tmp_path / "nothing.parquet"), "--row", "0")
    assert r.exit_code == 1 and "no such results file" in r.output


def test_tune_never_picks_values_that_break_the_game() -> None:
    from meadhall.sim.runner import Backend
    from meadhall.sim.tune import Param, tune

    res = tune("toy", {"heroes": ["ada"]}, [Param("scenarios.chase.rounds", -1, 4, True)],
               0.5, Backend(), bot="random", games=3, trials=8, seed=2)
    broken = [t for t in res.trials if t.errors]
    assert broken and all(t.values["scenarios.chase.rounds"] <= 0 for t in broken)
    assert "greater than 0" in str(broken[0].error)
    assert res.best is not None and res.best.values["scenarios.chase.rounds"] > 0
    assert res.to_json()["trials"][0]["errors"] in (0, 3)


def test_tune_prints_its_plan_and_finds_no_effect() -> None:
    # the open scenario's round limit cannot change a game of the chase scenario
    r = run("tune", "toy", "--heroes", "ada", "--scenario", "chase", "--param",
            "scenarios.open.rounds=3..9", "--bot", "random", "--games", "10", "--trials", "3",
            "--workers", "1", "--quiet")
    assert r.exit_code == 0, r.output
    assert "Plan: 3 trials x 10 games + 10 confirmation games = 40 games" in r.output
    assert "min on 1 worker" in r.output
    assert "No effect: scenarios.open.rounds from 3 to 9" in r.output
    assert "Best values" not in r.output


def test_tune_takes_several_targets() -> None:
    r = run("tune", "toy", "--heroes", "ada", "--param", "scenarios.chase.rounds=2..14",
            "--target-win", "0.3", "--target", "rounds=6", "--target", "decisions=20",
            "--bot", "random", "--games", "10", "--trials", "4", "--workers", "1", "--json",
            "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["targets"] == {"rounds": 6.0, "decisions": 20.0}
    assert set(data["best"]["means"]) >= {"rounds", "decisions"}
    bad = run("tune", "toy", "--param", "scenarios.chase.rounds=2..4", "--target",
              "nonsense=3", "--games", "2", "--trials", "1", "--workers", "1", "--quiet")
    assert bad.exit_code == 1 and "no such numeric measure" in bad.output
