"""The `meadhall` command, end to end on the toy game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meadhall import games
from meadhall.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, input: str | None = None):  # noqa: A002
    return runner.invoke(app, list(args), input=input)


def test_games_lists_the_registry() -> None:
    r = run("games")
    assert r.exit_code == 0 and "toy" in r.output and "Troll Chase" in r.output


def test_new_actions_act_show(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    r = run("new", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "3", "-o", str(f))
    assert r.exit_code == 0, r.output
    r = run("actions", str(f))
    assert r.exit_code == 0 and "1. move B1" in r.output
    r = run("act", str(f), "1")
    assert r.exit_code == 0 and "Ada moves to B1" in r.output
    saved = json.loads(f.read_text())
    assert saved["log"] == ["move B1"] and saved["journal"][0]["action"] == "move B1"
    r = run("show", str(f))
    assert r.exit_code == 0 and "Round 1" in r.output and "Ada moves to B1" in r.output
    r = run("actions", str(f), "--json")
    assert json.loads(r.output)["decision"]["seat"] == "bo"


def test_errors_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    run("new", "toy", "--seed", "1", "-o", str(f))
    before = f.read_text()
    r = run("act", str(f), "fly away")
    assert r.exit_code == 1
    assert "illegal action" in r.output and "Traceback" not in r.output
    assert f.read_text() == before
    r = run("act", str(f), "99")
    assert r.exit_code == 1 and "no action number 99" in r.output
    r = run("show", str(tmp_path / "missing.json"))
    assert r.exit_code == 1 and "no such file" in r.output
    r = run("new", "chess", "-o", str(f))
    assert r.exit_code == 1 and "unknown game" in r.output


def test_broken_save_names_file_and_field(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text('{"game": "toy", "seed": "x"}')
    r = run("show", str(f))
    assert r.exit_code == 1 and "g.json: seed: must be an integer" in r.output
    f.write_text('{"game": "toy", ')
    r = run("show", str(f))
    assert r.exit_code == 1 and "line 1" in r.output


def test_validate_content_and_positions(tmp_path: Path) -> None:
    r = run("validate", str(ROOT / "src/meadhall/games/toy/content"),
            str(ROOT / "docs/formats/toy-example.json"))
    assert r.exit_code == 0, r.output
    bad = tmp_path / "toy.json"
    bad.write_text(json.dumps({"authored": True, "scenarios": {}, "heroes": {},
                               "wind_deck": "calm"}))
    r = run("validate", str(bad))
    assert r.exit_code == 1 and "wind_deck" in r.output


def test_schema_export(tmp_path: Path) -> None:
    r = run("schema", "-o", str(tmp_path))
    assert r.exit_code == 0
    assert (tmp_path / "position.schema.json").exists()
    assert (tmp_path / "toy.toy.schema.json").exists()


def test_rules_coverage_lists_sections_and_totals() -> None:
    r = run("rules-coverage", "toy", "--root", str(ROOT))
    assert r.exit_code == 0, r.output
    assert "Troll Movement" in r.output
    assert "toy: 5 of 5 sections covered" in r.output


def test_play_with_undo_and_autosave(tmp_path: Path) -> None:
    save = tmp_path / "play.json"
    r = run("play", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "1", "--save",
            str(save), input="1\nundo\n?\nwait\nq\n")
    assert r.exit_code == 0, r.output
    assert "Undone." in r.output and "Ada waits" in r.output
    assert json.loads(save.read_text())["log"] == ["wait"]
    r = run("play", str(save), input="q\n")
    assert r.exit_code == 0 and "Resumed" in r.output


def test_play_asks_for_the_game_when_none_is_given(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    r = run("play", "--save", str(save), "--seed", "2", input="toy\nopen\nada,bo\nq\n")
    assert r.exit_code == 0, r.output
    assert json.loads(save.read_text())["setup"]["heroes"] == ["ada", "bo"]


def test_bench_runs() -> None:
    r = run("bench", "toy", "--runs", "1", "--seconds", "0.1", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)  # a load warning goes to stderr
    assert {row["game"] for row in rows} == {"toy"} and len(rows) == 2  # 1 and 2 heroes
    assert all(row["steps_per_s"] > 0 and row["deepcopy_us"] > 0 for row in rows)


def test_text_with_brackets_is_printed_literally(tmp_path: Path) -> None:
    # Rich markup must never eat game text such as "[keep the roll]" or "track [-]".
    save = tmp_path / "p.json"
    r = run("play", "toy", "--scenario", "chase", "--heroes", "ada", "--seed", "1", "--save",
            str(save), input="[bold]nonsense[/bold]\nq\n")
    assert r.exit_code == 0
    assert "[bold]nonsense[/bold]" in r.output


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_works_through_the_cli(tmp_path: Path, game_id: str) -> None:
    f = tmp_path / "g.json"
    assert run("new", game_id, "--seed", "5", "-o", str(f)).exit_code == 0
    for _ in range(3):
        if "Game over" in run("show", str(f)).output:
            break
        r = run("act", str(f), "1")
        assert r.exit_code == 0, r.output
    r = run("show", str(f))
    assert r.exit_code == 0 and ("decides" in r.output or "Game over" in r.output)
    assert run("validate", str(f)).exit_code == 0
