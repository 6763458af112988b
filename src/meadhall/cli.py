"""The ``meadhall`` command: set up, inspect, play and check games from the terminal.

Every command works for every registered game through the Game protocol. Errors print one
clear line and exit non-zero; they never show a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import click
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from meadhall import games
from meadhall.core import saves
from meadhall.core.errors import IllegalAction, MeadhallError
from meadhall.matching import match_choice, resolve_action
from meadhall.play import fit_setup, parse_setup, print_decision, print_events, print_outcome

app = typer.Typer(
    help="meadhall: play and measure cooperative Norse board games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

F = TypeVar("F", bound=Callable[..., Any])


WIDE = 400
"""The width of output that is not a terminal (a pipe, a file): wide enough that no table
is cut or squeezed (Rich's default there is 80 columns)."""


def _out() -> Console:
    con = Console(highlight=False, soft_wrap=True)
    if not con.is_terminal:
        con = Console(highlight=False, soft_wrap=True, width=WIDE)
    return con


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def friendly(fn: F) -> F:
    """Turn every error into one line on stderr and a non-zero exit, never a traceback:
    meadhall's errors and OS errors exit 1, Ctrl-C exits 130, and anything unexpected (a bug)
    exits 2 naming the error (``MEADHALL_DEBUG=1`` shows the traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, click.exceptions.ClickException):
            raise
        except MeadhallError as e:
            _err().print(f"[red]error:[/red] {escape(str(e))}")
            raise typer.Exit(1) from None
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            _err().print(f"[red]error:[/red] {escape(where)}{escape(str(e.strerror or e))}")
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            _err().print("interrupted")
            raise typer.Exit(130) from None
        except Exception as e:
            if os.environ.get("MEADHALL_DEBUG"):
                raise
            first = str(e).splitlines()[0] if str(e) else ""
            _err().print(f"[red]internal error:[/red] {type(e).__name__}: {escape(first)} "
                         "(a bug in meadhall; MEADHALL_DEBUG=1 shows where)")
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


@app.command("games")
@friendly
def games_cmd() -> None:
    """List the games with their scenarios and heroes."""
    con = _out()
    table = Table("id", "game", "scenarios", "heroes")
    for g in games.all_games():
        table.add_row(escape(g.id), escape(g.title),
                      escape(", ".join(f"{s.id} ({s.name})" for s in g.scenarios())),
                      escape(", ".join(h.id for h in g.heroes())))
    con.print(table)


def _game(typed: str) -> games.Game:
    """A game by id, title or a unique beginning of either, in any case."""
    all_games = games.all_games()
    return all_games[match_choice(typed, [(g.id, g.title) for g in all_games], "game")]


@app.command("new")
@friendly
def new_cmd(
    game: Annotated[str, typer.Argument(help="game id, see `meadhall games`")],
    output: Annotated[Path, typer.Option("-o", "--output", help="save file to write")],
    scenario: Annotated[str | None, typer.Option(help="scenario id")] = None,
    heroes: Annotated[str | None, typer.Option(help="comma-separated hero ids")] = None,
    seed: Annotated[int | None, typer.Option(help="random seed (default: a fresh one)")] = None,
    table: Annotated[bool, typer.Option("--table", help="table mode: you roll the dice")] = False,
    auto_choices: Annotated[bool, typer.Option(help="take players'-choice defaults")] = False,
    option: Annotated[list[str] | None, typer.Option("--set", help="extra setup KEY=VALUE")] = None,
    force: Annotated[bool, typer.Option("--force", help="replace an existing file")] = False,
) -> None:
    """Set up a new game and save it (an existing file is kept unless --force)."""
    g = _game(game)
    if output.exists() and not force:
        raise saves.SaveExists(f"{output}: already exists; choose another name or pass --force "
                               "to replace it")
    setup = fit_setup(g, parse_setup(scenario, heroes, option or []))
    s = seed if seed is not None else secrets.randbelow(2**31)
    state = g.new_game(setup, s, "table" if table else "seeded", auto_choices)
    saves.write(saves.Save.new(state), output, replace=force)
    con = _out()
    con.print(f"New {g.title} game (seed {s}) saved to {output}", markup=False)
    print_decision(con, state, numbered=False)


@app.command("show")
@friendly
def show_cmd(
    file: Path,
    log: Annotated[int, typer.Option(help="how many recent actions to show")] = 5,
) -> None:
    """Draw the board, tracks, recent events and the decision at hand."""
    save = saves.open_save(file)
    con = _out()
    con.print(save.state.render(), markup=False)
    if save.journal and log > 0:
        con.print("[bold]Recent:[/bold]")
        for entry in save.journal[-log:]:
            con.print(f"  > {entry['action']}", markup=False)
            for line in entry.get("events", []):
                con.print(f"      {line}", markup=False)
    print_decision(con, save.state, numbered=False)


@app.command("actions")
@friendly
def actions_cmd(file: Path, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List the legal actions (numbered; `act` takes the number or the text)."""
    state = saves.open_save(file).state
    if as_json:
        d = state.decision()
        typer.echo(json.dumps({
            "decision": d.to_json() if d else None,
            "actions": [{"n": i, "text": a.text, "label": a.label or a.text, "id": a.id}
                        for i, a in enumerate(state.described_actions(), 1)],
        }, indent=1))
        return
    print_decision(_out(), state)


def _refuse_if_over(save: saves.Save) -> None:
    o = save.state.outcome()
    if o.over:
        word = {"win": "won", "loss": "lost"}.get(o.result, o.result)
        raise IllegalAction(save.state.game, None, f"the game is over: {word} — {o.reason} "
                            "(`meadhall undo` takes back the last step)")


@app.command("act")
@friendly
def act_cmd(
    file: Path,
    action: Annotated[str, typer.Argument(help="the action's number, its text, or the "
                                          "beginning of it (any case)")],
) -> None:
    """Apply one action, print what happened, and save the new state atomically.

    The save is locked from reading to writing, so two `act` on one save at the same moment
    both land, one after the other."""
    con = _out()
    with saves.update(file) as save:
        _refuse_if_over(save)
        chosen = resolve_action(save.state, action)
        events = save.history.apply(save.state, chosen)
        save.record(chosen.text, events)
    if chosen.text != " ".join(action.split()):
        con.print(f"> {chosen.text}", markup=False)
    print_events(con, events)
    print_decision(con, save.state, numbered=False)


@app.command("undo")
@friendly
def undo_cmd(
    file: Path,
    steps: Annotated[int, typer.Option("-n", "--steps", help="how many steps")] = 1,
) -> None:
    """Take back the last step(s) of a save, never past a roll, a draw or a reveal."""
    with saves.update(file) as save:
        save.state = save.history.undo(steps)
        save.journal.append({"action": "undo" if steps == 1 else f"undo {steps}",
                             "events": []})
    con = _out()
    con.print(f"Undone ({steps} step{'s' if steps != 1 else ''}).", markup=False)
    print_decision(con, save.state, numbered=False)


@app.command("concede")
@friendly
def concede_cmd(
    file: Path,
    reason: Annotated[str, typer.Argument(help="why, for the record")] = "",
) -> None:
    """Give up the game in a save: it ends as a loss (`meadhall undo` takes it back)."""
    with saves.update(file) as save:
        _refuse_if_over(save)
        save.history.concede(save.state, reason)
        save.journal.append({"action": "concede", "events": [save.state.outcome().reason]})
    print_outcome(_out(), save.state)


@app.command("validate")
@friendly
def validate_cmd(
    paths: Annotated[list[Path], typer.Argument(help="files, or folders to check every "
                                                "file in")],
) -> None:
    """Check content and position files (or folders of them): schema first, then everything
    the game checks when it loads them."""
    from meadhall.validation import collect, validate_path

    con = _out()
    files = collect(paths)
    bad = 0
    for f in files:
        try:
            what = validate_path(f)
        except MeadhallError as e:
            bad += 1
            con.print(f"[red]✗[/red] {escape(str(e))}")
        else:
            con.print(f"[green]✓[/green] {escape(str(f))}: {escape(what)}")
    con.print(f"{len(files) - bad} of {len(files)} files valid")
    if bad:
        raise typer.Exit(1)


@app.command("schema")
@friendly
def schema_cmd(
    game: Annotated[str | None, typer.Argument(help="only this game")] = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="folder")] = Path("schemas"),
) -> None:
    """Export JSON Schemas for positions and every game's content files."""
    from meadhall.validation import all_schemas

    written = 0
    for name, schema in all_schemas(game).items():
        saves.write_json_atomic(output / f"{name}.schema.json", schema)
        written += 1
    _out().print(f"Wrote {written} schemas to {output}/", markup=False)


