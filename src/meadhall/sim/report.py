"""Reports of a lab run: tables for the terminal (Rich) and a self-contained HTML page with
plots (matplotlib, inline SVG) whose outlier games link to their replay command.
"""

from __future__ import annotations

import html
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from meadhall.sim.lab import LabResult
from meadhall.sim.results import write_text
from meadhall.sim.summary import Row


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _outward(x: float, digits: int, up: bool) -> float:
    """``x`` rounded to ``digits`` decimals away from the interval's inside (a bound never
    printed narrower than it is); a hair of slack keeps exact values as they are."""
    k = 10 ** digits
    return (math.ceil(x * k - 1e-6) if up else math.floor(x * k + 1e-6)) / k


def pct_bound(x: float | None, up: bool) -> str:
    """An interval bound as a percentage, rounded outward: an upper bound of 11.35% prints
    11.4%, a lower bound of 31.96% prints 31.9%."""
    return "–" if x is None else f"{_outward(100 * x, 1, up):.1f}%"


def interval(d: dict[str, Any], as_pct: bool = True) -> str:
    """``41.0% [31.9–50.8%]`` (or plain numbers for means); bounds rounded outward."""
    if as_pct:
        value = pct(d.get("share", d.get("win_rate")))
        if d.get("ci_low") is None or d.get("ci_high") is None:
            return value
        return f"{value} [{pct_bound(d.get('ci_low'), False)}–{pct_bound(d.get('ci_high'), True)}]"
    m, lo, hi = d.get("mean"), d.get("ci_low"), d.get("ci_high")
    if m is None:
        return "–"
    if lo is None or hi is None:
        return f"{m:.2f}"
    return f"{m:.2f} [{_outward(lo, 2, False):.2f}–{_outward(hi, 2, True):.2f}]"


def p_text(p: float | None) -> str:
    """A p-value as printed everywhere: ``< 0.001`` below a thousandth, else three
    decimals (``0.042``)."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< 0.001" if p < 0.001 else f"{min(p, 1.0):.3f}"


def level_text(level: float) -> str:
    """A confidence level as a percentage: ``95%``, ``99.17%``."""
    text = f"{100 * level:.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


def win_header(summary: dict[str, Any]) -> str:
    """The win-rate column's header, naming its interval's level (a sequential run's is
    wider than the measures' 95%)."""
    return f"win rate [{level_text(summary.get('ci_level', 0.95))} interval]"


def _counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in d.items()) or "–"


BARS = " ▁▂▃▄▅▆▇█"


