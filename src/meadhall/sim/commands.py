"""The lab's commands as the terminal shows them (``meadhall sim``, ``tune``, ``replay``):
``meadhall.cli`` parses the options and calls these."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from meadhall.core.errors import ContentError, MeadhallError
from meadhall.core.protocol import Decision, Event
from meadhall.sim import report, results, table
from meadhall.sim.lab import Announce, Plan, run
from meadhall.sim.replay import find_row, replay
from meadhall.sim.runner import MAX_STEPS, backend
from meadhall.sim.tune import parse_param, parse_target, tune
from meadhall.sim.whatif import Override, parse_override, parse_value


def parse_workers(text: str) -> int:
    """``auto`` (0: one per CPU) or a positive number of worker processes."""
    if text == "auto":
        return 0
    if not text.isdigit() or int(text) < 1:
        raise MeadhallError(f"--workers takes a positive number or auto, not {text!r}")
    return int(text)


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """``PATH=V1,V2,V3`` as the path and its values (JSON when they parse)."""
    path, sep, raw = text.partition("=")
    if not sep or not path.strip() or not raw.strip():
        raise ContentError("--sweep", text, "expected PATH=V1,V2,..., e.g. undead.draugr.mv=1,2,3")
    try:
        values = json.loads(f"[{raw}]")
    except json.JSONDecodeError:
        values = [parse_value(v.strip()) for v in raw.split(",")]
    if len(values) != len({json.dumps(v, sort_keys=True) for v in values}):
        raise ContentError("--sweep", text, "a value is listed twice")
    return path.strip(), values


def parse_bots(bot: str, bots: str | None) -> list[str]:
    """``--bots a,b`` when given, else ``--bot``."""
    if bots:
        out = [b.strip() for b in bots.split(",") if b.strip()]
        if len(out) != len(set(out)):
            raise MeadhallError("--bots lists a bot twice")
        return out
    return [bot.strip()]


PROGRESS_EVERY = 10.0
"""Seconds between the progress lines printed when stderr is not a terminal."""


class ProgressLines:
    """Progress for a log file or a pipe: a line every ``every`` seconds (games done of the
    batch, games per second, time left), from a timer thread, so that a long batch whose
    workers report rarely still shows it is alive."""

    def __init__(self, err: Console, every: float = PROGRESS_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.err, self.every, self.clock = err, every, clock
        self.label, self.total, self.done, self.start = "", 0, 0, clock()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def announce(self, label: str, n: int) -> Callable[[int], None]:
        with self.lock:
            self.label, self.total, self.done, self.start = label, n, 0, self.clock()
        if self.thread is None:
            self.thread = threading.Thread(target=self._tick, daemon=True)
            self.thread.start()

        def advance(k: int) -> None:
            with self.lock:
                self.done += k
        return advance

    def line(self) -> str:
        with self.lock:
            label, total, done = self.label, self.total, self.done
            elapsed = max(1e-9, self.clock() - self.start)
        rate = done / elapsed
        if done and total > done:
            left = (total - done) / rate
            eta = f"about {left / 60:.0f} min left" if left >= 90 else f"about {left:.0f} s left"
        elif total and done >= total:
            eta = "done"
        else:
            eta = "time left unknown yet"
        return f"{label}: {done}/{total} games, {rate:.2f} games/s, {eta}"

    def _tick(self) -> None:
        while not self.stop.wait(self.every):
            self.err.print(self.line(), markup=False, highlight=False)

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=1)


@contextmanager
def progress_bar(err: Console, quiet: bool = False) -> Iterator[Announce]:
    """Progress on stderr; yields the ``announce`` the lab calls per batch: a Rich bar on a
    terminal, a line every :data:`PROGRESS_EVERY` seconds otherwise, nothing when ``quiet``."""
    if quiet:
        yield lambda label, n: (lambda k: None)
        return
    if not err.is_terminal:
        lines = ProgressLines(err)
        try:
            yield lines.announce
        finally:
            lines.close()
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                  transient=True) as bar:
        def announce(label: str, n: int) -> Callable[[int], None]:
            task = bar.add_task(escape(label), total=n)
            return lambda k: bar.advance(task, k)

        yield announce


GAMES = 200
"""Games per batch when ``--games`` is not given."""
UNTIL_CI_CAP = 6400
"""The most games ``--until-ci`` plays when ``--games`` is not given (the seventh look)."""


def sim(out: Console, err: Console, game: str, setup: dict[str, Any], bots: list[str],
        games: int | None, seed: int, workers: str, output: Path | None, html: Path | None,
        as_json: bool, content: list[str], sweep: str | None, until_ci: float | None,
        max_steps: int = MAX_STEPS, backend_name: str = "local",
        ray_address: str | None = None, command: str = "", quiet: bool = False) -> int:
    """Run ``meadhall sim``; returns the exit code (1 when games failed with an error)."""
    overrides: list[Override] = [parse_override(c) for c in content]
    if games is None:
        games = UNTIL_CI_CAP if until_ci is not None else GAMES
    plan = Plan(game, setup, bots, overrides, parse_sweep(sweep) if sweep else None, games,
                seed, until_ci, max_steps)
    plan.check()
    if output is not None:
        results.check_format(output)
    if html is not None and output is None:
        output = html.with_suffix(".parquet")
    with backend(backend_name, parse_workers(workers), ray_address) as b, \
            progress_bar(err, quiet) as announce:
        result = run(plan, b, announce)
    rows = result.rows()
    if output is not None:
        results.write(rows, output)
    if html is not None:
        report.write_html(result, rows, html, output, command)
    if as_json:
        out.print_json(json.dumps(result.to_json()))
    else:
        report.print_report(out, result)
        if output is not None:
            out.print(f"{len(rows)} rows written to {escape(str(output))}"
                      + (f", report in {escape(str(html))}" if html else ""))
    failed = sum(b.summary["errors"] for b in result.batches)
    if failed:
        err.print(f"[red]error:[/red] {failed} of {len(rows)} games stopped with an error "
                  "(listed above; replay one with `meadhall replay FILE --row N`)")
        return 1
    return 0


PILOT_GAMES = 2
"""Games played before a tune starts, to estimate its time."""


def estimate_seconds(game: str, setup: dict[str, Any], bot: str, content: list[Override],
                     seed: int) -> float:
    """CPU seconds per game of ``bot`` on this setup, from a short pilot in this process."""
    from meadhall.sim.runner import Job, play

    start = time.process_time()
    for i in range(PILOT_GAMES):
        play(Job.make(game, setup, seed + 7_777 + i, bot, content))
    return (time.process_time() - start) / PILOT_GAMES


def tune_command(out: Console, err: Console, game: str, setup: dict[str, Any],
                 params: list[str], target: float, bot: str, games: int, trials: int,
                 seed: int, workers: str, confirm: int, content: list[str], as_json: bool,
                 backend_name: str = "local", ray_address: str | None = None,
                 quiet: bool = False, targets: list[str] | None = None) -> None:
    """Run ``meadhall tune``: print its plan (games and an estimated time), then the trials
    and the best values, or that the parameters have no effect."""
    if not params:
        raise MeadhallError("nothing to tune: give at least one --param PATH=LOW..HIGH")
    parsed = [parse_param(p) for p in params]
    goals = dict(parse_target(t) for t in targets or [])
    overrides = [parse_override(c) for c in content]
    planned = trials * games + (confirm or games)
    with backend(backend_name, parse_workers(workers), ray_address) as b:
        per_game = estimate_seconds(game, setup, bot, overrides, seed)
        workers_n = max(1, getattr(b, "workers", 1))
        minutes = per_game * planned / workers_n / 60
        aims = ", ".join([f"win rate {report.pct(target)}",
                          *(f"{k} {v:g}" for k, v in goals.items())])
        plan_line = (f"Plan: {trials} trials x {games} games + {confirm or games} "
                     f"confirmation games = {planned:,} games with {bot} (aiming at {aims}); "
                     f"about {minutes:.1f} min on {workers_n} worker"
                     f"{'s' if workers_n != 1 else ''} ({per_game:.2f} CPU s per game in a "
                     f"{PILOT_GAMES}-game pilot; trials whose values repeat are not played "
                     "again)")
        err.print(plan_line, markup=False, highlight=False)
        with progress_bar(err, quiet) as announce:
            res = tune(game, setup, parsed, target, b, bot, games, trials, seed, confirm,
                       overrides, announce, goals)
    if as_json:
        out.print_json(json.dumps(res.to_json()))
        return
    others = [k for k in goals if k != "rounds"]
    rounds_col = "rounds [95% interval]" + (f" (target {goals['rounds']:g})"
                                            if "rounds" in goals else "")
    cols = [f"{k} [95% interval] (target {goals[k]:g})" for k in others]
    t = Table("trial", *[escape(p.path) for p in parsed], "win rate [95% interval]",
              escape(rounds_col), *[escape(c) for c in cols], "distance to targets",
              title=f"Trials ({games} games each, the same seeds)")
    for x in sorted(res.trials, key=lambda x: (x.errors > 0, res.distance(x))):
        measured = report.interval({"win_rate": x.win_rate, "ci_low": x.ci[0],
                                    "ci_high": x.ci[1]})
        extra = [report.interval(dict(zip(("mean", "ci_low", "ci_high"), x.means[k],
                                          strict=True)), False) if k in x.means else "–"
                 for k in ["rounds", *others]]
        if x.errors:
            measured = f"[red]{x.errors} games failed: {escape(str(x.error))}[/red]"
        t.add_row(str(x.number + 1), *[str(x.values[p.path]) for p in parsed], measured,
                  *extra, "–" if x.errors else f"{res.distance(x):.3f}")
    out.print(t)
    assert res.best is not None and res.confirmed is not None
    for path in res.no_effect:
        p = next(q for q in parsed if q.path == path)
        out.print(f"[bold]No effect:[/bold] {escape(path)} from {p.value(p.low)} to "
                  f"{p.value(p.high)} changes no measure beyond noise (win rate, rounds"
                  f"{''.join(', ' + escape(k) for k in others)}): leave it at "
                  f"{res.before[path]}")
    if len(res.no_effect) == len(parsed):
        return
    out.print(f"[bold]Best values[/bold] for {escape(aims)} with {escape(bot)}:")
    for p in parsed:
        if p.path in res.no_effect:
            continue
        mark = {True: "authored", False: "[yellow]printed in the rulebook[/yellow]",
                None: "authored: not marked"}[res.authored[p.path]]
        out.print(f"  {escape(p.path)}: {res.before[p.path]} → {res.best.values[p.path]} "
                  f"({mark})")
    c = res.confirmed
    if c.errors:
        err.print(f"[red]error:[/red] {c.errors} of the {c.games} confirmation games failed: "
                  f"{escape(str(c.error))}")
    again = "".join(f", {k} {report.interval(dict(zip(('mean', 'ci_low', 'ci_high'), v, strict=True)), False)}"
                    for k, v in c.means.items() if k in goals)
    out.print(f"Measured again on {c.games} fresh games: "
              f"{report.interval({'win_rate': c.win_rate, 'ci_low': c.ci[0], 'ci_high': c.ci[1]})}"
              f"{escape(again)} (the trial itself: "
              f"{report.pct(res.best.win_rate)}, picked among {len(res.trials)})")


def replay_command(out: Console, file: Path, row: int, from_log: bool, quiet: bool) -> int:
    """Run ``meadhall replay``; returns 1 when the re-run differs from the row."""
    rows = results.read(file)
    r = find_row(rows, row, str(file))
    out.print(f"[bold]Row {row}[/bold]: {escape(str(r['game']))} "
              f"{escape(str(r.get('batch') or ''))}, seed {r['seed']}, bot "
              f"{escape(str(r['bot']))} (seed {r['bot_seed']}), setup {escape(str(r['setup']))}"
              + (f", content {escape(str(r['content']))}" if r.get("content") else ""))
    count = 0

    def show(d: Decision, action: str, events: list[Event]) -> None:
        nonlocal count
        count += 1
        if quiet:
            return
        who = escape(f"[{d.seat}] ") if d.seat else ""
        out.print(f"{count:>4}. {who}[bold]{escape(action)}[/bold]")
        for e in events:
            sec = f" [dim]— {escape(e.section)}[/dim]" if e.section else ""
            out.print(f"        • {escape(e.text)}{sec}")

    got = replay(r, show, from_log)
    how = "its stored action log" if got.from_log else "the bot, from the seeds"
    out.print(f"[bold]{got.result.upper()}[/bold]: {escape(got.reason or got.error or '')} "
              f"({count} decisions, replayed with {how})")
    if got.measures:
        out.print("Measures: " + escape(json.dumps(got.measures, sort_keys=True)))
    if got.matches:
        out.print("[green]Reproduced:[/green] the same actions and result as the row.")
        return 0
    out.print(f"[red]error:[/red] the replay differs from the row (row: {r['result']}, "
              f"{len(json.loads(r.get('log') or '[]'))} log entries; replay: {got.result}, "
              f"{len(got.log)} log entries)")
    return 1


def table_command(out: Console, err: Console, game_ids: list[str], scenarios: list[str] | None,
                  games: str | None, others: float, all_sizes: bool, seed: int, workers: str,
                  path: Path, as_markdown: bool, quiet: bool = False) -> None:
    """Run ``meadhall sim-table``: measure the missing cells (one line each as it finishes),
    or with ``--markdown`` print the file's table."""
    from meadhall import games as registry

    for gid in game_ids:
        registry.get(gid)
    if as_markdown:
        cells = [c for c in table.load(path) if c.game in game_ids
                 and (scenarios is None or c.scenario in scenarios)]
        if not cells:
            raise MeadhallError(f"{path}: no cells for {', '.join(game_ids)}")
        out.print(table.markdown(cells), markup=False)
        return
    bots = table.parse_games(games)
    if not 0 < others <= 1:
        raise MeadhallError("--others takes a share of the games between 0 and 1, e.g. 0.5")

    def done(c: table.Cell) -> None:
        out.print(f"{c.game} {c.scenario} {','.join(c.heroes)} {c.bot}: {table.figure(c)} "
                  f"({c.seconds:.0f} s)", markup=False)

    with backend("local", parse_workers(workers)) as b, progress_bar(err, quiet) as announce:
        cells = table.measure(game_ids, bots, seed, path, b, scenarios, all_sizes, others,
                              announce, done)
    out.print(f"{len(cells)} cells in {escape(str(path))}; `meadhall sim-table --markdown "
              f"--out {escape(str(path))}` prints the table")