@app.command("rules-coverage")
@friendly
def rules_coverage_cmd(
    game: Annotated[str | None, typer.Argument(help="only this game")] = None,
    root: Annotated[Path | None, typer.Option(help="project folder")] = None,
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="list test names")] = False,
) -> None:
    """List each rulebook section with the tests that cite it, and the sections with none."""
    from meadhall.coverage import coverage, find_root

    con = _out()
    report = coverage(find_root(root), game)
    con.print("Each rulebook section (docs/rules/<game>.toml), with in front of it the number "
              "of tests that cite it (@pytest.mark.rule); [red]0[/red]: no test yet; "
              "[dim]n/a[/dim]: nothing to test, and why; [yellow]?[/yellow]: tests citing a "
              "section the table of contents does not list. -v names the tests.")
    for gc in report:
        con.print(f"[bold]{gc.game}[/bold]")
        for s in gc.sections:
            name = f"{s.parent} › {s.name}" if s.parent else s.name
            if s.not_applicable:
                con.print(f"  [dim]n/a[/dim]  {escape(name)} [dim]— "
                          f"{escape(s.not_applicable)}[/dim]")
            elif s.tests:
                con.print(f"  [green]{len(s.tests):>3}[/green]  {escape(name)}")
                if verbose:
                    for t in s.tests:
                        con.print(f"         {t}", markup=False)
            else:
                con.print(f"  [red]  0[/red]  {escape(name)}  [red](no test)[/red]")
        for sec, tests in sorted(gc.unknown.items()):
            con.print(f"  [yellow]?[/yellow] tests cite {escape(repr(sec))}, which is not in "
                      f"docs/rules/{gc.game}.toml ({len(tests)} tests)")
    for gc in report:
        con.print(f"{gc.game}: {gc.covered} of {gc.total} sections covered (tested or n/a)")


