"""What a designer reads: progress off a terminal, full-width tables, CPU-time bench figures,
p-values, interval levels and outward rounding, and the report's plots (issue 21)."""

from __future__ import annotations

import io
import re
import time

import pytest
from rich.console import Console
from typer.testing import CliRunner

from meadhall import bench
from meadhall.cli import WIDE, _out, app
from meadhall.sim import report
from meadhall.sim.commands import ProgressLines, progress_bar
from meadhall.sim.lab import Plan, run
from meadhall.sim.runner import Backend

SETUP = {"scenario": "chase", "heroes": ["ada"]}


def test_progress_lines_off_a_terminal_say_games_rate_and_time_left() -> None:
    buf = io.StringIO()
    err = Console(file=buf, width=200)
    assert not err.is_terminal
    now = [0.0]
    lines = ProgressLines(err, every=0.05, clock=lambda: now[0])
    advance = lines.announce("heuristic", 100)
    now[0] = 10.0
    advance(25)
    assert lines.line() == "heuristic: 25/100 games, 2.50 games/s, about 30 s left"
    advance(75)
    assert lines.line().endswith("100/100 games, 10.00 games/s, done")
    time.sleep(0.2)  # the timer thread prints on its own
    lines.close()
    assert "games/s" in buf.getvalue()


def test_progress_bar_prints_lines_off_a_terminal_and_nothing_when_quiet() -> None:
    buf = io.StringIO()
    with progress_bar(Console(file=buf), quiet=True) as announce:
        announce("x", 10)(10)
    assert buf.getvalue() == ""
    lines: list[str] = []

    class Fake(ProgressLines):
        def __init__(self, err: Console) -> None:
            super().__init__(err, every=0.01)

    import meadhall.sim.commands as commands

    old = commands.ProgressLines
    commands.ProgressLines = Fake  # type: ignore[misc]
    try:
        with progress_bar(Console(file=buf)) as announce:
            announce("batch", 4)(2)
            time.sleep(0.1)
    finally:
        commands.ProgressLines = old  # type: ignore[misc]
    lines = buf.getvalue().splitlines()
    assert lines and all(re.fullmatch(r"batch: 2/4 games, [\d.]+ games/s, .*", x) for x in lines)


def test_sim_quiet_prints_no_progress_and_piped_tables_are_not_cut() -> None:
    r = CliRunner().invoke(app, ["sim", "toy", "--bots", "random,heuristic:1", "--games", "4",
                                 "--workers", "1", "--sweep", "scenarios.chase.rounds=4,20",
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    assert "…" not in r.output  # nothing truncated although the runner's output is no terminal
    assert "significant" in r.output or "p Holm" in r.output
    assert "games/s" not in r.output


def test_output_that_is_not_a_terminal_is_wide() -> None:
    con = _out()
    assert con.is_terminal or con.width == WIDE


def test_bench_measures_cpu_time_and_warns_when_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bench.CLOCK is time.process_time
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (50.0, 50.0, 50.0))
    text = bench.load_warning()
    assert text is not None and "load average is 50.0" in text
    buf = io.StringIO()
    bench.run_bench(Console(file=buf, width=300), "toy", 1, 0.05, all_parties=False,
                    err=Console(file=buf, width=300))
    assert "warning:" in buf.getvalue() and "CPU" in buf.getvalue()
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert bench.load_warning() is None


def test_p_values_print_in_one_style() -> None:
    assert report.p_text(3.1e-05) == "< 0.001"
    assert report.p_text(0.0) == "< 0.001"
    assert report.p_text(0.04234) == "0.042"
    assert report.p_text(1.0) == "1.000"


def test_interval_bounds_are_rounded_outward() -> None:
    assert report.pct_bound(0.1135, up=True) == "11.4%"
    assert report.pct_bound(0.1135, up=False) == "11.3%"
    assert report.pct_bound(0.113, up=True) == "11.3%"  # an exact bound stays
    assert report.interval({"win_rate": 0.2, "ci_low": 0.11349, "ci_high": 0.31351}) == \
        "20.0% [11.3%–31.4%]"
    assert report.interval({"mean": 2.0, "ci_low": 1.234, "ci_high": 2.761}, False) == \
        "2.00 [1.23–2.77]"


def test_until_ci_tables_name_their_interval_levels() -> None:
    res = run(Plan("toy", SETUP, ["random"], games=300, seed=1, until_ci=0.2), Backend())
    s = res.batches[0].summary
    assert s["ci_level"] > 0.95  # a sequential look spends only part of alpha
    buf = io.StringIO()
    report.print_report(Console(file=buf, width=300), res)
    text = buf.getvalue()
    assert f"win rate [{report.level_text(s['ci_level'])} interval]" in text
    assert "Measures (intervals 95%; the win rate's" in text
    page = report.html_report(res, res.rows(), None)
    assert f"win rate [{report.level_text(s['ci_level'])} interval]" in page


def test_plots_show_shares_of_losses_margin_distributions_and_clip_rounds() -> None:
    res = run(Plan("toy", SETUP, ["random", "heuristic:1"], games=40, seed=1), Backend())
    rows = res.batches[0].rows
    rows[0]["rounds"] = 205  # one very long game
    titles = [t for t, _ in report.plots(res)]
    clipped = [t for t in titles if t.startswith("Rounds played")]
    assert clipped and "clipped at the 99% quantile" in clipped[0] and "up to 205" in clipped[0]
    assert any(t.startswith("Causes of defeat (shares of each batch's lost games)")
               for t in titles)
    margins = [t for t in titles if t.startswith("Margin of defeat")]
    assert margins and all("box = quartiles" in t for t in margins)
    # every batch's causes add up to its losses, not to its games
    for s in (b.summary for b in res.batches):
        if s["losses"]:
            assert sum(t["count"] for t in s["defeat"]["triggers"].values()) == s["losses"]
