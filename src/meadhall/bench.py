"""``meadhall bench``: how fast each game steps, copies and plays out, measured honestly.

For each game and party size it plays random games (a seeded random bot taking the actions
``legal_actions()`` returns, the way bots do) and reports the median and the minimum over
several runs: steps per second, microseconds per ``apply`` and per ``legal_actions``, random
games per second, ``clone()`` of a mid-game state against ``copy.deepcopy`` (with the game's
content shared, as clone shares it), and rollouts per second (clone a mid-game state and play
it out at random: what a Monte Carlo bot does). Nothing is replayed or checked while timing.
"""

from __future__ import annotations

import copy
import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from meadhall import games
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Game, GameState
from meadhall.core.rng import Rng


@dataclass
class Figures:
    """The measurements of one game and party size (medians, with minima where useful)."""

    game: str
    heroes: list[str]
    steps_per_s: float
    steps_per_s_min: float
    apply_us: float
    legal_us: float
    games_per_s: float
    steps_per_game: float
    clone_us: float
    deepcopy_us: float
    rollouts_per_s: float
    runs: int


def parties(game: Game) -> Iterator[list[str]]:
    """The default party, then every other party size the game accepts (its first heroes)."""
    default = list(game.default_setup().get("heroes", []))
    yield default
    ids = [h.id for h in game.heroes()]
    for n in range(1, len(ids) + 1):
        heroes = ids[:n]
        if len(heroes) == len(default):
            continue
        try:
            game.new_game({"heroes": heroes}, 0)
        except MeadhallError:
            continue
        yield heroes


def _random_games(game: Game, setup: dict[str, Any], seconds: float, seed0: int
                  ) -> tuple[int, int, float, float, float]:
    """Play random games for about ``seconds``: steps, games, total, apply and legal time."""
    steps = done = 0
    t_apply = t_legal = 0.0
    clock = CLOCK
    start = clock()
    seed = seed0
    while True:
        state = game.new_game(setup, seed)
        rng = Rng(seed)
        while state.decision() is not None:
            t0 = clock()
            acts = state.legal_actions()
            t1 = clock()
            state.apply(acts[rng.below(len(acts))])
            t2 = clock()
            t_legal += t1 - t0
            t_apply += t2 - t1
            steps += 1
        done += 1
        seed += 1
        if clock() - start >= seconds:
            return steps, done, clock() - start, t_apply, t_legal


CLOCK = time.process_time
"""Every figure is CPU time of this process: on a machine shared with other work, wall clock
measures the load (at load 12 an apply of 27 µs timed 889 µs), CPU time the code."""