@app.command("play")
@friendly
def play_cmd(
    game: Annotated[str | None, typer.Argument(help="game id, or a save file to resume")] = None,
    scenario: Annotated[str | None, typer.Option(help="scenario id")] = None,
    heroes: Annotated[str | None, typer.Option(help="comma-separated hero ids")] = None,
    seed: Annotated[int | None, typer.Option(help="random seed")] = None,
    save: Annotated[Path | None, typer.Option(help="autosave file")] = None,
    table: Annotated[bool, typer.Option("--table", help="table mode: you roll the dice")] = False,
    option: Annotated[list[str] | None, typer.Option("--set", help="extra setup KEY=VALUE")] = None,
    bot: Annotated[list[str] | None, typer.Option(help="SEAT=KIND: a bot plays this seat "
                                                  "(heuristic, random, mcts:200; all=KIND "
                                                  "for every seat)")] = None,
) -> None:
    """Play interactively in the terminal, with undo and autosave."""
    from meadhall.play import TerminalSession

    setup = parse_setup(None, None, option or [])
    TerminalSession(_out(), bots=bot or []).run(game, scenario, heroes, seed, save, table, setup)


@app.command("bench")
@friendly
def bench_cmd(
    game: Annotated[str | None, typer.Argument(help="only this game")] = None,
    runs: Annotated[int, typer.Option(min=1, help="runs per figure (median and min)")] = 3,
    seconds: Annotated[float, typer.Option(min=0.05, help="seconds of random play per run")]
    = 1.0,
    default_party: Annotated[bool, typer.Option("--default-party",
                                                help="only each game's default party")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Measure steps/s, apply and legal_actions time, clone vs deepcopy and rollouts/s, in
    CPU time (a warning when the load average exceeds the CPUs)."""
    from meadhall.bench import run_bench

    run_bench(_out(), game, runs, seconds, as_json, not default_party, _err())


@app.command("sim")
@friendly
def sim_cmd(
    game: Annotated[str, typer.Argument(help="game id, see `meadhall games`")],
    scenario: Annotated[str | None, typer.Option(help="scenario id")] = None,
    heroes: Annotated[str | None, typer.Option(help="comma-separated hero ids")] = None,
    option: Annotated[list[str] | None, typer.Option("--set", help="extra setup KEY=VALUE")] = None,
    bot: Annotated[str, typer.Option(help="random, heuristic, mcts:200, mcts:1s")] = "heuristic",
    bots: Annotated[str | None, typer.Option(help="several bots, comma-separated: one batch "
                                             "each (random,heuristic,mcts:200)")] = None,
    n_games: Annotated[int | None, typer.Option("--games", help="games per batch (default "
                                                "200); with --until-ci the most to play "
                                                "(default 6400)")] = None,
    seed: Annotated[int, typer.Option(help="base seed: game i of every batch has the same "
                                      "seed")] = 1,
    workers: Annotated[str, typer.Option(help="worker processes, or auto (one per CPU)")] = "auto",
    out: Annotated[Path | None, typer.Option(help="one row per game: .parquet or .csv")] = None,
    html: Annotated[Path | None, typer.Option(help="HTML report with plots")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    content: Annotated[list[str] | None, typer.Option(help="what-if PATH=VALUE, e.g. "
                                                      "undead.draugr.mv=2")] = None,
    sweep: Annotated[str | None, typer.Option(help="PATH=V1,V2,...: one batch per value, "
                                              "compared with the current value")] = None,
    until_ci: Annotated[float | None, typer.Option(help="play until the win-rate interval is "
                                                   "narrower than this (e.g. 0.1)")] = None,
    max_steps: Annotated[int, typer.Option(help="decisions before a game counts as "
                                           "unfinished")] = 5000,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", "--address",
        help="Ray cluster address, HEAD:6379 (default: a local Ray)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr (a bar "
                                        "on a terminal, else a line every 10 s)")] = False,
) -> None:
    """Let bots play a game many times and report win rates, defeats and measures."""
    import sys

    from meadhall.sim import commands

    setup = fit_setup(_game(game), parse_setup(scenario, heroes, option or []))
    code = commands.sim(_out(), _err(), game, setup, commands.parse_bots(bot, bots), n_games,
                        seed, workers, out, html, as_json, content or [], sweep, until_ci,
                        max_steps, backend, ray_address, " ".join(["meadhall", *sys.argv[1:]]),
                        quiet)
    if code:
        raise typer.Exit(code)


@app.command("sim-table")
@friendly
def sim_table_cmd(
    game: Annotated[list[str] | None, typer.Argument(help="game ids (default: every game)")]
    = None,
    scenario: Annotated[list[str] | None, typer.Option(help="only these scenario ids")] = None,
    n_games: Annotated[str | None, typer.Option("--games", help="BOT=N,...: the bots and "
                                                "their games per cell (default "
                                                "random=100,heuristic=60,mcts:50=20)")] = None,
    others: Annotated[float, typer.Option(help="parties other than the default play this "
                                          "share of the games (at least 10)")] = 1.0,
    default_party: Annotated[bool, typer.Option("--default-party", help="only the default "
                                                "party of each scenario")] = False,
    seed: Annotated[int, typer.Option(help="base seed of every cell")] = 1,
    workers: Annotated[str, typer.Option(help="worker processes, or auto")] = "auto",
    out: Annotated[Path, typer.Option(help="JSON-lines file the cells are appended to (a "
                                      "rerun plays only the missing cells)")]
    = Path("balance-table.jsonl"),
    markdown: Annotated[bool, typer.Option("--markdown", help="print the file's table as "
                                           "Markdown, playing nothing")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr (a bar "
                                        "on a terminal, else a line every 10 s)")] = False,
) -> None:
    """Measure the balance table: every scenario and party size, with each bot."""
    from meadhall.sim import commands

    commands.table_command(_out(), _err(), game or games.ids(), scenario or None, n_games,
                           others, not default_party, seed, workers, out, markdown, quiet)


@app.command("tune")
@friendly
def tune_cmd(
    game: Annotated[str, typer.Argument(help="game id, see `meadhall games`")],
    param: Annotated[list[str], typer.Option(help="PATH=LOW..HIGH, e.g. undead.draugr.hv=1..3")],
    target_win: Annotated[float, typer.Option(help="the win rate to aim for")] = 0.5,
    target: Annotated[list[str] | None, typer.Option(help="another target MEASURE=VALUE, "
                                                     "e.g. rounds=12 (repeatable)")] = None,
    scenario: Annotated[str | None, typer.Option(help="scenario id")] = None,
    heroes: Annotated[str | None, typer.Option(help="comma-separated hero ids")] = None,
    option: Annotated[list[str] | None, typer.Option("--set", help="extra setup KEY=VALUE")] = None,
    bot: Annotated[str, typer.Option(help="the bot whose win rate is tuned")] = "heuristic",
    n_games: Annotated[int, typer.Option("--games", help="games per trial")] = 200,
    trials: Annotated[int, typer.Option(help="Optuna trials")] = 20,
    confirm: Annotated[int, typer.Option(help="fresh games to measure the best values "
                                         "again (0: as many as a trial)")] = 0,
    seed: Annotated[int, typer.Option(help="base seed (every trial plays the same "
                                      "games)")] = 1,
    workers: Annotated[str, typer.Option(help="worker processes, or auto")] = "auto",
    content: Annotated[list[str] | None, typer.Option(help="fixed what-if PATH=VALUE")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", "--address", help="Ray cluster address, HEAD:6379")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr (a bar "
                                        "on a terminal, else a line every 10 s)")] = False,
) -> None:
    """Search content values (Optuna) toward a target win rate and print the best."""
    from meadhall.sim import commands

    setup = fit_setup(_game(game), parse_setup(scenario, heroes, option or []))
    commands.tune_command(_out(), _err(), game, setup, param, target_win, bot, n_games, trials,
                          seed, workers, confirm, content or [], as_json, backend, ray_address,
                          quiet, target or [])


@app.command("replay")
@friendly
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="results file written by `meadhall sim --out`")],
    row: Annotated[int, typer.Option(help="the row to replay (its `row` column)")],
    from_log: Annotated[bool, typer.Option(help="replay the stored action log instead of "
                                           "re-running the bot")] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="only the result")] = False,
) -> None:
    """Play a results row's game again from its seed and print its log with the events."""
    from meadhall.sim import commands

    code = commands.replay_command(_out(), file, row, from_log, quiet)
    if code:
        raise typer.Exit(code)


@app.command("serve")
@friendly
def serve_cmd(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: friends on your "
                                      "network)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
    db: Annotated[Path | None, typer.Option(help="SQLite file of the tables (default: your "
                                            "data folder)")] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before each move")] = 0.5,
) -> None:
    """Serve the browser table: every game in a web page, alone or with friends."""
    from meadhall.server.serve import serve

    serve(host, port, db, bot_delay, echo=lambda m: _out().print(m, markup=False))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
