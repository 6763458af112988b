"""`meadhall sim-table`: the balance table's parties, cells, resumption and Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meadhall import games
from meadhall.cli import app
from meadhall.core.errors import MeadhallError
from meadhall.sim import table

runner = CliRunner()


def test_parties_follow_what_each_game_accepts() -> None:
    toy = table.parties(games.get("toy"))
    assert [(p.scenario, p.heroes, p.default) for p in toy] == [
        ("chase", ("ada",), True), ("chase", ("ada", "bo"), False),
        ("open", ("ada",), True), ("open", ("ada", "bo"), False)]
    # BattleForge takes 2 to 4 champions: no party of one.
    bf = table.parties(games.get("battleforge"), ["last_flame"])
    assert [len(p.heroes) for p in bf] == [2, 3, 4] and bf[0].default
    assert [len(p.heroes) for p in table.parties(games.get("midhalla"), ["chapter1"],
                                                 all_sizes=False)] == [2]


def test_parse_games_keeps_bot_order_and_refuses_nonsense() -> None:
    assert table.parse_games("random=5,mcts:20=2") == {"random": 5, "mcts:20": 2}
    assert table.parse_games(None) == table.DEFAULT_GAMES
    for bad in ("random", "random=0", "random=2,random=3", "telepath=3"):
        with pytest.raises(MeadhallError):
            table.parse_games(bad)


def test_cells_are_the_sim_figures_and_a_rerun_plays_only_missing_ones(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    args = ["sim-table", "toy", "--scenario", "open", "--games", "random=4,heuristic:1=6",
            "--others", "0.5", "--workers", "1", "--out", str(out)]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    cells = table.load(out)
    assert [(c.heroes, c.bot, c.games) for c in cells] == [
        (("ada",), "random", 4), (("ada",), "heuristic:1", 6),
        (("ada", "bo"), "random", 4), (("ada", "bo"), "heuristic:1", 6)]
    # Each cell is exactly what its `meadhall sim` command measures.
    c = cells[3]
    sim = runner.invoke(app, [*c.command.split()[1:], "--workers", "1", "--json"])
    s = json.loads(sim.output)
    assert (s["wins"], s["games"], s["ci_low"], s["ci_high"]) == (c.wins, c.games, c.ci_low,
                                                                  c.ci_high)
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and len(out.read_text().splitlines()) == 4
    md = runner.invoke(app, ["sim-table", "toy", "--markdown", "--out", str(out)])
    assert md.exit_code == 0, md.output
    assert "| open | 1: ada (default) | " in md.output
    assert f"{c.wins}/6 = " in md.output and "`heuristic:1`" in md.output


def test_markdown_of_an_empty_file_is_a_clear_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["sim-table", "toy", "--markdown", "--out",
                            str(tmp_path / "none.jsonl")])
    assert r.exit_code == 1 and "no cells for toy" in r.output


def test_cells_of_other_content_are_marked_and_measured_again(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    args = ["sim-table", "toy", "--scenario", "chase", "--default-party", "--games",
            "random=3", "--workers", "1", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    (cell,) = table.load(out)
    assert cell.content == table.content_id(games.get("toy"))
    out.write_text(out.read_text().replace(cell.content, "0ld0ld0ld0ld"))
    md = runner.invoke(app, ["sim-table", "toy", "--markdown", "--out", str(out)]).output
    assert "(other content: measure again)" in md
    assert runner.invoke(app, args).exit_code == 0
    assert len(table.load(out)) == 2  # the stale cell is kept in the file, played again
    md = runner.invoke(app, ["sim-table", "toy", "--markdown", "--out", str(out)]).output
    assert "other content" not in md and md.count("| chase |") == 1