def sparklines(summaries: Sequence[dict[str, Any]], width: int = 30) -> tuple[str, list[str]]:
    """The rounds histogram of each batch as a bar line on a common scale, and the scale's
    label (``rounds 1–12``)."""
    hists = [{int(k): v for k, v in s["rounds"].get("histogram", {}).items()}
             for s in summaries]
    keys = [k for h in hists for k in h]
    if not keys:
        return "rounds histogram", ["–" for _ in summaries]
    lo, hi = min(keys), max(keys)
    step = max(1, -(-(hi - lo + 1) // width))
    lines = []
    for h in hists:
        bins = [0] * ((hi - lo) // step + 1)
        for k, v in h.items():
            bins[(k - lo) // step] += v
        top = max(bins) or 1
        lines.append("".join(BARS[0 if not b else max(1, round(8 * b / top))] for b in bins))
    per = "" if step == 1 else f", {step} per bar"
    return f"rounds histogram ({lo}–{hi}{per})", lines


def measure_lines(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Every measure as a line with one cell per batch (shares of losses for causes of
    defeat, per game for knockouts and kills), in a stable order."""
    lines: list[tuple[str, list[str]]] = []

    def add(name: str, cell: Any) -> None:
        lines.append((name, [cell(s) for s in summaries]))

    add("win rate", lambda s: interval(s))
    add("rounds: mean (median, 10–90%)", lambda s: "–" if not s["rounds"].get("n") else
        f"{s['rounds']['mean']:.1f} ({s['rounds']['median']:g}, {s['rounds']['p10']:g}–"
        f"{s['rounds']['p90']:g})")
    label, bars = sparklines(summaries)
    lines.append((label, bars))
    add("rounds of wins / of losses", lambda s: " / ".join(
        f"{x['mean']:.1f}" if x.get("n") else "–"
        for x in (s["rounds_of_wins"], s["rounds_of_losses"])))
    add("decisions per game", lambda s: interval(s["decisions"], False))

    def keys(*path: str) -> list[str]:
        out: dict[str, None] = {}
        for s in summaries:
            d: Any = s
            for p in path:
                d = d.get(p, {})
            out.update(dict.fromkeys(d))
        return list(out)

    def dig(s: dict[str, Any], *path: str) -> Any:
        d: Any = s
        for p in path:
            d = d.get(p) if isinstance(d, dict) else None
            if d is None:
                return None
        return d

    for t in keys("defeat", "triggers"):
        add(f"defeat: {t} (share of losses)", lambda s, t=t: interval(
            dig(s, "defeat", "triggers", t) or {"share": 0.0, "ci_low": None,
                                                 "ci_high": None}))
    for b in keys("defeat", "final_blows"):
        add(f"final blow: {b}", lambda s, b=b: interval(
            dig(s, "defeat", "final_blows", b) or {"share": 0.0, "ci_low": None,
                                                    "ci_high": None}))
    for m in keys("defeat", "margins"):
        add(f"{m} (losses)", lambda s, m=m: interval(dig(s, "defeat", "margins", m) or {},
                                                     False))
    add("knockouts per game", lambda s: interval(s["knockouts"]["per_game"], False))
    for h in keys("knockouts", "by_hero"):
        add(f"knockouts of {h} per game", lambda s, h=h: f"{(dig(s, 'knockouts', 'by_hero', h) or {}).get('per_game', 0):.2f}")
    for h in keys("knockouts", "fell_first"):
        add(f"{h} fell first (share of games)", lambda s, h=h: interval(
            dig(s, "knockouts", "fell_first", h) or {"share": 0.0, "ci_low": None,
                                                      "ci_high": None}))
    for t in keys("knockouts", "by_enemy_type"):
        add(f"knocked out by {t}", lambda s, t=t: _counts(
            dig(s, "knockouts", "by_enemy_type", t) or {}))
    add("kills per game", lambda s: interval(s["kills"]["per_game"], False))
    for h in keys("kills", "by_hero"):
        add(f"kills by {h} per game", lambda s, h=h: f"{(dig(s, 'kills', 'by_hero', h) or {}).get('per_game', 0):.2f}")
    for t in keys("kills", "by_enemy_type"):
        add(f"{t} killed", lambda s, t=t: str(dig(s, "kills", "by_enemy_type", t) or 0))
    for m in keys("measures"):
        def cell(s: dict[str, Any], m: str = m) -> str:
            d = dig(s, "measures", m)
            if d is None:
                return "–"
            if "yes" in d:
                return interval(d["yes"])
            if "counts" in d:
                return _counts(d["counts"])
            return interval(d, False)
        add(m, cell)
    return lines


def effect_interval(x: dict[str, Any]) -> str:
    """An effect's interval in points, bounds rounded outward."""
    lo = _outward(100 * x["ci_low"], 1, False)
    hi = _outward(100 * x["ci_high"], 1, True)
    return f"[{lo:+.1f}, {hi:+.1f}]"


def short(result: LabResult, label: str) -> str:
    """A batch label without the swept path, which the report names once."""
    if result.plan.sweep is None:
        return label
    return label.replace(f"{result.plan.sweep[0]}=", "")


def sweep_line(result: LabResult) -> str:
    return f"Sweep of {result.plan.sweep[0]} (batches named by its value)" \
        if result.plan.sweep else ""


def print_report(con: Console, result: LabResult) -> None:
    """The run's report in the terminal: win rates, comparisons, every measure per batch."""
    summaries = [b.summary for b in result.batches]
    first = summaries[0]
    con.print(f"[bold]{escape(str(first['game']))}[/bold] scenario "
              f"{escape(str(first['scenario']))}, heroes {escape(str(first['heroes']))}, "
              f"seed {result.plan.seed}")
    if result.plan.sweep:
        con.print(escape(sweep_line(result)))
    t = Table("batch", "games", "wins", win_header(first), "unfinished", "errors",
              title="Win rates")
    for b, s in zip(result.batches, summaries, strict=True):
        extra = ""
        if "until_ci" in s:
            u = s["until_ci"]
            extra = f" ({u['looks']} looks, width {u['width']:.3f}" + \
                ("" if u["reached"] else f", [red]not {u['width_asked']:g}: --games cap[/red]") \
                + ")"
        t.add_row(escape(short(result, b.variant.label)), str(s["games"]), str(s["wins"]),
                  escape(interval(s)) + extra, str(s["unfinished"]),
                  f"[red]{s['errors']}[/red]" if s["errors"] else "0")
    con.print(t)
    if "until_ci" in first:
        con.print(f"[dim]Intervals: {escape(first['ci_method'])}[/dim]")
    if result.comparisons:
        c = Table("variant", "baseline", "effect",
                  f"interval ({level_text(result.comparisons[0].get('ci_level', 0.95))}, "
                  "simultaneous)", "p", "p Holm", "",
                  title="Effects on the win rate (simultaneous intervals, Holm-corrected p)")
        for x in result.comparisons:
            c.add_row(escape(short(result, x["variant"])), escape(short(result, x["baseline"])),
                      f"{100 * x['effect']:+.1f} pts",
                      effect_interval(x), p_text(x["p_value"]), p_text(x["p_holm"]),
                      "[bold]significant[/bold]" if x["significant"] else "")
        con.print(c)
    m = Table("measure", *[escape(short(result, b.variant.label)) for b in result.batches],
              title=f"Measures (intervals {level_text(result.plan.level)}"
              + (f"; the win rate's {level_text(first.get('ci_level', 0.95))}, sequential)"
                 if "until_ci" in first else ")"))
    for name, cells in [*measure_lines(summaries), cpu_line(result)]:
        m.add_row(escape(name), *[escape(x) for x in cells])
    con.print(m)
    for s in summaries:
        for e in s["error_examples"]:
            con.print(f"[red]error[/red] in {escape(s['batch'])} seed {e['seed']}: "
                      f"{escape(str(e['error']))}")


# ---------------------------------------------------------------------- HTML
def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def plots(result: LabResult) -> list[tuple[str, str]]:
    """The report's figures as (title, inline SVG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: list[tuple[str, str]] = []
    labels = [short(result, b.variant.label) for b in result.batches]
    summaries = [b.summary for b in result.batches]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.2))
    rates = [s["win_rate"] for s in summaries]
    lows = [s["win_rate"] - s["ci_low"] for s in summaries]
    highs = [s["ci_high"] - s["win_rate"] for s in summaries]
    ax.errorbar(range(len(labels)), rates, yerr=[lows, highs], fmt="o", capsize=5)
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.axhspan(0.3, 0.7, color="green", alpha=0.07)
    ax.grid(axis="y", alpha=0.3)
    out.append(("Win rate with its interval per batch", _svg(fig)))

    out.append(rounds_plot(result, plt))
    curves = trajectory_plot(result, plt)
    if curves is not None:
        out.append(curves)

    triggers = sorted({t for s in summaries for t in s["defeat"]["triggers"]})
    if triggers:
        fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.2))
        bottom = [0.0] * len(labels)
        for t in triggers:
            # shares of each batch's losses, as the axis says (a batch without a loss: 0)
            vals = [(s["defeat"]["triggers"].get(t) or {}).get("count", 0)
                    / max(1, s["losses"]) for s in summaries]
            ax.bar(range(len(labels)), vals, bottom=bottom, label=t)
            bottom = [a + b for a, b in zip(bottom, vals, strict=True)]
        ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
        ax.set_ylabel("share of games lost")
        ax.set_ylim(0, 1)
        ax.legend(fontsize="small")
        out.append(("Causes of defeat (shares of each batch's lost games)", _svg(fig)))

    margins = sorted({m for s in summaries for m in s["defeat"]["margins"]})
    for m in margins:
        # the distribution over lost games tells how close they came, a mean does not
        data, where = [], []
        for i, b in enumerate(result.batches):
            vals = [float(r[m]) for r in b.rows if r.get("result") == "loss"
                    and isinstance(r.get(m), (int, float)) and not isinstance(r.get(m), bool)
                    and not math.isnan(float(r[m]))]
            if vals:
                data.append(vals)
                where.append(i)
        if not data:
            continue
        fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.0))
        ax.boxplot(data, positions=where, widths=0.5, showmeans=True)
        ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylabel(m.removeprefix("margin_").replace("_", " "))
        ax.grid(axis="y", alpha=0.3)
        out.append((f"Margin of defeat: {m} (lost games: box = quartiles, whiskers 1.5 IQR, "
                    "triangle = mean)", _svg(fig)))
    return out


BANDS = (0.1, 0.25, 0.5, 0.75, 0.9)
"""Quantiles of the tension curves: a 10–90% band, a 25–75% band and the median."""


def curves(rows: Sequence[Row], won: bool) -> list[tuple[float, list[float]]]:
    """Per round, the quantiles :data:`BANDS` of ``evaluate`` over the won (or lost) games
    still going then (each row's ``trajectory``: [round, value] as each round began)."""
    by_round: dict[float, list[float]] = {}
    for r in rows:
        if r.get("result") != ("win" if won else "loss") or not r.get("trajectory"):
            continue
        points = json.loads(r["trajectory"])
        for i, (rnd, v) in enumerate(points):
            x = float(rnd) if isinstance(rnd, (int, float)) else float(i)
            by_round.setdefault(x, []).append(float(v))
    from meadhall.sim.stats import quantile

    return [(x, [quantile(sorted(vs), q) for q in BANDS]) for x, vs in sorted(by_round.items())]


def trajectory_plot(result: LabResult, plt: Any) -> tuple[str, str] | None:
    """The tension curves: the party's ``evaluate`` per round in won and in lost games,
    median with 25–75% and 10–90% bands, one panel per batch (at most six)."""
    batches = result.batches[:6]
    if not any(r.get("trajectory") for b in batches for r in b.rows):
        return None
    fig, axes = plt.subplots(1, len(batches), figsize=(max(5.0, 3.6 * len(batches)), 3.2),
                             sharey=True, squeeze=False)
    for ax, b in zip(axes[0], batches, strict=True):
        for won, color in ((True, "tab:green"), (False, "tab:red")):
            c = curves(b.rows, won)
            if not c:
                continue
            xs = [x for x, _ in c]
            q = list(zip(*[qs for _, qs in c], strict=True))
            ax.fill_between(xs, q[0], q[4], color=color, alpha=0.12, linewidth=0)
            ax.fill_between(xs, q[1], q[3], color=color, alpha=0.25, linewidth=0)
            ax.plot(xs, q[2], color=color, label="won" if won else "lost")
        ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
        ax.set_ylim(0, 1)
        ax.set_xlabel("round")
        ax.set_title(short(result, b.variant.label), fontsize="small")
        ax.legend(fontsize="small")
    axes[0][0].set_ylabel("party's evaluate")
    return ("Tension: the party's evaluation per round in won and lost games (median, "
            "25–75% and 10–90% of the games still going)", _svg(fig))


def cpu_line(result: LabResult) -> tuple[str, list[str]]:
    """CPU seconds per game of each batch on this machine (mean and the slowest game)."""
    cells = []
    for b in result.batches:
        vals = [float(r["cpu_seconds"]) for r in b.rows
                if isinstance(r.get("cpu_seconds"), (int, float))]
        cells.append(f"{sum(vals) / len(vals):.3f} (max {max(vals):.3f})" if vals else "–")
    return "CPU seconds per game on this machine (mean, max)", cells


ROUNDS_CLIP = 0.99
"""The rounds histogram shows games up to this quantile; longer games are counted in its
title (one 205-round game would otherwise squash every other bar)."""


def rounds_plot(result: LabResult, plt: Any) -> tuple[str, str]:
    """The rounds histogram of every batch, clipped at the :data:`ROUNDS_CLIP` quantile."""
    from meadhall.sim.stats import quantile

    every = sorted(float(r["rounds"]) for b in result.batches for r in b.rows
                   if isinstance(r.get("rounds"), (int, float)))
    fig, ax = plt.subplots(figsize=(6, 3.2))
    title = "Rounds played"
    if every:
        cap = int(math.ceil(quantile(every, ROUNDS_CLIP)))
        longer = sum(1 for v in every if v > cap)
        lo = int(min(every))
        for b in result.batches:
            values = [r["rounds"] for r in b.rows if isinstance(r.get("rounds"), (int, float))
                      and r["rounds"] <= cap]
            if values:
                ax.hist(values, bins=range(lo, cap + 2), histtype="step",
                        label=short(result, b.variant.label), align="left")
        if longer:
            title += (f" (clipped at the {ROUNDS_CLIP:.0%} quantile, {cap} rounds: {longer} "
                      f"longer game{'s' if longer > 1 else ''} not shown, up to "
                      f"{int(max(every))})")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    if len(result.batches) > 1:
        ax.legend(fontsize="small")
    return title, _svg(fig)


def outliers(rows: Sequence[Row], limit: int = 12) -> list[tuple[Row, str]]:
    """Games worth a look, with why: errors and unfinished games, the quickest defeats, and
    games whose length lies beyond Tukey's fences of their batch."""
    out: list[tuple[Row, str]] = []
    seen: set[int] = set()

    def take(r: Row, why: str) -> None:
        if r["row"] not in seen and len(out) < limit:
            seen.add(r["row"])
            out.append((r, why))

    for r in rows:
        if r["result"] in ("error", "unfinished"):
            take(r, r["result"] + (f": {r['error']}" if r.get("error") else ""))
    batches: dict[str, list[Row]] = {}
    for r in rows:
        batches.setdefault(r["batch"], []).append(r)
    for batch_rows in batches.values():
        losses = sorted((r for r in batch_rows if r["result"] == "loss"
                         and r.get("rounds") is not None), key=lambda r: (r["rounds"], r["row"]))
        for r in losses[:2]:
            take(r, f"one of the quickest defeats ({r['rounds']} rounds: {r['reason']})")
        vals = sorted(float(r["rounds"]) for r in batch_rows if r.get("rounds") is not None)
        if len(vals) >= 8:
            from meadhall.sim.stats import quantile

            q1, q3 = quantile(vals, 0.25), quantile(vals, 0.75)
            lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
            for r in batch_rows:
                if r.get("rounds") is not None and not lo <= r["rounds"] <= hi:
                    take(r, f"unusually {'long' if r['rounds'] > hi else 'short'} "
                         f"({r['rounds']} rounds, {r['result']})")
    return out


def _table(head: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    h = "".join(f"<th>{html.escape(x)}</th>" for x in head)
    b = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in body)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{b}</tbody></table>"


def html_report(result: LabResult, rows: Sequence[Row], results_file: Path | None,
                command: str = "") -> str:
    """A self-contained HTML page: tables, plots and the outlier games with their replay
    command (``rows`` are numbered as in ``results_file``)."""
    summaries = [b.summary for b in result.batches]
    first = summaries[0]
    parts = [f"<h1>meadhall sim: {html.escape(str(first['game']))}</h1>",
             f"<p>Scenario <b>{html.escape(str(first['scenario']))}</b>, heroes "
             f"<b>{html.escape(str(first['heroes']))}</b>, seed {result.plan.seed}.</p>"]
    if command:
        parts.append(f"<p>Command: <code>{html.escape(command)}</code></p>")
    if result.plan.sweep:
        parts.append(f"<p>{html.escape(sweep_line(result))}.</p>")
    parts.append("<h2>Win rates</h2>")
    parts.append(_table(["batch", "games", "wins", win_header(first), "unfinished",
                         "errors"],
                        [[short(result, b.variant.label), str(s["games"]), str(s["wins"]),
                          interval(s),
                          str(s["unfinished"]), str(s["errors"])]
                         for b, s in zip(result.batches, summaries, strict=True)]))
    parts.append(f"<p class=note>{html.escape(first['ci_method'])}.</p>")
    if result.comparisons:
        parts.append("<h2>Effects (Holm-corrected)</h2>")
        parts.append(_table(
            ["variant", "baseline", "effect",
             f"simultaneous interval ({level_text(result.comparisons[0].get('ci_level', 0.95))})",
             "p (McNemar)", "p (Holm)", "significant"],
            [[short(result, x["variant"]), short(result, x["baseline"]),
              f"{100 * x['effect']:+.1f} pts", effect_interval(x), p_text(x["p_value"]),
              p_text(x["p_holm"]), "yes" if x["significant"] else "no"]
             for x in result.comparisons]))
    for title, svg in plots(result):
        parts.append(f"<h2>{html.escape(title)}</h2><figure>{svg}</figure>")
    parts.append(f"<h2>Measures (intervals {level_text(result.plan.level)})</h2>")
    parts.append(_table(["measure", *[short(result, b.variant.label) for b in result.batches]],
                        [[n, *cells] for n, cells in [*measure_lines(summaries),
                                                      cpu_line(result)]]))
    parts.append("<h2>Games worth a look</h2>")
    found = outliers(rows)
    if not found:
        parts.append("<p>None stand out.</p>")
    else:
        items = []
        for r, why in found:
            cmd = (f"meadhall replay {results_file} --row {r['row']}" if results_file
                   else f"(write the rows with --out to replay row {r['row']})")
            items.append(f"<li id=row-{r['row']}><a href='#row-{r['row']}'>row {r['row']}</a>"
                         f" ({html.escape(r['batch'])}, seed {r['seed']}): {html.escape(why)}"
                         f"<br><code>{html.escape(cmd)}</code></li>")
        parts.append("<ul>" + "".join(items) + "</ul>")
    style = ("body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;"
             "padding:0 1em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
             "th{background:#f4f4f4}code{background:#f4f4f4;padding:.1em .3em}"
             ".note{color:#555}figure{margin:0}")
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<title>meadhall sim: {html.escape(str(first['game']))}</title>"
            f"<style>{style}</style></head><body>{''.join(parts)}</body></html>")


def write_html(result: LabResult, rows: Sequence[Row], path: Path, results_file: Path | None,
               command: str = "") -> None:
    """Write the HTML report atomically."""
    write_text(path, html_report(result, rows, results_file, command))