def load_warning() -> str | None:
    """A warning when the machine's load average exceeds its CPUs: CPU-time figures hold,
    but caches and memory are shared with the other work and still slow them a little."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - not on Unix
        return None
    cpus = os.cpu_count() or 1
    if load <= cpus:
        return None
    return (f"the load average is {load:.1f} on {cpus} CPUs: other work competes for the "
            "machine; the figures are CPU time of this process, but expect them a little "
            "slower than on a quiet machine")


def random_game(game: Game, setup: dict[str, Any] | None, seed: int) -> int:
    """Play one seeded random game to its end; returns its number of steps."""
    state = game.new_game(setup, seed)
    rng = Rng(seed)
    steps = 0
    while state.decision() is not None:
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
        steps += 1
    return steps


def midgame(game: Game, setup: dict[str, Any] | None, seed: int = 1) -> GameState:
    """A state some way into a random game (where copies and rollouts are measured)."""
    state = game.new_game(setup, seed)
    rng = Rng(seed)
    for _ in range(25):
        if state.decision() is None:
            break
        acts = state.legal_actions()
        nxt = state.clone()
        nxt.apply(nxt.legal_actions()[rng.below(len(acts))])
        if nxt.decision() is None:
            break
        state = nxt
    return state


def _per_call(fn: Callable[[], object], budget: float) -> float:
    n, start = 0, CLOCK()
    while True:
        fn()
        n += 1
        elapsed = CLOCK() - start
        if elapsed > budget:
            return elapsed / n


def _rollouts(state: GameState, seconds: float) -> float:
    n, start, rng = 0, CLOCK(), Rng(7)
    while True:
        s = state.clone()
        while s.decision() is not None:
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
        n += 1
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return n / elapsed


def measure(game: Game, heroes: list[str], runs: int = 3, seconds: float = 1.0) -> Figures:
    """All figures for one game and party, medians over ``runs`` runs of ``seconds`` each."""
    setup = game.normalise_setup({"heroes": heroes})
    rates, applies, legals, gps, lengths = [], [], [], [], []
    for r in range(runs):
        steps, done, total, t_apply, t_legal = _random_games(game, setup, seconds, 1000 * r)
        rates.append(steps / total)
        applies.append(t_apply / steps * 1e6)
        legals.append(t_legal / steps * 1e6)
        gps.append(done / total)
        lengths.append(steps / done)
    mid = midgame(game, setup)
    shared = {id(mid.content): mid.content, id(mid.setup): mid.setup}
    budget = min(0.3, seconds / 3)
    clone = _per_call(mid.clone, budget)
    deep = _per_call(lambda: copy.deepcopy(mid, dict(shared)), budget)
    rollouts = statistics.median(_rollouts(mid, seconds / 2) for _ in range(runs))
    return Figures(game.id, heroes, statistics.median(rates), min(rates),
                   statistics.median(applies), statistics.median(legals), statistics.median(gps),
                   statistics.median(lengths), clone * 1e6, deep * 1e6, rollouts, runs)


def run_all(game: str | None = None, runs: int = 3, seconds: float = 1.0,
            all_parties: bool = True) -> list[Figures]:
    """Figures for every game (or one), for the default party and, with ``all_parties``,
    every other party size."""
    out = []
    for g in games.all_games():
        if game and g.id != game:
            continue
        for heroes in (parties(g) if all_parties else [list(g.default_setup()["heroes"])]):
            out.append(measure(g, heroes, runs, seconds))
    if game and not out:
        games.get(game)  # raises for an unknown game
    return out


COLUMNS = {
    "game": "the game's id",
    "party": "the heroes of the setup (the default party first, then other party sizes)",
    "steps/s": "decisions answered per CPU second in random play (median of the runs; min "
               "after /)",
    "apply µs": "CPU microseconds per state.apply(action) in those games (median of the runs)",
    "legal µs": "CPU microseconds per state.legal_actions() in those games (median of the "
                "runs)",
    "games/s": "random games played to the end per CPU second (a seeded random bot)",
    "steps/game": "decisions taken in an average random game (its length)",
    "clone µs": "CPU microseconds to copy a mid-game state with state.clone() (what search bots do "
                "at every node)",
    "deepcopy µs": "the same copy made by Python's copy.deepcopy with the content shared, for "
                   "comparison",
    "rollouts/s": "clone a mid-game state and play it out at random, per CPU second (what a "
                  "Monte Carlo bot does)",
}
"""What each column of the bench table measures, printed under the table."""


def explain_columns(con: Console, table: Table) -> None:
    """One line per column of ``table`` saying what it measures (columns not described in
    :data:`COLUMNS` are listed without an explanation, so a new column is never silent)."""
    con.print("Columns:", style="bold")
    for column in table.columns:
        name = str(column.header)
        con.print(f"  {name}: {COLUMNS.get(name, '(not described yet)')}", markup=False,
                  highlight=False)


def table_of(figures: list[Figures]) -> Table:
    table = Table(*COLUMNS)
    for f in figures:
        table.add_row(f.game, ",".join(f.heroes), f"{f.steps_per_s:,.0f} / {f.steps_per_s_min:,.0f}",
                      f"{f.apply_us:.1f}", f"{f.legal_us:.1f}", f"{f.games_per_s:.1f}",
                      f"{f.steps_per_game:.0f}", f"{f.clone_us:.1f}", f"{f.deepcopy_us:.0f}",
                      f"{f.rollouts_per_s:.1f}")
    return table


def run_bench(con: Console, game: str | None = None, runs: int = 3, seconds: float = 1.0,
              as_json: bool = False, all_parties: bool = True, err: Console | None = None
              ) -> list[dict[str, Any]]:
    """Measure and print (a Rich table with its column explanations, or JSON); a warning on
    ``err`` when the machine is loaded beyond its CPUs (before and after measuring)."""
    text = load_warning()
    figures = run_all(game, runs, seconds, all_parties)
    text = text or load_warning()
    if text and err is not None:
        err.print(f"[yellow]warning:[/yellow] {text}", highlight=False)
    rows = [asdict(f) for f in figures]
    if as_json:
        import json

        con.print_json(json.dumps(rows))
    else:
        table = table_of(figures)
        con.print(table)
        explain_columns(con, table)
    return rows
