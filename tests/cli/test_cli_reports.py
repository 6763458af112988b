"""`meadhall bench` and `meadhall rules-coverage` explain what their columns mean."""

from __future__ import annotations

from clitools import ROOT, meadhall


def test_bench_explains_every_column() -> None:
    r = meadhall("bench", "toy", "--runs", "1", "--seconds", "0.1", "--default-party")
    assert r.exit_code == 0, r.output
    columns = r.output.split("Columns:")[1].strip().splitlines()
    assert len(columns) >= 10
    assert not [c for c in columns if "(not described yet)" in c]
    assert any(c.strip().startswith("rollouts/s: clone a mid-game state") for c in columns)


def test_rules_coverage_explains_its_numbers() -> None:
    r = meadhall("rules-coverage", "toy", "--root", str(ROOT))
    assert r.exit_code == 0, r.output
    assert "the number of tests that cite it" in r.output
    assert "n/a: nothing to test" in r.output
    assert "toy: 5 of 5 sections covered (tested or n/a)" in r.output
